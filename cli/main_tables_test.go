package cli_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/robowatch/robowatch/cli"
)

// tableHeaders returns, for each titled list of a terminal report, its
// column headings joined by "|": the line after each table's top border.
func tableHeaders(out string) map[string]string {
	heads := make(map[string]string)
	lines := strings.Split(out, "\n")
	for i := 1; i+1 < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "┌") {
			continue
		}
		var cols []string
		for c := range strings.SplitSeq(strings.Trim(lines[i+1], "│"), "│") {
			cols = append(cols, strings.TrimSpace(c))
		}
		heads[lines[i-1]] = strings.Join(cols, "|")
	}
	return heads
}

// TestSameWidthSameColumns: an admin comparing yesterday's report with
// today's, both mailed from cron at the same width, finds the same columns
// in each list, whatever the logs held. Before, the columns were chosen by
// how wide the day's values were: at 80 columns the small site's clients
// list had a User-agent, the log with IPv6 crawlers had none, and its
// robots list had Operator where the other had not.
func TestSameWidthSameColumns(t *testing.T) {
	logs := [][]string{
		{"--robots", "../testdata/scenarios/site/robots.txt", "../testdata/scenarios/site/site.log"},
		{"--robots", "../testdata/scenarios/narrow-terminal/robots.txt", "../testdata/scenarios/narrow-terminal/access.log"},
	}
	for _, width := range []int{80, 100, 120, 160} {
		t.Run(strconv.Itoa(width), func(t *testing.T) {
			var first map[string]string
			for _, log := range logs {
				args := append([]string{"--width", strconv.Itoa(width), "--section", "robots,clients,violations,incidents"}, log...)
				code, out, errOut := runCLI(t, nil, args...)
				if code != 0 {
					t.Fatalf("robowatch %v: exit %d\n%s", args, code, errOut)
				}
				heads := tableHeaders(out)
				if len(heads) != 4 {
					t.Fatalf("robowatch %v: %d tables, want 4:\n%s", args, len(heads), out)
				}
				if first == nil {
					first = heads
					continue
				}
				for title, h := range first {
					if heads[title] != h {
						t.Errorf("%s at %d columns:\n %s: %s\n %s: %s", title, width, logs[0][len(logs[0])-1], h, log[len(log)-1], heads[title])
					}
				}
			}
		})
	}
}

// TestNoRobotsTxtNoViolationsColumn: without --robots nothing was checked,
// and a Violations column of "-" in every row only took the place of one
// that says something. Before, the column stayed wherever the width had
// room for it.
func TestNoRobotsTxtNoViolationsColumn(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"table 160", []string{"--width", "160"}},
		{"table 100", []string{"--width", "100"}},
		{"markdown", []string{"-o", "markdown"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append(tt.args, "--section", "robots,clients", "../testdata/scenarios/site/site.log")
			code, out, errOut := runCLI(t, nil, args...)
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, errOut)
			}
			if !strings.Contains(out, "Requests") {
				t.Fatalf("no list in the report:\n%s", out)
			}
			if strings.Contains(out, "Violations") {
				t.Errorf("a Violations column without --robots:\n%s", out)
			}
		})
	}
}

// TestTrafficCollapsesSilence: a log with a day of traffic, five days of
// silence and another day lists the silence as one row, with no robots'
// share ("-", not "0%", which would read as people only).
func TestTrafficCollapsesSilence(t *testing.T) {
	var log strings.Builder
	for _, day := range []string{"06", "12"} {
		for i := range 5 {
			fmt.Fprintf(&log, "192.0.2.%d - - [%s/May/2024:09:00:%02d +0000] \"GET / HTTP/1.1\" 200 512 \"-\" \"Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0\"\n", i+1, day, i)
		}
	}
	code, out, errOut := runCLI(t, []byte(log.String()), "--width", "120", "--section", "traffic")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "2024-05-07 Tue … 2024-05-11 Sat") {
		t.Errorf("no one row for the five silent days:\n%s", out)
	}
	if n := strings.Count(out, "\n│ 2024-05-"); n != 3 {
		t.Errorf("%d rows, want 3 (a day, the silence, a day):\n%s", n, out)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "…") && !strings.HasSuffix(strings.TrimSpace(l), "- │") {
			t.Errorf("the silent days' share is not \"-\": %s", l)
		}
	}
}

// TestJSONPanelsOfRobots is the GoAccess panels an admin expects, of
// robots, in the JSON: per robot its answers (404s apart) and its most
// asked paths, and the same for all robots, with people's answers beside.
// The site's log has a scanner probing for admin pages that are not there.
func TestJSONPanelsOfRobots(t *testing.T) {
	code, out, errOut := runCLI(t, nil, "-o", "json", "../testdata/scenarios/site/site.log")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
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
