package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/robowatch/robowatch/cli"
)

// judgedClient is what these tests read of a client in the JSON report.
type judgedClient struct {
	IP        string   `json:"ip"`
	UserAgent string   `json:"user_agent"`
	Robot     bool     `json:"robot"`
	Name      string   `json:"name"`
	Kind      string   `json:"kind"`
	Score     int      `json:"score"`
	Details   []string `json:"details"`
	Incidents int      `json:"incidents"`
}

// judgedReport is what these tests read of the JSON report.
type judgedReport struct {
	Summary map[string]any `json:"summary"`
	Clients []judgedClient `json:"clients"`
	Robots  []struct {
		Name string `json:"name"`
	} `json:"robots"`
	Incidents []struct {
		IP string `json:"ip"`
	} `json:"incidents"`
}

// judgeLog runs robowatch -o json over files and returns the report and
// its standard error.
func judgeLog(t *testing.T, args ...string) (judgedReport, string) {
	t.Helper()
	var rep judgedReport
	_, errOut := runJSON(t, nil, &rep, append([]string{"-o", "json"}, args...)...)
	return rep, errOut
}

// TestServerAndJunkAreNoOnesVisit: a WordPress install on GKE, whose Apache
// logged its own "OPTIONS *" wake-ups from ::1 with the User-agent "Apache/…
// (internal dummy connection)", and an nginx pod behind a TLS passthrough
// that logged three TLS ClientHellos as 400s (real lines, see
// testdata/scenarios/server-junk). The dummy connections are the server
// (kind server), the handshakes junk: neither a robot, nor in the robot
// share, nor an incident, and the Clients table says which they are, not
// "Robot: no". The same User-agent from a routable address is no server's.
func TestServerAndJunkAreNoOnesVisit(t *testing.T) {
	dir := "testdata/scenarios/server-junk/"
	rep, _ := judgeLog(t, dir+"wordpress-gke.log", dir+"tls-passthrough.log")
	kinds := map[string]string{}
	for _, c := range rep.Clients {
		if c.Robot && (c.IP == "::1" || c.IP == "192.168.14.193") {
			t.Errorf("%s judged a robot (%s, %v)", c.IP, c.Name, c.Details)
		}
		if c.IP == "::1" || c.IP == "192.168.14.193" {
			kinds[c.IP] = c.Kind
			if c.Incidents != 0 {
				t.Errorf("%s has %d incidents", c.IP, c.Incidents)
			}
		}
	}
	if kinds["::1"] != "server" || kinds["192.168.14.193"] != "junk" {
		t.Errorf("kinds %v, want ::1 server and 192.168.14.193 junk", kinds)
	}
	if got := rep.Summary["robot_requests"]; got != float64(4) {
		t.Errorf("robot_requests = %v, want 4 (WordPress's own cron and pings only)", got)
	}
	code, out, errOut := runCLI(t, nil, "--section", "clients", "--width", "200", dir+"wordpress-gke.log", dir+"tls-passthrough.log")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, line := range strings.Split(out, "\n") {
		for ip, want := range map[string]string{"::1": "server", "192.168.14.193": "junk"} {
			if strings.HasPrefix(line, "│ "+ip+" ") && !strings.Contains(line, "│ "+want+" ") {
				t.Errorf("Clients row of %s does not say %s: %s", ip, want, line)
			}
		}
	}

	// The dummy connection's User-agent from a routable address is a
	// visitor imitating it, judged as any other.
	fake := strings.ReplaceAll(readFile(t, dir+"wordpress-gke.log"), "::1 - -", "198.51.100.7 - -")
	code, out, errOut = runCLI(t, []byte(fake), "-o", "json")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var fr judgedReport
	if err := json.Unmarshal([]byte(out), &fr); err != nil {
		t.Fatal(err)
	}
	for _, c := range fr.Clients {
		if c.IP == "198.51.100.7" && c.Kind == "server" {
			t.Errorf("198.51.100.7 taken for the server itself")
		}
	}
}

// TestNoUserAgentRobotsNamedByNetwork: the NASA Kennedy Space Center log of
// August 1995 (Common Log Format: no User-agent field) holds a link checker
// at 163.205.23.71 that sent nothing but HEAD. It is a robot, named by its
// network, not "(empty)", which would make one robot of every robot of
// such a log; and no robot of any log is named after a browser family.
func TestNoUserAgentRobotsNamedByNetwork(t *testing.T) {
	rep, _ := judgeLog(t, "testdata/scenarios/no-user-agent/nasa-link-checker.log")
	var names []string
	for _, r := range rep.Robots {
		names = append(names, r.Name)
	}
	if len(names) != 1 || names[0] != "unnamed (163.205.23.0/24)" {
		t.Errorf("robots %q, want [unnamed (163.205.23.0/24)]", names)
	}
	// A host name is named by its domain.
	log := strings.ReplaceAll(readFile(t, "testdata/scenarios/no-user-agent/nasa-link-checker.log"), "163.205.23.71", "checker.ksc.nasa.gov")
	var hr judgedReport
	runJSON(t, []byte(log), &hr, "-o", "json")
	if len(hr.Robots) != 1 || hr.Robots[0].Name != "unnamed (*.ksc.nasa.gov)" {
		t.Errorf("robots %+v, want unnamed (*.ksc.nasa.gov)", hr.Robots)
	}
}

// TestBrowserFamilyNeverARobotName: a robot under a browser's name, real or
// implausible, is named by its network; "Chrome" or "IE" would name every
// person using it. The lines are the elastic/examples log's (May 2015): a
// "MSIE 9.0" on "Windows NT 9.0", which never existed, and a "Firefox/3.6"
// that names no system, fetching one jar every six hours.
func TestBrowserFamilyNeverARobotName(t *testing.T) {
	rep, _ := judgeLog(t, "testdata/scenarios/browser-names/elastic-implausible.log", "testdata/logs/elastic-8801-9000.log")
	if len(rep.Robots) < 2 {
		t.Fatalf("%d robots, want the two implausible browsers at least", len(rep.Robots))
	}
	families := map[string]bool{"Chrome": true, "Firefox": true, "Safari": true, "IE": true, "Opera": true, "Edge": true}
	for _, r := range rep.Robots {
		if families[r.Name] {
			t.Errorf("robot named %q, a browser family", r.Name)
		}
	}
	for _, c := range rep.Clients {
		if c.Robot && (c.Kind == "browser" || c.Kind == "suspicious") && !strings.HasPrefix(c.Name, "unnamed (") {
			t.Errorf("%s: robot of kind %s named %q", c.IP, c.Kind, c.Name)
		}
	}
}

// readFile returns the text of a test file.
func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestOldBrowsersOfTheirTime: three visitors of the elastic/examples log
// (May 2015) on Internet Explorer 9, 8 and 7-compatibility mode, each
// loading pages and their assets. "Ancient browser" is judged from when the
// next version came out (IE 9 was superseded in late 2012, not three years
// before the log) and counts only with behaviour no browser shows: none of
// them has points, let alone a robot's.
func TestOldBrowsersOfTheirTime(t *testing.T) {
	rep, _ := judgeLog(t, "testdata/scenarios/old-browsers/elastic-2015.log")
	if len(rep.Clients) != 3 {
		t.Fatalf("%d clients, want 3", len(rep.Clients))
	}
	for _, c := range rep.Clients {
		if c.Robot || c.Score != 0 {
			t.Errorf("%s (%s): robot %v, score %d, %q; want a person with no points", c.IP, c.UserAgent, c.Robot, c.Score, c.Details)
		}
	}
}

// TestAssetsServedByAFront: the elastic/examples log (May 2015) as an
// Apache back end behind an nginx that serves the static files would log
// it: its real lines without the asset requests. Five readers of 10 to 20
// pages each had 50 points for "pages and no assets", which every person
// has in such a log. The log as a whole shows the front; the signal is set
// aside for it, stderr says so and why, and the JSON summary says it. The
// same log with its assets keeps the signal.
func TestAssetsServedByAFront(t *testing.T) {
	rep, errOut := judgeLog(t, "testdata/scenarios/assets-front/elastic-backend.log")
	if rep.Summary["pages_without_assets_set_aside"] != true {
		t.Errorf("pages_without_assets_set_aside = %v, want true", rep.Summary["pages_without_assets_set_aside"])
	}
	if !strings.Contains(errOut, `"pages and no assets" is no sign of a robot in this log and was set aside`) {
		t.Errorf("stderr does not say the signal was set aside:\n%s", errOut)
	}
	readers := map[string]bool{"130.237.218.86": true, "183.179.22.186": true, "24.11.96.184": true, "2.241.35.167": true, "88.120.89.50": true}
	seen := 0
	for _, c := range rep.Clients {
		if !readers[c.IP] {
			continue
		}
		seen++
		if c.Robot || c.Score != 0 {
			t.Errorf("%s: robot %v, score %d, %q; want a reader with no points", c.IP, c.Robot, c.Score, c.Details)
		}
	}
	if seen != len(readers) {
		t.Errorf("%d of the %d readers in the report", seen, len(readers))
	}

	rep, errOut = judgeLog(t, "testdata/logs/elastic-5801-5900.log", "testdata/logs/elastic-8801-9000.log")
	if rep.Summary["pages_without_assets_set_aside"] != false || strings.Contains(errOut, "set aside") {
		t.Errorf("a log with its assets: set aside %v, stderr %q", rep.Summary["pages_without_assets_set_aside"], errOut)
	}
}
