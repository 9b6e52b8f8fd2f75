package detect

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/robots"
)

// recorder keeps the events a Detector sends, in order, as one line each.
type recorder struct {
	lines      []string
	robots     []findings.Verdict
	violations []findings.Violation
	incidents  []findings.Incident
	ends       []findings.Incident
}

func (r *recorder) Robot(v findings.Verdict) {
	r.robots = append(r.robots, v)
	r.lines = append(r.lines, "robot "+v.IP+" "+v.Name)
}

func (r *recorder) Violation(v findings.Violation) {
	r.violations = append(r.violations, v)
	r.lines = append(r.lines, fmt.Sprintf("violation %s %s %s line %d", v.IP, v.Path, v.Rule, v.Line))
}

func (r *recorder) Incident(in findings.Incident) {
	r.incidents = append(r.incidents, in)
	r.lines = append(r.lines, "incident "+in.IP)
}

func (r *recorder) IncidentEnd(in findings.Incident) {
	r.ends = append(r.ends, in)
	r.lines = append(r.lines, "incident_end "+in.IP)
}

func (r *recorder) mark(s string) { r.lines = append(r.lines, s) }

// TestEventsComeAsTheyAreFound feeds records one by one and asserts what
// Events was told after each: a live run must not wait for the end.
func TestEventsComeAsTheyAreFound(t *testing.T) {
	rec := &recorder{}
	rb := robots.ParseBytes([]byte("User-agent: *\nDisallow: /private/\n"))
	d := New(Config{Robots: rb, Events: rec})
	add := func(q req) { d.Add(q.record()) }

	// A person browsing: no event.
	for _, q := range browse("10.0.0.1", chromeUA, 0, 3, 5) {
		add(q)
	}
	if len(rec.lines) != 0 {
		t.Fatalf("a person made events: %q", rec.lines)
	}

	// A crawler: a robot at its first request, its violations as they come.
	add(req{ip: "10.0.0.2", ua: curlUA, sec: 20, path: "/robots.txt"})
	if len(rec.robots) != 1 || rec.robots[0].IP != "10.0.0.2" || !rec.robots[0].Robot {
		t.Fatalf("after the crawler's first request: %q", rec.lines)
	}
	add(req{ip: "10.0.0.2", ua: curlUA, sec: 21, path: "/private/a"})
	if len(rec.violations) != 1 || rec.violations[0].Rule != "Disallow: /private/" || rec.violations[0].Line != 2 ||
		rec.violations[0].Name != rec.robots[0].Name || rec.violations[0].Group != "*" {
		t.Fatalf("after its disallowed request: %+v", rec.violations)
	}

	// A client judged a robot only later tells its earlier violations
	// right after its robot event: an unknown browser that fetches
	// robots.txt after a disallowed page.
	add(req{ip: "10.0.0.3", ua: chromeUA, sec: 22, path: "/private/b", referer: "https://www.example.com/"})
	add(req{ip: "10.0.0.3", ua: chromeUA, sec: 22, path: "/style.css", referer: "https://www.example.com/private/b"})
	if n := len(rec.robots); n != 1 {
		t.Fatalf("a browser with assets was announced a robot: %q", rec.lines)
	}
	add(req{ip: "10.0.0.3", ua: chromeUA, sec: 23, path: "/robots.txt"})
	add(req{ip: "10.0.0.3", ua: chromeUA, sec: 24, path: "/private/c"})
	// A browser loading pages and assets that reads robots.txt is a
	// person (20 points): still no event.
	if n := len(rec.robots); n != 1 {
		t.Fatalf("robots after the person read robots.txt: %q", rec.lines)
	}

	// A burst: the incident is told when its requests cross the threshold,
	// long before its seconds are final (ReorderTolerance, 60 s).
	rec.mark("burst")
	for i := range 25 {
		add(req{ip: "10.0.0.4", ua: curlUA, sec: 30 + i/5, path: fmt.Sprintf("/p/%d", i)})
		if i == 20 {
			// 21 page requests in 10 s: over the default burst of 20.
			if len(rec.incidents) != 1 {
				t.Fatalf("no incident after 21 requests in 5 s: %q", rec.lines)
			}
		}
	}
	in := rec.incidents[0]
	if in.IP != "10.0.0.4" || in.Requests < 21 || in.Start != t0.Add(30*time.Second) || len(rec.ends) != 0 {
		t.Fatalf("incident event %+v, ends %d", in, len(rec.ends))
	}

	// The log goes quiet: Advance closes the incident, once.
	d.Advance(3 * time.Minute)
	if len(rec.ends) != 1 || rec.ends[0].Requests != 25 || rec.ends[0].End != t0.Add(34*time.Second) {
		t.Fatalf("after 3 quiet minutes: ends %+v", rec.ends)
	}
	res := d.Result()
	if len(rec.incidents) != 1 || len(rec.ends) != 1 || res.IncidentCount != 1 {
		t.Errorf("incidents told %d, ended %d; result %d", len(rec.incidents), len(rec.ends), res.IncidentCount)
	}
	// Every robot of the result was told, once.
	if got, want := len(rec.robots), res.RobotCount; got != want {
		t.Errorf("robot events %d, robots in the result %d: %q", got, want, rec.lines)
	}
	if got, want := int64(len(rec.violations)), res.ViolationCount; got != want {
		t.Errorf("violation events %d, violations in the result %d", got, want)
	}
	live := d.Live()
	if live.Robots != int64(res.RobotCount) || live.Incidents != 1 || live.OpenIncidents != 0 || live.Records != res.Records {
		t.Errorf("Live %+v, result robots %d", live, res.RobotCount)
	}
}

// TestEventsAtTheEnd: what only the whole traffic shows (a page-only
// client without a Referer) is told at Result, before it returns.
func TestEventsAtTheEnd(t *testing.T) {
	rec := &recorder{}
	d := New(Config{Events: rec})
	for i := range 12 {
		d.Add(req{ip: "10.0.1.1", ua: chromeUA, sec: i * 30, path: fmt.Sprintf("/article/%d", i)}.record())
	}
	d.Add(req{ip: "10.0.1.2", ua: chromeUA, sec: 400, path: "/", referer: "https://example.org/"}.record())
	d.Result()
	if len(rec.robots) != 1 || rec.robots[0].IP != "10.0.1.1" {
		t.Fatalf("robot events %q", rec.lines)
	}
	if !strings.Contains(strings.Join(rec.robots[0].Reasons, ","), findings.ReasonBehaviour) {
		t.Errorf("reasons %v", rec.robots[0].Reasons)
	}
}

// TestExpireFoldsIdleClients: a follow run of weeks keeps the clients of
// the last Expire; the others are in Other, counted.
func TestExpireFoldsIdleClients(t *testing.T) {
	d := New(Config{Expire: time.Hour, MaxClients: 100})
	for i := range 50 {
		d.Add(req{ip: fmt.Sprintf("10.0.2.%d", i), ua: chromeUA, sec: i, path: "/"}.record())
	}
	d.Add(req{ip: "10.0.3.1", ua: chromeUA, sec: 2 * 3600, path: "/"}.record())
	d.Advance(0)
	if n := d.clients.len(); n != 1 {
		t.Fatalf("%d clients tracked after two idle hours, want 1", n)
	}
	for i := range 10 {
		d.Add(req{ip: fmt.Sprintf("10.0.4.%d", i), ua: chromeUA, sec: 2*3600 + i, path: "/"}.record())
	}
	res := d.Result()
	if res.Records != 61 || res.Other.Requests != 50 || d.live.expired != 50 {
		t.Errorf("records %d, other %+v, expired %d", res.Records, res.Other, d.live.expired)
	}
	if res.Clients.Len() != 11 {
		t.Errorf("%d clients listed, want 11", res.Clients.Len())
	}
}

// TestEventsBurstUnderBrowserName: a scraper under a browser's name,
// found only by its pace, is told a robot while its burst is on (it was
// told only at the end of the run: a live view showed no robot), and its
// violations come with it.
func TestEventsBurstUnderBrowserName(t *testing.T) {
	rec := &recorder{}
	rb := robots.ParseBytes([]byte("User-agent: *\nDisallow: /private/\n"))
	d := New(Config{Robots: rb, Events: rec})
	for i := range 60 {
		d.Add(req{ip: "90.32.98.73", ua: chromeUA, sec: i / 15, path: fmt.Sprintf("/private/%d", i)}.record())
	}
	if len(rec.incidents) != 1 {
		t.Fatalf("incident events %d: %q", len(rec.incidents), rec.lines)
	}
	if len(rec.robots) != 1 || rec.robots[0].IP != "90.32.98.73" {
		t.Fatalf("robot events while the burst is on: %q", rec.lines)
	}
	if len(rec.violations) != 60 {
		t.Errorf("violation events %d, want 60", len(rec.violations))
	}
	if live := d.Live(); live.Robots != 1 {
		t.Errorf("Live robots %d, want 1", live.Robots)
	}
}
