package cli_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/cli"
)

// TestShardsMergeToTheWholeRun is the scale-out scenario: N machines each
// read the whole log with --shard I/N -o json --top 0, and robowatch merge
// of their reports is the report one run over the log makes, byte for
// byte, in JSON (every list, the summary's counts, the timeline, the state)
// and in the terminal table. The logs have malformed lines, W3C
// directives, robots.txt violations, incidents and impostors.
func TestShardsMergeToTheWholeRun(t *testing.T) {
	for _, tc := range []struct {
		name, robots string // robots: the site's robots.txt, for merge --robots
		args         []string
	}{
		{"sample", "../testdata/sample.robots.txt", []string{"--robots", "../testdata/sample.robots.txt", "../testdata/sample.log.gz"}},
		{"site", "../testdata/scenarios/site/robots.txt", []string{"--robots", "../testdata/scenarios/site/robots.txt", "../testdata/scenarios/site/site.log"}},
		{"iis-directives", "", []string{"../testdata/formats/iis.log"}},
		{"malformed-and-rotated", "", []string{"../testdata/logs/nasa-401-1000.log", "../testdata/logs/basjes-1-300.log", "../testdata/scenarios/server-formats/notes.txt"}},
		{"elastic", "", []string{"../testdata/logs/elastic-8801-9000.log", "../testdata/logs/elastic-5801-5900.log"}},
		// One client before the change to summer time, the rest after: a
		// shard of only later clients took +0200 for the log's zone.
		{"dst", "", []string{"../testdata/scenarios/dst/change.log"}},
		// robots.txt unreachable, served as a page; 429s; Crawl-delay sessions.
		{"conduct", "../testdata/conduct/robots.txt", []string{"--robots", "../testdata/conduct/robots.txt", "../testdata/conduct/conduct.log"}},
		// Pages of Google's and OpenAI's crawlers, people they sent back.
		{"refer", "", []string{"../testdata/refer/refer.log"}},
		// Content-use preferences, a Content-Usage header, AI discovery files.
		{"prefs", "../testdata/prefs/robots.txt", []string{"--robots", "../testdata/prefs/robots.txt", "../testdata/prefs/prefs.log"}},
	} {
		for _, n := range []int{2, 3, 7} {
			t.Run(fmt.Sprintf("%s/%d", tc.name, n), func(t *testing.T) {
				dir := t.TempDir()
				wholeCode, whole, _ := runCLI(t, nil, append([]string{"-o", "json"}, tc.args...)...)
				_, wholeTable, _ := runCLI(t, nil, append([]string{"--width", "120"}, tc.args...)...)
				parts := []string{"merge", "-o", "json"}
				for i := 1; i <= n; i++ {
					code, out, errOut := runCLI(t, nil, append([]string{"-o", "json", "--top", "0", "--shard", fmt.Sprintf("%d/%d", i, n)}, tc.args...)...)
					if code != wholeCode {
						t.Fatalf("shard %d/%d: exit %d, the whole run %d: %s", i, n, code, wholeCode, errOut)
					}
					part := filepath.Join(dir, fmt.Sprintf("part%d.json", i))
					if err := os.WriteFile(part, []byte(out), 0o644); err != nil {
						t.Fatal(err)
					}
					parts = append(parts, part)
				}
				code, merged, errOut := runCLI(t, nil, parts...)
				if code != wholeCode {
					t.Fatalf("merge: exit %d, the whole run %d: %s", code, wholeCode, errOut)
				}
				if merged != whole {
					t.Errorf("merged report differs from the whole run's at %s", firstDiff(merged, whole))
				}
				table := append([]string{"merge", "--width", "120"}, parts[3:]...)
				if _, mergedTable, _ := runCLI(t, nil, table...); mergedTable != wholeTable {
					t.Errorf("merged table differs from the whole run's at %s", firstDiff(mergedTable, wholeTable))
				}
				if tc.robots != "" {
					_, wholeSuggest, _ := runCLI(t, nil, append([]string{"-o", "robots.txt"}, tc.args...)...)
					_, mergedSuggest, _ := runCLI(t, nil, append([]string{"merge", "-o", "robots.txt", "--robots", tc.robots}, parts[3:]...)...)
					if mergedSuggest != wholeSuggest {
						t.Errorf("merged suggested robots.txt differs from the whole run's at %s", firstDiff(mergedSuggest, wholeSuggest))
					}
				}
				_, wholeBlock, _ := runCLI(t, nil, append([]string{"-o", "nginx"}, tc.args...)...)
				if _, mergedBlock, _ := runCLI(t, nil, append([]string{"merge", "-o", "nginx"}, parts[3:]...)...); mergedBlock != wholeBlock {
					t.Errorf("merged nginx block list differs from the whole run's at %s", firstDiff(mergedBlock, wholeBlock))
				}
			})
		}
	}
}

// TestShardsCountEveryLineOnce: each line of the log, malformed and
// directive lines included, is counted by exactly one shard.
func TestShardsCountEveryLineOnce(t *testing.T) {
	args := []string{"../testdata/formats/iis.log", "../testdata/logs/nasa-401-1000.log", "../testdata/scenarios/server-formats/notes.txt"}
	var whole, sum jsonSummary
	_, out, _ := runCLI(t, nil, append([]string{"-o", "json"}, args...)...)
	whole = summaryIn(t, out)
	if whole.Malformed == 0 || whole.Directives == 0 {
		t.Fatalf("the test's logs have no malformed or directive lines: %+v", whole)
	}
	for i := 1; i <= 4; i++ {
		_, out, _ := runCLI(t, nil, append([]string{"-o", "json", "--shard", fmt.Sprintf("%d/4", i)}, args...)...)
		s := summaryIn(t, out)
		if s.Lines != s.Records+s.Malformed+s.Directives {
			t.Errorf("shard %d/4: lines %d != records %d + malformed %d + directives %d", i, s.Lines, s.Records, s.Malformed, s.Directives)
		}
		sum.Lines += s.Lines
		sum.Records += s.Records
		sum.Malformed += s.Malformed
		sum.Directives += s.Directives
	}
	if sum.Lines != whole.Lines || sum.Records != whole.Records || sum.Malformed != whole.Malformed || sum.Directives != whole.Directives {
		t.Errorf("shards counted %+v; the whole run %+v", sum, whole)
	}
}

// TestMergeConsecutiveLogs: two days' reports make one report of both days:
// counts add up, a client seen on both days is one row with both days'
// requests.
func TestMergeConsecutiveLogs(t *testing.T) {
	dir := t.TempDir()
	log, err := os.ReadFile("../testdata/scenarios/site/site.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(log), "\n"), "\n")
	half := len(lines) / 2
	day1, day2 := filepath.Join(dir, "day1.log"), filepath.Join(dir, "day2.log")
	os.WriteFile(day1, []byte(strings.Join(lines[:half], "")), 0o644)
	os.WriteFile(day2, []byte(strings.Join(lines[half:], "")), 0o644)
	robots := "../testdata/scenarios/site/robots.txt"
	_, whole, _ := runCLI(t, nil, "-o", "json", "--robots", robots, "../testdata/scenarios/site/site.log")
	var parts []string
	for _, day := range []string{day1, day2} {
		_, out, _ := runCLI(t, nil, "-o", "json", "--robots", robots, day)
		parts = append(parts, day+".json")
		os.WriteFile(day+".json", []byte(out), 0o644)
	}
	code, merged, errOut := runCLI(t, nil, append([]string{"merge", "-o", "json"}, parts...)...)
	if code != cli.ExitOK || errOut != "" {
		t.Fatalf("merge of consecutive days: exit %d, %q; want 0 and no warning", code, errOut)
	}
	w, m := reportIn(t, whole), reportIn(t, merged)
	if w.Summary.Lines != m.Summary.Lines || w.Summary.Records != m.Summary.Records || w.Summary.Violations != m.Summary.Violations ||
		w.Summary.Clients != m.Summary.Clients {
		t.Errorf("merged summary %+v; one run over both days %+v", m.Summary, w.Summary)
	}
	requests := map[string]int64{}
	for _, c := range w.Clients {
		requests[c.IP+" "+c.UserAgent] = c.Requests
	}
	for _, c := range m.Clients {
		if requests[c.IP+" "+c.UserAgent] != c.Requests {
			t.Errorf("client %s: %d requests merged, %d in one run", c.IP, c.Requests, requests[c.IP+" "+c.UserAgent])
		}
	}
	if len(m.Clients) != len(w.Clients) {
		t.Errorf("%d clients merged, %d in one run", len(m.Clients), len(w.Clients))
	}
	// A client seen on both days is one client in the robots and networks
	// rows too, as in one run (each day's row counted it).
	var rows struct {
		Summary struct {
			Robots int `json:"robots"`
		} `json:"summary"`
		Robots []struct {
			Name    string `json:"name"`
			Clients int    `json:"clients"`
		} `json:"robots"`
		Networks []struct {
			Network string `json:"network"`
			Clients int    `json:"clients"`
		} `json:"networks"`
	}
	count := func(out string) (robots, nets map[string]int) {
		if err := json.Unmarshal([]byte(out), &rows); err != nil {
			t.Fatal(err)
		}
		robots, nets = map[string]int{}, map[string]int{}
		for _, r := range rows.Robots {
			robots[r.Name] = r.Clients
		}
		for _, n := range rows.Networks {
			nets[n.Network] = n.Clients
		}
		return robots, nets
	}
	wr, wn := count(whole)
	mr, mn := count(merged)
	for name, n := range mr {
		if n > wr[name] {
			t.Errorf("robot %s: %d clients merged, %d in one run", name, n, wr[name])
		}
	}
	for net, n := range mn {
		if n != wn[net] {
			t.Errorf("network %s: %d clients merged, %d in one run", net, n, wn[net])
		}
	}
}

// TestMergeRefusesWhatItCannotMergeExactly: a cut report (--top), the same
// shard twice, a file that is no report: exit 1 with why; a missing shard
// is merged with a warning that says which.
func TestMergeRefusesWhatItCannotMergeExactly(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, args ...string) string {
		_, out, _ := runCLI(t, nil, append(args, "--robots", "../testdata/sample.robots.txt", "../testdata/sample.log.gz")...)
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(out), 0o644)
		return p
	}
	cut := write("cut.json", "-o", "json", "--top", "3")
	s1 := write("s1.json", "-o", "json", "--shard", "1/3")
	s2 := write("s2.json", "-o", "json", "--shard", "2/3")
	other := write("other.json", "-o", "json", "--shard", "1/2")
	for _, tc := range []struct {
		parts []string
		code  int
		say   string
	}{
		{[]string{cut}, cli.ExitError, "--top 0"},
		{[]string{s1, s1}, cli.ExitError, "both shard 1/3"},
		{[]string{s1, other}, cli.ExitError, "split 2 ways"},
		{[]string{"../testdata/sample.robots.txt"}, cli.ExitError, "not a robowatch JSON report"},
		{[]string{s1, s2}, cli.ExitError, "shards missing from the merge: 3/3"},
		{nil, cli.ExitUsage, "give the JSON reports"},
	} {
		code, _, errOut := runCLI(t, nil, append([]string{"merge", "-o", "json"}, tc.parts...)...)
		if code != tc.code || !strings.Contains(errOut, tc.say) {
			t.Errorf("merge %v: exit %d, stderr %q; want exit %d saying %q", tc.parts, code, errOut, tc.code, tc.say)
		}
	}
	// A part whose run was interrupted makes the merge incomplete; parts
	// never checked against a robots.txt cannot answer --fail-on violations.
	whole := write("whole.json", "-o", "json")
	b, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	partial := filepath.Join(dir, "partial.json")
	os.WriteFile(partial, []byte(strings.Replace(string(b), `"partial": false`, `"partial": true`, 1)), 0o644)
	if code, _, errOut := runCLI(t, nil, "merge", "-o", "json", partial); code != cli.ExitError || !strings.Contains(errOut, "interrupted") {
		t.Errorf("merge of an interrupted part: exit %d, stderr %q; want exit 1 saying so", code, errOut)
	}
	_, unchecked, _ := runCLI(t, nil, "-o", "json", "../testdata/sample.log.gz")
	plain := filepath.Join(dir, "plain.json")
	os.WriteFile(plain, []byte(unchecked), 0o644)
	if code, _, errOut := runCLI(t, nil, "merge", "--fail-on", "violations", plain); code != cli.ExitUsage || !strings.Contains(errOut, "without --robots") {
		t.Errorf("merge --fail-on violations of unchecked parts: exit %d, stderr %q; want a usage error", code, errOut)
	}
	// The same report twice (a file named twice, a copy) counted its
	// traffic twice; two reports in one file merged the first only.
	copied := filepath.Join(dir, "copy.json")
	os.WriteFile(copied, b, 0o644)
	both := filepath.Join(dir, "both.json")
	os.WriteFile(both, append(append([]byte{}, b...), unchecked...), 0o644)
	for _, tc := range []struct {
		parts []string
		say   string
	}{
		{[]string{whole, whole}, "same report"},
		{[]string{whole, copied}, "same report"},
		{[]string{both}, "more than one JSON report"},
	} {
		if code, _, errOut := runCLI(t, nil, append([]string{"merge", "-o", "json"}, tc.parts...)...); code != cli.ExitError || !strings.Contains(errOut, tc.say) {
			t.Errorf("merge %v: exit %d, stderr %q; want exit 1 saying %q", tc.parts, code, errOut, tc.say)
		}
	}
	for _, bad := range []string{"0/3", "4/3", "1/0", "x", "1/2/3"} {
		if code, _, errOut := runCLI(t, nil, "--shard", bad, "../testdata/sample.log.gz"); code != cli.ExitUsage {
			t.Errorf("--shard %s: exit %d (%s), want a usage error", bad, code, errOut)
		}
	}
}

// TestMergeRefusesPartsMadeWithDifferentOptions: parts made with
// different thresholds, caps, robots.txt files, proxies or windows do not
// add up to one run's report, and merging them silently gave a wrong one;
// merge refuses them, naming the option and the two parts. The same
// options spelled otherwise (the default given, 1d for 24h, the same
// robots.txt in another place) merge, as does a part that names no options
// (written before they were recorded).
func TestMergeRefusesPartsMadeWithDifferentOptions(t *testing.T) {
	dir := t.TempDir()
	robots := "../testdata/sample.robots.txt"
	copied := filepath.Join(dir, "robots-copy.txt")
	b, err := os.ReadFile(robots)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(copied, b, 0o644)
	// The parts that are to merge read another log of the same hours (the
	// sample without its first line, as a second server's): parts of one
	// log would count it twice.
	const sample = "../testdata/sample.log.gz"
	next := filepath.Join(dir, "next.log")
	zr, err := os.Open(sample)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	gr, err := gzip.NewReader(zr)
	if err != nil {
		t.Fatal(err)
	}
	text, err := io.ReadAll(gr)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := bytes.Cut(text, []byte("\n"))
	os.WriteFile(next, rest, 0o644)
	write := func(name, log string, args ...string) string {
		t.Helper()
		_, out, errOut := runCLI(t, nil, append(append([]string{"-o", "json", "--top", "0"}, args...), log)...)
		if !strings.Contains(out, `"state"`) {
			t.Fatalf("%s: no report: %s", name, errOut)
		}
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(out), 0o644)
		return p
	}
	base := write("base.json", sample, "--robots", robots, "--since", "1d")
	for _, tc := range []struct {
		name, option string
		args         []string
	}{
		{"burst", "--burst (20 and 30)", []string{"--robots", robots, "--since", "1d", "--burst", "30"}},
		{"sustained", "--sustained (60 and 90)", []string{"--robots", robots, "--since", "1d", "--sustained", "90"}},
		{"max-clients", "--max-clients (250000 and 1000)", []string{"--robots", robots, "--since", "1d", "--max-clients", "1000"}},
		{"no-robots", "--robots", []string{"--since", "1d"}},
		{"trust-proxy", "--trust-proxy (none and 10.0.0.0/8)", []string{"--robots", robots, "--since", "1d", "--trust-proxy", "10.0.0.0/8"}},
		{"since", "--since (24h0m0s and 2h0m0s)", []string{"--robots", robots, "--since", "2h"}},
		{"until", "--until (none and 2024-03-10T01:00:00Z)", []string{"--robots", robots, "--since", "1d", "--until", "2024-03-10T01:00:00Z"}},
	} {
		part := write(tc.name+".json", sample, tc.args...)
		code, _, errOut := runCLI(t, nil, "merge", "-o", "json", base, part)
		if code != cli.ExitError || !strings.Contains(errOut, "different "+tc.option) || !strings.Contains(errOut, base) || !strings.Contains(errOut, part) {
			t.Errorf("merge of parts made with different %s: exit %d, %q; want exit 1 naming the option and both parts", tc.name, code, errOut)
		}
	}
	// Consecutive logs checked against the robots.txt of their day merge,
	// with a warning: a site changes its file in the middle of a week.
	// Shards of one log, which one run's options made, do not.
	changed := write("other-robots.json", next, "--robots", "../testdata/scenarios/site/robots.txt", "--since", "1d")
	if code, _, errOut := runCLI(t, nil, "merge", "-o", "json", base, changed); code != cli.ExitOK || !strings.Contains(errOut, "2 different robots.txt files") {
		t.Errorf("merge of days checked against different robots.txt files: exit %d, %q; want exit 0 and a warning", code, errOut)
	} else if !strings.Contains(errOut, "cover the same time") {
		// These two "days" cover the same hours (two servers' logs, or a
		// log and most of it again): the reader should know.
		t.Errorf("merge of two reports of one log: %q; want a warning that they cover the same time", errOut)
	}
	// The warning does not depend on the order of the parts: a part checked
	// against a host's file besides the site's, named first, hid the day
	// checked against the site's alone.
	hosted := write("hosted-robots.json", next, "--robots", robots, "--robots", "www.example.com=../testdata/scenarios/site/robots.txt", "--since", "1d")
	for _, order := range [][]string{{base, hosted}, {hosted, base}} {
		if code, _, errOut := runCLI(t, nil, append([]string{"merge", "-o", "json"}, order...)...); code != cli.ExitOK || !strings.Contains(errOut, "2 different robots.txt files") {
			t.Errorf("merge of %v, checked against different robots.txt files: exit %d, %q; want exit 0 and a warning", order, code, errOut)
		}
	}
	shard1 := write("shard1.json", sample, "--robots", robots, "--since", "1d", "--shard", "1/2")
	shard2 := write("shard2.json", sample, "--robots", "../testdata/scenarios/site/robots.txt", "--since", "1d", "--shard", "2/2")
	if code, _, errOut := runCLI(t, nil, "merge", "-o", "json", shard1, shard2); code != cli.ExitError || !strings.Contains(errOut, "different --robots") {
		t.Errorf("merge of shards checked against different robots.txt files: exit %d, %q; want exit 1 naming --robots", code, errOut)
	}
	same := write("same.json", next, "--robots", copied, "--since", "24h", "--burst", "20")
	code, merged, errOut := runCLI(t, nil, "merge", "-o", "json", base, same)
	if code != cli.ExitOK {
		t.Errorf("merge of parts made with the same options spelled otherwise: exit %d, %s", code, errOut)
	}
	var doc struct {
		State struct {
			Options map[string]any `json:"options"`
		} `json:"state"`
	}
	if err := json.Unmarshal([]byte(merged), &doc); err != nil || doc.State.Options["burst"] != float64(20) {
		t.Errorf("the merged report's state does not say what its parts were made with: %v %v", doc.State.Options, err)
	}
	// A part of a robowatch that did not record its options is taken as it is.
	old := filepath.Join(dir, "old.json")
	var d map[string]any
	b, _ = os.ReadFile(write("burst-old.json", next, "--burst", "30"))
	json.Unmarshal(b, &d)
	delete(d["state"].(map[string]any), "options")
	b, _ = json.Marshal(d)
	os.WriteFile(old, b, 0o644)
	if code, _, errOut := runCLI(t, nil, "merge", "-o", "json", base, old); code != cli.ExitOK {
		t.Errorf("merge with a part that names no options: exit %d, %s", code, errOut)
	}
}

// TestMergeIgnoresTheOrderOfItsParts: the merged report is the same
// whatever order the parts are given in. Ties in the merged rows were
// broken by the command line's order: a client seen on several days had
// its details in that order and, when two days peaked alike, the peak
// time of the first part named; the files, the malformed lines and the
// timeline's zone followed it too.
func TestMergeIgnoresTheOrderOfItsParts(t *testing.T) {
	dir := t.TempDir()
	log, err := os.ReadFile("../testdata/scenarios/site/site.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(log), "\n"), "\n")
	var days []string
	for i, k := 0, len(lines)/3; i < 3; i++ {
		day := filepath.Join(dir, fmt.Sprintf("day%d.log", i+1))
		end := (i + 1) * k
		if i == 2 {
			end = len(lines)
		}
		os.WriteFile(day, []byte(strings.Join(lines[i*k:end], "")), 0o644)
		_, out, _ := runCLI(t, nil, "-o", "json", "--robots", "../testdata/scenarios/site/robots.txt", day)
		os.WriteFile(day+".json", []byte(out), 0o644)
		days = append(days, day+".json")
	}
	var shards []string
	for i := 1; i <= 3; i++ {
		_, out, _ := runCLI(t, nil, "-o", "json", "--shard", fmt.Sprintf("%d/3", i), "--robots", "../testdata/sample.robots.txt", "../testdata/sample.log.gz")
		p := filepath.Join(dir, fmt.Sprintf("shard%d.json", i))
		os.WriteFile(p, []byte(out), 0o644)
		shards = append(shards, p)
	}
	for _, parts := range [][]string{days, shards} {
		var first string
		for _, order := range [][]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}} {
			args := []string{"merge", "-o", "json"}
			for _, k := range order {
				args = append(args, parts[k])
			}
			code, out, errOut := runCLI(t, nil, args...)
			if code != cli.ExitOK {
				t.Fatalf("merge %v: exit %d, %s", order, code, errOut)
			}
			if first == "" {
				first = out
			} else if out != first {
				t.Errorf("merge of %s in the order %v differs from the order 0 1 2 at %s", filepath.Base(parts[0]), order, firstDiff(out, first))
			}
		}
	}
}

// TestMergeDaysAcrossDST: daily reports of a log whose zone moves from
// +0100 to +0200 (Europe's clocks on 31 March 2024) merge into the
// timeline one run over all the days makes: the same start, in the first
// day's zone, and the same buckets. Each day's buckets were placed by its
// own local time: after the change an hour late, and the start was in the
// zone of whichever day was named first.
func TestMergeDaysAcrossDST(t *testing.T) {
	dir := t.TempDir()
	change := time.Date(2024, 3, 31, 1, 0, 0, 0, time.UTC)
	cet, cest := time.FixedZone("", 3600), time.FixedZone("", 7200)
	days := map[string]*strings.Builder{}
	var whole strings.Builder
	for at := time.Date(2024, 3, 29, 23, 0, 0, 0, time.UTC); at.Before(time.Date(2024, 4, 1, 22, 0, 0, 0, time.UTC)); at = at.Add(7 * time.Minute) {
		local := at.In(cet)
		if !at.Before(change) {
			local = at.In(cest)
		}
		for k, ua := range []string{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "curl/8.0", "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0"} {
			if (at.Unix()/420)%int64(k+1) != 0 {
				continue
			}
			line := fmt.Sprintf("192.0.2.%d - - [%s] \"GET /page/%d HTTP/1.1\" 200 512 \"-\" \"%s\"\n", k+1, local.Format("02/Jan/2006:15:04:05 -0700"), at.Unix()%97, ua)
			day := local.Format("2006-01-02")
			if days[day] == nil {
				days[day] = &strings.Builder{}
			}
			days[day].WriteString(line)
			whole.WriteString(line)
		}
	}
	all := filepath.Join(dir, "all.log")
	os.WriteFile(all, []byte(whole.String()), 0o644)
	var parts []string
	for day, b := range days {
		log := filepath.Join(dir, day+".log")
		os.WriteFile(log, []byte(b.String()), 0o644)
		_, out, _ := runCLI(t, nil, "-o", "json", log)
		os.WriteFile(log+".json", []byte(out), 0o644)
		parts = append(parts, log+".json")
	}
	slices.Sort(parts)
	type timeline struct {
		Timeline struct {
			Start         string  `json:"start"`
			BucketSeconds int64   `json:"bucket_seconds"`
			Requests      []int64 `json:"requests"`
			Robots        []int64 `json:"robots"`
		} `json:"timeline"`
	}
	timelineOf := func(out string) timeline {
		var tl timeline
		if err := json.Unmarshal([]byte(out), &tl); err != nil {
			t.Fatalf("not JSON: %v", err)
		}
		return tl
	}
	_, out, _ := runCLI(t, nil, "-o", "json", all)
	want := timelineOf(out)
	if !strings.HasSuffix(want.Timeline.Start, "+01:00") {
		t.Fatalf("the whole run's timeline starts at %s, not in the first day's zone", want.Timeline.Start)
	}
	backward := slices.Clone(parts)
	slices.Reverse(backward)
	for _, order := range [][]string{parts, backward} {
		code, out, errOut := runCLI(t, nil, append([]string{"merge", "-o", "json"}, order...)...)
		if code != cli.ExitOK {
			t.Fatalf("merge: exit %d, %s", code, errOut)
		}
		if got := timelineOf(out); !reflect.DeepEqual(got, want) {
			t.Errorf("merge of %d days across DST: timeline start %s, %d s buckets, requests %v, robots %v; one run over them: %s, %d s, %v, %v",
				len(parts), got.Timeline.Start, got.Timeline.BucketSeconds, got.Timeline.Requests, got.Timeline.Robots,
				want.Timeline.Start, want.Timeline.BucketSeconds, want.Timeline.Requests, want.Timeline.Robots)
		}
	}
}

type jsonSummary struct {
	Lines, Records, Malformed, Directives, Violations, Clients int64
}

type jsonDoc struct {
	Summary jsonSummary
	Clients []struct {
		IP        string `json:"ip"`
		UserAgent string `json:"user_agent"`
		Requests  int64  `json:"requests"`
	}
}

func reportIn(t *testing.T, out string) jsonDoc {
	t.Helper()
	var d jsonDoc
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	return d
}

func summaryIn(t *testing.T, out string) jsonSummary { return reportIn(t, out).Summary }

// TestWorkersGiveTheSameReport: the clients are judged on --workers
// goroutines (a Pool), and the report is the same byte for byte whatever
// their number, in JSON, as a table and as a block list, on logs with
// robots.txt violations, incidents, impostors, a rotating scraper,
// malformed lines and a --since window.
func TestWorkersGiveTheSameReport(t *testing.T) {
	for _, args := range [][]string{
		{"--robots", "../testdata/sample.robots.txt", "../testdata/sample.log.gz"},
		{"--robots", "../testdata/scenarios/site/robots.txt", "--client", "192.0.2.99", "../testdata/scenarios/site/site.log"},
		{"../testdata/formats/iis.log", "../testdata/logs/nasa-401-1000.log", "../testdata/logs/basjes-1-300.log"},
		{"--since", "2024-03-10T01:00:00Z", "--robots", "../testdata/sample.robots.txt", "../testdata/sample.log.gz"},
		{"--shard", "2/3", "--robots", "../testdata/sample.robots.txt", "../testdata/sample.log.gz"},
		// A worker whose clients all came after the change to summer time
		// took +0200 for the log's zone: their peaks and the timeline.
		{"../testdata/scenarios/dst/change.log"},
		{"--robots", "../testdata/conduct/robots.txt", "../testdata/conduct/conduct.log"},
		{"../testdata/refer/refer.log"},
		{"--robots", "../testdata/prefs/robots.txt", "../testdata/prefs/prefs.log"},
	} {
		for _, out := range [][]string{{"-o", "json"}, {"--width", "120"}, {"-o", "nginx"}} {
			run := func(workers string) (int, string) {
				code, stdout, _ := runCLI(t, nil, append(append([]string{"--workers", workers}, out...), args...)...)
				return code, stdout
			}
			code1, one := run("1")
			for _, w := range []string{"2", "3", "8"} {
				if code, many := run(w); code != code1 || many != one {
					t.Errorf("%v %v: --workers %s gives exit %d and a report that differs from --workers 1's (exit %d) at %s",
						out, args, w, code, code1, firstDiff(many, one))
				}
			}
		}
	}
}

// TestWorkersSameOnManyPaths: the workers find the paths their parsers
// interned, and past the first 4,096 (a site of many pages, a log of
// query strings) and for paths too long to intern they work the paths out
// themselves; either way the report is --workers 1's, byte for byte, with
// robots.txt violations, sign-up pages, probes and assets among them.
func TestWorkersSameOnManyPaths(t *testing.T) {
	dir := t.TempDir()
	robotsTxt := filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(robotsTxt, []byte("User-agent: *\nDisallow: /private/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	const bot = "Mozilla/5.0 (compatible; ExampleBot/1.0; +https://example.com/bot)"
	const person = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
	at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	for i := range 20000 {
		ip, ua := fmt.Sprintf("198.51.%d.%d", 100+i%7, 1+i%5), person
		path := []string{"/article/%d", "/private/%d", "/wp-login.php?n=%d", "/img/%d.png", "/.env.%d", "/search?q=" + strings.Repeat("long", 20) + "%d"}[i%6]
		path = fmt.Sprintf(path, i)
		if i%3 == 0 {
			ua = bot
		}
		fmt.Fprintf(&b, "%s - - [%s] \"GET %s HTTP/1.1\" %d 512 \"-\" \"%s\"\n", ip, at.Add(time.Duration(i)*time.Second).Format("02/Jan/2006:15:04:05 -0700"), path, 200+i%2*204, ua)
	}
	logPath := filepath.Join(dir, "access.log")
	if err := os.WriteFile(logPath, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"-o", "json", "--robots", robotsTxt, logPath}
	_, one, _ := runCLI(t, nil, append([]string{"--workers", "1"}, args...)...)
	if !strings.Contains(one, "/private/") {
		t.Fatalf("no robots.txt violation in the report: the test checks nothing\n%.2000s", one)
	}
	for _, w := range []string{"2", "3"} {
		if _, many, _ := runCLI(t, nil, append([]string{"--workers", w}, args...)...); many != one {
			t.Errorf("--workers %s differs from --workers 1 at %s", w, firstDiff(many, one))
		}
	}
}

// TestMergeHostileParts: a report edited into nonsense (a bucket width no
// run writes, a timeline too long, broken JSON) is refused with a reason,
// never a hang or a panic.
func TestMergeHostileParts(t *testing.T) {
	dir := t.TempDir()
	_, good, _ := runCLI(t, nil, "-o", "json", "--robots", "../testdata/sample.robots.txt", "../testdata/sample.log.gz")
	var doc map[string]any
	if err := json.Unmarshal([]byte(good), &doc); err != nil {
		t.Fatal(err)
	}
	edit := func(name string, change func(tl map[string]any)) string {
		var d map[string]any
		json.Unmarshal([]byte(good), &d)
		change(d["timeline"].(map[string]any))
		b, _ := json.Marshal(d)
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o644)
		return p
	}
	huge := edit("huge-width.json", func(tl map[string]any) { tl["bucket_seconds"] = float64(1 << 62) })
	odd := edit("odd-width.json", func(tl map[string]any) { tl["bucket_seconds"] = float64(7) })
	long := edit("long.json", func(tl map[string]any) { tl["requests"] = make([]any, 5000) })
	// Merged with a real part, the year 1 made a start before the year 0:
	// half a report on stdout, then "year outside of range".
	ancient := edit("ancient.json", func(tl map[string]any) { tl["start"], tl["bucket_seconds"] = "0001-01-01T00:00:00Z", float64(1) })
	summary := func(name, lines, records, malformed, directives string) string {
		var d map[string]any
		json.Unmarshal([]byte(good), &d)
		s := d["summary"].(map[string]any)
		s["lines"], s["records"], s["malformed"], s["directives"] = json.Number(lines), json.Number(records), json.Number(malformed), json.Number(directives)
		b, _ := json.Marshal(d)
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o644)
		return p
	}
	// Added to a real part's, a negative count cancelled its lines.
	negative := summary("negative.json", "-2500", "-2500", "0", "0")
	short := summary("short.json", "2500", "2000", "0", "0")
	wrapped := summary("wrapped.json", "0", "9223372036854775807", "9223372036854775807", "2") // the sum overflows to 0
	goodPart := filepath.Join(dir, "good.json")
	os.WriteFile(goodPart, []byte(good), 0o644)
	broken := filepath.Join(dir, "broken.json")
	os.WriteFile(broken, []byte(good[:len(good)/2]), 0o644)
	for _, tc := range []struct{ part, say string }{
		{huge, "no width robowatch uses"}, {odd, "no width robowatch uses"}, {long, "5000 buckets"}, {broken, "not a robowatch JSON report"},
		{ancient, "outside the years"}, {negative, "do not add up"}, {short, "do not add up"}, {wrapped, "do not add up"},
	} {
		code, _, errOut := runCLI(t, nil, "merge", "-o", "json", tc.part, goodPart)
		if code != cli.ExitError || !strings.Contains(errOut, tc.say) {
			t.Errorf("merge %s: exit %d, %q; want exit 1 saying %q", filepath.Base(tc.part), code, errOut, tc.say)
		}
	}
}

// TestMergeLongLists: the lists merge joins without repeats (files, their
// formats, errors, robots.txt files, range files, the summary's formats)
// and the malformed lines sorted by file come out whole and in order from a
// part that lists thousands of each. Each was searched from the start for
// every entry, quadratic in a part's lists: BenchmarkMergeLongLists shows
// the time (a part listing 40,000 of each took 92 s, now about 1 s).
func TestMergeLongLists(t *testing.T) {
	const n = 4_000
	part, files := longPart(t, n)
	code, out, _ := runCLI(t, nil, "merge", "-o", "json", part)
	if code != cli.ExitError { // the part's errors make the merge incomplete
		t.Fatalf("exit %d", code)
	}
	var got struct {
		Summary struct {
			Files  []string
			Format string
		}
		Malformed []struct{ File string }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Summary.Files) != n || strings.Count(got.Summary.Format, ", ") != n-1 ||
		len(got.Malformed) == 0 || got.Malformed[0].File != files[0] {
		t.Errorf("%d files, format %.40q…, malformed lines %.80v", len(got.Summary.Files), got.Summary.Format, got.Malformed)
	}
}

// BenchmarkMergeLongLists merges one part listing 40,000 files, formats,
// errors, robots.txt files, range files and malformed lines.
func BenchmarkMergeLongLists(b *testing.B) {
	part, _ := longPart(b, 40_000)
	for range b.N {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), []string{"merge", "-o", "json", part}, nil, &out, &errOut); code != cli.ExitError {
			b.Fatalf("exit %d: %s", code, errOut.String())
		}
	}
}

// longPart writes the sample's report with n of each list merge joins, the
// malformed lines last file first, and returns its path and the files.
func longPart(tb testing.TB, n int) (string, []any) {
	tb.Helper()
	var good bytes.Buffer
	if code := run(context.Background(), []string{"-o", "json", "--robots", "../testdata/sample.robots.txt", "../testdata/sample.log.gz"}, nil, &good, io.Discard); code != cli.ExitOK {
		tb.Fatalf("sample report: exit %d", code)
	}
	var d map[string]any
	if err := json.Unmarshal(good.Bytes(), &d); err != nil {
		tb.Fatal(err)
	}
	var formats []string
	var files, errs, robotsTxt, fileFormats, ranges, malformed []any
	for i := range n {
		f := fmt.Sprintf("access-%d.log", i)
		files, formats = append(files, f), append(formats, fmt.Sprintf("format%d", i))
		errs, robotsTxt = append(errs, "error "+f), append(robotsTxt, "robots-"+f)
		fileFormats = append(fileFormats, map[string]any{"file": f, "format": "combined"})
		ranges = append(ranges, map[string]any{"file": f, "operator": "x", "created": "", "prefixes": 1})
	}
	for i := range n { // last file first
		malformed = append(malformed, map[string]any{"file": files[n-1-i], "line": i, "reason": "r", "text": "t"})
	}
	s := d["summary"].(map[string]any)
	s["files"], s["file_formats"], s["robots_txt"], s["ranges"] = files, fileFormats, robotsTxt, ranges
	s["format"] = strings.Join(formats, ", ")
	d["errors"], d["malformed"] = errs, malformed
	b, err := json.Marshal(d)
	if err != nil {
		tb.Fatal(err)
	}
	part := filepath.Join(tb.TempDir(), "long.json")
	if err := os.WriteFile(part, b, 0o644); err != nil {
		tb.Fatal(err)
	}
	return part, files
}

// TestMergedBlockListLeavesTrustedProxiesOut is a site behind a balancer
// (198.51.100.10, named with --trust-proxy) whose log names no client for
// some requests: those stay the balancer's. A single run never lists it;
// the block lists merged from its shards denied it, and with it every
// visitor. Every block format of the merge is the single run's.
func TestMergedBlockListLeavesTrustedProxiesOut(t *testing.T) {
	const proxy = "198.51.100.10"
	dir := t.TempDir()
	var log strings.Builder
	at := time.Date(2024, 3, 10, 8, 0, 0, 0, time.UTC)
	line := func(path, ua, xff string) {
		fmt.Fprintf(&log, "%s - - [%s] \"GET %s HTTP/1.1\" 404 0 \"-\" \"%s\" \"%s\"\n", proxy, at.Format("02/Jan/2006:15:04:05 -0700"), path, ua, xff)
		at = at.Add(time.Second)
	}
	for k := range 40 { // visitors behind the balancer
		line(fmt.Sprintf("/page/%d", k), "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0", fmt.Sprintf("203.0.113.%d", k%5+1))
	}
	for _, p := range []string{"/.env", "/wp-login.php", "/.git/config", "/phpmyadmin/", "/admin.php"} {
		line(p, "Mozilla/5.0", "192.0.2.66") // a scanner behind it: listed
		line(p, "Mozilla/5.0", "-")          // a scan the log names no client for: the balancer's
	}
	file := filepath.Join(dir, "access.log")
	if err := os.WriteFile(file, []byte(log.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, out, _ := runCLI(t, nil, "-o", "ips", file); !strings.Contains(out, "\n"+proxy+"\n") {
		t.Fatalf("without --trust-proxy the balancer is not listed, so this test shows nothing:\n%s", out)
	}
	for _, n := range []int{2, 3} {
		parts := []string{}
		for i := 1; i <= n; i++ {
			code, out, errOut := runCLI(t, nil, "-o", "json", "--top", "0", "--trust-proxy", proxy, "--shard", fmt.Sprintf("%d/%d", i, n), file)
			if code != cli.ExitOK {
				t.Fatalf("shard %d/%d: exit %d: %s", i, n, code, errOut)
			}
			part := filepath.Join(dir, fmt.Sprintf("part%d-of-%d.json", i, n))
			os.WriteFile(part, []byte(out), 0o644)
			parts = append(parts, part)
		}
		for _, format := range []string{"ips", "nginx", "apache", "nftables"} {
			_, single, _ := runCLI(t, nil, "-o", format, "--trust-proxy", proxy, file)
			code, merged, errOut := runCLI(t, nil, append([]string{"merge", "-o", format}, parts...)...)
			if code != cli.ExitOK {
				t.Fatalf("merge -o %s of %d shards: exit %d: %s", format, n, code, errOut)
			}
			if strings.Contains(merged, proxy) || !strings.Contains(merged, "192.0.2.66") {
				t.Errorf("merge -o %s of %d shards made with --trust-proxy %s lists the balancer, or not the scanner behind it:\n%s", format, n, proxy, merged)
			}
			if merged != single {
				t.Errorf("merge -o %s of %d shards differs from the single run's at %s", format, n, firstDiff(merged, single))
			}
		}
	}
}

// TestMergeRefusesPartsOfDifferentInputs: shard 1/2 of Monday's log with
// shard 2/2 of Tuesday's merged into a "complete" report of neither, and a
// whole report beside its own shards (or a second report of the same log,
// a copy elsewhere, compressed) counted the traffic twice; both exited 0
// without a word. Each part records its inputs by content, and merge
// refuses both, naming the parts. The same log held by two machines, one
// copy compressed, is one input; consecutive days still merge.
func TestMergeRefusesPartsOfDifferentInputs(t *testing.T) {
	dir := t.TempDir()
	log, err := os.ReadFile("../testdata/scenarios/site/site.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(log), "\n"), "\n")
	mon, tue, monCopy := filepath.Join(dir, "mon.log"), filepath.Join(dir, "tue.log"), filepath.Join(dir, "elsewhere", "mon.log.gz")
	os.WriteFile(mon, []byte(strings.Join(lines[:len(lines)/2], "")), 0o644)
	os.WriteFile(tue, []byte(strings.Join(lines[len(lines)/2:], "")), 0o644)
	os.Mkdir(filepath.Dir(monCopy), 0o755)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(strings.Join(lines[:len(lines)/2], "")))
	zw.Close()
	os.WriteFile(monCopy, gz.Bytes(), 0o644)
	part := func(name, log string, args ...string) string {
		t.Helper()
		code, out, errOut := runCLI(t, nil, append(append([]string{"-o", "json", "--top", "0"}, args...), log)...)
		if code != cli.ExitOK {
			t.Fatalf("%s: exit %d: %s", name, code, errOut)
		}
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(out), 0o644)
		return p
	}
	monWhole, tueWhole, monCopyWhole := part("mon.json", mon), part("tue.json", tue), part("mon-copy.json", monCopy)
	mon1, mon2 := part("mon-1.json", mon, "--shard", "1/2"), part("mon-2.json", mon, "--shard", "2/2")
	tue2 := part("tue-2.json", tue, "--shard", "2/2")
	monCopy2 := part("mon-copy-2.json", monCopy, "--shard", "2/2")
	for _, tc := range []struct {
		name  string
		parts []string
		code  int
		say   []string // in stderr
	}{
		{"shards of two days", []string{mon1, tue2}, cli.ExitError, []string{"different inputs", mon1, tue2}},
		{"a whole report with its shards", []string{monWhole, mon1, mon2}, cli.ExitError, []string{"count twice", monWhole, mon1}},
		{"its shards with the whole report", []string{mon1, mon2, monWhole}, cli.ExitError, []string{"count twice", monWhole, mon1}},
		{"a whole report with one of its shards", []string{mon2, monWhole}, cli.ExitError, []string{"count twice", monWhole, mon2}},
		{"one log's reports on two machines", []string{monWhole, monCopyWhole}, cli.ExitError, []string{"count twice", monWhole, monCopyWhole}},
		{"one log's shards on two machines", []string{mon1, monCopy2}, cli.ExitOK, nil},
		{"consecutive days", []string{monWhole, tueWhole}, cli.ExitOK, nil},
	} {
		code, _, errOut := runCLI(t, nil, append([]string{"merge", "-o", "json"}, tc.parts...)...)
		if code != tc.code || tc.say == nil && errOut != "" {
			t.Errorf("%s: exit %d, %q; want exit %d", tc.name, code, errOut, tc.code)
			continue
		}
		for _, s := range tc.say {
			if !strings.Contains(errOut, s) {
				t.Errorf("%s: %q does not say %q", tc.name, errOut, s)
			}
		}
	}
}

// TestMergeRefusesCountsThatWouldWrap: a part edited by hand (9e18
// requests for one client, a day of 9e18 lines, a timeline bucket of
// 9e18) merged with another day wrapped the sums to negative counts, exit
// 0. A part whose rows do not add up to its summary is refused, naming it
// and what does not add up; parts whose lines together pass 2^63-1 are
// refused; the sums never wrap.
func TestMergeRefusesCountsThatWouldWrap(t *testing.T) {
	dir := t.TempDir()
	log, err := os.ReadFile("../testdata/scenarios/site/site.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(log), "\n"), "\n")
	var days [2]map[string]any
	for i, text := range []string{strings.Join(lines[:len(lines)/2], ""), strings.Join(lines[len(lines)/2:], "")} {
		day := filepath.Join(dir, fmt.Sprintf("day%d.log", i+1))
		os.WriteFile(day, []byte(text), 0o644)
		_, out, errOut := runCLI(t, nil, "-o", "json", "--top", "0", day)
		dec := json.NewDecoder(strings.NewReader(out))
		dec.UseNumber()
		if err := dec.Decode(&days[i]); err != nil {
			t.Fatalf("day %d: %v: %s", i+1, err, errOut)
		}
	}
	const huge = 9_000_000_000_000_000_000
	num := func(v any) int64 {
		n, err := v.(json.Number).Int64()
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, tc := range []struct {
		name string
		edit func(d map[string]any)
		say  string
	}{
		{"a client of 9e18 requests", func(d map[string]any) {
			d["clients"].([]any)[0].(map[string]any)["requests"] = json.Number(fmt.Sprint(huge))
		}, "clients' requests"},
		{"a client of 9e18 violations", func(d map[string]any) {
			d["clients"].([]any)[0].(map[string]any)["violations"] = json.Number(fmt.Sprint(huge))
		}, `client "203.0.113.10" has counts beyond its`},
		{"a timeline bucket of 9e18", func(d map[string]any) {
			d["timeline"].(map[string]any)["requests"].([]any)[0] = json.Number(fmt.Sprint(huge))
		}, "timeline"},
		{"a network of 9e18 requests", func(d map[string]any) {
			d["networks"].([]any)[0].(map[string]any)["requests"] = json.Number(fmt.Sprint(huge))
		}, "network"},
		{"a robot of 9e18 cached requests", func(d map[string]any) {
			d["robots"].([]any)[0].(map[string]any)["cached"] = json.Number(fmt.Sprint(huge))
		}, "robot"},
		{"a robot of 9e18 requests while robots.txt was unreachable", func(d map[string]any) {
			d["robots"].([]any)[0].(map[string]any)["unreachable_requests"] = json.Number(fmt.Sprint(huge))
		}, "robot"},
		{"a robot of 9e18 fetches of robots.txt answered", func(d map[string]any) {
			d["robots"].([]any)[0].(map[string]any)["robots_txt_served"].(map[string]any)["2xx"] = json.Number(fmt.Sprint(huge))
		}, "robot"},
		{"a robot of 9e18 preference conflicts", func(d map[string]any) {
			d["robots"].([]any)[0].(map[string]any)["preference_conflicts"] = json.Number(fmt.Sprint(huge))
		}, "robot"},
		{"a robot of 9e18 fetches of llms.txt", func(d map[string]any) {
			d["robots"].([]any)[0].(map[string]any)["discovery"] = map[string]any{"llms_txt": json.Number(fmt.Sprint(huge))}
		}, "robot"},
		{"an edge of 9e18 sessions", func(d map[string]any) {
			edges, _ := d["state"].(map[string]any)["edges"].([]any)
			if len(edges) == 0 {
				t.Fatal("the part has no edges to edit")
			}
			edges[0].(map[string]any)["sessions"] = json.Number(fmt.Sprint(huge))
		}, "state.edges"},
		{"a robot's conduct of 9e18 sessions", func(d map[string]any) {
			d["robots"].([]any)[0].(map[string]any)["conduct"].(map[string]any)["sessions"] = json.Number(fmt.Sprint(huge))
		}, "robot"},
		{"a robot's conduct of 9e18 GETs", func(d map[string]any) {
			d["robots"].([]any)[0].(map[string]any)["conduct"].(map[string]any)["methods"].(map[string]any)["GET"] = json.Number(fmt.Sprint(huge))
		}, "robot"},
		{"a robot's conduct of -9e18 requests after a 429", func(d map[string]any) {
			d["robots"].([]any)[0].(map[string]any)["conduct"].(map[string]any)["error_after"] = json.Number(fmt.Sprint(-huge))
		}, "robot"},
		{"a day of 9e18 robots judged by the earliest ranges", func(d map[string]any) {
			d["summary"].(map[string]any)["ranges_earliest"] = json.Number(fmt.Sprint(huge))
		}, "summary count"},
		{"a client of 9e18 cached requests", func(d map[string]any) {
			d["clients"].([]any)[0].(map[string]any)["cached"] = json.Number(fmt.Sprint(huge))
		}, "client"},
		{"a client of 9e18 fetches of llms.txt", func(d map[string]any) {
			d["clients"].([]any)[0].(map[string]any)["discovery"] = map[string]any{"well_known": json.Number(fmt.Sprint(huge))}
		}, "client"},
		{"a day of 9e18 lines, its rows adding up", func(d map[string]any) {
			s, c := d["summary"].(map[string]any), d["clients"].([]any)[0].(map[string]any)
			more := huge - num(s["lines"])
			s["lines"] = json.Number(fmt.Sprint(huge))
			s["records"] = json.Number(fmt.Sprint(num(s["records"]) + more))
			c["requests"] = json.Number(fmt.Sprint(num(c["requests"]) + more))
		}, "lines together"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var parts []string
			for i, d := range days {
				var e map[string]any
				b, _ := json.Marshal(d)
				dec := json.NewDecoder(bytes.NewReader(b))
				dec.UseNumber()
				dec.Decode(&e)
				tc.edit(e)
				b, _ = json.Marshal(e)
				p := filepath.Join(t.TempDir(), fmt.Sprintf("day%d.json", i+1))
				os.WriteFile(p, b, 0o644)
				parts = append(parts, p)
			}
			code, out, errOut := runCLI(t, nil, "merge", "-o", "json", parts[0], parts[1])
			if code != cli.ExitError || !strings.Contains(errOut, tc.say) || !strings.Contains(errOut, parts[0]) {
				t.Errorf("exit %d, %q; want exit 1 naming %s and saying %q", code, errOut, parts[0], tc.say)
			}
			if strings.Contains(out, ": -") {
				t.Errorf("a count wrapped to negative:\n%.2000s", out)
			}
		})
	}
}

// TestMergeOfDailiesSaysWhyItDiffersFromOnePass is issue 36's 13 daily
// reports merged against one pass over the same lines: a reader of five
// pages a day, never an image nor a Referer, is a robot over 13 days (65
// pages without assets) and a person on each day (5 pages are too few to
// judge). Merge cannot judge it again, having no requests; it says so, in
// the JSON (summary.judged_per_part) and on standard error.
func TestMergeOfDailiesSaysWhyItDiffersFromOnePass(t *testing.T) {
	dir := t.TempDir()
	const ua = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36"
	day0 := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	var all strings.Builder
	parts := []string{"merge", "-o", "json"}
	for d := range 13 {
		var b strings.Builder
		for i := range 5 {
			at := day0.AddDate(0, 0, d).Add(time.Duration(i) * 7 * time.Minute)
			fmt.Fprintf(&b, "198.51.100.7 - - [%s] \"GET /article/%d-%d HTTP/1.1\" 200 5120 \"-\" \"%s\"\n", at.Format("02/Jan/2006:15:04:05 -0700"), d, i, ua)
			// A person reading beside it: the log records Referers.
			fmt.Fprintf(&b, "203.0.113.5 - - [%s] \"GET /article/%d-%d HTTP/1.1\" 200 5120 \"https://www.example.com/\" \"%s\"\n", at.Format("02/Jan/2006:15:04:05 -0700"), d, i, ua)
			fmt.Fprintf(&b, "203.0.113.5 - - [%s] \"GET /style.css HTTP/1.1\" 200 900 \"https://www.example.com/article/%d-%d\" \"%s\"\n", at.Format("02/Jan/2006:15:04:05 -0700"), d, i, ua)
		}
		all.WriteString(b.String())
		log := filepath.Join(dir, fmt.Sprintf("day%02d.log", d))
		if err := os.WriteFile(log, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := runCLI(t, nil, "-o", "json", "--top", "0", log)
		if code != cli.ExitOK {
			t.Fatalf("day %d: exit %d: %s", d, code, errOut)
		}
		part := filepath.Join(dir, fmt.Sprintf("day%02d.json", d))
		if err := os.WriteFile(part, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, part)
	}
	robotOf := func(out string) (bool, int) {
		var doc struct {
			Summary struct {
				JudgedPerPart int `json:"judged_per_part"`
			} `json:"summary"`
			Clients []struct {
				IP    string `json:"ip"`
				Robot bool   `json:"robot"`
			} `json:"clients"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%v in %.300s", err, out)
		}
		for _, c := range doc.Clients {
			if c.IP == "198.51.100.7" {
				return c.Robot, doc.Summary.JudgedPerPart
			}
		}
		t.Fatalf("no client 198.51.100.7 in %.300s", out)
		return false, 0
	}
	_, one, _ := runCLI(t, []byte(all.String()), "-o", "json", "-")
	code, merged, errOut := runCLI(t, nil, parts...)
	if code != cli.ExitOK {
		t.Fatalf("merge: exit %d: %s", code, errOut)
	}
	onePass, _ := robotOf(one)
	mergedRobot, apart := robotOf(merged)
	if !onePass {
		t.Fatalf("one pass over 13 days does not call the page-only reader a robot: the scenario no longer shows the difference")
	}
	if mergedRobot == onePass {
		return // merge judges it as one pass does: nothing to explain
	}
	if apart < 1 || !strings.Contains(errOut, "judged a person in each") || !strings.Contains(errOut, "one pass over all the logs") {
		t.Errorf("merge calls it a person, one pass a robot, and does not say why: judged_per_part %d, stderr %q", apart, errOut)
	}
}

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
