package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robowatch/robowatch/cli"
)

var update = flag.Bool("update", false, "rewrite the .golden files from the current output")

// runCLI runs robowatch as a user would and returns its exit status and output.
func runCLI(t *testing.T, stdin []byte, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, bytes.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestGolden renders the end-to-end test site (testdata/e2e: people, a
// crawler that obeys robots.txt, scrapers that do not, a rapid-fire client,
// a hostile User-agent, garbage requests, a malformed line) in every output
// format and compares with the .golden files. Run with -update after a
// deliberate change, and read the diff.
func TestGolden(t *testing.T) {
	const robots, site = "--robots=testdata/e2e/robots.txt", "testdata/e2e/site.log"
	tests := []struct {
		golden string
		args   []string
		human  bool // meant for people: no raw control characters
	}{
		{"site.table.golden", []string{robots, "--top", "5", site}, true},
		{"site.markdown.golden", []string{robots, "-o", "markdown", site}, true},
		{"site.json.golden", []string{robots, "-o", "json", site}, false},
		{"site.violations.csv.golden", []string{robots, "-o", "csv", "--section", "violations", site}, true},
		{"site.clients.csv.golden", []string{robots, "-o", "csv", site}, true},
		{"site.norobots.table.golden", []string{"--section", "summary,violations", site}, true},
		{"site.html.golden", []string{robots, "-o", "html", site}, true},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			args := tt.args
			code, out, errOut := runCLI(t, nil, args...)
			if code != cli.ExitOK {
				t.Fatalf("exit %d, stderr: %s", code, errOut)
			}
			path := filepath.Join("testdata", "e2e", tt.golden)
			if *update {
				if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if out != string(want) {
				t.Errorf("output differs from %s (go test -run TestGolden -update, then read the diff):\n%s", path, out)
			}
			if tt.human {
				assertNoControl(t, out)
			}
		})
	}
}

// assertNoControl fails if out carries a byte a terminal would act on.
func assertNoControl(t *testing.T, out string) {
	t.Helper()
	for i := 0; i < len(out); i++ {
		if c := out[i]; (c < 0x20 && c != '\n') || c == 0x7f {
			t.Fatalf("raw control byte %#x at %d: %q", c, i, out[max(0, i-20):min(len(out), i+20)])
		}
	}
	if strings.ContainsRune(out, '\u009b') || strings.ContainsRune(out, '\u202e') {
		t.Fatal("raw C1 control or bidi override in output")
	}
}

// TestJSONContract checks the field names that scripts depend on (issue 4's
// contract): they may be added to, never renamed or dropped.
func TestJSONContract(t *testing.T) {
	code, out, errOut := runCLI(t, nil, "-o", "json", "--robots", "testdata/e2e/robots.txt", "testdata/e2e/site.log")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["version"] != float64(1) {
		t.Errorf("version = %v", doc["version"])
	}
	need := map[string][]string{
		"summary":    {"lines", "records", "malformed", "clients", "robots", "violations", "incidents", "first", "last", "format"},
		"clients":    {"ip", "user_agent", "robot", "name", "score", "reasons", "requests", "robots_txt_fetches", "violations", "first", "last", "peak"},
		"robots":     {"name", "clients", "requests", "violations", "fetched_robots_txt"},
		"violations": {"ip", "user_agent", "name", "time", "method", "path", "status", "group", "rule", "line"},
		"incidents":  {"ip", "user_agent", "start", "end", "requests", "peak_per_second", "paths"},
		"malformed":  {"file", "line", "reason"},
	}
	for key, fields := range need {
		v, ok := doc[key]
		if !ok {
			t.Errorf("no %q in the report", key)
			continue
		}
		var obj map[string]any
		switch v := v.(type) {
		case map[string]any:
			obj = v
		case []any:
			if len(v) == 0 {
				t.Errorf("%q is empty: the fixture should exercise it", key)
				continue
			}
			obj = v[0].(map[string]any)
		}
		for _, f := range fields {
			if _, ok := obj[f]; !ok {
				t.Errorf("%s: no field %q", key, f)
			}
		}
	}
	peak := doc["clients"].([]any)[0].(map[string]any)["peak"].(map[string]any)
	for _, f := range []string{"per_1s", "per_10s", "per_60s"} {
		if _, ok := peak[f]; !ok {
			t.Errorf("clients[].peak: no field %q", f)
		}
	}
	s := doc["summary"].(map[string]any)
	if s["lines"] != float64(95) || s["records"] != float64(94) || s["malformed"] != float64(1) || s["format"] != "combined" {
		t.Errorf("summary = %v", s)
	}
	for _, r := range doc["clients"].([]any)[0].(map[string]any)["reasons"].([]any) {
		switch r {
		case "robots-txt", "rate", "user-agent", "behaviour":
		default:
			t.Errorf("reason %q is not one of the four words", r)
		}
	}
}

func gzipBytes(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

func TestInputs(t *testing.T) {
	log, err := os.ReadFile("testdata/e2e/site.log")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gz := filepath.Join(dir, "access.log.2") // gzip without the .gz name
	os.WriteFile(gz, gzipBytes(t, log), 0o644)
	trunc := filepath.Join(dir, "access.log.3.gz")
	full := gzipBytes(t, log)
	os.WriteFile(trunc, full[:len(full)/2], 0o644)

	tests := []struct {
		name      string
		stdin     []byte
		args      []string
		code      int
		lines     float64 // summary.lines in the JSON report
		errSubstr string  // on stderr
	}{
		{"stdin", log, nil, cli.ExitOK, 95, ""},
		{"dash is stdin", log, []string{"-"}, cli.ExitOK, 95, ""},
		{"gzip stdin", gzipBytes(t, log), nil, cli.ExitOK, 95, ""},
		{"gzip by magic not name", nil, []string{gz}, cli.ExitOK, 95, ""},
		{"files in order", nil, []string{gz, "testdata/e2e/site.log"}, cli.ExitOK, 190, ""},
		{"missing file: error, others still read", nil, []string{filepath.Join(dir, "nope.log"), gz}, cli.ExitError, 95, "nope.log"},
		{"truncated gzip: error naming the file, what was read counts", nil, []string{trunc}, cli.ExitError, -1, "access.log.3.gz"},
		{"strict stops at the malformed line", nil, []string{"--strict", "testdata/e2e/site.log"}, cli.ExitError, -2, "site.log:11"},
		{"empty input", []byte{}, nil, cli.ExitOK, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tt.stdin, append([]string{"-o", "json"}, tt.args...)...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tt.code, errOut)
			}
			if tt.errSubstr != "" && !strings.Contains(errOut, tt.errSubstr) {
				t.Errorf("stderr %q does not name %q", errOut, tt.errSubstr)
			}
			if tt.errSubstr != "" && strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
				t.Errorf("error is not one line: %q", errOut)
			}
			if tt.lines == -2 { // --strict prints no report
				return
			}
			var doc struct {
				Summary struct{ Lines float64 } `json:"summary"`
				Errors  []string                `json:"errors"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			switch {
			case tt.lines == -1:
				if doc.Summary.Lines <= 0 || doc.Summary.Lines >= 95 {
					t.Errorf("lines = %v, want part of the file", doc.Summary.Lines)
				}
			case doc.Summary.Lines != tt.lines:
				t.Errorf("lines = %v, want %v", doc.Summary.Lines, tt.lines)
			}
			if (tt.code == cli.ExitError) != (len(doc.Errors) > 0) {
				t.Errorf("report errors = %q with exit %d", doc.Errors, code)
			}
		})
	}
}

func TestUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		out  string // expected in stdout
		err  string // expected in stderr
	}{
		{"help", []string{"--help"}, cli.ExitOK, "Examples:", ""},
		{"unknown flag", []string{"--bogus"}, cli.ExitUsage, "", "unknown flag"},
		{"bad output", []string{"-o", "xml"}, cli.ExitUsage, "", "--output"},
		{"bad section", []string{"--section", "nope"}, cli.ExitUsage, "", "--section"},
		{"bad format string", []string{"-f", "%h %{Referer"}, cli.ExitUsage, "", "--format"},
		{"missing robots file", []string{"--robots", "/nonexistent/robots.txt"}, cli.ExitError, "", "/nonexistent/robots.txt"},
		{"csv wants one section", []string{"-o", "csv", "--section", "clients,robots"}, cli.ExitError, "", "one section"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, []byte{}, tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tt.code, errOut)
			}
			if !strings.Contains(out, tt.out) {
				t.Errorf("stdout lacks %q:\n%s", tt.out, out)
			}
			if !strings.Contains(errOut, tt.err) {
				t.Errorf("stderr lacks %q:\n%s", tt.err, errOut)
			}
		})
	}
}

// TestHostileLog feeds a log whose every field tries to act on the terminal
// and checks that the table and Markdown reports carry none of it raw.
func TestHostileLog(t *testing.T) {
	log := strings.Join([]string{
		"1.2.3.4 - - [06/May/2024:09:00:00 +0000] \"GET /\x1b]0;owned\x07 HTTP/1.1\" 404 0 \"\x1b[2J\" \"Evil\x1b[31mBot\u202e/1.0\"",
		"1.2.3.4 - - [06/May/2024:09:00:01 +0000] \"GET /\\x1b[H\\x08\\x7f HTTP/1.1\" 404 0 \"-\" \"\\x1b]2;title\\x07curl/8\"",
		"\x1b[2J\x1b[Hnot a log line \u009b31m",
	}, "\n") + "\n"
	for _, format := range []string{"table", "markdown"} {
		code, out, errOut := runCLI(t, []byte(log), "-o", format)
		if code != cli.ExitOK {
			t.Fatalf("%s: exit %d: %s", format, code, errOut)
		}
		assertNoControl(t, out)
		if !strings.Contains(out, `\x1b`) {
			t.Errorf("%s: the escapes are not shown visibly:\n%s", format, out)
		}
	}
}

func TestCheck(t *testing.T) {
	const robotsFile = "testdata/e2e/robots.txt"
	tests := []struct {
		name string
		args []string
		code int
		out  []string // each expected in stdout
		err  string   // expected in stderr
	}{
		{"all allowed", []string{"--robots", robotsFile, "/", "/blog/"}, cli.ExitOK,
			[]string{"allowed     /", "allowed     /blog/"}, ""},
		{"one disallowed", []string{"--robots", robotsFile, "/", "/private/x"}, cli.ExitError,
			[]string{"disallowed  /private/x", "line 3: Disallow: /private/"}, ""},
		{"group by product token", []string{"--robots", robotsFile, "--agent", "Googlebot", "/private/ok.html"}, cli.ExitOK,
			[]string{"group googlebot", "Allow: /private/ok.html"}, ""},
		{"group by whole header", []string{"--robots", robotsFile, "--agent", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "/private/x"}, cli.ExitError,
			[]string{"group googlebot", "line 9: Disallow: /private/"}, ""},
		{"robots.txt itself", []string{"--robots", "testdata/sample.robots.txt", "--agent", "GPTBot", "/robots.txt", "/"}, cli.ExitError,
			[]string{"allowed     /robots.txt", "disallowed  /"}, ""},
		{"json contract", []string{"--robots", robotsFile, "-o", "json", "/admin/"}, cli.ExitError,
			[]string{`"path": "/admin/"`, `"allowed": false`, `"group": "*"`, `"rule": "Disallow: /admin/"`, `"line": 4`}, ""},
		{"lint", []string{"--robots", "testdata/robots/www.netflix.com.robots.txt", "--lint"}, cli.ExitOK,
			[]string{"several-agents"}, ""},
		{"lint HTML served as robots.txt", []string{"--robots", "testdata/robots/www.regmovies.com.robots.txt", "--lint"}, cli.ExitError,
			[]string{"html"}, "HTML"},
		{"no paths", []string{"--robots", robotsFile}, cli.ExitUsage, nil, "PATH"},
		{"no robots", []string{"/"}, cli.ExitUsage, nil, "--robots"},
		{"missing file", []string{"--robots", "/nonexistent/robots.txt", "/"}, cli.ExitUsage, nil, "/nonexistent/robots.txt"},
		{"bad output", []string{"--robots", robotsFile, "-o", "xml", "/"}, cli.ExitUsage, nil, "--output"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, nil, append([]string{"check"}, tt.args...)...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stdout: %s stderr: %s", code, tt.code, out, errOut)
			}
			for _, want := range tt.out {
				if !strings.Contains(out, want) {
					t.Errorf("stdout lacks %q:\n%s", want, out)
				}
			}
			if !strings.Contains(errOut, tt.err) {
				t.Errorf("stderr lacks %q:\n%s", tt.err, errOut)
			}
		})
	}
}

func TestWindowAndFailOn(t *testing.T) {
	log, err := os.ReadFile("testdata/e2e/site.log")
	if err != nil {
		t.Fatal(err)
	}
	// The fixture runs from 09:00:00 to 09:05:02 +0200; the rapid-fire
	// client is active 09:03:20-09:03:22, curl at 09:01:40.
	tests := []struct {
		name    string
		stdin   []byte
		args    []string
		code    int
		records float64 // summary.records (all lines read)
		outside float64 // summary.outside
	}{
		{"no window", nil, []string{"testdata/e2e/site.log"}, cli.ExitOK, 94, 0},
		{"since duration from the last record", nil, []string{"--since", "2m", "testdata/e2e/site.log"}, cli.ExitOK, 94, 31},
		{"since duration on standard input", log, []string{"--since", "2m"}, cli.ExitOK, 94, 31},
		{"absolute window in the log's zone", nil, []string{"--since", "2024-05-06 09:03", "--until", "2024-05-06T09:04:00+02:00", "testdata/e2e/site.log"}, cli.ExitOK, 94, 34},
		{"date", nil, []string{"--since", "2024-05-07", "testdata/e2e/site.log"}, cli.ExitOK, 94, 94},
		{"fail-on incidents", nil, []string{"--fail-on", "incidents", "testdata/e2e/site.log"}, cli.ExitFailOn, 94, 0},
		{"fail-on incidents outside the window", nil, []string{"--fail-on", "incidents", "--until", "2024-05-06 09:02", "testdata/e2e/site.log"}, cli.ExitOK, 94, 67},
		{"fail-on violations", nil, []string{"--fail-on", "violations", "--robots", "testdata/e2e/robots.txt", "testdata/e2e/site.log"}, cli.ExitFailOn, 94, 0},
		{"fail-on robots", nil, []string{"--fail-on", "robots", "testdata/e2e/site.log"}, cli.ExitFailOn, 94, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tt.stdin, append([]string{"-o", "json"}, tt.args...)...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tt.code, errOut)
			}
			var doc struct {
				Summary struct {
					Records, Outside, Clients float64
				} `json:"summary"`
				Clients []struct{ Requests float64 } `json:"clients"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatal(err)
			}
			if doc.Summary.Records != tt.records || doc.Summary.Outside != tt.outside {
				t.Errorf("records %v outside %v, want %v and %v", doc.Summary.Records, doc.Summary.Outside, tt.records, tt.outside)
			}
			var judged float64
			for _, c := range doc.Clients {
				judged += c.Requests
			}
			if judged != tt.records-tt.outside {
				t.Errorf("clients made %v requests, want the %v inside the window", judged, tt.records-tt.outside)
			}
		})
	}
	for _, bad := range [][]string{{"--since", "yesterday"}, {"--fail-on", "everything"}, {"--color", "sometimes"}, {"--fail-on", "violations"}} {
		if code, _, _ := runCLI(t, nil, bad...); code != cli.ExitUsage {
			t.Errorf("%v: exit %d, want %d", bad, code, cli.ExitUsage)
		}
	}
}

func TestClientDrillDown(t *testing.T) {
	code, out, errOut := runCLI(t, nil, "--robots", "testdata/e2e/robots.txt", "--client", "198.51.100.0/24", "--client", "2001:db8::42",
		"--section", "client", "testdata/e2e/site.log")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"Client 198.51.100.7", "python-requests/2.31.0", "robot: python-requests", "Per minute",
		"robots.txt │ fetched 2024-05-06 09:00:30 +0200, status 200", "line 3: Disallow: /private/",
		"First requests of 198.51.100.7", "/admin/login", "Client 2001:db8::42", "never fetched",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("drill-down lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "203.0.113.10") {
		t.Error("a client that was not asked for is drilled into")
	}
	code, out, _ = runCLI(t, nil, "-o", "json", "--client", "192.0.2.99", "testdata/e2e/site.log")
	var doc struct {
		Watched []struct {
			IP      string
			Minutes []struct{ Requests int } `json:"per_minute"`
		} `json:"watched"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != cli.ExitOK {
		t.Fatalf("exit %d, %v", code, err)
	}
	if len(doc.Watched) != 1 || len(doc.Watched[0].Minutes) != 1 || doc.Watched[0].Minutes[0].Requests != 60 {
		t.Errorf("watched = %+v, want 192.0.2.99 with 60 requests in one minute", doc.Watched)
	}
	if code, _, errOut := runCLI(t, nil, "--client", "10.0.0.0/33"); code != cli.ExitUsage || !strings.Contains(errOut, "--client") {
		t.Errorf("bad --client: exit %d, %s", code, errOut)
	}
}

// TestRotatedLogsReadOldestFirst gives the log as logrotate leaves it and a
// shell glob expands it, newest first (access.log, access.log.1,
// access.log.2.gz), and expects the verdicts of the whole log read in order.
func TestRotatedLogsReadOldestFirst(t *testing.T) {
	log, err := os.ReadFile("testdata/e2e/site.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(log), "\n")
	third := len(lines) / 3
	dir := t.TempDir()
	parts := map[string]string{
		"access.log.2.gz": strings.Join(lines[:third], ""),
		"access.log.1":    strings.Join(lines[third:2*third], ""),
		"access.log":      strings.Join(lines[2*third:], ""),
	}
	for name, text := range parts {
		data := []byte(text)
		if strings.HasSuffix(name, ".gz") {
			data = gzipBytes(t, data)
		}
		os.WriteFile(filepath.Join(dir, name), data, 0o644)
	}
	summary := func(args ...string) map[string]any {
		t.Helper()
		code, out, errOut := runCLI(t, nil, append([]string{"-o", "json"}, args...)...)
		if code != cli.ExitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var doc map[string]any
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		return doc
	}
	whole := summary("testdata/e2e/site.log")
	rotated := summary(filepath.Join(dir, "access.log"), filepath.Join(dir, "access.log.1"), filepath.Join(dir, "access.log.2.gz"))
	s := rotated["summary"].(map[string]any)
	files := s["files"].([]any)
	if !strings.HasSuffix(files[0].(string), "access.log.2.gz") || !strings.HasSuffix(files[2].(string), "access.log") || s["files_reordered"] != true {
		t.Errorf("files read in the order %v (reordered %v), want oldest first", files, s["files_reordered"])
	}
	if s["late_records"] != float64(0) {
		t.Errorf("late_records = %v", s["late_records"])
	}
	for _, key := range []string{"clients", "incidents", "robots"} {
		a, _ := json.Marshal(whole[key])
		b, _ := json.Marshal(rotated[key])
		if string(a) != string(b) {
			t.Errorf("%s differ between the whole log and its rotated parts:\n%s\n%s", key, a, b)
		}
	}
}
