// Package radix permutes a slice in place into the buckets of one key byte, the step of an American flag sort.
package radix

// Permute groups s in place by buckets, buckets[i] the bucket (a key byte) of
// s[i], in increasing order of byte, and returns where each byte's
// bucket starts and ends in s. It carries each element to its bucket's
// next free place, and the one there on, until one belongs where the
// cycle began. buckets, as long as s, is read, not permuted: it no longer
// matches s.
//
// The buckets come precomputed, not from a method or a func value,
// because the compiler calls a type parameter's method through its
// dictionary (an indirect call per element, and the carried element
// escapes to the heap: go build -gcflags=-S).
func Permute[E any](s []E, buckets []byte) (start, end [256]int) {
	buckets = buckets[:len(s)]
	for _, k := range buckets {
		end[k]++
	}
	at := 0
	for b := range end {
		start[b], at = at, at+end[b]
		end[b] = at
	}
	if len(s) == 0 || end[buckets[0]]-start[buckets[0]] == len(s) {
		return start, end // one byte for all: nothing moves
	}
	next := start
	for b := range next {
		for next[b] < end[b] {
			// A place j = next[k] of another bucket k holds the element
			// first there, so buckets[j] is still its byte.
			i := next[b]
			e, k := s[i], buckets[i]
			for int(k) != b {
				j := next[k]
				next[k]++
				e, s[j] = s[j], e
				k = buckets[j]
			}
			s[i] = e
			next[b]++
		}
	}
	return start, end
}
