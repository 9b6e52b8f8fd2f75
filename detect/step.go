package detect

import (
	"math"
	"time"
)

// Clocks that go back.
//
// The rate windows need records in time order, up to ReorderTolerance. Two
// kinds of input break that for good, not by a few seconds: two servers'
// logs of the same hours read one after the other (robowatch web1.log
// web2.log), and a server clock set back (a wrong NTP source fixed, a
// virtual machine restored). Every record after the step is older than the
// log's clock less the tolerance: it used to be late, counted but never in
// a rate window, so a burst after it was never an incident.
//
// The log's clock now follows such a step: stepRecords records in a row
// behind the watermark (one, for the first record of a new input: NewInput)
// make it go back to the latest of them. Each client's rate window then
// starts again at its first record after the step: what it held is judged
// and any open incident filed, and its seconds before the step no longer
// mix with those after. Overlapping inputs are so judged per input, each on
// its own clock: a client's rates on two servers are not added up.
//
// A record or two written late (a long download that Apache logs at its
// end with its start time) is no step: other records come between them.

// stepRecords is how many records in a row behind the watermark make the
// log's clock step back. The ones before the last are late, as before.
const stepRecords = 16

// stepWatch finds the steps back of a log's clock in the records that move
// it, in log order.
type stepWatch struct {
	n     int   // records behind the watermark in a row
	max   int64 // the latest of them
	fresh bool  // a new input starts: its first record behind is a step
	steps int64 // steps so far
}

// see looks at a record at sec, with the log's clock at clock (before the
// record) and the reorder tolerance tol in seconds. It reports whether the
// clock steps back, and to what, before the record is judged.
func (w *stepWatch) see(sec, clock, tol int64) (int64, bool) {
	fresh := w.fresh
	w.fresh = false
	if clock == math.MinInt64 || clock < math.MinInt64+tol+1 || sec > clock-tol-1 {
		w.n = 0
		return 0, false
	}
	if w.n == 0 || sec > w.max {
		w.max = sec
	}
	w.n++
	if w.n < stepRecords && !fresh {
		return 0, false
	}
	w.n = 0
	w.steps++
	return w.max, true
}

// NewInput tells the Detector that the records to come are another input's
// (the next file): if the first is older than the log's clock less
// ReorderTolerance, the clock goes back to it (see stepWatch).
func (d *Detector) NewInput() { d.steps.fresh = true }

// Steps is how many times the log's clock went back: inputs that overlap
// in time, or a server clock set back.
func (d *Detector) Steps() int64 { return d.steps.steps }

// clock is the log's clock before the next record: math.MinInt64 until a
// record moved it.
func (d *Detector) clock() int64 {
	switch {
	case d.started:
		return d.maxSec
	case d.ticked:
		return d.tickMax
	}
	return math.MinInt64
}

// watchStep runs the step watch on a record at sec that moves the clock;
// a Pool's worker follows the Pool's watch instead (clockAt).
func (d *Detector) watchStep(sec int64) {
	if d.driven {
		return
	}
	if to, ok := d.steps.see(sec, d.clock(), int64(d.cfg.ReorderTolerance/time.Second)); ok {
		d.clockAt(to)
		d.epoch++
	}
}

// clockAt sets the log's clock to sec, which may be behind it.
func (d *Detector) clockAt(sec int64) {
	if d.started {
		d.maxSec = sec
	} else {
		d.ticked, d.tickMax = true, sec
	}
}

// restart starts c's rate window again after the clock stepped back: the
// seconds it holds are judged and its open incident filed, as at the end
// of the log, and its seconds up to the watermark wm are final.
func (d *Detector) restart(c *client, wm int64) {
	if d.th.hook != nil {
		d.th.hook.c = c
	}
	c.restartRate(wm, d.th)
}

// restartRate is Detector.restart's part in c's rate state.
func (c *client) restartRate(wm int64, t thresholds) {
	r := &c.rate
	if w := r.window; w != nil {
		for r.pend < len(r.secs) {
			c.stepRate(t)
		}
		// Kept, emptied: the client stays on the active list, in its place
		// there (sweep lets it go once idle).
		*w = window{secs: w.secs[:0], paths: w.paths[:0], active: w.active}
	}
	if c.openIncident() != nil {
		c.closeIncident(t)
	}
	r.fin = wm
}
