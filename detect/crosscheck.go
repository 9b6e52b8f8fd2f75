package detect

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/findings"
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
// and path prefixes stay exact either way; Result.ViolationsUnlisted says how
// many violations were counted without details.

// checker holds the robots.txt files of the cross-check.
type checker struct {
	enabled          bool
	storedViolations int   // violations kept in full, all clients together
	maxStored        int   // bound on storedViolations: maxStoredViolations (tests lower it)
	unchecked        int64 // requests whose host has no robots.txt
	def              *history
	byHost           map[string]*history // keys robots.HostKey
}

func (k *checker) init(cfg *Config) {
	k.def = single(cfg.Robots)
	k.maxStored = maxStoredViolations
	if len(cfg.RobotsByHost) > 0 || len(cfg.RobotsVersions) > 0 {
		k.byHost = make(map[string]*history, len(cfg.RobotsByHost))
		for h, rb := range cfg.RobotsByHost {
			if rb != nil {
				k.byHost[robots.HostKey(h)] = single(rb)
			}
		}
	}
	for h, vs := range cfg.RobotsVersions {
		if len(vs) == 0 {
			continue
		}
		hist := newHistory(vs)
		if h == "" {
			k.def = hist
		} else {
			k.byHost[robots.HostKey(h)] = hist
		}
	}
	k.enabled = k.def != nil || len(k.byHost) > 0
}

// robotsFor returns the robots.txt history that rules the virtual host vhost.
func (k *checker) robotsFor(vhost string) *history {
	if len(k.byHost) == 0 || vhost == "" {
		return k.def
	}
	if h, ok := k.byHost[vhost]; ok {
		return h
	}
	if h, ok := k.byHost[robots.HostKey(vhost)]; ok {
		return h
	}
	return k.def
}

// The robots.txt over time.
//
// RFC 9309 (2.4) lets a crawler keep its copy of robots.txt for up to 24
// hours, so a request is judged against the copy its robot could hold:
// the version its last 2xx fetch of robots.txt got, if that fetch was at
// most 24 hours before; otherwise any version in force during the 24
// hours before the request, and it is a violation only if every one of
// them disallows it. A request the version in force disallows and a
// possible copy allowed is counted as cached, never as a violation. The
// version a fetch got is the one in force then, unless the answer's size
// in the log is the size of exactly one version: then that one, which
// settles an imprecise time of change (a history named by dates).

// maxCacheAge is how long RFC 9309 lets a crawler keep robots.txt.
const maxCacheAge = 24 * 60 * 60

// history is one host's robots.txt over time; a site with one file has
// one version.
type history struct {
	vers     []version // by time; the first is in force from the start of the log
	resolved bool      // the versions' dates are read in the log's zone
}

// version is one robots.txt of a history.
type version struct {
	from int64     // Unix seconds: in force from here (the first: from the start)
	at   time.Time // when, as reports write it; zero: from the start
	rb   *robots.Robots
	src  robots.Version
}

// How a violation's version was found: the copy the robot's last fetch got,
// in force then or told by the answer's size, or every version in force
// in the 24 hours before the request (no fetch in them).
const (
	copyNone uint8 = iota // one robots.txt: nothing to choose
	copyFetched
	copyBySize
	copyInForce
)

// copyName is a copy's way as Violation.RobotsTxtCopy says it.
var copyName = [...]string{"", "fetched", "fetched, told by size", "in force"}

func single(rb *robots.Robots) *history {
	if rb == nil {
		return nil
	}
	return &history{vers: []version{{rb: rb}}, resolved: true}
}

func newHistory(vs []robots.Version) *history {
	h := &history{vers: make([]version, len(vs))}
	for i, v := range vs {
		h.vers[i] = version{rb: v.Robots, src: v}
	}
	return h
}

// resolve reads the versions' times, dates in zone loc (the log's; nil:
// UTC). It is done at the first check, once the log's zone is known.
func (h *history) resolve(loc *time.Location) {
	if h.resolved {
		return
	}
	h.resolved = true
	for i := range h.vers {
		v := &h.vers[i]
		v.at = v.src.In(loc)
		v.from = v.at.Unix()
		if v.at.IsZero() || i == 0 {
			v.from = math.MinInt64
		}
	}
}

// at returns the version in force at sec.
func (h *history) at(sec int64) int {
	i := len(h.vers) - 1
	for i > 0 && h.vers[i].from > sec {
		i--
	}
	return i
}

// got returns the version a 2xx answer of size bytes at sec gave, and
// whether its size told it.
func (h *history) got(sec, bytes int64) (int, bool) {
	if bytes > 0 {
		found := -1
		for i := range h.vers {
			if h.vers[i].src.Size == bytes {
				if found >= 0 {
					found = -2 // two versions of one size: it tells nothing
					break
				}
				found = i
			}
		}
		if found >= 0 {
			return found, true
		}
	}
	return h.at(sec), false
}

// checkResult is what a check found of a disallowed request: the rule, the
// version and matcher it was judged by, and how that version was chosen. Of
// an allowed request it holds only the matcher, for the preferences.
type checkResult struct {
	rule *robots.Rule
	m    *robots.Matcher
	ver  *version // nil with one robots.txt
	how  uint8
}

// from is the judged version's start as Violation.RobotsTxtFrom writes it.
func (v *version) fromText() string {
	if v == nil || v.at.IsZero() {
		return ""
	}
	return v.at.Format(time.RFC3339)
}

// clientViolations is one client's disallowed requests.
type clientViolations struct {
	n        int64     // all of them
	first    time.Time // the earliest
	last     time.Time // the latest: after the robot's first robots.txt fetch, it ignored what it read
	list     []storedViolation
	text     []byte                 // the methods and paths of list
	judged   judgedTable            // the rules, versions and zones of list
	evidence []violationEvidence    // list's, once one of list has any (versions of robots.txt); else empty
	prefixes []findings.PrefixCount // by path prefix (capped: capText), at most maxClientPrefixes and otherPrefix
}

// maxClientPrefixes bounds the path prefixes a client counts separately; the
// rest are counted under otherPrefix.
const (
	maxClientPrefixes = 32
	otherPrefix       = "(other)"
)

// check checks one request of c against robots.txt; it reports whether
// the request was disallowed, and by what (a nil rule: everything is, as
// for a robots.txt that could not be fetched).
func (d *Detector) check(c *client, r *logparse.Record, path string, pf *pathFacts, res resource) (bool, checkResult) {
	h := d.checker.robotsFor(r.VHost)
	if res == resourceRobotsTxt {
		// Never a violation; but a robot that only read the file had one
		// to keep to: it obeyed it, it was not left unchecked.
		if h != nil {
			c.flags |= flagChecked
		}
		return false, checkResult{}
	}
	if f := c.rare().fetches; f != nil && f.lastFor == h {
		switch f.state {
		case robotsNone:
			// The server told this robot there is no robots.txt for this
			// host (4xx, or redirects past five): RFC 9309 (2.3.1.3) lets
			// it fetch anything there then. What it asks for is no
			// violation of a file it was not given, until a fetch finds
			// one.
			return false, checkResult{}
		case robotsUnreachable:
			// 5xx or no answer: RFC 9309 (2.3.1.4) asks for a complete
			// disallow unless the robot holds a copy, which it may from
			// before the log. Counted apart until a fetch succeeds: no
			// violation, and no obedience either.
			f.unreachable++
			return false, checkResult{}
		}
	}
	if h == nil {
		// Only --robots HOST=FILE was given and this record's host (or the
		// log's lack of hosts) has none: say so rather than find nothing.
		d.unchecked++
		return false, checkResult{}
	}
	c.flags |= flagChecked
	var j checkResult
	if len(h.vers) == 1 {
		m := c.matcherFrom(h.vers[0].rb, &d.matchers)
		ok, rule := pf.allowedBy(m, path)
		if ok {
			// The matcher, for the preferences its groups state.
			return false, checkResult{m: m}
		}
		j = checkResult{rule: rule, m: m}
	} else {
		var ok bool
		if ok, j = d.judge(c, h, r.Time.Unix(), path); ok {
			return false, j
		}
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
		v.store(r.Time, j, c.rare().fetches, r.Method, path, r.Status) {
		d.storedViolations++
	}
	// A prefix is as long as the path when the path has one segment: capped
	// as paths are, so a client's prefixes cost at most maxClientPrefixes
	// times MaxStoredPath, and long ones that differ at the end stay apart.
	v.countPrefix(capText(pathPrefix(path), MaxStoredPath))
	return true, j
}

// judge checks a request at sec against the copies of history h that c
// could hold (see "The robots.txt over time"); it reports whether the
// request was allowed, and if not, the checkResult. A request the version in
// force disallows and a possible copy allowed is allowed, and counted in
// c's cached.
func (d *Detector) judge(c *client, h *history, sec int64, path string) (bool, checkResult) {
	h.resolve(d.loc)
	cur := h.at(sec)
	if f := c.rare().fetches; f != nil && f.okFor == h && f.okAt <= sec && sec-f.okAt <= maxCacheAge {
		held := &h.vers[f.okVer]
		m := c.matcherFor(held.rb, &d.matchers)
		ok, rule := m.Allowed(path)
		if ok {
			if held != &h.vers[cur] {
				if now, _ := h.vers[cur].rb.Agent(c.ua.ua).Allowed(path); !now {
					c.keepRare().cached++
				}
			}
			// The copy it holds states the preferences it was given.
			return true, checkResult{m: m}
		}
		how := copyFetched
		if f.okBySize {
			how = copyBySize
		}
		return false, checkResult{rule: rule, m: m, ver: held, how: how}
	}
	m := c.matcherFor(h.vers[cur].rb, &d.matchers)
	ok, rule := m.Allowed(path)
	if ok {
		return true, checkResult{m: m}
	}
	for i := h.at(sec - maxCacheAge); i < cur; i++ {
		held := h.vers[i].rb.Agent(c.ua.ua)
		if ok, _ := held.Allowed(path); ok {
			c.keepRare().cached++
			return true, checkResult{m: held}
		}
	}
	return false, checkResult{rule: rule, m: m, ver: &h.vers[cur], how: copyInForce}
}

// matcherFor returns c's groups of rb, kept as its matcher: a robot is
// judged by one version for hours. ms holds the pairs c's record points
// to; rb is asked for the groups, not ms's recent ones.
func (c *client) matcherFor(rb *robots.Robots, ms *matcherMemo) *robots.Matcher {
	if c.rules == nil || c.rules.rb != rb {
		c.holdRules(ms.rules(rb, rb.Agent(c.ua.ua)))
	}
	return c.rules.m
}

// matcherFrom is matcherFor with a new client's matcher found in ms.
func (c *client) matcherFrom(rb *robots.Robots, ms *matcherMemo) *robots.Matcher {
	if c.rules == nil || c.rules.rb != rb {
		c.holdRules(ms.of(rb, c.ua.ua))
	}
	return c.rules.m
}

// holdRules makes p c's robots.txt and groups.
func (c *client) holdRules(p *heldRules) {
	if c.sf.head&headDelayHeld != 0 { // the first request's delay goes with this matcher
		c.keepRare().headDelayMs = c.headDelayMs()
		c.sf.head &^= headDelayHeld
	}
	c.rules = p
}

// matcher is c's groups of the robots.txt of its last request; nil
// before one was checked.
func (c *client) matcher() *robots.Matcher {
	if c.rules == nil {
		return nil
	}
	return c.rules.m
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
	v.prefixes = append(v.prefixes, findings.PrefixCount{Prefix: p, Count: 1})
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
	if c.rules == nil {
		return 0, false, ""
	}
	delay, ok := c.rules.m.CrawlDelay()
	if !ok || delay <= 0 {
		return 0, false, ""
	}
	allowed := int64((time.Minute + delay - 1) / delay)
	if at60 := c.second(c.rate.at60, wideAt60); c.fetchedIn(at60, at60+window60-1) {
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
