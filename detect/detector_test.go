package detect

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

const (
	chromeUA  = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36"
	firefoxUA = "Mozilla/5.0 (X11; Linux x86_64; rv:122.0) Gecko/20100101 Firefox/122.0"
	curlUA    = "curl/8.4.0"
	googleUA  = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
)

var t0 = time.Date(2024, 3, 10, 12, 0, 0, 0, time.UTC)

// req is one hand-made log line.
type req struct {
	ip, ua  string
	sec     int // seconds after t0
	method  string
	path    string
	status  int
	referer string
	clf     bool   // a Common Log Format line: no User-agent or Referer field (leave ua and referer empty)
	noRef   bool   // a line whose layout logs the User-agent but no Referer (IIS 7's default fields; leave referer empty)
	proto   string // "HTTP/1.1" when empty
}

func (q req) record() *logparse.Record {
	m, st := q.method, q.status
	if m == "" {
		m = "GET"
	}
	if st == 0 {
		st = 200
	}
	proto := q.proto
	if proto == "" {
		proto = "HTTP/1.1"
	}
	return &logparse.Record{
		Client: q.ip, UserAgent: q.ua, Time: t0.Add(time.Duration(q.sec) * time.Second),
		Method: m, Target: q.path, Protocol: proto, Status: st, Bytes: 1000, Referer: q.referer,
		NoAgentField: q.clf, NoRefererField: q.noRef,
	}
}

func run(cfg Config, reqs []req) *findings.Result {
	d := New(cfg)
	for _, q := range reqs {
		d.Add(q.record())
	}
	return d.Result()
}

func verdictOf(t *testing.T, res *findings.Result, ip, ua string) findings.Verdict {
	t.Helper()
	for v := range res.Clients.All() {
		if v.IP == ip && v.UserAgent == ua {
			return v
		}
	}
	t.Fatalf("no client %s %q among %d", ip, ua, res.Clients.Len())
	return findings.Verdict{}
}

// browse is a person reading n pages, think seconds apart, each page
// pulling in its assets with the page as Referer within two seconds.
func browse(ip, ua string, start, n, think int) []req {
	var out []req
	ref := "https://www.google.com/"
	for i := 0; i < n; i++ {
		s := start + i*think
		page := fmt.Sprintf("/blog/post-%d", i)
		out = append(out, req{ip: ip, ua: ua, sec: s, path: page, referer: ref})
		ref = "https://www.example.com" + page
		for k, a := range []string{"/static/main.css", "/static/app.js", "/images/logo.svg", "/favicon.ico"} {
			out = append(out, req{ip: ip, ua: ua, sec: s + k/2, path: a, referer: ref})
		}
	}
	return out
}

// burst is n page requests, perSec per second, from start on.
func burst(ip, ua string, start, n, perSec int) []req {
	out := make([]req, n)
	for i := range out {
		out[i] = req{ip: ip, ua: ua, sec: start + i/perSec, path: fmt.Sprintf("/products/%d", i)}
	}
	return out
}

// paced is n page requests every gap seconds, with assets and referers,
// that alone would not make a robot.
func paced(ip, ua string, start, n, gap int) []req {
	return browse(ip, ua, start, n, gap)
}

func TestHumansAreNotFlagged(t *testing.T) {
	var reqs []req
	// A reader over an hour, with assets and referers.
	reqs = append(reqs, browse("10.0.0.1", chromeUA, 0, 60, 60)...)
	// A quick reader: a page every 5 s, 40 pages, each with assets.
	reqs = append(reqs, browse("10.0.0.2", firefoxUA, 0, 40, 5)...)
	// A page with 60 images loaded in one second.
	reqs = append(reqs, req{ip: "10.0.0.3", ua: chromeUA, sec: 100, path: "/gallery", referer: "https://t.co/"})
	for i := 0; i < 60; i++ {
		reqs = append(reqs, req{ip: "10.0.0.3", ua: chromeUA, sec: 101, path: fmt.Sprintf("/images/p%d.jpg", i), referer: "https://www.example.com/gallery"})
	}
	slices.SortStableFunc(reqs, func(a, b req) int { return a.sec - b.sec })
	res := run(Config{}, reqs)
	if res.Clients.Len() != 3 {
		t.Fatalf("clients = %d, want 3", res.Clients.Len())
	}
	for v := range res.Clients.All() {
		if v.Robot || v.Score != 0 || len(v.Reasons) != 0 {
			t.Errorf("%s judged robot=%v score=%d reasons=%v details=%v", v.IP, v.Robot, v.Score, v.Reasons, v.Details)
		}
	}
	if g := verdictOf(t, res, "10.0.0.3", chromeUA); g.Peak.Per1s != 60 {
		t.Errorf("gallery peak per 1 s = %d, want 60 (assets count in peaks)", g.Peak.Per1s)
	}
	if len(res.Incidents) != 0 {
		t.Errorf("incidents = %+v, want none", res.Incidents)
	}
}

func TestNATClientsAreSplitByUserAgent(t *testing.T) {
	// 30 people behind one address, each with their own browser build,
	// each opening pages at the same moments: together 30 pages a second,
	// but as clients every one of them is a paced human.
	var reqs []req
	for i := 0; i < 30; i++ {
		ua := strings.Replace(chromeUA, "120.0.0.0", fmt.Sprintf("120.0.%d.0", i), 1)
		reqs = append(reqs, browse("192.0.2.7", ua, 0, 8, 30)...)
	}
	slices.SortStableFunc(reqs, func(a, b req) int { return a.sec - b.sec })
	res := run(Config{}, reqs)
	if res.Clients.Len() != 30 {
		t.Fatalf("clients = %d, want 30 (one per User-agent)", res.Clients.Len())
	}
	if res.RobotCount != 0 || len(res.Incidents) != 0 {
		t.Errorf("robots = %d, incidents = %d; want none", res.RobotCount, len(res.Incidents))
	}
}

func TestPeaksAreSlidingWindows(t *testing.T) {
	// 8 requests at second 9 and 8 at second 10: calendar buckets of 10 s
	// would see 8 and 8, the sliding window sees 16.
	var reqs []req
	for i := 0; i < 8; i++ {
		reqs = append(reqs, req{ip: "10.1.0.1", ua: chromeUA, sec: 9, path: "/a.css", referer: "https://www.example.com/"})
		reqs = append(reqs, req{ip: "10.1.0.1", ua: chromeUA, sec: 10, path: "/b.css", referer: "https://www.example.com/"})
	}
	// and one request 59 s later: in the 60 s window of the first ones.
	reqs = append(reqs, req{ip: "10.1.0.1", ua: chromeUA, sec: 68, path: "/", referer: "https://www.example.com/"})
	res := run(Config{}, reqs)
	p := verdictOf(t, res, "10.1.0.1", chromeUA).Peak
	if p.Per1s != 8 || p.Per10s != 16 || p.Per60s != 17 {
		t.Errorf("peaks = %d/%d/%d, want 8/16/17", p.Per1s, p.Per10s, p.Per60s)
	}
	if want := t0.Add(9 * time.Second); !p.At1s.Equal(want) || !p.At10s.Equal(want) || !p.At60s.Equal(want) {
		t.Errorf("peak times = %v %v %v, want %v", p.At1s, p.At10s, p.At60s, want)
	}
}

func TestIncidents(t *testing.T) {
	ip := "203.0.113.9"
	cases := []struct {
		name string
		reqs []req
		want [][3]int // start, end (seconds after t0), requests
	}{
		{"burst at the very start", append(burst(ip, chromeUA, 0, 100, 50), paced(ip, chromeUA, 300, 5, 60)...),
			[][3]int{{0, 1, 100}}},
		{"burst at the very end", append(paced(ip, chromeUA, 0, 5, 60), burst(ip, chromeUA, 400, 90, 30)...),
			[][3]int{{400, 402, 90}}},
		// Worst first: 40 in one second (severity 39 × 20) before 60
		// in three seconds at 20 a second (57 × 10).
		{"two bursts with a gap", append(burst(ip, chromeUA, 100, 60, 20), burst(ip, chromeUA, 300, 40, 40)...),
			[][3]int{{300, 300, 40}, {100, 102, 60}}},
		{"one burst, paced", burst(ip, chromeUA, 50, 30, 1),
			nil}, // 1 request a second for 30 s: under both thresholds
		{"sustained one a second", burst(ip, chromeUA, 0, 120, 1),
			[][3]int{{0, 119, 120}}},
		{"exactly at the burst threshold is not above it", burst(ip, chromeUA, 0, 20, 20),
			nil},
		{"just above the burst threshold", burst(ip, chromeUA, 0, 21, 20),
			[][3]int{{0, 1, 21}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := run(Config{}, tc.reqs)
			var got [][3]int
			for _, in := range res.Incidents {
				got = append(got, [3]int{int(in.Start.Sub(t0) / time.Second), int(in.End.Sub(t0) / time.Second), int(in.Requests)})
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("incidents = %v, want %v", got, tc.want)
			}
			v := verdictOf(t, res, ip, chromeUA)
			if wantRobot := len(tc.want) > 0; v.Robot != wantRobot || slices.Contains(v.Reasons, findings.ReasonRate) != wantRobot {
				t.Errorf("robot = %v reasons %v, want robot %v by rate", v.Robot, v.Reasons, wantRobot)
			}
		})
	}
}

func TestIncidentDetail(t *testing.T) {
	ip := "203.0.113.10"
	var reqs []req
	for i := 0; i < 60; i++ {
		st := 200
		if i%4 == 0 {
			st = 404
		}
		reqs = append(reqs, req{ip: ip, ua: curlUA, sec: 10 + i/30, path: fmt.Sprintf("/p/%d", i%25), status: st})
	}
	res := run(Config{}, reqs)
	if len(res.Incidents) != 1 {
		t.Fatalf("incidents = %+v", res.Incidents)
	}
	in := res.Incidents[0]
	want := findings.Incident{IP: ip, UserAgent: curlUA, Name: in.Name, Start: t0.Add(10 * time.Second), End: t0.Add(11 * time.Second),
		Seconds: 2, Requests: 60, PeakPerSecond: 30, Paths: 25, Bytes: 60000, Status: findings.StatusMix{S2xx: 45, S4xx: 15}, PerSecond: []int{30, 30},
		Severity: (60 - 2) * 15, // 58 requests above 1 a second, a peak 15 times the burst pace of 2 a second
		Verdict:  "curl"}
	if !reflect.DeepEqual(in, want) {
		t.Errorf("incident\n got %+v\nwant %+v", in, want)
	}
}

func TestOutOfOrderTimes(t *testing.T) {
	ip := "198.51.100.4"
	ordered := append(paced(ip, chromeUA, 0, 3, 60), burst(ip, chromeUA, 200, 80, 40)...)
	ordered = append(ordered, paced(ip, chromeUA, 400, 3, 60)...)
	other := browse("10.9.9.9", firefoxUA, 0, 20, 30)
	ordered = append(ordered, other...)
	slices.SortStableFunc(ordered, func(a, b req) int { return a.sec - b.sec })
	want := run(Config{}, ordered)

	// The same lines, each written up to 50 s late as a log sorted per
	// minute only would have them.
	rng := rand.New(rand.NewPCG(1, 2))
	shuffled := ordered
	keys := make([]int, len(shuffled))
	for i := range shuffled {
		keys[i] = shuffled[i].sec + rng.IntN(50)
	}
	idx := make([]int, len(shuffled))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return keys[a] - keys[b] })
	disordered := make([]req, len(idx))
	for i, j := range idx {
		disordered[i] = shuffled[j]
	}
	if slices.Equal(disordered, ordered) {
		t.Fatal("test setup: shuffle left the order")
	}
	if len(want.Incidents) != 1 {
		t.Fatalf("test setup: in order, incidents = %+v, want one", want.Incidents)
	}
	got := run(Config{}, disordered)
	if tight := run(Config{ReorderTolerance: time.Second}, disordered); tight.LateRecords == 0 {
		t.Error("with a 1 s tolerance no record was late: the test does not disorder")
	}
	if got.LateRecords != 0 {
		t.Errorf("late records = %d, want 0 within the tolerance", got.LateRecords)
	}
	if !reflect.DeepEqual(got.Incidents, want.Incidents) {
		t.Errorf("incidents out of order = %+v\nin order = %+v", got.Incidents, want.Incidents)
	}
	for i := range want.Clients.Len() {
		g, w := got.Clients.At(i), want.Clients.At(i)
		if g.Peak != w.Peak || g.Requests != w.Requests {
			t.Errorf("client %s: out of order %+v, in order %+v", w.IP, g.Peak, w.Peak)
		}
	}
}

func TestRecordsBeyondTheToleranceAreCountedLate(t *testing.T) {
	reqs := paced("10.2.0.1", chromeUA, 0, 5, 60)
	reqs = append(reqs, req{ip: "10.2.0.1", ua: chromeUA, sec: 1000, path: "/"})
	reqs = append(reqs, req{ip: "10.2.0.1", ua: chromeUA, sec: 10, path: "/very-late"})
	res := run(Config{}, reqs)
	v := verdictOf(t, res, "10.2.0.1", chromeUA)
	if res.LateRecords != 1 || v.Requests != int64(len(reqs)) {
		t.Errorf("late = %d, requests = %d; want 1 and %d", res.LateRecords, v.Requests, len(reqs))
	}
	if !v.First.Equal(t0) {
		t.Errorf("first = %v, want %v", v.First, t0)
	}
}

func TestRobotsTxtFetch(t *testing.T) {
	cases := []struct {
		name      string
		reqs      []req
		robot     bool
		score     int
		fetchesIP string
	}{
		{"a client that reads robots.txt and pages", append([]req{{ip: "10.3.0.1", ua: chromeUA, path: "/robots.txt"}},
			req{ip: "10.3.0.1", ua: chromeUA, sec: 5, path: "/about"}), true, 100, "10.3.0.1"},
		{"robots.txt only, twice, 404", []req{{ip: "10.3.0.1", ua: chromeUA, path: "/robots.txt", status: 404},
			{ip: "10.3.0.1", ua: chromeUA, sec: 3600, path: "/robots.txt", status: 404}}, true, 100, "10.3.0.1"},
		{"a person opening robots.txt in a browser that loads pages and assets",
			append(browse("10.3.0.1", chromeUA, 0, 3, 40), req{ip: "10.3.0.1", ua: chromeUA, sec: 200, path: "/robots.txt"}),
			false, pointsRobotsTxtPerson, "10.3.0.1"},
		{"a person opening robots.txt, then a feed and its images", []req{
			{ip: "10.3.0.1", ua: chromeUA, path: "/robots.txt"},
			{ip: "10.3.0.1", ua: chromeUA, sec: 8, path: "/feed.xml", referer: "https://duckduckgo.com/"},
			{ip: "10.3.0.1", ua: chromeUA, sec: 8, path: "/images/a.jpg", referer: "https://www.example.com/feed.xml"}},
			false, pointsRobotsTxtPerson, "10.3.0.1"},
		{"robots.txt and assets only", []req{
			{ip: "10.3.0.1", ua: chromeUA, path: "/robots.txt"},
			{ip: "10.3.0.1", ua: chromeUA, sec: 8, path: "/images/a.jpg"}},
			true, pointsRobotsTxt, "10.3.0.1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := run(Config{}, tc.reqs)
			v := verdictOf(t, res, tc.fetchesIP, chromeUA)
			if v.Robot != tc.robot || v.Score != tc.score || !slices.Equal(v.Reasons, []string{findings.ReasonRobotsTxt}) {
				t.Errorf("robot=%v score=%d reasons=%v details=%v; want %v %d [robots-txt]", v.Robot, v.Score, v.Reasons, v.Details, tc.robot, tc.score)
			}
			n := 0
			for _, q := range tc.reqs {
				if q.path == "/robots.txt" {
					n++
				}
			}
			if v.RobotsTxtFetches != int64(n) {
				t.Errorf("robots.txt fetches = %d, want %d", v.RobotsTxtFetches, n)
			}
		})
	}
	res := run(Config{}, []req{{ip: "10.3.0.9", ua: chromeUA, path: "/robots.txt", status: 404}, {ip: "10.3.0.9", ua: chromeUA, sec: 9, path: "/robots.txt", status: 404}})
	if d := verdictOf(t, res, "10.3.0.9", chromeUA).Details; len(d) != 1 || !strings.Contains(d[0], "2 times (404 × 2)") {
		t.Errorf("details = %q, want the fetch count with its status", d)
	}
}

func TestBehaviour(t *testing.T) {
	ip := "10.4.0.1"
	pages := func(n int, method string, status int, referer string, assets bool) []req {
		var out []req
		for i := 0; i < n; i++ {
			out = append(out, req{ip: ip, ua: chromeUA, sec: i * 30, method: method, path: fmt.Sprintf("/doc/%d.html", i), status: status, referer: referer})
			if assets {
				out = append(out, req{ip: ip, ua: chromeUA, sec: i*30 + 1, path: "/site.css", referer: "https://www.example.com/"})
			}
		}
		return out
	}
	ref := "https://www.example.com/"
	// Another client sends Referers, so the log records them.
	withRefs := func(r []req) []req {
		return append(r, browse("10.4.9.9", firefoxUA, 0, 1, 1)...)
	}
	cases := []struct {
		name  string
		reqs  []req
		robot bool
		score int
	}{
		{"pages, no assets, never a Referer", withRefs(pages(12, "GET", 200, "", false)), true, pointsNoAssets + pointsNoReferer},
		{"pages, no assets, with Referers", withRefs(pages(12, "GET", 200, ref, false)), false, pointsNoAssets},
		{"pages with assets, never a Referer", withRefs(pages(12, "GET", 200, "", true)), false, 0},
		{"too few pages to tell", withRefs(pages(9, "GET", 200, "", false)), false, 0},
		{"no Referer in a log that records none", pages(12, "GET", 200, "", true), false, 0},
		{"mostly HEAD", withRefs(pages(12, "HEAD", 200, ref, true)), false, 0}, // half the requests are assets by GET
		{"only HEAD", withRefs(pages(12, "HEAD", 200, ref, false)), true, pointsMostlyHead + pointsNoAssets},
		{"404 spree with assets", withRefs(pages(12, "GET", 404, ref, false)), true, pointsMostlyErrors + pointsNoAssets},
		{"few errors", withRefs(pages(5, "GET", 404, ref, true)), false, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := run(Config{}, tc.reqs)
			v := verdictOf(t, res, ip, chromeUA)
			if v.Robot != tc.robot || v.Score != tc.score {
				t.Errorf("robot=%v score=%d details=%v; want %v %d", v.Robot, v.Score, v.Details, tc.robot, tc.score)
			}
			if wantReason := tc.score > 0; slices.Contains(v.Reasons, findings.ReasonBehaviour) != wantReason {
				t.Errorf("reasons = %v", v.Reasons)
			}
		})
	}
}

func TestJudgeUserAgentKinds(t *testing.T) {
	// The classifier's kinds, each alone on a client that otherwise
	// behaves like a person.
	cases := []struct {
		kind   agents.Kind
		hasUA  bool
		common bool // the client's lines were Common Log Format: no User-agent field
		robot  bool
		score  int
	}{
		{agents.Browser, true, false, false, 0},
		{agents.Unknown, true, false, true, pointsUnknownUA},
		{agents.Suspicious, true, false, true, pointsSuspiciousUA},
		{agents.Empty, true, false, true, pointsEmptyUA},
		{agents.Empty, false, false, false, 0}, // a log without User-agents says nothing
		{agents.Empty, true, true, false, 0},   // nor do its Common lines in a log that switched to combined
		{agents.Tool, true, false, true, pointsDeclared},
		{agents.Crawler, true, false, true, pointsDeclared},
	}
	for _, tc := range cases {
		c := &client{ua: &agentInfo{agent: &agents.Agent{Name: "x", Kind: tc.kind}}, requests: 3, pages: 1, assets: 2, referers: 3}
		if !tc.common {
			c.flags |= flagAgentField
		}
		cfg := Config{}.withDefaults()
		j := judge(c, logTraits{hasUA: tc.hasUA, hasReferer: true}, &cfg)
		if j.robot() != tc.robot || j.score != tc.score {
			t.Errorf("kind %v hasUA %v: robot=%v score=%d, want %v %d", tc.kind, tc.hasUA, j.robot(), j.score, tc.robot, tc.score)
		}
		if (tc.score > 0) != slices.Equal(j.reasons, []string{findings.ReasonUserAgent}) {
			t.Errorf("kind %v: reasons %v", tc.kind, j.reasons)
		}
	}
}

func TestEmptyUserAgent(t *testing.T) {
	reqs := append(browse("10.5.0.1", chromeUA, 0, 2, 30), req{ip: "10.5.0.2", ua: "", sec: 5, path: "/"})
	res := run(Config{}, reqs)
	if v := verdictOf(t, res, "10.5.0.2", ""); !v.Robot || !slices.Equal(v.Reasons, []string{findings.ReasonUserAgent}) {
		t.Errorf("empty UA: robot=%v reasons=%v", v.Robot, v.Reasons)
	}
	// Common Log Format: nobody has a User-agent, and that is no evidence.
	var clf []req
	for _, q := range browse("10.5.0.3", "", 0, 5, 30) {
		q.referer = ""
		clf = append(clf, q)
	}
	if v := verdictOf(t, run(Config{}, clf), "10.5.0.3", ""); v.Robot || v.Score != 0 {
		t.Errorf("CLF client: robot=%v score=%d details=%v", v.Robot, v.Score, v.Details)
	}
}

func TestDeclaredUserAgents(t *testing.T) {
	if (&agents.Classifier{}).Classify(curlUA).Kind == agents.Browser {
		t.Skip("the User-agent classifier is still a stub")
	}
	reqs := []req{{ip: "10.6.0.1", ua: curlUA, path: "/"}, {ip: "10.6.0.2", ua: googleUA, path: "/"}}
	res := run(Config{}, append(reqs, browse("10.6.0.3", chromeUA, 0, 3, 30)...))
	for _, q := range reqs {
		if v := verdictOf(t, res, q.ip, q.ua); !v.Robot || !slices.Contains(v.Reasons, findings.ReasonUserAgent) {
			t.Errorf("%s: robot=%v reasons=%v", q.ua, v.Robot, v.Reasons)
		}
	}
	if v := verdictOf(t, res, "10.6.0.3", chromeUA); v.Robot {
		t.Errorf("Chrome judged a robot: %v", v.Details)
	}
}

func TestOrderIsDeterministic(t *testing.T) {
	reqs := []req{
		{ip: "10.7.0.2", ua: "b", path: "/"}, {ip: "10.7.0.1", ua: "b", path: "/"},
		{ip: "10.7.0.1", ua: "a", path: "/"}, {ip: "10.7.0.3", ua: "a", path: "/"}, {ip: "10.7.0.3", ua: "a", path: "/x"},
	}
	res := run(Config{}, reqs)
	var got []string
	for v := range res.Clients.All() {
		got = append(got, v.IP+" "+v.UserAgent)
	}
	want := []string{"10.7.0.3 a", "10.7.0.1 a", "10.7.0.1 b", "10.7.0.2 b"}
	if !slices.Equal(got, want) {
		t.Errorf("order = %q, want %q", got, want)
	}
}

func TestJSONContractNames(t *testing.T) {
	reqs := append(burst("10.8.0.1", chromeUA, 0, 50, 50), req{ip: "10.8.0.1", ua: chromeUA, path: "/robots.txt"})
	res := run(Config{}, reqs)
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	has := func(where string, obj any, keys ...string) {
		o, ok := obj.(map[string]any)
		if !ok {
			t.Fatalf("%s is %T", where, obj)
		}
		for _, k := range keys {
			if _, ok := o[k]; !ok {
				t.Errorf("%s lacks %q", where, k)
			}
		}
	}
	for _, k := range []string{"clients", "robots", "violations", "incidents"} {
		if _, ok := m[k].([]any); !ok {
			t.Errorf("%q is %T, want a list", k, m[k])
		}
	}
	c := m["clients"].([]any)[0]
	has("client", c, "ip", "user_agent", "robot", "name", "score", "reasons", "requests", "robots_txt_fetches", "violations", "first", "last", "peak")
	has("peak", c.(map[string]any)["peak"], "per_1s", "per_10s", "per_60s")
	has("robot", m["robots"].([]any)[0], "name", "clients", "requests", "violations", "fetched_robots_txt")
	has("incident", m["incidents"].([]any)[0], "ip", "user_agent", "start", "end", "requests", "peak_per_second", "paths")
	if first := c.(map[string]any)["first"].(string); first != "2024-03-10T12:00:00Z" {
		t.Errorf("first = %q, want RFC 3339", first)
	}
	v, err := json.Marshal(findings.Violation{})
	if err != nil {
		t.Fatal(err)
	}
	var vm map[string]any
	json.Unmarshal(v, &vm)
	has("violation", vm, "ip", "user_agent", "name", "time", "method", "path", "status", "group", "rule", "line")
}

func TestIdleClientsReleaseTheirBuffers(t *testing.T) {
	d := New(Config{})
	for _, q := range browse("10.9.0.1", chromeUA, 0, 3, 10) {
		d.Add(q.record())
	}
	// Another client keeps the log going for an hour.
	for _, q := range burst("10.9.0.2", chromeUA, 100, 3600, 1) {
		d.Add(q.record())
	}
	d.sweep()
	c := d.clients.get("10.9.0.1", chromeUA)
	if c.rate.window != nil {
		t.Errorf("idle client keeps its window: %d seconds and %d paths", len(c.rate.secs), len(c.rate.paths))
	}
	busy := d.clients.get("10.9.0.2", chromeUA)
	if n := len(busy.rate.secs); n > 130 {
		t.Errorf("busy client keeps %d seconds, want those of the last two minutes", n)
	}
}

func TestMaxClientsFoldsTheRest(t *testing.T) {
	d := New(Config{MaxClients: 10})
	for i := 0; i < 1000; i++ {
		d.Add(req{ip: fmt.Sprintf("10.10.%d.%d", i/250, i%250), ua: chromeUA, sec: i, path: "/"}.record())
	}
	res := d.Result()
	if res.Clients.Len() != 10 || res.Other.Requests != 990 || res.Records != 1000 {
		t.Errorf("clients %d, other %+v, records %d", res.Clients.Len(), res.Other, res.Records)
	}
	if res.Other.Clients < 960 || res.Other.Clients > 1020 {
		t.Errorf("folded clients estimated %d, want about 990", res.Other.Clients)
	}
}

func TestRequestPathAndClassify(t *testing.T) {
	cases := []struct {
		target, path string
		res          resource
		prefix       string
	}{
		{"/", "/", resourcePage, "/"},
		{"/robots.txt", "/robots.txt", resourceRobotsTxt, "/robots.txt"},
		{"/robots.txt?x=1", "/robots.txt?x=1", resourceRobotsTxt, "/robots.txt"},
		{"http://example.com/robots.txt", "/robots.txt", resourceRobotsTxt, "/robots.txt"},
		{"https://example.com", "/", resourcePage, "/"},
		{"/admin/users?page=2", "/admin/users?page=2", resourcePage, "/admin/"},
		{"/static/app.3f9a1c.JS", "/static/app.3f9a1c.JS", resourceAsset, "/static/"},
		{"/img/a.webp?v=2", "/img/a.webp?v=2", resourceAsset, "/img/"},
		{"/index.php?id=4", "/index.php?id=4", resourcePage, "/index.php"},
		{"/feed.xml", "/feed.xml", resourceOther, "/feed.xml"},
		{"/search?q=a.css", "/search?q=a.css", resourcePage, "/search"},
		{"*", "*", resourcePage, "*"},
	}
	for _, tc := range cases {
		p := (&logparse.Record{Target: tc.target}).Path()
		if p != tc.path || classify(p) != tc.res || pathPrefix(p) != tc.prefix {
			t.Errorf("%q: path %q class %d prefix %q; want %q %d %q", tc.target, p, classify(p), pathPrefix(p), tc.path, tc.res, tc.prefix)
		}
	}
}

func TestFastFormPosts(t *testing.T) {
	ip := "23.254.164.173"
	form := func(ua string, gap int, assets bool) []req {
		out := []req{
			{ip: ip, ua: ua, sec: 0, path: "/places", referer: "http://howto.example.nl/"},
			{ip: ip, ua: ua, sec: 1, path: "/join_form", referer: "http://howto.example.nl/"},
		}
		if assets {
			out = append(out, req{ip: ip, ua: ua, sec: 1, path: "/site.css", referer: "http://howto.example.nl/join_form"})
		}
		return append(out, req{ip: ip, ua: ua, sec: 1 + gap, method: "POST", path: "/join_form", status: 302, referer: "http://howto.example.nl/join_form"})
	}
	cases := []struct {
		name  string
		reqs  []req
		robot bool
		score int
	}{
		{"form posted a second after it came, no assets", form(chromeUA, 1, false), true, pointsFastForm},
		{"form posted at once by a browser that loads assets", form(chromeUA, 0, true), false, pointsFastFormAssets},
		{"form filled in for half a minute", form(chromeUA, 30, false), false, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := verdictOf(t, run(Config{}, tc.reqs), ip, chromeUA)
			if v.Robot != tc.robot || v.Score != tc.score || (tc.score > 0) != slices.Equal(v.Reasons, []string{findings.ReasonBehaviour}) {
				t.Errorf("robot=%v score=%d reasons=%v details=%q; want %v %d", v.Robot, v.Score, v.Reasons, v.Details, tc.robot, tc.score)
			}
		})
	}
}

func TestLogWithoutTimesHasNoRates(t *testing.T) {
	d := New(Config{})
	for i := 0; i < 100; i++ {
		r := req{ip: "10.30.0.1", ua: chromeUA, path: fmt.Sprintf("/p/%d", i), referer: "https://www.example.com/"}.record()
		r.Time = time.Time{}
		d.Add(r)
		a := req{ip: "10.30.0.1", ua: chromeUA, path: "/a.css", referer: "https://www.example.com/"}.record()
		a.Time = time.Time{}
		d.Add(a)
	}
	res := d.Result()
	if v := res.Clients.At(0); v.Robot || len(res.Incidents) != 0 || v.Requests != 200 {
		t.Errorf("robot=%v incidents=%d requests=%d details=%q", v.Robot, len(res.Incidents), v.Requests, v.Details)
	}
}

// TestSeverity: requests above the sustained pace, times the peak's
// multiple of the burst pace; never under 1.
func TestSeverity(t *testing.T) {
	cfg := Config{}.withDefaults()
	tests := []struct {
		requests, seconds, peak, want int64
	}{
		{353, 4, 101, (353 - 4) * 50},
		{61, 60, 2, 1},   // a crawler just over the sustained pace: 1 request over, peak at the burst pace
		{120, 120, 1, 1}, // exactly the sustained pace for two minutes: over the threshold, nothing above the pace
		{21, 2, 11, 19 * 5},
	}
	for _, tt := range tests {
		if got := severity(tt.requests, tt.seconds, tt.peak, &cfg); got != tt.want {
			t.Errorf("severity(%d requests, %d s, peak %d) = %d, want %d", tt.requests, tt.seconds, tt.peak, got, tt.want)
		}
	}
}
