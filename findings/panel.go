package findings

import (
	"cmp"
	"slices"
	"strings"
)

// topPathsKept is how many paths a robots row, and all robots together, list.
const topPathsKept = 20

// Panels is what all robots together, and people, were answered, and the
// paths robots asked for most (panel.go).
type Panels struct {
	RobotStatus        StatusCounts `json:"robot_status"`
	HumanStatus        StatusCounts `json:"human_status"`
	RobotPaths         []PathCount  `json:"robot_paths"`
	RobotPathsOtherMax int64        `json:"robot_paths_other_max"` // the most requests a path not in robot_paths may have had
	// Uncounted are requests of clients that kept no panel (its memory
	// bound was reached): in no status or path count. Unlisted are
	// requests to paths first seen past the bound of distinct paths: in
	// the status counts, in no path list.
	Uncounted int64 `json:"uncounted"`
	Unlisted  int64 `json:"unlisted"`

	AllRobotPaths  []PathCount `json:"-"` // the whole list RobotPaths was cut from, for a merge
	RobotPathsBase int64       `json:"-"` // the most a path not in it had
}

// SetRobotPaths sets the robots' paths from their whole list.
func (p *Panels) SetRobotPaths(all []PathCount, base int64) {
	p.AllRobotPaths, p.RobotPathsBase = all, base
	p.RobotPaths, p.RobotPathsOtherMax = topPaths(all, base)
}

// PathCount is how many requests went to one path: at least Requests, at
// most Requests + Error (Error is 0 when the count is exact).
type PathCount struct {
	Path     string `json:"path"`
	Requests int64  `json:"requests"`
	Error    int64  `json:"error,omitempty"`
}

// StatusCounts is answers by status class, with the 404s among the 4xx.
type StatusCounts struct {
	StatusMix
	NotFound int64 `json:"404"`
}

// Add adds the counts of o.
func (c *StatusCounts) Add(o StatusCounts) {
	c.S2xx += o.S2xx
	c.S3xx += o.S3xx
	c.S4xx += o.S4xx
	c.S5xx += o.S5xx
	c.Other += o.Other
	c.NotFound += o.NotFound
}

// Total is the answers counted.
func (c StatusCounts) Total() int64 { return c.S2xx + c.S3xx + c.S4xx + c.S5xx + c.Other }

// SortPaths sorts paths by requests, then errors, most first, then by
// path, the order topPaths cuts and a merge keeps.
func SortPaths(out []PathCount) {
	slices.SortFunc(out, pathOrder)
}

// pathOrder is SortPaths's order. The path is compared only on a tie of
// both counts: cmp.Or compared it every time, its arguments all
// evaluated before the call.
func pathOrder(a, b PathCount) int {
	switch {
	case a.Requests != b.Requests:
		return cmp.Compare(b.Requests, a.Requests)
	case a.Error != b.Error:
		return cmp.Compare(b.Error, a.Error)
	}
	return strings.Compare(a.Path, b.Path)
}

// topPaths cuts a sorted list of paths to the topPathsKept first, and
// raises base, the most a path not in it had, to the most one cut off had.
func topPaths(all []PathCount, base int64) ([]PathCount, int64) {
	if len(all) <= topPathsKept {
		return all, base
	}
	for _, p := range all[topPathsKept:] {
		base = max(base, p.Requests+p.Error)
	}
	return all[:topPathsKept:topPathsKept], base
}

// mergePaths adds up lists of paths: a path a part did not list counts
// there as 0 at least and base[i] at most. It returns the merged list,
// sorted, and the most a path no part listed may have had. Given whole
// lists of disjoint sets of clients (the workers of a run, the shards of
// a log) it returns what one tally of all of them does.
func mergePaths(parts [][]PathCount, base []int64) ([]PathCount, int64) {
	var allBase int64
	n := 0
	for i, p := range parts {
		allBase += at(base, i)
		n += len(p)
	}
	// The sums are the rows of the result, found by an index: a map of
	// pointers to sums was an allocation a path, and a copy after.
	out := make([]PathCount, 0, n)
	index := make(map[string]int32, n)
	for i, p := range parts {
		b := at(base, i)
		for _, pc := range p {
			j, ok := index[pc.Path]
			if !ok {
				j = int32(len(out))
				index[pc.Path] = j
				out = append(out, PathCount{Path: pc.Path})
			}
			s := &out[j]
			s.Requests += pc.Requests
			s.Error += pc.Requests + pc.Error - b // the high, less the bases added back below
		}
	}
	for i := range out {
		out[i].Error += allBase - out[i].Requests
	}
	SortPaths(out)
	return out, allBase
}
