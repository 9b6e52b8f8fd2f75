package detect

import (
	"testing"
	"time"

	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/robots"
)

// edgeFor is the edge Result gives the client ip, ua; ok false for none.
func edgeFor(d *Detector, ip, ua string) (delayMs int64, ok bool) {
	for _, e := range d.Result().Edges {
		if e.IP == ip && e.UserAgent == ua {
			return e.HeadDelayMs, true
		}
	}
	return 0, false
}

// A Crawl-delay for every robot is common: a client that comes once under
// it keeps no clientRare for it, and its edge still has the delay.
func TestOneRequestUnderCrawlDelayKeepsNoRare(t *testing.T) {
	rb := robots.ParseBytes([]byte("User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n"))
	d := New(Config{Robots: rb})
	t0 := time.Date(2024, 3, 10, 12, 0, 0, 0, time.UTC)
	for _, ua := range []string{firefoxUA, "BadBot/1.0"} {
		d.Add(&logparse.Record{Client: "192.0.2.1", UserAgent: ua, Time: t0, Method: "GET", Target: "/", Status: 200})
		c := d.clients.get("192.0.2.1", ua)
		if c == nil || c.x != nil {
			t.Fatalf("%s: client %v: want one without a clientRare", ua, c)
		}
	}
	if ms, ok := edgeFor(d, "192.0.2.1", "BadBot/1.0"); !ok || ms != 2000 {
		t.Errorf("edge's head delay %d ms (edge %v), want 2000", ms, ok)
	}
}

// The delay over the first request is the first matcher's, after the
// client's requests went to a host whose robots.txt gives another.
func TestHeadDelayOutlivesItsMatcher(t *testing.T) {
	www := robots.ParseBytes([]byte("User-agent: *\nCrawl-delay: 2\n"))
	shop := robots.ParseBytes([]byte("User-agent: *\nCrawl-delay: 7\n"))
	d := New(Config{Robots: www, RobotsByHost: map[string]*robots.Robots{"shop.example.com": shop}})
	t0 := time.Date(2024, 3, 10, 12, 0, 0, 0, time.UTC)
	for i, host := range []string{"www.example.com", "shop.example.com", "shop.example.com"} {
		d.Add(&logparse.Record{Client: "192.0.2.1", UserAgent: "BadBot/1.0", VHost: host, Time: t0.Add(time.Duration(i) * 20 * time.Second),
			Method: "GET", Target: "/", Status: 200})
	}
	if ms, ok := edgeFor(d, "192.0.2.1", "BadBot/1.0"); !ok || ms != 2000 {
		t.Errorf("edge's head delay %d ms (edge %v), want 2000", ms, ok)
	}
}

// A connection without a request line (a TLS handshake, a 408) keeps no
// clientRare; once the client sends a request, its junk is counted there.
func TestJunkKeepsNoRareUntilARequest(t *testing.T) {
	d := New(Config{})
	t0 := time.Date(2024, 3, 10, 12, 0, 0, 0, time.UTC)
	junk := logparse.Record{Client: "192.0.2.9", UserAgent: "-", Time: t0, Status: 408}
	for range 3 {
		d.Add(&junk)
	}
	c := d.clients.get("192.0.2.9", "-")
	if c == nil || c.x != nil || !c.junkOnly() || c.otherMethods() != 3 {
		t.Fatalf("client %v: want junk only, 3 other methods, no clientRare", c)
	}
	d.Add(&logparse.Record{Client: "192.0.2.9", UserAgent: "-", Time: t0.Add(time.Second), Method: "GET", Target: "/", Status: 200})
	d.Add(&junk)
	if c.junkOnly() || c.rare().probes.junk != 4 || c.otherMethods() != 4 {
		t.Errorf("junk only %v, junk %d, other methods %d: want false, 4, 4", c.junkOnly(), c.rare().probes.junk, c.otherMethods())
	}
	if k := conductOf(c, false, map[string]int64{}); k.Methods["GET"] != 1 || k.Methods["other"] != 4 {
		t.Errorf("methods %v: want GET 1, other 4", k.Methods)
	}
}

// TestJunkCountsAsCountedOneByOne checks the counts a client of junk keeps
// in its record against counting each request as it comes (as clientRare
// did for every request): its junk, its other methods, its methods in
// conduct and whether it is junk only, for junk before, between and after
// real requests, and requests with a method and no target or the reverse.
func TestJunkCountsAsCountedOneByOne(t *testing.T) {
	type req struct{ method, target string }
	junk := req{}
	get, head, post := req{"GET", "/"}, req{"HEAD", "/"}, req{"POST", "/form"}
	for _, tc := range []struct {
		name string
		reqs []req
	}{
		{"junk once", []req{junk}},
		{"junk only", []req{junk, junk, junk}},
		{"junk then GET", []req{junk, junk, get}},
		{"junk then robots.txt", []req{junk, {"GET", "/robots.txt"}, get}},
		{"junk then OPTIONS", []req{junk, {"OPTIONS", "*"}, get}},
		{"junk then PROPFIND", []req{junk, junk, {"PROPFIND", "/"}}},
		{"junk then HEAD and POST", []req{junk, head, post, junk}},
		{"junk then method without target", []req{junk, {"GET", ""}, junk}},
		{"junk then target without method", []req{junk, {"", "/x"}, junk}},
		{"junk then CONNECT", []req{junk, {"CONNECT", "example.com:443"}, junk}},
		{"GET then junk", []req{get, junk, junk}},
		{"junk around GET", []req{junk, get, junk, get, junk}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := New(Config{})
			t0 := time.Date(2024, 3, 10, 12, 0, 0, 0, time.FixedZone("", 5*3600+1800))
			var nJunk, nOther, nHead, nPost int64
			for i, q := range tc.reqs {
				d.Add(&logparse.Record{Client: "192.0.2.7", UserAgent: "-", Time: t0.Add(time.Duration(i) * time.Second),
					Method: q.method, Target: q.target, Protocol: "HTTP/1.1", Status: 400})
				if q == junk {
					nJunk++
				}
				switch q.method {
				case "GET":
				case "HEAD":
					nHead++
				case "POST":
					nPost++
				default:
					nOther++
				}
			}
			c := d.clients.get("192.0.2.7", "-")
			n := int64(len(tc.reqs))
			if got, want := c.junkOnly(), nJunk == n; got != want {
				t.Errorf("junk only %v, want %v", got, want)
			}
			if !c.junkOnly() && int64(c.rare().probes.junk) != nJunk {
				t.Errorf("junk %d, want %d", c.rare().probes.junk, nJunk)
			}
			if got := c.otherMethods(); got != nOther {
				t.Errorf("other methods %d, want %d", got, nOther)
			}
			want := map[string]int64{"GET": n - nHead - nPost - nOther, "HEAD": nHead, "POST": nPost, "other": nOther}
			k := conductOf(c, false, map[string]int64{})
			for m, w := range want {
				if k.Methods[m] != w {
					t.Errorf("methods %v: want %s %d", k.Methods, m, w)
				}
			}
		})
	}
}

// TestHeadDelayAcrossMatchers checks the Crawl-delay over a client's first
// request, and its conduct under delays, when its later requests are
// judged by other robots.txt files: other hosts' and later versions'.
// The figures are those ed3a802 gives, before the delay stayed in the
// matcher (a fetch of robots.txt is judged by no matcher, so a first
// request that fetches it is under no delay).
func TestHeadDelayAcrossMatchers(t *testing.T) {
	parse := func(s string) *robots.Robots { return robots.ParseBytes([]byte(s)) }
	slow, slower, none := parse("User-agent: *\nCrawl-delay: 2\n"), parse("User-agent: *\nCrawl-delay: 7\n"), parse("User-agent: *\nDisallow: /x\n")
	t0 := time.Date(2024, 3, 10, 12, 0, 0, 0, time.FixedZone("", -8*3600))
	versions := func(first, then *robots.Robots) map[string][]robots.Version {
		return map[string][]robots.Version{"": {{Robots: first, Size: -1}, {From: t0.Add(time.Minute), Robots: then, Size: -1}}}
	}
	type req struct {
		host, target string
		at           time.Duration
	}
	for _, tc := range []struct {
		name    string
		cfg     Config
		reqs    []req
		delayMs int64
		delayed int64
		fast    int64
	}{
		{"hosts: delay then another", Config{Robots: slow, RobotsByHost: map[string]*robots.Robots{"shop": slower}},
			[]req{{"www", "/", 0}, {"shop", "/", 20 * time.Second}, {"shop", "/a", 21 * time.Second}}, 2000, 1, 1},
		{"hosts: none then a delay", Config{Robots: none, RobotsByHost: map[string]*robots.Robots{"shop": slower}},
			[]req{{"www", "/", 0}, {"shop", "/", time.Second}, {"www", "/", 2 * time.Second}}, 0, 1, 1},
		{"hosts: back to the first", Config{Robots: slower, RobotsByHost: map[string]*robots.Robots{"shop": slow}},
			[]req{{"www", "/", 0}, {"shop", "/", time.Second}, {"www", "/b", 2 * time.Second}}, 7000, 1, 1},
		{"hosts: robots.txt first", Config{Robots: slow, RobotsByHost: map[string]*robots.Robots{"shop": slower}},
			[]req{{"www", "/robots.txt", 0}, {"shop", "/", time.Second}}, 0, 1, 0}, // no matcher over a fetch of robots.txt
		{"versions: delay then longer", Config{RobotsVersions: versions(slow, slower)},
			[]req{{"", "/", 0}, {"", "/a", 90 * time.Second}, {"", "/b", 92 * time.Second}}, 2000, 1, 1},
		{"versions: none then a delay", Config{RobotsVersions: versions(none, slow)},
			[]req{{"", "/", 0}, {"", "/a", 90 * time.Second}, {"", "/b", 90 * time.Second}}, 0, 1, 1},
		{"versions: robots.txt first", Config{RobotsVersions: versions(slower, slow)},
			[]req{{"", "/robots.txt", 0}, {"", "/a", 90 * time.Second}, {"", "/b", 91 * time.Second}}, 0, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := New(tc.cfg)
			for _, q := range tc.reqs {
				d.Add(&logparse.Record{Client: "192.0.2.1", UserAgent: "BadBot/1.0", VHost: q.host, Time: t0.Add(q.at),
					Method: "GET", Target: q.target, Status: 200})
			}
			c := d.clients.get("192.0.2.1", "BadBot/1.0")
			ms, ok := edgeFor(d, "192.0.2.1", "BadBot/1.0")
			k := conductOf(c, true, map[string]int64{})
			if !ok || ms != tc.delayMs {
				t.Errorf("edge's head delay %d ms (edge %v), want %d", ms, ok, tc.delayMs)
			}
			if k.CrawlDelaySessions != tc.delayed || k.FastSessions != tc.fast {
				t.Errorf("sessions delayed %d, fast %d; want %d, %d", k.CrawlDelaySessions, k.FastSessions, tc.delayed, tc.fast)
			}
		})
	}
}
