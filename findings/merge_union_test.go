package findings

import (
	"fmt"
	"slices"
	"testing"
)

// TestMergeVerdictsDetailsOrder: a client's details merged over parts are
// the first part's as written, then each later part's not yet listed, in
// its order: merge's goldens depend on it.
func TestMergeVerdictsDetailsOrder(t *testing.T) {
	for _, tc := range []struct {
		name  string
		parts [][]string
		want  []string
	}{
		{"none", [][]string{nil, nil}, nil},
		{"the later day's new ones after", [][]string{{"b", "a"}, {"c", "a", "d"}}, []string{"b", "a", "c", "d"}},
		{"the first day's repeats kept as written", [][]string{{"a", "a"}, {"a", "b"}}, []string{"a", "a", "b"}},
		{"a later day's repeats once", [][]string{{"a"}, {"b", "b", "a", "c", "b"}}, []string{"a", "b", "c"}},
		{"three days", [][]string{{"x"}, {"y", "x"}, {"z", "y", "x"}}, []string{"x", "y", "z"}},
		{"only a later day's", [][]string{nil, {"a", "a"}}, []string{"a"}},
		{"long lists alike", [][]string{
			{"k", "j", "i", "h", "g", "g", "f", "e", "d", "c", "b", "a"},
			{"a", "l", "m", "l", "b", "n", "c", "d", "e", "f", "o", "m", "g", "h", "i", "j", "k", "n", "p"}},
			[]string{"k", "j", "i", "h", "g", "g", "f", "e", "d", "c", "b", "a", "l", "m", "n", "o", "p"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var parts [][]Verdict
			for _, d := range tc.parts {
				parts = append(parts, []Verdict{{IP: "192.0.2.1", UserAgent: "ua", Requests: 1, Details: slices.Clone(d)}})
			}
			got := MergeVerdicts(parts)[0].Details
			if !slices.Equal(got, tc.want) {
				t.Errorf("details %q; want %q", got, tc.want)
			}
		})
	}
}

// TestMergeVerdictsHugeDetails: a hand-edited part may give a client
// hundreds of thousands of details; merging it with another day's was a
// search of the list for each of them (about 4e10 string comparisons
// here, minutes), and is one pass now.
func TestMergeVerdictsHugeDetails(t *testing.T) {
	const n = 200000
	day := func(from int) []Verdict {
		d := make([]string, n)
		for i := range d {
			d[i] = fmt.Sprintf("detail %d", from+i)
		}
		return []Verdict{{IP: "192.0.2.1", UserAgent: "ua", Requests: 1, Details: d}}
	}
	got := MergeVerdicts([][]Verdict{day(0), day(n / 2)})[0].Details
	if len(got) != n+n/2 || got[n-1] != fmt.Sprintf("detail %d", n-1) || got[n] != fmt.Sprintf("detail %d", n) {
		t.Errorf("%d details, [n-1] %q, [n] %q; want %d, the first day's then the second's new ones", len(got), got[n-1], got[n], n+n/2)
	}
}
