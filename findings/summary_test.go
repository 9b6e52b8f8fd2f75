package findings

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// summaryClient is a client as a pass hands it to a Summary.
type summaryClient struct {
	v Verdict
	f ClientFacts
}

func summaryClients() []summaryClient {
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	at := func(s int) *time.Time { t := t0.Add(time.Duration(s) * time.Second); return &t }
	gb := func(ip string, requests int64, reasons ...string) Verdict {
		return Verdict{IP: ip, UserAgent: "Googlebot", Robot: true, Name: "Googlebot", Kind: "crawler", Requests: requests,
			Bytes: requests * 100, Reasons: reasons, Operator: "Google", Identity: IdentityVerified, VerifiedBy: "ip-range", Network: ip + "/32"}
	}
	conduct := func(requests int64) Conduct {
		return Conduct{Sessions: 1, Requests: requests, Methods: map[string]int64{"GET": requests}}
	}
	return []summaryClient{
		{gb("66.249.66.1", 40, ReasonRobotsTxt, ReasonUserAgent), ClientFacts{Checked: true, Robot: RobotSummary{FirstFetch: at(5), RobotsTxtServed: Served{OK: 1}, Conduct: conduct(40)}}},
		{Verdict{IP: "198.51.100.7", UserAgent: "Chrome", Name: "Chrome", Kind: "browser", Requests: 30, Bytes: 900, Incidents: 1},
			ClientFacts{Incidents: []Incident{{IP: "198.51.100.7", Severity: 9, Start: *at(1)}}}},
		{func() Verdict {
			v := gb("203.0.113.50", 20, ReasonUserAgent)
			v.Identity, v.VerifiedBy, v.Violations, v.Incidents = IdentityImpostor, "", 3, 1
			return v
		}(), ClientFacts{Checked: true, ViolationsUnlisted: 1, Incidents: []Incident{{IP: "203.0.113.50", Severity: 5, Start: *at(3)}},
			Robot: RobotSummary{FirstViolation: at(2), LastViolation: at(9), Prefixes: []PrefixCount{{"/admin", 2}, {"/private", 1}},
				Conduct: conduct(20)}}},
		{func() Verdict {
			v := gb("66.249.70.9", 10, ReasonUserAgent)
			v.VerifiedBy = "dns"
			v.Violations = 1
			return v
		}(),
			ClientFacts{Checked: true, Robot: RobotSummary{FirstViolation: at(7), LastViolation: at(7),
				Prefixes: []PrefixCount{{"/admin", 1}}, FirstFetch: at(1), Conduct: conduct(10)}}},
		{Verdict{IP: "192.0.2.9", Name: "(no request)", Kind: KindJunk, Requests: 4}, ClientFacts{}},
		{Verdict{IP: "192.0.2.9", UserAgent: "x", Name: "(no request)", Kind: KindJunk, Requests: 2}, ClientFacts{}},
	}
}

// summarize is the Result a pass over clients makes.
func summarize(clients []summaryClient) *Result {
	s := NewSummary(len(clients))
	for i := range clients {
		s.Add(&clients[i].v, &clients[i].f)
	}
	for i := range s.rows.len() {
		s.Row(i).SetTopPaths([]PathCount{}, 0) // the pass's paths, which it sums itself
	}
	res := &Result{ViolationsChecked: true}
	s.Finish(res)
	return res
}

// TestSummaryAndMergeRobotsAgree: the robots rows of a pass over all the
// clients are those of passes over parts of them merged (mergeRobots),
// since both add rows with one code (RobotSummary.add).
func TestSummaryAndMergeRobotsAgree(t *testing.T) {
	all := summaryClients()
	whole := summarize(all)
	for cut := range len(all) + 1 {
		a, b := summarize(all[:cut]), summarize(all[cut:])
		merged := mergeRobots([][]RobotSummary{a.Robots, b.Robots}, true)
		got, _ := json.Marshal(merged)
		want, _ := json.Marshal(whole.Robots)
		if string(got) != string(want) {
			t.Errorf("cut at %d: merged rows\n%s\nwant\n%s", cut, got, want)
		}
	}
}

// TestSummaryRows: what a Summary makes of its clients.
func TestSummaryRows(t *testing.T) {
	res := summarize(summaryClients())
	if len(res.Robots) != 2 {
		t.Fatalf("robots %+v: want Googlebot and its impostor", res.Robots)
	}
	g, imp := res.Robots[0], res.Robots[1]
	if g.Name != "Googlebot" || g.Clients != 2 || g.Requests != 50 || g.VerifiedBy != "dns,ip-range" || g.Reasons[ReasonUserAgent] != 2 ||
		g.Compliance != ComplianceIgnored || len(g.Prefixes) != 1 || g.Conduct.Requests != 50 {
		t.Errorf("Googlebot's row %+v", g)
	}
	if imp.Name != "Googlebot (impostor)" || imp.Compliance != ComplianceUnreadViolated || imp.Prefixes[0] != (PrefixCount{"/admin", 2}) {
		t.Errorf("the impostor's row %+v", imp)
	}
	tot := res.Totals
	if tot.RobotCount != 3 || tot.RobotRequests != 70 || tot.ViolationCount != 4 || tot.ViolationsUnlisted != 1 ||
		tot.IncidentCount != 2 || tot.JunkConnections != 6 || tot.JunkAddresses != 1 || tot.ClientBytes != 7900 {
		t.Errorf("totals %+v", tot)
	}
	if len(res.Incidents) != 2 || res.Incidents[0].Verdict != "Googlebot (impostor)" || res.Incidents[1].Verdict != VerdictHuman {
		t.Errorf("incidents %+v: want the robot's first, the person's marked human", res.Incidents)
	}
	if res.Networks.Len() != 5 || len(res.Operators) != 1 || res.Operators[0].Robots != 2 {
		t.Errorf("networks %+v, operators %+v", res.Networks, res.Operators)
	}
}

// TestSummaryManyRobotRows: rows past the first blocks (robotRows keeps
// them rowBlock to a block) are found again by the index Add gave, and
// each name keeps its own row to the end.
func TestSummaryManyRobotRows(t *testing.T) {
	const names = 3*rowBlock + 17
	s := NewSummary(names)
	for i := range names {
		v := Verdict{IP: fmt.Sprintf("10.0.%d.%d", i/250, i%250), Name: fmt.Sprintf("bot%d", i), Robot: true, Requests: int64(1000 + i)}
		row := s.Add(&v, &ClientFacts{})
		s.Row(row).SetTopPaths([]PathCount{{Path: v.Name, Requests: 1}}, 0)
		if again := s.Add(&v, &ClientFacts{}); again != row {
			t.Fatalf("%s: row %d, then %d", v.Name, row, again)
		}
	}
	res := &Result{}
	s.Finish(res)
	if len(res.Robots) != names {
		t.Fatalf("%d rows, want %d", len(res.Robots), names)
	}
	for _, r := range res.Robots {
		var i int
		if _, err := fmt.Sscanf(r.Name, "bot%d", &i); err != nil || r.Requests != 2*int64(1000+i) || r.Clients != 2 ||
			len(r.TopPaths) != 1 || r.TopPaths[0].Path != r.Name {
			t.Errorf("row %+v", r)
		}
	}
}
