package detect

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/robots"
)

const siteRobots = `# test site
User-agent: *
Disallow: /admin/
Disallow: /search
Allow: /admin/public
Crawl-delay: 2

User-agent: Googlebot
Disallow: /private/
`

const scraperUA = "python-requests/2.31.0"

func violationsOf(res *findings.Result, ip string) []findings.Violation {
	var out []findings.Violation
	for v := range res.Violations.All() {
		if v.IP == ip {
			out = append(out, v)
		}
	}
	return out
}

func TestViolationRules(t *testing.T) {
	rb := robots.ParseBytes([]byte(siteRobots))
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	reqs := []req{
		// Googlebot's own group: /private/ is forbidden, /admin/ is not.
		{ip: "66.249.66.1", ua: googleUA, sec: 0, path: "/robots.txt"},
		{ip: "66.249.66.1", ua: googleUA, sec: 10, path: "/private/a"},
		{ip: "66.249.66.1", ua: googleUA, sec: 20, path: "/admin/x"},
		{ip: "66.249.66.1", ua: googleUA, sec: 30, path: "http://www.example.com/private/b?x=1", method: "HEAD", status: 404},
		// A scraper under "*": /admin/ and /search are forbidden, the
		// Allow and /robots.txt are not.
		{ip: "192.0.2.50", ua: scraperUA, sec: 5, path: "/robots.txt"},
		{ip: "192.0.2.50", ua: scraperUA, sec: 15, path: "/admin/users", status: 403},
		{ip: "192.0.2.50", ua: scraperUA, sec: 25, path: "/admin/public/logo"},
		{ip: "192.0.2.50", ua: scraperUA, sec: 35, path: "/search?q=a"},
		{ip: "192.0.2.50", ua: scraperUA, sec: 45, path: "/robots.txt"},
		{ip: "192.0.2.50", ua: scraperUA, sec: 55, path: "/private/a"},
	}
	// A person searching the site: a browser is not a robot, so its
	// requests of /search are no violations.
	person := append(browse("10.20.0.1", chromeUA, 0, 3, 20), req{ip: "10.20.0.1", ua: chromeUA, sec: 70, path: "/search?q=shoes", referer: "https://www.example.com/"})
	all := append(slices.Clone(reqs), person...)
	slices.SortStableFunc(all, func(a, b req) int { return a.sec - b.sec })
	res := run(Config{Robots: rb}, all)

	if !res.ViolationsChecked {
		t.Fatal("violations not checked with a robots.txt given")
	}
	want := []findings.Violation{
		{IP: "66.249.66.1", UserAgent: googleUA, Time: at(10), Method: "GET", Path: "/private/a", Status: 200, Group: "googlebot", Rule: "Disallow: /private/", Line: 9},
		{IP: "66.249.66.1", UserAgent: googleUA, Time: at(30), Method: "HEAD", Path: "/private/b?x=1", Status: 404, Group: "googlebot", Rule: "Disallow: /private/", Line: 9},
		{IP: "192.0.2.50", UserAgent: scraperUA, Time: at(15), Method: "GET", Path: "/admin/users", Status: 403, Group: "*", Rule: "Disallow: /admin/", Line: 3},
		{IP: "192.0.2.50", UserAgent: scraperUA, Time: at(35), Method: "GET", Path: "/search?q=a", Status: 200, Group: "*", Rule: "Disallow: /search", Line: 4},
	}
	var got []findings.Violation
	for _, ip := range []string{"66.249.66.1", "192.0.2.50"} {
		for _, v := range violationsOf(res, ip) {
			v.Name = ""
			got = append(got, v)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("violations\n got %+v\nwant %+v", got, want)
	}
	if n := len(violationsOf(res, "10.20.0.1")); n != 0 || verdictOf(t, res, "10.20.0.1", chromeUA).Violations != 0 {
		t.Errorf("a person's requests were reported as %d violations", n)
	}
	if res.ViolationCount != 4 || verdictOf(t, res, "192.0.2.50", scraperUA).Violations != 2 {
		t.Errorf("violation count = %d, want 4", res.ViolationCount)
	}
	byTime := res.Violations.Head(-1)
	for i := 1; i < len(byTime); i++ {
		if byTime[i].Time.Before(byTime[i-1].Time) {
			t.Errorf("violations not in time order: %v", byTime)
		}
	}
}

func TestRobotFindings(t *testing.T) {
	rb := robots.ParseBytes([]byte(siteRobots))
	ip := "192.0.2.60"
	cases := []struct {
		name    string
		reqs    []req
		finding string
		fetched bool
	}{
		{"fetched robots.txt and then ignored it", []req{
			{ip: ip, ua: scraperUA, sec: 0, path: "/robots.txt"},
			{ip: ip, ua: scraperUA, sec: 5, path: "/admin/a"},
			{ip: ip, ua: scraperUA, sec: 6, path: "/admin/b"}}, findings.FindingIgnored, true},
		{"never fetched it", []req{
			{ip: ip, ua: "", sec: 0, path: "/admin/a"},
			{ip: ip, ua: "", sec: 5, path: "/search"}}, findings.FindingNeverRead, false},
		{"fetched it only after the first disallowed request", []req{
			{ip: ip, ua: scraperUA, sec: 0, path: "/admin/a"},
			{ip: ip, ua: scraperUA, sec: 5, path: "/robots.txt"},
			{ip: ip, ua: scraperUA, sec: 9, path: "/admin/b"}}, findings.FindingReadLate, true},
		{"obeyed it", []req{
			{ip: ip, ua: scraperUA, sec: 0, path: "/robots.txt"},
			{ip: ip, ua: scraperUA, sec: 5, path: "/about"}}, findings.FindingObeyed, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// A person with a browser makes sure the log records User-agents.
			res := run(Config{Robots: rb}, append(tc.reqs, browse("10.21.0.1", chromeUA, 100, 1, 1)...))
			if len(res.Robots) != 1 {
				t.Fatalf("robots = %+v, want one", res.Robots)
			}
			s := res.Robots[0]
			if s.Finding != tc.finding || s.FetchedRobotsTxt != tc.fetched {
				t.Errorf("finding %q fetched %v, want %q %v", s.Finding, s.FetchedRobotsTxt, tc.finding, tc.fetched)
			}
		})
	}
	res := run(Config{Robots: rb}, cases[0].reqs)
	if p := res.Robots[0].Prefixes; !slices.Equal(p, []findings.PrefixCount{{Prefix: "/admin/", Count: 2}}) {
		t.Errorf("prefixes = %+v", p)
	}
	// Without a robots.txt, nothing is computed and nothing is claimed.
	res = run(Config{}, cases[0].reqs)
	if res.ViolationsChecked || res.ViolationCount != 0 || res.Robots[0].Finding != "" || res.Robots[0].Violations != 0 {
		t.Errorf("without robots.txt: checked %v count %d summary %+v", res.ViolationsChecked, res.ViolationCount, res.Robots[0])
	}
}

func TestLateRobotKeepsItsEarlierViolations(t *testing.T) {
	rb := robots.ParseBytes([]byte(siteRobots))
	ip := "198.51.100.70"
	// A browser User-agent searching at a human pace for ten minutes, then
	// a burst: it is a robot only from the burst on, and its earlier
	// searches were already violations.
	var reqs []req
	for i := 0; i < 20; i++ {
		reqs = append(reqs, req{ip: ip, ua: chromeUA, sec: i * 30, path: fmt.Sprintf("/search?q=%d", i), referer: "https://www.example.com/"},
			req{ip: ip, ua: chromeUA, sec: i*30 + 1, path: "/site.css", referer: "https://www.example.com/"})
	}
	reqs = append(reqs, burst(ip, chromeUA, 700, 100, 50)...)
	res := run(Config{Robots: rb}, reqs)
	v := verdictOf(t, res, ip, chromeUA)
	if !v.Robot || v.Violations != 20 {
		t.Fatalf("robot %v with %d violations, want a robot with 20", v.Robot, v.Violations)
	}
	stored := min(20, browserViolationCap)
	if got := violationsOf(res, ip); len(got) != stored || got[0].Path != "/search?q=0" {
		t.Errorf("stored %d violations starting %+v; want the first %d", len(got), got[0], stored)
	}
	if res.ViolationsUnlisted != int64(20-stored) {
		t.Errorf("dropped = %d", res.ViolationsUnlisted)
	}
}

func TestViolationsPerClientAreBounded(t *testing.T) {
	rb := robots.ParseBytes([]byte(siteRobots))
	var reqs []req
	for i := 0; i < 500; i++ {
		reqs = append(reqs, req{ip: "192.0.2.80", ua: "", sec: i * 5, path: fmt.Sprintf("/admin/%d/x", i)})
	}
	reqs = append(reqs, browse("10.22.0.1", chromeUA, 0, 1, 1)...)
	res := run(Config{Robots: rb, MaxViolationsPerClient: 50}, reqs)
	v := verdictOf(t, res, "192.0.2.80", "")
	if v.Violations != 500 || len(violationsOf(res, "192.0.2.80")) != 50 || res.ViolationsUnlisted != 450 {
		t.Errorf("violations %d, stored %d, dropped %d; want 500, 50, 450", v.Violations, len(violationsOf(res, "192.0.2.80")), res.ViolationsUnlisted)
	}
	if p := res.Robots[0].Prefixes; len(p) != 1 || p[0] != (findings.PrefixCount{Prefix: "/admin/", Count: 500}) {
		t.Errorf("prefixes = %+v", p)
	}
}

func TestRobotsByHost(t *testing.T) {
	shop := robots.ParseBytes([]byte("User-agent: *\nDisallow: /cart\n"))
	rb := robots.ParseBytes([]byte(siteRobots))
	d := New(Config{Robots: rb, RobotsByHost: map[string]*robots.Robots{"Shop.Example.com": shop}})
	for i, q := range []struct{ host, path string }{
		{"shop.example.com:443", "/cart"},    // shop's rule
		{"shop.example.com", "/admin/x"},     // allowed on the shop
		{"www.example.com", "/admin/x"},      // the default file
		{"www.example.com:80", "/cart"},      // allowed by the default file
		{"SHOP.EXAMPLE.COM", "/cart?add=1"},  // host names have no case
		{"[2001:db8::1]:8443", "/search?q="}, // default
	} {
		r := req{ip: "192.0.2.90", ua: "", sec: i, path: q.path}.record()
		r.VHost = q.host
		d.Add(r)
	}
	d.Add(browse("10.23.0.1", chromeUA, 0, 1, 1)[0].record())
	var got []string
	for v := range d.Result().Violations.All() {
		got = append(got, fmt.Sprintf("%s %s", v.Path, v.Rule))
	}
	want := []string{"/cart Disallow: /cart", "/admin/x Disallow: /admin/", "/cart?add=1 Disallow: /cart", "/search?q= Disallow: /search"}
	if !slices.Equal(got, want) {
		t.Errorf("violations = %q, want %q", got, want)
	}
}

// TestRobotsByHostIPv6: a site reached by its IPv6 address has its
// robots.txt however the Host header, the URL or --robots spell the
// address: with or without brackets and port, upper case, uncompressed.
func TestRobotsByHostIPv6(t *testing.T) {
	v6 := robots.ParseBytes([]byte("User-agent: *\nDisallow: /v6/\n"))
	rb := robots.ParseBytes([]byte("User-agent: *\nDisallow: /default/\n"))
	for _, key := range []string{"[2001:db8::1]", "2001:db8::1", "[2001:DB8:0:0:0:0:0:1]"} {
		d := New(Config{Robots: rb, RobotsByHost: map[string]*robots.Robots{key: v6}})
		hosts := []string{"[2001:db8::1]", "[2001:db8::1]:8443", "2001:db8::1", "[2001:DB8::1]", "2001:0db8:0:0:0:0:0:1", "[2001:db8::2]:80"}
		for i, host := range hosts {
			path := "/v6/x"
			if i == len(hosts)-1 {
				path = "/default/x" // another address: the default file
			}
			r := req{ip: "192.0.2.91", ua: "", sec: i, path: path}.record()
			r.VHost = host
			d.Add(r)
		}
		d.Add(browse("10.23.0.1", chromeUA, 0, 1, 1)[0].record())
		n := 0
		for v := range d.Result().Violations.All() {
			n++
			if !strings.HasPrefix(v.Rule, "Disallow: /"+strings.Split(v.Path, "/")[1]+"/") {
				t.Errorf("--robots %s: %s broke %q", key, v.Path, v.Rule)
			}
		}
		if n != len(hosts) {
			t.Errorf("--robots %s=FILE: %d violations, want %d (one per host spelling)", key, n, len(hosts))
		}
	}
}

// TestRobotsByHostTrailingDot: "www.example.com." is the fully qualified
// spelling of www.example.com, and nginx and Apache serve it as the same
// site; its requests are judged by that host's robots.txt, however --robots
// and the Host header spell the name. Two trailing dots are no host name
// (nginx answers 400), so they are another host.
func TestRobotsByHostTrailingDot(t *testing.T) {
	www := robots.ParseBytes([]byte("User-agent: *\nDisallow: /www/\n"))
	rb := robots.ParseBytes([]byte("User-agent: *\nDisallow: /default/\n"))
	for _, key := range []string{"www.example.com", "www.example.com.", "WWW.Example.COM."} {
		for _, tt := range []struct {
			host string
			own  bool // judged by www's file
		}{
			{"www.example.com", true},
			{"www.example.com.", true},
			{"www.example.com.:443", true},
			{"WWW.EXAMPLE.COM.:8080", true},
			{"www.example.com..", false},
			{"example.com.", false},
			{"ww.example.com.", false},
			{".", false},
		} {
			d := New(Config{Robots: rb, RobotsByHost: map[string]*robots.Robots{key: www}})
			for i, path := range []string{"/www/x", "/default/x"} {
				r := req{ip: "192.0.2.92", ua: scraperUA, sec: i, path: path}.record()
				r.VHost = tt.host
				d.Add(r)
			}
			var got []string
			for v := range d.Result().Violations.All() {
				got = append(got, v.Path)
			}
			want := []string{"/default/x"}
			if tt.own {
				want = []string{"/www/x"}
			}
			if !slices.Equal(got, want) {
				t.Errorf("--robots %s=FILE, Host %q: violations %q, want %q", key, tt.host, got, want)
			}
		}
	}
}

func TestCrawlDelay(t *testing.T) {
	rb := robots.ParseBytes([]byte(siteRobots))
	// Crawl-delay 2 allows 30 requests a minute (31 with the robots.txt
	// fetch in it).
	for _, tc := range []struct {
		gap  time.Duration
		fast bool
	}{{time.Second, true}, {3 * time.Second, false}} {
		d := New(Config{Robots: rb})
		d.Add(req{ip: "192.0.2.99", ua: scraperUA, path: "/robots.txt"}.record())
		for i := 1; i <= 50; i++ {
			r := req{ip: "192.0.2.99", ua: scraperUA, path: fmt.Sprintf("/p/%d", i)}.record()
			r.Time = t0.Add(time.Duration(i) * tc.gap)
			d.Add(r)
		}
		d.Add(browse("10.24.0.1", chromeUA, 0, 1, 1)[0].record())
		v := verdictOf(t, d.Result(), "192.0.2.99", scraperUA)
		if v.CrawlDelay != 2 || v.CrawlDelayFast != tc.fast {
			t.Errorf("gap %v: crawl delay %v exceeded %v, want 2 %v (details %q)", tc.gap, v.CrawlDelay, v.CrawlDelayFast, tc.fast, v.Details)
		}
	}
}

func TestHostWithoutRobotsIsCountedNotChecked(t *testing.T) {
	rb := robots.ParseBytes([]byte("User-agent: *\nDisallow: /\n"))
	d := New(Config{RobotsByHost: map[string]*robots.Robots{"www.example.com": rb}})
	at := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, host := range []string{"www.example.com", "api.example.com", "", "WWW.EXAMPLE.COM:443"} {
		d.Add(&logparse.Record{Client: "192.0.2.1", UserAgent: "curl/8.0", VHost: host, Time: at.Add(time.Duration(i) * time.Second),
			Method: "GET", Target: "/x", Status: 200})
	}
	res := d.Result()
	if res.ViolationCount != 2 || res.Unchecked != 2 {
		t.Errorf("violations %d, unchecked %d; want 2 and 2 (two records of www.example.com, one of another host, one with none)",
			res.ViolationCount, res.Unchecked)
	}
}

// TestCrawlDelayPace: a robot that waits less than its Crawl-delay between
// requests is faster than it, however little; one that waits the delay or
// longer is not, and neither is one that reads robots.txt and asks for its
// first page in the same second, then keeps the delay (the fetch is in its
// busiest minute). Found by an outside sweep: Crawl-delay 10 let a robot at
// one request every 9 s through, and Crawl-delay 60 one every 30 s.
func TestCrawlDelayPace(t *testing.T) {
	for _, tc := range []struct {
		delay   string
		gap     time.Duration
		fetchAt time.Duration // of the robots.txt fetch, from the first page
		fast    bool
	}{
		{"10", 9 * time.Second, -10 * time.Minute, true},
		{"10", 9500 * time.Millisecond, -10 * time.Minute, true},
		{"10", 10 * time.Second, -10 * time.Minute, false},
		{"10", 11 * time.Second, -10 * time.Minute, false},
		{"2", 1900 * time.Millisecond, -10 * time.Minute, true},
		{"2", 2 * time.Second, -10 * time.Minute, false},
		{"7", 6 * time.Second, -10 * time.Minute, true},
		{"7", 7 * time.Second, -10 * time.Minute, false},
		{"60", 30 * time.Second, -10 * time.Minute, true},
		{"60", 60 * time.Second, -10 * time.Minute, false},
		{"0.5", 400 * time.Millisecond, -10 * time.Minute, true},
		{"0.5", 500 * time.Millisecond, -10 * time.Minute, false},
		// robots.txt, then the first page the same second, then the delay.
		{"10", 10 * time.Second, 0, false},
		{"60", 60 * time.Second, 0, false},
		{"10", 9 * time.Second, 0, true},
		// Read again later, inside the crawl's busiest minute.
		{"10", 10 * time.Second, 45 * time.Second, false},
	} {
		rb := robots.ParseBytes([]byte("User-agent: *\nDisallow: /private/\nCrawl-delay: " + tc.delay + "\n"))
		d := New(Config{Robots: rb})
		start := t0.Add(10 * time.Minute)
		fetch := req{ip: "192.0.2.98", ua: scraperUA, path: "/robots.txt"}.record()
		fetch.Time = start.Add(tc.fetchAt)
		if tc.fetchAt < 0 {
			d.Add(fetch)
		}
		for i := range int(90*time.Second/tc.gap) + 1 { // 90 s: every minute window falls in the crawl
			at := start.Add(time.Duration(i) * tc.gap)
			if tc.fetchAt >= 0 && !fetch.Time.After(at) && fetch.Time.After(at.Add(-tc.gap)) {
				d.Add(fetch)
			}
			r := req{ip: "192.0.2.98", ua: scraperUA, path: fmt.Sprintf("/p/%d", i)}.record()
			r.Time = at
			d.Add(r)
		}
		v := verdictOf(t, d.Result(), "192.0.2.98", scraperUA)
		if v.CrawlDelayFast != tc.fast {
			t.Errorf("Crawl-delay %s, a request every %v, robots.txt at %v (%d in 60 s): exceeded %v, want %v (details %q)",
				tc.delay, tc.gap, tc.fetchAt, v.Peak.Per60s, v.CrawlDelayFast, tc.fast, v.Details)
		}
	}
}
