package radix

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// sortBytes sorts s by its bytes from the most significant down, as the
// callers of Permute do, sorting runs shorter than small otherwise.
func sortBytes(s []uint64, scratch []byte, shift uint, small int) {
	if len(s) < small {
		slices.Sort(s)
		return
	}
	scratch = scratch[:len(s)]
	for i, x := range s {
		scratch[i] = byte(x >> shift)
	}
	var end [256]int
	Permute(s, scratch, &end)
	lo := 0
	for b := range end {
		hi := end[b]
		if hi < lo {
			panic("buckets out of order")
		}
		for _, x := range s[lo:hi] {
			if int(byte(x>>shift)) != b {
				panic("element in another byte's bucket")
			}
		}
		lo = hi
	}
	if end[255] != len(s) {
		panic("buckets do not cover the slice")
	}
	if shift == 0 {
		return
	}
	for lo, hi := range Runs(&end) {
		sortBytes(s[lo:hi], scratch[lo:hi], shift-8, small)
	}
}

func TestPermuteSortsAsSlicesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	random := func(n int, mask uint64) []uint64 {
		s := make([]uint64, n)
		for i := range s {
			s[i] = r.Uint64() & mask
		}
		return s
	}
	const small = 24
	tests := []struct {
		name string
		s    []uint64
	}{
		{"empty", nil},
		{"one", random(1, ^uint64(0))},
		{"below threshold", random(small-1, ^uint64(0))},
		{"at threshold", random(small, ^uint64(0))},
		{"above threshold", random(small+1, ^uint64(0))},
		{"all equal", slices.Repeat([]uint64{0x0102030405060708}, 1000)},
		{"all equal bytes", random(1000, 0xff00)},
		{"few bytes vary", random(5000, 0x0f000000000000f0)},
		{"random", random(20000, ^uint64(0))},
		{"small values", random(3000, 0x3)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, small := range []int{0, 2, small} {
				got := slices.Clone(tt.s)
				sortBytes(got, make([]byte, len(got)), 56, small)
				want := slices.Clone(tt.s)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Fatalf("small %d: got %v, want %v", small, got, want)
				}
			}
		})
	}
}

func TestPermuteEmpty(t *testing.T) {
	end := [256]int{2}
	Permute([]int(nil), nil, &end)
	if end != [256]int{} {
		t.Fatalf("Permute(nil) ends = %v, want zeros", end)
	}
}
