package detect

import "github.com/robowatch/robowatch/internal/radix"

// sortHashes sorts hashes, well-mixed 64-bit values, in place: an
// American flag sort on their bytes, most significant first, which a
// level or two spreads into runs short enough to sort by insertion.
// pdqsort's comparisons of the held clients' address hashes
// (addressesOf) were 80 of the 1,388 samples of the churn log's worker
// Results (perf record, 250,000 clients).
func sortHashes(h []uint64) {
	var buckets []byte // each hash's byte being sorted on (radix.Permute)
	if len(h) >= hashRadixSmall {
		buckets = make([]byte, len(h))
	}
	radixHashes(h, buckets, 56)
}

// hashRadixSmall is the length under which radixHashes sorts by
// insertion.
const hashRadixSmall = 24

// radixHashes sorts h, whose values agree on the bits above shift+8, by
// the byte at shift and those below it; buckets is scratch as long as h.
func radixHashes(h []uint64, buckets []byte, shift uint) {
	if len(h) < hashRadixSmall {
		for i := 1; i < len(h); i++ {
			for j := i; j > 0 && h[j] < h[j-1]; j-- {
				h[j], h[j-1] = h[j-1], h[j]
			}
		}
		return
	}
	buckets = buckets[:len(h)]
	for i, x := range h {
		buckets[i] = byte(x >> shift)
	}
	var end [256]int
	radix.Permute(h, buckets, &end)
	if shift == 0 {
		return
	}
	for lo, hi := range radix.Runs(&end) {
		radixHashes(h[lo:hi], buckets[lo:hi], shift-8)
	}
}
