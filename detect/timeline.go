package detect

import (
	"maps"
	"math"
	"slices"
	"time"
	"unsafe"

	"github.com/robowatch/robowatch/findings"
)

// The timeline counts the site's requests in at most findings.MaxBins equal buckets.
// Robot or human is only known at the end of the pass, so besides the site
// totals every client keeps a sparse histogram of its own (bucket, count)
// pairs on the same buckets; the end sums the histograms of the clients
// judged robots. That is exact for any order of records: a histogram does
// not care when a count arrives.
//
// The bucket width adapts to the log's span: it starts at one second and
// steps up a ladder of widths, each a multiple of the one before, whenever
// the span no longer fits in findings.MaxBins buckets; buckets are aligned to
// multiples of the width in the log's local time (a 1 h bucket starts on the
// hour), so stepping up merges whole buckets and stays exact.
//
// Memory: the site totals are two fixed arrays. A client costs a slice
// header and a counter (32 bytes) plus 8 bytes per bucket it was active in,
// at most findings.MaxBins. The capacity of all client histograms together is capped
// at maxClientBins (16 MB); past it a client that enters a new bucket counts
// the request as spilled, and the end spreads its spilled requests over its
// own first-to-last span in proportion to the site's traffic there
// (Timeline.Estimated says how many were placed so).

// maxClientBins bounds the (bucket, count) pairs of all clients together.
const maxClientBins = 1 << 21

// timeBin is one bucket of one client's histogram: the bucket's index as an
// offset from the timeline's epoch, and the client's requests in it.
type timeBin struct {
	off int32
	n   uint32
}

// clientBins is one client's histogram, sorted by offset. Most clients of
// a busy log fall in one bucket (a botnet's, a CDN's: one request each), so
// the first bucket is kept in the record itself and a list is made only
// for a second one: a slice header and a small array per client were a
// tenth of a high-churn log's memory.
type clientBins struct {
	one  timeBin  // the only bucket while more is nil (n 0: none yet)
	more *binList // nil until a second bucket, or a request not binned
}

// binList is a client's histogram past its first bucket.
type binList struct {
	bins  []timeBin
	spill int64 // requests not binned: the memory bound was reached
}

// list returns the buckets, a view of cb's own memory: it is valid as long
// as cb is, and writes through it change cb.
func (cb *clientBins) list() []timeBin {
	switch {
	case cb.more != nil:
		return cb.more.bins
	case cb.one.n > 0:
		return unsafe.Slice(&cb.one, 1)
	}
	return nil
}

// spilled returns the requests not binned.
func (cb *clientBins) spilled() int64 {
	if cb.more == nil {
		return 0
	}
	return cb.more.spill
}

// capacity is what the histogram counts against maxClientBins: the first
// bucket counts as the two-bucket list it was before it was kept inline,
// so that the bound, and where a client starts spilling, are as they were.
func (cb *clientBins) capacity() int {
	switch {
	case cb.more != nil:
		return cap(cb.more.bins)
	case cb.one.n > 0:
		return 2
	}
	return 0
}

// siteTimeline is the timeline's running state.
type siteTimeline struct {
	started bool
	zone    int64 // offset of the log's zone, so buckets align to local time
	step    int   // index into the ladder; past its end the width doubles
	width   int64
	epoch   int64 // bucket index (local seconds / width) that offsets count from
	base    int64 // bucket index of total[0]
	n       int   // buckets in use
	total   [findings.MaxBins]int64
	other   [findings.MaxBins]int64
	untimed int64
	binCap  int // capacity of all client histograms together
}

// addToTimeline counts a timed record of client c (nil: a folded client) at t.
func (d *Detector) addToTimeline(c *client, t time.Time) {
	tl := &d.tl
	if t.IsZero() {
		tl.untimed++
		return
	}
	if !tl.started {
		tl.started = true
		tl.zone = d.zone // the log's (setZone), not this record's
		tl.width = 1
		tl.epoch = t.Unix() + tl.zone
		tl.base = tl.epoch
	}
	local := t.Unix() + tl.zone
	idx := findings.FloorDiv(local, tl.width)
	if idx < tl.base || idx >= tl.base+findings.MaxBins {
		d.widenTimeline(idx)
		idx = findings.FloorDiv(local, tl.width)
	}
	if idx < tl.base {
		// Earlier than anything so far, and it fits: move the buckets right.
		k := int(tl.base - idx)
		copy(tl.total[k:tl.n+k], tl.total[:tl.n])
		copy(tl.other[k:tl.n+k], tl.other[:tl.n])
		clear(tl.total[:k])
		clear(tl.other[:k])
		tl.n += k
		tl.base = idx
	}
	i := int(idx - tl.base)
	tl.n = max(tl.n, i+1)
	tl.total[i]++
	if c == nil {
		tl.other[i]++
		return
	}
	tl.addClient(&c.bins, int32(idx-tl.epoch))
}

// addClient counts one request in bucket off of a client's histogram.
func (tl *siteTimeline) addClient(cb *clientBins, off int32) {
	if cb.more == nil {
		switch {
		case cb.one.n > 0 && cb.one.off == off:
			cb.one.n++
			return
		case cb.one.n == 0 && tl.binCap+2 <= maxClientBins:
			tl.binCap += 2
			cb.one = timeBin{off, 1}
			return
		case cb.one.n == 0:
			cb.more = &binList{spill: 1}
			return
		}
		// A second bucket: the list the first one counted as.
		b := make([]timeBin, 1, 2)
		b[0] = cb.one
		cb.one, cb.more = timeBin{}, &binList{bins: b}
	}
	tl.addToList(cb.more, off)
}

// addToList counts one request in bucket off of a client's list.
func (tl *siteTimeline) addToList(cb *binList, off int32) {
	b := cb.bins
	j := len(b)
	if j > 0 && b[j-1].off == off {
		b[j-1].n++
		return
	}
	for j > 0 && b[j-1].off > off {
		j--
	}
	if j > 0 && b[j-1].off == off {
		b[j-1].n++
		return
	}
	if len(b) == cap(b) {
		grown := min(max(2*cap(b), 2), findings.MaxBins)
		if grown <= cap(b) || tl.binCap+grown-cap(b) > maxClientBins {
			cb.spill++
			return
		}
		nb := make([]timeBin, len(b), grown)
		copy(nb, b)
		tl.binCap += grown - cap(b)
		b = nb
	}
	cb.bins = slices.Insert(b, j, timeBin{off, 1})
}

// widenTimeline steps the bucket width up until the buckets in use and
// bucket idx (at the current width) fit in findings.MaxBins, and merges the site's
// and every client's buckets to the new width.
func (d *Detector) widenTimeline(idx int64) {
	tl := &d.tl
	lo, hi := idx, idx
	if tl.n > 0 {
		lo, hi = min(lo, tl.base), max(hi, tl.base+int64(tl.n)-1)
	}
	var k int64 = 1 // the new width over the old
	for {
		if findings.FloorDiv(hi, k)-findings.FloorDiv(lo, k) < findings.MaxBins {
			break
		}
		tl.step++
		k = findings.LadderWidth(tl.step) / tl.width
	}
	if k == 1 {
		return
	}
	tl.width *= k
	newBase := findings.FloorDiv(tl.base, k)
	var total, other [findings.MaxBins]int64
	n := 0
	for i := 0; i < tl.n; i++ {
		j := int(findings.FloorDiv(tl.base+int64(i), k) - newBase)
		total[j] += tl.total[i]
		other[j] += tl.other[i]
		n = j + 1
	}
	tl.total, tl.other, tl.n, tl.base = total, other, n, newBase
	newEpoch := findings.FloorDiv(tl.epoch, k)
	for c := range d.clients.records() {
		b := c.bins.list() // merged in place, in the list or in the record
		out := b[:0]
		for _, e := range b {
			off := int32(findings.FloorDiv(tl.epoch+int64(e.off), k) - newEpoch)
			if len(out) > 0 && out[len(out)-1].off == off {
				out[len(out)-1].n += e.n
				continue
			}
			out = append(out, timeBin{off, e.n})
		}
		if c.bins.more != nil {
			c.bins.more.bins = out
		}
	}
	// A parked client's one bucket is in its entry, which all yields a
	// copy of.
	for _, p := range d.clients.parkedEntries() {
		if p.bits&parkedBinned != 0 {
			p.bin = int32(findings.FloorDiv(tl.epoch+int64(p.bin), k) - newEpoch)
		}
	}
	tl.epoch = newEpoch
}

// robotBins is what the timeline needs of a client judged a robot, kept
// while Result releases the rest of the client.
type robotBins struct {
	name        string
	bins        clientBins
	first, last stamp
}

// timelineResult builds the Timeline from the clients judged robots, in the
// order of the verdicts, and the robot names sorted by requests.
func (d *Detector) timelineResult(robotClients []robotBins, robots []findings.RobotSummary) (findings.Timeline, []findings.RobotBuckets) {
	tl := &d.tl
	out := findings.Timeline{Untimed: tl.untimed}
	if tl.n == 0 {
		out.Requests, out.Robots, out.Humans, out.ByRobot = []int64{}, []int64{}, []int64{}, []findings.RobotTimeline{}
		return out, []findings.RobotBuckets{}
	}
	out.BucketSeconds = tl.width
	out.Start = time.Unix(tl.base*tl.width-tl.zone, 0)
	if d.loc != nil {
		out.Start = out.Start.In(d.loc)
	}
	n := tl.n
	out.Requests = slices.Clone(tl.total[:n])
	out.Robots = make([]int64, n)
	out.Humans = make([]int64, n)
	top := map[string]int{}
	for i := 0; i < len(robots) && i < findings.TopRobotTimelines; i++ {
		top[robots[i].Name] = i
		out.ByRobot = append(out.ByRobot, findings.RobotTimeline{Name: robots[i].Name, Requests: make([]int64, n)})
	}
	out.ByRobot = nonNil(out.ByRobot)
	// The names past the top ones, for the state: sparse, since a log may
	// have tens of thousands of robot names.
	every := map[string][][2]int64{}
	for i := range robotClients {
		c := &robotClients[i]
		byName := []int64(nil)
		if k, ok := top[c.name]; ok {
			byName = out.ByRobot[k].Requests
		} else {
			for _, e := range c.bins.list() {
				every[c.name] = append(every[c.name], [2]int64{tl.epoch + int64(e.off) - tl.base, int64(e.n)})
			}
		}
		for _, e := range c.bins.list() {
			j := tl.epoch + int64(e.off) - tl.base
			out.Robots[j] += int64(e.n)
			if byName != nil {
				byName[j] += int64(e.n)
			}
		}
		if c.bins.spilled() > 0 {
			out.Estimated += d.spreadSpill(c, out.Robots, byName)
		}
	}
	var folded bool
	for i := 0; i < n; i++ {
		out.Humans[i] = max(0, tl.total[i]-tl.other[i]-out.Robots[i])
		folded = folded || tl.other[i] > 0
	}
	if folded {
		out.Other = slices.Clone(tl.other[:n])
	}
	for _, r := range out.ByRobot {
		every[r.Name] = findings.SparseBuckets(r.Name, r.Requests).Buckets
	}
	state := make([]findings.RobotBuckets, 0, len(every))
	for _, name := range slices.Sorted(maps.Keys(every)) {
		state = append(state, findings.RobotBuckets{Name: name, Buckets: findings.CombineBuckets(every[name])})
	}
	return out, state
}

// spreadSpill places a client's spilled requests over the buckets of its
// first-to-last span in proportion to the site's requests not yet given to
// robots there, and returns how many it placed.
func (d *Detector) spreadSpill(c *robotBins, robots, byName []int64) int64 {
	tl := &d.tl
	lo := max(0, int(findings.FloorDiv(c.first.sec+tl.zone, tl.width)-tl.base))
	hi := min(tl.n-1, int(findings.FloorDiv(c.last.sec+tl.zone, tl.width)-tl.base))
	var room int64
	for i := lo; i <= hi; i++ {
		room += max(0, tl.total[i]-tl.other[i]-robots[i])
	}
	if room <= 0 {
		return 0
	}
	spill := min(c.bins.spilled(), room)
	var cum, given int64
	for i := lo; i <= hi; i++ {
		cum += max(0, tl.total[i]-tl.other[i]-robots[i])
		share := int64(math.Round(float64(spill)*float64(cum)/float64(room))) - given
		given += share
		robots[i] += share
		if byName != nil {
			byName[i] += share
		}
	}
	return given
}

// An incident's per-second curve counts its requests in every second from
// its start, up to maxCurve seconds; all curves together hold at most
// maxCurvePoints seconds (16 MB). A curve cut by either bound says so.
const (
	maxCurve       = 3600
	maxCurvePoints = 1 << 22
)

// curveBudget is the room left for curve points, shared by all clients.
type curveBudget struct {
	used int
}

// addCurve counts n requests at second sec of the incident.
func (in *incident) addCurve(sec int64, n uint32, b *curveBudget) {
	i := sec - in.start
	if i < 0 || in.curveCut {
		return
	}
	if i >= maxCurve {
		in.curveCut = true
		return
	}
	need := int(i) + 1 - len(in.curve)
	if need > 0 {
		if b != nil && b.used+need > maxCurvePoints {
			in.curveCut = true
			return
		}
		if b != nil {
			b.used += need
		}
		in.curve = append(in.curve, make([]uint32, need)...)
	}
	in.curve[i] += n
}

// release gives a dropped incident's curve points back.
func (b *curveBudget) release(in *incident) {
	if b != nil {
		b.used -= len(in.curve)
	}
}

// perSecond is a curve as the Incident shows it.
func perSecond(curve []uint32) []int {
	out := make([]int, len(curve))
	for i, n := range curve {
		out[i] = int(n)
	}
	return out
}
