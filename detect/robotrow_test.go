package detect

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

// TestRobotRowBytesAndVerifier: a robots row says the bytes its clients
// were sent and how they were verified, whether one detector or a Pool's
// workers (whose rows MergeRobots adds up) judged them: two Googlebots
// from Google's ranges make one verified row of both their bytes, an
// impostor's bytes stay in its own row.
func TestRobotRowBytesAndVerifier(t *testing.T) {
	const gb = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	var recs []logparse.Record
	for i, q := range []struct {
		ip    string
		bytes int64
	}{
		{"66.249.66.1", 1000}, {"66.249.66.1", 500}, {"66.249.70.9", 2000},
		{"203.0.113.50", 7000}, {"203.0.113.50", -1}, // "-": no bytes, not minus one
	} {
		recs = append(recs, logparse.Record{Client: q.ip, UserAgent: gb, Method: "GET", Target: fmt.Sprintf("/p%d", i), Status: 200, Bytes: q.bytes, Time: t0.Add(time.Duration(i) * time.Second)})
	}
	want := map[string]string{
		"Googlebot":            "verified ip-range 3500",
		"Googlebot (impostor)": "impostor  7000",
	}
	for _, workers := range []int{1, 3} {
		p := NewPool(Config{}, workers)
		p.Add(recs, nil, nil, nil)
		got := map[string]string{}
		for _, r := range p.Result().Robots {
			got[r.Name] = fmt.Sprintf("%s %s %d", r.Identity, r.VerifiedBy, r.Bytes)
		}
		for name, w := range want {
			if got[name] != w {
				t.Errorf("%d workers: row %s: %q, want %q", workers, name, got[name], w)
			}
		}
	}
}

// TestJoinIdentity: a row is verified only when all its clients are, and
// then says every way they were.
func TestJoinIdentity(t *testing.T) {
	tests := []struct {
		a, byA, b, byB string
		want, wantBy   string
	}{
		{"verified", "ip-range", "verified", "ip-range", "verified", "ip-range"},
		{"verified", "ip-range", "verified", "dns", "verified", "dns,ip-range"},
		{"verified", "dns,ip-range", "verified", "signature", "verified", "dns,ip-range,signature"},
		{"verified", "dns", "verified", "dns,ip-range", "verified", "dns,ip-range"},
		{"verified", "ip-range", "unverified", "", "unverified", ""},
		{"unverified", "", "verified", "dns", "unverified", ""},
		{"impostor", "", "impostor", "", "impostor", ""},
		{"", "", "", "", "", ""},
	}
	for _, tt := range tests {
		id, by := findings.JoinIdentities(tt.a, tt.byA, tt.b, tt.byB)
		if id != tt.want || by != tt.wantBy {
			t.Errorf("JoinIdentities(%q, %q, %q, %q) = %q, %q; want %q, %q", tt.a, tt.byA, tt.b, tt.byB, id, by, tt.want, tt.wantBy)
		}
	}
}

// TestMergeRobotsBytesAndVerifier: merged reports (robowatch merge, shards)
// add up a row's bytes, saturating at the int64 bound as every byte total
// does, and name each way its clients were verified.
func TestMergeRobotsBytesAndVerifier(t *testing.T) {
	parts := [][]findings.RobotSummary{
		{{Name: "bingbot", Identity: "verified", VerifiedBy: "ip-range", Bytes: 100, Requests: 1}, {Name: "x", Bytes: math.MaxInt64 - 5, Requests: 1}},
		{{Name: "bingbot", Identity: "verified", VerifiedBy: "dns", Bytes: 50, Requests: 1}, {Name: "x", Bytes: 10, Requests: 1}},
	}
	got := findings.MergeRobots(parts, false)
	want := []findings.RobotSummary{{Name: "bingbot", Identity: "verified", VerifiedBy: "dns,ip-range", Bytes: 150}, {Name: "x", Bytes: math.MaxInt64}}
	if !slices.EqualFunc(got, want, func(a, b findings.RobotSummary) bool {
		return a.Name == b.Name && a.Identity == b.Identity && a.VerifiedBy == b.VerifiedBy && a.Bytes == b.Bytes
	}) {
		t.Errorf("merged %+v, want %+v", got, want)
	}
}
