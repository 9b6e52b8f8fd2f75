package detect

import (
	"testing"

	"github.com/robowatch/robowatch/findings"
)

// TestBrowserOnlySignals: what a client under a browser's User-agent does
// that no browser does, each scored alone and beside what a person's
// browser does instead.
func TestBrowserOnlySignals(t *testing.T) {
	const ip = "192.0.2.7"
	const ref = "http://www.example.org"
	page := func(sec int, path, referer string) req {
		return req{ip: ip, ua: chromeUA, sec: sec, path: path, referer: referer}
	}
	asset := req{ip: ip, ua: chromeUA, sec: 1, path: "/site.css", referer: ref + "/join"}
	form := func(gap int) []req {
		return []req{page(0, "/join", ref+"/"), {ip: ip, ua: chromeUA, sec: gap, method: "POST", path: "/join", status: 302, referer: ref + "/join"}}
	}
	cases := []struct {
		name  string
		reqs  []req
		score int
	}{
		{"HEAD of a page under a browser's name", []req{{ip: ip, ua: chromeUA, method: "HEAD", path: "/doc.html"}}, pointsHeadBrowser},
		{"HEAD sent by a page's script, assets loaded", []req{page(0, "/join", ""), asset, {ip: ip, ua: chromeUA, sec: 2, method: "HEAD", path: "/file.zip", referer: ref + "/join"}}, 0},
		{"form posted 5 s after it came, no assets", form(5), pointsQuickForm},
		{"form posted 5 s after it came, assets loaded", append(form(5), asset), 0},
		{"form posted 30 s after it came", form(30), 0},
		{"form posted in a second stays FastForm's", form(1), pointsFastForm},
		{"HTTP/1.0 then HTTP/1.1", []req{{ip: ip, ua: chromeUA, path: "/", proto: "HTTP/1.0"}, page(1, "/join", ref+"/")}, pointsHTTPSwitch},
		{"HTTP/1.0 throughout (a proxy)", []req{{ip: ip, ua: chromeUA, path: "/", proto: "HTTP/1.0"}, {ip: ip, ua: chromeUA, sec: 3, path: "/a", proto: "HTTP/1.0", referer: ref + "/"}}, 0},
		{"first request names itself", []req{page(0, "/a?b=1", ref+"/a?b=1")}, pointsSelfReferer},
		{"a link to the page one is on, followed later", []req{page(0, "/a", ""), page(9, "/a", ref+"/a")}, 0},
		{"a reload naming itself, with the page's assets", []req{page(0, "/join", ref+"/join"), asset}, 0},
		{"one failed login-page probe", []req{{ip: ip, ua: chromeUA, path: "/wp-login.php", status: 404}}, pointsWeakProbe},
		{"the site's own login page", []req{{ip: ip, ua: chromeUA, path: "/wp-login.php"}}, 0},
		{"Symfony's profiler", []req{{ip: ip, ua: chromeUA, path: "/_profiler/phpinfo", status: 404}}, pointsScanner},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := verdictOf(t, run(Config{}, tc.reqs), ip, chromeUA)
			if v.Score != tc.score || v.Robot != (tc.score >= RobotScore) {
				t.Errorf("robot=%v score=%d details=%q; want score %d", v.Robot, v.Score, v.Details, tc.score)
			}
		})
	}
}

func TestSelfReferer(t *testing.T) {
	cases := []struct {
		target, referer string
		want            bool
	}{
		{"/a?b=1", "http://example.org/a?b=1", true},
		{"/", "https://example.org", true},
		{"/", "https://example.org/", true},
		{"/a", "http://example.org/a?b=1", false},
		{"/a", "http://example.org/b", false},
		{"/a", "/a", true},
		{"/a", "android-app://com.google.android.gm/", false},
		{"", "http://example.org/", false},
		{"http://example.org/a", "http://example.org/a", true},
	}
	for _, tc := range cases {
		if got := selfReferer(tc.target, tc.referer); got != tc.want {
			t.Errorf("selfReferer(%q, %q) = %v, want %v", tc.target, tc.referer, got, tc.want)
		}
	}
}

// TestBrowserOnlySignalsOnRealLines reads real lines of the labelled
// corpus (testdata/corpus), in testdata/detect/browser-only-signals.log:
//   - 117.240.187.35 (basjes-niels-2015): a Plone sign-up form POSTed 4 s
//     after it came, a login form 3 s after, no asset, the first request
//     over HTTP/1.0 and the rest over 1.1: a robot.
//   - 123.88.10.57 (basjes-niels-2015): the same run in HTTP/1.1 only:
//     quick forms alone, weak (50), not enough.
//   - 117.7.102.100 and 192.254.157.212 (elastic-semicomplete-2015): one
//     HEAD of a page under Firefox 27 and MSIE 9: link checkers.
//   - 91.236.74.5 (elastic-semicomplete-2015): one text file with itself as
//     Referer: weak (50) alone.
//   - 172.31.7.211 (chatmrpt-alb-2025, the trailing request time dropped):
//     GET /_profiler/phpinfo under Chrome 69: a scanner.
//   - 86.130.160.107 and 203.84.135.120 (elastic-semicomplete-2015):
//     people, one over HTTP/1.0 throughout (a proxy), pages and assets.
func TestBrowserOnlySignalsOnRealLines(t *testing.T) {
	res := readLog(t, "browser-only-signals.log", Config{})
	clients := byIP(res)
	cases := []struct {
		ip      string
		robot   bool
		minimum int // the least score it must have
	}{
		{"117.240.187.35", true, pointsQuickForm + pointsHTTPSwitch},
		{"123.88.10.57", false, pointsQuickForm},
		{"117.7.102.100", true, pointsHeadBrowser},
		{"192.254.157.212", true, pointsHeadBrowser},
		{"91.236.74.5", false, pointsSelfReferer},
		{"172.31.7.211", true, pointsScanner},
		{"86.130.160.107", false, 0},
		{"203.84.135.120", false, 0},
	}
	for _, tc := range cases {
		v, ok := clients[tc.ip]
		if !ok {
			t.Errorf("%s: no such client among %d", tc.ip, len(clients))
			continue
		}
		if v.Robot != tc.robot || v.Score < tc.minimum || (!tc.robot && tc.minimum == 0 && v.Score != 0) {
			t.Errorf("%s %q: robot=%v score=%d details=%q; want robot=%v, score at least %d", tc.ip, v.UserAgent, v.Robot, v.Score, v.Details, tc.robot, tc.minimum)
		}
	}
}

// TestAncientWithWeakSignal: an ancient browser counts with a weak
// behaviour signal as it does with a strong one: a script's copied
// User-agent that also does one thing no browser does is a robot; the
// same thing under a current browser, or the old browser alone, is not.
func TestAncientWithWeakSignal(t *testing.T) {
	const ip = "192.0.2.40"
	const firefox40 = "Mozilla/5.0 (Windows NT 6.1; WOW64; rv:40.0) Gecko/20100101 Firefox/40.1" // superseded in 2015
	const ref = "http://www.example.org"
	cases := []struct {
		name  string
		ua    string
		reqs  func(ua string) []req
		score int
	}{
		{"one failed login probe, ancient browser", firefox40, func(ua string) []req {
			return []req{{ip: ip, ua: ua, path: "/wp-login.php", status: 404}, {ip: ip, ua: ua, path: "/"}}
		}, pointsWeakProbe + pointsAncientUA},
		{"one failed login probe, current browser", chromeUA, func(ua string) []req {
			return []req{{ip: ip, ua: ua, path: "/wp-login.php", status: 404}, {ip: ip, ua: ua, path: "/"}}
		}, pointsWeakProbe},
		{"itself as Referer, ancient browser", firefox40, func(ua string) []req {
			return []req{{ip: ip, ua: ua, path: "/", referer: ref + "/"}}
		}, pointsSelfReferer + pointsAncientUA},
		{"ancient browser reading a page", firefox40, func(ua string) []req {
			return []req{{ip: ip, ua: ua, path: "/a", referer: "https://www.google.com/"}, {ip: ip, ua: ua, sec: 1, path: "/site.css", referer: ref + "/a"}}
		}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := verdictOf(t, run(Config{}, tc.reqs(tc.ua)), ip, tc.ua)
			if v.Score != tc.score || v.Robot != (tc.score >= RobotScore) {
				t.Errorf("robot=%v score=%d details=%q; want score %d", v.Robot, v.Score, v.Details, tc.score)
			}
		})
	}
}

// TestAncientWithWeakSignalOnRealLines: real clients whose one weak
// signal comes under a browser years out of date.
//   - 106.79.239.27 (gromnitsky-2020): /wp-login.php (404) and / in one
//     second under Firefox 40.1, the string WordPress scanners send.
//   - 62.24.222.131 (secrepo-2017): GET / over HTTP/1.0 naming the site
//     itself as Referer, under MSIE 8 in 2017.
//   - 92.3.80.160 (gromnitsky-2020): a person on Firefox 52 from Hacker
//     News, the article and its CSS.
func TestAncientWithWeakSignalOnRealLines(t *testing.T) {
	res := readLog(t, "ancient-weak-signal.log", Config{})
	want := map[string]bool{"106.79.239.27": true, "62.24.222.131": true, "92.3.80.160": false}
	eachListed(t, res, want, false, func(v findings.Verdict, robot bool) {
		if v.Robot != robot {
			t.Errorf("%s %q: robot=%v score=%d details=%q; want robot=%v", v.IP, v.UserAgent, v.Robot, v.Score, v.Details, robot)
		}
	})
}

// TestNoUserAgentSignals: in lines that log no User-agent (Common Log
// Format), a client that sends HEAD and nothing else, and the server's
// own loopback address polling it, are robots; a person reading pages and
// their assets, from loopback or not, and one HEAD beside GETs, are not.
func TestNoUserAgentSignals(t *testing.T) {
	clf := func(ip string, sec int, method, path string) req {
		return req{ip: ip, sec: sec, method: method, path: path, clf: true, proto: "HTTP/1.0"}
	}
	poll := func(ip string, n int, path string) []req {
		var out []req
		for i := range n {
			out = append(out, clf(ip, i*97, "GET", path), clf(ip, i*97+1, "GET", "/"))
		}
		return out
	}
	read := func(ip string) []req {
		return []req{clf(ip, 0, "GET", "/"), clf(ip, 1, "GET", "/site.css"), clf(ip, 1, "GET", "/logo.png"),
			clf(ip, 40, "GET", "/a"), clf(ip, 41, "GET", "/a.png"), clf(ip, 90, "HEAD", "/b")}
	}
	cases := []struct {
		name  string
		ip    string
		reqs  []req
		robot bool
	}{
		{"one HEAD / over HTTP/1.0", "192.0.2.9", []req{clf("192.0.2.9", 0, "HEAD", "/")}, true},
		{"a person, one HEAD among GETs", "192.0.2.9", read("192.0.2.9"), false},
		{"loopback polling the status page", "127.0.0.1", poll("127.0.0.1", 6, "/haproxy-status;csv"), true},
		{"loopback too few times", "127.0.0.1", poll("127.0.0.1", 4, "/haproxy-status;csv"), false},
		{"a person on the server itself, with assets", "127.0.0.1", append(read("127.0.0.1"), poll("127.0.0.1", 6, "/c")...), false},
		{"another address polling the same way", "192.0.2.9", poll("192.0.2.9", 6, "/haproxy-status;csv"), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := verdictOf(t, run(Config{}, tc.reqs), tc.ip, "")
			if v.Robot != tc.robot {
				t.Errorf("robot=%v score=%d details=%q; want robot=%v", v.Robot, v.Score, v.Details, tc.robot)
			}
		})
	}
}

// TestNoUserAgentSignalsOnRealLines reads real lines of apigw-haproxy-2012
// (testdata/corpus; HAProxy without captured headers) in
// testdata/detect/no-agent-pollers.log: 127.0.0.1 asking for
// /haproxy-status;csv;norefresh (401) and / every few minutes, the server
// polling itself; 194.51.29.89's one "HEAD / HTTP/1.0" at the API host.
func TestNoUserAgentSignalsOnRealLines(t *testing.T) {
	res := readLog(t, "no-agent-pollers.log", Config{})
	want := map[string]string{"127.0.0.1": KindMonitor, "194.51.29.89": "empty"}
	eachListed(t, res, want, true, func(v findings.Verdict, kind string) {
		if !v.Robot || v.Kind != kind {
			t.Errorf("%s: robot=%v kind=%s details=%q; want a robot of kind %s", v.IP, v.Robot, v.Kind, v.Details, kind)
		}
	})
}
