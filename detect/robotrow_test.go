package detect

import (
	"fmt"
	"testing"
	"time"

	"github.com/robowatch/robowatch/logparse"
)

// TestRobotRowBytesAndVerifier: a robots row says the bytes its clients
// were sent and how they were verified, whether one detector or a Pool's
// workers (whose rows findings.Merge adds up) judged them: two Googlebots
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
