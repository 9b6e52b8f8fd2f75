package robots

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSplitTime: FILE@TIME names a version; an "@" that starts no time is
// the file's or URL's own; one that starts a bad date is refused.
func TestSplitTime(t *testing.T) {
	cases := []struct {
		in, src string
		at      string // RFC 3339; "" none
		date    bool
		err     bool
	}{
		{"robots.txt", "robots.txt", "", false, false},
		{"robots.txt@2024-05-01T12:00:00Z", "robots.txt", "2024-05-01T12:00:00Z", false, false},
		{"robots.txt@2024-05-01T12:00:00+02:00", "robots.txt", "2024-05-01T12:00:00+02:00", false, false},
		{"robots.txt@2024-05-01", "robots.txt", "2024-05-01T00:00:00Z", true, false},
		{"http://u:p@example.com/robots.txt", "http://u:p@example.com/robots.txt", "", false, false},
		{"http://u:p@example.com/robots.txt@2024-05-01", "http://u:p@example.com/robots.txt", "2024-05-01T00:00:00Z", true, false},
		{"me@home.txt", "me@home.txt", "", false, false},
		{"robots.txt@2024-13-01", "", "", false, true},
		{"robots.txt@2024-05-01 12:00", "", "", false, true},
	}
	for _, tt := range cases {
		src, at, date, err := SplitTime(tt.in)
		if (err != nil) != tt.err {
			t.Errorf("%q: error %v, want one: %v", tt.in, err, tt.err)
			continue
		}
		if tt.err {
			continue
		}
		got := ""
		if !at.IsZero() {
			got = at.Format(time.RFC3339)
		}
		if src != tt.src || got != tt.at || date != tt.date {
			t.Errorf("%q: %q %q %v, want %q %q %v", tt.in, src, got, date, tt.src, tt.at, tt.date)
		}
	}
}

// TestLoadSetVersions: a site's files over time, for the whole log and for
// a host, by --robots FILE@TIME and by a directory of versions.
func TestLoadSetVersions(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	v1 := write("v1.txt", "User-agent: *\nDisallow: /a/\n")
	v2 := write("v2.txt", "User-agent: *\nDisallow: /a/\nDisallow: /b/\n")
	write("hist/2024-05-01.txt", "User-agent: *\nDisallow: /x/\n")
	write("hist/2024-05-03T06:00:00Z.txt", "User-agent: *\nDisallow: /\n")
	hist, err := HistorySources("", filepath.Join(dir, "hist"))
	if err != nil {
		t.Fatal(err)
	}
	hostHist, err := HistorySources("www.example.com", filepath.Join(dir, "hist"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		sources []string
		host    string
		want    []string // each version: From (RFC 3339, "" from the start) and size
		err     string
	}{
		{"one file: no history", []string{v1}, "", nil, ""},
		{"a file from the start and a later one", []string{v2 + "@2024-05-02T10:00:00Z", v1}, "",
			[]string{" 28", "2024-05-02T10:00:00Z 42"}, ""},
		{"every version timed", []string{v1 + "@2024-05-01", v2 + "@2024-05-02"}, "",
			[]string{"2024-05-01T00:00:00Z 28", "2024-05-02T00:00:00Z 42"}, ""},
		{"a host's versions", []string{"WWW.example.com=" + v1, "www.example.com=" + v2 + "@2024-05-02T10:00:00Z"}, "www.example.com",
			[]string{" 28", "2024-05-02T10:00:00Z 42"}, ""},
		{"a directory", hist, "", []string{"2024-05-01T00:00:00Z 28", "2024-05-03T06:00:00Z 26"}, ""},
		{"a host's directory", hostHist, "www.example.com", []string{"2024-05-01T00:00:00Z 28", "2024-05-03T06:00:00Z 26"}, ""},
		{"two from one time", []string{v1 + "@2024-05-01", v2 + "@2024-05-01T00:00:00Z"}, "", nil, "both in force from 2024-05-01T00:00:00Z"},
		{"a bad time", []string{v1 + "@2024-02-30"}, "", nil, "not a time"},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			set, _, err := LoadSet(context.Background(), tt.sources, nil)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one saying %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			vs := set.Versions[tt.host]
			var got []string
			for _, v := range vs {
				from := ""
				if !v.From.IsZero() {
					from = v.From.Format(time.RFC3339)
				}
				got = append(got, from+" "+strconv.FormatInt(v.Size, 10))
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("versions %q, want %q", got, tt.want)
			}
			if len(vs) > 0 {
				first := set.Default
				if tt.host != "" {
					first = set.ByHost[tt.host]
				}
				if first != vs[0].Robots {
					t.Error("the whole log's or host's robots.txt is not its earliest version")
				}
			}
		})
	}
}

// TestHistorySourcesRefuses: a file not named by a time is refused, not
// skipped: a history with a hole judges robots by the wrong file.
func TestHistorySourcesRefuses(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"2024-05-01.txt", "current.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("User-agent: *\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := HistorySources("", dir); err == nil || !strings.Contains(err.Error(), "current.txt") {
		t.Errorf("error %v, want one naming current.txt", err)
	}
	if _, err := HistorySources("", t.TempDir()); err == nil {
		t.Error("an empty directory is no history")
	}
}
