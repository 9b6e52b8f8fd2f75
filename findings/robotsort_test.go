package findings

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// TestSortRobotsAsSortFunc: sortRobots gives the order a comparison sort
// by robotOrder gives, each row whole, for lists with ties of requests,
// without, and around the lengths pdqsort sorts by insertion.
func TestSortRobotsAsSortFunc(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{0, 1, 2, 3, 12, 13, 50, 1000, 5000} {
		for _, spread := range []int64{1, 3, 1 << 40} {
			rows := make([]RobotSummary, n)
			for i, k := range rng.Perm(n) {
				rows[i] = RobotSummary{Name: fmt.Sprintf("bot %d", k), Requests: rng.Int64N(spread), Bytes: int64(i),
					Reasons: map[string]int{"behaviour": i}, TopPaths: []PathCount{{Path: fmt.Sprint("/", i), Requests: 1}}}
			}
			want := slices.Clone(rows)
			slices.SortFunc(want, func(a, b RobotSummary) int { return robotOrder(&a, &b) })
			sortRobots(rows)
			if !reflect.DeepEqual(rows, want) {
				t.Fatalf("%d rows, requests below %d: not robotOrder's order", n, spread)
			}
		}
	}
}

// BenchmarkMergeRobotsChurn merges two workers' robots rows of the size
// of the churn log's: 7,000 names each, each of one network and a path.
func BenchmarkMergeRobotsChurn(b *testing.B) {
	names := make([][]RobotSummary, 2)
	for w := range names {
		for i := range 7000 {
			names[w] = append(names[w], RobotSummary{Name: fmt.Sprintf("unnamed (%d.%d.%d.0/24)", w, i/256, i%256), Requests: int64(1 + i%3),
				Reasons: map[string]int{"behaviour": 1}, TopPaths: []PathCount{{Path: "/search", Requests: 1}}})
		}
	}
	benchMergeRobots(b, names)
}

// benchMergeRobots times mergeRobots of the two workers' rows in names,
// merging fresh copies each time: the merged rows take the parts over.
func benchMergeRobots(b *testing.B, names [][]RobotSummary) {
	b.ReportAllocs()
	for b.Loop() {
		parts := make([][]RobotSummary, 2)
		for w := range parts {
			parts[w] = slices.Clone(names[w])
		}
		mergeRobots(parts, false)
	}
}
