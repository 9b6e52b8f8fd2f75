package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// conductLog is a log of six robots (testdata/conduct): one crawling on
// after a 503 for robots.txt, one that then gets the file, one served a
// challenge page for it, one keeping its pace through a minute of 429s,
// one slowing after a 429, and one with a Crawl-delay in two sessions.
var conductArgs = []string{"--robots", "testdata/conduct/robots.txt", "testdata/conduct/conduct.log"}

// conductRow is the part of a robots row these tests read.
type conductRow struct {
	Name                string         `json:"name"`
	Violations          int64          `json:"violations"`
	Compliance          string         `json:"compliance"`
	Finding             string         `json:"finding"`
	UnreachableRequests int64          `json:"unreachable_requests"`
	Served              map[string]int `json:"robots_txt_served"`
	Conduct             struct {
		Sessions             int64            `json:"sessions"`
		RobotsTxtFetches     int64            `json:"robots_txt_fetches"`
		RobotsTxtMaxGap      *int64           `json:"robots_txt_max_gap_s"`
		DisallowCompliance   *float64         `json:"disallow_compliance"`
		CrawlDelayCompliance *float64         `json:"crawl_delay_compliance"`
		ErrorBackoff         string           `json:"error_backoff"`
		ConditionalShare     float64          `json:"conditional_share"`
		Methods              map[string]int64 `json:"methods"`
	} `json:"conduct"`
}

func conductRows(t *testing.T, args ...string) (map[string]conductRow, map[string]any) {
	t.Helper()
	var doc struct {
		Summary map[string]any `json:"summary"`
		Robots  []conductRow   `json:"robots"`
	}
	runJSON(t, nil, &doc, append([]string{"-o", "json"}, args...)...)
	rows := map[string]conductRow{}
	for _, r := range doc.Robots {
		rows[r.Name] = r
	}
	return rows, doc.Summary
}

func show(p any) string {
	switch p := p.(type) {
	case *float64:
		if p == nil {
			return "null"
		}
		return fmt.Sprint(*p)
	case *int64:
		if p == nil {
			return "null"
		}
		return fmt.Sprint(*p)
	}
	return fmt.Sprint(p)
}

// TestRobotsTxtUnreachableThenCrawling: a robot answered 503 for
// robots.txt that crawls on, /private/ included, is not accused (it may
// hold a copy from before the log) and not said to obey: its requests
// count as unreachable_requests, its finding says so. One that then gets
// the file is judged from that fetch on.
func TestRobotsTxtUnreachableThenCrawling(t *testing.T) {
	rows, summary := conductRows(t, conductArgs...)
	for _, tc := range []struct {
		robot                  string
		violations, unreach    int64
		compliance, disallowed string
		served5xx, served2xx   int
	}{
		{"UnreachBot", 0, 3, "unreachable", "null", 1, 0},
		{"RecoverBot", 1, 1, "ignored", "0", 1, 1},
	} {
		r := rows[tc.robot]
		if r.Violations != tc.violations || r.UnreachableRequests != tc.unreach || r.Compliance != tc.compliance ||
			show(r.Conduct.DisallowCompliance) != tc.disallowed || r.Served["5xx"] != tc.served5xx || r.Served["2xx"] != tc.served2xx {
			t.Errorf("%s: violations %d, unreachable %d, compliance %q, disallow_compliance %s, served %v; want %d, %d, %q, %s, 5xx %d 2xx %d",
				tc.robot, r.Violations, r.UnreachableRequests, r.Compliance, show(r.Conduct.DisallowCompliance), r.Served,
				tc.violations, tc.unreach, tc.compliance, tc.disallowed, tc.served5xx, tc.served2xx)
		}
	}
	if rows["UnreachBot"].Finding == "obeyed robots.txt" {
		t.Error("a robot that crawled while robots.txt answered 503 is reported as having obeyed it")
	}
	if summary["unreachable_requests"] != float64(4) {
		t.Errorf("summary unreachable_requests = %v, want 4", summary["unreachable_requests"])
	}
	_, table, _ := runCLI(t, nil, append([]string{"--width", "200"}, conductArgs...)...)
	for _, want := range []string{"unreachable (5xx), crawled on", "4 requests while robots.txt answered 5xx or nothing, by RecoverBot, UnreachBot"} {
		if !strings.Contains(table, want) {
			t.Errorf("the table does not say %q", want)
		}
	}
}

// TestRobotsTxtServedAsAPage: robots.txt answered 200 with 15 kB where the
// file is 91 bytes (a login or challenge page) is named in the summary.
// The robot is still judged against the file given: a size cannot prove
// it got no rules (the file given may differ from the one served).
func TestRobotsTxtServedAsAPage(t *testing.T) {
	rows, summary := conductRows(t, conductArgs...)
	if r := rows["PageBot"]; r.Served["page"] != 1 || r.Served["2xx"] != 0 || r.Violations != 1 {
		t.Errorf("PageBot: served %v, violations %d; want page 1, 2xx 0, 1 violation", r.Served, r.Violations)
	}
	if summary["robots_txt_pages"] != float64(1) {
		t.Errorf("summary robots_txt_pages = %v, want 1", summary["robots_txt_pages"])
	}
	for _, format := range []string{"table", "markdown", "html"} {
		_, out, _ := runCLI(t, nil, append([]string{"-o", format, "--width", "200"}, conductArgs...)...)
		if !strings.Contains(out, "robots.txt served as a page") {
			t.Errorf("-o %s does not name robots.txt served as a page", format)
		}
	}
	// Without the file there is no size to compare: a 2xx is the file.
	rows, _ = conductRows(t, "testdata/conduct/conduct.log")
	if r := rows["PageBot"]; r.Served["page"] != 0 || r.Served["2xx"] != 1 {
		t.Errorf("PageBot without --robots: served %v; want 2xx 1", r.Served)
	}
}

// TestConductPerRobot: each robot's conduct in the studies' measures:
// sessions, copy gaps, Disallow and Crawl-delay compliance per session,
// pace after 429 answers, 304 share and methods.
func TestConductPerRobot(t *testing.T) {
	rows, _ := conductRows(t, conductArgs...)
	for _, tc := range []struct {
		robot                                 string
		sessions, fetches                     int64
		gap, disallow, delay, backoff, share_ string
		methods                               string
	}{
		// Keeps its pace of one request every 2 s through a minute of 429s.
		{"PaceBot", 1, 0, "null", "1", "null", "kept-pace", "0", "map[GET:120]"},
		// 30 requests in the minute before its 429, 3 in the minute after.
		{"BackoffBot", 1, 0, "null", "1", "null", "slowed", "0", "map[GET:69]"},
		// Crawl-delay 10: a session at 2 s that breaks a rule, then one at
		// 15 s of 304s, 30 minutes later; it crawled 1,890 s on one copy.
		{"SlowBot", 2, 1, "1890", "0.5", "0.5", "none-seen", "0.455", "map[GET:10 HEAD:1]"},
		{"PageBot", 1, 1, "9", "0", "null", "none-seen", "0", "map[GET:3]"},
	} {
		k := rows[tc.robot].Conduct
		got := fmt.Sprintf("%d %d %s %s %s %s %v %v", k.Sessions, k.RobotsTxtFetches, show(k.RobotsTxtMaxGap), show(k.DisallowCompliance),
			show(k.CrawlDelayCompliance), k.ErrorBackoff, k.ConditionalShare, k.Methods)
		want := fmt.Sprintf("%d %d %s %s %s %s %s %s", tc.sessions, tc.fetches, tc.gap, tc.disallow, tc.delay, tc.backoff, tc.share_, tc.methods)
		if got != want {
			t.Errorf("%s conduct: %s\nwant %s", tc.robot, got, want)
		}
	}
	for _, format := range []string{"table", "markdown", "html"} {
		_, out, _ := runCLI(t, nil, append([]string{"-o", format, "--width", "200", "--section", "conduct"}, conductArgs...)...)
		if !strings.Contains(out, "Conduct") || !strings.Contains(out, "slowed") || !strings.Contains(out, "kept-pace") {
			t.Errorf("-o %s --section conduct has no Conduct section with the backoff words:\n%s", format, out)
		}
	}
}

// TestConductMergesAcrossShardsAndDays: the conduct of a whole run is the
// merge of its shards' (clients are disjoint), and of its two halves by
// time (days): the counts add up; a session across the boundary is one in
// each part, as docs/robots-txt.md (Conduct) says.
func TestConductMergesAcrossShardsAndDays(t *testing.T) {
	_, whole, _ := runCLI(t, nil, append([]string{"-o", "json"}, conductArgs...)...)
	dir := t.TempDir()
	parts := []string{"merge", "-o", "json"}
	for i := 1; i <= 3; i++ {
		_, out, _ := runCLI(t, nil, append([]string{"-o", "json", "--top", "0", "--shard", fmt.Sprintf("%d/3", i)}, conductArgs...)...)
		p := filepath.Join(dir, fmt.Sprintf("s%d.json", i))
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, p)
	}
	if _, merged, errOut := runCLI(t, nil, parts...); merged != whole {
		t.Errorf("merged shards differ from the whole run at %s (%s)", firstDiff(merged, whole), errOut)
	}
	// Two "days": the log cut at 12:15, inside none of SlowBot's sessions.
	log, err := os.ReadFile("testdata/conduct/conduct.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(log), "\n")
	cut := 0
	for cut < len(lines) && !strings.Contains(lines[cut], "12:30:00") {
		cut++
	}
	days := []string{"merge", "-o", "json"}
	for i, text := range []string{strings.Join(lines[:cut], ""), strings.Join(lines[cut:], "")} {
		f := filepath.Join(dir, fmt.Sprintf("day%d.log", i))
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, out, _ := runCLI(t, nil, "-o", "json", "--top", "0", "--robots", "testdata/conduct/robots.txt", f)
		p := filepath.Join(dir, fmt.Sprintf("day%d.json", i))
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		days = append(days, p)
	}
	var doc struct {
		Robots []conductRow `json:"robots"`
	}
	runJSON(t, nil, &doc, days...)
	want, _ := conductRows(t, conductArgs...)
	if len(doc.Robots) != len(want) {
		t.Errorf("%d robots merged from days, %d in the whole run", len(doc.Robots), len(want))
	}
	for _, r := range doc.Robots {
		w := want[r.Name]
		// The gap on one copy is per part: SlowBot's copy of 12:00 served
		// it to 12:31:30 in one run, to 12:00:07 in the first day.
		if r.Name == "SlowBot" {
			r.Conduct.RobotsTxtMaxGap, w.Conduct.RobotsTxtMaxGap = nil, nil
		}
		if g, e := fmt.Sprintf("%+v", r.Conduct), fmt.Sprintf("%+v", w.Conduct); show(r.Conduct.DisallowCompliance) != show(w.Conduct.DisallowCompliance) ||
			show(r.Conduct.CrawlDelayCompliance) != show(w.Conduct.CrawlDelayCompliance) || r.Conduct.Sessions != w.Conduct.Sessions ||
			r.Conduct.ErrorBackoff != w.Conduct.ErrorBackoff || r.UnreachableRequests != w.UnreachableRequests {
			t.Errorf("%s merged from days: %s\nwhole run: %s", r.Name, g, e)
		}
	}
}
