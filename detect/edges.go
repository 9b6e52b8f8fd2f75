package detect

import (
	"slices"
	"time"

	"github.com/robowatch/robowatch/findings"
)

// Days: a report of one day ends its sessions, its robots' copies of
// robots.txt and their minutes after a 429 at the end of its log. So that
// the merge of consecutive days is what one run over them gives, each
// report keeps every robot client's edges (ClientEdge: its first and last
// session, its fetches of robots.txt), and the merge joins the edges of a
// client seen on consecutive days: a session across midnight counts once,
// a Crawl-delay broken between its last request of one day and its first
// of the next breaks it, the time crawled on one copy runs on. What a day
// judged by what its robots held (the copy of robots.txt a fetch of the day
// before gave them, robots.txt unreachable since the day before, a minute
// after a 429 that began before midnight) the merge cannot judge again: a
// run given the day before's report (Config.Seed, --state-from) starts
// from those, and then the days add up to the one run.

// recent is c's requests of its last minute, [second, requests], from its
// rate window (nil without one).
func (c *client) recent() [][2]int64 {
	if c.rate.window == nil {
		return nil
	}
	var out [][2]int64
	for i := range c.rate.secs {
		if sc := &c.rate.secs[i]; sc.n > 0 && sc.sec >= c.lastSec()-findings.BackoffWindow {
			out = append(out, [2]int64{sc.sec, int64(sc.n)})
		}
	}
	return out
}

// edgeOf is robot client c's edge, with recent, its c.recent() before its
// window went; ok false for a client without timed requests.
func edgeOf(c *client, recent [][2]int64) (findings.ClientEdge, bool) {
	zero := time.Time{}.Unix()
	if c.first.sec == zero || c.lastSec() == zero || c.sess.n == 0 {
		return findings.ClientEdge{}, false
	}
	s, f := &c.sess, &c.sf
	e := findings.ClientEdge{IP: c.ip, UserAgent: c.ua.ua, Sessions: int64(s.n), First: c.first.sec, Last: c.lastSec(),
		Tail: edgeBits(f.flags), Head: edgeBits(f.first) | f.head&findings.EdgeOpensRobots}
	if s.n == 1 {
		e.Head = e.Tail | f.head&findings.EdgeOpensRobots
	}
	x := c.rare()
	e.HeadDelayMs = c.headDelayMs()
	if f := x.fetches; f != nil {
		if !f.first.IsZero() {
			first, last := f.first.Unix(), f.latest
			e.FetchFirst, e.FetchLast = &first, &last
			if f.hasBefore {
				b := f.before
				e.BeforeFetch = &b
			}
		}
		r := &findings.EdgeRobots{Host: f.host, State: uint8(f.state), Latest: f.latest, LastAt: f.lastAt, Status: f.last}
		if f.okFor != nil {
			at := f.okAt
			r.OKAt, r.OKVer, r.OKBySize = &at, f.okVer, f.okBySize
		}
		e.Robots = r
	}
	recent = findings.LastMinute(append(slices.Clone(x.seedRecent), recent...), c.lastSec())
	if b := x.backoff; b != nil && b.open || len(recent) > 0 {
		e.Backoff = &findings.EdgeBackoff{Recent: recent}
		if b != nil && b.open {
			e.Backoff.Open, e.Backoff.Start = true, b.start
		}
	}
	return e, true
}

// headDelayMs is the Crawl-delay over c's first request, in milliseconds;
// 0 if there was none.
func (c *client) headDelayMs() int64 {
	if c.sf.head&headDelayHeld == 0 {
		return c.rare().headDelayMs
	}
	delay, _ := c.matcher().CrawlDelay()
	return delay.Milliseconds()
}

// edgeBits are a session's flags as the Edge bits.
func edgeBits(f uint8) uint8 {
	var b uint8
	for _, p := range [][2]uint8{{sessViolating, findings.EdgeViolating}, {sessDelayed, findings.EdgeDelayed}, {sessFast, findings.EdgeFast},
		{sessRobotsTxt, findings.EdgeRobotsTxt}, {sessUnreachable, findings.EdgeUnreachable}} {
		if f&p[0] != 0 {
			b |= p[1]
		}
	}
	return b
}

// seed starts client c from the edge of the day before: the copy of
// robots.txt it held, and its pace of the last minute.
func (d *Detector) seed(c *client) {
	if d.seeds == nil {
		d.seeds = make(map[clientKey]*findings.ClientEdge, len(d.cfg.Seed))
		for i := range d.cfg.Seed {
			e := &d.cfg.Seed[i]
			d.seeds[clientKey{e.IP, e.UserAgent}] = e
		}
	}
	e, ok := d.seeds[clientKey{c.ip, c.ua.ua}]
	if !ok {
		return
	}
	if r := e.Robots; r != nil && r.State <= uint8(robotsUnreachable) {
		f := &robotsFetches{latest: r.Latest, lastAt: r.LastAt, last: r.Status, state: robotsState(r.State), host: r.Host, seeded: true}
		f.lastFor = d.checker.robotsFor(r.Host)
		if h := f.lastFor; h != nil && r.OKAt != nil && 0 <= r.OKVer && r.OKVer < len(h.vers) {
			f.okFor, f.okAt, f.okVer, f.okBySize = h, *r.OKAt, r.OKVer, r.OKBySize
		}
		c.keepRare().fetches = f
	}
	if b := e.Backoff; b != nil {
		x := c.keepRare()
		x.seedRecent = b.Recent
		if b.Open {
			x.backoff = &backoff{open: true, start: b.Start, seeded: true}
		}
	}
}
