package detect

import "testing"

// TestPageViewParts: what a page pulls in is part of its view, whatever
// it is. The cases follow a real log (grandjet.ru, Apache behind nginx,
// November 2019, in Helliy-gjs/grandjet.ru on GitHub): its developer
// reloaded pages every few seconds while logged in; each page's HTML
// asked for a script with a stray attribute in its src (logged as
// "/libs/owl-carousel/owl.carousel.min.js type=", no asset by its
// extension), for the directory "/images/" (403) and, through an empty
// src, for the page itself; nginx resolved "/" to "/index.php" before
// Apache logged it, while the parts name "https://grandjet.ru/" as their
// Referer; and half the pages were the answers to a form's POST. All of
// that counted as pages: 66 rate hits in a minute, an incident, and with
// one quick login of 19 a robot. A client whose requests name some other
// page as their Referer still has its incident.
func TestPageViewParts(t *testing.T) {
	const chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/78.0.3904.97 Safari/537.36"
	const site = "https://grandjet.ru"
	// views: a page every 5 s for a minute and a half; each with the
	// parts given, all asked in the page's second with referer.
	views := func(ip, method, page, referer string, parts ...string) []req {
		var out []req
		for i := range 18 {
			s := i * 5
			out = append(out, req{ip: ip, ua: chrome, sec: s, method: method, path: page, referer: site + "/news"},
				req{ip: ip, ua: chrome, sec: s, path: "/libs/jquery/jquery-1.11.1.min.js", referer: referer},
				req{ip: ip, ua: chrome, sec: s, path: "/images/styleshop.css", referer: referer})
			for _, p := range parts {
				out = append(out, req{ip: ip, ua: chrome, sec: s, path: p, status: 404, referer: referer})
			}
		}
		return out
	}
	other := []string{"/libs/owl-carousel/owl.carousel.min.js type=", "/js/data.json", "/libs/owl-carousel/owl.carousel.min.js type=", "/manifest.webmanifest", "/js/data.json"}
	pageLike := []string{"/images/", "/image/1", "/image/2", "/image/3", "/image/4"}
	tests := []struct {
		name     string
		ip       string
		reqs     []req
		incident bool
	}{
		{"parts that are neither page nor asset", "203.0.113.10",
			views("203.0.113.10", "GET", "/catalog", site+"/catalog", other...), false},
		{"a form's answer pulling in page-like parts", "203.0.113.11",
			views("203.0.113.11", "POST", "/index.php?konstrS&np=1", site+"/index.php?konstrS&np=1", pageLike...), false},
		{"a directory's index page, its parts naming the directory", "203.0.113.12",
			views("203.0.113.12", "GET", "/index.php?np=1", site+"/?np=1", pageLike...), false},
		{"parts naming another page than the one just fetched", "203.0.113.13",
			views("203.0.113.13", "GET", "/catalog", site+"/", append(other, pageLike...)...), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := verdictOf(t, run(Config{}, tt.reqs), tt.ip, chrome)
			if (v.Incidents > 0) != tt.incident {
				t.Errorf("%d pages, %d incidents, robot %v (%q); want an incident: %v",
					v.Pages, v.Incidents, v.Robot, v.Details, tt.incident)
			}
			if !tt.incident && v.Robot {
				t.Errorf("a person reloading pages is a robot: %q", v.Details)
			}
		})
	}
}

// TestViewHash: a directory's index page and the directory are one page
// view; other files are not.
func TestViewHash(t *testing.T) {
	tests := []struct {
		a, b string
		same bool
	}{
		{"/index.php", "/", true},
		{"/shop/index.php?x=1", "/shop/?x=1", true},
		{"/shop/Default.aspx", "/shop/", true},
		{"/index.html#top", "/#top", true},
		{"/shop/index.php?x=1", "/shop/?x=2", false},
		{"/shop/index.php", "/shop", false},
		{"/indexes.php", "/", false},
		{"/index.php.bak", "/", false},
		{"/data/index.json", "/data/", false},
		{"/a", "/a", true},
	}
	for _, tt := range tests {
		if got := viewHash32(tt.a) == viewHash32(tt.b); got != tt.same {
			t.Errorf("viewHash32(%q) == viewHash32(%q): %v, want %v", tt.a, tt.b, got, tt.same)
		}
	}
	if viewHash32("/a?b") != pathHash32("/a?b") {
		t.Error("viewHash32 of a path that is no index page differs from pathHash32")
	}
}
