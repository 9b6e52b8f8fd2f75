package detect

import (
	"net/http"
	"strings"
	"time"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

// request is one record as Add reads it: what its steps work out and hand
// on. It lives on Add's stack, so that Add allocates nothing.
type request struct {
	r      *logparse.Record
	path   string     // r's origin-form path
	facts  *pathFacts // what path says alone (pathmemo.go)
	res    resource   // what it asks for; part of a page view becomes resourceSubrequest
	page   bool       // a page by its path (classify), whatever res becomes
	sec    int64      // r's Unix second
	prev   int64      // the second of its client's previous request
	timed  bool       // r has a time (some log formats have none)
	future bool       // dated in the future (see ahead)
	ph     uint64     // pathHash of path
	ph32   uint32     // pathHash32 of path
	hits   uint32     // rate hits: this request's, and one for a page found late

	// Its place in the client's page views (pageview.go).
	vh       uint32 // viewHash32 of a page's path
	reviewed bool   // the page being viewed, asked for again
	part     bool   // part of a page already open (appPart)
}

// Add feeds one record to the detectors. Records must come from a single
// goroutine, in log order; Add after Result is ignored. Add copies what it
// keeps of r, so r's memory may be reused (logparse's ReuseRecord).
func (d *Detector) Add(r *logparse.Record) {
	if d.result != nil {
		return
	}
	d.records++
	q := request{r: r, sec: r.Time.Unix(), timed: !r.Time.IsZero()}
	if e := d.shared; e != nil {
		q.path, q.facts = e.path, d.locals.of(e)
	} else {
		q.path = r.Path()
		q.facts = d.paths.of(q.path)
	}
	q.res = q.facts.res
	q.page = q.res == resourcePage
	q.future = q.timed && d.ahead(q.sec)
	d.countLog(r, &q)
	d.moveClock(&q)

	c := d.clientOf(r)
	q.prev = c.countRequest(r)
	d.touched(c)
	q.ph = q.facts.ph
	q.ph32 = q.facts.ph32()
	c.placeInView(&q)
	c.followMonitor(r.Method, q.ph32, q.prev, q.sec)
	c.redirected(r.Status)
	c.countError(&q)
	d.countResource(c, &q)
	if w := c.rare().watch; w != nil {
		w.add(r, q.path, q.res == resourceRobotsTxt, &d.watchMinutes)
	}
	if h := r.Headers; h != nil && h.SignatureInput != "" && d.cfg.Keys != nil {
		d.checkSignature(c, r)
	}
	if r.Method == "POST" {
		d.countPost(c, &q)
	}
	if q.page || q.res == resourcePage { // no form nor view otherwise: no call
		c.followPage(&q)
	}
	if c.rateHit(&q) {
		q.hits++
	}
	d.addToRate(c, &q)

	violated, unreachable, j := d.checkRobotsTxt(c, &q)
	if q.res == resourcePage && !violated {
		d.preference(c, r, q.path, j.m)
	}
	d.discover(c, q.path)
	d.conduct(c, r, q.sec, q.prev, q.future, q.res == resourceRobotsTxt, violated, unreachable)
	if d.cfg.Events != nil {
		d.tell(c, &q, violated, &j)
	}
	d.sinceSweep++
	if d.sinceSweep >= max(sweepEvery, d.sweepAt) {
		d.sweep()
	}
}

// countLog counts q for the log's traits and fleets (a Pool's worker
// leaves the fleets to the Pool).
func (d *Detector) countLog(r *logparse.Record, q *request) {
	d.counts.countFP(r, q.res, q.facts.fp)
	if !d.driven {
		d.kept = d.fleets.count(r, q.path, q.facts, q.res)
	}
}

// moveClock moves the log's clock and span to q. A record dated in the
// future is counted for its client, but it moves neither the log's clock
// nor its span, and takes no part in rates or the timeline.
func (d *Detector) moveClock(q *request) {
	if q.future {
		d.future++
		return
	}
	t := q.r.Time
	if q.timed {
		d.watchStep(q.sec)
	}
	d.setZone(t)
	if !d.started {
		d.started = true
		d.maxSec = q.sec
		if d.ticked {
			d.maxSec = max(q.sec, d.tickMax)
		}
		d.first, d.last = t, t
		return
	}
	d.maxSec = max(d.maxSec, q.sec)
	if t.Before(d.first) {
		d.first = t
	}
	if t.After(d.last) {
		d.last = t
	}
}

// clientOf returns the client of r, made and admitted if new (evicting the
// lightest under Config.MaxClients).
func (d *Detector) clientOf(r *logparse.Record) *client {
	ip, ua, kept := r.Client, r.UserAgent, d.kept
	d.kept = keptText{}
	if len(ip) > MaxStoredClient || len(ua) > MaxStoredAgent {
		ip, ua = capText(ip, MaxStoredClient), capText(ua, MaxStoredAgent)
	}
	if kept.ua != "" {
		// The fleet tally's copy, which it found equal to ua (capped as
		// here): a client holds that copy, so comparing it with the
		// client's ends at the pointers, not reading 120 bytes again.
		ua = kept.ua
	}
	// Consecutive lines often come from one client (a page and its
	// assets): comparing with the last one skips hashing the User-agent.
	d.pair = 0
	if c := d.recent; c != nil && c.ip == ip && c.ua.ua == ua {
		return c
	}
	c, h := d.clients.findAhead(ip, ua, d.pre)
	d.pair = h
	if c == nil {
		var floor int64
		if d.capped() {
			floor = d.evictLightest()
		}
		var at uint32
		c, at = d.newClient(r, ip, ua, kept, h, d.pre)
		d.admit(c, at, floor)
	}
	d.recent = c
	return c
}

// countRequest counts r as a request of c: its span, bytes and the kinds
// of request the verdict weighs. It returns the second of c's previous
// request.
func (c *client) countRequest(r *logparse.Record) int64 {
	inc32(&c.requests)
	prev := c.lastSec()
	if t := stampOf(r.Time); c.requests == 1 {
		c.first, c.last = t, lastStamp{0, t.nsec, t.off}
	} else if t.before(c.first) {
		c.moveFirst(t)
	} else if prev < t.sec || prev == t.sec && c.last.nsec < t.nsec {
		// Later than its last ((stamp).before as lastOf().before(t)):
		// setLast, by hand, as it is too large to inline.
		if at, ok := c.narrow(t.sec); ok {
			c.last = lastStamp{at, t.nsec, t.off}
		} else {
			c.setLastWide(t)
		}
	}
	if r.Bytes > 0 {
		c.bytes = findings.AddBytes(c.bytes, r.Bytes)
	}
	if r.Method == "HEAD" {
		inc32(&c.head)
	}
	if r.Protocol == "HTTP/1.0" {
		inc32(&c.keepRare().http10)
	}
	if c.requests == 1 && r.Referer != "" && selfReferer(r.Target, r.Referer) {
		c.keepRare().selfReferer = true
	}
	if r.Referer != "" {
		inc32(&c.referers)
	}
	if !r.NoAgentField {
		c.flags |= flagAgentField
		if !r.NoRefererField {
			c.flags |= flagRefererField
		}
	}
	return prev
}

// countError counts q's answer if it is an error of c's doing: a 4xx or
// 5xx, but for a part the page being viewed pulled in, which is the site's
// broken link.
func (c *client) countError(q *request) {
	s := q.r.Status
	if s < 400 || s >= 600 {
		return
	}
	if (q.res == resourceAsset || q.res == resourceSubrequest) && c.page.pulledIn(q.r.Referer) {
		return
	}
	inc32(&c.errors)
	if s == 404 {
		inc32(&c.notFound)
	}
}

// countResource counts q by what it asks for: its probes and panel, the
// operator that sent a person to a page, and pages, assets and fetches of
// /robots.txt.
func (d *Detector) countResource(c *client, q *request) {
	r := q.r
	fp := q.facts.fp
	c.addProbe(q.facts, r.Method, r.Target, q.path, r.VHost, r.Protocol, r.Referer, r.Status, c.requests == 1)
	d.pan.add(c, q.facts, q.path, r.Status)
	d.countReferral(c, q)
	switch q.res {
	case resourcePage:
		inc32(&c.pages)
	case resourceAsset:
		// A browser asks for the favicon by itself, page or no page; a
		// scanner's fingerprint run asks for it too: it shows nothing.
		if fp != fpFavicon {
			inc32(&c.assets)
		}
	case resourceRobotsTxt:
		// A HEAD or POST of /robots.txt reads no rules: no fetch (a log
		// without methods is taken to GET it).
		if r.Method == "GET" || r.Method == "" {
			d.countRobotsFetch(c, q)
		}
	}
}

// countReferral counts a page a person was sent to: the Referer (or
// ChatGPT's utm_source) names an operator's product. A redirect is no
// view: the browser asks for its target with the same Referer, and that
// one counts.
func (d *Detector) countReferral(c *client, q *request) {
	r := q.r
	if !q.page || r.Method != "GET" && r.Method != "" || isRedirect(r.Status) ||
		r.Referer == "" && strings.IndexByte(r.Target, '?') < 0 {
		return
	}
	if op := d.referrals.Of(r.Referer, r.Target); op != "" {
		c.keepRare().addReferral(op)
	}
}

// isRedirect reports whether status sends the browser on to another URL
// (a 304 is a cached copy, not a redirect).
func isRedirect(status int) bool {
	return status >= 300 && status < 400 && status != http.StatusNotModified
}

// countRobotsFetch counts q, a GET of /robots.txt by c: when, how it was
// answered, and which version of the host's file it got.
func (d *Detector) countRobotsFetch(c *client, q *request) {
	r, sec := q.r, q.sec
	inc32(&c.robotsTxt)
	x := c.keepRare()
	if x.fetches == nil {
		x.fetches = &robotsFetches{latest: sec, seeded: true}
	}
	f := x.fetches
	if f.seeded {
		// The first fetch here (a state carried from the day before,
		// Config.Seed, is not one).
		f.first, f.seeded = r.Time, false
		if c.requests > 1 {
			f.before, f.hasBefore = q.prev, true
		}
	} else if r.Time.Before(f.first) {
		f.first = r.Time
	}
	if c.requests > 1 && q.prev > f.latest {
		// The copy of the fetch before served it until its last request.
		f.maxGap = max(f.maxGap, q.prev-f.latest)
	}
	f.latest = max(f.latest, sec)
	f.count(r.Status)
	f.last = int32(r.Status)
	// The answer is about the file of the host asked (RFC 9309: a
	// robots.txt applies to its own host): a 404 on one virtual host is no
	// leave to ignore another's.
	f.lastFor = d.checker.robotsFor(r.VHost)
	if f.host != r.VHost {
		f.host = strings.Clone(r.VHost)
	}
	f.lastAt = sec
	if h := f.lastFor; h != nil && len(h.vers) > 1 && r.Status >= 200 && r.Status < 300 && (f.okFor != h || sec >= f.okAt) {
		h.resolve(d.loc)
		f.okFor, f.okAt = h, sec
		f.okVer, f.okBySize = h.got(sec, r.Bytes)
	}
	f.serve(r.Status, r.Bytes, f.lastFor)
}

// countPost counts q, a POST of c, and whether it came within FastForm or
// QuickForm of fetching its form.
func (d *Detector) countPost(c *client, q *request) {
	inc32(&c.posts)
	took, ok := c.formAge(q.ph32, q.sec)
	switch {
	case !ok:
	case took <= int64(d.cfg.FastForm/time.Second):
		inc32(&c.keepRare().fastForms)
	case took <= int64(QuickForm/time.Second):
		inc32(&c.keepRare().quickForms)
	}
}

// rateHit reports whether q counts against c's rate threshold (the peaks
// still count every request). An asset fetched with a Referer is a browser
// pulling in what a page needs: dozens in a second are normal; so is one
// without a Referer in the page's own seconds (pageView.inView), and what
// is part of a page view. Neither do the ranges of one file after the
// first (206 answers for one path): a media player buffering a podcast or
// a video asks for dozens in seconds, and it is one download. No request
// at all (a TLS handshake, an empty connection) is junk, counted apart: it
// is no page and no one's rapid-fire.
func (c *client) rateHit(q *request) bool {
	r := q.r
	continued := false
	if r.Status == http.StatusPartialContent {
		continued = c.rare().part == q.ph32 && c.requests > 1
		c.keepRare().part = q.ph32
	}
	junk := r.Method == "" && r.Target == ""
	assetOfPage := q.res == resourceAsset && r.Referer != ""
	return !assetOfPage && !c.inView(q) && q.res != resourceSubrequest && !continued && !q.part && !junk
}

// addToRate puts q on the timeline and in c's rate window. A record without
// a time has no rate: every such record would fall into one second of the
// year 1.
func (d *Detector) addToRate(c *client, q *request) {
	if q.future {
		return
	}
	d.addToTimeline(c, q.r.Time)
	if !q.timed {
		return
	}
	if c.epoch != d.epoch {
		// The clock went back since c's last request: its window starts
		// again (step.go).
		c.epoch = d.epoch
		d.restart(c, d.watermark())
	}
	d.advance(c, d.watermark())
	idle := c.rate.window == nil
	if !c.rate.add(q.sec, q.hits, q.r.Bytes, q.r.Status, q.ph, d.th.pool) {
		d.late++
	}
	if w := c.rate.window; idle && w != nil {
		w.active = int32(len(d.active))
		w.pair, w.paired = uint32(d.pair), d.pair != 0
		d.active = append(d.active, c)
	}
}

// checkRobotsTxt checks q against the robots.txt of its host, when
// --robots gave any. unreachable: q came while that file was unreachable,
// and is not judged.
func (d *Detector) checkRobotsTxt(c *client, q *request) (violated, unreachable bool, j checkResult) {
	if !d.checker.enabled {
		return false, false, j
	}
	var before int64
	if f := c.rare().fetches; f != nil {
		before = f.unreachable
	}
	violated, j = d.check(c, q.r, q.path, q.facts, q.res)
	unreachable = c.rare().fetches != nil && c.rare().fetches.unreachable > before
	return violated, unreachable, j
}

// tell streams q to Config.Events, with the violation it is when c has
// been announced a robot.
func (d *Detector) tell(c *client, q *request, violated bool, j *checkResult) {
	r := q.r
	var v *findings.Violation
	if violated && c.flags&flagAnnounced != 0 {
		v = &findings.Violation{IP: c.ip, UserAgent: c.ua.ua, Time: r.Time, Method: capText(r.Method, MaxStoredMethod),
			Path: capText(q.path, MaxStoredPath), Status: r.Status, Group: j.m.Group(), RobotsTxtFrom: j.ver.fromText()}
		if j.rule != nil {
			v.Rule, v.Line = j.rule.Text, j.rule.Line
		}
	}
	d.stream(c, q.sec, !q.timed || q.future, q.res == resourceRobotsTxt, violated, v)
}
