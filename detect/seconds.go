package detect

import "math"

// A client's seconds: of its last request, of the page it views and the
// form it fetched, of its rate's peaks. Each is the second of one of its
// requests, so it lies between its first request's and its last's, and
// the record keeps it as a 32-bit offset from its first second
// (first.sec): 4 bytes where a second takes 8, 24 bytes of each record,
// which took it from the allocator's 288-byte class to 240 (about 12 MB
// of the 300,000-line churn log's 250,000 clients).
//
// logparse reads years 1000 to 9998, so a crafted log can give a client
// requests further apart than 2^32-1 s (136 years). Such a client is
// wide: its seconds are kept whole in its clientRare (wideSeconds), and
// the offset of its last request says so (wideMark). Reports are the
// same either way (TestWideClient).

// secOff is a second of a client as an offset from its first second.
type secOff uint32

// wideMark, as the offset of a client's last request, marks a wide client.
const wideMark = math.MaxUint32

// wideSpan bounds the offsets a record keeps: wideMark, but in tests,
// which lower it to run clients wide (TestWideAsNarrow).
var wideSpan uint64 = wideMark

// The seconds a wide client keeps whole, by their place in wideSeconds.
const (
	wideLast = iota
	wideView
	wideForm
	wideAt1
	wideAt10
	wideAt60
	wideCount
)

// wideSeconds are the seconds of a wide client, whole.
type wideSeconds [wideCount]int64

// lastStamp is the stamp of a client's last request, its second an
// offset from the first's.
type lastStamp struct {
	at   secOff
	nsec int32
	off  int32 // seconds east of UTC
}

// wide reports whether c's seconds are kept whole in its clientRare.
func (c *client) wide() bool { return c.last.at == wideMark }

// second returns the second kept at o, the k-th of wideSeconds.
func (c *client) second(o secOff, k int) int64 {
	if c.wide() {
		return c.x.wide[k]
	}
	return c.first.sec + int64(o)
}

// setSecond keeps sec at o, the k-th of wideSeconds. A second o cannot
// hold makes c wide.
func (c *client) setSecond(o *secOff, k int, sec int64) {
	if at, ok := c.narrow(sec); ok {
		*o = at
		return
	}
	c.setWide(k, sec)
}

// narrow returns sec as an offset, false if c is wide or sec beyond
// what an offset holds. Small enough to inline where a request sets its
// seconds (setLast, followPage).
func (c *client) narrow(sec int64) (secOff, bool) {
	d := sec - c.first.sec // uint64(d) < wideSpan holds d >= 0 too
	return secOff(d), uint64(d) < wideSpan && !c.wide()
}

// setWide is setSecond for a second o cannot hold, or a wide c.
func (c *client) setWide(k int, sec int64) {
	if !c.wide() {
		c.widen()
	}
	c.x.wide[k] = sec
}

// offsets are c's seconds kept as offsets, in the order of wideSeconds.
func (c *client) offsets() [wideCount]*secOff {
	return [wideCount]*secOff{&c.last.at, &c.page.viewAt, &c.page.formAt, &c.rate.at1, &c.rate.at10, &c.rate.at60}
}

// widen moves c's seconds, whole, into its clientRare.
func (c *client) widen() {
	w := new(wideSeconds)
	for k, o := range c.offsets() {
		w[k] = c.first.sec + int64(*o)
	}
	c.keepRare().wide = w
	c.last.at = wideMark
}

// moveFirst makes t, earlier than c's first request, its first: the
// offsets grow by the seconds between, or c becomes wide.
func (c *client) moveFirst(t stamp) {
	if !c.wide() {
		d := uint64(c.first.sec - t.sec)
		var most uint64
		for _, o := range c.offsets() {
			most = max(most, uint64(*o))
		}
		if d < wideSpan && most+d < wideSpan {
			for _, o := range c.offsets() {
				*o += secOff(d)
			}
		} else {
			c.widen()
		}
	}
	c.first = t
}

// lastSec is the second of c's last request.
func (c *client) lastSec() int64 { return c.second(c.last.at, wideLast) }

// lastOf is the stamp of c's last request.
func (c *client) lastOf() stamp { return stamp{c.lastSec(), c.last.nsec, c.last.off} }

// setLastWide makes t, no earlier than c's first request, its last, when
// c is wide or t makes it so (countRequest keeps the narrow case).
func (c *client) setLastWide(t stamp) {
	c.setWide(wideLast, t.sec)
	c.last.nsec, c.last.off = t.nsec, t.off
}
