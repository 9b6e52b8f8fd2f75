package detect

import (
	"hash/maphash"
	"iter"
)

// clientTable finds a client by its address and User-agent. A map keyed by
// the pair held two strings a slot; this one is keyed by a 64-bit hash of
// it, checked against the client found, so a slot is a number and a
// pointer: on a log where every line is a new client the table is a tenth
// of the live heap and the collector reads every slot of it at each cycle.
// Two pairs with one hash (one in 2^64 a pair, or crafted: the table's
// seed is random) are not confused: the later ones go to a map keyed by
// the pair.
type clientTable struct {
	byHash  map[uint64]*client
	collide map[clientKey]*client
}

// seedClients seeds clientTable's hashes: a new seed each run, so that no
// log can be written to make its clients collide.
var seedClients = maphash.MakeSeed()

func tableHash(ip, ua string) uint64 { return hashPair(ip, ua) }

// hashPair is the table's hash (a variable so a test can make pairs collide).
var hashPair = func(ip, ua string) uint64 {
	return maphash.Comparable(seedClients, clientKey{ip, ua})
}

func newClientTable() clientTable {
	return clientTable{byHash: make(map[uint64]*client)}
}

// get returns the client with address ip and User-agent ua, or nil.
func (t *clientTable) get(ip, ua string) *client {
	if c := t.byHash[tableHash(ip, ua)]; c != nil && c.ip == ip && c.ua.ua == ua {
		return c
	}
	if len(t.collide) > 0 {
		return t.collide[clientKey{ip, ua}]
	}
	return nil
}

// put adds c, which get does not find yet.
func (t *clientTable) put(c *client) {
	h := tableHash(c.ip, c.ua.ua)
	if _, taken := t.byHash[h]; !taken {
		t.byHash[h] = c
		return
	}
	if t.collide == nil {
		t.collide = make(map[clientKey]*client)
	}
	t.collide[clientKey{c.ip, c.ua.ua}] = c
}

// remove takes c out of the table.
func (t *clientTable) remove(c *client) {
	h := tableHash(c.ip, c.ua.ua)
	if t.byHash[h] == c {
		delete(t.byHash, h)
		return
	}
	delete(t.collide, clientKey{c.ip, c.ua.ua})
}

// len is the number of clients in the table.
func (t *clientTable) len() int { return len(t.byHash) + len(t.collide) }

// all yields every client, in no order; the loop may remove the client
// it is given.
func (t *clientTable) all() iter.Seq[*client] {
	return func(yield func(*client) bool) {
		for _, c := range t.byHash {
			if !yield(c) {
				return
			}
		}
		for _, c := range t.collide {
			if !yield(c) {
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
