package detect

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/robots"
)

// TestCompliance: each robot's robots.txt record in one word, from what it
// fetched and when; a robot that never read robots.txt and broke nothing
// is "unread", not "obeyed".
func TestCompliance(t *testing.T) {
	rb, err := robots.Parse(strings.NewReader("User-agent: *\nDisallow: /private/\n"))
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	type req struct {
		sec  int
		path string
	}
	robotsOf := map[string][]req{
		"obeyer/1.0":   {{0, "/robots.txt"}, {10, "/a"}, {20, "/b"}},
		"ignorer/1.0":  {{0, "/robots.txt"}, {10, "/private/x"}},
		"blind/1.0":    {{0, "/private/x"}, {10, "/private/y"}},
		"quiet/1.0":    {{0, "/a"}, {10, "/b"}},
		"relapser/1.0": {{0, "/private/x"}, {10, "/robots.txt"}, {20, "/private/y"}},
		"late/1.0":     {{0, "/private/x"}, {10, "/robots.txt"}, {20, "/a"}},
	}
	want := map[string][2]string{
		"obeyer":   {ComplianceObeyed, FindingObeyed},
		"ignorer":  {ComplianceIgnored, FindingIgnored},
		"blind":    {ComplianceUnreadViolated, FindingNeverRead},
		"quiet":    {ComplianceUnread, FindingUnread},
		"relapser": {ComplianceIgnored, FindingReadLate},
		"late":     {ComplianceUnreadViolated, FindingReadLate},
	}
	for _, checked := range []bool{true, false} {
		cfg := Config{}
		if checked {
			cfg.Robots = rb
		}
		d := New(cfg)
		i := 0
		for ua, reqs := range robotsOf {
			i++
			for _, r := range reqs {
				d.Add(&logparse.Record{Client: fmt.Sprintf("192.0.2.%d", i), UserAgent: ua, Method: "GET", Target: r.path, Status: 200, Time: t0.Add(time.Duration(r.sec) * time.Second)})
			}
		}
		res := d.Result()
		if len(res.Robots) != len(want) {
			t.Fatalf("%d robots, want %d", len(res.Robots), len(want))
		}
		for _, s := range res.Robots {
			w := want[s.Name]
			if !checked {
				w = [2]string{ComplianceUnchecked, FindingNotComputed}
			}
			if s.Compliance != w[0] || s.Finding != w[1] {
				t.Errorf("checked %v: %s: compliance %q, finding %q; want %q, %q", checked, s.Name, s.Compliance, s.Finding, w[0], w[1])
			}
		}
	}
}
