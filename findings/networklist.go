package findings

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"iter"
	"slices"

	"github.com/robowatch/robowatch/internal/radix"
)

// NetworkList is the networks of a Result, most requests first, then by
// network. A pass's list keeps a row of numbers a network and makes each
// NetworkSummary, with its network's name, when it is read: a high-churn
// log has about as many networks as clients, and its summaries (80 bytes
// and a name of 15) were 21 MB held from the end of the pass to the end
// of the report on the churn log (233,249 networks), where the rows are
// 9.3 MB. A list read back from reports holds the summaries themselves.
// The zero value is an empty list.
type NetworkList struct {
	sums   []networkSum   // a pass's networks, in the list's order
	extras []networkExtra // what few of sums have (networkSum.extra)
	ops    []string       // the operators extras name (networkExtra.op)
	list   []NetworkSummary
}

// networkSum is one network of a pass: its name, as its key, and its
// counts; the violations, incidents and operator few networks have are
// apart (extra).
type networkSum struct {
	name     textKey // sorts as the name, and writes it (appendName)
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
	var buf [32]byte
	return l.summary(i, string(l.sums[i].name.appendName(buf[:0])))
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
				buf = l.sums[i].name.appendName(buf)
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
// big-endian words: names compare as their keys do, and the key holds
// the whole name but the end of an IPv6 /48's longer than 16 bytes,
// which appendName adds back. A /24's name has at most 16 bytes; a /48's
// is its first three groups, at most 14 bytes, and "::/48" (the five
// zero groups after them are the longest run), so two names differ within
// their first 15 bytes and past the 16th only "::/48" goes on.
type textKey struct{ hi, lo uint64 }

// keyOf is the key of the name of the network networkKey made net of.
func keyOf(net uint64) textKey {
	var buf [64]byte
	var pad [16]byte
	copy(pad[:], networkOfKey(net).AppendTo(buf[:0])) // as Prefix.String writes it
	return textKey{binary.BigEndian.Uint64(pad[:8]), binary.BigEndian.Uint64(pad[8:])}
}

// compare compares the names whose keys are k and o.
func (k textKey) compare(o textKey) int {
	switch {
	case k.hi != o.hi:
		return compareWords(k.hi, o.hi)
	case k.lo != o.lo:
		return compareWords(k.lo, o.lo)
	}
	return 0
}

// compareWords is cmp.Compare for two words that differ, small enough
// to be inlined into the sort's comparison.
func compareWords(a, b uint64) int {
	if a < b {
		return -1
	}
	return 1
}

// v6Tail is how an IPv6 /48's name ends.
const v6Tail = "::/48"

// appendName appends the name whose key k is.
func (k textKey) appendName(b []byte) []byte {
	var raw [16]byte
	binary.BigEndian.PutUint64(raw[:8], k.hi)
	binary.BigEndian.PutUint64(raw[8:], k.lo)
	n := bytes.IndexByte(raw[:], 0)
	if n >= 0 {
		return append(b, raw[:n]...)
	}
	b = append(b, raw[:]...)
	if bytes.IndexByte(raw[:], ':') < 0 {
		return b // a /24's name of 16 bytes
	}
	for cut := len(v6Tail); cut > 0; cut-- { // how much of the tail the key holds
		if bytes.HasSuffix(raw[:], []byte(v6Tail[:cut])) {
			return append(b, v6Tail[cut:]...)
		}
	}
	return b
}

// sort puts sums in the list's order: most requests first, then by name.
// It is a radix sort in place (American flag sort) on the bytes of the
// key sumKey makes, most significant first, skipping those in which no
// two sums differ: a churn log's networks have a few request counts and
// names of digits and dots, and pdqsort's comparisons and partitions of
// its 117,000 sums a worker were 92M of churn.log's instructions
// (cachegrind).
func (l *NetworkList) sort() {
	sums := l.sums
	var diff [sumKeyWords]uint64 // the bits in which some key differs from the first's
	for i := range sums {
		for w := range diff {
			diff[w] |= sumKey(&sums[i], w) ^ sumKey(&sums[0], w)
		}
	}
	var buckets []byte // each sum's byte being sorted on (radix.Permute)
	if len(sums) >= radixSmall {
		buckets = make([]byte, len(sums))
	}
	radixSums(sums, buckets, 0, &diff)
}

// sumOrder is the list's order: most requests first, then by name.
func sumOrder(a, b *networkSum) int {
	switch {
	case a.requests > b.requests:
		return -1
	case a.requests < b.requests:
		return 1
	}
	return a.name.compare(b.name)
}

// sumKeyWords is how many words sumKey makes of a sum.
const sumKeyWords = 3

// sumKey is the w-th word of the key that orders sums as sumOrder does,
// compared word by word as unsigned numbers: the requests, most first,
// then the name's key (textKey.compare).
func sumKey(s *networkSum, w int) uint64 {
	switch w {
	case 0:
		return ^(uint64(s.requests) ^ 1<<63)
	case 1:
		return s.name.hi
	}
	return s.name.lo
}

// radixSums sorts sums, whose keys agree on the bytes before byte at (0:
// the most significant of the first word), by the bytes from at on in
// which diff has bits; buckets is scratch as long as sums.
func radixSums(sums []networkSum, buckets []byte, at int, diff *[sumKeyWords]uint64) {
	for at < 8*sumKeyWords && byte(diff[at/8]>>(56-8*(at%8))) == 0 {
		at++
	}
	if at == 8*sumKeyWords || len(sums) < 2 {
		return
	}
	if len(sums) < radixSmall {
		for i := 1; i < len(sums); i++ {
			for j := i; j > 0 && sumOrder(&sums[j], &sums[j-1]) < 0; j-- {
				sums[j], sums[j-1] = sums[j-1], sums[j]
			}
		}
		return
	}
	w, shift := at/8, uint(56-8*(at%8))
	buckets = buckets[:len(sums)]
	for i := range sums {
		buckets[i] = byte(sumKey(&sums[i], w) >> shift)
	}
	// One byte for all (a name's dot, where every name of the run has its
	// first field as long) moves nothing: its bucket is the run.
	var end [256]int
	radix.Permute(sums, buckets, &end)
	for lo, hi := range radix.Runs(&end) {
		radixSums(sums[lo:hi], buckets[lo:hi], at+1, diff)
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
	ops := make([][]uint32, len(parts)) // each part's operators' places in out.ops
	for k, p := range parts {
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
			if a.requests > b.requests || a.requests == b.requests && a.name.compare(b.name) < 0 {
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
		at[best]++
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
	return l.summary(i, ""), l.sums[i].name.appendName(name)
}

// Sub is the networks lo to hi of the list (0 <= lo <= hi <= Len), a view
// of it.
func (l NetworkList) Sub(lo, hi int) NetworkList {
	if l.sums == nil {
		return NetworkList{list: l.list[lo:hi:hi]}
	}
	return NetworkList{sums: l.sums[lo:hi:hi], extras: l.extras, ops: l.ops}
}
