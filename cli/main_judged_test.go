package cli_test

import (
	"bufio"
	"compress/gzip"
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
	dir := "../testdata/scenarios/server-junk/"
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
	rep, _ := judgeLog(t, "../testdata/scenarios/no-user-agent/nasa-link-checker.log")
	var names []string
	for _, r := range rep.Robots {
		names = append(names, r.Name)
	}
	if len(names) != 1 || names[0] != "unnamed (163.205.23.0/24)" {
		t.Errorf("robots %q, want [unnamed (163.205.23.0/24)]", names)
	}
	// A host name is named by its domain.
	log := strings.ReplaceAll(readFile(t, "../testdata/scenarios/no-user-agent/nasa-link-checker.log"), "163.205.23.71", "checker.ksc.nasa.gov")
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
	rep, _ := judgeLog(t, "../testdata/scenarios/browser-names/elastic-implausible.log", "../testdata/logs/elastic-8801-9000.log")
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
	rep, _ := judgeLog(t, "../testdata/scenarios/old-browsers/elastic-2015.log")
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
	rep, errOut := judgeLog(t, "../testdata/scenarios/assets-front/elastic-backend.log")
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

	rep, errOut = judgeLog(t, "../testdata/logs/elastic-5801-5900.log", "../testdata/logs/elastic-8801-9000.log")
	if rep.Summary["pages_without_assets_set_aside"] != false || strings.Contains(errOut, "set aside") {
		t.Errorf("a log with its assets: set aside %v, stderr %q", rep.Summary["pages_without_assets_set_aside"], errOut)
	}
}

// TestDashboardWithoutRefererIsAPerson replays a real session from the
// corpus (jul/yahi's home server, 2012, testdata/corpus/yahi-munin-2012):
// a person on Firefox 12 logs in to munin and opens a dashboard whose 40
// graphs load in the same second, with no Referer on any request. Counted
// by requests that was a rapid-fire incident and a robot; counted by page
// views (five pages in 23 s) it is a person, and no incident.
func TestDashboardWithoutRefererIsAPerson(t *testing.T) {
	const ua = "Mozilla/5.0 (Windows NT 6.0; WOW64; rv:12.0) Gecko/20100101 Firefox/12.0"
	f, err := os.Open("../testdata/corpus/yahi-munin-2012/access.log.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var session strings.Builder
	sc := bufio.NewScanner(z)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "192.168.0.35 ") && strings.Contains(sc.Text(), `"`+ua+`"`) {
			session.WriteString(sc.Text() + "\n")
		}
	}
	if n := strings.Count(session.String(), "\n"); n < 40 {
		t.Fatalf("the session has %d lines, want the dashboard's 46", n)
	}
	for _, tc := range []struct {
		name  string
		lines string
		robot bool
	}{
		{"the person's session", session.String(), false},
		// The same 40 graphs fetched with no page before them: no page
		// view holds them, and they count in full.
		{"graphs alone, no page", graphsOnly(session.String()), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, []byte(tc.lines), "-o", "json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var rep struct {
				Clients []struct {
					Robot     bool `json:"robot"`
					Incidents int  `json:"incidents"`
				} `json:"clients"`
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Clients) != 1 {
				t.Fatalf("report: %v, %d clients", err, len(rep.Clients))
			}
			if c := rep.Clients[0]; c.Robot != tc.robot || (c.Incidents > 0) != tc.robot {
				t.Errorf("robot %v with %d incidents, want robot %v", c.Robot, c.Incidents, tc.robot)
			}
		})
	}
}

// graphsOnly keeps the session's .png lines.
func graphsOnly(session string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(session, "\n") {
		if strings.Contains(l, ".png ") {
			b.WriteString(l)
		}
	}
	return b.String()
}

// TestWordsOfAShortLog: a report says what the log shows, not more. A
// robot that did not fetch robots.txt in a 5-minute log may well have
// fetched it the hour before ("never fetched" claims what the log cannot
// know); "first" of the scanners is the busiest, which the word did not
// say.
func TestWordsOfAShortLog(t *testing.T) {
	const site = "../testdata/scenarios/site/"
	tests := []struct {
		name    string
		args    []string
		want    []string
		notWant []string
	}{
		{"headline", []string{"--robots", site + "robots.txt", "--section", "headline", site + "site.log"},
			[]string{"60 violations of robots.txt; did not fetch robots.txt in this log (5m02s); see robots.txt violations"}, []string{"never"}},
		{"markdown", []string{"--robots", site + "robots.txt", "-o", "markdown", site + "site.log"},
			[]string{"did not fetch robots.txt in this log (5m02s)"}, []string{"never fetched"}},
		{"robots column", []string{"--robots", site + "robots.txt", "--section", "robots", site + "site.log"},
			[]string{"not fetched"}, []string{"never"}},
		{"drill-down", []string{"--robots", site + "robots.txt", "--client", "192.0.2.99", "--section", "client", site + "site.log"},
			[]string{"not fetched in this log (5m02s)"}, []string{"never fetched"}},
		{"scanners", []string{"--section", "headline", "../testdata/scenarios/verdicts/clf-scanners.log"},
			[]string{"2 clients probed for weaknesses (the busiest: 192.0.2.99)"}, []string{"(first "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("COLUMNS", "200")
			code, out, errOut := runCLI(t, nil, tt.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			flat := strings.Join(strings.Fields(strings.NewReplacer("│", " ", "|", " ").Replace(out)), " ")
			for _, w := range tt.want {
				if !strings.Contains(flat, w) {
					t.Errorf("no %q in:\n%s", w, out)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(flat, w) {
					t.Errorf("%q in:\n%s", w, out)
				}
			}
		})
	}
}
