package findings

import (
	"math"
	"slices"
	"testing"
)

// TestMergeRobotsBytesAndVerifier: merged reports (robowatch merge, shards)
// add up a row's bytes, saturating at the int64 bound as every byte total
// does, and name each way its clients were verified.
func TestMergeRobotsBytesAndVerifier(t *testing.T) {
	parts := [][]RobotSummary{
		{{Name: "bingbot", Identity: "verified", VerifiedBy: "ip-range", Bytes: 100, Requests: 1}, {Name: "x", Bytes: math.MaxInt64 - 5, Requests: 1}},
		{{Name: "bingbot", Identity: "verified", VerifiedBy: "dns", Bytes: 50, Requests: 1}, {Name: "x", Bytes: 10, Requests: 1}},
	}
	got := mergeRobots(parts, false)
	want := []RobotSummary{{Name: "bingbot", Identity: "verified", VerifiedBy: "dns,ip-range", Bytes: 150}, {Name: "x", Bytes: math.MaxInt64}}
	if !slices.EqualFunc(got, want, func(a, b RobotSummary) bool {
		return a.Name == b.Name && a.Identity == b.Identity && a.VerifiedBy == b.VerifiedBy && a.Bytes == b.Bytes
	}) {
		t.Errorf("merged %+v, want %+v", got, want)
	}
}
