package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/robowatch/robowatch/cli"
)

// genlog is the shared log generator (../shared/tools/genlog.py): a seeded
// site's log with the truth about every address (human, crawler, scraper,
// fakebot, burst, monitor) and the robots.txt it serves.
const genlog = "../shared/tools/genlog.py"

// genlogTruth is the part of genlog's --truth file the test reads.
type genlogTruth struct {
	Clients map[string]struct {
		Class          string `json:"class"`
		DisallowedHits int    `json:"disallowed_hits"`
	} `json:"clients"`
}

// TestGenlogAccuracy runs robowatch, as a user would, on small logs genlog
// writes and scores its verdicts per client (address and User-agent)
// against the generator's truth. It asserts only what an admin would call
// a wrong verdict on any log, not where genlog's truth is debatable: a
// "crawler" from an address its operator does not publish is an impostor
// by the published lists, and a person who opens /robots.txt is a robot in
// a Common Log Format line, where nothing shows a browser.
func TestGenlogAccuracy(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 to run genlog.py")
	}
	if _, err := os.Stat(genlog); err != nil {
		t.Skipf("no %s (../shared beside the clone)", genlog)
	}
	tests := []struct {
		name string
		args []string // genlog's, after LINES OUTPUT
		// combined: the log shows User-agents and Referers, so the
		// User-agent's checks (impostors, declared tools) apply.
		combined bool
	}{
		// A busy small site: 300 addresses over 3 hours, so the busiest
		// people load many pages with their assets close together.
		{"combined", []string{"--seed", "3", "--ips", "300", "--hours", "3"}, true},
		// The same in Common Log Format, which logs neither User-agent nor
		// Referer: every asset counts toward the pace, and the people
		// behind the busiest addresses made incidents (10 judged robots
		// on the pace alone before their share of assets counted).
		{"clf", []string{"--seed", "3", "--ips", "300", "--hours", "3", "--format", "clf"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			log, truthFile, robotsTxt := filepath.Join(dir, "access.log"), filepath.Join(dir, "truth.json"), filepath.Join(dir, "robots.txt")
			cmd := exec.Command(python, append([]string{genlog, "20000", log, "--truth", truthFile, "--robots-out", robotsTxt}, tt.args...)...)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("genlog: %v\n%s", err, out)
			}
			data, err := os.ReadFile(truthFile)
			if err != nil {
				t.Fatal(err)
			}
			var truth genlogTruth
			if err := json.Unmarshal(data, &truth); err != nil {
				t.Fatal(err)
			}
			var out, errOut bytes.Buffer
			if code := run(context.Background(), []string{"-o", "json", "--top", "0", "--robots", robotsTxt, log}, nil, &out, &errOut); code != cli.ExitOK {
				t.Fatalf("exit %d: %s", code, errOut.String())
			}
			var rep struct {
				Clients []struct {
					IP         string `json:"ip"`
					UserAgent  string `json:"user_agent"`
					Robot      bool   `json:"robot"`
					Kind       string `json:"kind"`
					Identity   string `json:"identity"`
					Violations int    `json:"violations"`
					Incidents  int    `json:"incidents"`
					RobotsTxt  int    `json:"robots_txt_fetches"`
				} `json:"clients"`
			}
			if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
				t.Fatal(err)
			}
			seen := map[string]int{}
			for _, c := range rep.Clients {
				tr, ok := truth.Clients[c.IP]
				if !ok || c.Kind == "junk" {
					continue // a junk connection (a TLS handshake, "-"): no client of the site
				}
				seen[tr.Class]++
				switch tr.Class {
				case "human":
					// Never a robot, unless it fetched /robots.txt in a log
					// that cannot show its browser.
					if c.Robot && (tt.combined || c.RobotsTxt == 0) {
						t.Errorf("human %s %q judged a robot", c.IP, c.UserAgent)
					}
				case "burst":
					if !c.Robot || c.Incidents == 0 {
						t.Errorf("burst %s %q: robot %v, %d incidents; want a robot with an incident", c.IP, c.UserAgent, c.Robot, c.Incidents)
					}
				case "fakebot":
					if tt.combined && c.Identity != "impostor" {
						t.Errorf("fakebot %s %q: identity %q, want impostor", c.IP, c.UserAgent, c.Identity)
					}
				case "scraper", "monitor":
					if tt.combined && !c.Robot {
						t.Errorf("%s %s %q judged a person", tr.Class, c.IP, c.UserAgent)
					}
					if tt.combined && tr.Class == "scraper" && c.Violations != tr.DisallowedHits {
						t.Errorf("scraper %s %q: %d violations, truth %d", c.IP, c.UserAgent, c.Violations, tr.DisallowedHits)
					}
				case "crawler":
					if tt.combined && !c.Robot {
						t.Errorf("crawler %s %q judged a person", c.IP, c.UserAgent)
					}
				}
			}
			// The figures above mean something only if the log has them.
			for _, class := range []string{"human", "crawler", "scraper", "fakebot", "burst", "monitor"} {
				if seen[class] == 0 {
					t.Errorf("no %s client in the log: the generator changed; pick another seed", class)
				}
			}
		})
	}
}
