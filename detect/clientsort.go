package detect

import (
	"slices"

	"github.com/robowatch/robowatch/internal/radix"
)

// sortLeadKeys puts keys, of clients of t, in clientBefore's order of
// their clients: an American flag sort on the bytes of the keys (fewer
// requests last, then the address's first 16 bytes), most significant
// first, which spreads a churn log's clients into runs short enough to
// sort by insertion in four or five levels; clients whose keys tie are
// compared whole. pdqsort's comparisons of the keys, through a function
// value, were 187 of the 1,388 perf samples of the churn log's worker
// Results (125,000 clients each).
func sortLeadKeys(keys []leadKey, t *clientTable) {
	if len(keys) < 2 {
		return
	}
	// The bytes in which some key differs from the first: the others
	// are not sorted on (most requests counts fit a byte).
	var diff [3]uint64
	for i := range keys {
		k, k0 := &keys[i], &keys[0]
		diff[0] |= uint64(k.requests ^ k0.requests)
		diff[1] |= k.lead ^ k0.lead
		diff[2] |= k.lead2 ^ k0.lead2
	}
	s := leadKeySort{t: t, diff: diff}
	var buckets []byte // each key's byte being sorted on (radix.Permute)
	if len(keys) >= leadKeySmall {
		buckets = make([]byte, len(keys))
	}
	s.sort(keys, buckets, 0)
}

// leadKeySort is a sort of leadKeys by radix (sortLeadKeys).
type leadKeySort struct {
	t    *clientTable
	diff [3]uint64 // by field, as digit numbers them
}

// leadKeyDigits is how many bytes a leadKey is sorted on: 4 of the
// requests, 8 of lead, 8 of lead2.
const leadKeyDigits = 20

// leadKeySmall is the length under which a run of keys is sorted by
// insertion.
const leadKeySmall = 24

// digit says where the d-th byte of a key is: its field (0 the requests,
// 1 lead, 2 lead2) and the shift that brings it to the low byte.
func digit(d int) (field int, shift uint) {
	switch {
	case d < 4:
		return 0, uint(8 * (3 - d))
	case d < 12:
		return 1, uint(8 * (11 - d))
	}
	return 2, uint(8 * (19 - d))
}

// bytesOf writes into out the byte at shift of each key's field, the
// requests inverted: most requests first. The field is chosen once, not
// per key.
func bytesOf(keys []leadKey, out []byte, field int, shift uint) {
	out = out[:len(keys)]
	switch field {
	case 0:
		for i := range keys {
			out[i] = byte(^keys[i].requests >> shift)
		}
	case 1:
		for i := range keys {
			out[i] = byte(keys[i].lead >> shift)
		}
	default:
		for i := range keys {
			out[i] = byte(keys[i].lead2 >> shift)
		}
	}
}

// sort sorts keys, which agree on the bytes before the d-th; buckets is
// scratch as long as keys.
func (s *leadKeySort) sort(keys []leadKey, buckets []byte, d int) {
	for ; d < leadKeyDigits; d++ {
		if f, shift := digit(d); byte(s.diff[f]>>shift) != 0 {
			break
		}
	}
	if d == leadKeyDigits && len(keys) >= leadKeySmall {
		// Keys that tie on all their bytes, compared whole: rare, but an
		// address behind a proxy can have thousands of User-agents, whose
		// sort by insertion made a log of 60,000 such clients take 11.9 s,
		// not 0.7 (TestSortTiedKeysInNLogN).
		slices.SortFunc(keys, func(a, b leadKey) int { return compareTied(s.t, &a, &b) })
		return
	}
	if len(keys) < leadKeySmall {
		for i := 1; i < len(keys); i++ {
			for j := i; j > 0 && compareLeadKeys(s.t, &keys[j], &keys[j-1]) < 0; j-- {
				keys[j], keys[j-1] = keys[j-1], keys[j]
			}
		}
		return
	}
	field, shift := digit(d)
	bytesOf(keys, buckets, field, shift)
	// One byte for all (an address's dot, where every address of the run
	// has its first field as long) moves nothing: its bucket is the run.
	var end [256]int
	radix.Permute(keys, buckets, &end)
	for lo, hi := range radix.Runs(&end) {
		s.sort(keys[lo:hi], buckets[lo:hi], d+1)
	}
}

// compareTied is compareLeadKeys for a run of keys that tie on every
// byte (a variable so a test can count its calls).
var compareTied = compareLeadKeys

// compareLeadKeys is clientBefore's order of the clients of t whose keys
// a and b are.
func compareLeadKeys(t *clientTable, a, b *leadKey) int {
	switch c := a.compare(b); {
	case c != 0:
		return c
	case a.place == b.place:
		return 0
	case clientBefore(t.ref(a.place), t.ref(b.place)):
		return -1
	}
	return 1 // two clients' keys differ
}
