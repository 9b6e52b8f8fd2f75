package detect

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/findings"
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
		"reader/1.0":   {{0, "/robots.txt"}, {3600, "/robots.txt"}},
	}
	want := map[string][2]string{
		"obeyer":   {findings.ComplianceObeyed, findings.FindingObeyed},
		"ignorer":  {findings.ComplianceIgnored, findings.FindingIgnored},
		"blind":    {findings.ComplianceUnreadViolated, findings.FindingNeverRead},
		"quiet":    {findings.ComplianceUnread, findings.FindingUnread},
		"relapser": {findings.ComplianceIgnored, findings.FindingReadLate},
		"late":     {findings.ComplianceUnreadViolated, findings.FindingReadLate},
		// It read the file and asked for nothing else: nothing it did
		// broke it (a real log's LumiBot), so not "unchecked".
		"reader": {findings.ComplianceObeyed, findings.FindingObeyed},
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
				w = [2]string{findings.ComplianceUnchecked, findings.FindingNotComputed}
			}
			if s.Compliance != w[0] || s.Finding != w[1] {
				t.Errorf("checked %v: %s: compliance %q, finding %q; want %q, %q", checked, s.Name, s.Compliance, s.Finding, w[0], w[1])
			}
		}
	}
}

// TestComplianceUnchecked: with robots.txt given for some hosts only, a
// robot whose requests all went to other hosts was checked against
// nothing: "unchecked", not "obeyed".
func TestComplianceUnchecked(t *testing.T) {
	www := robots.ParseBytes([]byte("User-agent: *\nDisallow: /private/\n"))
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	for _, workers := range []int{1, 3} {
		p := NewPool(Config{RobotsByHost: map[string]*robots.Robots{"www.example.com": www}}, workers)
		var recs []logparse.Record
		for i, q := range []struct{ ua, host, path string }{
			{"BotX/1.0", "other.example.com", "/robots.txt"},
			{"BotX/1.0", "other.example.com", "/a"},
			{"BotY/1.0", "www.example.com", "/robots.txt"},
			{"BotY/1.0", "www.example.com", "/a"},
		} {
			recs = append(recs, logparse.Record{Client: fmt.Sprintf("192.0.%d.7", 2+i/2), UserAgent: q.ua, Method: "GET", VHost: q.host, Target: q.path, Status: 200, Time: t0.Add(time.Duration(i) * time.Second)})
		}
		p.Add(recs, nil, nil, nil)
		res := p.Result()
		got := map[string]string{}
		for _, s := range res.Robots {
			got[s.Name] = s.Compliance
		}
		if got["BotX"] != findings.ComplianceUnchecked || got["BotY"] != findings.ComplianceObeyed {
			t.Errorf("%d workers: compliance %v, want BotX unchecked, BotY obeyed", workers, got)
		}
	}
}

// TestComplianceCrawlDelay: a robot that kept off the disallowed paths but
// went faster than its Crawl-delay is not reported as having simply obeyed
// robots.txt: its compliance word stays "obeyed", its finding says both.
func TestComplianceCrawlDelay(t *testing.T) {
	rb := robots.ParseBytes([]byte("User-agent: *\nCrawl-delay: 5\nDisallow: /private/\n"))
	d := New(Config{Robots: rb})
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	add := func(ua, path string, ms int) {
		d.Add(&logparse.Record{Client: "192.0.2.9", UserAgent: ua, Method: "GET", Target: path, Status: 200, Time: t0.Add(time.Duration(ms) * time.Millisecond)})
	}
	add("Hasty/1.0", "/robots.txt", 0)
	for i := range 30 {
		add("Hasty/1.0", fmt.Sprintf("/page/%d", i), 1000+i*2000) // one every 2 s against 5 s
	}
	add("Patient/1.0", "/robots.txt", 0)
	for i := range 10 {
		add("Patient/1.0", fmt.Sprintf("/page/%d", i), 1000+i*6000)
	}
	res := d.Result()
	for _, s := range res.Robots {
		want, fast := findings.FindingObeyed, false
		if s.Name == "Hasty" {
			want, fast = findings.FindingObeyedPaths, true
		}
		if s.Compliance != findings.ComplianceObeyed || s.Finding != want || s.CrawlDelayFast != fast {
			t.Errorf("%s: compliance %q, finding %q, crawl_delay_fast %v; want obeyed, %q, %v", s.Name, s.Compliance, s.Finding, s.CrawlDelayFast, want, fast)
		}
	}
	if len(res.Robots) != 2 {
		t.Errorf("%d robots, want 2", len(res.Robots))
	}
}
