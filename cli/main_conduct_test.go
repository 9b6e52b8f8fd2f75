package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robowatch/robowatch/cli"
)

// conductLog is a log of six robots (testdata/conduct): one crawling on
// after a 503 for robots.txt, one that then gets the file, one served a
// challenge page for it, one keeping its pace through a minute of 429s,
// one slowing after a 429, and one with a Crawl-delay in two sessions.
var conductArgs = []string{"--robots", "../testdata/conduct/robots.txt", "../testdata/conduct/conduct.log"}

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
	rows, _ = conductRows(t, "../testdata/conduct/conduct.log")
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
	log, err := os.ReadFile("../testdata/conduct/conduct.log")
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
		_, out, _ := runCLI(t, nil, "-o", "json", "--top", "0", "--robots", "../testdata/conduct/robots.txt", f)
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

// versionsArgs judge testdata/versions/change.log against the site's
// robots.txt of 1 May (v1.txt, 34 bytes) and the one put up at midnight on
// 2 May (v2.txt, 49 bytes: Disallow: /ai/ added).
var versionsArgs = []string{"--robots", "../testdata/versions/v1.txt", "--robots", "../testdata/versions/v2.txt@2024-05-02T00:00:00Z", "../testdata/versions/change.log"}

type versionsReport struct {
	Robots []struct {
		Name       string `json:"name"`
		Violations int64  `json:"violations"`
		Cached     int64  `json:"cached"`
	} `json:"robots"`
	Violations []struct {
		Name     string `json:"name"`
		Path     string `json:"path"`
		Rule     string `json:"rule"`
		From     string `json:"robots_txt_from"`
		Copy     string `json:"robots_txt_copy"`
		Fetched  string `json:"robots_txt_fetched"`
		Last     string `json:"last_robots_txt_fetch"`
		LastCode int    `json:"last_robots_txt_status"`
	} `json:"violations"`
}

// TestRobotsTxtChangedMidLog is the site that added "Disallow: /ai/" at
// midnight: each robot is judged against the copy it could hold (RFC 9309
// lets it keep one 24 hours), not against today's file.
//   - FetchBot read the old file the day before: /ai/ after the change is
//     cached, not a violation; /private/ breaks the copy it had.
//   - LateBot read the new file after the change: /ai/ is a violation of it.
//   - NeverBot never read it: /ai/ five hours after the change may be from
//     an old copy (cached); a day and more after it, only the new file was
//     in force: a violation.
//   - SizeBot fetched ten minutes before the stated change, and the answer's
//     size (49 bytes) says it got the new file already: /ai/ is a violation.
//   - GzipBot's answer (30 bytes, compressed) is no version's size: it got
//     the file in force at its fetch, the old one: /ai/ is cached.
func TestRobotsTxtChangedMidLog(t *testing.T) {
	var rep versionsReport
	_, errOut := runJSON(t, nil, &rep, append([]string{"-o", "json"}, versionsArgs...)...)
	if !strings.Contains(errOut, "the size of each 2xx robots.txt answer in the log tells which version a robot got") {
		t.Errorf("stderr does not say that sizes tell the versions apart: %q", errOut)
	}
	robots := map[string]string{}
	for _, r := range rep.Robots {
		robots[r.Name] = fmt.Sprintf("%d violations, %d cached", r.Violations, r.Cached)
	}
	wantRobots := map[string]string{
		"FetchBot": "1 violations, 1 cached",
		"LateBot":  "1 violations, 0 cached",
		"NeverBot": "2 violations, 1 cached",
		"SizeBot":  "1 violations, 0 cached",
		"GzipBot":  "0 violations, 1 cached",
	}
	for name, want := range wantRobots {
		if robots[name] != want {
			t.Errorf("%s: %s, want %s", name, robots[name], want)
		}
	}
	var got []string
	for _, v := range rep.Violations {
		got = append(got, strings.Join([]string{v.Name, v.Path, v.Rule, v.From, v.Copy, v.Fetched, v.Last, fmt.Sprint(v.LastCode)}, " | "))
	}
	want := []string{
		"NeverBot | /private/a.html | Disallow: /private/ |  | in force |  |  | 0",
		"SizeBot | /ai/x.html | Disallow: /ai/ | 2024-05-02T00:00:00Z | fetched, told by size | 2024-05-01T23:50:00Z | 2024-05-01T23:50:00Z | 200",
		"FetchBot | /private/x.html | Disallow: /private/ |  | fetched, told by size | 2024-05-01T10:00:00Z | 2024-05-01T10:00:00Z | 200",
		"LateBot | /ai/page.html | Disallow: /ai/ | 2024-05-02T00:00:00Z | fetched, told by size | 2024-05-02T03:00:00Z | 2024-05-02T03:00:00Z | 200",
		"NeverBot | /ai/b.html | Disallow: /ai/ | 2024-05-02T00:00:00Z | in force |  |  | 0",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("violations\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// The CSV names the version too; with one file, "".
	_, csv, _ := runCLI(t, nil, append([]string{"-o", "csv", "--section", "violations"}, versionsArgs...)...)
	if !strings.Contains(csv, ",robots_txt_from\n") || !strings.Contains(csv, "/ai/b.html,200,*,Disallow: /ai/,3,2024-05-02T00:00:00Z\n") {
		t.Errorf("CSV violations do not name the version:\n%s", csv)
	}
	_, one, _ := runCLI(t, nil, "-o", "csv", "--section", "violations", "--robots", "../testdata/versions/v2.txt", "../testdata/versions/change.log")
	if !strings.Contains(one, "/ai/b.html,200,*,Disallow: /ai/,3,\n") {
		t.Errorf("with one file, robots_txt_from is not empty:\n%s", one)
	}
}

// TestVersionEvidenceInDrillDown: --client shows, for each violation, the
// version judged against, the robot's copy and its last robots.txt fetch,
// and the requests counted as cached: the evidence an operator is sent.
func TestVersionEvidenceInDrillDown(t *testing.T) {
	for _, tc := range []struct{ ip, want string }{
		{"198.51.100.4", "judged by the robots.txt of 2024-05-02T00:00:00Z, its copy: fetched 2024-05-01 23:50:00 +0000 (at most 24 h before), the version told by the answer's size; its last fetch of robots.txt: 2024-05-01 23:50:00 +0000, status 200"},
		{"198.51.100.3", "judged by the robots.txt of 2024-05-02T00:00:00Z, no fetch in the 24 h before: every version in force then disallows it; it never fetched robots.txt before"},
		{"198.51.100.5", "Cached 1 request the robots.txt in force disallows and a copy it could hold allowed: no violations"},
	} {
		code, out, errOut := runCLI(t, nil, append([]string{"--width", "1000", "--section", "client", "--client", tc.ip}, versionsArgs...)...)
		if code != cli.ExitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		flat := strings.Join(strings.Fields(strings.NewReplacer("│", " ").Replace(out)), " ")
		if !strings.Contains(flat, tc.want) {
			t.Errorf("--client %s does not say %q:\n%s", tc.ip, tc.want, out)
		}
	}
}

// TestRobotsHistoryDir: a directory of versions named by their times is
// the same history as --robots FILE@TIME, dates read in the log's zone.
func TestRobotsHistoryDir(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{"2024-04-01.txt": "v1.txt", "2024-05-02.txt": "v2.txt"} {
		b, err := os.ReadFile(filepath.Join("../testdata/versions", src))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, want, _ := runCLI(t, nil, append([]string{"-o", "csv", "--section", "violations"}, versionsArgs...)...)
	code, got, errOut := runCLI(t, nil, "-o", "csv", "--section", "violations", "--robots-history", dir, "../testdata/versions/change.log")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// The first version is in force from the start however it is dated.
	want = strings.ReplaceAll(want, ",3,2024-05-02T00:00:00Z", ",3,2024-05-02T00:00:00Z")
	want = strings.ReplaceAll(want, ",2,\n", ",2,2024-04-01T00:00:00Z\n")
	if got != want {
		t.Errorf("--robots-history:\n%s\nwant\n%s", got, want)
	}
	if code, _, errOut := runCLI(t, nil, "--robots", "../testdata/versions/v2.txt@2024-02-30", "../testdata/versions/change.log"); code != cli.ExitUsage || !strings.Contains(errOut, "not a time") {
		t.Errorf("a bad time: exit %d, %q", code, errOut)
	}
}

// TestVersionsMergeExactly: the verdicts on a robots.txt history are the
// same in one run, with --workers, and merged from --shard parts.
func TestVersionsMergeExactly(t *testing.T) {
	_, whole, _ := runCLI(t, nil, append([]string{"-o", "json"}, versionsArgs...)...)
	_, workers, _ := runCLI(t, nil, append([]string{"-o", "json", "--workers", "3"}, versionsArgs...)...)
	if workers != whole {
		t.Errorf("--workers 3 differs from one worker at %s", firstDiff(workers, whole))
	}
	dir := t.TempDir()
	parts := []string{"merge", "-o", "json"}
	for i := 1; i <= 3; i++ {
		code, out, errOut := runCLI(t, nil, append([]string{"-o", "json", "--top", "0", "--shard", fmt.Sprintf("%d/3", i)}, versionsArgs...)...)
		if code != cli.ExitOK {
			t.Fatalf("shard %d: exit %d: %s", i, code, errOut)
		}
		p := filepath.Join(dir, fmt.Sprintf("part%d.json", i))
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, p)
	}
	code, merged, errOut := runCLI(t, nil, parts...)
	if code != cli.ExitOK {
		t.Fatalf("merge: exit %d: %s", code, errOut)
	}
	if merged != whole {
		t.Errorf("merged shards differ from the whole run at %s", firstDiff(merged, whole))
	}
}

// TestTrailingDotHostKeepsItsRobotsTxt: a client that writes its Host as
// "www.example.com." (the fully qualified name, which nginx and Apache
// serve as www.example.com) is judged by --robots www.example.com=FILE,
// and so is the plain name when --robots spells the host with the dot.
// Before, the dotted Host had no robots.txt: its violations went
// unchecked.
func TestTrailingDotHostKeepsItsRobotsTxt(t *testing.T) {
	dir := t.TempDir()
	rtxt := filepath.Join(dir, "robots-www.txt")
	if err := os.WriteFile(rtxt, []byte("User-agent: *\nDisallow: /private/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	for i := range 10 {
		// vhost_combined, one robot per spelling of the host.
		fmt.Fprintf(&log, "www.example.com.:443 192.0.2.7 - - [10/Oct/2024:10:00:%02d +0000] \"GET /private/%d HTTP/1.1\" 200 512 \"-\" \"python-requests/2.31.0\"\n", i, i)
		fmt.Fprintf(&log, "www.example.com:443 192.0.2.8 - - [10/Oct/2024:10:00:%02d +0000] \"GET /private/%d HTTP/1.1\" 200 512 \"-\" \"python-requests/2.31.0\"\n", i, i)
	}
	logPath := filepath.Join(dir, "access.log")
	if err := os.WriteFile(logPath, []byte(log.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, host := range []string{"www.example.com", "www.example.com.", "WWW.EXAMPLE.COM."} {
		t.Run(host, func(t *testing.T) {
			var doc struct {
				Summary struct {
					Violations int `json:"violations"`
					Unchecked  int `json:"unchecked_records"`
				} `json:"summary"`
				Clients []struct {
					IP         string `json:"ip"`
					Violations int    `json:"violations"`
				} `json:"clients"`
			}
			runJSON(t, nil, &doc, "-o", "json", "--robots", host+"="+rtxt, logPath)
			if doc.Summary.Violations != 20 || doc.Summary.Unchecked != 0 {
				t.Errorf("%d violations, %d records unchecked; want 20 and 0", doc.Summary.Violations, doc.Summary.Unchecked)
			}
			for _, c := range doc.Clients {
				if c.Violations != 10 {
					t.Errorf("client %s: %d violations, want 10 (its Host is www.example.com, dot or none)", c.IP, c.Violations)
				}
			}
		})
	}
}
