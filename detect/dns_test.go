package detect

import (
	"context"
	"maps"
	"sync"
	"testing"
	"time"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

// fakeDNS answers every claim with its zone's word, or unverified, and
// keeps the claims it was asked, from any goroutine.
type fakeDNS struct {
	zone  map[string]agents.DNSResult
	mu    sync.Mutex
	asked map[string]string
}

func (f *fakeDNS) VerifyAll(_ context.Context, claims map[string]string) map[string]agents.DNSResult {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.asked == nil {
		f.asked = map[string]string{}
	}
	maps.Copy(f.asked, claims)
	got := map[string]agents.DNSResult{}
	for ip := range claims {
		r, ok := f.zone[ip]
		if !ok {
			r = agents.DNSResult{Identity: agents.IdentityUnverified}
		}
		got[ip] = r
	}
	return got
}

// TestVerifyDNSStep: DNS is a step after the pass, on a Detector and on a
// Pool alike: only the claims the ranges cannot settle are asked (the
// bingbot outside Bing's list, not the one inside it, nor a browser), its
// answer makes the verdicts, and a VerifyDNS after Result changes nothing.
func TestVerifyDNSStep(t *testing.T) {
	const bing = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"
	const browser = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	recs := []logparse.Record{
		{Client: "157.55.39.10", UserAgent: bing, Method: "GET", Target: "/robots.txt", Status: 200, Bytes: 80, Time: t0},
		{Client: "52.233.10.20", UserAgent: bing, Method: "GET", Target: "/a", Status: 200, Bytes: 80, Time: t0.Add(time.Second)},
		{Client: "203.0.113.50", UserAgent: bing, Method: "GET", Target: "/x", Status: 200, Bytes: 80, Time: t0.Add(2 * time.Second)},
		{Client: "198.51.100.7", UserAgent: browser, Method: "GET", Target: "/", Status: 200, Bytes: 80, Time: t0.Add(3 * time.Second)},
	}
	zone := map[string]agents.DNSResult{
		"52.233.10.20": {Identity: agents.IdentityVerified, Name: "msnbot-52-233-10-20.search.msn.com"},
		"203.0.113.50": {Identity: agents.IdentityImpostor, Name: "host-50.hosting.example"},
	}
	want := map[string]string{
		"157.55.39.10": "verified ip-range", "52.233.10.20": "verified dns", "203.0.113.50": "impostor ",
	}
	check := func(name string, res *findings.Result, f *fakeDNS) {
		t.Helper()
		if len(f.asked) != 2 || f.asked["52.233.10.20"] != "Microsoft" || f.asked["203.0.113.50"] != "Microsoft" {
			t.Errorf("%s: asked %q, want the two bingbots outside Bing's ranges", name, f.asked)
		}
		if res.DNSChecked != 2 {
			t.Errorf("%s: DNSChecked %d, want 2", name, res.DNSChecked)
		}
		for ip, w := range want {
			v := byIP(res)[ip]
			if got := v.Identity + " " + v.VerifiedBy; got != w {
				t.Errorf("%s: %s is %q, want %q", name, ip, got, w)
			}
		}
	}

	d := New(Config{})
	for i := range recs {
		d.Add(&recs[i])
	}
	f := &fakeDNS{zone: zone}
	d.VerifyDNS(context.Background(), f)
	check("detector", d.Result(), f)
	d.VerifyDNS(context.Background(), &fakeDNS{})
	check("detector, asked again after Result", d.Result(), f)

	p := NewPool(Config{}, 3)
	p.Add(recs, nil, nil, nil)
	pf := &fakeDNS{zone: zone}
	p.VerifyDNS(context.Background(), pf)
	check("pool", p.Result(), pf)
}
