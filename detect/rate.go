package detect

import (
	"math"
	"slices"
	"unsafe"

	"github.com/robowatch/robowatch/findings"
)

// The rate detector works on whole seconds, the resolution of access logs.
//
// Each client keeps the per-second counts of its recent traffic in a small
// sorted slice. A second is "final" once the log has moved ReorderTolerance
// past it (the detector's watermark: latest time seen minus the tolerance);
// only then are the sliding windows that end in it evaluated, so a record
// that arrives up to ReorderTolerance late still lands in the right windows
// and the peaks are exact. Windows are evaluated at occupied seconds only:
// a window that ends in an empty second holds no more than the one that
// ends in the last occupied second before it.
//
// A record later than that (older than a second already final for its
// client) is counted in the client's totals but not in the rate windows;
// the Result counts such records in LateRecords. Memory per client is
// bounded by the seconds in the last 60 s plus the tolerance, never by the
// length of the log.

const (
	window10 = 10 // seconds in the burst window
	window60 = 60 // seconds in the sustained window
	// maxPathStamps bounds the recent (second, path) pairs one client keeps
	// to count the distinct paths of its incidents.
	maxPathStamps = 8192
)

// second is one second of one client's traffic.
type second struct {
	sec    int64
	n      uint32    // requests
	hits   uint32    // requests that count against the rate threshold
	bytes  int64     // bytes sent
	status [4]uint32 // answers 2xx, 3xx, 4xx, 5xx
}

// pathStamp is one request's path (hashed) and second, kept while it may
// still fall into an incident.
type pathStamp struct {
	sec int64
	h   uint64
}

// rate is one client's sliding-window state.
type rate struct {
	*window // the recent seconds; nil while the client is idle, as most clients of a day's log are

	fin            int64 // seconds up to fin are final
	peak1          uint32
	peak10, peak60 uint32
	// Second of the 1 s peak, first seconds with traffic of the peak
	// windows: offsets from the client's first second (seconds.go).
	at1, at10, at60 secOff
}

// incidentState is a client's incidents: the one that may still grow and
// those filed. It is kept in clientRare: few clients have one.
type incidentState struct {
	open    *openIncident
	list    []incident
	dropped int32 // incidents beyond the per-client bound (at most MaxIncidentsPerClient are kept)
}

// openIncident returns the incident that may still grow, or nil.
func (c *client) openIncident() *openIncident {
	if c.x == nil || c.x.inc == nil {
		return nil
	}
	return c.x.inc.open
}

// incidents returns the filed incidents.
func (c *client) incidents() []incident {
	if c.x == nil || c.x.inc == nil {
		return nil
	}
	return c.x.inc.list
}

// incidentCount is the client's filed incidents, those past the bound
// included.
func (c *client) incidentCount() int {
	if c.x == nil || c.x.inc == nil {
		return 0
	}
	return len(c.x.inc.list) + int(c.x.inc.dropped)
}

// window is the part of a client's rate state that only matters while it
// is active: its recent seconds and paths. An idle client gives it back to
// the windowPool.
type window struct {
	secs       []second // sorted by sec; secs[:pend] are final
	pend       int
	lo10, lo60 int    // first entry of the 10 s / 60 s window ending at the last final entry
	n10, n60   uint32 // requests in those windows
	h10, h60   uint32 // hits in those windows
	paths      []pathStamp
	pathsLost  bool  // paths were dropped: incident path counts are lower bounds
	paired     bool  // pair holds the client's hashPair (its low half)
	pathsFull  int64 // with pathsLost, the cut at which paths was last found full
	// active: the client's index in Detector.active, which it is in exactly
	// while it holds a window (here, not in the client record: most
	// clients of a churn log are idle).
	active int32
	// pair: the low half of the client's hashPair when paired, which is
	// all its index slot needs (slotIndex): the sweep that parks it
	// finds its slot without hashing its address and User-agent again,
	// whose text, read first there, missed the cache. pair and paired
	// sit where the fields before them left room.
	pair uint32
}

// openIncident is a rapid-fire incident that may still grow.
type openIncident struct {
	incident
	set map[uint64]struct{}
}

// incident is a rapid-fire incident of one client, in whole seconds.
type incident struct {
	start, end  int64
	requests    int64
	hits        int64
	peak        uint32 // most requests in one second
	bytes       int64
	status      [4]int64
	paths       int
	pathsCapped bool     // paths is a lower bound
	curve       []uint32 // requests in each second from start (see addCurve)
	curveCut    bool     // curve ends before the incident does
}

// thresholds are what rate needs of the Config.
type thresholds struct {
	burst, sustained uint32
	maxIncidents     int
	maxPaths         int
	curves           *curveBudget  // room for incident curves, shared
	pool             *windowPool   // buffers of clients that fell idle, shared
	hook             *incidentHook // tells Config.Events of incidents; nil without
}

// windowPool keeps the windows of clients that fell idle, buffers and all,
// for the clients that become active next. A day's log is mostly short
// visits: without it every visit allocates a window and leaves it as
// garbage, and the garbage collector lets the heap grow to twice the live
// state to collect it. Past poolWindows, released windows are left to the
// collector, so the small ones hold at most 14 MiB (4,096 of 64 seconds
// and 64 paths). A new window starts without buffers: most clients make a
// request or two, and a buffer sized for a busy one would cost every
// client of a flood a kilobyte.
//
// Windows whose buffers grew past poolMaxCap are kept apart, up to
// poolBigBytes of buffers, and handed out first: a crawler's window grows
// to a hundred seconds and more, and when it fell idle and another busy
// client came, growing a new one from nothing was 17 MB of the million-line
// log's 52 MB of allocations, and a collection every 6 MB. Kept, the pass
// allocates 45 MB, and runs 3.7% fewer instructions on two workers
// (cachegrind, gen400k.log) for 0.5 MB of peak RSS.
type windowPool struct {
	free []*window
	// big: windows whose buffers grew past poolMaxCap (busy clients'),
	// bigBytes the bytes of their buffers, kept under poolBigBytes.
	big      []*window
	bigBytes int
}

const (
	poolWindows = 4096 // most windows the pool keeps
	poolMaxCap  = 64   // a window whose buffers grew larger (a busy client) goes to big
	// poolBigBytes bounds the buffers of the big windows kept.
	poolBigBytes = 2 << 20
)

// windowBytes is the size of w's buffers.
func windowBytes(w *window) int {
	return cap(w.secs)*int(unsafe.Sizeof(second{})) + cap(w.paths)*int(unsafe.Sizeof(pathStamp{}))
}

func (p *windowPool) get() *window {
	if n := len(p.big); n > 0 {
		w := p.big[n-1]
		p.big[n-1] = nil
		p.big = p.big[:n-1]
		p.bigBytes -= windowBytes(w)
		return w
	}
	if n := len(p.free); n > 0 {
		w := p.free[n-1]
		p.free[n-1] = nil
		p.free = p.free[:n-1]
		return w
	}
	return new(window)
}

func (p *windowPool) put(w *window) {
	if max(cap(w.secs), cap(w.paths)) > poolMaxCap {
		b := windowBytes(w)
		if p.bigBytes+b > poolBigBytes {
			return
		}
		*w = window{secs: w.secs[:0], paths: w.paths[:0]}
		p.big = append(p.big, w)
		p.bigBytes += b
		return
	}
	if len(p.free) >= poolWindows {
		return
	}
	*w = window{secs: w.secs[:0], paths: w.paths[:0]}
	p.free = append(p.free, w)
}

func newRate() rate { return rate{fin: math.MinInt64} }

// add counts one request at second sec, and hits page requests against the
// threshold (0, 1, or 2 with a page found late). It reports false,
// counting nothing, when sec is already final (the record came too late).
func (r *rate) add(sec int64, hits uint32, bytes int64, status int, path uint64, pool *windowPool) bool {
	if sec <= r.fin {
		return false
	}
	if r.window == nil {
		r.window = pool.get()
	}
	i := len(r.secs)
	for i > r.pend && r.secs[i-1].sec > sec {
		i--
	}
	var e *second
	if i > r.pend && r.secs[i-1].sec == sec {
		e = &r.secs[i-1]
	} else {
		if len(r.secs) == cap(r.secs) && r.lo60 > 0 {
			// Entries before lo60 left every window that is still to be
			// evaluated: reuse their room instead of growing.
			k := r.lo60
			n := copy(r.secs, r.secs[k:])
			r.secs = r.secs[:n]
			r.pend -= k
			r.lo10 -= k
			r.lo60 = 0
			i -= k
		}
		r.secs = slices.Insert(r.secs, i, second{sec: sec})
		e = &r.secs[i]
	}
	if e.n < math.MaxUint32 {
		e.n++
	}
	e.hits = uint32(min(uint64(e.hits)+uint64(hits), math.MaxUint32))
	if bytes > 0 {
		e.bytes = findings.AddBytes(e.bytes, bytes)
	}
	if c := status/100 - 2; 0 <= c && c < 4 && e.status[c] < math.MaxUint32 {
		e.status[c]++
	}
	r.stampPath(sec, path)
	return true
}

// stampPath remembers that path was asked for at sec, dropping stamps that
// can no longer fall into an incident before it grows the slice.
func (r *rate) stampPath(sec int64, path uint64) {
	if len(r.paths) == cap(r.paths) && len(r.paths) > 0 {
		cut := r.before(window60 + 1)
		if r.pathsLost && cut == r.pathsFull {
			// Swept at this cut and still full: nothing has left the
			// window since (a stamp is later than fin when it is made).
			// Sweeping again would cost maxPathStamps a request.
			return
		}
		keep := r.paths[:0]
		for _, p := range r.paths {
			if p.sec > cut {
				keep = append(keep, p)
			}
		}
		r.paths = keep
		if len(r.paths) >= maxPathStamps {
			r.pathsLost, r.pathsFull = true, cut
			return
		}
	}
	r.paths = append(r.paths, pathStamp{sec, path})
}

// advanceRate makes every second of c's rate up to upTo final, evaluating
// the windows that end in them, and closes an incident that can no longer
// grow.
func (c *client) advanceRate(upTo int64, t thresholds) {
	r := &c.rate
	if r.window != nil {
		for r.pend < len(r.secs) && r.secs[r.pend].sec <= upTo {
			c.stepRate(t)
		}
	}
	if upTo > r.fin {
		r.fin = upTo
	}
	if o := c.openIncident(); o != nil && r.before(window60) > o.end {
		c.closeIncident(t)
	}
}

// rateIdle reports whether nothing of c's recent traffic can matter any
// more, so its rate's buffers may be released.
func (c *client) rateIdle() bool {
	r := &c.rate
	if r.window == nil {
		return true
	}
	return c.openIncident() == nil && r.pend == len(r.secs) &&
		(len(r.secs) == 0 || r.secs[len(r.secs)-1].sec <= r.before(window60))
}

// release gives the window of an idle client back to the pool.
func (r *rate) release(pool *windowPool) {
	if r.window != nil {
		pool.put(r.window)
		r.window = nil
	}
}

// before returns fin-d, saturating while nothing is final yet.
func (r *rate) before(d int64) int64 {
	if r.fin < math.MinInt64+d {
		return math.MinInt64
	}
	return r.fin - d
}

// stepRate makes the first pending second of c's rate final.
func (c *client) stepRate(t thresholds) {
	r := &c.rate
	e := &r.secs[r.pend]
	s := e.sec
	for r.lo10 < r.pend && r.secs[r.lo10].sec <= s-window10 {
		r.n10 -= r.secs[r.lo10].n
		r.h10 -= r.secs[r.lo10].hits
		r.lo10++
	}
	for r.lo60 < r.pend && r.secs[r.lo60].sec <= s-window60 {
		r.n60 -= r.secs[r.lo60].n
		r.h60 -= r.secs[r.lo60].hits
		r.lo60++
	}
	r.n10 += e.n
	r.n60 += e.n
	r.h10 += e.hits
	r.h60 += e.hits
	if e.n > r.peak1 {
		r.peak1 = e.n
		c.setSecond(&r.at1, wideAt1, s)
	}
	if r.n10 > r.peak10 {
		r.peak10 = r.n10
		c.setSecond(&r.at10, wideAt10, r.secs[r.lo10].sec)
	}
	if r.n60 > r.peak60 {
		r.peak60 = r.n60
		c.setSecond(&r.at60, wideAt60, r.secs[r.lo60].sec)
	}
	r.pend++
	r.fin = s

	// The stretch above the threshold starts with the shortest tail of the
	// window that is over the threshold by itself, so that a stray request
	// from before the burst (or a line stamped early) does not stretch the
	// incident; windows that overlap or touch the open incident extend it,
	// so the incident is maximal.
	ws := int64(math.MaxInt64)
	if r.h10 > t.burst {
		ws = r.tail(t.burst+1, r.lo10)
	}
	if r.h60 >= t.sustained {
		ws = min(ws, r.tail(t.sustained, r.lo60))
	}
	open := c.openIncident()
	if ws == math.MaxInt64 {
		if open != nil && s-window60 > open.end {
			c.closeIncident(t)
		}
		return
	}
	if open != nil && ws <= open.end+1 {
		r.grow(open, open.end+1, s, t)
		return
	}
	after := int64(math.MinInt64) // an incident must not reach back into the one before
	if open != nil {
		after = open.end
		c.closeIncident(t)
	}
	ws = r.leadIn(ws, after, t)
	x := c.keepRare()
	if x.inc == nil {
		x.inc = &incidentState{}
	}
	open = &openIncident{incident: incident{start: ws, end: ws - 1}}
	x.inc.open = open
	r.grow(open, ws, s, t)
	if t.hook != nil {
		t.hook.opened(open)
	}
}

// leadIn moves a new incident's start back over the seconds just before it
// that each ran faster than the threshold's average pace (more than burst
// hits in 10 s, so more than burst/10 a second): a burst's first second is
// often a partial one, and it belongs to the burst. A stray early request
// (one a second) does not qualify, so it still cannot stretch the incident.
func (r *rate) leadIn(ws, after int64, t thresholds) int64 {
	i := r.pend - 1
	for i > r.lo60 && r.secs[i].sec > ws {
		i--
	}
	for i > r.lo60 && r.secs[i].sec == ws && r.secs[i-1].sec == ws-1 && ws-1 > after &&
		uint64(r.secs[i-1].hits)*10 > uint64(t.burst) {
		i--
		ws--
	}
	return ws
}

// tail returns the latest second from which the final seconds up to the
// last one hold at least need hits; lo is the window's first entry.
func (r *rate) tail(need uint32, lo int) int64 {
	var sum uint32
	for i := r.pend - 1; i > lo; i-- {
		sum += r.secs[i].hits
		if sum >= need {
			return r.secs[i].sec
		}
	}
	return r.secs[lo].sec
}

// grow adds the final seconds from..to to the open incident o. They are
// all within the last 60 s, so at or after lo60.
func (r *rate) grow(o *openIncident, from, to int64, t thresholds) {
	for i := r.lo60; i < r.pend; i++ {
		e := &r.secs[i]
		if e.sec < from || e.sec > to {
			continue
		}
		o.requests += int64(e.n)
		o.hits += int64(e.hits)
		o.bytes = findings.AddBytes(o.bytes, e.bytes)
		for k := range e.status {
			o.status[k] += int64(e.status[k])
		}
		o.peak = max(o.peak, e.n)
		o.addCurve(e.sec, e.n, t.curves)
	}
	for _, p := range r.paths {
		if p.sec < from || p.sec > to {
			continue
		}
		if o.set == nil {
			o.set = make(map[uint64]struct{})
		}
		if len(o.set) >= t.maxPaths {
			o.pathsCapped = true
			break
		}
		o.set[p.h] = struct{}{}
	}
	if r.pathsLost {
		o.pathsCapped = true
	}
	o.end = to
}

// closeIncident files c's open incident.
func (c *client) closeIncident(t thresholds) {
	inc := c.x.inc
	o := inc.open
	inc.open = nil
	o.paths = len(o.set)
	if t.hook != nil {
		t.hook.closed(&o.incident)
	}
	if len(inc.list) >= t.maxIncidents {
		inc.dropped = min(inc.dropped+1, math.MaxInt32)
		t.curves.release(&o.incident)
		return
	}
	inc.list = append(inc.list, o.incident)
}
