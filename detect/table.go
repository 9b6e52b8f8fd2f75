package detect

import (
	"hash/maphash"
	"iter"
)

// clientTable holds the clients and finds one by its address and
// User-agent. On a log where every line is a new client it is most of the
// live heap, which the collector reads at every cycle, so it keeps neither
// a map of pointers nor an object a client: the records sit in chunks,
// found by their place through a slotIndex, with no pointer for the
// collector to follow. A folded client's record is zeroed and given to the
// next new client.
type clientTable struct {
	chunks [][]client // records, clientChunk a chunk; a zero record (ua nil) is free
	recs   placeList  // the records' places: zeroed ones go to the next new clients
	// parked holds the parked clients (parked.go); a place with
	// parkedBit set is one of theirs. A zero entry (agent 0) is free.
	parked []*parkedChunk
	parks  placeList    // the parked entries' places, without parkedBit
	owner  *parkedOwner // what the parked entries name; nil: none are parked
	index  slotIndex
	// heap is the eviction heap (evict.go), lightest first, when
	// Config.MaxClients caps the clients. It holds places, not pointers,
	// so that a client parked or unparked keeps its place in it, and the
	// collector never reads it.
	heap []heapEntry
	// glance is a first place to look, by glancePair: the pair's glance
	// in the top half, the place + 1 of the last client found or put
	// there in the bottom half (0: none). The seeded hash of a pair reads
	// all of its User-agent, 120 bytes on a browser's line, and was a
	// third of find's time on the generated million-line log. A glance is
	// not seeded and a log can make pairs share one, so it is only a
	// cache checked by comparing the pair: a wrong or stale entry (its
	// client folded, the record zeroed or another's) costs a look in
	// index, which is what find did before.
	glance []uint64
}

// parkedBit marks a place in clientTable.parked.
const parkedBit = 1 << 31

// glanceBits is the size of clientTable.glance: 2,048 entries, 16 KiB.
const glanceBits = 11

// tableChunk is the entries in a chunk of agentTable: 102 of 40 bytes
// fill 4 KiB. No chunk's entries ever move (they are held by pointer).
const tableChunk = 102

// clientChunk is the records in a chunk of clientTable: 136 records of 240
// bytes are 32,640 bytes, which fill the 32 KiB size class a chunk is
// allocated in (128 left 2 KiB of each unused: 4 MB of the churn log's
// 65 MB of records); no chunk's records ever move (they are held by
// pointer).
const clientChunk = 136

// seedClients seeds clientTable's hashes: a new seed each run, so that no
// log can be written to make its clients collide.
var seedClients = maphash.MakeSeed()

// hashPair is the table's hash (a variable so a test can make pairs collide).
var hashPair = func(ip, ua string) uint64 {
	return maphash.Comparable(seedClients, clientKey{ip, ua})
}

// record returns the record at place i.
func (t *clientTable) record(i uint32) *client {
	return &t.chunks[i/clientChunk][i%clientChunk]
}

// get returns the client with address ip and User-agent ua, or nil.
func (t *clientTable) get(ip, ua string) *client {
	c, _ := t.find(ip, ua)
	return c
}

// glancePair is a cheap hash of a pair, for clientTable.glance: of the
// address's and User-agent's lengths and a few of their bytes (glanceHash).
// Its top bits see every byte looked at. (A variable so a test can make
// pairs share a glance.)
var glancePair = func(ip, ua string) uint64 {
	return glanceHash(ip)*0xc2b2ae3d27d4eb4f ^ glanceHash(ua)
}

// glanceAt is the entry of clientTable.glance of glance g.
func glanceAt(g uint64) uint64 { return g >> (64 - glanceBits) }

// find returns the client with address ip and User-agent ua, or nil, and
// the pair's hash, for put (0 when the client was found). A parked client
// is unparked into a full record.
func (t *clientTable) find(ip, ua string) (*client, uint64) { return t.findAhead(ip, ua, nil) }

// findAhead is find with the hashes readAhead worked out of the pair, if
// a is not nil.
func (t *clientTable) findAhead(ip, ua string, a *pairAhead) (*client, uint64) {
	if t.glance == nil {
		t.glance = make([]uint64, 1<<glanceBits)
	}
	var g uint64
	if a != nil && a.glanced {
		g = a.g
	} else {
		g = glancePair(ip, ua)
	}
	e := &t.glance[glanceAt(g)]
	if *e != 0 && (*e^g)&tagMask == 0 && uint32(*e-1)&parkedBit == 0 {
		// The address first: it tells most clients apart in fewer bytes.
		if c := t.record(uint32(*e) - 1); c.ua != nil && c.ip == ip && c.ua.ua == ua {
			return c, 0
		}
	}
	var h uint64
	if a != nil && a.hashed {
		h = a.h
	} else {
		h = hashPair(ip, ua)
	}
	x := &t.index
	if x.n == 0 {
		return nil, h
	}
	tag := tagOf(h)
	for s, ok := x.seek(x.start(h), tag); ok; s, ok = x.seek(x.after(s), tag) {
		i := x.place(s)
		if i&parkedBit != 0 {
			if p := t.parkedAt(i); t.owner.agentAt(p.agent-1).ua == ua && string(p.ip[:p.ipLen()]) == ip {
				c := t.unpark(s)
				*e = g&tagMask | x.slots[s]&^tagMask
				return c, h
			}
			continue
		}
		if c := t.record(i); c.ip == ip && c.ua.ua == ua {
			*e = g&tagMask | x.slots[s]&^tagMask
			return c, h
		}
	}
	return nil, h
}

// parkedAt returns the parked entry at place i (parkedBit set).
func (t *clientTable) parkedAt(i uint32) *parked {
	i &^= parkedBit
	return &t.parked[i/parkedChunkLen].e[i%parkedChunkLen]
}

// unpark moves the parked client of index slot s into a full record,
// which it returns.
func (t *clientTable) unpark(s uint64) *client {
	x := &t.index
	from := x.place(s)
	p := t.parkedAt(from)
	c, i := t.fresh()
	p.unpack(c)
	x.slots[s] = x.slots[s]&tagMask | uint64(i+1)
	if c.evict.at >= 0 {
		t.heap[c.evict.at].place = i
	}
	*p = parked{}
	t.parks.give(from &^ parkedBit)
	return c
}

// full returns the client at place i, unparked first if it is parked.
func (t *clientTable) full(i uint32) *client {
	if i&parkedBit == 0 {
		return t.record(i)
	}
	p := t.parkedAt(i)
	x := &t.index
	s := x.first(hashPair(string(p.ip[:p.ipLen()]), t.owner.agentAt(p.agent-1).ua))
	for x.place(s) != i {
		s = x.next(s)
	}
	return t.unpark(s)
}

// park moves c, whose rate window was given back, into a parked entry if
// one holds it exactly (parked.pack), and reports whether it did: c must
// not be read after.
func (t *clientTable) park(c *client) bool { return t.parkHashed(c, hashPair(c.ip, c.ua.ua)) }

// parkHashed is park of c, whose pair's hash is h.
func (t *clientTable) parkHashed(c *client, h uint64) bool {
	// Packed first, then placed: a client that does not fit takes no
	// room (a chunk made for it would be made again for the next).
	var q parked
	if t.owner == nil || !q.pack(c, t.owner) {
		return false
	}
	k, grow := t.parks.take(parkedChunkLen)
	if grow {
		t.parked = append(t.parked, &parkedChunk{owner: t.owner})
	}
	i := k | parkedBit
	q.slot = uint16(k % parkedChunkLen)
	*t.parkedAt(i) = q
	x := &t.index
	s := t.slotOfHashed(c, h)
	from := x.place(s)
	x.slots[s] = x.slots[s]&tagMask | uint64(i+1)
	if t.glance != nil {
		if e := &t.glance[glanceAt(glancePair(c.ip, c.ua.ua))]; uint32(*e) == from+1 {
			*e = *e&tagMask | uint64(i+1)
		}
	}
	if c.evict.at >= 0 {
		t.heap[c.evict.at].place = i
	}
	t.recs.give(from)
	*c = client{}
	return true
}

// fresh returns a zeroed record for a new client, which put then adds
// with its hash: a folded client's if one was given back.
func (t *clientTable) fresh() (*client, uint32) {
	i, grow := t.recs.take(clientChunk)
	if grow {
		t.chunks = append(t.chunks, make([]client, clientChunk))
	}
	return t.record(i), i
}

// put adds the client at place i (from fresh, its address and User-agent
// set), of hash h, which find does not find yet.
func (t *clientTable) put(i uint32, h uint64) {
	t.index.put(h, i)
	if t.glance != nil {
		c := t.record(i)
		g := glancePair(c.ip, c.ua.ua)
		t.glance[glanceAt(g)] = g&tagMask | uint64(i+1)
	}
}

// slotOf returns the index slot of c, a full record in the table.
func (t *clientTable) slotOf(c *client) uint64 { return t.slotOfHashed(c, hashPair(c.ip, c.ua.ua)) }

// slotOfHashed is slotOf of c, whose pair's hash is h.
func (t *clientTable) slotOfHashed(c *client, h uint64) uint64 {
	x := &t.index
	s := x.first(h)
	for i := x.place(s); i&parkedBit != 0 || t.record(i) != c; i = x.place(s) {
		s = x.next(s)
	}
	return s
}

// remove takes c, a full record, out of the table and zeroes it for a new
// client: c must not be read after.
func (t *clientTable) remove(c *client) {
	x := &t.index
	s := t.slotOf(c)
	i := x.place(s)
	// Its glance entry goes too, though find would not take it (it
	// compares the pair): a glance never leads to a record given back.
	if t.glance != nil {
		if e := &t.glance[glanceAt(glancePair(c.ip, c.ua.ua))]; uint32(*e) == i+1 {
			*e = 0
		}
	}
	t.recs.give(i)
	*c = client{}
	x.remove(s)
}

// readOnly lets go of what only finding, adding and evicting clients
// needs (the index, the glance cache, the eviction heap, the free
// places), for a table that is only read from now on: len and the loops
// over the clients still work, find and the rest do not.
func (t *clientTable) readOnly() {
	t.index.slots, t.glance, t.heap, t.recs.free, t.parks.free = nil, nil, nil, nil, nil
}

// len is the number of clients in the table.
func (t *clientTable) len() int { return t.index.n }

// all yields every client, in no order; the loop may remove a full record
// it is given. A parked client is yielded as a copy (parked.view), valid
// until the next: a loop must neither keep it nor write to it.
func (t *clientTable) all() iter.Seq[*client] {
	return func(yield func(*client) bool) {
		for c := range t.records() {
			if !yield(c) {
				return
			}
		}
		var c client
		for _, p := range t.parkedEntries() {
			c = client{}
			if p.view(&c); !yield(&c) {
				return
			}
		}
	}
}

// records yields the clients in full records, in no order, to be written.
func (t *clientTable) records() iter.Seq[*client] {
	return func(yield func(*client) bool) {
		for i := range t.recs.used {
			if c := t.record(i); c.ua != nil && !yield(c) {
				return
			}
		}
	}
}

// parkedEntries yields the parked clients' places and entries, in no
// order.
func (t *clientTable) parkedEntries() iter.Seq2[uint32, *parked] {
	return func(yield func(uint32, *parked) bool) {
		for i := range t.parks.used {
			if p := t.parkedAt(i | parkedBit); p.agent != 0 && !yield(i|parkedBit, p) {
				return
			}
		}
	}
}

// places yields every client as a clientRef, with its place, in no order.
func (t *clientTable) places() iter.Seq2[clientRef, uint32] {
	return func(yield func(clientRef, uint32) bool) {
		for i := range t.recs.used {
			if c := t.record(i); c.ua != nil && !yield(clientRef{c: c}, i) {
				return
			}
		}
		for i, p := range t.parkedEntries() {
			if !yield(clientRef{p: p}, i) {
				return
			}
		}
	}
}

// ref is the client at place i.
func (t *clientTable) ref(i uint32) clientRef {
	if i&parkedBit != 0 {
		return clientRef{p: t.parkedAt(i)}
	}
	return clientRef{c: t.record(i)}
}

// evictOf is the evictSlot of the client at place i.
func (t *clientTable) evictOf(i uint32) *evictSlot {
	if i&parkedBit != 0 {
		return &t.parkedAt(i).evict
	}
	return &t.record(i).evict
}

// agentTable holds the interned User-agent values and finds one by its
// text. On a log where every client sends a browser string of its own it
// has an entry a client, so it keeps them as clientTable keeps clients: in
// chunks, found through a slotIndex over a 64-bit hash of the string.
type agentTable struct {
	chunks [][]agentInfo // entries; a zero entry (agent nil) is free
	places placeList
	index  slotIndex
}

// hashAgent is agentTable's hash (a variable so a test can make strings
// collide).
var hashAgent = func(ua string) uint64 { return maphash.String(seedClients, ua) }

// entry returns the entry at place i.
func (t *agentTable) entry(i uint32) *agentInfo {
	return &t.chunks[i/tableChunk][i%tableChunk]
}

// get returns the entry of ua, or nil.
func (t *agentTable) get(ua string) *agentInfo {
	a, _ := t.find(ua)
	return a
}

// find returns the entry of ua, or nil, and ua's hash, for add.
func (t *agentTable) find(ua string) (*agentInfo, uint64) { return t.findHashed(ua, hashAgent(ua)) }

// findHashed is find of ua, of hash h.
func (t *agentTable) findHashed(ua string, h uint64) (*agentInfo, uint64) {
	x := &t.index
	if x.n == 0 {
		return nil, h
	}
	tag := tagOf(h)
	for s, ok := x.seek(x.start(h), tag); ok; s, ok = x.seek(x.after(s), tag) {
		if a := t.entry(x.place(s)); a.ua == ua {
			return a, h
		}
	}
	return nil, h
}

// add adds a copy of a, of hash h, which find does not find yet, and
// returns the table's.
func (t *agentTable) add(a agentInfo, h uint64) *agentInfo {
	i, grow := t.places.take(tableChunk)
	if grow {
		t.chunks = append(t.chunks, make([]agentInfo, tableChunk))
	}
	p := t.entry(i)
	*p = a
	p.place = i
	t.index.put(h, i)
	return p
}

// remove forgets a and zeroes it for a new entry: a must not be read
// after.
func (t *agentTable) remove(a *agentInfo) {
	x := &t.index
	s := x.first(hashAgent(a.ua))
	for t.entry(x.place(s)) != a {
		s = x.next(s)
	}
	t.places.give(x.place(s))
	*a = agentInfo{}
	x.remove(s)
}

// len is the number of entries.
func (t *agentTable) len() int { return t.index.n }

// slotIndex finds records by a 64-bit hash: open addressing with linear
// probing, at most three quarters full, over slots of one word, so that a
// probe reads one or two cache lines (a miss probes 8.5 slots on average
// at the fullest, 2.5 at half): the low half of the
// hash (which also picks the slot a probe starts from) and the record's
// place + 1 (0: an empty slot). It holds no pointer, so the collector never
// reads it. Records whose hashes agree in the low half (one in 2^32 a
// pair, or crafted: the seeds are random) stay apart: the caller compares
// the record of every slot whose half matches.
type slotIndex struct {
	slots []uint64 // len a power of two
	n     int      // slots taken
}

// tagMask keeps a slot's half of the hash.
const tagMask = 0xFFFFFFFF << 32

// tagOf is the half of h a slot keeps, in its place.
func tagOf(h uint64) uint64 { return h << 32 }

// place returns the record's place in slot s.
func (x *slotIndex) place(s uint64) uint32 { return uint32(x.slots[s]) - 1 }

// put adds place i of hash h. The index doubles past three quarters full,
// not half: on the 300k churn log a worker's 133,632 clients took 2^19
// slots at half (4 MiB) and the agents' 90,436 2^18, 4 MiB of the 13 MiB
// of indexes at the pass's end, for a few more slots read by a miss.
func (x *slotIndex) put(h uint64, i uint32) {
	if (x.n+1)*4 > len(x.slots)*3 {
		x.grow()
	}
	x.set(h, tagOf(h)|uint64(i+1))
	x.n++
}

// set puts slot value v in the first empty slot from h's.
func (x *slotIndex) set(h, v uint64) {
	mask := uint64(len(x.slots) - 1)
	i := h & mask
	for x.slots[i] != 0 {
		i = (i + 1) & mask
	}
	x.slots[i] = v
}

// grow doubles the slots. The new slots are written before the probes
// read them: a page the system has not handed over yet, read first,
// is mapped to its shared zero page, and the write after it faults again
// and, while another core runs the process, flushes that core's TLB by an
// interrupt the writer waits for (perf on the churn log, two cores: 4% of
// the run's CPU in such faults, 2.6 points of it in these probes).
func (x *slotIndex) grow() {
	old := x.slots
	x.slots = make([]uint64, max(2*len(old), 64))
	clear(x.slots)
	for _, v := range old {
		if v != 0 {
			x.set(v>>32, v)
		}
	}
}

// first returns the first slot of hash h from h's, which must be there.
func (x *slotIndex) first(h uint64) uint64 {
	return x.from(h&uint64(len(x.slots)-1), tagOf(h))
}

// next returns the next slot of slot s's hash after s, which must be
// there.
func (x *slotIndex) next(s uint64) uint64 {
	return x.from((s+1)&uint64(len(x.slots)-1), x.slots[s]&tagMask)
}

// from returns the first slot from i whose half of the hash is tag, which
// must be there.
func (x *slotIndex) from(i, tag uint64) uint64 {
	i, ok := x.seek(i, tag)
	if !ok {
		panic("detect: slotIndex: a record not in the index")
	}
	return i
}

// seek returns the first slot from i whose half of the hash is tag, or
// false at an empty slot before one: a probe's next candidate, whose
// record the caller compares. A probe of hash h starts at h's slot
// (x.start(h)) and goes on after a candidate s at x.after(s).
func (x *slotIndex) seek(i, tag uint64) (uint64, bool) {
	mask := uint64(len(x.slots) - 1)
	for ; x.slots[i] != 0; i = (i + 1) & mask {
		if x.slots[i]&tagMask == tag {
			return i, true
		}
	}
	return i, false
}

// start is the slot a probe of hash h starts from.
func (x *slotIndex) start(h uint64) uint64 { return h & uint64(len(x.slots)-1) }

// after is the slot after s.
func (x *slotIndex) after(s uint64) uint64 { return (s + 1) & uint64(len(x.slots)-1) }

// remove empties slot i, moving back the slots after it that a probe from
// their hash's slot would no longer reach over the hole (Knuth's
// algorithm R).
func (x *slotIndex) remove(i uint64) {
	mask := uint64(len(x.slots) - 1)
	for j := (i + 1) & mask; x.slots[j] != 0; j = (j + 1) & mask {
		home := x.slots[j] >> 32 & mask
		if i <= j && (home <= i || home > j) || i > j && home <= i && home > j {
			x.slots[i] = x.slots[j]
			i = j
		}
	}
	x.slots[i] = 0
	x.n--
}

// placeList hands out the places of a table kept in chunks: one given
// back first, else the next never used (clientTable's records and parked
// entries, agentTable's entries).
type placeList struct {
	used uint32   // places handed out of the chunks
	free []uint32 // places given back, for the next taken
}

// take returns a place, and whether it is the first of a chunk of n
// places not made yet, which the caller makes.
func (l *placeList) take(n uint32) (i uint32, grow bool) {
	if k := len(l.free); k > 0 {
		i = l.free[k-1]
		l.free = l.free[:k-1]
		return i, false
	}
	i = l.used
	l.used++
	return i, i%n == 0
}

// give gives place i back.
func (l *placeList) give(i uint32) { l.free = append(l.free, i) }
