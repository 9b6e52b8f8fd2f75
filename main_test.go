package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/robowatch/robowatch/cli"
	"github.com/robowatch/robowatch/internal/clitest"
)

// The root holds the tests of the command as a whole: the scenarios'
// goldens (scenario_test.go), the JSON contract (here), interrupts and
// signals (signals_test.go), what reaches a terminal (terminal_test.go),
// the fuzzer (fuzz_test.go), the documentation (docs_test.go) and the
// accuracy tests (corpus_test.go). The end-to-end tests of one feature of
// the command live in cli (cli/main_*_test.go).

// run is the whole command, as main runs it.
var run = cli.Main

// The helpers the end-to-end tests of this package share (internal/clitest).
var (
	runCLI       = clitest.Run
	parseSummary = clitest.ParseSummary
	firstDiff    = clitest.FirstDiff
	assertInert  = clitest.AssertInert
)

// validLine is one ordinary request of a browser.
const validLine = clitest.ValidLine

// hostileDir holds the small hostile inputs of issue 7.
const hostileDir = "testdata/hostile"

// TestJSONContract checks the field names that scripts depend on (issue 4's
// contract): they may be added to, never renamed or dropped. A golden
// (testdata/scenarios/site/json.golden) pins the values; this test says
// which names are a promise. The run drills down into the rapid-fire client
// (--client) for the "watched" list.
func TestJSONContract(t *testing.T) {
	code, out, errOut := runCLI(t, nil, "-o", "json", "--robots", "testdata/scenarios/site/robots.txt",
		"--client", "192.0.2.99", "testdata/scenarios/site/site.log")
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
		"robots":     {"name", "clients", "requests", "violations", "fetched_robots_txt", "bytes", "status", "top_paths", "top_paths_other_max"},
		"violations": {"ip", "user_agent", "name", "time", "method", "path", "status", "group", "rule", "line"},
		"incidents":  {"ip", "user_agent", "start", "end", "requests", "peak_per_second", "paths"},
		"malformed":  {"file", "line", "reason"},
		"watched":    {"ip", "per_minute"},
		"networks":   {"network", "clients", "robots", "requests", "user_agents", "violations", "incidents"},
		"operators":  {"operator", "networks", "clients", "robots", "requests", "user_agents", "violations", "incidents", "pages", "referred_views", "crawl_to_refer"},
		"panels":     {"robot_status", "human_status", "robot_paths", "robot_paths_other_max", "uncounted", "unlisted"},
		"state":      {"version", "clients", "networks", "by_robot", "prefixes", "operators", "options", "inputs"},
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
	// The drill-down's timeline: the rapid-fire client's 60 requests fall
	// in one minute.
	var minutes []any
	if w, _ := doc["watched"].([]any); len(w) == 1 {
		minutes, _ = w[0].(map[string]any)["per_minute"].([]any)
	}
	if len(minutes) != 1 || minutes[0].(map[string]any)["requests"] != float64(60) {
		t.Errorf("watched = %v, want 192.0.2.99 with 60 requests in one minute", doc["watched"])
	}
}

// TestSummaryEventsFields: every summary event of -o jsonl, the final one
// included, has the fields docs/live.md lists for it, so that a script reading
// them all (jq '.top_robots[]') meets no null: a running summary before
// the first robot has an empty top_robots, the final one the report's
// first robot rows and no open incident.
func TestSummaryEventsFields(t *testing.T) {
	for _, tt := range []struct {
		name  string
		args  []string
		first string // top_robots[0].name of the final summary; "" for none
	}{
		{"robots", []string{"-o", "jsonl", "--robots", "testdata/scenarios/site/robots.txt", "testdata/scenarios/site/site.log"}, "unnamed (192.0.2.0/24)"},
		{"empty", []string{"-o", "jsonl", "-"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, nil, tt.args...)
			if code != cli.ExitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var last map[string]any
			for line := range strings.Lines(out) {
				var ev map[string]any
				if err := json.Unmarshal([]byte(line), &ev); err != nil {
					t.Fatal(err)
				}
				if ev["event"] == "summary" {
					last = ev
				}
			}
			if last == nil || last["final"] != true {
				t.Fatalf("no final summary event in %s", out)
			}
			for _, f := range []string{"records", "clients", "robots", "violations", "incidents", "open_incidents", "lines", "malformed", "top_robots", "errors"} {
				if _, ok := last[f]; !ok {
					t.Errorf("final summary: no field %q", f)
				}
			}
			top, ok := last["top_robots"].([]any)
			if !ok || last["open_incidents"] != float64(0) {
				t.Fatalf("final summary: top_robots %v, open_incidents %v", last["top_robots"], last["open_incidents"])
			}
			got := ""
			if len(top) > 0 {
				got, _ = top[0].(map[string]any)["name"].(string)
			}
			if got != tt.first {
				t.Errorf("final summary: first top robot %q, want %q", got, tt.first)
			}
		})
	}
}
