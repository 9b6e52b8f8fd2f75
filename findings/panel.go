package findings

import (
	"cmp"
	"slices"
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
	slices.SortFunc(out, func(a, b PathCount) int {
		return cmp.Or(cmp.Compare(b.Requests, a.Requests), cmp.Compare(b.Error, a.Error), cmp.Compare(a.Path, b.Path))
	})
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
	type sum struct{ low, high int64 }
	by := map[string]*sum{}
	var allBase int64
	for i, p := range parts {
		b := int64(0)
		if i < len(base) {
			b = base[i]
		}
		allBase += b
		for _, pc := range p {
			s := by[pc.Path]
			if s == nil {
				s = &sum{}
				by[pc.Path] = s
			}
			s.low += pc.Requests
			s.high += pc.Requests + pc.Error - b // b is added back for every part below
		}
	}
	out := make([]PathCount, 0, len(by))
	for path, s := range by {
		out = append(out, PathCount{Path: path, Requests: s.low, Error: s.high + allBase - s.low})
	}
	SortPaths(out)
	return out, allBase
}
