package detect

// sortHashes sorts hashes, well-mixed 64-bit values, in place: an
// American flag sort on their bytes, most significant first, which a
// level or two spreads into runs short enough to sort by insertion.
// pdqsort's comparisons of the held clients' address hashes
// (addressesOf) were 80 of the 1,388 samples of the churn log's worker
// Results (perf record, 250,000 clients).
func sortHashes(h []uint64) { radixHashes(h, 56) }

// hashRadixSmall is the length under which radixHashes sorts by
// insertion.
const hashRadixSmall = 24

// radixHashes sorts h, whose values agree on the bits above shift+8, by
// the byte at shift and those below it.
func radixHashes(h []uint64, shift uint) {
	if len(h) < hashRadixSmall {
		for i := 1; i < len(h); i++ {
			for j := i; j > 0 && h[j] < h[j-1]; j-- {
				h[j], h[j-1] = h[j-1], h[j]
			}
		}
		return
	}
	var start, end [256]int
	for _, x := range h {
		end[byte(x>>shift)]++
	}
	at := 0
	for d := range end {
		start[d], at = at, at+end[d]
		end[d] = at
	}
	next := start
	for d := range next {
		for next[d] < end[d] {
			// Carry the value at the bucket's next place to its own
			// bucket, and the one there on, until one belongs here.
			x := h[next[d]]
			for k := byte(x >> shift); int(k) != d; k = byte(x >> shift) {
				x, h[next[k]] = h[next[k]], x
				next[k]++
			}
			h[next[d]] = x
			next[d]++
		}
	}
	if shift == 0 {
		return
	}
	for d := range start {
		if end[d]-start[d] > 1 {
			radixHashes(h[start[d]:end[d]], shift-8)
		}
	}
}
