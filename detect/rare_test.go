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
