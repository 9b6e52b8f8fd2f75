package report

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/robowatch/robowatch/findings"
)

// TestStateRowsAsEncodingJSON holds the hand-written state rows (the
// paths lists and the edges) to encoding/json's bytes at every indent the
// report uses and one past the cut constant: a merge reads them back, and
// scripts read them as the JSON contract.
func TestStateRowsAsEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ptr := func() *int64 {
		if r.IntN(3) == 0 {
			return nil
		}
		v := r.Int64() - math.MaxInt64/2
		return &v
	}
	var paths []jsonPaths
	paths = append(paths, jsonPaths{}, jsonPaths{Base: -1, Paths: []findings.PathCount{}},
		jsonPaths{Base: math.MaxInt64, Paths: []findings.PathCount{{}, {Path: "/", Requests: 1, Error: 2}}})
	var edges []findings.ClientEdge
	edges = append(edges, findings.ClientEdge{},
		findings.ClientEdge{Robots: &findings.EdgeRobots{}, Backoff: &findings.EdgeBackoff{}},
		findings.ClientEdge{Backoff: &findings.EdgeBackoff{Recent: [][2]int64{}}},
		findings.ClientEdge{Backoff: &findings.EdgeBackoff{Open: true, Start: -5, Recent: [][2]int64{{1, 2}, {math.MinInt64, math.MaxInt64}}}})
	for range 500 {
		p := jsonPaths{Base: r.Int64N(1000)}
		if r.IntN(4) > 0 {
			p.Paths = []findings.PathCount{}
			for range r.IntN(5) {
				p.Paths = append(p.Paths, findings.PathCount{Path: randomText(r), Requests: r.Int64(), Error: r.Int64N(3)})
			}
		}
		paths = append(paths, p)
		e := findings.ClientEdge{IP: randomText(r), UserAgent: randomText(r), Sessions: r.Int64(), First: -r.Int64(),
			Last: r.Int64(), Head: uint8(r.IntN(256)), Tail: uint8(r.IntN(256)), HeadDelayMs: r.Int64N(5000),
			FetchFirst: ptr(), FetchLast: ptr(), BeforeFetch: ptr()}
		if r.IntN(2) == 0 {
			e.Robots = &findings.EdgeRobots{Host: randomText(r), State: uint8(r.IntN(4)), Latest: r.Int64(), LastAt: r.Int64(),
				Status: r.Int32() - math.MaxInt32/2, OKAt: ptr(), OKVer: r.IntN(9) - 4, OKBySize: r.IntN(2) == 0}
		}
		if r.IntN(2) == 0 {
			e.Backoff = &findings.EdgeBackoff{Open: r.IntN(2) == 0, Start: r.Int64()}
			if r.IntN(3) > 0 {
				e.Backoff.Recent = [][2]int64{}
				for range r.IntN(4) {
					e.Backoff.Recent = append(e.Backoff.Recent, [2]int64{r.Int64(), -r.Int64N(9)})
				}
			}
		}
		edges = append(edges, e)
	}
	for _, prefix := range []string{"", "    ", "      ", spaces, spaces + "  "} {
		for i := range paths {
			want, err := json.MarshalIndent(&paths[i], prefix, "  ")
			if err != nil {
				t.Fatal(err)
			}
			if got := appendPaths(nil, &paths[i], prefix); string(got) != string(want) {
				t.Errorf("paths %d at %d:\n got %s\nwant %s", i, len(prefix), got, want)
			}
		}
		for i := range edges {
			want, err := json.MarshalIndent(&edges[i], prefix, "  ")
			if err != nil {
				t.Fatal(err)
			}
			if got := appendEdge(nil, &edges[i], prefix); string(got) != string(want) {
				t.Errorf("edge %d at %d:\n got %s\nwant %s", i, len(prefix), got, want)
			}
		}
	}
}
