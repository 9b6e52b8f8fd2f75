package findings

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// mergePathsByMap is mergePaths as it was, a map of sums sorted with
// cmp.Or: the reference the faster one must agree with.
func mergePathsByMap(parts [][]PathCount, base []int64) ([]PathCount, int64) {
	type sum struct{ low, high int64 }
	by := map[string]*sum{}
	var allBase int64
	for i, p := range parts {
		b := at(base, i)
		allBase += b
		for _, pc := range p {
			s := by[pc.Path]
			if s == nil {
				s = &sum{}
				by[pc.Path] = s
			}
			s.low += pc.Requests
			s.high += pc.Requests + pc.Error - b
		}
	}
	out := make([]PathCount, 0, len(by))
	for path, s := range by {
		out = append(out, PathCount{Path: path, Requests: s.low, Error: s.high + allBase - s.low})
	}
	slices.SortFunc(out, func(a, b PathCount) int {
		return cmp.Or(cmp.Compare(b.Requests, a.Requests), cmp.Compare(b.Error, a.Error), cmp.Compare(a.Path, b.Path))
	})
	return out, allBase
}

// pathParts makes parts of paths as a Pool's workers list them: whole
// lists, sorted, overlapping, with many ties of counts.
func pathParts(r *rand.Rand, parts, paths int) ([][]PathCount, []int64) {
	lists, base := make([][]PathCount, parts), make([]int64, parts)
	for i := range lists {
		seen := map[int]bool{}
		for range r.IntN(paths + 1) {
			k := r.IntN(2 * paths)
			if seen[k] {
				continue
			}
			seen[k] = true
			pc := PathCount{Path: fmt.Sprintf("/p/%d", k), Requests: int64(1 + r.IntN(5))}
			if r.IntN(4) == 0 {
				pc.Error = int64(r.IntN(3))
			}
			lists[i] = append(lists[i], pc)
		}
		SortPaths(lists[i])
		if r.IntN(3) == 0 {
			base[i] = int64(r.IntN(4))
		}
	}
	return lists, base
}

func TestMergePathsAgreesWithMap(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 35))
	for trial := range 500 {
		lists, base := pathParts(r, 1+r.IntN(4), 1+r.IntN(60))
		base = base[:r.IntN(len(base)+1)] // a part without a base counts 0
		want, wantBase := mergePathsByMap(lists, base)
		got, gotBase := mergePaths(lists, base)
		if !reflect.DeepEqual(got, want) || gotBase != wantBase {
			t.Fatalf("trial %d: mergePaths = %v, %d; by map %v, %d", trial, got, gotBase, want, wantBase)
		}
	}
}

// BenchmarkMergeRobots merges two workers' robots rows of the size of
// the generated million-line log's: 56 names, 10,000 paths in all.
func BenchmarkMergeRobots(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	names := robotParts(r, 0)
	for i := range 56 {
		lists, base := pathParts(r, 2, 10+r.IntN(360))
		for w := range names {
			names[w] = append(names[w], RobotSummary{Name: fmt.Sprintf("bot%d", i), Requests: int64(100 - i), AllTopPaths: lists[w], TopPathsBase: base[w]})
		}
	}
	benchMergeRobots(b, names)
}

// robotParts makes two workers' robots rows of names names.
func robotParts(r *rand.Rand, names int) [][]RobotSummary {
	parts := make([][]RobotSummary, 2)
	for i := range names {
		lists, base := pathParts(r, 2, 1+r.IntN(80))
		for w := range parts {
			parts[w] = append(parts[w], RobotSummary{Name: fmt.Sprintf("bot%d", i), Requests: int64(100 - i), AllTopPaths: lists[w], TopPathsBase: base[w]})
		}
	}
	return parts
}

func TestMergeRobotsOnCoresAgrees(t *testing.T) {
	old := mergeWorkers
	defer func() { mergeWorkers = old }()
	for _, names := range []int{0, 1, 2, 7, 56} {
		mergeWorkers = func() int { return 1 }
		want := mergeRobots(robotParts(rand.New(rand.NewPCG(uint64(names), 9)), names), true)
		mergeWorkers = func() int { return 8 }
		got := mergeRobots(robotParts(rand.New(rand.NewPCG(uint64(names), 9)), names), true)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%d names: on 8 goroutines %v, on one %v", names, got, want)
		}
	}
}
