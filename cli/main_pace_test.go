package cli_test

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// paceLine is one Apache or nginx combined line of a real log, with its
// time taken out: %s is where the time goes.
type paceLine struct {
	at   time.Duration // after the session's start
	line string
}

// paceLog writes lines in time order from start, filling in each one's time.
func paceLog(start time.Time, lines []paceLine) string {
	var b strings.Builder
	for _, l := range lines {
		fmt.Fprintf(&b, l.line+"\n", start.Add(l.at).Format("02/Jan/2006:15:04:05 -0700"))
	}
	return b.String()
}

// The lines of a single-page app's session, from the nginx log of a
// real ERP front end (ireackea/MZ.S-ERP on GitHub, its phase 2 report, 25
// March 2026): the page, its bundles, the favicon, the app's API calls with
// the page as Referer, its websocket (101). That session was the project's
// own browser tests, HeadlessChrome; the human variant sends the same
// browser's headed User-agent.
const (
	spaIP       = "172.18.0.1"
	headless    = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/146.0.0.0 Safari/537.36 Edg/146.0.0.0"
	headedEdge  = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/146.0.0.0 Safari/537.36 Edg/146.0.0.0"
	spaReferer  = "http://127.0.0.1:4173/settings?phase2=1774447081474"
	spaPage     = `172.18.0.1 - - [%%s] "GET /settings?phase2=1774447081474 HTTP/1.1" 200 1583 "-" "%s" "-"`
	spaSocket   = `172.18.0.1 - - [%%s] "GET /socket.io/?EIO=4&transport=websocket HTTP/1.1" 101 264 "-" "%s" "-"`
	spaFavicon  = `172.18.0.1 - - [%%s] "GET /favicon.ico HTTP/1.1" 200 1583 "` + spaReferer + `" "%s" "-"`
	spaResource = `172.18.0.1 - - [%%s] "GET %s HTTP/1.1" %s "%s" "%s" "-"`
)

var (
	spaBundles = []string{"/assets/index-DLL7JRGf.js", "/assets/vendor-recharts-C3UCiGh7.js",
		"/assets/export-exceljs-CaJkFnL3.js", "/assets/index-ChjUuVoN.css", "/assets/vendor-datepicker-D6zyaJjM.js"}
	// The calls the app made on loading, each "200 <bytes>" as logged.
	spaCalls = [][2]string{{"/api/auth/me", "200 187"}, {"/api/items", "200 2"}, {"/api/transactions", "200 42"},
		{"/api/opening-balances/2026", "200 2"}, {"/api/users?page=1&limit=200", "200 3076"}}
	// The calls of its settings tab, opened by the app's own routing.
	spaTabCalls = [][2]string{{"/api/auth/me", "304 0"}, {"/api/users/roles", "304 0"},
		{"/api/users?page=1&limit=20", "200 3075"}, {"/api/users/08f00c1e-48ab-4d35-8ae1-a184787be7ce/audit", "200 2"}}
)

// spaSession: the page loaded, then a tab switched every 3 s for ten
// minutes (each its four calls), the websocket reopened every 30 s.
func spaSession(ua string) []paceLine {
	ls := []paceLine{{0, fmt.Sprintf(spaPage, ua)}}
	for _, p := range spaBundles {
		ls = append(ls, paceLine{0, fmt.Sprintf(spaResource, p, "200 1000", spaReferer, ua)})
	}
	ls = append(ls, paceLine{time.Second, fmt.Sprintf(spaFavicon, ua)})
	for _, c := range spaCalls {
		ls = append(ls, paceLine{time.Second, fmt.Sprintf(spaResource, c[0], c[1], spaReferer, ua)})
	}
	for s := 3; s < 600; s += 3 {
		for _, c := range spaTabCalls {
			ls = append(ls, paceLine{time.Duration(s) * time.Second, fmt.Sprintf(spaResource, c[0], c[1], spaReferer, ua)})
		}
		if s%30 == 0 {
			ls = append(ls, paceLine{time.Duration(s) * time.Second, fmt.Sprintf(spaSocket, ua)})
		}
	}
	return ls
}

// dashboard: the app's dashboard left open for an hour, its page's five
// calls (the app's own, as above) repeated every 5 s: 60 a minute, the
// sustained threshold, all with the page as Referer.
func dashboard(ua string) []paceLine {
	ls := []paceLine{{0, fmt.Sprintf(spaPage, ua)}}
	for _, p := range spaBundles {
		ls = append(ls, paceLine{0, fmt.Sprintf(spaResource, p, "200 1000", spaReferer, ua)})
	}
	for s := 1; s < 3600; s += 5 {
		for _, c := range spaCalls {
			ls = append(ls, paceLine{time.Duration(s) * time.Second, fmt.Sprintf(spaResource, c[0], c[1], spaReferer, ua)})
		}
	}
	return ls
}

// The lines of a person on a blog (semicomplete.com, 17 May 2015, in
// elastic/examples' apache_logs), its redirect "GET /files/xdotool/docs"
// answered 301 among them.
const (
	blogIP  = "108.32.74.68"
	blogUA  = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Ubuntu Chromium/32.0.1700.102 Chrome/32.0.1700.102 Safari/537.36"
	blogRef = "http://www.semicomplete.com/projects/xdotool/"
	blogGET = `108.32.74.68 - - [%s] "GET /files/xdotool/docs HTTP/1.1" 301 341 "` + blogRef + `" "` + blogUA + `"`
	blogDir = `108.32.74.68 - - [%s] "GET /files/xdotool/docs/ HTTP/1.1" 301 341 "` + blogRef + `" "` + blogUA + `"`
	blogPg  = `108.32.74.68 - - [%s] "GET /projects/xdotool/ HTTP/1.1" 200 12349 "http://www.semicomplete.com/" "` + blogUA + `"`
	blogCSS = `108.32.74.68 - - [%s] "GET /style2.css HTTP/1.1" 200 4877 "` + blogRef + `" "` + blogUA + `"`
	blogImg = `108.32.74.68 - - [%s] "GET /images/jordan-80.png HTTP/1.1" 200 6146 "` + blogRef + `" "` + blogUA + `"`
)

// redirectLoop: the page and its assets, then a link that the server
// bounces between two URLs until the browser gives up (Chrome stops at 20
// hops, in a second), tried three times.
func redirectLoop() []paceLine {
	ls := []paceLine{{0, blogPg}, {0, blogCSS}, {0, blogImg}}
	for try := range 3 {
		at := time.Duration(5+try*3) * time.Second
		for hop := range 20 {
			l := blogGET
			if hop%2 == 1 {
				l = blogDir
			}
			ls = append(ls, paceLine{at + time.Duration(hop)*40*time.Millisecond, l})
		}
	}
	return ls
}

// uptimeRobot: UptimeRobot's check of the home page every 5 minutes for a
// day (its User-agent as it sends it, in elastic/examples' list of
// agents), and the same under a browser's name.
func uptime(ip, ua string) []paceLine {
	var ls []paceLine
	for s := 0; s < 86400; s += 300 {
		ls = append(ls, paceLine{time.Duration(s) * time.Second,
			ip + ` - - [%s] "GET / HTTP/1.1" 200 10225 "-" "` + ua + `"`})
	}
	return ls
}

// TestPaceByPageViews: a browser's rapid-fire is counted in page views, a
// page and what it pulls in, not in requests; an uptime monitor is a
// robot of kind monitor. Each case is a real session's lines, the times
// laid out as the case says.
func TestPaceByPageViews(t *testing.T) {
	const uptimeUA = "Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)"
	const firefox = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0"
	tests := []struct {
		name      string
		lines     []paceLine
		ip, ua    string
		robot     bool
		kind      string // "": not checked
		incidents int
	}{
		{"single-page app: API calls, websocket, the page as Referer", spaSession(headedEdge), spaIP, headedEdge, false, "", 0},
		{"single-page app under the test's headless browser: a robot by its name, no incident", spaSession(headless), spaIP, headless, true, "", 0},
		{"dashboard polling its API every 5 s for an hour", dashboard(headedEdge), spaIP, headedEdge, false, "", 0},
		{"a browser's redirect loop, tried three times", redirectLoop(), blogIP, blogUA, false, "", 0},
		{"UptimeRobot checking the home page every 5 minutes", uptime("198.51.100.7", uptimeUA), "198.51.100.7", uptimeUA, true, "monitor", 0},
		{"an uptime monitor under a browser's name", uptime("198.51.100.8", firefox), "198.51.100.8", firefox, true, "monitor", 0},
	}
	start := time.Date(2026, 3, 25, 13, 58, 1, 0, time.UTC)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var doc struct {
				Clients []struct {
					IP        string   `json:"ip"`
					UserAgent string   `json:"user_agent"`
					Robot     bool     `json:"robot"`
					Kind      string   `json:"kind"`
					Incidents int      `json:"incidents"`
					Pages     int      `json:"pages"`
					Details   []string `json:"details"`
				} `json:"clients"`
			}
			runJSON(t, []byte(paceLog(start, tt.lines)), &doc, "-o", "json", "-")
			for _, c := range doc.Clients {
				if c.IP != tt.ip || c.UserAgent != tt.ua {
					continue
				}
				if c.Robot != tt.robot || c.Incidents != tt.incidents || tt.kind != "" && c.Kind != tt.kind {
					t.Errorf("robot %v, kind %q, %d incidents, %d pages (%q); want robot %v, kind %q, %d incidents",
						c.Robot, c.Kind, c.Incidents, c.Pages, c.Details, tt.robot, tt.kind, tt.incidents)
				}
				return
			}
			t.Fatalf("no client %s %q in the report", tt.ip, tt.ua)
		})
	}
}

// TestIncidentsSpeakOfRobots: a person's busy minute (a reader opening a
// directory listing's pages one after another, each with its icons and a
// Referer: the browsing discount keeps them human) is no robot's
// incident. The headline's worst incident is the robot's, though the
// person's was heavier; the table and JSON say whose each is. The lines
// are elastic/examples' apache_logs (semicomplete.com, 17 May 2015): the
// reader 108.32.74.68 and Sogou's spider 218.30.103.62, their times laid
// out closer.
func TestIncidentsSpeakOfRobots(t *testing.T) {
	const (
		reader = `108.32.74.68 - - [%s] "GET /files/xdotool/docs/%d/ HTTP/1.1" 200 1328 "http://www.semicomplete.com/files/xdotool/docs/" "` + blogUA + `"`
		icon   = `108.32.74.68 - - [%s] "GET /icons/folder.gif HTTP/1.1" 200 225 "http://www.semicomplete.com/files/xdotool/docs/%d/" "` + blogUA + `"`
		sogou  = `218.30.103.62 - - [%s] "GET /blog/geekery/c-vs-python-bdb-%d.html HTTP/1.1" 200 11388 "-" "Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)"`
	)
	var lines []paceLine
	for i := range 40 {
		at := time.Duration(i) * 200 * time.Millisecond
		lines = append(lines, paceLine{at, strings.Replace(reader, "%d", fmt.Sprint(i), 1)},
			paceLine{at, strings.Replace(icon, "%d", fmt.Sprint(i), 1)})
	}
	for i := range 25 {
		lines = append(lines, paceLine{time.Minute + time.Duration(i)*400*time.Millisecond, strings.Replace(sogou, "%d", fmt.Sprint(i), 1)})
	}
	slicesSortPace(lines)
	log := paceLog(time.Date(2015, 5, 17, 12, 5, 0, 0, time.UTC), lines)

	var doc struct {
		Incidents []struct {
			IP       string `json:"ip"`
			Verdict  string `json:"verdict"`
			Severity int64  `json:"severity"`
		} `json:"incidents"`
	}
	runJSON(t, []byte(log), &doc, "-o", "json", "-")
	var got []string
	for _, in := range doc.Incidents {
		got = append(got, in.IP+" "+in.Verdict)
	}
	want := []string{"218.30.103.62 Sogou web spider", "108.32.74.68 human"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("incidents %q, want %q", got, want)
	}

	_, text, _ := runCLI(t, []byte(log), "--width", "200", "-")
	var worst, header, human string
	for l := range strings.Lines(text) {
		switch {
		case strings.Contains(l, "Worst incident"):
			worst = l
		case strings.Contains(l, "Start") && strings.Contains(l, "Peak/s"):
			header = l
		case strings.Contains(l, "108.32.74.68") && strings.Contains(l, "human"):
			human = l
		}
	}
	if !strings.Contains(worst, "218.30.103.62") {
		t.Errorf("the headline's worst incident is not the robot's: %q", worst)
	}
	if !strings.Contains(header, "Verdict") || human == "" {
		t.Errorf("the incidents table does not say whose each is: header %q, the person's row %q", header, human)
	}
}

// slicesSortPace puts lines in time order, as a server writes them.
func slicesSortPace(ls []paceLine) {
	slices.SortStableFunc(ls, func(a, b paceLine) int { return cmp.Compare(a.at, b.at) })
}

// overlapLine is one combined-format line at t.
func overlapLine(ip string, t time.Time, path, ua string) string {
	return fmt.Sprintf("%s - - [%s] \"GET %s HTTP/1.1\" 200 512 \"-\" \"%s\"\n", ip, t.Format("02/Jan/2006:15:04:05 -0700"), path, ua)
}

// quietTraffic is a person's page a minute from start to end, so that the
// log's clock moves on as a real one does.
func quietTraffic(b *strings.Builder, ip string, start, end time.Time) {
	for t := start; t.Before(end); t = t.Add(time.Minute) {
		b.WriteString(overlapLine(ip, t, "/news/"+t.Format("1504"), "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36"))
	}
}

// burst is 300 requests in 10 s from ip at start.
func burst(b *strings.Builder, ip string, start time.Time) {
	for i := range 300 {
		b.WriteString(overlapLine(ip, start.Add(time.Duration(i)*time.Second/30), fmt.Sprintf("/item/%d", i), "python-requests/2.31.0"))
	}
}

type overlapReport struct {
	Summary struct {
		Records   int `json:"records"`
		Incidents int `json:"incidents"`
		Late      int `json:"late_records"`
	} `json:"summary"`
	Incidents []struct {
		IP       string `json:"ip"`
		Requests int    `json:"requests"`
	} `json:"incidents"`
}

// runOverlap runs robowatch -o json on the files, with args before them.
func runOverlap(t *testing.T, args []string, files ...string) (overlapReport, string) {
	t.Helper()
	var rep overlapReport
	_, errOut := runJSON(t, nil, &rep, append(append([]string{"-o", "json"}, args...), files...)...)
	return rep, errOut
}

// TestTwoServersSameHoursBurstInSecond: web1.log and web2.log, two servers
// behind one balancer, both cover 10:00-12:00; a scraper fires 300
// requests in 10 s at web2 at 11:00. Read one after the other, web2's
// records all came before the clock web1 left (12:00): they were late,
// and the burst was never an incident. Each file is judged on its own
// clock now, with one worker or several, and stderr says the files overlap.
func TestTwoServersSameHoursBurstInSecond(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2024, 6, 3, 10, 0, 0, 0, time.UTC)
	var web1, web2 strings.Builder
	quietTraffic(&web1, "198.51.100.10", t0, t0.Add(2*time.Hour))
	quietTraffic(&web2, "198.51.100.20", t0, t0.Add(time.Hour))
	burst(&web2, "203.0.113.66", t0.Add(time.Hour))
	quietTraffic(&web2, "198.51.100.20", t0.Add(time.Hour+time.Minute), t0.Add(2*time.Hour))
	p1 := writeLog(t, dir, "web1.log", web1.String())
	p2 := writeLog(t, dir, "web2.log", web2.String())
	for _, workers := range []string{"1", "4"} {
		for _, files := range [][]string{{p1, p2}, {p2, p1}} {
			rep, errOut := runOverlap(t, []string{"--workers", workers}, files...)
			if rep.Summary.Incidents != 1 || len(rep.Incidents) != 1 || rep.Incidents[0].IP != "203.0.113.66" || rep.Incidents[0].Requests != 300 {
				t.Errorf("--workers %s %s: incidents %+v (%d late records), want the burst of 300 from 203.0.113.66",
					workers, filepath.Base(files[0]), rep.Incidents, rep.Summary.Late)
			}
			if rep.Summary.Late != 0 {
				t.Errorf("--workers %s: %d late records, want 0", workers, rep.Summary.Late)
			}
			if !strings.Contains(errOut, "goes back in time") {
				t.Errorf("--workers %s: stderr %q does not say the files overlap", workers, errOut)
			}
		}
	}
}

// TestClockSteppedBackBurstAfterStep: a server's clock is set back half
// an hour at 11:00 (a wrong NTP source fixed, a VM restored); after the
// step a scraper fires 300 requests in 10 s. Before, every record after
// the step was late and the burst was lost; now the log's clock follows
// the step after a few records and the burst is an incident.
func TestClockSteppedBackBurstAfterStep(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2024, 6, 3, 10, 0, 0, 0, time.UTC)
	var b strings.Builder
	// Before the step: one request a second, several people.
	for s := range 3600 {
		b.WriteString(overlapLine(fmt.Sprintf("198.51.100.%d", s%50+1), t0.Add(time.Duration(s)*time.Second), "/", "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0"))
	}
	// After it: the clock reads 10:30 again, traffic goes on, and the burst
	// comes a minute later.
	step := t0.Add(30 * time.Minute)
	for s := range 60 {
		b.WriteString(overlapLine(fmt.Sprintf("198.51.100.%d", s%50+1), step.Add(time.Duration(s)*time.Second), "/", "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0"))
	}
	burst(&b, "203.0.113.77", step.Add(time.Minute))
	quietTraffic(&b, "198.51.100.99", step.Add(2*time.Minute), step.Add(20*time.Minute))
	p := writeLog(t, dir, "access.log", b.String())
	for _, workers := range []string{"1", "4"} {
		rep, errOut := runOverlap(t, []string{"--workers", workers}, p)
		if len(rep.Incidents) != 1 || rep.Incidents[0].IP != "203.0.113.77" || rep.Incidents[0].Requests != 300 {
			t.Errorf("--workers %s: incidents %+v (%d late records), want the burst of 300 from 203.0.113.77", workers, rep.Incidents, rep.Summary.Late)
		}
		if !strings.Contains(errOut, "goes back in time") {
			t.Errorf("--workers %s: stderr %q does not say the clock went back", workers, errOut)
		}
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
