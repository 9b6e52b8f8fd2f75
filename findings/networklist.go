package findings

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"iter"
	"slices"
	"strings"
)

// NetworkList is the networks of a Result, most requests first, then by
// network. A pass's list keeps a row of numbers a network and makes each
// NetworkSummary, with its network's name, when it is read: a high-churn
// log has about as many networks as clients, and its summaries (80 bytes
// and a name of 15) were 21 MB held from the end of the pass to the end
// of the report on the churn log (233,249 networks), where the rows are
// 7.5 MB. A list read back from reports holds the summaries themselves.
// The zero value is an empty list.
type NetworkList struct {
	sums   []networkSum   // a pass's networks, in the list's order
	extras []networkExtra // what few of sums have (networkSum.extra)
	ops    []string       // the operators extras name (networkExtra.op)
	list   []NetworkSummary
}

// networkSum is one network of a pass: what its NetworkSummary holds but
// its name, which its key makes, and the rare counts (extra).
type networkSum struct {
	net      uint64 // networkKey of the network
	requests int64
	clients  uint32 // a pass tracks fewer than 2^32 clients
	robots   uint32
	agents   uint32 // at most maxNetworkAgents
	extra    uint32 // 1 + index in NetworkList.extras; 0: no violations, incidents nor operator
}

// NetworkListOf is a list of summaries already made, in the list's order:
// a report read back from JSON, or merged from such.
func NetworkListOf(list []NetworkSummary) NetworkList { return NetworkList{list: list} }

// Len is how many networks the list holds.
func (l NetworkList) Len() int {
	if l.sums != nil {
		return len(l.sums)
	}
	return len(l.list)
}

// At returns the i-th network's summary.
func (l NetworkList) At(i int) NetworkSummary {
	if l.sums == nil {
		return l.list[i]
	}
	var buf [64]byte // AppendTo writes a valid prefix as String does
	return l.summary(i, string(networkOfKey(l.sums[i].net).AppendTo(buf[:0])))
}

// summary is the i-th of sums with its network's name.
func (l NetworkList) summary(i int, name string) NetworkSummary {
	s := &l.sums[i]
	out := NetworkSummary{Network: name, Clients: int(s.clients), Robots: int(s.robots), Requests: s.requests, UserAgents: int(s.agents)}
	if s.extra > 0 {
		e := &l.extras[s.extra-1]
		out.Violations, out.Incidents = e.violations, int(e.incidents)
		if e.op > 0 {
			out.Operator = l.ops[e.op-1]
		}
	}
	return out
}

// namesChunk is how many networks All names at a time, into one string.
const namesChunk = 1024

// All yields the summaries in order. The names of a pass's networks are
// written a chunk at a time into one string: Prefix.String made three
// allocations a network.
func (l NetworkList) All() iter.Seq[NetworkSummary] {
	return func(yield func(NetworkSummary) bool) {
		if l.sums == nil {
			for _, s := range l.list {
				if !yield(s) {
					return
				}
			}
			return
		}
		var buf []byte
		var ends [namesChunk]int
		for lo := 0; lo < len(l.sums); lo += namesChunk {
			hi := min(lo+namesChunk, len(l.sums))
			buf = buf[:0]
			for i := lo; i < hi; i++ {
				buf = networkOfKey(l.sums[i].net).AppendTo(buf)
				ends[i-lo] = len(buf)
			}
			names, start := string(buf), 0
			for i := lo; i < hi; i++ {
				end := ends[i-lo]
				if !yield(l.summary(i, names[start:end])) {
					return
				}
				start = end
			}
		}
	}
}

// Summaries is every summary of the list, in order: the list's own for a
// list of summaries, made now for a pass's.
func (l NetworkList) Summaries() []NetworkSummary {
	if l.sums == nil {
		return l.list
	}
	out := make([]NetworkSummary, 0, len(l.sums))
	for s := range l.All() {
		out = append(out, s)
	}
	return out
}

// MarshalJSON writes the list as a JSON array, as a slice of its
// summaries would be written.
func (l NetworkList) MarshalJSON() ([]byte, error) { return json.Marshal(l.Summaries()) }

// textKey is the first 16 bytes of a network's name, zero-padded, as two
// big-endian words: names compare as their keys do, and no two names
// share a key (an IPv4 /24's name has at most 16 bytes; an IPv6 /48's is
// at most 14 bytes of groups and "::/48", and two such names differ
// within the first 15 bytes), so sorting by key is sorting by name
// without making the names. networkBefore still compares names should
// two networks' keys be equal.
type textKey struct{ hi, lo uint64 }

func keyOf(net uint64) textKey {
	var buf [64]byte
	var pad [16]byte
	copy(pad[:], networkOfKey(net).AppendTo(buf[:0]))
	return textKey{binary.BigEndian.Uint64(pad[:8]), binary.BigEndian.Uint64(pad[8:])}
}

// compareNames compares the names of networks a and b (keys ka and kb)
// as strings.
func compareNames(a, b uint64, ka, kb textKey) int {
	if c := cmp.Or(cmp.Compare(ka.hi, kb.hi), cmp.Compare(ka.lo, kb.lo)); c != 0 || a == b {
		return c
	}
	var ba, bb [64]byte
	return strings.Compare(string(networkOfKey(a).AppendTo(ba[:0])), string(networkOfKey(b).AppendTo(bb[:0])))
}

// sortKey is a network of sums with what the list's order compares.
type sortKey struct {
	requests int64
	key      textKey
	at       int // its place in sums
}

// sort puts sums in the list's order: most requests first, then by name.
func (l *NetworkList) sort() {
	keys := make([]sortKey, len(l.sums))
	for i := range l.sums {
		keys[i] = sortKey{l.sums[i].requests, keyOf(l.sums[i].net), i}
	}
	slices.SortFunc(keys, func(a, b sortKey) int {
		switch {
		case a.requests != b.requests:
			return cmp.Compare(b.requests, a.requests)
		case a.key != b.key:
			return cmp.Or(cmp.Compare(a.key.hi, b.key.hi), cmp.Compare(a.key.lo, b.key.lo))
		}
		// Not before: the rows, in the order of the log's networks, are
		// far apart in memory.
		return compareNames(l.sums[a.at].net, l.sums[b.at].net, a.key, b.key)
	})
	// The rows are moved into their places a cycle of the permutation at
	// a time, in place: a second list of rows would be 32 bytes a network
	// more at the run's largest heap.
	for k := range keys {
		if keys[k].at < 0 {
			continue
		}
		held, j := l.sums[k], k
		for {
			from := keys[j].at
			keys[j].at = -1
			if from == k {
				l.sums[j] = held
				break
			}
			l.sums[j], j = l.sums[from], from
		}
	}
}

// mergeNetworkLists merges the lists of a pass's parts that share no
// network (a detect.Pool's workers), each in the list's order, into one.
func mergeNetworkLists(parts []NetworkList) NetworkList {
	n := 0
	for _, p := range parts {
		n += len(p.sums)
	}
	out := NetworkList{sums: make([]networkSum, 0, n)}
	at := make([]int, len(parts))
	keys := make([]textKey, len(parts)) // of each part's next network
	ops := make([][]uint32, len(parts)) // each part's operators' places in out.ops
	for k, p := range parts {
		if len(p.sums) > 0 {
			keys[k] = keyOf(p.sums[0].net)
		}
		for _, op := range p.ops {
			i := slices.Index(out.ops, op)
			if i < 0 {
				i, out.ops = len(out.ops), append(out.ops, op)
			}
			ops[k] = append(ops[k], uint32(i+1))
		}
	}
	for len(out.sums) < n {
		best := -1
		for k, p := range parts {
			if at[k] == len(p.sums) {
				continue
			}
			if best < 0 {
				best = k
				continue
			}
			a, b := &p.sums[at[k]], &parts[best].sums[at[best]]
			if a.requests > b.requests || a.requests == b.requests && compareNames(a.net, b.net, keys[k], keys[best]) < 0 {
				best = k
			}
		}
		p := &parts[best]
		s := p.sums[at[best]]
		if s.extra > 0 {
			e := p.extras[s.extra-1]
			if e.op > 0 {
				e.op = ops[best][e.op-1]
			}
			out.extras = append(out.extras, e)
			s.extra = uint32(len(out.extras))
		}
		out.sums = append(out.sums, s)
		if at[best]++; at[best] < len(p.sums) {
			keys[best] = keyOf(p.sums[at[best]].net)
		}
	}
	return out
}

// Row is the i-th network's summary for a writer of the list that needs
// no string of its name: a pass's network comes without its name
// (Network ""), which is appended to name, the text of a prefix; any
// other comes whole, and name as it was.
func (l NetworkList) Row(i int, name []byte) (NetworkSummary, []byte) {
	if l.sums == nil {
		return l.list[i], name
	}
	return l.summary(i, ""), networkOfKey(l.sums[i].net).AppendTo(name)
}

// Sub is the networks lo to hi of the list (0 <= lo <= hi <= Len), a view
// of it.
func (l NetworkList) Sub(lo, hi int) NetworkList {
	if l.sums == nil {
		return NetworkList{list: l.list[lo:hi:hi]}
	}
	return NetworkList{sums: l.sums[lo:hi:hi], extras: l.extras, ops: l.ops}
}
