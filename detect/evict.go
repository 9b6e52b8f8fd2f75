package detect

import (
	"math"
	"math/bits"
	"slices"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/findings"
)

// Bounded clients (Config.MaxClients). A flood of distinct clients (a
// botnet, a spoofed scan) must not grow memory without limit, and the
// clients worth reporting are the heavy ones. So when the table is full a
// new client takes the place of the tracked client with the least weight,
// in the manner of the Space-Saving algorithm (Metwally, Agrawal and El
// Abbadi, 2005): a client's weight is its own requests plus the weight of
// the client it replaced. The evicted client's requests and bytes are folded
// into Result.Other, and its requests on the timeline move to the "other"
// series.
//
// What "exact" means: a tracked client's counts are exact from the moment it
// was (last) admitted. A client tracked since its first request, which is
// every client while the table is not full and every client heavier than
// the table's lightest, is exact over the whole log. A client evicted and
// later seen again starts afresh: its earlier requests stay in Other (never
// lost, never counted twice), and its verdict covers only the later ones.
// The inherited weight is what lets a heavy client that arrives in the
// middle of a flood stay: it outranks the flood's one-request clients at
// once, and Space-Saving guarantees that any client with more than
// records/MaxClients requests is tracked at the end.
//
// The weights live in a binary min-heap, so the lightest client is found in
// O(1) and a request costs a sift that is O(1) in practice (a request moves
// a client down the heap, and rarely far). Watched clients (Config.Watch)
// are never evicted: the admin asked about them.

// evictSlot is a client's place in the eviction heap. Its place in the
// active clients (which a folded client leaves at once, not at the next
// sweep) is kept in its rate window (window.active): a client is active
// exactly while it holds one.
type evictSlot struct {
	at int32 // index in clientTable.heap; -1 when not in it
	// floor: the weight inherited from the client it replaced, stopping at
	// the top of 32 bits as the client's counts do (a floor grows by about
	// the log's requests over the cap, far below it), so that the slot
	// takes 8 bytes, not 16.
	floor uint32
}

func (c *client) weight() int64 { return int64(c.requests) + int64(c.evict.floor) }

// heapEntry is a client in the eviction heap: its place in the table and
// what orders it (lighter), kept here so that a sift compares entries
// side by side rather than reading each client's record, far apart in
// memory. A new client of a churn log rises to the top of the heap and
// sinks back once counted: two heights of the heap, a record read at each
// step. 12 bytes: the client's requests, not its weight (their sum with
// the floor, which takes 33 bits).
type heapEntry struct {
	requests uint32 // client.requests
	floor    uint32 // evictSlot.floor
	place    uint32
}

// entryOf is c's heapEntry, at place i.
func entryOf(c *client, i uint32) heapEntry { return heapEntry{c.requests, c.evict.floor, i} }

// weight is the entry's client's weight (client.weight).
func (e *heapEntry) weight() int64 { return int64(e.requests) + int64(e.floor) }

// capped reports whether a new client must take an old one's place. A
// Pool's worker keeps to the limit of the batch it is in (Pool.cut); with
// no client of its own it has none to fold, and cut gives every worker
// with records a place. Watched clients are never folded but take places,
// in a worker as in one Detector.
func (d *Detector) capped() bool {
	if d.cfg.MaxClients <= 0 {
		return false
	}
	if d.cfg.pooled {
		return d.limit >= 0 && len(d.clients.heap) > 0 && int64(d.clients.len()) >= d.limit
	}
	return d.clients.len() >= d.cfg.MaxClients && len(d.clients.heap) > 0
}

// limitClients sets worker k's limit for a batch (none when limits is nil)
// and folds its lightest clients past it, keeping one.
func (d *Detector) limitClients(limits []int64, k int) {
	if limits == nil {
		d.limit = -1
		return
	}
	d.limit = limits[k]
	for int64(d.clients.len()) > max(d.limit, 1) && len(d.clients.heap) > 1 {
		d.evictLightest()
	}
}

// admit puts a new client, at place at of the table, in the eviction heap
// with the weight it inherits.
func (d *Detector) admit(c *client, at uint32, floor int64) {
	c.evict.floor = uint32(min(max(floor, 0), math.MaxUint32))
	if d.cfg.MaxClients <= 0 || c.rare().watch != nil {
		c.evict.at = -1
		return
	}
	h := &d.clients.heap
	c.evict.at = int32(len(*h))
	*h = append(*h, entryOf(c, at))
	d.siftUp(int(c.evict.at))
}

// touched restores the heap after c's requests grew.
func (d *Detector) touched(c *client) {
	if c.evict.at >= 0 {
		d.clients.heap[c.evict.at].requests = c.requests
		d.siftDown(int(c.evict.at))
	}
}

// evictLightest drops the tracked client with the least weight, folds it
// into Other, and returns its weight for the client that takes its place.
func (d *Detector) evictLightest() int64 {
	h := &d.clients.heap
	c := d.clients.full((*h)[0].place)
	last := len(*h) - 1
	(*h)[0] = (*h)[last]
	d.clients.evictOf((*h)[0].place).at = 0
	*h = (*h)[:last]
	if last > 0 {
		d.siftDown(0)
	}
	c.evict.at = -1
	w := c.weight()
	d.foldClient(c)
	return w
}

// foldReferred keeps the referred views of c, a person folded into Other,
// for its operators' rows: the views were made whatever became of the row.
func (d *Detector) foldReferred(c *client) {
	for _, r := range c.rare().referred {
		if d.otherReferred == nil {
			d.otherReferred = map[string]int64{}
		}
		d.otherReferred[r.operator] += r.views
	}
}

// foldClient moves everything counted for c into Other and forgets c, whose
// record goes to the next new client: c must not be read after.
func (d *Detector) foldClient(c *client) {
	d.other.Requests += int64(c.requests)
	d.other.Bytes = findings.AddBytes(d.other.Bytes, c.bytes)
	d.otherClients.add(clientHash(c.ip, c.ua.ua))
	d.folded.Add(c.ip)

	// Its requests stay in the site's totals, now as "other": the timeline
	// tells robots, humans and folded clients apart per bucket.
	tl := &d.tl
	for _, e := range c.bins.list() {
		if j := tl.epoch + int64(e.off) - tl.base; j >= 0 && j < int64(tl.n) {
			tl.other[j] += int64(e.n)
		}
	}
	if spill := c.bins.spilled(); spill > 0 && !c.lastOf().time().IsZero() {
		// Spilled requests were never placed; the client's last bucket is
		// as good a guess as any, and keeps other <= total.
		if j := findings.FloorDiv(c.lastSec()+tl.zone, tl.width) - tl.base; j >= 0 && j < int64(tl.n) {
			tl.other[j] = min(tl.total[j], tl.other[j]+spill)
		}
	}
	tl.binCap -= c.bins.capacity()
	c.bins = clientBins{}
	d.pan.release(c) // Other's requests are in no robots row

	// Its findings outlive its row: judged now, as it stands, with the
	// log's traits so far. None of its violations or incidents is listed
	// any more, so they count as unlisted too (listed + unlisted = counted).
	d.advance(c, maxSecond)
	incidents := int64(c.incidentCount())
	d.other.Incidents += incidents
	d.unlisted.incidents += incidents
	if plainBrowser(c, &d.cfg) {
		// Not a robot, and the common case in a flood: no judging.
		d.foldReferred(c)
	} else if j := judge(c, d.counts.traits(), &d.cfg); j.robot() {
		d.otherRobots.add(clientHash(c.ip, c.ua.ua))
		if v := c.rare().viol; v != nil {
			d.other.Violations += v.n
			d.unlisted.violations += v.n
		}
	} else {
		d.foldReferred(c)
	}
	// Let go of it and of what it held at once, not at the next sweep of the
	// active clients: in a flood, that many clients folded since the last
	// sweep would be held. Its stored violations give their room back to
	// the bound on all clients' (maxStoredViolations).
	d.leaveActive(c)
	if v := c.rare().viol; v != nil {
		d.storedViolations -= len(v.list)
	}
	list := c.incidents()
	for i := range list {
		d.th.curves.release(&list[i])
	}
	if o := c.openIncident(); o != nil {
		d.th.curves.release(&o.incident)
	}
	c.rate.release(d.th.pool)
	c.x, c.rules = nil, nil // never watched: a watched client is not folded

	if d.recent == c {
		d.recent = nil
	}
	ai := c.ua
	d.clients.remove(c) // zeroes c for the next new client
	if ai.refs--; ai.refs <= 0 {
		d.uas.remove(ai) // zeroes ai for the next new User-agent
	}
}

// leaveActive takes c out of the active clients (order does not matter
// there: the sweep treats each on its own).
func (d *Detector) leaveActive(c *client) {
	if c.rate.window == nil {
		return
	}
	i := c.rate.window.active
	last := len(d.active) - 1
	d.active[i] = d.active[last]
	d.active[i].rate.window.active = i
	d.active[last] = nil
	d.active = d.active[:last]
}

// plainBrowser reports, cheaply, that judge would not find c a robot: a
// browser User-agent, too few requests and pages for any behaviour signal,
// no robots.txt fetch, no form posts, no incident, nothing a browser does
// not do (a HEAD without assets, HTTP/1.0 beside 1.1, a self-Referer, a
// failed application path). Only the weak ancient-browser signal could
// then apply, and it alone makes no robot (TestPlainBrowserIsNoRobot holds
// the two together).
func plainBrowser(c *client, cfg *Config) bool {
	x := c.rare()
	return c.ua.agent.Kind == agents.Browser && c.robotsTxt == 0 && x.fastForms == 0 &&
		x.quickForms == 0 && x.http10 == 0 && !x.selfReferer && x.probes.weakFailed == 0 && (c.head == 0 || c.assets > 0) &&
		c.incidentCount() == 0 &&
		int64(c.requests) < int64(cfg.MinRequests) && int64(c.pages) < int64(cfg.MinPages)
}

// lighter orders the heap: lighter first; among equals the one with fewer
// requests of its own (more of its weight inherited) goes first, as the one
// whose counts say least.
func lighter(a, b *heapEntry) bool {
	wa, wb := a.weight(), b.weight()
	return wa < wb || wa == wb && a.floor > b.floor
}

func (d *Detector) swap(i, j int) {
	t := &d.clients
	h := t.heap
	h[i], h[j] = h[j], h[i]
	t.evictOf(h[i].place).at, t.evictOf(h[j].place).at = int32(i), int32(j)
}

// siftUp and siftDown move the client at i as a run of swaps would, but
// write each client passed once and the moving one at the end.
func (d *Detector) siftUp(i int) {
	t := &d.clients
	h := t.heap
	e := h[i]
	for i > 0 {
		p := (i - 1) / 2
		if !lighter(&e, &h[p]) {
			break
		}
		h[i] = h[p]
		t.evictOf(h[i].place).at = int32(i)
		i = p
	}
	h[i] = e
	t.evictOf(e.place).at = int32(i)
}

func (d *Detector) siftDown(i int) {
	t := &d.clients
	h := t.heap
	n := len(h)
	e := h[i]
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && lighter(&h[r], &h[l]) {
			m = r
		}
		if !lighter(&h[m], &e) {
			break
		}
		h[i] = h[m]
		t.evictOf(h[i].place).at = int32(i)
		i = m
	}
	h[i] = e
	t.evictOf(e.place).at = int32(i)
}

// seenClients estimates the distinct clients admitted under a cap (0
// without one: then the table's size is the exact count): those folded
// and held, the count of the clients held (summarizing.held). A distinct
// count is a register-wise maximum, so the folded clients' count joined
// with the held clients' is, register for register, the count of every
// client as it was admitted; made once at the end, it costs the hashes of
// the clients held, not of every admission, and nothing on a pass that
// folds none (the only one that asks).
func (d *Detector) seenClients(held *distinctCount) int64 {
	if d.cfg.MaxClients <= 0 {
		return 0
	}
	u := d.otherClients.union(held)
	return u.estimate()
}

// foldedClients estimates the distinct clients folded into Other.
func (d *Detector) foldedClients() int64 { return d.otherClients.estimate() }

// clientHash hashes a client's key with well-mixed bits (FNV-1a, then the
// splitmix64 finaliser), as the distinct-count estimate needs.
func clientHash(ip, ua string) uint64 { return mixClientHash(pathHash(ip), pathHash(ua)) }

// mixClientHash is clientHash of the address and User-agent whose
// pathHashes ip and ua are.
func mixClientHash(ip, ua uint64) uint64 {
	h := ip
	h ^= ua * 0x9e3779b97f4a7c15
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	h ^= h >> 31
	return h
}

// agentHashes4 is pathHash of each of four User-agents, hashed side by
// side: FNV-1a is a chain of multiplications, each waiting on the one
// before it, and four chains keep the multiplier busy where one left it
// idle (the hashes of the held clients were 20 ms of the churn log's
// Result, CPU profiles of 4 runs).
func agentHashes4(uas *[4]string) [4]uint64 {
	const prime = 1099511628211
	a, b, c, d := uas[0], uas[1], uas[2], uas[3]
	n := min(len(a), len(b), len(c), len(d))
	a, b, c, d = a[:n], b[:n], c[:n], d[:n]
	ha, hb, hc, hd := uint64(fnvOffset), uint64(fnvOffset), uint64(fnvOffset), uint64(fnvOffset)
	for i := 0; i < n; i++ {
		ha = (ha ^ uint64(a[i])) * prime
		hb = (hb ^ uint64(b[i])) * prime
		hc = (hc ^ uint64(c[i])) * prime
		hd = (hd ^ uint64(d[i])) * prime
	}
	return [4]uint64{pathHashFrom(ha, uas[0][n:]), pathHashFrom(hb, uas[1][n:]), pathHashFrom(hc, uas[2][n:]), pathHashFrom(hd, uas[3][n:])}
}

// fnvOffset is FNV-1a's offset basis, where pathHash starts.
const fnvOffset = 14695981039346656037

// pathHashFrom goes on with pathHash from h, the hash of what came
// before s.
func pathHashFrom(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// hllBits sets the registers of the distinct-client estimate: 2^12 of a
// byte each (4 KiB), a standard error of about 1.6%.
const hllBits = 12

// distinctCount estimates how many distinct hashes it was given
// (HyperLogLog, Flajolet et al. 2007, with linear counting for small
// counts). The zero value is empty and allocates on the first add.
type distinctCount struct {
	reg []uint8
}

func (h *distinctCount) add(x uint64) {
	if h.reg == nil {
		h.reg = make([]uint8, 1<<hllBits)
	}
	i := x >> (64 - hllBits)
	rank := uint8(bits.LeadingZeros64(x<<hllBits|1<<(hllBits-1)) + 1)
	if rank > h.reg[i] {
		h.reg[i] = rank
	}
}

// union returns an estimate of the hashes given to h or o.
func (h *distinctCount) union(o *distinctCount) distinctCount {
	u := distinctCount{reg: slices.Clone(h.reg)}
	if o.reg == nil {
		return u
	}
	if u.reg == nil {
		u.reg = make([]uint8, 1<<hllBits)
	}
	for i, r := range o.reg {
		u.reg[i] = max(u.reg[i], r)
	}
	return u
}

func (h *distinctCount) estimate() int64 {
	if h.reg == nil {
		return 0
	}
	const m = 1 << hllBits
	sum, zeros := 0.0, 0
	for _, r := range h.reg {
		sum += math.Ldexp(1, -int(r))
		if r == 0 {
			zeros++
		}
	}
	e := 0.7213 / (1 + 1.079/m) * m * m / sum
	if e <= 2.5*m && zeros > 0 {
		e = m * math.Log(float64(m)/float64(zeros))
	}
	return int64(math.Round(e))
}
