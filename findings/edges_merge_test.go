package findings

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// TestMergeSortedEdgesAsSort: merging the parts' sorted lists gives what
// sorting them all together does, and lists out of order or sharing a
// client are sorted as before.
func TestMergeSortedEdgesAsSort(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for trial := range 400 {
		parts := make([][]ClientEdge, r.IntN(4))
		for i := range parts {
			for range r.IntN(30) {
				parts[i] = append(parts[i], ClientEdge{
					IP:        fmt.Sprintf("10.%d.%d.%d", i, r.IntN(3), r.IntN(20)),
					UserAgent: fmt.Sprintf("bot/%d", r.IntN(3)),
					Sessions:  int64(trial*1000 + i),
				})
			}
			if r.IntN(8) == 0 { // a client in two parts (a hand-edited one)
				parts[i] = append(parts[i], ClientEdge{IP: "10.0.0.1", UserAgent: "bot/0", Sessions: int64(i)})
			}
			if r.IntN(6) != 0 { // most parts as a worker gives them
				SortEdges(parts[i])
				parts[i] = slices.CompactFunc(parts[i], func(a, b ClientEdge) bool { return edgeOrder(&a, &b) == 0 })
			}
		}
		want := slices.Concat(parts...)
		SortEdges(want)
		got := mergeSortedEdges(parts)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d: merged %v, sorted %v", trial, got, want)
		}
	}
}
