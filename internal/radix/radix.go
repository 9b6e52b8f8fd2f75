// Package radix permutes a slice in place into the buckets of one key byte, the step of an American flag sort.
package radix

import (
	"encoding/binary"
	"iter"
)

// Permute groups s in place by buckets, buckets[i] the bucket (a key
// byte) of s[i], in increasing order of byte, and sets end[b] to where
// byte b's bucket ends in s: it starts where b-1's ends, b 0's at 0. It
// carries each element to its bucket's next free place, and the one
// there on, until one belongs where the cycle began. buckets, as long as
// s, is read, not permuted: it no longer matches s.
//
// The buckets come precomputed, not from a method or a func value,
// because the compiler calls a type parameter's method through its
// dictionary (an indirect call per element, and the carried element
// escapes to the heap: go build -gcflags=-S). end is the caller's:
// returned, its 2 KB (and a start's) were copied at every call.
func Permute[E any](s []E, buckets []byte, end *[256]int) {
	buckets = buckets[:len(s)]
	count(buckets, end)
	var start [256]int
	at := 0
	for b, n := range end {
		start[b], at = at, at+n
		end[b] = at
	}
	if len(s) == 0 || end[buckets[0]]-start[buckets[0]] == len(s) {
		return // one byte for all: nothing moves
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
}

// Runs yields where each bucket that Permute's end bounds starts and
// ends, of those holding more than one element: the runs a sort goes on
// to sort by its next byte.
func Runs(end *[256]int) iter.Seq2[int, int] {
	return func(yield func(lo, hi int) bool) {
		lo := 0
		for _, hi := range end {
			if hi-lo > 1 && !yield(lo, hi) {
				return
			}
			lo = hi
		}
	}
}

// count sets n[b] to how many of buckets are b, eight bytes a step: a
// byte a step, the loop was two thirds of the count's instructions.
func count(buckets []byte, n *[256]int) {
	clear(n[:])
	for len(buckets) >= 8 {
		w := binary.LittleEndian.Uint64(buckets)
		n[byte(w)]++
		n[byte(w>>8)]++
		n[byte(w>>16)]++
		n[byte(w>>24)]++
		n[byte(w>>32)]++
		n[byte(w>>40)]++
		n[byte(w>>48)]++
		n[byte(w>>56)]++
		buckets = buckets[8:]
	}
	for _, b := range buckets {
		n[b]++
	}
}
