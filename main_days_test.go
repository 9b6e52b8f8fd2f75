package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/cli"
)

// midnightLog is a log of two days whose robots cross midnight: SlowBot
// keeps its Crawl-delay of 10 s on both days but not between 23:59:58
// and 00:00:03, in one session; CacheBot fetches robots.txt at 23:50, after
// the version of 22:00 forbade /new/, and asks for /new/x at 00:10;
// DownBot is answered 503 for robots.txt at 23:55 and crawls /private/
// after midnight; PaceBot, a request every 2 s, is answered 429 at
// 23:59:50 and 00:00:20 and 00:00:56 and keeps its pace. It returns the
// log's lines, the day-one lines first, and the first line of day two.
func midnightLog() (lines []string, split int) {
	type req struct {
		at     time.Time
		ip, ua string
		path   string
		status int
	}
	ua := func(name string) string {
		return fmt.Sprintf("Mozilla/5.0 (compatible; %s/1.0; +http://bots.example/%s)", name, strings.ToLower(name))
	}
	day1 := time.Date(2024, 10, 10, 0, 0, 0, 0, time.UTC)
	day2 := day1.AddDate(0, 0, 1)
	at := func(day time.Time, hms string) time.Time {
		var h, m, s int
		fmt.Sscanf(hms, "%d:%d:%d", &h, &m, &s)
		return day.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(s)*time.Second)
	}
	var reqs []req
	add := func(t time.Time, ip, name, path string, status int) {
		reqs = append(reqs, req{t, ip, ua(name), path, status})
	}
	// SlowBot: every 12 s, 23:57:12 to 23:59:48, then 23:59:58, then
	// 00:00:03 (5 s: faster than its delay), then every 12 s to 00:03.
	add(at(day1, "23:57:00"), "203.0.113.1", "SlowBot", "/robots.txt", 200)
	for t := at(day1, "23:57:12"); !t.After(at(day1, "23:59:48")); t = t.Add(12 * time.Second) {
		add(t, "203.0.113.1", "SlowBot", fmt.Sprintf("/p/%d", t.Unix()), 200)
	}
	add(at(day1, "23:59:58"), "203.0.113.1", "SlowBot", "/p/a", 200)
	for t := at(day2, "00:00:03"); !t.After(at(day2, "00:03:00")); t = t.Add(12 * time.Second) {
		add(t, "203.0.113.1", "SlowBot", fmt.Sprintf("/p/%d", t.Unix()), 200)
	}
	// CacheBot: its copy of 23:50 is the version of 22:00.
	add(at(day1, "23:50:00"), "203.0.113.2", "CacheBot", "/robots.txt", 200)
	add(at(day1, "23:51:00"), "203.0.113.2", "CacheBot", "/a", 200)
	add(at(day2, "00:10:00"), "203.0.113.2", "CacheBot", "/new/x", 200)
	add(at(day2, "01:00:00"), "203.0.113.2", "CacheBot", "/b", 200)
	// DownBot: robots.txt unreachable from 23:55.
	add(at(day1, "23:55:00"), "203.0.113.3", "DownBot", "/robots.txt", 503)
	add(at(day1, "23:56:00"), "203.0.113.3", "DownBot", "/public/a", 200)
	add(at(day2, "00:05:00"), "203.0.113.3", "DownBot", "/private/x", 200)
	add(at(day2, "00:06:00"), "203.0.113.3", "DownBot", "/private/y", 200)
	// PaceBot: every 2 s, 23:59:00 to 00:01:00, through its 429s.
	for t := at(day1, "23:59:00"); !t.After(at(day2, "00:01:00")); t = t.Add(2 * time.Second) {
		status := 200
		switch t {
		case at(day1, "23:59:50"), at(day2, "00:00:20"), at(day2, "00:00:56"):
			status = 429
		}
		add(t, "203.0.113.4", "PaceBot", fmt.Sprintf("/q/%d", t.Unix()), status)
	}
	// In time order, as a server writes them.
	for i := 1; i < len(reqs); i++ {
		for j := i; j > 0 && reqs[j].at.Before(reqs[j-1].at); j-- {
			reqs[j], reqs[j-1] = reqs[j-1], reqs[j]
		}
	}
	for _, r := range reqs {
		if split == 0 && !r.at.Before(day2) {
			split = len(lines)
		}
		lines = append(lines, fmt.Sprintf("%s - - [%s] \"GET %s HTTP/1.1\" %d 512 \"-\" \"%s\"\n",
			r.ip, r.at.Format("02/Jan/2006:15:04:05 -0700"), r.path, r.status, r.ua))
	}
	return lines, split
}

// conductOfRobots is each robots row's conduct as the JSON report writes
// it, with the counts the cache rule and an unreachable robots.txt change.
func conductOfRobots(t *testing.T, out string) map[string]string {
	t.Helper()
	var doc struct {
		Robots []struct {
			Name        string          `json:"name"`
			Violations  int64           `json:"violations"`
			Cached      int64           `json:"cached"`
			Unreachable int64           `json:"unreachable_requests"`
			Conduct     json.RawMessage `json:"conduct"`
		} `json:"robots"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, r := range doc.Robots {
		rows[r.Name] = fmt.Sprintf("violations %d, cached %d, unreachable %d, conduct %s", r.Violations, r.Cached, r.Unreachable, r.Conduct)
	}
	return rows
}

// TestMergeDaysAcrossMidnight: the daily reports of robots crawling
// across midnight, merged, give the conduct one run over both days gives,
// byte for byte: a session across midnight counts once, a Crawl-delay
// broken between 23:59:58 and 00:00:03 breaks it, robots.txt_max_gap_s
// runs from a fetch of day one to the requests of day two. With day two
// run --state-from day one's report, the robots.txt a robot held (the
// 24 h cache rule), an unreachable robots.txt and an open 429 minute carry
// over too; without it the merged summary says which figures may differ.
func TestMergeDaysAcrossMidnight(t *testing.T) {
	dir := t.TempDir()
	v1, v2 := filepath.Join(dir, "v1.txt"), filepath.Join(dir, "v2.txt")
	os.WriteFile(v1, []byte("User-agent: SlowBot\nCrawl-delay: 10\nDisallow: /private/\n\nUser-agent: *\nDisallow: /private/\n"), 0o644)
	os.WriteFile(v2, []byte("User-agent: SlowBot\nCrawl-delay: 10\nDisallow: /private/\n\nUser-agent: *\nDisallow: /private/\nDisallow: /new/\n"), 0o644)
	robots := []string{"--robots", v1, "--robots", v2 + "@2024-10-10T22:00:00Z"}
	lines, split := midnightLog()
	whole, day1, day2 := filepath.Join(dir, "whole.log"), filepath.Join(dir, "day1.log"), filepath.Join(dir, "day2.log")
	os.WriteFile(whole, []byte(strings.Join(lines, "")), 0o644)
	os.WriteFile(day1, []byte(strings.Join(lines[:split], "")), 0o644)
	os.WriteFile(day2, []byte(strings.Join(lines[split:], "")), 0o644)

	run := func(args ...string) string {
		t.Helper()
		code, out, errOut := runCLI(t, nil, append(append([]string{"-o", "json", "--top", "0"}, robots...), args...)...)
		if code != cli.ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		return out
	}
	want := conductOfRobots(t, run(whole))
	part1 := filepath.Join(dir, "day1.json")
	os.WriteFile(part1, []byte(run(day1)), 0o644)
	for _, tc := range []struct {
		name  string
		args  []string
		exact []string // the conduct fields that must be the whole run's; nil: the whole rows
	}{
		{"seeded", []string{"--state-from", part1, day2}, nil},
		{"alone", []string{day2}, []string{"sessions", "robots_txt_max_gap_s", "crawl_delay_compliance", "crawl_delay_sessions", "crawl_delay_fast_sessions"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			part2 := filepath.Join(dir, tc.name+"-day2.json")
			os.WriteFile(part2, []byte(run(tc.args...)), 0o644)
			var doc struct {
				Summary struct {
					DayEdges string `json:"day_edges"`
				} `json:"summary"`
			}
			merged, _ := runJSON(t, nil, &doc, "merge", "-o", "json", part1, part2)
			got := conductOfRobots(t, merged)
			summary := doc.Summary
			if tc.exact == nil {
				for name, w := range want {
					if got[name] != w {
						t.Errorf("%s merged:\n%s\none run over both days:\n%s", name, got[name], w)
					}
				}
				if summary.DayEdges != "" {
					t.Errorf("summary.day_edges %q; want none, every day was run --state-from the day before", summary.DayEdges)
				}
				return
			}
			for name, w := range want {
				for _, f := range tc.exact {
					if a, b := field(t, got[name], f), field(t, w, f); a != b {
						t.Errorf("%s: %s merged %s, one run %s", name, f, a, b)
					}
				}
			}
			if !strings.Contains(summary.DayEdges, "--state-from") {
				t.Errorf("summary.day_edges %q; want it to say the days were not run --state-from", summary.DayEdges)
			}
		})
	}
}

// field is one field of the conduct in a conductOfRobots row.
func field(t *testing.T, row, name string) string {
	t.Helper()
	_, js, ok := strings.Cut(row, "conduct ")
	if !ok {
		return "(no row)"
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		t.Fatal(err)
	}
	return string(m[name])
}
