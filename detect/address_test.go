package detect

import (
	"fmt"
	"testing"
	"time"

	"github.com/robowatch/robowatch/logparse"
)

// TestRotatingUserAgents: an address that sends a fresh User-agent with
// every page is a robot, each of its pairs; an office NAT where twelve
// people browse pages with their assets under their own browsers is not.
func TestRotatingUserAgents(t *testing.T) {
	d := New(Config{})
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	add := func(ip, ua, path string, sec int, ref string) {
		d.Add(&logparse.Record{Client: ip, UserAgent: ua, Referer: ref, Method: "GET", Target: path, Status: 200, Time: t0.Add(time.Duration(sec) * time.Second)})
	}
	for i := range 30 { // the scraper: a page a second, a new browser string each time
		add("198.51.100.77", fmt.Sprintf("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%d.0.%d.0 Safari/537.36", 100+i%20, i), fmt.Sprintf("/item/%d", i), i, "")
	}
	for p := range 12 { // the office: twelve people, each reading a few pages with assets
		ua := fmt.Sprintf("Mozilla/5.0 (X11; Linux x86_64; rv:%d.0) Gecko/20100101 Firefox/%d.0", 110+p, 110+p)
		for k := range 3 {
			page := fmt.Sprintf("/doc/%d/%d", p, k)
			add("203.0.113.80", ua, page, 100+p*40+k*12, "")
			add("203.0.113.80", ua, "/static/site.css", 101+p*40+k*12, "https://intranet.example"+page)
			add("203.0.113.80", ua, "/static/logo.png", 101+p*40+k*12, "https://intranet.example"+page)
		}
	}
	res := d.Result()
	robots, people := 0, 0
	for v := range res.Clients.All() {
		switch v.IP {
		case "198.51.100.77":
			if v.Robot {
				robots++
			}
		case "203.0.113.80":
			if !v.Robot {
				people++
			}
		}
	}
	if robots != 30 || people != 12 {
		t.Errorf("rotating scraper: %d of 30 pairs robots; office: %d of 12 people not", robots, people)
	}
	var nets []string
	for n := range res.Networks.All() {
		nets = append(nets, fmt.Sprintf("%s %d/%d %d", n.Network, n.Robots, n.Clients, n.UserAgents))
	}
	if len(nets) != 2 || nets[0] != "203.0.113.0/24 0/12 12" || nets[1] != "198.51.100.0/24 30/30 30" {
		t.Errorf("networks %q", nets)
	}
}

// TestRotatingNeedsAssets: on a log with next to no assets (an origin
// behind a CDN that serves them), many User-agents from one address "never
// for an asset" are people behind a carrier's address, not a rotating
// robot: twenty phones reading a shared article were twenty robots.
func TestRotatingNeedsAssets(t *testing.T) {
	d := New(Config{})
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	for i := range 20 {
		ua := fmt.Sprintf("Mozilla/5.0 (Linux; Android 14; SM-S91%dB) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.%d.0 Mobile Safari/537.36", i%10, 6367+i)
		d.Add(&logparse.Record{Client: "100.70.1.1", UserAgent: ua, Referer: "https://t.co/x", Method: "GET", Target: "/news/viral", Status: 200, Time: t0.Add(time.Duration(i*7) * time.Second)})
	}
	res := d.Result()
	for v := range res.Clients.All() {
		if v.Robot {
			t.Errorf("%s %q: a robot (%q) on a log without assets", v.IP, v.UserAgent, v.Details)
		}
	}
}

// TestCarrierPhonesAreNotRotating: forty phones behind one carrier address,
// each with its own in-app browser User-agent and a warm cache (the page
// only), arriving from a post or a search, on a site whose other visitors
// load assets: people, not a rotating robot (they were all in the default
// block list, with the address).
func TestCarrierPhonesAreNotRotating(t *testing.T) {
	d := New(Config{})
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	for i := range 40 {
		ua := fmt.Sprintf("Mozilla/5.0 (Linux; Android 14; SM-S9%02dB Build/UP1A.%d; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/124.0.%d.0 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/460.0.0.%d;]", i, 231005+i, 6367+i, i)
		ref := "https://m.facebook.com/"
		if i%3 == 0 {
			ref = "https://www.google.com/"
		}
		d.Add(&logparse.Record{Client: "37.80.14.9", UserAgent: ua, Referer: ref, Method: "GET", Target: fmt.Sprintf("/post/%d", i%7), Status: 200, Time: t0.Add(time.Duration(i*97) * time.Second)})
	}
	for i := range 10 { // other visitors load pages with their assets
		ip := fmt.Sprintf("198.51.100.%d", i+1)
		ua := "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0"
		d.Add(&logparse.Record{Client: ip, UserAgent: ua, Method: "GET", Target: "/", Status: 200, Time: t0})
		d.Add(&logparse.Record{Client: ip, UserAgent: ua, Referer: "https://blog.example/", Method: "GET", Target: "/site.css", Status: 200, Time: t0})
	}
	res := d.Result()
	for v := range res.Clients.All() {
		if v.Robot {
			t.Errorf("%s %q: a robot (%q)", v.IP, v.UserAgent, v.Details)
		}
	}
}
