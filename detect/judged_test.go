package detect

import (
	"testing"
	"time"

	"github.com/robowatch/robowatch/robots"
)

// TestJudgedTable checks that a judgement keeps its index past the scan's
// length, when the table turns to a map, and that a stored time comes back
// as it went in, zone and all.
func TestJudgedTable(t *testing.T) {
	rb := robots.ParseBytes([]byte("User-agent: *\nDisallow: /a\nDisallow: /b\n"))
	m := rb.Agent("x")
	var tab judgedTable
	zones := []*time.Location{time.UTC, time.FixedZone("", 3600), time.FixedZone("", -7200)}
	var all []violationJudgement
	for i := range 3 * judgedScan {
		j := violationJudgement{checkResult{m: m, how: uint8(i % 4)}, zones[i/4%3]}
		j.rule = &robots.Rule{Line: i}
		all = append(all, j)
	}
	for round := range 2 {
		for i, j := range all {
			k, ok := tab.index(j)
			if !ok || int(k) != i {
				t.Fatalf("round %d: index of judgement %d = %d, %v", round, i, k, ok)
			}
		}
	}
	var v clientViolations
	for _, at := range []time.Time{
		time.Date(2026, 11, 28, 6, 0, 0, 0, time.UTC),
		time.Date(2026, 11, 28, 6, 0, 0, 123456789, time.FixedZone("", 3600)),
		time.Date(1999, 1, 2, 3, 4, 5, 6, time.Local),
	} {
		if !v.store(at, checkResult{m: m}, nil, "GET", "/a", 200) {
			t.Fatal("store refused")
		}
		sv := &v.list[len(v.list)-1]
		if got := sv.time(&v.judged); got != at {
			t.Errorf("stored %v, read back %v", at, got)
		}
	}
}
