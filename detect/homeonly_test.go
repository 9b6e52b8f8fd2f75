package detect

import (
	"testing"
	"time"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

// TestHomeOnly: a browser client that asked for the home page and nothing
// else (the favicon aside), with no asset, in a log that sees assets, is a
// weak sign: with an ancient browser version it is a robot, alone it is a
// person whose cache held the page's assets.
func TestHomeOnly(t *testing.T) {
	const (
		chrome126 = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36"
		chrome52  = "Mozilla/5.0 (Windows NT 10.0; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/52.0.2743.116 Safari/537.36"
	)
	at := time.Date(2024, 9, 15, 7, 0, 0, 0, time.UTC)
	type req struct{ target, referer string }
	tests := []struct {
		name  string
		ua    string
		reqs  []req
		robot bool
	}{
		{"ancient, home page only", chrome52, []req{{"/", ""}}, true},
		{"ancient, home page and favicon", chrome52, []req{{"/", ""}, {"/favicon.ico", "https://example.org/"}}, true},
		{"ancient, home page twice", chrome52, []req{{"/", ""}, {"/", ""}}, true},
		{"current, home page only", chrome126, []req{{"/", ""}}, false},
		{"ancient, home page and another page", chrome52, []req{{"/", ""}, {"/about", "https://example.org/"}}, false},
		{"ancient, home page and its assets", chrome52, []req{{"/", ""}, {"/site.css", "https://example.org/"}}, false},
		{"ancient, another page only", chrome52, []req{{"/about", ""}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := New(Config{})
			// A person reading pages and their assets: the log sees assets.
			for i, p := range []string{"/", "/a.css", "/b.js", "/c.png", "/post", "/d.png"} {
				d.Add(&logparse.Record{Client: "198.51.100.1", UserAgent: chrome126, Time: at.Add(time.Duration(i) * time.Second),
					Method: "GET", Target: p, Status: 200, Referer: "https://example.org/"})
			}
			for i, r := range tt.reqs {
				d.Add(&logparse.Record{Client: "192.0.2.7", UserAgent: tt.ua, Time: at.Add(time.Duration(10+i) * time.Second),
					Method: "GET", Target: r.target, Status: 200, Referer: r.referer})
			}
			for v := range d.Result().Clients.All() {
				if v.IP == "192.0.2.7" && v.Robot != tt.robot {
					t.Errorf("robot %v, want %v (%v)", v.Robot, tt.robot, v.Details)
				}
			}
		})
	}
}

// TestHomePageProbesWithOldBrowserStrings reads real lines of
// testdata/detect/home-only.log:
//   - 142.58.21.63: a person on Chrome 26 (current in May 2013) opening the
//     home page and its assets (mosky-2013), so the log sees assets.
//   - 140.115.50.29: a person on Chrome 26 opening the home page from
//     Plurk, its assets already cached (mosky-2013): home page only, of
//     its time, human.
//   - 170.106.171.77: GET / only under iOS 13's Safari in 2024, from a
//     cloud address (slowyou-nginx-2024): Safari 13 was superseded in
//     2020.
//   - 85.194.118.234: GET / only under Chrome 52 (2016) in 2024
//     (slowyou-nginx-2024).
//   - 3.17.77.122: GET / under a Chrome string carrying Gecko's rv:47.0
//     (secrepo-2018): no Chrome writes it.
func TestHomePageProbesWithOldBrowserStrings(t *testing.T) {
	res := readLog(t, "home-only.log", Config{})
	want := map[string]bool{
		"142.58.21.63":   false,
		"140.115.50.29":  false,
		"170.106.171.77": true,
		"85.194.118.234": true,
		"3.17.77.122":    true,
	}
	eachListed(t, res, want, false, func(v findings.Verdict, w bool) {
		if v.Robot != w {
			t.Errorf("%s %q: robot %v, want %v (%v)", v.IP, v.UserAgent, v.Robot, w, v.Details)
		}
	})
}
