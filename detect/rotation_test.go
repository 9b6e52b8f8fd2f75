package detect

import (
	"fmt"
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
