package agents

import (
	"testing"
	"time"
)

func TestAncientBrowser(t *testing.T) {
	day := func(s string) time.Time {
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	tests := []struct {
		ua      string
		at      string
		ancient bool
	}{
		{"Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1)", "2024-03-10", true},
		{"Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1)", "2002-03-10", false}, // an old log
		{"Mozilla/5.0 (Windows NT 6.1; WOW64; Trident/7.0; rv:11.0) like Gecko", "2024-03-10", true},
		{"Mozilla/5.0 (Windows NT 6.1; WOW64; Trident/7.0; rv:11.0) like Gecko", "2015-03-10", false},
		{"Mozilla/5.0 (Windows NT 6.1; WOW64; rv:6.0.2) Gecko/20100101 Firefox/6.0.2", "2015-05-17", true},
		{"Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/39.0.2171.95 Safari/537.36", "2015-10-20", false},
		{"Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/39.0.2171.95 Safari/537.36", "2024-10-20", true},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36", "2024-05-06", false},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/180.0.0.0 Safari/537.36", "2026-05-06", false}, // a future version: not ancient
		{"Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", "2024-05-06", false},
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_3_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.3 Mobile/15E148 Safari/604.1", "2030-01-01", true}, // Safari 18 came out in 2024
		// Safari by its Version/ token: iOS 13's Safari was superseded by
		// 14 in September 2020, so in 2024 it is ancient, in 2021 not.
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 13_2_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.0.3 Mobile/15E148 Safari/604.1", "2024-09-15", true},
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 13_2_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.0.3 Mobile/15E148 Safari/604.1", "2021-06-01", false},
		{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.0 Safari/605.1.15", "2027-06-01", false}, // after 18 came 26
		// Not Safari: Android's stock browser writes Version/4.0 at any age,
		// Opera 12 wrote Version/12.16.
		{"Mozilla/5.0 (Linux; U; Android 4.4.2; en-us; SM-T210R Build/KOT49H) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Safari/534.30", "2024-05-06", false},
		{"Opera/9.80 (Macintosh; Intel Mac OS X 10.6.8; U; en) Presto/2.12.388 Version/12.16", "2024-05-06", false},
		{"curl/8.5.0", "2024-05-06", false},
		// Judged from the day the next version came out: Internet
		// Explorer 7 (2006) was current until 8 (March 2009), so a 2009
		// visitor on it is of their time; by 2013 it was not.
		{"Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 5.1; .NET CLR 1.1.4322; .NET CLR 2.0.50727)", "2009-12-15", false},
		{"Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 5.1; .NET CLR 1.1.4322; .NET CLR 2.0.50727)", "2013-06-01", true},
		{"Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0)", "2012-12-01", false},
		// Internet Explorer 11 was superseded by Edge (July 2015).
		{"Mozilla/5.0 (Windows NT 6.1; WOW64; Trident/7.0; rv:11.0) like Gecko", "2017-06-01", false},
		{"Mozilla/5.0 (Macintosh; U; Intel Mac OS X 10_5_7; en-us) AppleWebKit/530.17 (KHTML, like Gecko) Version/4.0 Safari/530.17", "2009-12-15", false},
		{"Mozilla/5.0 (compatible; MSIE 6.0; Windows NT 5.1)", "", false}, // no time
	}
	for _, tt := range tests {
		var at time.Time
		if tt.at != "" {
			at = day(tt.at)
		}
		got := Ancient(tt.ua, at)
		if (got != "") != tt.ancient {
			t.Errorf("Ancient(%q, %s) = %q, want ancient %v", tt.ua, tt.at, got, tt.ancient)
		}
	}
	if _, d, _ := browserRelease("Chrome/99.0"); !d.Equal(day("2022-03-29")) {
		t.Errorf("Chrome 99 superseded %v, want Chrome 100's release", d)
	}
	if _, d, _ := browserRelease("Firefox/15.0"); d.Before(day("2012-01-31")) || d.After(day("2013-04-02")) {
		t.Errorf("Firefox 15 interpolated to %v", d)
	}
}
