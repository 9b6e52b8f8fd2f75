package robots

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Version is one robots.txt of a site's history: in force from From until
// the next version's From.
type Version struct {
	// From is when the version came into force; zero: from the start of
	// the log. A Date version's From is its day at midnight UTC, to be
	// read in the log's zone (Version.In).
	From   time.Time
	Date   bool
	Robots *Robots
	Size   int64  // the file's bytes, which a log's answer to a fetch of it shows; -1 when not known (cut at MaxKept)
	Source string // as given (Redact-ed)
}

// In returns when v came into force with a date read in zone loc (nil:
// UTC); zero for a version in force from the start.
func (v Version) In(loc *time.Location) time.Time {
	if !v.Date || v.From.IsZero() {
		return v.From
	}
	if loc == nil {
		loc = time.UTC
	}
	y, m, d := v.From.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, loc)
}

// SplitTime splits "SOURCE@TIME", TIME being RFC 3339 or a date
// (2006-01-02). A source with no "@", or whose last "@" is followed by
// something that is no time and does not look like one (a URL's
// "user@host"), is whole: at is zero. Text after "@" that starts as a date
// does ("2024-13-01") is an error rather than part of a file name: a typo
// must not make a version in force from the start.
func SplitTime(s string) (source string, at time.Time, date bool, err error) {
	i := strings.LastIndexByte(s, '@')
	if i < 0 {
		return s, time.Time{}, false, nil
	}
	src, tail := s[:i], s[i+1:]
	if t, err := time.Parse(time.RFC3339, tail); err == nil {
		return src, t, false, nil
	}
	if t, err := time.Parse(time.DateOnly, tail); err == nil {
		return src, t, true, nil
	}
	if looksLikeTime(tail) {
		return s, time.Time{}, false, fmt.Errorf("@%s: not a time: want RFC 3339 (2024-05-01T12:00:00Z) or a date in the log's zone (2024-05-01)", tail)
	}
	return s, time.Time{}, false, nil
}

// looksLikeTime reports whether s starts as a date does: four digits and a dash.
func looksLikeTime(s string) bool {
	if len(s) < 5 || s[4] != '-' {
		return false
	}
	for _, c := range []byte(s[:4]) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// HistorySources lists the files of directory dir as "PATH@TIME" sources
// for LoadSet, each named by the time its version came into force: an RFC
// 3339 time or a date, with or without an extension (2024-05-01.txt,
// 2024-05-01T12:00:00Z.txt). A file named otherwise is an error, not
// skipped: a history with a gap would judge robots by the wrong file.
// Hidden files (a leading ".") are skipped. host, when not empty, prefixes
// each source as "HOST=".
func HistorySources(host, dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || e.IsDir() {
			continue
		}
		stem := name
		if _, t, _, err := SplitTime("@" + stem); err != nil || t.IsZero() {
			stem = strings.TrimSuffix(name, filepath.Ext(name))
			// A time's seconds look like an extension: "...T12:00:00.txt"
			// has ".txt" cut, "...12:00:00Z" none.
		}
		if _, t, _, err := SplitTime("@" + stem); err != nil || t.IsZero() {
			return nil, fmt.Errorf("%s: a version's file is named by the time it came into force: 2024-05-01T12:00:00Z.txt or 2024-05-01.txt", filepath.Join(dir, name))
		}
		src := filepath.Join(dir, name) + "@" + stem
		if host != "" {
			src = host + "=" + src
		}
		out = append(out, src)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no robots.txt version in it (files named by their time: 2024-05-01.txt)", dir)
	}
	return out, nil
}

// sortVersions orders a host's versions by when they came into force (a
// version from the start first) and refuses two from the same time: which
// of them was in force could not be told.
func sortVersions(vs []Version) error {
	slices.SortStableFunc(vs, func(a, b Version) int { return a.From.Compare(b.From) })
	for i := 1; i < len(vs); i++ {
		if vs[i].From.Equal(vs[i-1].From) {
			if vs[i].From.IsZero() {
				return fmt.Errorf("%s and %s are both in force from the start; give the later one's time as FILE@TIME", vs[i-1].Source, vs[i].Source)
			}
			return fmt.Errorf("%s and %s are both in force from %s", vs[i-1].Source, vs[i].Source, vs[i].From.Format(time.RFC3339))
		}
	}
	return nil
}

// sizeOf is the bytes of r's file, as a log's answer to a fetch of it
// would show; -1 when only its start was kept.
func sizeOf(r *Robots) int64 {
	if r == nil || r.Cut {
		return -1
	}
	return int64(len(r.Text) + len(r.Beyond))
}
