package detect

import (
	"math"
	"unsafe"
)

// parked is the record of a client with nothing notable yet: one request,
// idle (its rate window given back), nothing rare. On a log where nearly
// every client makes one request (a botnet, a CDN edge, a rotating
// scraper) these are most of the clients, and a full record of 240 bytes
// each was most of the live heap; a parked entry holds the same state in
// 88 bytes, and no pointer: it names its User-agent's record and its
// robots.txt rules by number in its owner's tables (parkedOwner), so that
// the collector, which reads every pointer of the live heap at every
// cycle, skips the entries' chunks (with two pointers an entry, their
// reading was 6% of the churn log's CPU: perf, four runs alternated). A
// client is parked by the sweep that gives its window back
// (Detector.parkIdle), when pack finds its record fits exactly, and is
// unparked into a full record by its next request or its eviction; the
// report reads a parked client through a copy unpacked on the stack. What
// a client holds never depends on whether it was parked: pack keeps a
// record only if unpacking gives back the same record, field for field.
type parked struct {
	agent uint32 // 1 + its User-agent record's place in its owner's agents; 0: a free entry
	rules uint16 // 1 + the place of its robots.txt rules in its owner's; 0: none
	slot  uint16 // its place in its parkedChunk, which names its owner (owner)
	first stamp
	evict evictSlot
	pan1  onePanel
	bin   int32     // bins.one.off
	bytes uint32    // at most math.MaxUint32
	fin   int32     // rate.fin, as finOf says
	page  [3]uint32 // page.viewHash, formHash, pollHash
	bits  uint32    // the counts, each 0 or 1, and the address's length (parkedPages …)
	sub   uint16    // page.subHash
	epoch uint16
	sf    sessionFlags
	fp    uint8 // fp.mask
	flags clientFlags
	ip    [parkedIP]byte // the address's text
}

// parkedIP is the longest address text a parked entry holds: every IPv4
// address's.
const parkedIP = 15

// parkedOwner holds what its parked entries name by number: a Detector's
// User-agent records and robots.txt rules, which outlive its pass (Result
// keeps them for the report).
type parkedOwner struct {
	agents *agentTable
	rules  *[]*heldRules
}

// agentAt is the User-agent record at place i; nil past the table.
func (o *parkedOwner) agentAt(i uint32) *agentInfo {
	if int(i/tableChunk) >= len(o.agents.chunks) {
		return nil
	}
	return o.agents.entry(i)
}

// rulesAt is the rules whose id is n; nil for 0 or one not held.
func (o *parkedOwner) rulesAt(n uint16) *heldRules {
	if n == 0 || int(n) > len(*o.rules) {
		return nil
	}
	return (*o.rules)[n-1]
}

// parkedChunk is a chunk of parked entries and their owner: the one
// pointer in it for the collector to read.
type parkedChunk struct {
	owner *parkedOwner
	e     [parkedChunkLen]parked
}

// parkedChunkLen is the entries of a parkedChunk: 372 of 88 bytes and the
// owner fill 32 KiB.
const parkedChunkLen = 372

// owner is the owner of p, an entry of a parkedChunk. Its chunk's start
// is slot entries and the owner before it, in the one object, which
// unsafe.Add may go back to (unsafe.Pointer's rule 3).
func (p *parked) owner() *parkedOwner {
	back := unsafe.Offsetof(parkedChunk{}.e) + uintptr(p.slot)*unsafe.Sizeof(parked{})
	return (*parkedChunk)(unsafe.Add(unsafe.Pointer(p), -int(back))).owner
}

// agentInfo is the record of p's User-agent.
func (p *parked) agentInfo() *agentInfo { return p.owner().agentAt(p.agent - 1) }

// A parked entry's fin is rate.fin as an offset from its first second,
// or one of these: not yet advanced (newRate), or final for good (Result).
const (
	parkedFinNone = math.MinInt32
	parkedFinAll  = math.MaxInt32
)

// finOf is the entry's fin for rate.fin f of a client whose first second
// is first; pack checks that rateFin gives f back (it does not for an f
// 2^31 seconds or more from first, or at one of the two marks' offsets).
func finOf(f, first int64) int32 {
	switch f {
	case math.MinInt64:
		return parkedFinNone
	case maxSecond:
		return parkedFinAll
	}
	return int32(f - first)
}

// rateFin is the rate.fin of an entry's fin for a client whose first
// second is first.
func rateFin(fin int32, first int64) int64 {
	switch fin {
	case parkedFinNone:
		return math.MinInt64
	case parkedFinAll:
		return maxSecond
	}
	return first + int64(fin)
}

// The counts of a parked client's record, a bit each (with one request,
// each is 0 or 1), fp.only, and the address's length from parkedIPShift.
const (
	parkedPages uint32 = 1 << iota
	parkedAssets
	parkedHead
	parkedErrors
	parkedNotFound
	parkedReferers
	parkedPosts
	parkedRobotsTxt
	parkedPeak1
	parkedPeak10
	parkedPeak60
	parkedSessions
	parkedNotModified
	parkedBinned // bins.one.n
	parkedDelayed
	parkedViolating
	parkedFast
	parkedOnly    // fp.only
	parkedIPShift = iota
)

// bitIf is bit if n is 1, 0 if not.
func bitIf(n uint32, bit uint32) uint32 {
	if n == 1 {
		return bit
	}
	return 0
}

// countOf is 1 if bits has bit, 0 if not.
func countOf(bits, bit uint32) uint32 {
	if bits&bit != 0 {
		return 1
	}
	return 0
}

// pack stores c in p, with the numbers of its User-agent record and rules
// in o, and reports whether p holds all of c: if not, p is left as it was.
// Its slot is the caller's to set. c's address is compared, not copied
// out of p, so that the check allocates nothing.
func (p *parked) pack(c *client, o *parkedOwner) bool {
	if c.requests != 1 || c.rate.window != nil || c.x != nil || len(c.ip) > parkedIP || c.bytes < 0 || c.bytes > math.MaxUint32 ||
		c.ua == nil || c.ua.place == math.MaxUint32 || c.rules != nil && c.rules.id > math.MaxUint16 {
		return false
	}
	var q parked
	q.agent, q.first, q.evict, q.pan1 = c.ua.place+1, c.first, c.evict, c.pan1
	if c.rules != nil {
		q.rules = uint16(c.rules.id)
	}
	q.fin = finOf(c.rate.fin, c.first.sec)
	q.bin, q.bytes = c.bins.one.off, uint32(c.bytes)
	q.page = [3]uint32{c.page.viewHash, c.page.formHash, c.page.pollHash}
	q.sub, q.epoch, q.sf, q.fp, q.flags = c.page.subHash, c.epoch, c.sf, c.fp.mask, c.flags
	q.bits = bitIf(c.pages, parkedPages) | bitIf(c.assets, parkedAssets) | bitIf(c.head, parkedHead) |
		bitIf(c.errors, parkedErrors) | bitIf(c.notFound, parkedNotFound) | bitIf(c.referers, parkedReferers) |
		bitIf(c.posts, parkedPosts) | bitIf(c.robotsTxt, parkedRobotsTxt) |
		bitIf(c.rate.peak1, parkedPeak1) | bitIf(c.rate.peak10, parkedPeak10) | bitIf(c.rate.peak60, parkedPeak60) |
		bitIf(c.sess.n, parkedSessions) | bitIf(c.sess.notModified, parkedNotModified) | bitIf(c.bins.one.n, parkedBinned) |
		bitIf(c.sess.delayed, parkedDelayed) | bitIf(c.sess.violating, parkedViolating) | bitIf(c.sess.fast, parkedFast) |
		uint32(copy(q.ip[:], c.ip))<<parkedIPShift
	if c.fp.only {
		q.bits |= parkedOnly
	}
	// Whatever the bits and fields above leave out must be zero (or, for
	// the last request's stamp, the first's): unpacking says so.
	// (A User-agent or rules not at their numbers in o come back other.)
	var back client
	q.unpackAs(&back, c.ip, o)
	if back != *c {
		return false
	}
	q.slot = p.slot
	*p = q
	return true
}

// unpack sets c, a zero record, to the client p holds, with a copy of its
// address.
func (p *parked) unpack(c *client) { p.unpackAs(c, string(p.ip[:p.ipLen()]), p.owner()) }

// ipLen is the length of the address's text.
func (p *parked) ipLen() int { return int(p.bits >> parkedIPShift) }

// view sets c, a zero record, to the client p holds, its address a view of
// p's bytes: c is a copy to read, and its address is valid as long as p
// holds this client (after a pass's Result, for good: nothing parks or
// unparks any more).
func (p *parked) view(c *client) {
	p.unpackAs(c, unsafe.String(&p.ip[0], p.ipLen()), p.owner())
}

// unpackAs sets c, a zero record, to the client p holds, with address ip
// and its User-agent record and rules from o.
func (p *parked) unpackAs(c *client, ip string, o *parkedOwner) {
	c.ip, c.ua, c.rules, c.first, c.evict, c.pan1 = ip, o.agentAt(p.agent-1), o.rulesAt(p.rules), p.first, p.evict, p.pan1
	c.rate.fin = rateFin(p.fin, p.first.sec)
	c.last = lastStamp{0, p.first.nsec, p.first.off}
	c.requests, c.bytes = 1, int64(p.bytes)
	c.bins.one = timeBin{off: p.bin, n: countOf(p.bits, parkedBinned)}
	c.page.viewHash, c.page.formHash, c.page.pollHash, c.page.subHash = p.page[0], p.page[1], p.page[2], p.sub
	c.epoch, c.sf, c.fp, c.flags = p.epoch, p.sf, fingerprint{p.fp, p.bits&parkedOnly != 0}, p.flags
	b := p.bits
	c.pages, c.assets, c.head = countOf(b, parkedPages), countOf(b, parkedAssets), countOf(b, parkedHead)
	c.errors, c.notFound, c.referers = countOf(b, parkedErrors), countOf(b, parkedNotFound), countOf(b, parkedReferers)
	c.posts, c.robotsTxt = countOf(b, parkedPosts), countOf(b, parkedRobotsTxt)
	c.rate.peak1, c.rate.peak10, c.rate.peak60 = countOf(b, parkedPeak1), countOf(b, parkedPeak10), countOf(b, parkedPeak60)
	c.sess.n, c.sess.notModified = countOf(b, parkedSessions), countOf(b, parkedNotModified)
	c.sess.delayed, c.sess.violating, c.sess.fast = countOf(b, parkedDelayed), countOf(b, parkedViolating), countOf(b, parkedFast)
}

// clientRef is a client of a finished pass: its full record or its parked
// entry, the other nil.
type clientRef struct {
	c *client
	p *parked
}

// requests is the client's requests.
func (r clientRef) requests() uint32 {
	if r.c != nil {
		return r.c.requests
	}
	return 1
}

// ip is the client's address (a view of a parked entry's bytes).
func (r clientRef) ip() string {
	if r.c != nil {
		return r.c.ip
	}
	return unsafe.String(&r.p.ip[0], r.p.ipLen())
}

// agent is the client's User-agent record.
func (r clientRef) agent() *agentInfo {
	if r.c != nil {
		return r.c.ua
	}
	return r.p.agentInfo()
}

// load returns the client: its record, or tmp, a zero record, set to a
// copy of the parked entry (parked.view).
func (r clientRef) load(tmp *client) *client {
	if r.c != nil {
		return r.c
	}
	r.p.view(tmp)
	return tmp
}

// parkable reports whether c, idle, may be parked (parkHashed). Not while
// Config.Events is told of clients as they come: the live report's loops
// over the clients write to them (announce). Nor under Config.Expire:
// expire folds the idle clients in the table's order, which parking
// changes, and under a cap the order of the heap's removals picks which
// of two equal clients is evicted next (a followed log's report differed
// with and without parking).
func (d *Detector) parkable(c *client) bool {
	return c.requests == 1 && d.cfg.Events == nil && d.cfg.Expire <= 0 && parking
}

// parkHashed parks c, parkable, whose pair's hash is h, if it is a client
// a parked entry holds (see parked).
func (d *Detector) parkHashed(c *client, h uint64) {
	if d.clients.parkHashed(c, h) {
		d.parks++
		if d.recent == c {
			d.recent = nil
		}
	}
}

// parking is whether idle clients are parked (a variable so a test can
// compare reports with and without).
var parking = true
