package detect

import (
	"time"

	"github.com/robowatch/robowatch/findings"
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

// sessionState is a client's sessions, counted as its requests come: 21
// bytes, which the client record's size class had free.
type sessionState struct {
	n, violating, delayed, fast, notModified uint32
}

// sessionFlags is the rest of a client's sessionState: apart, so that
// its three bytes fill a word of the client record with its other small
// fields rather than take one of their own.
type sessionFlags struct {
	flags uint8
	first uint8 // the flags of the first session, once it ended
	head  uint8 // EdgeOpensRobots: the first request fetched robots.txt; headDelayHeld; headJunk
}

// headDelayHeld, a bit of sessionFlags.head beside EdgeOpensRobots: the
// first request was under its matcher's Crawl-delay, and the client still
// holds that matcher. Most clients of a site whose robots.txt gives a
// Crawl-delay for every robot keep no clientRare then; the delay moves to
// clientRare.headDelayMs only when the matcher changes (matcherFor).
const headDelayHeld uint8 = 1 << 7

// headJunk, a bit of sessionFlags.head: every request of the client so far
// was junk (no request line: junkOnly), so its junk and other-method
// counts are its requests, kept in clientRare only once it sends an HTTP
// request (spillJunk). A log holds many such one-line clients.
const headJunk uint8 = 1 << 6

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
	if c.requests == 1 || timed && sec-prev > int64(findings.SessionGap/time.Second) {
		if s.n == 1 {
			f.first = f.flags
		}
		inc32(&s.n)
		f.flags = 0
		if c.requests == 1 && robotsTxt {
			f.head = findings.EdgeOpensRobots
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
	if delay, ok := c.matcher().CrawlDelay(); ok && delay > 0 {
		if c.requests == 1 {
			f.head |= headDelayHeld
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
		if c.sf.head&headJunk == 0 {
			inc32(&c.keepRare().otherMethods)
		}
	}
	if !timed {
		return
	}
	b := c.rare().backoff
	if b != nil && b.open {
		if sec > b.start+findings.BackoffWindow {
			b.close()
		} else if sec > b.start {
			b.after++
		}
	}
	if (r.Status == 429 || r.Status == 503) && (b == nil || !b.open) {
		// With no request in the minute before, there was no pace to
		// keep or slow: such an answer opens no episode.
		if before := c.rate.requestsIn(sec-findings.BackoffWindow, sec-1) + c.rare().seededIn(sec-findings.BackoffWindow, sec-1); before > 0 {
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
//
// Its Methods is methods, cleared and filled: the caller's own map, which
// it may reuse once the Conduct was added to its row (Conduct.Add copies
// the counts): a map made for each robot client, and dropped, was 24 of
// the 1,249 perf samples of the churn log's worker Results.
func conductOf(c *client, checked bool, methods map[string]int64) findings.Conduct {
	s := &c.sess
	x := c.rare()
	other := c.otherMethods()
	get := int64(c.requests) - int64(c.head) - int64(c.posts) - other
	k := findings.Conduct{
		Sessions:           int64(s.n),
		RobotsTxtFetches:   int64(c.robotsTxt),
		Requests:           int64(c.requests),
		ViolatingSessions:  int64(s.violating),
		CrawlDelaySessions: int64(s.delayed),
		FastSessions:       int64(s.fast),
		NotModified:        int64(s.notModified),
		Methods:            methods,
	}
	if checked {
		k.MarkChecked()
	}
	clear(methods)
	for _, m := range [...]struct {
		name string
		n    int64
	}{{"GET", get}, {"HEAD", int64(c.head)}, {"POST", int64(c.posts)}, {"other", other}} {
		if m.n > 0 {
			methods[m.name] = m.n
		}
	}
	if f := x.fetches; f != nil {
		gap := max(f.maxGap, c.lastSec()-f.latest, 0)
		k.RobotsTxtMaxGap = &gap
		k.UnjudgedSessions = f.unjudged
	}
	if b := x.backoff; b != nil {
		b.close()
		k.ErrorEpisodes, k.ErrorBefore, k.ErrorAfter = b.episodes, b.sumBefore, b.sumAfter
	}
	return k
}
