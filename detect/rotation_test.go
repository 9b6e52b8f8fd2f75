package detect

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/logparse"
)

// TestRotationAtPaceWithoutAssets: on a log with no assets (an origin
// behind a CDN), rotation is judged at a robot's pace only (Config's
// SustainedPer60s, 60 requests a minute). Eighty phones behind a carrier's
// address, each opening a page typed or from an app (no Referer) over two
// hours, stay people; a scraper's eighty browser strings in forty seconds
// from one address, and eighty addresses of one /64 in forty seconds, are
// robots.
func TestRotationAtPaceWithoutAssets(t *testing.T) {
	tests := []struct {
		name  string
		ip    func(i int) string
		ua    func(i int) string
		every time.Duration
		robot bool
	}{
		{"carrier phones over two hours", func(int) string { return "100.70.1.1" }, phone, 90 * time.Second, false},
		{"scraper's User-agents in 40 s", func(int) string { return "203.0.113.9" }, phone, 500 * time.Millisecond, true},
		{"household /64 over two hours", func(i int) string { return fmt.Sprintf("2001:db8:5:7::%x", i+1) }, func(int) string { return phone(0) }, 90 * time.Second, false},
		{"scraper's /64 in 40 s", func(i int) string { return fmt.Sprintf("2001:db8:5:7::%x", i+1) }, func(int) string { return phone(0) }, 500 * time.Millisecond, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := New(Config{})
			t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
			for i := range 80 {
				d.Add(&logparse.Record{Client: tt.ip(i), UserAgent: tt.ua(i), Method: "GET", Target: fmt.Sprintf("/news/%d", i), Status: 200, Time: t0.Add(time.Duration(i) * tt.every)})
			}
			for v := range d.Result().Clients.All() {
				if v.Robot != tt.robot {
					t.Errorf("%s %q: robot %v, want %v (%q)", v.IP, v.UserAgent, v.Robot, tt.robot, v.Details)
				}
			}
		})
	}
}

func phone(i int) string {
	return fmt.Sprintf("Mozilla/5.0 (Linux; Android 14; SM-S91%dB) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.%d.0 Mobile Safari/537.36", i%10, 6367+i)
}

// TestAddressesOfBounded: what is kept per address and per /64 is one
// entry per group of rotatingMinAgents clients at most: a flood of fresh
// addresses, each in a /64 of its own, keeps none; a flood from one /64
// keeps one.
func TestAddressesOfBounded(t *testing.T) {
	for _, tt := range []struct {
		name string
		ip   func(i int) string
		want int
	}{
		{"each address its own /64", func(i int) string { return fmt.Sprintf("2001:db8:%x:%x::1", i/65536, i%65536) }, 0},
		{"each IPv4 address once", func(i int) string { return fmt.Sprintf("10.%d.%d.%d", i/65536, i/256%256, i%256) }, 0},
		{"one /64", func(i int) string { return fmt.Sprintf("2001:db8:5:7::%x", i+1) }, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := New(Config{})
			t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
			for i := range 20_000 {
				d.Add(&logparse.Record{Client: tt.ip(i), UserAgent: "curl/8.5.0", Method: "GET", Target: "/", Status: 200, Time: t0})
			}
			if got := len(addressesOf(&d.clients)); got != tt.want {
				t.Errorf("%d entries, want %d", got, tt.want)
			}
		})
	}
}

// TestRotationUnrendered: in a log that records assets, an address whose
// many browsers never load one is one robot, whether each is used once or
// for a few visits, with a Referer or without; a NAT of people, each
// loading the pages' assets, is not, and neither are a few browsers at one
// address, one used for many requests (a person's, or a robot to be judged
// on its own), nor an address of a log with no assets at all.
func TestRotationUnrendered(t *testing.T) {
	const ip = "198.51.100.23"
	const post = "/ci-cd/migrating-wordpress"
	ua := func(i int) string {
		return fmt.Sprintf("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/83.0.4103.%d Safari/537.36", 60+i)
	}
	// reader is someone else of the log, a page and its assets: the log
	// records assets.
	reader := browse("203.0.113.50", chromeUA, 0, 3, 30)
	// visits: n browsers at ip, each used for k visits of the one post,
	// naming it as the Referer over HTTP/1.0 (a view-count inflater).
	visits := func(n, k int) []req {
		var out []req
		for v := range n * k {
			out = append(out, req{ip: ip, ua: ua(v % n), sec: 100 + v*7200, path: post, referer: "https://example.org" + post, proto: "HTTP/1.0"})
		}
		return out
	}
	// spam: n browsers at ip, each once with a made-up Referer of its own.
	spam := func(n int) []req {
		var out []req
		for i := range n {
			out = append(out, req{ip: ip, ua: ua(i), sec: 100 + i*840, path: "/logs/access.log", referer: fmt.Sprintf("http://buy-pills-%d.example.net", i), proto: "HTTP/1.0"})
		}
		return out
	}
	// nat: n people at ip, each reading two pages with their assets.
	nat := func(n int) []req {
		var out []req
		for i := range n {
			for _, q := range browse(ip, ua(i), 100+i*600, 2, 40) {
				out = append(out, q)
			}
		}
		return out
	}
	cases := []struct {
		name  string
		reqs  []req
		robot bool
	}{
		{"14 browsers, one post 4 times each, itself as Referer", append(visits(14, 4), reader...), true},
		{"12 browsers, once each, a spam Referer", append(spam(12), reader...), true},
		{"a NAT of 12 people, pages and assets", append(nat(12), reader...), false},
		{"9 browsers, one post 4 times each", append(visits(9, 4), reader...), false},
		{"14 browsers, one of them 12 times", append(visits(14, 4), append(visits(1, 8), reader...)...), false},
		{"14 browsers in a log without assets", visits(14, 4), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := run(Config{}, tc.reqs)
			for v := range res.Clients.All() {
				if v.IP != ip {
					continue
				}
				// Judged on the rotation: a client may be a robot on
				// evidence of its own.
				rotating := slices.ContainsFunc(v.Details, func(d string) bool { return strings.Contains(d, "rotating User-agent") })
				if rotating != tc.robot || tc.robot && !v.Robot {
					t.Errorf("%q: robot=%v score=%d details=%q; want a rotation %v", v.UserAgent, v.Robot, v.Score, v.Details, tc.robot)
				}
			}
		})
	}
}

// TestRotationUnrenderedOnRealLines: two rotations of real logs, each
// beside a reader's page with its assets from the same log.
//   - 37.139.53.0 (silverbullets-2022): one post every two hours, each
//     visit a 307 and the page, itself as the Referer, over HTTP/1.0,
//     under 14 Chrome strings drawn in turn: a view-count inflater.
//   - 31.184.238.164 (paramcs-2014): /logs/access.log every 14 minutes
//     over HTTP/1.0 with a pharmacy-spam Referer, under 36 browser strings:
//     a referrer spammer. 117.221.40.213 is a person from a Google search.
func TestRotationUnrenderedOnRealLines(t *testing.T) {
	for _, tc := range []struct {
		file   string
		robot  string
		agents int
		person string // a client of the log that must stay human ("": none)
	}{
		{"rotation-viewcount.log", "37.139.53.0", 14, ""},
		{"rotation-referrer-spam.log", "31.184.238.164", 36, "117.221.40.213"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			res := readLog(t, tc.file, Config{})
			agents := 0
			for v := range res.Clients.All() {
				switch v.IP {
				case tc.robot:
					agents++
					if !v.Robot {
						t.Errorf("%s %q: not a robot (score %d, %q)", v.IP, v.UserAgent, v.Score, v.Details)
					}
				case tc.person:
					if v.Robot {
						t.Errorf("%s %q: a robot (%q)", v.IP, v.UserAgent, v.Details)
					}
				}
			}
			if agents != tc.agents {
				t.Errorf("%s: %d User-agents, want %d", tc.robot, agents, tc.agents)
			}
		})
	}
}
