package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/robowatch/robowatch/cli"
)

// The accuracy tests score the verdicts against the truth: TestCorpus on
// the labelled real logs of testdata/corpus, TestGenlogAccuracy on logs
// ../shared's generator writes. Both are behind one switch, -short: the
// inner loop leaves them out, a plain go test and CI run them, and
//
//	go test -run 'TestCorpus|TestGenlogAccuracy' -v .
//
// runs them alone and prints the scores.

// accuracyTest skips an accuracy test under -short.
func accuracyTest(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("an accuracy test: go test without -short runs it")
	}
}

// The labelled real-log corpus (testdata/corpus, its README): what the
// verdicts must meet on traffic nobody here wrote. A person judged a robot
// ends up in the block list an admin loads, so "people flagged" is held
// lower than "robots found" is held high. The targets are issue 29's; the
// floors are what the verdicts reach today, so that no change makes them
// worse while the targets are not yet met (the test says by how much).
const (
	corpusTargetRobotsFound   = 0.95 // share of labelled robots judged robots
	corpusTargetPeopleFlagged = 0.03 // share of labelled people judged robots
	corpusFloorRobotsFound    = 0.95
	corpusCeilPeopleFlagged   = 0.01
)

// corpusLabel is one line of a log's labels.tsv.
type corpusLabel struct {
	line      int
	robot     bool
	ip, agent string
	reason    string
}

// readCorpusLabels reads labels.tsv: label, ip, user_agent, reason,
// tab-separated; '#' starts a comment line.
func readCorpusLabels(t *testing.T, name string) []corpusLabel {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var labels []corpusLabel
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 4 || (f[0] != "robot" && f[0] != "human") || strings.TrimSpace(f[3]) == "" {
			t.Errorf("%s:%d: want label<TAB>ip<TAB>user_agent<TAB>reason with label robot or human, got %q", name, n, line)
			continue
		}
		labels = append(labels, corpusLabel{line: n, robot: f[0] == "robot", ip: f[1], agent: f[2], reason: f[3]})
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return labels
}

// corpusScore counts one log's (or all logs') labelled clients by verdict.
type corpusScore struct {
	robots, found    int // labelled robots; of them judged robots
	people, flagged  int // labelled people; of them judged robots
	peopleBlocked    int // labelled people whose address is in the default block list
	apart            int // labelled clients judged junk or the server itself, scored as neither
	missed, mistaken []string
}

func (s *corpusScore) add(o corpusScore) {
	s.robots += o.robots
	s.found += o.found
	s.people += o.people
	s.flagged += o.flagged
	s.peopleBlocked += o.peopleBlocked
	s.apart += o.apart
}

func share(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return float64(n) / float64(of)
}

// TestCorpus runs robowatch as an admin would, with its defaults, on every
// log of the labelled corpus and scores its verdicts against the labels:
// robots found and people flagged per log and overall, and no labelled
// person's address in the default block list (-o ips). A label naming a
// client the log does not hold fails with the label's line.
func TestCorpus(t *testing.T) {
	accuracyTest(t)
	labelFiles, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*", "labels.tsv"))
	if len(labelFiles) == 0 {
		t.Skip("no corpus in testdata/corpus")
	}
	sort.Strings(labelFiles)
	var total corpusScore
	var table []string
	logs := 0
	for _, lf := range labelFiles {
		dir := filepath.Dir(lf)
		slug := filepath.Base(dir)
		log := filepath.Join(dir, "access.log")
		if _, err := os.Stat(log); err != nil {
			log += ".gz"
		}
		if _, err := os.Stat(log); err != nil {
			t.Errorf("%s: no access.log or access.log.gz beside it", lf)
			continue
		}
		var extra []string
		if b, err := os.ReadFile(filepath.Join(dir, "args")); err == nil {
			for _, a := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				if a = strings.TrimSpace(a); a != "" {
					extra = append(extra, a)
				}
			}
		}
		labels := readCorpusLabels(t, lf)
		s := scoreCorpusLog(t, lf, log, extra, labels)
		logs++
		total.add(s)
		table = append(table, fmt.Sprintf("%-28s robots found %3d/%-3d  people flagged %2d/%-3d  people blocked %d  set apart %d", slug, s.found, s.robots, s.flagged, s.people, s.peopleBlocked, s.apart))
		for _, m := range s.missed {
			table = append(table, "    missed robot:   "+m)
		}
		for _, m := range s.mistaken {
			table = append(table, "    flagged person: "+m)
		}
	}
	table = append(table, fmt.Sprintf("%-28s robots found %3d/%-3d (%.1f%%)  people flagged %d/%d (%.1f%%)  people blocked %d",
		fmt.Sprintf("all %d logs", logs), total.found, total.robots, 100*share(total.found, total.robots),
		total.flagged, total.people, 100*share(total.flagged, total.people), total.peopleBlocked))
	t.Log("\n" + strings.Join(table, "\n"))
	found, flagged := share(total.found, total.robots), share(total.flagged, total.people)
	if found < corpusFloorRobotsFound {
		t.Errorf("robots found: %.1f%% of %d labelled robots, below the floor of %.0f%% (target %.0f%%)", 100*found, total.robots, 100*corpusFloorRobotsFound, 100*corpusTargetRobotsFound)
	} else if found < corpusTargetRobotsFound {
		t.Logf("robots found: %.1f%%, short of the target of %.0f%%", 100*found, 100*corpusTargetRobotsFound)
	}
	if flagged > corpusCeilPeopleFlagged {
		t.Errorf("people flagged: %.1f%% of %d labelled people, above the ceiling of %.0f%% (target %.0f%%)", 100*flagged, total.people, 100*corpusCeilPeopleFlagged, 100*corpusTargetPeopleFlagged)
	}
	if total.peopleBlocked > 0 {
		t.Errorf("%d labelled people have their address in the default block list", total.peopleBlocked)
	}
}

// scoreCorpusLog runs one log (its JSON report and its default block
// list) and scores its labels.
func scoreCorpusLog(t *testing.T, labelFile, log string, extra []string, labels []corpusLabel) corpusScore {
	t.Helper()
	var s corpusScore
	code, out, errOut := runCLI(t, nil, append(append([]string{"-o", "json", "--max-clients", "1000000"}, extra...), log)...)
	if code != 0 {
		t.Errorf("%s: exit %d: %s", log, code, errOut)
		return s
	}
	var rep struct {
		Clients []struct {
			IP        string `json:"ip"`
			UserAgent string `json:"user_agent"`
			Robot     bool   `json:"robot"`
			Name      string `json:"name"`
			Kind      string `json:"kind"`
		} `json:"clients"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Errorf("%s: JSON report: %v", log, err)
		return s
	}
	type key struct{ ip, agent string }
	judged := make(map[key]bool, len(rep.Clients))
	names := make(map[key]string, len(rep.Clients))
	apart := map[key]bool{} // junk (no request) and the server itself: neither robot nor person
	for _, c := range rep.Clients {
		judged[key{c.IP, c.UserAgent}] = c.Robot
		names[key{c.IP, c.UserAgent}] = c.Name
		apart[key{c.IP, c.UserAgent}] = c.Kind == "junk" || c.Kind == "server"
	}
	code, out, errOut = runCLI(t, nil, append(append([]string{"-o", "ips"}, extra...), log)...)
	if code != 0 {
		t.Errorf("%s: -o ips: exit %d: %s", log, code, errOut)
	}
	blocked := map[string]bool{}
	for _, l := range strings.Split(out, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			blocked[l] = true
		}
	}
	for _, l := range labels {
		k := key{l.ip, l.agent}
		robot, ok := judged[k]
		if !ok {
			t.Errorf("%s:%d: no client %s %q in %s", labelFile, l.line, l.ip, l.agent, log)
			continue
		}
		if apart[k] {
			s.apart++
			continue
		}
		who := fmt.Sprintf("%s %.60q (%s) [%s]", l.ip, l.agent, l.reason, names[k])
		if l.robot {
			s.robots++
			if robot {
				s.found++
			} else {
				s.missed = append(s.missed, who)
			}
			continue
		}
		s.people++
		if robot {
			s.flagged++
			s.mistaken = append(s.mistaken, who)
		}
		if blocked[l.ip] {
			s.peopleBlocked++
			s.mistaken = append(s.mistaken, "in the block list: "+who)
		}
	}
	return s
}

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
	accuracyTest(t)
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
