package detect

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortHashesAsSlicesSort: sortHashes orders hashes as slices.Sort
// does, on lists short and long, with runs of equal values (many clients
// of one address), values that agree on their top bytes, and skewed ones.
func TestSortHashesAsSlicesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	lists := map[string]func(n int) []uint64{
		"random": func(n int) []uint64 {
			h := make([]uint64, n)
			for i := range h {
				h[i] = rng.Uint64()
			}
			return h
		},
		"repeated": func(n int) []uint64 {
			h := make([]uint64, n)
			for i := range h {
				h[i] = uint64(rng.IntN(7)) * 0x9e3779b97f4a7c15
			}
			return h
		},
		"shared top": func(n int) []uint64 {
			h := make([]uint64, n)
			for i := range h {
				h[i] = 0xabcdef<<40 | rng.Uint64()>>(24+rng.IntN(40))
			}
			return h
		},
	}
	for name, gen := range lists {
		for _, n := range []int{0, 1, 2, 23, 24, 25, 300, 5000, 100000} {
			h := gen(n)
			want := slices.Clone(h)
			slices.Sort(want)
			sortHashes(h)
			if !slices.Equal(h, want) {
				t.Errorf("%s, %d values: not in slices.Sort's order", name, n)
			}
		}
	}
}
