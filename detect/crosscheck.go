package detect

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/robots"
)

// The robots.txt cross-check and the chicken-and-egg of late robots.
//
// Only the requests of robots are violations, but a client may become a
// robot only late in the log (its rate rises, it fetches /robots.txt after
// an hour). So every request of every client is checked as it comes (the
// matcher is fast and allocates nothing), each client counts its disallowed
// requests exactly, and Result keeps the violations of the clients judged
// robots and drops the others'. The details of a client's first violations
// are kept up to bounds: MaxViolationsPerClient for a client whose
// User-agent is not an ordinary browser (nearly always a robot), and only
// browserViolationCap for one with a browser User-agent (nearly always a
// person, whose violations would be dropped anyway), and maxStoredViolations
// for all clients together. Counts, first times
// and path prefixes stay exact either way; Result.ViolationsDropped says how
// many violations were counted without details.

// checker holds the robots.txt files of the cross-check.
type checker struct {
	enabled          bool
	storedViolations int   // violations kept in full, all clients together
	maxStored        int   // bound on storedViolations: maxStoredViolations (tests lower it)
	unchecked        int64 // requests whose host has no robots.txt
	def              *robots.Robots
	byHost           map[string]*robots.Robots // keys robots.HostKey
}

func (k *checker) init(cfg *Config) {
	k.def = cfg.Robots
	k.maxStored = maxStoredViolations
	if len(cfg.RobotsByHost) > 0 {
		k.byHost = make(map[string]*robots.Robots, len(cfg.RobotsByHost))
		for h, rb := range cfg.RobotsByHost {
			k.byHost[robots.HostKey(h)] = rb
		}
	}
	k.enabled = k.def != nil || len(k.byHost) > 0
}

// robotsFor returns the robots.txt that rules the virtual host vhost.
func (k *checker) robotsFor(vhost string) *robots.Robots {
	if len(k.byHost) == 0 || vhost == "" {
		return k.def
	}
	if rb, ok := k.byHost[vhost]; ok {
		return rb
	}
	if rb, ok := k.byHost[robots.HostKey(vhost)]; ok {
		return rb
	}
	return k.def
}

// clientViolations is one client's disallowed requests.
type clientViolations struct {
	n        int64     // all of them
	first    time.Time // the earliest
	last     time.Time // the latest: after the robot's first robots.txt fetch, it ignored what it read
	list     []storedViolation
	text     []byte        // the methods and paths of list
	prefixes []PrefixCount // by path prefix (capped: capText), at most maxClientPrefixes and otherPrefix
}

// storedViolation is one violation kept in full. Its method and path are
// in the client's text, one buffer for all of them, rather than a string
// each: a robot that ignores robots.txt makes thousands.
type storedViolation struct {
	t      time.Time
	m      *robots.Matcher
	rule   *robots.Rule
	off    uint32 // method then path, at text[off:]
	plen   uint32 // bytes of path
	status int32
	mlen   uint16 // bytes of method (a longer one is cut: see maxMethodLen)
}

// store keeps one violation; it reports false, keeping nothing, if the
// client's text would pass 4 GiB (the uint32 offsets). Real paths are short;
// only a hostile log (10,000 violations of lines near the 1 MiB limit) gets
// there, and then a later, shorter violation may still be kept.
func (v *clientViolations) store(t time.Time, m *robots.Matcher, rule *robots.Rule, method, path string, status int) bool {
	method, path = capText(method, MaxStoredMethod), capText(path, MaxStoredPath)
	if len(v.text)+len(method)+len(path) > math.MaxUint32 {
		return false
	}
	v.list = append(v.list, storedViolation{
		t: t, m: m, rule: rule, off: uint32(len(v.text)),
		plen: uint32(len(path)), status: int32(status), mlen: uint16(len(method)),
	})
	v.text = append(append(v.text, method...), path...)
	return true
}

// maxMethodLen bounds the bytes of a method a violation keeps. Real methods
// are a few letters; a hostile log may send anything.
const maxMethodLen = 1<<16 - 1

// maxClientPrefixes bounds the path prefixes a client counts separately; the
// rest are counted under otherPrefix.
const (
	maxClientPrefixes = 32
	otherPrefix       = "(other)"
)

// check checks one request of c against robots.txt; it reports whether
// the request was disallowed, and by which rule (nil: everything is, as
// for a robots.txt that could not be fetched).
func (d *Detector) check(c *client, r *logparse.Record, path string, res resource) (bool, *robots.Rule) {
	rb := d.checker.robotsFor(r.VHost)
	if res == resourceRobotsTxt {
		// Never a violation; but a robot that only read the file had one
		// to keep to: it obeyed it, it was not left unchecked.
		if rb != nil {
			c.flags |= flagChecked
		}
		return false, nil
	}
	if f := c.rare().fetches; f != nil && toldNone(f.last) && f.lastFor == rb {
		// The server told this robot there is no robots.txt for this
		// host: RFC 9309 (2.3.1.3) lets it fetch anything there then.
		// What it asks for is no violation of a file it was not given,
		// until a fetch finds one.
		return false, nil
	}
	if rb == nil {
		// Only --robots HOST=FILE was given and this record's host (or the
		// log's lack of hosts) has none: say so rather than find nothing.
		d.unchecked++
		return false, nil
	}
	c.flags |= flagChecked
	if c.matcher == nil || c.robots != rb {
		c.robots, c.matcher = rb, rb.Agent(c.ua.ua)
	}
	ok, rule := c.matcher.Allowed(path)
	if ok {
		return false, nil
	}
	v := c.rare().viol
	if v == nil {
		v = &clientViolations{first: r.Time, last: r.Time}
		c.keepRare().viol = v
	}
	v.n++
	if r.Time.After(v.last) {
		v.last = r.Time
	}
	if r.Time.Before(v.first) {
		v.first = r.Time
	}
	limit := d.cfg.MaxViolationsPerClient
	if c.ua.agent.Kind == agents.Browser {
		limit = min(limit, browserViolationCap)
	}
	if len(v.list) < limit && d.storedViolations < d.maxStored &&
		v.store(r.Time, c.matcher, rule, r.Method, path, r.Status) {
		d.storedViolations++
	}
	// A prefix is as long as the path when the path has one segment: capped
	// as paths are, so a client's prefixes cost at most maxClientPrefixes
	// times MaxStoredPath, and long ones that differ at the end stay apart.
	v.countPrefix(capText(pathPrefix(path), MaxStoredPath))
	return true, rule
}

// countPrefix counts one violation under path prefix p (a view of the
// record, copied when kept). A client has few prefixes, so a list scanned
// from the start beats a map, and it never stores the caller's string: a
// map assignment would replace the kept key with p.
func (v *clientViolations) countPrefix(p string) {
	for i := range v.prefixes {
		if v.prefixes[i].Prefix == p {
			v.prefixes[i].Count++
			return
		}
	}
	if len(v.prefixes) >= maxClientPrefixes {
		p = otherPrefix
		for i := range v.prefixes {
			if v.prefixes[i].Prefix == p {
				v.prefixes[i].Count++
				return
			}
		}
	} else {
		p = strings.Clone(p)
	}
	v.prefixes = append(v.prefixes, PrefixCount{p, 1})
}

// crawlDelay says whether robot client c came faster than the Crawl-delay
// of its robots.txt group allows: more requests in its busiest minute than
// a robot waiting delay between them can make there. A minute window is 60
// whole seconds, so that is 60/delay rounded up (Crawl-delay 7 allows
// requests at 0, 7, …, 56, nine of them; Crawl-delay 10 six, and a robot
// at one request every 9 s makes seven). A fetch of robots.txt in that
// minute is one more: a polite crawler reads the file and asks for its
// first page in the same second, then keeps the delay.
func crawlDelay(c *client) (delay time.Duration, exceeded bool, detail string) {
	if c.matcher == nil {
		return 0, false, ""
	}
	delay, ok := c.matcher.CrawlDelay()
	if !ok || delay <= 0 {
		return 0, false, ""
	}
	allowed := int64((time.Minute + delay - 1) / delay)
	if c.fetchedIn(c.rate.at60, c.rate.at60+window60-1) {
		allowed++
	}
	if int64(c.rate.peak60) <= allowed {
		return delay, false, ""
	}
	return delay, true, fmt.Sprintf("faster than its Crawl-delay of %v: %d requests in 60 s (at most %d)",
		delay, c.rate.peak60, allowed)
}

// fetchedIn reports whether c may have fetched robots.txt between the
// seconds from and to: its earliest or latest fetch falls there, or the
// span between them holds the window and a third fetch may.
func (c *client) fetchedIn(from, to int64) bool {
	f := c.rare().fetches
	if f == nil {
		return false
	}
	first := f.first.Unix()
	switch {
	case from <= first && first <= to, from <= f.latest && f.latest <= to:
		return true
	}
	return c.robotsTxt > 2 && first < from && to < f.latest
}

// toldNone reports whether a GET of /robots.txt answered status says there
// is none: 404 or 410 (gone), or 401/403, which RFC 9309 reads as
// "unavailable" too. Not an answer about the request itself (405, 416,
// 429: "try later"), which says nothing of the file.
func toldNone(status int32) bool {
	switch status {
	case 401, 403, 404, 410:
		return true
	}
	return false
}
