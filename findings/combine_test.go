package findings

import (
	"testing"
	"time"
)

// TestMergeOverlap: parts that share a client (days) count it once in its
// robots row, networks and totals of clients, and parts whose clients are
// disjoint (workers) sum their rows as they are.
func TestMergeOverlap(t *testing.T) {
	t0 := time.Date(2024, 5, 6, 0, 0, 0, 0, time.UTC)
	bot := Verdict{IP: "192.0.2.1", UserAgent: "bot", Robot: true, Name: "bot", Requests: 5, Bytes: 50, Network: "192.0.2.0/24"}
	part := func(day int, v Verdict) *Result {
		return &Result{
			Totals:   Totals{Records: v.Requests, RobotCount: 1, RobotRequests: v.Requests},
			First:    t0.AddDate(0, 0, day),
			Last:     t0.AddDate(0, 0, day).Add(time.Hour),
			Robots:   []RobotSummary{{Name: v.Name, Clients: 1, Requests: v.Requests, Bytes: v.Bytes, Compliance: ComplianceUnchecked}},
			Networks: NetworkListOf([]NetworkSummary{{Network: v.Network, Clients: 1, Robots: 1, Requests: v.Requests, UserAgents: 1}}),
		}
	}
	days := [][]Verdict{{bot}, {bot}}
	merged := MergeVerdicts(days)
	var out Result
	Merge(&out, []*Result{part(0, bot), part(1, bot)}, RankOf(merged), &Overlap{Parts: days, Merged: merged})
	if r := out.Robots[0]; len(out.Robots) != 1 || r.Clients != 1 || r.Requests != 10 || r.Bytes != 100 {
		t.Errorf("days: robots %+v, want one row of 1 client, 10 requests", out.Robots)
	}
	if n := out.Networks.At(0); out.Networks.Len() != 1 || n.Clients != 1 || n.Requests != 10 {
		t.Errorf("days: networks %+v, want one of 1 client, 10 requests", out.Networks)
	}
	if out.Records != 10 || !out.First.Equal(t0) || !out.Last.Equal(t0.AddDate(0, 0, 1).Add(time.Hour)) {
		t.Errorf("days: %d records from %v to %v", out.Records, out.First, out.Last)
	}

	other := bot
	other.IP, other.Network = "198.51.100.1", "198.51.100.0/24"
	out = Result{}
	Merge(&out, []*Result{part(0, bot), part(0, other)}, func(string, string) int { return 0 }, nil)
	if r := out.Robots[0]; r.Clients != 2 || r.Requests != 10 || out.Networks.Len() != 2 || out.RobotCount != 2 {
		t.Errorf("workers: robots %+v, %d networks, %d robots", out.Robots, out.Networks.Len(), out.RobotCount)
	}
}
