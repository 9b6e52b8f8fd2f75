package detect

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/findings"
)

// liveState is the Detector's streaming bookkeeping, used only with
// Config.Events.
type liveState struct {
	robots, violations, incidents int64
	open                          int
	expired                       int64
	expireAt                      int64 // log second of the next scan for idle clients
	hook                          incidentHook
}

// incidentHook passes the incidents a client's rate opens and closes to
// Events; rate knows no client, so the Detector names it before advancing
// its rate.
type incidentHook struct {
	d *Detector
	c *client
}

func (h *incidentHook) opened(o *openIncident) {
	if h.c.flags&flagEarly != 0 {
		// Told already, when its requests crossed the threshold.
		h.c.flags &^= flagEarly
		return
	}
	d := h.d
	d.live.incidents++
	d.live.open++
	d.cfg.Events.Incident(d.incident(h.c, o.incident, eventName(h.c)))
}

func (h *incidentHook) closed(in *incident) {
	d := h.d
	d.live.open--
	d.cfg.Events.IncidentEnd(d.incident(h.c, *in, eventName(h.c)))
}

// advance advances c's rate to upTo, telling Events of the incidents that
// open and close.
func (d *Detector) advance(c *client, upTo int64) {
	if d.th.hook != nil {
		d.th.hook.c = c
	}
	c.advanceRate(upTo, d.th)
}

// stream tells Events what c's request showed: a first robot verdict, a
// violation (v, when c is a robot already), an incident crossing its
// threshold at sec (untimed: the record has no usable time).
func (d *Detector) stream(c *client, sec int64, untimed, robotsTxt, violated bool, v *findings.Violation) {
	opened := false
	if !untimed && c.flags&flagEarly == 0 && c.openIncident() == nil && c.rate.window != nil {
		if in, ok := c.rate.crossing(sec, d.th); ok {
			c.flags |= flagEarly
			d.live.incidents++
			d.live.open++
			opened = true
			d.cfg.Events.Incident(d.incident(c, in, eventName(c)))
		}
	}
	if c.flags&flagAnnounced != 0 {
		if v != nil {
			d.live.violations++
			v.Name = eventName(c)
			d.cfg.Events.Violation(*v)
		}
		return
	}
	// Judging costs a few formatted strings: a client is judged on each of
	// its first requests, then at every power of two, and at once when it
	// fetches robots.txt, crosses the rate threshold or breaks robots.txt
	// (likewise thinned); Advance catches up with the rest.
	n := c.requests
	due := n <= 16 || n&(n-1) == 0 || robotsTxt || opened
	if violated {
		if n := c.rare().viol.n; n <= 16 || n&(n-1) == 0 {
			due = true
		}
	}
	if due {
		d.announce(c, d.streamEnv())
	}
}

// streamEnv is the verdict environment of a verdict while reading.
func (d *Detector) streamEnv() *verdictEnv {
	lt := d.counts.traits()
	lt.fleets = d.fleets // the strings so far: a live run judges as it reads
	return &verdictEnv{lt: lt, cfg: d.cfg, loc: d.loc}
}

// announce judges c and, if it is a robot, tells Events so, and of the
// violations it made before.
func (d *Detector) announce(c *client, env *verdictEnv) {
	v := env.verdict(c)
	if !v.Robot {
		return
	}
	c.flags |= flagAnnounced
	d.live.robots++
	d.cfg.Events.Robot(v)
	if c.rare().viol == nil {
		return
	}
	for i := range c.rare().viol.list {
		d.live.violations++
		d.cfg.Events.Violation(storedViolationOf(c, i))
	}
}

// eventName is the name events give c: its robot name once judged one,
// else what its User-agent names.
func eventName(c *client) string {
	k := c.ua.agent.Kind
	if c.flags&flagAnnounced != 0 && (k == agents.Browser || k == agents.Suspicious || k == agents.Empty && c.flags&flagAgentField == 0) {
		return unnamed(c.ip) // as its Verdict names it
	}
	return c.ua.agent.Name
}

// storedViolationOf is c's i-th stored violation, its text copied: the
// client's buffer is still being written.
func storedViolationOf(c *client, i int) findings.Violation {
	cv := c.rare().viol
	sv := &cv.list[i]
	j := &cv.judged.list[sv.judged]
	text := cv.text[sv.off:]
	v := findings.Violation{
		IP: c.ip, UserAgent: c.ua.ua, Name: eventName(c), Time: sv.time(&cv.judged),
		Method: string(text[:sv.mlen]), Path: string(text[sv.mlen : uint32(sv.mlen)+sv.plen]),
		Status: int(sv.status), Group: j.m.Group(),
	}
	if j.rule != nil {
		v.Rule, v.Line = j.rule.Text, j.rule.Line
	}
	return v
}

// Advance tells the Detector that the log has been quiet for quiet (wall
// time since its last record, in a live run): the log's clock moves on by
// that much, so that the seconds before it are final, incidents that
// stopped close, and clients idle past Config.Expire expire. A record that
// arrives later, dated before the new clock less ReorderTolerance, counts
// in its client's totals but not in its rates (Result.LateRecords).
//
// It also judges the clients active in the last minutes that are not yet
// robots, so that a robot event is at most one Advance late. Without
// Config.Events it only sweeps.
func (d *Detector) Advance(quiet time.Duration) {
	if d.result != nil || !d.started {
		return
	}
	if q := int64(quiet / time.Second); q > 0 && d.maxSec < math.MaxInt64-q {
		// The clock runs on; what it was is not kept, so the next record's
		// own time puts maxSec back where the log is.
		saved := d.maxSec
		d.maxSec += q
		d.sweep()
		d.maxSec = saved
	} else {
		d.sweep()
	}
	if d.cfg.Expire > 0 {
		d.expire(int64(quiet / time.Second))
	}
	if d.cfg.Events == nil {
		return
	}
	env := d.streamEnv()
	env.addrs = addressesOf(&d.clients)
	for _, c := range d.active {
		if c.flags&flagAnnounced == 0 {
			d.announce(c, env)
		}
	}
	// A rotating User-agent is seen per address, not per client: its
	// clients are idle after a request or two, so look at them all.
	for c := range d.clients.all() {
		if c.flags&flagAnnounced == 0 && rotates(env.addrs, c.ip) {
			d.announce(c, env)
		}
	}
}

// Live returns the running counts; see Live.
func (d *Detector) Live() findings.Live {
	l := findings.Live{
		Time: d.last, Records: d.records, Clients: int64(d.clients.len()) + d.foldedClients(),
		Robots: d.live.robots, Violations: d.live.violations, Incidents: d.live.incidents,
		OpenIncidents: d.live.open, Expired: d.live.expired,
	}
	if d.other.Requests == 0 {
		l.Clients = int64(d.clients.len())
	}
	return l
}

// expireEvery is how often, in log seconds, Advance looks for idle clients.
const expireEvery = 60

// expire folds the clients idle for Config.Expire into Other, so that a
// follow run of weeks holds the clients of the last day, not of every day.
func (d *Detector) expire(quiet int64) {
	now := d.maxSec + quiet
	if now < d.live.expireAt {
		return
	}
	d.live.expireAt = now + expireEvery
	cut := time.Unix(now, 0).Add(-d.cfg.Expire)
	// No client is parked under Config.Expire (Detector.parkable): every one
	// is a record.
	for c := range d.clients.records() {
		if c.rare().watch != nil || !c.lastOf().time().Before(cut) || c.rate.window != nil {
			continue
		}
		if c.evict.at >= 0 {
			d.heapRemove(int(c.evict.at))
		}
		d.foldClient(c)
		d.live.expired++
	}
}

// heapRemove takes the client at i out of the eviction heap.
func (d *Detector) heapRemove(i int) {
	h := &d.clients.heap
	c := d.clients.evictOf((*h)[i].place)
	last := len(*h) - 1
	if i != last {
		d.swap(i, last)
	}
	*h = (*h)[:last]
	if i < last {
		d.siftDown(i)
		d.siftUp(i)
	}
	c.at = -1
}

// crossing reports whether the seconds r holds, final or not, already
// put the client over the rate threshold in the windows ending at sec or at
// its latest second: more records can only add to them, so the incident
// is certain, and it is told now rather than when its seconds become final
// (ReorderTolerance later). The incident returned covers the shortest tail
// of the window that crosses, with its counts so far.
func (r *rate) crossing(sec int64, t thresholds) (incident, bool) {
	secs := r.secs
	if len(secs) == 0 {
		return incident{}, false
	}
	for _, end := range [2]int64{secs[len(secs)-1].sec, sec} {
		var h10, h60 uint32
		start := int64(math.MaxInt64)
		for i := len(secs) - 1; i >= 0; i-- {
			e := &secs[i]
			if e.sec > end {
				continue
			}
			if e.sec <= end-window60 {
				break
			}
			h60 += e.hits
			if e.sec > end-window10 {
				h10 += e.hits
				if h10 > t.burst && start == math.MaxInt64 {
					start = e.sec
				}
			}
			if h60 >= t.sustained && start == math.MaxInt64 {
				start = e.sec
			}
		}
		if start == math.MaxInt64 {
			continue
		}
		in := incident{start: start, end: end}
		set := map[uint64]struct{}{}
		for i := range secs {
			e := &secs[i]
			if e.sec < start || e.sec > end {
				continue
			}
			in.requests += int64(e.n)
			in.hits += int64(e.hits)
			in.bytes = findings.AddBytes(in.bytes, e.bytes)
			for k := range e.status {
				in.status[k] += int64(e.status[k])
			}
			in.peak = max(in.peak, e.n)
		}
		for i := range secs {
			if e := &secs[i]; e.sec >= start && e.sec <= end {
				in.addCurve(e.sec, e.n, nil) // a copy for the event, not kept: outside the budget
			}
		}
		for _, p := range r.paths {
			if p.sec >= start && p.sec <= end && len(set) < t.maxPaths {
				set[p.h] = struct{}{}
			}
		}
		in.paths = len(set)
		return in, true
	}
	return incident{}, false
}

// TopRobots returns the n robot names with the most requests among the
// tracked clients Events was told are robots, most first.
func (d *Detector) TopRobots(n int) []findings.LiveRobot {
	if d.result != nil || n <= 0 {
		return nil
	}
	byName := map[string]*findings.LiveRobot{}
	for c := range d.clients.all() {
		if c.flags&flagAnnounced == 0 {
			continue
		}
		name := eventName(c)
		op, id, _, _ := d.cfg.ranges().IdentifyAt(name, c.ip, c.first.time(), c.lastOf().time())
		key := findings.RobotRowName(name, id)
		r := byName[key]
		if r == nil {
			r = &findings.LiveRobot{Name: key, Operator: op, Identity: id, Purpose: agents.Purpose(name)}
			byName[key] = r
		}
		if r.Identity != id {
			r.Identity = agents.IdentityUnverified
		}
		r.Clients++
		r.Requests += int64(c.requests)
		if v := c.rare().viol; v != nil {
			r.Violations += v.n
		}
		r.Incidents += c.incidentCount()
		if c.openIncident() != nil || c.flags&flagEarly != 0 {
			r.Incidents++
		}
	}
	out := make([]findings.LiveRobot, 0, len(byName))
	for _, r := range byName {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b findings.LiveRobot) int {
		return cmp.Or(cmp.Compare(b.Requests, a.Requests), cmp.Compare(a.Name, b.Name))
	})
	return out[:min(n, len(out))]
}

// Clock is the log's clock: the latest record's time.
func (d *Detector) Clock() time.Time { return d.last }
