package detect

import (
	"fmt"
	"testing"
	"time"

	"github.com/robowatch/robowatch/logparse"
)

// TestReferredViewsOutliveTheFold: a site with more people than
// --max-clients holds, each arriving from Google: the people folded into
// Other keep their referred views, so the operator's count is the one an
// uncapped run gives. A scraper forging Google's Referer, judged a robot,
// counts for no one in either.
func TestReferredViewsOutliveTheFold(t *testing.T) {
	const chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36"
	start := time.Date(2026, 8, 20, 9, 0, 0, 0, time.UTC)
	referred := func(maxClients int) int64 {
		d := New(Config{MaxClients: maxClients})
		for i := range 40 {
			at := start.Add(time.Duration(i) * time.Minute)
			ip := fmt.Sprintf("198.51.100.%d", i+1)
			d.Add(&logparse.Record{Client: ip, UserAgent: chrome, Time: at, Method: "GET", Target: fmt.Sprintf("/post/%d", i),
				Status: 200, Referer: "https://www.google.de/"})
			d.Add(&logparse.Record{Client: ip, UserAgent: chrome, Time: at.Add(time.Second), Method: "GET", Target: "/site.css",
				Status: 200, Referer: fmt.Sprintf("https://example.org/post/%d", i)})
			d.Add(&logparse.Record{Client: "192.0.2.50", UserAgent: "Scrapy/2.11.2 (+https://scrapy.org)", Time: at, Method: "GET",
				Target: fmt.Sprintf("/p/%d", i), Status: 200, Referer: "https://www.google.com/"})
		}
		for _, o := range d.Result().Operators {
			if o.Operator == "Google" {
				return o.ReferredViews
			}
		}
		return 0
	}
	for _, max := range []int{0, 3} {
		if got := referred(max); got != 40 {
			t.Errorf("MaxClients %d: Google sent %d people, want 40", max, got)
		}
	}
}
