package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// prefsRow is the part of a robots row the preference tests read.
type prefsRow struct {
	Name                string `json:"name"`
	Violations          int64  `json:"violations"`
	PreferenceConflicts int64  `json:"preference_conflicts"`
	PreferenceRule      string `json:"preference_rule"`
	Discovery           *struct {
		LLMsTxt     int64 `json:"llms_txt"`
		LLMsFullTxt int64 `json:"llms_full_txt"`
		WellKnown   int64 `json:"well_known"`
	} `json:"discovery"`
}

func prefsRows(t *testing.T, args ...string) map[string]prefsRow {
	t.Helper()
	var doc struct {
		Robots []prefsRow `json:"robots"`
	}
	runJSON(t, nil, &doc, append([]string{"-o", "json"}, args...)...)
	rows := map[string]prefsRow{}
	for _, r := range doc.Robots {
		name, _, _ := strings.Cut(r.Name, " (") // "Googlebot (impostor)"
		rows[name] = r
	}
	return rows
}

// TestAITrainingCrawlerUnderContentPreferences: testdata/prefs is a site
// whose robots.txt says search=yes, ai-input=no (Content-Signal) for all,
// train-ai=n for /books/ but y for /books/free/ (Content-Usage, the longer
// path), and both ai-train=no and train-ai=y for /blog/ (the most
// restrictive applies); two responses carry a Content-Usage header. GPTBot
// (ai-training), from two networks, is served four pages the site declines
// it: /books/a.html, /books/c.html,
// /blog/post.html and /about.html, whose header says train-ai=n; not
// /books/free/b.html, nor /index.html (its header says y), nor a 404, and
// its request under Disallow: /private/ is a violation, not a conflict.
// Googlebot (search) fetched the same pages: search=yes, no conflict. The
// AI search and assistant robots are declined by ai-input=no.
func TestAITrainingCrawlerUnderContentPreferences(t *testing.T) {
	rows := prefsRows(t, "--robots", "testdata/prefs/robots.txt", "testdata/prefs/prefs.log")
	for _, tt := range []struct {
		name            string
		conflicts, viol int64
		rule            string
	}{
		{"GPTBot", 4, 1, "Content-Usage: /books/ train-ai=n (robots.txt line 6)"},
		{"Googlebot", 0, 1, ""},
		{"OAI-SearchBot", 1, 0, "Content-Signal: search=yes, ai-input=no (robots.txt line 4)"},
		{"ChatGPT-User", 1, 0, "Content-Signal: search=yes, ai-input=no (robots.txt line 4)"},
		{"ClaudeBot", 0, 0, ""},
	} {
		r, ok := rows[tt.name]
		if !ok {
			t.Errorf("%s: no row in %v", tt.name, rows)
			continue
		}
		if r.PreferenceConflicts != tt.conflicts || r.Violations != tt.viol || r.PreferenceRule != tt.rule {
			t.Errorf("%s: preference_conflicts %d, violations %d, rule %q; want %d, %d, %q",
				tt.name, r.PreferenceConflicts, r.Violations, r.PreferenceRule, tt.conflicts, tt.viol, tt.rule)
		}
	}
}

// TestContentUsageHeaderWithoutRobotsTxt: with no robots.txt given, the
// logged Content-Usage header alone states the preferences, per response:
// GPTBot's /about.html (train-ai=n) conflicts, its /index.html (y) does not.
func TestContentUsageHeaderWithoutRobotsTxt(t *testing.T) {
	rows := prefsRows(t, "testdata/prefs/prefs.log")
	if r := rows["GPTBot"]; r.PreferenceConflicts != 1 || !strings.Contains(r.PreferenceRule, "response header") {
		t.Errorf("GPTBot: preference_conflicts %d, rule %q; want 1, the response header", r.PreferenceConflicts, r.PreferenceRule)
	}
	if r := rows["Googlebot"]; r.PreferenceConflicts != 0 {
		t.Errorf("Googlebot: preference_conflicts %d, want 0 (search=y)", r.PreferenceConflicts)
	}
}

// TestDiscoveryFilesPerRobot: fetches of /llms.txt, /llms-full.txt (a
// query does not make another file) and files under /.well-known/, per
// robot; a robot that fetched none has no discovery member.
func TestDiscoveryFilesPerRobot(t *testing.T) {
	rows := prefsRows(t, "--robots", "testdata/prefs/robots.txt", "testdata/prefs/prefs.log")
	for _, tt := range []struct {
		name              string
		llms, full, known int64
		none              bool
	}{
		{name: "GPTBot", llms: 2, full: 2, known: 1},
		{name: "OAI-SearchBot", llms: 1},
		{name: "ClaudeBot", known: 1}, // /.well-known/security.txt; /.well-known/ itself is no file
		{name: "Googlebot", none: true},
	} {
		d := rows[tt.name].Discovery
		if tt.none {
			if d != nil {
				t.Errorf("%s: discovery %+v, want none", tt.name, *d)
			}
			continue
		}
		if d == nil || d.LLMsTxt != tt.llms || d.LLMsFullTxt != tt.full || d.WellKnown != tt.known {
			t.Errorf("%s: discovery %+v, want llms_txt %d, llms_full_txt %d, well_known %d", tt.name, d, tt.llms, tt.full, tt.known)
		}
	}
}

// TestCheckLintPreferences: robowatch check --lint on a robots.txt whose
// preference lines are misspelt or say yes where crawling is disallowed.
func TestCheckLintPreferences(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "robots.txt")
	body := "User-agent: *\nDisallow: /\nContent-Signal: search=yes, ai-training=no\nContent-Usage: / train-ai=no\n"
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out, errOut := runCLI(t, nil, "check", "--lint", "--robots", p)
	for _, want := range []string{`"ai-training" is unknown`, `train-ai="no" is not y or n`, "forbids the robots of its group to crawl it"} {
		if !strings.Contains(out+errOut, want) {
			t.Errorf("check --lint output lacks %q:\n%s%s", want, out, errOut)
		}
	}
}

// TestTerminalShowsPreferencesAndDiscovery: the robots section says which
// robots were served pages the preferences decline, under which line, and
// who fetched discovery files; a client's drill-down names the line.
func TestTerminalShowsPreferencesAndDiscovery(t *testing.T) {
	_, out, _ := runCLI(t, nil, "--width", "200", "--robots", "testdata/prefs/robots.txt", "testdata/prefs/prefs.log")
	out = strings.Join(strings.Fields(out), " ") // the notes wrap
	for _, want := range []string{
		"GPTBot (ai-training) 4 pages under Content-Usage: /books/ train-ai=n (robots.txt line 6)",
		"not counted as violations",
		"AI discovery files fetched: GPTBot (llms.txt 2, llms-full.txt 2, /.well-known/ 1)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	_, out, _ = runCLI(t, nil, "--width", "300", "--robots", "testdata/prefs/robots.txt", "--client", "198.51.100.10", "testdata/prefs/prefs.log")
	if !strings.Contains(out, "the first under Content-Usage: /books/ train-ai=n (robots.txt line 6): a preference, not a violation") {
		t.Errorf("drill-down does not name the preference line:\n%s", out)
	}
}
