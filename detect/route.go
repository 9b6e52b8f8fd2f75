package detect

import (
	"math"
	"slices"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

// Routes is what a Pool needs of each record of a batch before handing it
// over: the worker that judges it, its second and what it asks for, and
// the log's counts of the whole batch. Pool.Route works it out on any
// goroutine (robowatch's parsers, each on its own block), so that
// Pool.AddRoutes, on the one goroutine that hands batches over in log
// order, only follows the log's clock and the fleet tally: routing and
// counting were 0.17 s of CPU on that goroutine on a million-line log, a
// tenth of what a second core could take over. A Routes is reused from
// batch to batch, once the workers are done with the last.
type Routes struct {
	owner     []uint8       // each record's worker (routeOf), ownerPass, or ownerNone once left out
	sec       []int64       // each record's Unix second, or noClock when it moves no clock
	res       []resource    // what each asks for (classify of its path)
	fleet     []uint8       // what each one's path says for the fleet tally (fleetFlagsOf)
	shared    []*sharedPath // each one's path interned (nil: not interned)
	picks     [][]int32     // picks[k]: the records routed to worker k, in order
	clock     []int64       // poolBatch.clock, filled by AddRoutes
	counts    logCounts     // of every record
	elsewhere int           // records of other shards
	left      bool          // a record was left out after Route: counts and picks include it
}

// noClock is the second of a record that moves no clock: it has no time,
// or one past the Detectors' horizon (ahead).
const noClock = math.MaxInt64

// PathMemo is a memo of what paths say alone, for Route on one goroutine:
// classifying every record's path afresh there, and again in a memo on
// the goroutine that hands batches over, was a fifth of what a Pool of
// two workers ran more than one Detector (cachegrind, gen400k.log).
type PathMemo struct{ m pathMemo }

// NewPathMemo returns an empty PathMemo.
func NewPathMemo() *PathMemo {
	// A Detector's room (192 kB), though a Route asks only a path's kind,
	// fingerprint and account page: with a quarter of it each parser's
	// memo missed where the workers' did not, and worked the facts out
	// again, 69M instructions of 3.76G on gen400k.log (cachegrind, two
	// workers), for 0.3 MB of peak RSS.
	return &PathMemo{pathMemo{bits: pathMemoBits}}
}

// Route works out rt for recs, each this machine's if shard owns its
// client (--shard): the routing and counting Add does, to be done apart
// from the records' order. Of p it reads only what does not change after
// NewPool, and interns paths in p.shared, which takes concurrent callers,
// so it may run on any goroutine, at the same time as Add, with a memo of
// that goroutine's (nil: none).
func (p *Pool) Route(recs []logparse.Record, shard findings.Shard, rt *Routes, memo *PathMemo) {
	if memo == nil {
		memo = NewPathMemo()
	}
	p.route(recs, shard, nil, rt, &memo.m)
}

// route is Route with mine[i] false making record i another shard's too.
func (p *Pool) route(recs []logparse.Record, shard findings.Shard, mine []bool, rt *Routes, memo *pathMemo) {
	n := len(recs)
	rt.owner = slices.Grow(rt.owner[:0], n)[:n]
	rt.sec = slices.Grow(rt.sec[:0], n)[:n]
	rt.res = slices.Grow(rt.res[:0], n)[:n]
	rt.fleet = slices.Grow(rt.fleet[:0], n)[:n]
	rt.shared = slices.Grow(rt.shared[:0], n)[:n]
	rt.counts, rt.elsewhere, rt.left = logCounts{}, 0, false
	w := uint32(len(p.dets))
	if len(rt.picks) != int(w) {
		rt.picks = make([][]int32, w)
	}
	for k := range rt.picks {
		rt.picks[k] = rt.picks[k][:0]
	}
	horizon := p.dets[0].horizon
	for i := range recs {
		r := &recs[i]
		if mine != nil && !mine[i] || !shard.Owns(r.Client) {
			rt.owner[i] = ownerPass
			rt.elsewhere++
		} else {
			o := routeOf(r.Client) % w
			rt.owner[i] = uint8(o)
			rt.picks[o] = append(rt.picks[o], int32(i))
		}
		rt.sec[i] = noClock
		if sec := r.Time.Unix(); !r.Time.IsZero() && sec <= horizon {
			rt.sec[i] = sec
		}
		path := r.Path()
		if e := p.shared.of(path); e != nil {
			rt.shared[i], rt.res[i], rt.fleet[i] = e, e.facts.res, e.fleet
			rt.counts.countFP(r, e.facts.res, e.facts.fp)
			continue
		}
		rt.shared[i] = nil
		pf := memo.of(path)
		res := pf.res
		rt.res[i] = res
		rt.fleet[i] = fleetFlagsOf(path, pf, res)
		rt.counts.countFP(r, res, pf.fp)
	}
}

// Mine reports whether record i is this machine's (Route's shard owns it).
func (rt *Routes) Mine(i int) bool { return rt.owner[i] != ownerPass }

// LeaveOut leaves record i out of the detectors (the --since/--until
// window): its clock moves none of theirs.
func (rt *Routes) LeaveOut(i int) {
	rt.owner[i] = ownerNone
	rt.left = true
}

// Elsewhere is how many of the first n records are other shards'.
func (rt *Routes) Elsewhere(n int) int {
	if n == len(rt.owner) {
		return rt.elsewhere
	}
	e := 0
	for _, o := range rt.owner[:n] {
		if o == ownerPass {
			e++
		}
	}
	return e
}
