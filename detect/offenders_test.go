package detect

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/robots"
)

// offenderLog is a small log for the block-list selection: who is in it
// and what each did.
func offenderLog(t *testing.T) *findings.Result {
	t.Helper()
	rb, err := robots.Parse(strings.NewReader("User-agent: *\nDisallow: /private/\n"))
	if err != nil {
		t.Fatal(err)
	}
	d := New(Config{Robots: rb})
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	add := func(ip, ua, path string, sec int) {
		d.Add(&logparse.Record{Client: ip, UserAgent: ua, Method: "GET", Target: path, Status: 200, Bytes: 100, Time: t0.Add(time.Duration(sec) * time.Second)})
	}
	const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0"
	for i := range 5 { // a person, who also opened a disallowed page
		add("203.0.113.10", firefox, fmt.Sprintf("/page/%d", i), i*30)
		add("203.0.113.10", firefox, "/style.css", i*30+1)
		add("203.0.113.10", firefox, "/private/help", i*30+2)
	}
	for i := range 3 { // a violator, once as IPv4-mapped IPv6
		add("198.51.100.7", "python-requests/2.31.0", fmt.Sprintf("/private/%d", i), 10+i)
	}
	add("::ffff:198.51.100.7", "python-requests/2.31.0", "/private/x", 20)
	for i := range 40 { // rapid fire, nothing disallowed
		add("192.0.2.99", "Go-http-client/1.1", fmt.Sprintf("/q?%d", i), 100+i/10)
	}
	add("192.0.2.5", "Go-http-client/1.1", "/ok", 100) // an obedient robot beside it
	add("crawler.bad.example", "curl/8.5.0", "/private/h", 30)
	for i := range 8 { // eight violators of one /24 (public: just past RFC 6598's 100.64.0.0/10)
		add(fmt.Sprintf("100.128.7.%d", 10+i), "scrapy/2.11", "/private/list", 200+i)
	}
	add("2001:db8::1", "MegaCrawler/3.1", "/private/v6", 300)
	return d.Result()
}

// TestOffenders: what each selection lists, one entry per address, in
// address order; a person never; allowed addresses never; a network only
// when every client seen in it was selected.
func TestOffenders(t *testing.T) {
	res := offenderLog(t)
	sel := func(s string) findings.Selection {
		sl, err := findings.ParseSelection(s)
		if err != nil {
			t.Fatal(err)
		}
		return sl
	}
	tests := []struct {
		name    string
		opt     findings.BlockOptions
		want    string // prefix=why|... in order
		skipped string
	}{
		{"default", findings.BlockOptions{Select: findings.DefaultSelection},
			"100.128.7.10=1 robots.txt violation|100.128.7.11=1 robots.txt violation|100.128.7.12=1 robots.txt violation|100.128.7.13=1 robots.txt violation|" +
				"100.128.7.14=1 robots.txt violation|100.128.7.15=1 robots.txt violation|100.128.7.16=1 robots.txt violation|100.128.7.17=1 robots.txt violation|" +
				"192.0.2.99=1 rapid-fire incident|198.51.100.7=4 robots.txt violations|2001:db8::1=1 robots.txt violation", "crawler.bad.example"},
		{"violators, allowed /24 and v6 address", findings.BlockOptions{Select: sel("violators"), Allow: []netip.Prefix{netip.MustParsePrefix("100.128.7.0/24"), netip.MustParsePrefix("2001:db8::1/128")}},
			"198.51.100.7=4 robots.txt violations", "crawler.bad.example"},
		{"aggregate at 8", findings.BlockOptions{Select: sel("violators"), Aggregate: 8},
			"100.128.7.0/24=8 robots.txt violations|198.51.100.7=4 robots.txt violations|2001:db8::1=1 robots.txt violation", "crawler.bad.example"},
		{"aggregate at 9: too few", findings.BlockOptions{Select: sel("violators"), Aggregate: 9},
			"100.128.7.10=1 robots.txt violation|100.128.7.11=1 robots.txt violation|100.128.7.12=1 robots.txt violation|100.128.7.13=1 robots.txt violation|" +
				"100.128.7.14=1 robots.txt violation|100.128.7.15=1 robots.txt violation|100.128.7.16=1 robots.txt violation|100.128.7.17=1 robots.txt violation|" +
				"198.51.100.7=4 robots.txt violations|2001:db8::1=1 robots.txt violation", "crawler.bad.example"},
		{"aggregate never past an allowed address", findings.BlockOptions{Select: sel("violators"), Aggregate: 2, Allow: []netip.Prefix{netip.MustParsePrefix("100.128.7.200/32")}},
			"100.128.7.10=1 robots.txt violation|100.128.7.11=1 robots.txt violation|100.128.7.12=1 robots.txt violation|100.128.7.13=1 robots.txt violation|" +
				"100.128.7.14=1 robots.txt violation|100.128.7.15=1 robots.txt violation|100.128.7.16=1 robots.txt violation|100.128.7.17=1 robots.txt violation|" +
				"198.51.100.7=4 robots.txt violations|2001:db8::1=1 robots.txt violation", "crawler.bad.example"},
		{"aggregate never past a client not selected", findings.BlockOptions{Select: sel("incidents"), Aggregate: 1},
			"192.0.2.99=1 rapid-fire incident", ""},
		{"name", findings.BlockOptions{Select: sel("name:MegaCrawler")}, "2001:db8::1=named by --block name:megacrawler", ""},
		{"robots: the person still not", findings.BlockOptions{Select: sel("robots"), Aggregate: 8},
			"100.128.7.0/24=robot|192.0.2.5=robot|192.0.2.99=robot|198.51.100.7=robot|2001:db8::1=robot", "crawler.bad.example"},
		{"nothing selected", findings.BlockOptions{}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bl := res.BlockList(tt.opt)
			list, skipped := bl.Offenders, bl.Skipped
			var got []string
			for _, o := range list {
				p := o.Prefix.String()
				if o.Prefix.IsSingleIP() {
					p = o.Prefix.Addr().String()
				}
				got = append(got, p+"="+strings.Join(o.Why, ","))
			}
			if g := strings.Join(got, "|"); g != tt.want {
				t.Errorf("offenders\n got %s\nwant %s", g, tt.want)
			}
			if g := strings.Join(skipped, ","); g != tt.skipped {
				t.Errorf("skipped %q, want %q", g, tt.skipped)
			}
		})
	}
}

func TestParseSelection(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{"violators,incidents", "violators,incidents", ""},
		{"Robots, name:Googlebot, purpose:AI-Training", "robots,purpose:ai-training,name:googlebot", ""},
		{"violators,", "", "empty item"},
		{"everyone", "", `"everyone": want`},
		{"name:", "", `"name:": want`},
		{"purpose:ai_training", "", `"purpose:ai_training": want a purpose of search, ai-training,`},
	}
	for _, tt := range tests {
		sel, err := findings.ParseSelection(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseSelection(%q) error %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || sel.String() != tt.want {
			t.Errorf("ParseSelection(%q) = %q, %v; want %q", tt.in, sel.String(), err, tt.want)
		}
	}
}

// TestOffendersIdentity: the default selection takes an impostor and never
// the verified crawler, even one that broke robots.txt; the verified one
// is listed when named, and AI trainers by purpose.
func TestOffendersIdentity(t *testing.T) {
	rb, err := robots.Parse(strings.NewReader("User-agent: *\nDisallow: /private/\n"))
	if err != nil {
		t.Fatal(err)
	}
	d := New(Config{Robots: rb})
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	const gb = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	const gpt = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
	for i, q := range []struct{ ip, ua, path string }{
		{"66.249.66.1", gb, "/private/x"}, // the real Googlebot, breaking robots.txt
		{"203.0.113.50", gb, "/news"},     // an impostor, breaking nothing
		{"20.171.206.9", gpt, "/news"},    // GPTBot from OpenAI's published range
	} {
		d.Add(&logparse.Record{Client: q.ip, UserAgent: q.ua, Method: "GET", Target: q.path, Status: 200, Time: t0.Add(time.Duration(i) * time.Second)})
	}
	res := d.Result()
	// The comment's reasons say the identity too: named together, the
	// real Googlebot and its impostor must be told apart.
	for _, tt := range []struct{ sel, want string }{
		{"impostors,violators,scanners,incidents", "203.0.113.50 (impostor)"},
		{"name:googlebot", "203.0.113.50 (impostor, named by --block name:googlebot) 66.249.66.1 (verified, named by --block name:googlebot)"},
		{"robots", "203.0.113.50 (impostor, robot)"},
		{"purpose:ai-training", "20.171.206.9 (verified, purpose ai-training)"},
	} {
		sel, err := findings.ParseSelection(tt.sel)
		if err != nil {
			t.Fatal(err)
		}
		list := res.BlockList(findings.BlockOptions{Select: sel}).Offenders
		var got []string
		for _, o := range list {
			got = append(got, o.Prefix.Addr().String()+" ("+strings.Join(o.Why, ", ")+")")
		}
		slices.Sort(got)
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("--block %s: %s, want %s", tt.sel, g, tt.want)
		}
	}
}

// TestBrowserClaimsNoCrawler: a browser's name claims no crawler: people
// on Yandex Browser are no Yandex impostors, and have no operator.
func TestBrowserClaimsNoCrawler(t *testing.T) {
	const ya = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 YaBrowser/24.4.0.0 Safari/537.36"
	reqs := browse("10.50.14.9", ya, 0, 3, 20)
	v := verdictOf(t, run(Config{}, reqs), "10.50.14.9", ya)
	if v.Name != "Yandex Browser" || v.Identity != "" || v.Operator != "" || v.Robot {
		t.Errorf("name %q, identity %q, operator %q, robot %v; want Yandex Browser, no identity, no operator, no robot", v.Name, v.Identity, v.Operator, v.Robot)
	}
}

// TestRobotsTxtNotFound: a robot the server answered 404 for /robots.txt
// was told there is none (RFC 9309: it may fetch anything); what it asks
// for then is no violation. Once a fetch finds the file, it is held to it.
func TestRobotsTxtNotFound(t *testing.T) {
	rb, err := robots.Parse(strings.NewReader("User-agent: *\nDisallow: /private/\n"))
	if err != nil {
		t.Fatal(err)
	}
	d := New(Config{Robots: rb})
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	const wget = "Wget/1.21.4"
	for i, q := range []struct {
		path   string
		status int
	}{
		{"/robots.txt", 404},
		{"/private/a", 200}, // told there is no robots.txt: allowed
		{"/robots.txt", 200},
		{"/private/b", 200}, // now it has the file: a violation
	} {
		d.Add(&logparse.Record{Client: "198.51.100.24", UserAgent: wget, Method: "GET", Target: q.path, Status: q.status, Time: t0.Add(time.Duration(i) * time.Minute)})
	}
	// A 4xx that answers the request, not the file (a POST refused, a
	// range not satisfiable), tells nothing: the robot stays held to it.
	for i, q := range []struct {
		method string
		status int
	}{{"POST", 405}, {"GET", 416}, {"GET", 429}} {
		d.Add(&logparse.Record{Client: "198.51.100.25", UserAgent: wget, Method: q.method, Target: "/robots.txt", Status: q.status, Time: t0.Add(time.Duration(10+2*i) * time.Minute)})
		d.Add(&logparse.Record{Client: "198.51.100.25", UserAgent: wget, Method: "GET", Target: fmt.Sprintf("/private/c%d", i), Status: 200, Time: t0.Add(time.Duration(11+2*i) * time.Minute)})
	}
	res := d.Result()
	if res.ViolationCount != 4 || res.Violations.Len() != 4 {
		t.Fatalf("%d violations, want 4 (one after the file was found, three after answers about the request)", res.ViolationCount)
	}
	for v := range res.Violations.All() {
		if v.Path == "/private/a" {
			t.Errorf("violation %s after a 404 for robots.txt", v.Path)
		}
	}
}

// TestRobotsTxtNotFoundPerHost: a 404 for one virtual host's robots.txt
// says nothing of another's (RFC 9309: a robots.txt applies to its own
// host), and a HEAD of /robots.txt reads no file: neither is a fetch that
// frees or binds the robot.
func TestRobotsTxtNotFoundPerHost(t *testing.T) {
	www, err := robots.Parse(strings.NewReader("User-agent: *\nDisallow: /private/\n"))
	if err != nil {
		t.Fatal(err)
	}
	d := New(Config{RobotsByHost: map[string]*robots.Robots{"www.example.com": www, "other.example.com": robots.ParseBytes([]byte("User-agent: *\nDisallow: /x/\n"))}})
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	for i, q := range []struct {
		ip, method, host, path string
		status                 int
	}{
		{"198.51.100.30", "GET", "other.example.com", "/robots.txt", 404},
		{"198.51.100.30", "GET", "www.example.com", "/private/a", 200}, // www's file holds
		{"198.51.100.30", "GET", "other.example.com", "/x/1", 200},     // told other has none: allowed
		{"198.51.100.31", "HEAD", "www.example.com", "/robots.txt", 404},
		{"198.51.100.31", "GET", "www.example.com", "/private/b", 200}, // a HEAD read nothing
	} {
		d.Add(&logparse.Record{Client: q.ip, UserAgent: "Wget/1.21.4", Method: q.method, VHost: q.host, Target: q.path, Status: q.status, Time: t0.Add(time.Duration(i) * time.Minute)})
	}
	res := d.Result()
	var paths []string
	for v := range res.Violations.All() {
		paths = append(paths, v.Path)
	}
	if res.ViolationCount != 2 || strings.Join(paths, " ") != "/private/a /private/b" && strings.Join(paths, " ") != "/private/b /private/a" {
		t.Errorf("violations %d %q, want /private/a and /private/b", res.ViolationCount, paths)
	}
	if v := verdictOf(t, res, "198.51.100.31", "Wget/1.21.4"); v.RobotsTxtFetches != 0 {
		t.Errorf("a HEAD of /robots.txt counted as %d fetches", v.RobotsTxtFetches)
	}
}

// TestOldLogImpostors: a claim is judged by the range lists of the log's
// own time. An address outside Google's lists of 2025 is an impostor; in a
// 2015 log, before the lists' history begins (2024-02-13), it proves no
// impostor (a 2015 log made Microsoft's bingbot of 2015 impostors in the
// block list): unverified, counted in RangesEarliest. RangesNewer says
// the log starts before the history of some list (the collection's, from
// 2026-04-11), whatever its clients.
func TestOldLogImpostors(t *testing.T) {
	const gb = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	for _, tt := range []struct {
		year     int
		identity string
		newer    bool
		earliest int
	}{{2015, "unverified", true, 8}, {2025, "impostor", true, 0}, {2026, "impostor", false, 0}} {
		var recs []logparse.Record
		for i := range 8 { // several networks, so that a Pool's workers share them out
			recs = append(recs, logparse.Record{Client: fmt.Sprintf("203.0.%d.50", 113+i), UserAgent: gb, Method: "GET", Target: "/", Status: 200, Time: time.Date(tt.year, 5, 6, 9, 0, i, 0, time.UTC)})
		}
		for _, workers := range []int{1, 3} {
			p := NewPool(Config{}, workers)
			p.Add(recs, nil, nil, nil)
			res := p.Result()
			v := verdictOf(t, res, "203.0.113.50", gb)
			if v.Identity != tt.identity || res.RangesNewer != tt.newer || res.RangesEarliest != tt.earliest {
				t.Errorf("%d, %d workers: identity %q, ranges newer %v, earliest %d; want %q, %v, %d", tt.year, workers, v.Identity, res.RangesNewer, res.RangesEarliest, tt.identity, tt.newer, tt.earliest)
			}
		}
	}
}

// TestOffendersLeaveInternal: a block list never denies the server itself,
// its balancer or a health check (loopback, private, link-local
// addresses), nor a CDN's edge, which carries every visitor's requests in
// a log behind it that names no visitor (a real log from behind
// Cloudflare put 172.70.x and 162.158.x in its block lists), whatever is
// selected: they are named for the admin instead.
func TestOffendersLeaveInternal(t *testing.T) {
	d := New(Config{})
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	for _, ip := range []string{"127.0.0.1", "10.0.0.5", "::1", "fe80::1", "203.0.113.9", "::ffff:192.168.1.20", "255.255.255.255", "::ffff:255.255.255.255", "224.0.0.1", "240.0.0.1", "0.1.2.3", "ff02::1", "172.70.42.7", "151.101.1.69", "100.64.0.1", "100.127.255.255", "100.63.255.255"} {
		for i := range 40 { // rapid fire from each
			d.Add(&logparse.Record{Client: ip, UserAgent: "curl/8.5.0", Method: "GET", Target: fmt.Sprintf("/q%d", i), Status: 200, Time: t0.Add(time.Duration(i/10) * time.Second)})
		}
	}
	sel, err := findings.ParseSelection("robots")
	if err != nil {
		t.Fatal(err)
	}
	bl := d.Result().BlockList(findings.BlockOptions{Select: sel, Aggregate: 1})
	list, internal := bl.Offenders, bl.Internal
	var got []string
	for _, o := range list {
		got = append(got, o.Prefix.String())
	}
	// Each one address, aggregated at 1; 100.63.255.255 is one before
	// RFC 6598's shared space (100.64.0.0/10, a carrier's NAT or a cloud
	// balancer), which is internal.
	if strings.Join(got, " ") != "100.63.255.0/24 203.0.113.0/24" {
		t.Errorf("listed %q, want only 100.63.255.0/24 203.0.113.0/24", got)
	}
	if strings.Join(internal, " ") != "0.1.2.3 10.0.0.5 100.64.0.1 100.127.255.255 127.0.0.1 151.101.1.69 172.70.42.7 192.168.1.20 224.0.0.1 240.0.0.1 255.255.255.255 ::1 fe80::1 ff02::1" {
		t.Errorf("internal %q", internal)
	}
}

// TestAggregateNeverPastFoldedClients: a network holding a client folded
// into Other, whether by MaxClients or by Expire in a follow run, is
// never aggregated: the client may have been a person, and its verdict is
// gone. A fold in another network does not stop one; with one worker or
// four alike.
func TestAggregateNeverPastFoldedClients(t *testing.T) {
	const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0"
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	// People of one network browse (three requests each), then three
	// robots of 198.51.100.0/24 fire, two hours later.
	records := func(people string) []logparse.Record {
		var recs []logparse.Record
		add := func(ip, ua, path string, sec int) {
			recs = append(recs, logparse.Record{Client: ip, UserAgent: ua, Method: "GET", Target: path, Status: 200, Bytes: 100,
				Referer: "https://www.example.com/", Time: t0.Add(time.Duration(sec) * time.Second)})
		}
		for i := range 5 {
			for _, path := range []string{"/", "/style.css", "/app.js"} {
				add(fmt.Sprintf("%s.%d", people, 20+i), firefox, path, i*10)
			}
		}
		for k := range 3 {
			for i := range 40 {
				add(fmt.Sprintf("198.51.100.%d", 7+k), "curl/8.5.0", fmt.Sprintf("/q%d", i), 7200+k*60+i/10)
			}
		}
		return recs
	}
	sel, err := findings.ParseSelection("incidents")
	if err != nil {
		t.Fatal(err)
	}
	const apart, whole = "198.51.100.7 198.51.100.8 198.51.100.9", "198.51.100.0/24"
	tests := []struct {
		name    string
		cfg     Config
		workers int // 0: one Detector
		advance bool
		people  string
		want    string
		folded  bool // want clients in Other
	}{
		{"people tracked", Config{}, 0, false, "198.51.100", apart, false},
		{"people folded by MaxClients", Config{MaxClients: 3}, 0, false, "198.51.100", apart, true},
		{"people folded by MaxClients, four workers", Config{MaxClients: 3}, 4, false, "198.51.100", apart, true},
		{"people expired in a follow run", Config{Expire: time.Hour}, 0, true, "198.51.100", apart, true},
		{"people of another network folded", Config{MaxClients: 3}, 0, false, "203.0.113", whole, true},
		{"people of another network expired", Config{Expire: time.Hour}, 0, true, "203.0.113", whole, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var res *findings.Result
			if tt.workers > 0 {
				p := NewPool(tt.cfg, tt.workers)
				defer p.Close()
				p.Add(records(tt.people), nil, nil, nil)
				res = p.Result()
			} else {
				d := New(tt.cfg)
				recs := records(tt.people)
				for i := range recs {
					d.Add(&recs[i])
				}
				if tt.advance {
					d.Advance(0) // a live run's tick: the people idle for two hours expire
				}
				res = d.Result()
			}
			if got := res.Other.Requests > 0; got != tt.folded {
				t.Fatalf("other %+v: folded %v, want %v", res.Other, got, tt.folded)
			}
			list := res.BlockList(findings.BlockOptions{Select: sel, Aggregate: 3}).Offenders
			var got []string
			for _, o := range list {
				got = append(got, o.Prefix.String())
			}
			if g := strings.ReplaceAll(strings.Join(got, " "), "/32", ""); g != tt.want {
				t.Errorf("listed %s, want %s", g, tt.want)
			}
		})
	}
}
