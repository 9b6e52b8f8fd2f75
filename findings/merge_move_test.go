package findings

import (
	"slices"
	"testing"
)

// TestMoveRobotRequests: a robots row of merged daily reports holds every
// request and byte of the clients the merge made its robots, as the clients
// list and summary.robot_requests do, not only those of the days it was
// judged one.
func TestMoveRobotRequests(t *testing.T) {
	// Each request is 10 bytes here.
	person := func(ip string, n int64) Verdict { return Verdict{IP: ip, UserAgent: "ua", Requests: n, Bytes: 10 * n} }
	robot := func(ip, name string, n int64) Verdict {
		return Verdict{IP: ip, UserAgent: "ua", Robot: true, Name: name, Requests: n, Bytes: 10 * n}
	}
	tests := []struct {
		name  string
		parts [][]Verdict
		rows  []RobotSummary // the parts' rows summed, as mergeRobots gives them
		want  []RobotSummary
	}{
		{"a person on Monday, a robot on Tuesday",
			[][]Verdict{{person("192.0.2.1", 5)}, {robot("192.0.2.1", "x", 27)}},
			[]RobotSummary{{Name: "x", Requests: 27}},
			[]RobotSummary{{Name: "x", Requests: 32}}},
		{"a robot both days: nothing moves",
			[][]Verdict{{robot("192.0.2.1", "x", 5)}, {robot("192.0.2.1", "x", 27)}},
			[]RobotSummary{{Name: "x", Requests: 32}},
			[]RobotSummary{{Name: "x", Requests: 32}}},
		{"shards: disjoint clients, nothing moves",
			[][]Verdict{{robot("192.0.2.1", "x", 5)}, {person("198.51.100.1", 9), robot("198.51.100.2", "y", 3)}},
			[]RobotSummary{{Name: "x", Requests: 5}, {Name: "y", Requests: 3}},
			[]RobotSummary{{Name: "x", Requests: 5}, {Name: "y", Requests: 3}}},
		{"the merge names it after its higher score: its requests follow, and the order",
			[][]Verdict{{robot("192.0.2.1", "x", 40)}, {{IP: "192.0.2.1", UserAgent: "ua", Robot: true, Name: "y", Score: 300, Requests: 2, Bytes: 20}}, {robot("192.0.2.9", "x", 10)}},
			[]RobotSummary{{Name: "x", Requests: 50}, {Name: "y", Requests: 2}},
			[]RobotSummary{{Name: "y", Requests: 42}, {Name: "x", Requests: 10}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows := slices.Clone(tt.rows)
			for i := range rows {
				rows[i].Bytes = 10 * rows[i].Requests
			}
			moveRobotRequests(rows, tt.parts, MergeVerdicts(tt.parts))
			if !slices.EqualFunc(rows, tt.want, func(a, b RobotSummary) bool {
				return a.Name == b.Name && a.Requests == b.Requests && a.Bytes == 10*b.Requests
			}) {
				t.Errorf("rows %+v, want %+v", rows, tt.want)
			}
		})
	}
}

// TestMergeVerdictsKeepsTheReasonsOrder: a client's reasons over several
// days are in the order one run gives them (scanner, robots-txt, rate,
// user-agent, behaviour), not in the order the days brought them.
func TestMergeVerdictsKeepsTheReasonsOrder(t *testing.T) {
	tests := []struct {
		days [][]string
		want []string
	}{
		{[][]string{{ReasonUserAgent, ReasonBehaviour}, {ReasonRobotsTxt, ReasonUserAgent}}, []string{ReasonRobotsTxt, ReasonUserAgent, ReasonBehaviour}},
		{[][]string{{ReasonBehaviour}, {ReasonRate}, {ReasonScanner}}, []string{ReasonScanner, ReasonRate, ReasonBehaviour}},
		{[][]string{{ReasonRobotsTxt}, {}}, []string{ReasonRobotsTxt}},
	}
	for _, tt := range tests {
		var parts [][]Verdict
		for _, r := range tt.days {
			parts = append(parts, []Verdict{{IP: "192.0.2.1", UserAgent: "ua", Reasons: slices.Clone(r), Requests: 1}})
		}
		if got := MergeVerdicts(parts)[0].Reasons; !slices.Equal(got, tt.want) {
			t.Errorf("days %v: reasons %v, want %v", tt.days, got, tt.want)
		}
	}
}
