package cli_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/robowatch/robowatch/cli"
	"github.com/robowatch/robowatch/robots"
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
	rows := prefsRows(t, "--robots", "../testdata/prefs/robots.txt", "../testdata/prefs/prefs.log")
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
	rows := prefsRows(t, "../testdata/prefs/prefs.log")
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
	rows := prefsRows(t, "--robots", "../testdata/prefs/robots.txt", "../testdata/prefs/prefs.log")
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
	_, out, _ := runCLI(t, nil, "--width", "200", "--robots", "../testdata/prefs/robots.txt", "../testdata/prefs/prefs.log")
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
	_, out, _ = runCLI(t, nil, "--width", "300", "--robots", "../testdata/prefs/robots.txt", "--client", "198.51.100.10", "../testdata/prefs/prefs.log")
	if !strings.Contains(out, "the first under Content-Usage: /books/ train-ai=n (robots.txt line 6): a preference, not a violation") {
		t.Errorf("drill-down does not name the preference line:\n%s", out)
	}
}

// bytespiderLog is one request with Bytespider's User-agent, from an
// address anyone may have: all it takes to add Bytespider's group.
const bytespiderLog = `203.0.113.7 - - [06/May/2024:09:00:00 +0000] "GET /news HTTP/1.1" 200 512 "-" "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)"` + "\n"

// suggest runs -o robots.txt over bytespiderLog with site as the site's
// robots.txt and returns the suggested file and what went to stderr; with
// merge, robowatch merge -o robots.txt of the run's JSON report does.
func suggest(t *testing.T, site string, merge bool) (string, string) {
	t.Helper()
	dir := t.TempDir()
	siteFile, logFile, part := filepath.Join(dir, "robots.txt"), filepath.Join(dir, "access.log"), filepath.Join(dir, "part.json")
	if err := os.WriteFile(siteFile, []byte(site), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(logFile, []byte(bytespiderLog), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"-o", "robots.txt", "--robots", siteFile, logFile}
	if merge {
		code, out, errOut := runCLI(t, nil, "-o", "json", "--robots", siteFile, logFile)
		if code != cli.ExitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if err := os.WriteFile(part, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		args = []string{"merge", "-o", "robots.txt", "--robots", siteFile, part}
	}
	code, out, errOut := runCLI(t, nil, args...)
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	return out, errOut
}

// TestSuggestCrawlDelayStarGroupKeepsGooglebot: a site's robots.txt that
// ends with "User-agent: *" and "Crawl-delay: 10" and no rule. Google ends
// a group only at a rule, so the appended "User-agent: Bytespider /
// Disallow: /" joined the * group and barred Googlebot, and every robot
// without a group, from the whole site, after one request with a
// Bytespider User-agent.
func TestSuggestCrawlDelayStarGroupKeepsGooglebot(t *testing.T) {
	for _, site := range []string{
		"User-agent: *\nCrawl-delay: 10\n",
		"User-agent: *\r\nCrawl-delay: 10\r\n",
		"User-agent: *\nCrawl-delay: 10",                         // no final line end
		"\xEF\xBB\xBFUser-agent: *\nCrawl-delay: 10 # be gentle", // BOM, a comment and no line end
		"User-agent: *\nCrawl-delay: 10\n\n# more to come\n",
	} {
		out, _ := suggest(t, site, false)
		if !strings.HasPrefix(out, site) {
			t.Errorf("%q: the site's file is not kept as it was:\n%s", site, out)
		}
		got := robots.ParseBytes([]byte(out))
		for _, q := range []struct {
			agent string
			want  bool
		}{{"Googlebot", true}, {"bingbot", true}, {"Bytespider", false}} {
			if ok, _ := got.Allowed(q.agent, "/news"); ok != q.want {
				t.Errorf("%q: %s /news: allowed %v, want %v\n%s", site, q.agent, ok, q.want, out)
			}
		}
		if g := got.Agent("Googlebot").Group(); g != "*" {
			t.Errorf("%q: Googlebot falls in group %q, want the site's *\n%s", site, g, out)
		}
	}
}

// TestSuggestKeepsLargeSiteFile: a site's robots.txt over 500 KiB is kept
// whole, its last groups and Sitemap line too (it was cut at 500 KiB), and
// stderr warns that Google reads only the first 500 KiB, so the groups
// added after them go unread.
func TestSuggestKeepsLargeSiteFile(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := 0; b.Len() < robots.MaxSize+4096; i++ {
		b.WriteString("Disallow: /archive/" + strings.Repeat("x", 40) + "/" + strconv.Itoa(i) + "/\n")
	}
	b.WriteString("\nUser-agent: Googlebot\nDisallow: /late/\n\nSitemap: https://www.example.com/sitemap.xml\n")
	site := b.String()
	for _, merge := range []bool{false, true} {
		out, errOut := suggest(t, site, merge)
		if !strings.HasPrefix(out, site) {
			t.Errorf("merge %v: the site's file is not kept whole: %d bytes of %d kept", merge, commonPrefix(out, site), len(site))
		}
		if !strings.Contains(out, "\nUser-agent: Bytespider\n") {
			t.Errorf("merge %v: no Bytespider group added", merge)
		}
		if !strings.Contains(errOut, "warning: the suggested robots.txt is 50") || !strings.Contains(errOut, "first 500 KiB: the group added at its end for Bytespider is not read") {
			t.Errorf("merge %v: no warning that the added group lies past 500 KiB: %q", merge, errOut)
		}

		// A small file draws no such warning.
		if _, errOut := suggest(t, "User-agent: *\nDisallow: /private/\n", merge); strings.Contains(errOut, "500 KiB") {
			t.Errorf("merge %v: warning for a small file: %q", merge, errOut)
		}
	}
}

func commonPrefix(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}
