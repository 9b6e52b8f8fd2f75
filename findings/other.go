package findings

import "math"

// Other counts the records of the clients that detect.Config.MaxClients
// left out: the lightest, evicted to make room (see detect/evict.go),
// folded together.
type Other struct {
	Clients  int64 `json:"clients"`  // distinct clients folded, estimated (HyperLogLog, about 2% off)
	Requests int64 `json:"requests"` // their requests
	Bytes    int64 `json:"bytes"`    // their bytes

	// What the folded clients were found doing, judged as each stood when
	// it was folded: counted in the Result's totals too, so that --fail-on
	// sees them, though their rows are gone.
	Robots     int64 `json:"robots"`     // distinct folded clients judged robots, estimated as Clients is
	Violations int64 `json:"violations"` // robots.txt violations of those robots
	Incidents  int64 `json:"incidents"`  // rapid-fire incidents of folded clients
}

// AddBytes adds byte counts, saturating at math.MaxInt64: a log line may
// claim any size (9223372036854775807 bytes twice is a negative total in
// plain int64 arithmetic), and a report must never show a negative one. A
// saturated total shows as 9223372036854775807, an impossible value that
// reads as "too large to count", and Result.BytesSaturated says so.
func AddBytes(a, b int64) int64 {
	if b > 0 && a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// nonNil makes an empty list marshal as [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// Add adds o, another part's, to t. Clients and Robots are estimates
// (HyperLogLog) and Bytes a part's to write: they saturate.
func (t *Other) Add(o *Other) {
	t.Clients = SaturatingAdd(t.Clients, o.Clients)
	t.Requests += o.Requests
	t.Bytes = SaturatingAdd(t.Bytes, o.Bytes)
	t.Robots = SaturatingAdd(t.Robots, o.Robots)
	t.Violations += o.Violations
	t.Incidents += o.Incidents
}
