package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/robowatch/robowatch/cli"
	"github.com/robowatch/robowatch/internal/clitest"
)

// run is the whole command, as main runs it.
var run = cli.Main

// The helpers the end-to-end tests of this package share (internal/clitest).
var (
	runCLI       = clitest.Run
	runJSON      = clitest.RunJSON
	parseSummary = clitest.ParseSummary
	firstDiff    = clitest.FirstDiff
)

// validLine is one ordinary request of a browser.
const validLine = clitest.ValidLine

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

// TestWallTimeWindowAcrossSummerTime: a Berlin server's log through the
// change to summer time (2024-03-31, 02:00 +0100 became 03:00 +0200) and a
// window given as the clock on the wall: --since '2024-03-31 03:30' keeps
// the requests from 03:30 +0200 on, as the admin means, and --until stops
// at the wall time in the offset in force then. Before, both bounds were
// placed in the first line's +0100, an hour off: --since left out the
// requests of 03:30 to 04:29.
func TestWallTimeWindowAcrossSummerTime(t *testing.T) {
	var log strings.Builder
	for _, at := range []string{
		"31/Mar/2024:01:15:00 +0100", "31/Mar/2024:01:45:00 +0100",
		"31/Mar/2024:03:10:00 +0200", "31/Mar/2024:03:30:00 +0200", "31/Mar/2024:03:50:00 +0200",
		"31/Mar/2024:04:20:00 +0200", "31/Mar/2024:04:40:00 +0200",
	} {
		log.WriteString(`198.51.100.4 - - [` + at + `] "GET / HTTP/1.1" 200 512 "-" "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0"` + "\n")
	}
	tests := []struct {
		name    string
		args    []string
		outside int64
		window  string
	}{
		{"since after the change", []string{"--since", "2024-03-31 03:30"}, 3, "from 2024-03-31 03:30:00 +0200"},
		{"until after the change", []string{"--until", "2024-03-31 04:30"}, 1, "before 2024-03-31 04:30:00 +0200"},
		{"across the change", []string{"--since", "2024-03-31 01:30", "--until", "2024-03-31 03:30"}, 5, "2024-03-31 01:30:00 +0100 to 2024-03-31 03:30:00 +0200"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r struct {
				Summary struct {
					Records, Outside int64
					Window           string
				} `json:"summary"`
			}
			runJSON(t, []byte(log.String()), &r, append([]string{"-o", "json"}, tt.args...)...)
			if r.Summary.Records != 7 || r.Summary.Outside != tt.outside || r.Summary.Window != tt.window {
				t.Errorf("%d records, %d outside, window %q; want 7, %d outside, %q", r.Summary.Records, r.Summary.Outside, r.Summary.Window, tt.outside, tt.window)
			}
		})
	}
}

// TestJSONPanelsOfRobots is the GoAccess panels an admin expects, of
// robots, in the JSON: per robot its answers (404s apart) and its most
// asked paths, and the same for all robots, with people's answers beside.
// The site's log has a scanner probing for admin pages that are not there.
func TestJSONPanelsOfRobots(t *testing.T) {
	code, out, errOut := runCLI(t, nil, "-o", "json", "testdata/scenarios/site/site.log")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	type status struct {
		S2xx, S4xx, NotFound int64
	}
	var doc struct {
		Summary struct {
			RobotRequests int64 `json:"robot_requests"`
		} `json:"summary"`
		Robots []struct {
			Name     string         `json:"name"`
			Requests int64          `json:"requests"`
			Status   map[string]int `json:"status"`
			TopPaths []struct {
				Path     string `json:"path"`
				Requests int64  `json:"requests"`
				Error    int64  `json:"error"`
			} `json:"top_paths"`
		} `json:"robots"`
		Panels struct {
			RobotStatus map[string]int64 `json:"robot_status"`
			HumanStatus map[string]int64 `json:"human_status"`
			RobotPaths  []struct {
				Path     string `json:"path"`
				Requests int64  `json:"requests"`
			} `json:"robot_paths"`
		} `json:"panels"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Robots) == 0 || len(doc.Panels.RobotPaths) == 0 {
		t.Fatalf("no robots or no robot paths: %s", out[:min(len(out), 400)])
	}
	var all int64
	for _, r := range doc.Robots {
		var answers int
		for _, k := range []string{"2xx", "3xx", "4xx", "5xx", "other"} {
			answers += r.Status[k]
		}
		if int64(answers) != r.Requests {
			t.Errorf("%s: %d answers counted of %d requests", r.Name, answers, r.Requests)
		}
		if r.Status["404"] > r.Status["4xx"] {
			t.Errorf("%s: more 404s (%d) than 4xx (%d)", r.Name, r.Status["404"], r.Status["4xx"])
		}
		if len(r.TopPaths) == 0 || r.TopPaths[0].Requests == 0 {
			t.Errorf("%s: no top paths", r.Name)
		}
		all += int64(answers)
	}
	var robotAnswers int64
	for _, k := range []string{"2xx", "3xx", "4xx", "5xx", "other"} {
		robotAnswers += doc.Panels.RobotStatus[k]
	}
	if robotAnswers != doc.Summary.RobotRequests || all != robotAnswers {
		t.Errorf("all robots answered %d times, robots rows %d, robot requests %d", robotAnswers, all, doc.Summary.RobotRequests)
	}
	if doc.Panels.RobotStatus["404"] == 0 {
		t.Errorf("the scanner's 404s are not counted: %v", doc.Panels.RobotStatus)
	}
}
