package detect

import (
	"hash/maphash"
	"iter"
)

// clientTable holds the clients and finds one by its address and
// User-agent. On a log where every line is a new client it is most of the
// live heap, which the collector reads at every cycle, so it keeps neither
// a map of pointers nor an object a client: the records sit in chunks,
// found by their place, and the index is open addressing (linear probing)
// over a 64-bit hash of the pair and that place, with no pointer for the
// collector to follow. A folded client's record is zeroed and given to the
// next new client.
// Pairs of one hash (one in 2^64 a pair, or crafted: the seed is random)
// stay apart: a probe compares the pair of every record its hash matches.
type clientTable struct {
	chunks [][]client // records, tableChunk a chunk; a zero record (ua nil) is free
	used   uint32     // records handed out of the chunks
	free   []uint32   // places of zeroed records, for the next new clients
	hs     []uint64   // a slot's hash; len a power of two
	at     []uint32   // its record's place + 1 (0: an empty slot)
	n      int        // clients held
}

// tableChunk is the records in a chunk: 36 KiB, one allocation for 128
// clients, and no chunk's records ever move (clients are held by pointer).
const tableChunk = 128

// seedClients seeds clientTable's hashes: a new seed each run, so that no
// log can be written to make its clients collide.
var seedClients = maphash.MakeSeed()

func tableHash(ip, ua string) uint64 { return hashPair(ip, ua) }

// hashPair is the table's hash (a variable so a test can make pairs collide).
var hashPair = func(ip, ua string) uint64 {
	return maphash.Comparable(seedClients, clientKey{ip, ua})
}

func newClientTable() clientTable { return clientTable{} }

// record returns the record at place i.
func (t *clientTable) record(i uint32) *client {
	return &t.chunks[i/tableChunk][i%tableChunk]
}

// get returns the client with address ip and User-agent ua, or nil.
func (t *clientTable) get(ip, ua string) *client {
	c, _ := t.find(ip, ua)
	return c
}

// find returns the client with address ip and User-agent ua, or nil, and
// the pair's hash, for put.
func (t *clientTable) find(ip, ua string) (*client, uint64) {
	h := tableHash(ip, ua)
	if t.n == 0 {
		return nil, h
	}
	mask := uint64(len(t.at) - 1)
	for i := h & mask; t.at[i] != 0; i = (i + 1) & mask {
		if t.hs[i] == h {
			if c := t.record(t.at[i] - 1); c.ip == ip && c.ua.ua == ua {
				return c, h
			}
		}
	}
	return nil, h
}

// fresh returns a zeroed record for a new client, which put then adds
// with its hash: a folded client's if one was given back.
func (t *clientTable) fresh() (*client, uint32) {
	if n := len(t.free); n > 0 {
		i := t.free[n-1]
		t.free = t.free[:n-1]
		return t.record(i), i
	}
	if t.used%tableChunk == 0 {
		t.chunks = append(t.chunks, make([]client, tableChunk))
	}
	i := t.used
	t.used++
	return t.record(i), i
}

// put adds the client at place i (from fresh), of hash h, which find does
// not find yet.
func (t *clientTable) put(i uint32, h uint64) {
	if (t.n+1)*2 > len(t.at) {
		t.grow()
	}
	t.place(h, i+1)
	t.n++
}

// place puts at in the first empty slot from h's.
func (t *clientTable) place(h uint64, at uint32) {
	mask := uint64(len(t.at) - 1)
	i := h & mask
	for t.at[i] != 0 {
		i = (i + 1) & mask
	}
	t.hs[i], t.at[i] = h, at
}

// grow doubles the slots (at most half are taken: a miss probes about
// two).
func (t *clientTable) grow() {
	hs, at := t.hs, t.at
	n := max(2*len(at), 1024)
	t.hs, t.at = make([]uint64, n), make([]uint32, n)
	for i, a := range at {
		if a != 0 {
			t.place(hs[i], a)
		}
	}
}

// remove takes c out of the table and zeroes its record for a new client:
// c must not be read after.
func (t *clientTable) remove(c *client) {
	h := tableHash(c.ip, c.ua.ua)
	mask := uint64(len(t.at) - 1)
	i := h & mask
	for t.at[i] == 0 || t.record(t.at[i]-1) != c {
		if t.at[i] == 0 {
			panic("detect: clientTable.remove: a client not in the table")
		}
		i = (i + 1) & mask
	}
	t.free = append(t.free, t.at[i]-1)
	*c = client{}
	t.n--
	// Move back the slots after i that a probe from their hash's slot
	// would no longer reach over the hole (Knuth's algorithm R).
	for j := (i + 1) & mask; t.at[j] != 0; j = (j + 1) & mask {
		home := t.hs[j] & mask
		if i <= j && (home <= i || home > j) || i > j && home <= i && home > j {
			t.hs[i], t.at[i] = t.hs[j], t.at[j]
			i = j
		}
	}
	t.hs[i], t.at[i] = 0, 0
}

// len is the number of clients in the table.
func (t *clientTable) len() int { return t.n }

// all yields every client, in no order; the loop may remove the client
// it is given.
func (t *clientTable) all() iter.Seq[*client] {
	return func(yield func(*client) bool) {
		for i := range t.used {
			if c := t.record(i); c.ua != nil && !yield(c) {
				return
			}
		}
	}
}

// agentTable finds an interned User-agent value by its text. On a log
// where every client sends a browser string of its own it has an entry a
// client, so it is keyed by a 64-bit hash of the string, checked against
// the entry found, as clientTable is: a slot of a number and a pointer,
// not of a string and a pointer. Strings with one hash go to collide.
type agentTable struct {
	byHash  map[uint64]*agentInfo
	collide map[string]*agentInfo
}

// hashAgent is agentTable's hash (a variable so a test can make strings
// collide).
var hashAgent = func(ua string) uint64 { return maphash.String(seedClients, ua) }

func newAgentTable() agentTable {
	return agentTable{byHash: make(map[uint64]*agentInfo)}
}

// get returns the entry of ua, or nil.
func (t *agentTable) get(ua string) *agentInfo {
	if a := t.byHash[hashAgent(ua)]; a != nil && a.ua == ua {
		return a
	}
	if len(t.collide) > 0 {
		return t.collide[ua]
	}
	return nil
}

// put adds a, which get does not find yet.
func (t *agentTable) put(a *agentInfo) {
	h := hashAgent(a.ua)
	if _, taken := t.byHash[h]; !taken {
		t.byHash[h] = a
		return
	}
	if t.collide == nil {
		t.collide = make(map[string]*agentInfo)
	}
	t.collide[a.ua] = a
}

// remove forgets a.
func (t *agentTable) remove(a *agentInfo) {
	h := hashAgent(a.ua)
	if t.byHash[h] == a {
		delete(t.byHash, h)
		return
	}
	delete(t.collide, a.ua)
}

// len is the number of entries.
func (t *agentTable) len() int { return len(t.byHash) + len(t.collide) }
