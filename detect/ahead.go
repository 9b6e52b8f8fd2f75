package detect

import "github.com/robowatch/robowatch/logparse"

// aheadGroup is how many records of a Pool worker's picks readAhead works
// out at a time.
const aheadGroup = 8

// aheadState is whether a Pool worker reads ahead (readAhead), and the
// clients made when it last asked.
type aheadState struct {
	on   bool
	made int64
}

// aheadPays is s for the next group of records: on while at least half
// of the last group's made a client. Where most records are of clients
// already known (the million-line log: a few thousand addresses), reading
// ahead found nothing to overlap and cost 46M instructions on gen400k.log,
// 2.4% of robowatch's own (cachegrind).
func (d *Detector) aheadPays(s aheadState) aheadState {
	return aheadState{on: d.made-s.made >= aheadGroup/2, made: d.made}
}

// pairAhead is what readAhead worked out of a record's address and
// User-agent (capped as clientOf caps them) before Add reads it.
type pairAhead struct {
	g       uint64 // glancePair, when glanced
	h, uh   uint64 // hashPair and hashAgent, when hashed
	glanced bool
	hashed  bool
	seen    uint64 // the slots read, kept so that the reads are not dropped
}

// readAhead works out the pairs of recs' records picks (nil: none) into
// d.lookahead, and reads the index slots their lookups start from. On a log
// where nearly every record is a new client those slots are cache misses
// (slotIndex.seek was a tenth of the churn log's pass): read one record
// at a time, each Add waited for its own; read here for eight records in
// one short loop, the misses are in flight together.
func (d *Detector) readAhead(recs []logparse.Record, picks []int32) {
	var prevIP string
	var prevUA int
	for k, i := range picks {
		a := &d.lookahead[k]
		ip, ua := recs[i].Client, recs[i].UserAgent
		if len(ip) > MaxStoredClient || len(ua) > MaxStoredAgent {
			ip, ua = capText(ip, MaxStoredClient), capText(ua, MaxStoredAgent)
		}
		a.glanced, a.hashed = false, false
		if k > 0 && ip == prevIP && len(ua) == prevUA {
			continue // most likely the last record's client (clientOf)
		}
		prevIP, prevUA = ip, len(ua)
		a.g, a.glanced = glancePair(ip, ua), true
		t := &d.clients
		if t.glance != nil {
			if e := t.glance[glanceAt(a.g)]; e != 0 && (e^a.g)&tagMask == 0 && uint32(e-1)&parkedBit == 0 {
				continue // most likely found by its glance: no hash needed
			}
		}
		a.h, a.uh, a.hashed = hashPair(ip, ua), hashAgent(ua), true
	}
	// The reads, apart from the hashing: a loop this short keeps every
	// miss of the group in flight at once.
	cs, us := d.clients.index.slots, d.uas.index.slots
	for k := range picks {
		if a := &d.lookahead[k]; a.hashed && len(cs) > 0 && len(us) > 0 {
			a.seen = cs[a.h&uint64(len(cs)-1)] ^ us[a.uh&uint64(len(us)-1)]
		}
	}
}

// parkGroup is idle clients a sweep parks together (parkIdle), with
// their pairs' hashes.
type parkGroup struct {
	cs [aheadGroup]*client
	hs [aheadGroup]uint64
	// known: the bits of the clients whose hash is in hs, the low half
	// of it (window.pair).
	known uint8
	n     int
}

// add adds c, its window's pair and paired, and reports whether the
// group is full.
func (g *parkGroup) add(c *client, pair uint32, paired bool) bool {
	g.cs[g.n], g.hs[g.n] = c, uint64(pair)
	if paired {
		g.known |= 1 << g.n
	}
	g.n++
	return g.n == len(g.cs)
}

// parkIdle parks g's clients, parkable, in turn (parkHashed), their
// index slots read together first, and empties g: a sweep of a churn log
// parks clients whose slots have left the cache long ago, and finding
// each one's slot (slotOf) waited for its own miss.
func (d *Detector) parkIdle(g *parkGroup) {
	cs, hs := g.cs[:g.n], g.hs[:g.n]
	for k, c := range cs {
		if g.known&(1<<k) == 0 {
			hs[k] = hashPair(c.ip, c.ua.ua)
		}
	}
	t := &d.clients
	if slots := t.index.slots; len(slots) > 0 {
		for k, h := range hs {
			d.seen ^= slots[h&uint64(len(slots)-1)]
			// Its entry in the eviction heap, which takes its new place.
			if at := cs[k].evict.at; at >= 0 {
				d.seen ^= uint64(t.heap[at].place)
			}
		}
	}
	for k, c := range cs {
		d.parkHashed(c, hs[k])
	}
	*g = parkGroup{}
}
