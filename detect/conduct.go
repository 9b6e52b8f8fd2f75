package detect

import (
	"math"
	"time"

	"github.com/robowatch/robowatch/logparse"
)

// Conduct: how each robot behaved, in the measures the studies of crawler
// behaviour use (Liu et al., IMC 2025; Kim et al., 2025), so that one log's
// figures can be set beside theirs.
//
// A session is a client's run of requests with no pause longer than
// SessionGap; a robot's sessions are its clients'. Every share is kept as
// the counts it is made of, so that parts merge by adding them (workers and
// --shard parts hold disjoint clients: exact). A report of one day ends its
// sessions, copies and error episodes at the end of its log; the merge of
// days joins them again by the clients' edges (edges.go).

// SessionGap is the pause that ends a session: the next request starts
// another.
const SessionGap = 5 * time.Minute

// backoffWindow is the minute before and after a 429 or 503 answer whose
// requests error_backoff compares.
const backoffWindow = 60

// Conduct is what one robot name's clients did, in the studies' measures.
// The shares are made of the counts beside them.
type Conduct struct {
	Sessions         int64 `json:"sessions"`
	RobotsTxtFetches int64 `json:"robots_txt_fetches"`
	// RobotsTxtMaxGap is the longest time, in seconds, one of its clients
	// crawled on one copy: from a fetch to its last request before the
	// next; null when no client fetched robots.txt.
	RobotsTxtMaxGap *int64 `json:"robots_txt_max_gap_s"`
	// DisallowCompliance is the share of its sessions with no violation,
	// of those judged: a session whose only requests not judged were made
	// while robots.txt was unreachable is left out. Null when no robots.txt
	// was checked, or no session could be judged.
	DisallowCompliance *float64 `json:"disallow_compliance"`
	// CrawlDelayCompliance is the share of its sessions under a Crawl-delay
	// in which no two requests came closer than it; null without one.
	CrawlDelayCompliance *float64 `json:"crawl_delay_compliance"`
	// ErrorBackoff: slowed, kept-pace or none-seen (the Backoff constants).
	ErrorBackoff     string           `json:"error_backoff"`
	ConditionalShare float64          `json:"conditional_share"` // share of its requests answered 304
	Methods          map[string]int64 `json:"methods"`           // requests by method: GET, HEAD, POST, other

	// The counts the shares are made of, for a merge.
	Requests           int64 `json:"requests"`
	ViolatingSessions  int64 `json:"violating_sessions"`
	UnjudgedSessions   int64 `json:"unjudged_sessions"` // sessions with requests while robots.txt was unreachable, and no violation
	CrawlDelaySessions int64 `json:"crawl_delay_sessions"`
	FastSessions       int64 `json:"crawl_delay_fast_sessions"` // sessions under a Crawl-delay that broke it
	NotModified        int64 `json:"not_modified"`
	ErrorEpisodes      int64 `json:"error_episodes"` // 429 or 503 answers that opened a minute of watching
	ErrorBefore        int64 `json:"error_before"`   // requests in the minute before each
	ErrorAfter         int64 `json:"error_after"`    // requests in the minute after each

	checked bool // disallow_compliance is known
}

// The values of Conduct.ErrorBackoff.
const (
	BackoffSlowed   = "slowed"
	BackoffKeptPace = "kept-pace"
	BackoffNoneSeen = "none-seen"
)

// Served counts the answers a robot got for robots.txt, by what RFC 9309
// makes of them.
type Served struct {
	OK          int64 `json:"2xx"`  // the file (a page excepted)
	Redirect    int64 `json:"3xx"`  // redirects, followed up to five hops
	Unavailable int64 `json:"4xx"`  // 401, 403, 404, 410: no file, allow all
	Unreachable int64 `json:"5xx"`  // 5xx or no answer (444, 499): complete disallow unless it holds a copy
	Page        int64 `json:"page"` // 2xx with an HTML page's size, not the file's: a login or challenge page
}

func (s *Served) add(o *Served) {
	s.OK += o.OK
	s.Redirect += o.Redirect
	s.Unavailable += o.Unavailable
	s.Unreachable += o.Unreachable
	s.Page += o.Page
}

// sessionState is a client's sessions, counted as its requests come: 21
// bytes, which the client record's size class had free.
type sessionState struct {
	n, violating, delayed, fast, notModified uint32
}

// sessionFlags is the rest of a client's sessionState: apart, so that
// its three bytes fill the client record's padding (a record of 288
// bytes, not 296, which the allocator rounds to 320).
type sessionFlags struct {
	flags uint8
	first uint8 // the flags of the first session, once it ended
	head  uint8 // EdgeOpensRobots: the first request fetched robots.txt
}

// The flags of the current session, and of the last request.
const (
	sessViolating   uint8 = 1 << iota // a violation in this session
	sessDelayed                       // this session was under a Crawl-delay
	sessFast                          // it came faster than the Crawl-delay in this session
	sessRobotsTxt                     // the last request was a fetch of robots.txt
	sessUnreachable                   // a request in this session while robots.txt was unreachable
)

// backoff is a client's 429 and 503 answers and its pace around them.
type backoff struct {
	open          bool
	start         int64 // the second of the answer that opened the episode
	before, after int64 // its requests in the minute before and after
	episodes      int64
	sumBefore     int64
	sumAfter      int64
	// seeded: the open episode began the day before (Config.Seed), whose
	// report counted it: only its requests after are this run's.
	seeded bool
}

// close ends the open episode.
func (b *backoff) close() {
	if !b.open {
		return
	}
	b.open = false
	if !b.seeded {
		b.episodes++
	}
	b.seeded = false
	b.sumBefore += b.before
	b.sumAfter += b.after
}

// robotsState is what the client's last answers for robots.txt leave it
// holding (RFC 9309 2.3.1).
type robotsState uint8

const (
	robotsUnknown     robotsState = iota // no answer that says, or redirects being followed
	robotsOK                             // a file: judged against it
	robotsNone                           // 4xx or too many redirects: no file, allow all
	robotsUnreachable                    // 5xx or no answer: complete disallow unless it holds a copy
)

// maxRedirects is how many redirects in a row RFC 9309 (2.2.2) asks a
// crawler to follow; past them it may take robots.txt as unavailable.
const maxRedirects = 5

// serve records one answer for robots.txt: status, bytes sent, and h,
// the versions of the file given for its host (nil: none).
func (f *robotsFetches) serve(status int, bytes int64, h *history) {
	switch {
	case status >= 200 && status < 300 && servedPage(bytes, h):
		// Named, not excused: the size says a page, but the file given
		// may only differ from the one served; what the robot asks for
		// is still judged against it.
		f.served.Page++
		f.state, f.hops = robotsOK, 0
	case status >= 200 && status < 300:
		f.served.OK++
		f.state, f.hops = robotsOK, 0
	case status >= 300 && status < 400:
		f.served.Redirect++
		if f.hops++; f.hops > maxRedirects {
			f.state = robotsNone
		}
	case toldNone(int32(status)):
		f.served.Unavailable++
		f.state, f.hops = robotsNone, 0
	case status >= 500 && status < 600, status == 444, status == 499:
		f.served.Unreachable++
		f.state, f.hops = robotsUnreachable, 0
	}
}

// servedPage reports whether a 2xx answer of bytes is a page rather than
// the host's robots.txt: far larger than every version of the file (a
// login or proof-of-work page is kilobytes of HTML where the file is a few
// lines). Without a file, or a size, it cannot tell. Headers logged with
// the body (%O) and a file compressed on the way stay well under the bound.
func servedPage(bytes int64, h *history) bool {
	if h == nil || bytes <= 0 {
		return false
	}
	var size int64
	for _, v := range h.vers {
		if v.rb == nil || v.rb.Truncated {
			return false
		}
		size = max(size, int64(len(v.rb.Text)))
	}
	return len(h.vers) > 0 && bytes >= 2*size+1024
}

// conduct counts one request of c, at sec (prev: the latest before it),
// in its sessions, methods and error episodes.
// unreachable says the request was made while robots.txt was unreachable,
// and not judged.
func (d *Detector) conduct(c *client, r *logparse.Record, sec, prev int64, future, robotsTxt, violated, unreachable bool) {
	s, f := &c.sess, &c.sf
	timed := !r.Time.IsZero() && !future
	if c.requests == 1 || timed && sec-prev > int64(SessionGap/time.Second) {
		if s.n == 1 {
			f.first = f.flags
		}
		inc32(&s.n)
		f.flags = 0
		if c.requests == 1 && robotsTxt {
			f.head = EdgeOpensRobots
		}
	}
	// A session is unjudged while it has unreachable requests and no
	// violation: one found later makes it a violating one.
	if unreachable && f.flags&sessUnreachable == 0 {
		f.flags |= sessUnreachable
		if f.flags&sessViolating == 0 {
			c.rare().fetches.unjudged++
		}
	}
	if violated && f.flags&sessViolating == 0 {
		f.flags |= sessViolating
		inc32(&s.violating)
		if f.flags&sessUnreachable != 0 {
			c.rare().fetches.unjudged--
		}
	}
	if delay, ok := c.matcher.CrawlDelay(); ok && delay > 0 {
		if c.requests == 1 {
			c.keepRare().headDelayMs = delay.Milliseconds()
		}
		if f.flags&sessDelayed == 0 {
			f.flags |= sessDelayed
			inc32(&s.delayed)
		}
		// Whole seconds: a gap logged as 9 s may be 9.99 s, so it is one
		// second short of a delay of 10 only when 8 s or less. A fetch of
		// robots.txt and the first page after it may come together.
		if timed && c.requests > 1 && !robotsTxt && f.flags&(sessRobotsTxt|sessFast) == 0 && sec >= prev &&
			time.Duration(sec-prev+1)*time.Second < delay {
			f.flags |= sessFast
			inc32(&s.fast)
		}
	}
	if robotsTxt {
		f.flags |= sessRobotsTxt
	} else {
		f.flags &^= sessRobotsTxt
	}
	if r.Status == 304 {
		inc32(&s.notModified)
	}
	switch r.Method {
	case "GET", "HEAD", "POST":
	default:
		inc32(&c.keepRare().otherMethods)
	}
	if !timed {
		return
	}
	b := c.rare().backoff
	if b != nil && b.open {
		if sec > b.start+backoffWindow {
			b.close()
		} else if sec > b.start {
			b.after++
		}
	}
	if (r.Status == 429 || r.Status == 503) && (b == nil || !b.open) {
		// With no request in the minute before, there was no pace to
		// keep or slow: such an answer opens no episode.
		if before := c.rate.requestsIn(sec-backoffWindow, sec-1) + c.rare().seededIn(sec-backoffWindow, sec-1); before > 0 {
			if b == nil {
				b = new(backoff)
				c.keepRare().backoff = b
			}
			b.open, b.start, b.before, b.after = true, sec, before, 0
		}
	}
}

// requestsIn counts the requests of the seconds from to to that the
// window still holds: all of the last minute and more (see rate.add).
func (r *rate) requestsIn(from, to int64) int64 {
	if r.window == nil {
		return 0
	}
	var n int64
	for i := range r.secs {
		if e := &r.secs[i]; from <= e.sec && e.sec <= to {
			n += int64(e.n)
		}
	}
	return n
}

// seededIn counts the requests of the day before (Config.Seed) in the
// seconds from to to.
func (x *clientRare) seededIn(from, to int64) int64 {
	var n int64
	for _, r := range x.seedRecent {
		if from <= r[0] && r[0] <= to {
			n += r[1]
		}
	}
	return n
}

// conductOf is the Conduct of client c alone, for its robots row.
func conductOf(c *client, checked bool) Conduct {
	s := &c.sess
	x := c.rare()
	get := c.requests - int64(c.head) - int64(c.posts) - int64(x.otherMethods)
	k := Conduct{
		Sessions:           int64(s.n),
		RobotsTxtFetches:   int64(c.robotsTxt),
		Requests:           c.requests,
		ViolatingSessions:  int64(s.violating),
		CrawlDelaySessions: int64(s.delayed),
		FastSessions:       int64(s.fast),
		NotModified:        int64(s.notModified),
		Methods:            map[string]int64{},
		checked:            checked,
	}
	for m, n := range map[string]int64{"GET": get, "HEAD": int64(c.head), "POST": int64(c.posts), "other": int64(x.otherMethods)} {
		if n > 0 {
			k.Methods[m] = n
		}
	}
	if f := x.fetches; f != nil {
		gap := max(f.maxGap, c.last.sec-f.latest, 0)
		k.RobotsTxtMaxGap = &gap
		k.UnjudgedSessions = f.unjudged
	}
	if b := x.backoff; b != nil {
		b.close()
		k.ErrorEpisodes, k.ErrorBefore, k.ErrorAfter = b.episodes, b.sumBefore, b.sumAfter
	}
	return k
}

// add adds o, another client's or part's conduct, to k.
func (k *Conduct) add(o *Conduct) {
	// Saturating: the ledgers of other sites are theirs to write, and
	// their counts are only known to be 0 or more (see MergeLedgers).
	for _, p := range [...][2]*int64{{&k.Sessions, &o.Sessions}, {&k.RobotsTxtFetches, &o.RobotsTxtFetches},
		{&k.Requests, &o.Requests}, {&k.ViolatingSessions, &o.ViolatingSessions}, {&k.UnjudgedSessions, &o.UnjudgedSessions},
		{&k.CrawlDelaySessions, &o.CrawlDelaySessions}, {&k.FastSessions, &o.FastSessions}, {&k.NotModified, &o.NotModified},
		{&k.ErrorEpisodes, &o.ErrorEpisodes}, {&k.ErrorBefore, &o.ErrorBefore}, {&k.ErrorAfter, &o.ErrorAfter}} {
		*p[0] = addBytes(*p[0], *p[1])
	}
	if o.RobotsTxtMaxGap != nil && (k.RobotsTxtMaxGap == nil || *o.RobotsTxtMaxGap > *k.RobotsTxtMaxGap) {
		g := *o.RobotsTxtMaxGap
		k.RobotsTxtMaxGap = &g
	}
	if k.Methods == nil {
		k.Methods = map[string]int64{}
	}
	for m, n := range o.Methods {
		k.Methods[m] = addBytes(k.Methods[m], n)
	}
	k.checked = k.checked || o.checked || o.DisallowCompliance != nil
}

// Negative reports whether a count of k is below 0: none is in a report
// or ledger robowatch wrote.
func (k *Conduct) Negative() bool {
	for _, n := range k.Methods {
		if n < 0 {
			return true
		}
	}
	return min(k.Sessions, k.RobotsTxtFetches, k.Requests, k.ViolatingSessions, k.UnjudgedSessions, k.CrawlDelaySessions,
		k.FastSessions, k.NotModified, k.ErrorEpisodes, k.ErrorBefore, k.ErrorAfter) < 0
}

// finish works out the shares from the counts.
func (k *Conduct) finish() {
	share := func(n, of int64) float64 { return math.Round(float64(n)/float64(of)*1000) / 1000 }
	// A part read back from JSON says it was checked by its share.
	k.checked = k.checked || k.DisallowCompliance != nil
	k.DisallowCompliance, k.CrawlDelayCompliance = nil, nil
	if judged := k.Sessions - k.UnjudgedSessions; k.checked && judged > 0 {
		v := share(judged-k.ViolatingSessions, judged)
		k.DisallowCompliance = &v
	}
	if k.CrawlDelaySessions > 0 {
		v := share(k.CrawlDelaySessions-k.FastSessions, k.CrawlDelaySessions)
		k.CrawlDelayCompliance = &v
	}
	k.ConditionalShare = 0
	if k.Requests > 0 {
		k.ConditionalShare = share(k.NotModified, k.Requests)
	}
	// Summed over its episodes: a robot that halves its pace after most
	// answers but not after a busy one is judged by what it sent.
	switch {
	case k.ErrorEpisodes == 0:
		k.ErrorBackoff = BackoffNoneSeen
	case k.ErrorAfter < k.ErrorBefore-k.ErrorAfter: // under half, without 2*ErrorAfter wrapping
		k.ErrorBackoff = BackoffSlowed
	default:
		k.ErrorBackoff = BackoffKeptPace
	}
	if k.Methods == nil {
		k.Methods = map[string]int64{}
	}
}
