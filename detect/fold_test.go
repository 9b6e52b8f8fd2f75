package detect

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"
	"weak"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/robots"
)

// TestFoldedFindingsCount: 100 robots that break robots.txt, then 2,000
// ordinary clients under a cap of 1,000 tracked clients: the violators are
// folded into "other", and their violations, incidents and robots still
// count in the totals (--fail-on reads those), as without the cap.
func TestFoldedFindingsCount(t *testing.T) {
	rob := robots.ParseBytes([]byte("User-agent: *\nDisallow: /private/\n"))
	feed := func(maxClients int) *findings.Result {
		d := New(Config{Robots: rob, MaxClients: maxClients})
		at := t0
		for i := 0; i < 100; i++ {
			ip := fmt.Sprintf("203.0.113.%d", i)
			for j := 0; j < 3; j++ {
				d.Add(&logparse.Record{Client: ip, UserAgent: "BadBot/1.0", Time: at, Method: "GET", Target: fmt.Sprintf("/private/%d", j), Status: 200, Bytes: 10})
			}
			// One rapid-fire burst among them.
			if i == 0 {
				for k := 0; k < 40; k++ {
					d.Add(&logparse.Record{Client: ip, UserAgent: "BadBot/1.0", Time: at.Add(time.Duration(k) * 100 * time.Millisecond), Method: "GET", Target: "/p", Status: 200, Bytes: 10})
				}
			}
			at = at.Add(time.Second)
		}
		for i := 0; i < 2000; i++ {
			ua := "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0"
			ip := fmt.Sprintf("10.0.%d.%d", i/250, i%250)
			for j := 0; j < 2; j++ {
				d.Add(&logparse.Record{Client: ip, UserAgent: ua, Time: at, Method: "GET", Target: "/", Status: 200, Bytes: 10, Referer: "https://example.com/"})
			}
			at = at.Add(time.Second)
		}
		return d.Result()
	}
	whole, capped := feed(0), feed(1000)
	if whole.ViolationCount != 300 || whole.IncidentCount == 0 || whole.RobotCount < 100 {
		t.Fatalf("uncapped: %d violations, %d incidents, %d robots; the fixture should have 300, some, 100", whole.ViolationCount, whole.IncidentCount, whole.RobotCount)
	}
	if capped.Other.Clients == 0 {
		t.Fatal("nothing was folded: the fixture should overflow the cap")
	}
	if capped.ViolationCount != whole.ViolationCount || capped.IncidentCount != whole.IncidentCount || capped.RobotCount != whole.RobotCount {
		t.Errorf("capped: %d violations, %d incidents, %d robots; want %d, %d, %d as without the cap",
			capped.ViolationCount, capped.IncidentCount, capped.RobotCount, whole.ViolationCount, whole.IncidentCount, whole.RobotCount)
	}
	if capped.Other.Violations == 0 || capped.Other.Robots == 0 {
		t.Errorf("Other = %+v: the folded robots' findings are not said", capped.Other)
	}
	// What is counted and not listed is said, folded or not: the JSON's
	// violations = violations_listed + violations_unlisted.
	for _, tt := range []struct {
		name string
		res  *findings.Result
	}{{"uncapped", whole}, {"capped", capped}} {
		if n := int64(tt.res.Violations.Len()) + tt.res.ViolationsUnlisted; n != tt.res.ViolationCount {
			t.Errorf("%s: %d violations listed + %d unlisted != %d counted", tt.name, tt.res.Violations.Len(), tt.res.ViolationsUnlisted, tt.res.ViolationCount)
		}
		if n := len(tt.res.Incidents) + tt.res.IncidentsUnlisted; n != tt.res.IncidentCount {
			t.Errorf("%s: %d incidents listed + %d unlisted != %d counted", tt.name, len(tt.res.Incidents), tt.res.IncidentsUnlisted, tt.res.IncidentCount)
		}
	}
}

// TestFoldFreesTheViolationStore: the bound on the violations all clients
// together keep in full counts the rows actually held. A robot folded into
// "other" lets go of its rows, so the robots after it get their room and
// are listed in full, not only counted.
func TestFoldFreesTheViolationStore(t *testing.T) {
	rob := robots.ParseBytes([]byte("User-agent: *\nDisallow: /private/\n"))
	d := New(Config{Robots: rob, MaxClients: 20})
	d.checker.maxStored = 50
	at := t0
	add := func(ip, ua, path string) {
		d.Add(&logparse.Record{Client: ip, UserAgent: ua, Time: at, Method: "GET", Target: path, Status: 200})
		at = at.Add(time.Second)
	}
	for i := range 5 { // 50 violations: the store is full
		for j := range 10 {
			add(fmt.Sprintf("203.0.113.%d", i), "BadBot/1.0", fmt.Sprintf("/private/%d", j))
		}
	}
	for i := range 1000 { // light clients push the robots out
		add(fmt.Sprintf("10.0.%d.%d", i/250, i%250), firefoxUA, "/")
	}
	for j := range 10 {
		add("198.51.100.9", "BadBot/1.0", fmt.Sprintf("/private/late/%d", j))
	}
	res := d.Result()
	if res.Other.Violations != 50 || res.ViolationCount != 60 {
		t.Fatalf("other %d violations, %d in all; the fixture should fold the first 50 and count 60", res.Other.Violations, res.ViolationCount)
	}
	if got := len(res.Violations.Of("198.51.100.9", "BadBot/1.0", 100)); got != 10 {
		t.Errorf("the robot after the fold has %d of its 10 violations listed: the folded robots' rows still hold the store", got)
	}
}

// TestFoldLetsGoAtOnce: a client folded into "other" is let go of at once,
// not at the next sweep of the active clients: what it held (violations,
// robots.txt fetches, rate window, incidents) is released and nothing
// refers to it any more (the collector takes it), and its record is the
// next new client's, holding none of it.
func TestFoldLetsGoAtOnce(t *testing.T) {
	rob := robots.ParseBytes([]byte("User-agent: *\nDisallow: /private/\n"))
	d := New(Config{Robots: rob, MaxClients: 1})
	d.Add(&logparse.Record{Client: "192.0.2.1", UserAgent: "BadBot/1.0", Time: t0, Method: "GET", Target: "/robots.txt", Status: 200})
	for k := range 40 {
		d.Add(&logparse.Record{Client: "192.0.2.1", UserAgent: "BadBot/1.0", Time: t0.Add(time.Duration(k) * 100 * time.Millisecond),
			Method: "GET", Target: fmt.Sprintf("/private/%d", k), Status: 200})
	}
	c := d.clients.get("192.0.2.1", "BadBot/1.0")
	if c == nil || c.rare().viol == nil || c.rare().fetches == nil || c.rate.window == nil || d.sinceSweep == 0 {
		t.Fatal("the fixture holds no state to let go of, or was swept")
	}
	rare, win := weak.Make(c.x), c.rate.window
	d.Add(&logparse.Record{Client: "192.0.2.2", UserAgent: firefoxUA, Time: t0.Add(5 * time.Second), Method: "GET", Target: "/", Status: 200})
	if d.clients.get("192.0.2.1", "BadBot/1.0") != nil {
		t.Fatal("the fixture should fold the robot")
	}
	if n := d.clients.get("192.0.2.2", firefoxUA); n != c {
		t.Error("the new client did not take the folded client's record")
	}
	if c.x != nil || c.incidentCount() != 0 || c.requests != 1 || len(c.bins.list()) != 1 {
		t.Errorf("the new client holds the folded one's state: rare %v, incidents %v, %d requests, bins %d",
			c.x != nil, c.incidentCount() != 0, c.requests, len(c.bins.list()))
	}
	if len(d.active) != 1 || c.rate.window != win && !slices.Contains(d.th.pool.free, win) {
		t.Errorf("%d active clients; the folded client's window neither pooled nor reused", len(d.active))
	}
	c = nil
	runtime.GC()
	if rare.Value() != nil {
		t.Error("the folded client's violations and fetches are still referenced (until the next sweep)")
	}
	if res := d.Result(); res.Other.Incidents != 1 || res.Other.Violations != 40 {
		t.Errorf("other %+v: want its incident and 40 violations counted", res.Other)
	}
}

// TestPlainBrowserIsNoRobot: what plainBrowser lets the fold skip judging
// is never a robot, at its worst: an ancient browser, every request
// answered 404, just under the request and page thresholds; and it skips
// none that does what browsers do not (a HEAD without assets, HTTP/1.0
// beside 1.1).
func TestPlainBrowserIsNoRobot(t *testing.T) {
	const ancient = "Mozilla/5.0 (Windows NT 6.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/40.0.2214.115 Safari/537.36"
	cfg := Config{}.withDefaults()
	d := New(Config{})
	for i := 0; i < cfg.MinRequests-1; i++ {
		d.Add(&logparse.Record{Client: "192.0.2.1", UserAgent: ancient, Time: t0.Add(time.Duration(i) * time.Second), Method: "GET", Target: fmt.Sprintf("/p%d.html", i), Status: 404})
	}
	for _, r := range []logparse.Record{
		{Client: "192.0.2.2", UserAgent: ancient, Time: t0, Method: "HEAD", Target: "/doc.html", Status: 200},
		{Client: "192.0.2.3", UserAgent: ancient, Time: t0, Method: "GET", Target: "/doc.html", Protocol: "HTTP/1.0", Status: 200},
	} {
		d.Add(&r)
		if plainBrowser(d.clients.get(r.Client, ancient), &d.cfg) {
			t.Errorf("%s %s %s: skipped as a plain browser", r.Method, r.Target, r.Protocol)
		}
	}
	c := d.clients.get("192.0.2.1", ancient)
	if c == nil || !plainBrowser(c, &d.cfg) {
		t.Fatal("the fixture is not what plainBrowser skips")
	}
	j := judge(c, logTraits{hasUA: true, hasReferer: true}, &d.cfg)
	if j.robot() {
		t.Errorf("judged a robot (%v): plainBrowser must not skip it", j)
	}
	if c.ua.agent.Ancient(t0) == "" {
		t.Error("the browser is not ancient at the fixture's date: the fixture is too mild")
	}
}

// TestDistinctClientsUnderCap: 1,000 clients, each seen in two rounds under
// a cap of 100, are folded and come back: the count of distinct clients is
// about 1,000 and marked as an estimate, not tracked + folded (1,100).
// Without a cap, or when nothing is folded, the count is exact.
func TestDistinctClientsUnderCap(t *testing.T) {
	feed := func(maxClients int) *findings.Result {
		d := New(Config{MaxClients: maxClients})
		at := t0
		for round := 0; round < 2; round++ {
			for i := 0; i < 1000; i++ {
				d.Add(&logparse.Record{Client: fmt.Sprintf("10.1.%d.%d", i/250, i%250), UserAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
					Time: at, Method: "GET", Target: "/", Status: 200})
				at = at.Add(time.Second)
			}
		}
		return d.Result()
	}
	if r := feed(0); r.DistinctClients != 1000 || r.ClientsEstimated {
		t.Errorf("no cap: %d clients (estimated %v), want exactly 1000", r.DistinctClients, r.ClientsEstimated)
	}
	if r := feed(5000); r.DistinctClients != 1000 || r.ClientsEstimated {
		t.Errorf("a cap never reached: %d clients (estimated %v), want exactly 1000", r.DistinctClients, r.ClientsEstimated)
	}
	r := feed(100)
	if !r.ClientsEstimated || r.DistinctClients < 950 || r.DistinctClients > 1050 {
		t.Errorf("cap 100: %d clients (estimated %v), want about 1000, marked as an estimate", r.DistinctClients, r.ClientsEstimated)
	}
}
