package cli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robowatch/robowatch/cli"
)

// The ledger: -o ledger --site NAME, and robowatch merge of several sites'.

const (
	ledgerGooglebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	ledgerClaudeBot = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)"
	ledgerCCBot     = "CCBot/2.0 (https://commoncrawl.org/faq/)"
	ledgerBrowser   = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
)

// ledgerLine is one combined-format line of 10 Oct 2024.
func ledgerLine(ip, user, at, path string, status, bytes int, referer, ua string) string {
	return fmt.Sprintf("%s - %s [10/Oct/2024:%s +0000] \"GET %s HTTP/1.1\" %d %d \"%s\" \"%s\"\n", ip, user, at, path, status, bytes, referer, ua)
}

// siteALog: Googlebot and CCBot obey, ClaudeBot reads robots.txt and then
// fetches a disallowed page, in one session. A person reads two pages.
func siteALog() string {
	return ledgerLine("66.249.66.1", "-", "09:00:00", "/robots.txt", 200, 40, "-", ledgerGooglebot) +
		ledgerLine("66.249.66.1", "-", "09:00:10", "/a-first-article.html", 200, 1000, "-", ledgerGooglebot) +
		ledgerLine("203.0.113.7", "-", "09:01:00", "/robots.txt", 200, 40, "-", ledgerClaudeBot) +
		ledgerLine("203.0.113.7", "-", "09:01:10", "/private/a-secret-draft.html", 200, 1000, "-", ledgerClaudeBot) +
		ledgerLine("198.51.100.9", "-", "09:02:00", "/robots.txt", 200, 40, "-", ledgerCCBot) +
		ledgerLine("198.51.100.9", "-", "09:02:30", "/a-second-article.html", 200, 800, "-", ledgerCCBot) +
		ledgerLine("192.0.2.55", "alice", "09:03:00", "/a-first-article.html", 200, 1000, "https://www.google.com/search?q=alice%40example.net", ledgerBrowser) +
		ledgerLine("192.0.2.55", "alice", "09:03:20", "/account/alice-settings.html", 200, 900, "https://a.example/a-first-article.html", ledgerBrowser)
}

// siteBLog: the same robots on another site, all obeying; ClaudeBot in
// three sessions (pauses of more than five minutes).
func siteBLog() string {
	return ledgerLine("66.249.66.2", "-", "09:00:00", "/robots.txt", 200, 40, "-", ledgerGooglebot) +
		ledgerLine("66.249.66.2", "-", "09:00:05", "/b-index.html", 200, 2000, "-", ledgerGooglebot) +
		ledgerLine("66.249.66.2", "-", "09:00:09", "/b-news.html", 200, 2000, "-", ledgerGooglebot) +
		ledgerLine("203.0.113.8", "-", "09:01:00", "/robots.txt", 200, 40, "-", ledgerClaudeBot) +
		ledgerLine("203.0.113.8", "-", "09:01:10", "/b-index.html", 200, 2000, "-", ledgerClaudeBot) +
		ledgerLine("203.0.113.8", "-", "09:10:00", "/b-news.html", 200, 2000, "-", ledgerClaudeBot) +
		ledgerLine("203.0.113.8", "-", "09:20:00", "/b-about.html", 200, 2000, "-", ledgerClaudeBot) +
		ledgerLine("198.51.100.10", "-", "09:02:00", "/robots.txt", 200, 40, "-", ledgerCCBot)
}

const ledgerRobots = "User-agent: *\nDisallow: /private/\n"

// ledgerRow is the part of a ledger robots row these tests read.
type ledgerRow struct {
	Name       string         `json:"name"`
	Sites      int            `json:"sites"`
	SiteNames  []string       `json:"site_names"`
	Requests   int64          `json:"requests"`
	Pages      *int64         `json:"pages"`
	Bytes      int64          `json:"bytes"`
	Violations int64          `json:"violations"`
	ViolatedOn []string       `json:"violated_on"`
	Compliance map[string]int `json:"compliance"`
	Rules      []struct {
		Rule       string `json:"rule"`
		Violations int64  `json:"violations"`
	} `json:"rules"`
	Conduct struct {
		Sessions           int64    `json:"sessions"`
		ViolatingSessions  int64    `json:"violating_sessions"`
		DisallowCompliance *float64 `json:"disallow_compliance"`
	} `json:"conduct"`
}

type ledgerDoc struct {
	Kind    string `json:"kind"`
	Version int    `json:"version"`
	Sites   []struct {
		Name      string   `json:"name"`
		RobotsTxt []string `json:"robots_txt"`
	} `json:"sites"`
	Robots    []ledgerRow `json:"robots"`
	Operators []struct {
		Operator  string   `json:"operator"`
		Sites     int      `json:"sites"`
		SiteNames []string `json:"site_names"`
		Requests  int64    `json:"requests"`
	} `json:"operators"`
}

func parseLedger(t *testing.T, out string) (ledgerDoc, map[string]ledgerRow) {
	t.Helper()
	var doc ledgerDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	rows := map[string]ledgerRow{}
	for _, r := range doc.Robots {
		rows[r.Name] = r
	}
	return doc, rows
}

// writeLedgerOf writes log and the site's robots.txt in dir and returns the
// path of the site's ledger.
func writeLedgerOf(t *testing.T, dir, site, log string) string {
	t.Helper()
	logFile, robotsFile := filepath.Join(dir, site+".log"), filepath.Join(dir, site+".robots.txt")
	must(t, os.WriteFile(logFile, []byte(log), 0o644))
	must(t, os.WriteFile(robotsFile, []byte(ledgerRobots), 0o644))
	code, out, errOut := runCLI(t, nil, "-o", "ledger", "--site", site, "--robots", robotsFile, logFile)
	if code != cli.ExitOK {
		t.Fatalf("ledger of %s: exit %d: %s", site, code, errOut)
	}
	path := filepath.Join(dir, site+".ledger.json")
	must(t, os.WriteFile(path, []byte(out), 0o644))
	return path
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestLedgerMergeOfTwoSites is the pooling scenario: two sites each write
// their ledger, and the merge says per robot how many sites saw it, its
// sums, and its compliance worked out again from the summed sessions, not
// averaged: ClaudeBot broke a rule in its one session on a.example and in
// none of its three on b.example, 3 of 4 sessions clean (0.75; the mean of
// the two sites' shares would be 0.5).
func TestLedgerMergeOfTwoSites(t *testing.T) {
	dir := t.TempDir()
	a, b := writeLedgerOf(t, dir, "a.example", siteALog()), writeLedgerOf(t, dir, "b.example", siteBLog())
	raw := map[string]string{}
	for _, p := range []string{a, b} {
		text, err := os.ReadFile(p)
		must(t, err)
		raw[p] = string(text)
	}
	_, rowsA := parseLedger(t, raw[a])
	_, rowsB := parseLedger(t, raw[b])

	code, out, errOut := runCLI(t, nil, "merge", b, a)
	if code != cli.ExitOK {
		t.Fatalf("merge: exit %d: %s", code, errOut)
	}
	doc, rows := parseLedger(t, out)
	if doc.Kind != "robowatch-ledger" || doc.Version != 1 || len(doc.Sites) != 2 || doc.Sites[0].Name != "a.example" || doc.Sites[1].Name != "b.example" {
		t.Errorf("merged ledger: kind %q version %d sites %+v, want robowatch-ledger 1 [a.example b.example]", doc.Kind, doc.Version, doc.Sites)
	}
	for _, name := range []string{"Googlebot", "ClaudeBot", "CCBot"} {
		r, ra, rb := rows[name], rowsA[name], rowsB[name]
		if r.Sites != 2 || strings.Join(r.SiteNames, ",") != "a.example,b.example" {
			t.Errorf("%s: sites %d %v, want 2 [a.example b.example]", name, r.Sites, r.SiteNames)
		}
		if r.Requests != ra.Requests+rb.Requests || r.Bytes != ra.Bytes+rb.Bytes || r.Violations != ra.Violations+rb.Violations ||
			r.Pages == nil || *r.Pages != *ra.Pages+*rb.Pages || r.Conduct.Sessions != ra.Conduct.Sessions+rb.Conduct.Sessions {
			t.Errorf("%s: merged %+v, not the sums of %+v and %+v", name, r, ra, rb)
		}
	}
	claude := rows["ClaudeBot"]
	if claude.Requests != 6 || claude.Violations != 1 || strings.Join(claude.ViolatedOn, ",") != "a.example" ||
		claude.Compliance["ignored"] != 1 || claude.Compliance["obeyed"] != 1 {
		t.Errorf("ClaudeBot: %+v, want 6 requests, 1 violation on a.example, ignored on one site and obeyed on the other", claude)
	}
	if len(claude.Rules) != 1 || claude.Rules[0].Rule != "Disallow: /private/" || claude.Rules[0].Violations != 1 {
		t.Errorf("ClaudeBot rules %+v, want Disallow: /private/ once", claude.Rules)
	}
	if c := claude.Conduct; c.Sessions != 4 || c.ViolatingSessions != 1 || c.DisallowCompliance == nil || *c.DisallowCompliance != 0.75 {
		t.Errorf("ClaudeBot conduct: %d sessions, %d violating, disallow_compliance %v; want 4, 1, 0.75 (from the sums)", c.Sessions, c.ViolatingSessions, show(c.DisallowCompliance))
	}
	if g := rows["Googlebot"]; len(g.ViolatedOn) != 0 || g.Compliance["obeyed"] != 2 || g.Pages == nil || *g.Pages != 3 {
		t.Errorf("Googlebot: %+v, want obeyed on both sites, 3 pages", g)
	}
	if len(doc.Operators) != 1 || doc.Operators[0].Operator != "Google" || doc.Operators[0].Sites != 2 || doc.Operators[0].Requests != 5 {
		t.Errorf("operators %+v, want Google on 2 sites, 5 requests", doc.Operators)
	}

	// The order the ledgers are named in does not matter, and a merged
	// ledger merges on: with a third site, ClaudeBot is on three.
	if _, again, _ := runCLI(t, nil, "merge", a, b); again != out {
		t.Errorf("merge a b differs from merge b a at %s", firstDiff(again, out))
	}
	pooled := filepath.Join(dir, "pooled.json")
	must(t, os.WriteFile(pooled, []byte(out), 0o644))
	c := writeLedgerOf(t, dir, "c.example", strings.ReplaceAll(siteBLog(), "203.0.113.8", "203.0.113.9"))
	code, out3, errOut := runCLI(t, nil, "merge", pooled, c)
	if code != cli.ExitOK {
		t.Fatalf("merge of a merged ledger: exit %d: %s", code, errOut)
	}
	if _, rows3 := parseLedger(t, out3); rows3["ClaudeBot"].Sites != 3 || rows3["ClaudeBot"].Requests != 10 {
		t.Errorf("ClaudeBot over three sites: %+v, want 3 sites, 10 requests", rows3["ClaudeBot"])
	}
}

// TestLedgerMergeRefuses: a merge of ledgers counts each site and period
// once, and takes ledgers only.
func TestLedgerMergeRefuses(t *testing.T) {
	dir := t.TempDir()
	a, b := writeLedgerOf(t, dir, "a.example", siteALog()), writeLedgerOf(t, dir, "b.example", siteBLog())
	// a.example's log again, read by another admin of it: one site, one period.
	again := writeLedgerOf(t, t.TempDir(), "a.example", siteALog()+ledgerLine("192.0.2.56", "-", "09:04:00", "/", 200, 10, "-", ledgerBrowser))
	// a.example the next day: another period of the site, which merges.
	next := writeLedgerOf(t, t.TempDir(), "a.example", strings.ReplaceAll(siteALog(), "10/Oct/2024", "11/Oct/2024"))
	report := filepath.Join(dir, "a.json")
	_, js, _ := runCLI(t, nil, "-o", "json", "--top", "0", filepath.Join(dir, "a.example.log"))
	must(t, os.WriteFile(report, []byte(js), 0o644))

	for _, tc := range []struct {
		name string
		args []string
		code int
		want string // in stderr
	}{
		{"one site and period twice", []string{"merge", a, b, again}, cli.ExitError, "both ledgers of site a.example over the same period"},
		{"the same ledger twice", []string{"merge", a, a}, cli.ExitError, "same period"},
		{"a ledger and a JSON report", []string{"merge", a, report}, cli.ExitError, "is a ledger and " + report + " is not"},
		{"a JSON report and a ledger", []string{"merge", report, a}, cli.ExitError, "is a ledger and " + report + " is not"},
		{"ledgers into another format", []string{"merge", "-o", "json", a, b}, cli.ExitUsage, "ledgers merge into a ledger"},
		{"--site for ledgers", []string{"merge", "-o", "ledger", "--site", "x", a, b}, cli.ExitUsage, "ledgers name their own sites"},
		{"-o ledger without --site", []string{"-o", "ledger", filepath.Join(dir, "a.example.log")}, cli.ExitUsage, "-o ledger needs --site"},
		{"--site without -o ledger", []string{"--site", "a.example", filepath.Join(dir, "a.example.log")}, cli.ExitUsage, "it goes with -o ledger"},
		{"a shard's ledger", []string{"-o", "ledger", "--site", "a", "--shard", "1/2", filepath.Join(dir, "a.example.log")}, cli.ExitUsage, "not with --shard"},
		{"a site name of two lines", []string{"-o", "ledger", "--site", "a\nb", filepath.Join(dir, "a.example.log")}, cli.ExitUsage, "control character"},
		{"a JSON report's ledger without --site", []string{"merge", "-o", "ledger", report}, cli.ExitUsage, "needs --site"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, nil, tc.args...)
			if code != tc.code || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errOut, tc.code, tc.want)
			}
			if out != "" {
				t.Errorf("refused, yet wrote %q", out)
			}
		})
	}
	code, out, errOut := runCLI(t, nil, "merge", a, next)
	if _, rows := parseLedger(t, out); code != cli.ExitOK || rows["ClaudeBot"].Sites != 1 || rows["ClaudeBot"].Requests != 4 {
		t.Errorf("two days of one site: exit %d (%s), ClaudeBot %+v; want 1 site, 4 requests", code, errOut, rows["ClaudeBot"])
	}
	// A JSON report merges into its site's ledger, as the run's own.
	code, fromReport, errOut := runCLI(t, nil, "merge", "-o", "ledger", "--site", "a.example", report)
	_, direct, _ := runCLI(t, nil, "-o", "ledger", "--site", "a.example", filepath.Join(dir, "a.example.log"))
	if code != cli.ExitOK || fromReport != direct {
		t.Errorf("ledger of a JSON report: exit %d (%s), differs from the run's at %s", code, errOut, firstDiff(fromReport, direct))
	}
}

// TestLedgerKeepsNoClientData is the privacy promise: a ledger names no
// client address, no User-agent as sent, no user, no referrer, no path
// the log holds and no file of the run; only robots.txt rule lines.
func TestLedgerKeepsNoClientData(t *testing.T) {
	dir := t.TempDir()
	log := siteALog()
	path := writeLedgerOf(t, dir, "a.example", log)
	text, err := os.ReadFile(path)
	must(t, err)
	ledger := string(text)
	var secrets []string
	for line := range strings.Lines(log) {
		f := strings.Split(line, "\"")
		ip, user := strings.Fields(f[0])[0], strings.Fields(f[0])[2]
		req := strings.Fields(f[1])
		secrets = append(secrets, ip, req[1], f[5])
		if f[3] != "-" {
			secrets = append(secrets, f[3])
		}
		if user != "-" {
			secrets = append(secrets, user)
		}
	}
	secrets = append(secrets, dir, "a.example.log", "a.example.robots.txt", "203.0.113.", "66.249.66.")
	for _, s := range secrets {
		if strings.Contains(ledger, s) {
			t.Errorf("the ledger holds %q, of the log or the run", s)
		}
	}
	if !strings.Contains(ledger, `"rule": "Disallow: /private/"`) {
		t.Errorf("the ledger lacks the rule line broken:\n%s", ledger)
	}
}

// TestLedgerOfARealLog: the ledger of semicomplete.com's log of 18 May
// 2015 (testdata/corpus/elastic-semicomplete-2015), judged by two
// robots.txt versions, the second from noon.
func TestLedgerOfARealLog(t *testing.T) {
	code, out, errOut := runCLI(t, nil, "-o", "ledger", "--site", "semicomplete.com",
		"--robots", "../testdata/versions/elastic/robots-v1.txt", "--robots", "../testdata/versions/elastic/robots-v2.txt@2015-05-18T12:00:00Z",
		"../testdata/corpus/elastic-semicomplete-2015/access.log.gz")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden := "../testdata/ledger/elastic-semicomplete-2015.ledger.golden"
	if *update {
		must(t, os.MkdirAll(filepath.Dir(golden), 0o755))
		must(t, os.WriteFile(golden, []byte(out), 0o644))
	}
	want, err := os.ReadFile(golden)
	must(t, err)
	if out != string(want) {
		t.Errorf("ledger differs from %s at %s (go test ./cli/ -run TestLedgerOfARealLog -update)", golden, firstDiff(out, string(want)))
	}
	doc, _ := parseLedger(t, out)
	if len(doc.Sites) != 1 || len(doc.Sites[0].RobotsTxt) != 2 || len(doc.Robots) == 0 {
		t.Errorf("sites %+v, %d robots: want one site judged by two robots.txt versions", doc.Sites, len(doc.Robots))
	}
}

// TestLedgerCarriesPreferencesAndReferrals: a ledger holds the
// per-robot preference conflicts and the per-operator inputs of
// crawl-to-refer, and a merge of two sites sums the inputs and works the
// ratio out again from the sums (the two planted logs: testdata/prefs,
// where GPTBot fetched pages the site declines to AI training, and
// testdata/refer, where Google's crawler took 10 pages and sent 2
// people back).
func TestLedgerCarriesPreferencesAndReferrals(t *testing.T) {
	dir := t.TempDir()
	ledger := func(site string, args ...string) string {
		t.Helper()
		code, out, errOut := runCLI(t, nil, append([]string{"-o", "ledger", "--site", site}, args...)...)
		if code != 0 {
			t.Fatalf("ledger of %s: exit %d: %s", site, code, errOut)
		}
		name := filepath.Join(dir, site+".json")
		must(t, os.WriteFile(name, []byte(out), 0o644))
		return name
	}
	prefs := ledger("prefs.example", "--robots", "../testdata/prefs/robots.txt", "../testdata/prefs/prefs.log")
	refer := ledger("refer.example", "../testdata/refer/refer.log")

	type doc struct {
		Robots []struct {
			Name                string `json:"name"`
			PreferenceConflicts *int64 `json:"preference_conflicts"`
		} `json:"robots"`
		Operators []struct {
			Operator      string   `json:"operator"`
			Pages         *int64   `json:"pages"`
			ReferredViews *int64   `json:"referred_views"`
			CrawlToRefer  *float64 `json:"crawl_to_refer"`
		} `json:"operators"`
	}
	read := func(name string) doc {
		t.Helper()
		b, err := os.ReadFile(name)
		must(t, err)
		var d doc
		must(t, json.Unmarshal(b, &d))
		return d
	}
	conflicts := func(d doc, robot string) int64 {
		for _, r := range d.Robots {
			if r.Name == robot && r.PreferenceConflicts != nil {
				return *r.PreferenceConflicts
			}
		}
		return -1
	}
	google := func(d doc) (pages, views int64, ratio float64) {
		for _, o := range d.Operators {
			if o.Operator == "Google" && o.Pages != nil && o.ReferredViews != nil {
				if o.CrawlToRefer != nil {
					ratio = *o.CrawlToRefer
				}
				return *o.Pages, *o.ReferredViews, ratio
			}
		}
		return 0, 0, 0 // no row: Google neither crawled nor sent anyone
	}
	if n := conflicts(read(prefs), "GPTBot"); n != 4 {
		t.Errorf("prefs ledger: GPTBot preference_conflicts %d, want 4", n)
	}
	if p, v, r := google(read(refer)); p != 10 || v != 2 || r != 5 {
		t.Errorf("refer ledger: Google pages %d, referred_views %d, crawl_to_refer %v; want 10, 2, 5", p, v, r)
	}
	code, out, errOut := runCLI(t, nil, "merge", prefs, refer)
	if code != 0 {
		t.Fatalf("merge: exit %d: %s", code, errOut)
	}
	merged := filepath.Join(dir, "merged.json")
	must(t, os.WriteFile(merged, []byte(out), 0o644))
	m := read(merged)
	if n := conflicts(m, "GPTBot"); n != 4 {
		t.Errorf("merged: GPTBot preference_conflicts %d, want 4", n)
	}
	p1, v1, _ := google(read(prefs))
	p, v, r := google(m)
	if p != 10+p1 || v != 2+v1 || v > 0 && r != float64(int64(float64(p)/float64(v)*100+0.5))/100 {
		t.Errorf("merged Google: pages %d, referred_views %d, crawl_to_refer %v; want the sums and their ratio", p, v, r)
	}
}

// referLog is a site's day: verified Googlebot, GPTBot, ChatGPT-User and
// ClaudeBot take pages (an impostor Googlebot too); people arrive from
// google.de, from google.com through a redirect, from chatgpt.com, with
// utm_source=chatgpt.com, with both, and from DuckDuckGo; a look-alike
// google.evil.com and a scraper forging Google's Referer send no one.
const referLog = "../testdata/refer/refer.log"

type referRow struct {
	Operator      string   `json:"operator"`
	Pages         int64    `json:"pages"`
	ReferredViews int64    `json:"referred_views"`
	CrawlToRefer  *float64 `json:"crawl_to_refer"`
}

func referRows(t *testing.T, out string) map[string]string {
	t.Helper()
	var rep struct {
		Operators []referRow `json:"operators"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, o := range rep.Operators {
		ratio := "null"
		if o.CrawlToRefer != nil {
			ratio = fmt.Sprint(*o.CrawlToRefer)
		}
		got[o.Operator] = fmt.Sprintf("pages %d, referred %d, ratio %s", o.Pages, o.ReferredViews, ratio)
	}
	return got
}

// TestCrawlToReferOfASite: what each operator's verified robots took and
// what its products sent back. Google: 10 pages for 2 people (google.de,
// and google.com counted once though the redirect repeats its Referer),
// 5 to 1; OpenAI: GPTBot's 12 and ChatGPT-User's 3 pages for 3 people
// (chatgpt.com, utm_source=chatgpt.com, both at once), 5 to 1; Anthropic
// took 4 and sent no one: null, not infinity; DuckDuckGo sent one person
// and took nothing. The impostor's pages, the scraper's forged Referers
// and google.evil.com count for no one.
func TestCrawlToReferOfASite(t *testing.T) {
	code, out, errOut := runCLI(t, nil, "-o", "json", referLog)
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := map[string]string{
		"Google":     "pages 10, referred 2, ratio 5",
		"OpenAI":     "pages 15, referred 3, ratio 5",
		"Anthropic":  "pages 4, referred 0, ratio null",
		"DuckDuckGo": "pages 0, referred 1, ratio 0",
	}
	got := referRows(t, out)
	for op, w := range want {
		if got[op] != w {
			t.Errorf("%s: %s, want %s", op, got[op], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("operators %v, want only %v", got, want)
	}
	// The ratio is null in the JSON, never left out: a script tells "sent
	// no one" from a report written before the field.
	if !strings.Contains(out, `"crawl_to_refer": null`) {
		t.Errorf("no \"crawl_to_refer\": null in the report")
	}

	for _, tc := range []struct {
		format string
		want   []string
	}{
		{"table", []string{"What robots take and send back", "Google", "5 : 1", "Anthropic", "none sent back"}},
		{"markdown", []string{"## What robots take and send back", "| Google |", "| 5 : 1 |", "| none sent back |"}},
		{"html", []string{"What robots take and send back", "<td>Google</td>", "5 : 1", "none sent back"}},
	} {
		code, out, errOut := runCLI(t, nil, "-o", tc.format, "--width", "160", referLog)
		if code != cli.ExitOK {
			t.Fatalf("-o %s: exit %d: %s", tc.format, code, errOut)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("-o %s: no %q in:\n%s", tc.format, w, out)
			}
		}
	}
}

// TestCrawlToReferMergesExactly: the counts behind the ratio add up over
// --shard parts merged and over --workers, and the ratio is worked out
// again from the sums, never averaged: each part alone has other ratios
// (or none) than the whole.
func TestCrawlToReferMergesExactly(t *testing.T) {
	_, whole, _ := runCLI(t, nil, "-o", "json", referLog)
	want := referRows(t, whole)
	dir := t.TempDir()
	parts := []string{"merge", "-o", "json"}
	for i := 1; i <= 3; i++ {
		code, out, errOut := runCLI(t, nil, "-o", "json", "--top", "0", "--shard", fmt.Sprintf("%d/3", i), referLog)
		if code != cli.ExitOK {
			t.Fatalf("shard %d/3: exit %d: %s", i, code, errOut)
		}
		parts = append(parts, writeLog(t, dir, fmt.Sprintf("part%d.json", i), out))
	}
	code, merged, errOut := runCLI(t, nil, parts...)
	if code != cli.ExitOK {
		t.Fatalf("merge: exit %d: %s", code, errOut)
	}
	if got := referRows(t, merged); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("merged %v, want %v", got, want)
	}
	_, many, _ := runCLI(t, nil, "-o", "json", "--workers", "3", referLog)
	if got := referRows(t, many); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("--workers 3: %v, want %v", got, want)
	}
}
