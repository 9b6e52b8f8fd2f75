package detect

import (
	"fmt"
	"strings"
	"testing"

	"github.com/robowatch/robowatch/logparse"
)

// TestFleet: one exact browser string from many addresses, none of which
// loads an asset, is a fleet; people sharing a browser version are not,
// because one of them at least loads a page's assets.
func TestFleet(t *testing.T) {
	// A browser current at the cases' date: an ancient one asking for the
	// home page alone is a robot by itself (homeOnly), fleet or no fleet.
	const fleetUA = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Safari/537.36"
	// people: a site that serves its own assets, read by three people (a
	// fresh slice each time: the cases append to it).
	people := func() []req {
		return append(append(browse("198.51.100.1", chromeUA, 0, 3, 30), browse("198.51.100.2", firefoxUA, 0, 3, 30)...), browse("198.51.100.3", chromeUA, 50, 3, 30)...)
	}
	member := func(i int) string { return fmt.Sprintf("203.0.%d.%d", 100+i%4, 10+i) } // four /24s
	fleet := func(n int, ip func(int) string, each func(i int, ip string) []req) []req {
		var out []req
		for i := range n {
			out = append(out, each(i, ip(i))...)
		}
		return out
	}
	getRoot := func(i int, ip string) []req { return []req{{ip: ip, ua: fleetUA, sec: 100 + 600*i, path: "/"}} }
	cases := []struct {
		name  string
		reqs  []req
		ip    string // the client asked about, under fleetUA
		robot bool
	}{
		{"ten addresses, GET / each, no asset", append(people(), fleet(10, member, getRoot)...), member(3), true},
		{"nine addresses", append(people(), fleet(9, member, getRoot)...), member(3), false},
		{"ten addresses, one loads the page's assets", append(append(people(), fleet(10, member, getRoot)...),
			req{ip: member(7), ua: fleetUA, sec: 6401, path: "/static/main.css", referer: "http://www.example.com/"}), member(3), false},
		{"ten addresses of one /24", append(people(), fleet(10, func(i int) string { return fmt.Sprintf("203.0.113.%d", 10+i) }, getRoot)...), "203.0.113.13", false},
		{"a member that reads on", append(append(people(), fleet(10, member, getRoot)...),
			req{ip: member(3), ua: fleetUA, sec: 2000, path: "/a"}, req{ip: member(3), ua: fleetUA, sec: 2100, path: "/b"},
			req{ip: member(3), ua: fleetUA, sec: 2200, path: "/c"}, req{ip: member(3), ua: fleetUA, sec: 2300, path: "/d"},
			req{ip: member(3), ua: fleetUA, sec: 2400, path: "/e"}), member(3), false},
		{"a log of pages only (assets served elsewhere)", fleet(10, member, getRoot), member(3), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := verdictOf(t, run(Config{}, tc.reqs), tc.ip, fleetUA)
			if v.Robot != tc.robot {
				t.Errorf("robot=%v score=%d details=%q; want robot=%v", v.Robot, v.Score, v.Details, tc.robot)
			}
		})
	}
	// The people stay people beside a fleet.
	res := run(Config{}, append(people(), fleet(12, member, getRoot)...))
	for v := range res.Clients.All() {
		if v.UserAgent != fleetUA && v.Robot {
			t.Errorf("person %s %q judged a robot: %q", v.IP, v.UserAgent, v.Details)
		}
	}
}

// TestFleetAcrossWorkers: the members of a fleet fall to different
// workers (by network), and a worker alone sees too few of them; the Pool
// asks the whole log, so every worker count gives the same verdicts, and
// so does a --shard run, which sees the other shards' records by Pass.
func TestFleetAcrossWorkers(t *testing.T) {
	// A current browser: an ancient one asking for / alone is a robot by
	// itself, whatever the workers see.
	const fleetUA = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Safari/537.36"
	reqs := browse("198.51.100.1", chromeUA, 0, 3, 30)
	for i := range 12 {
		reqs = append(reqs, req{ip: fmt.Sprintf("203.0.%d.9", 100+i), ua: fleetUA, sec: 100 + 60*i, path: "/"})
	}
	recs := make([]logparse.Record, len(reqs))
	for i, q := range reqs {
		recs[i] = *q.record()
	}
	for _, workers := range []int{1, 2, 4, 7} {
		p := NewPool(Config{}, workers)
		p.Add(recs, nil, nil, nil)
		robots := 0
		for v := range p.Result().Clients.All() {
			if v.UserAgent == fleetUA && v.Robot {
				robots++
			}
		}
		if robots != 12 {
			t.Errorf("%d workers: %d of 12 fleet members judged robots", workers, robots)
		}
	}
	// A shard of one member: the others are Pass records.
	d := New(Config{})
	for i := range recs {
		if recs[i].Client == "203.0.105.9" || recs[i].UserAgent == chromeUA {
			d.Add(&recs[i])
		} else {
			d.Pass(&recs[i])
		}
	}
	if v := verdictOf(t, d.Result(), "203.0.105.9", fleetUA); !v.Robot {
		t.Errorf("shard: the member not a robot: %q", v.Details)
	}
}

// TestFleetOnRealLines reads real lines of mosky-2013 (testdata/corpus),
// in testdata/detect/fleet-msie7.log: sixteen addresses of Baidu's
// networks (119.63.193.x, 202.46.x) in eight /24s send GET / under the
// bare "MSIE 7.0; Windows NT 6.0" string, one to three times each, over
// 21 hours, never an asset: a fleet. Three people (Chrome 26 from the
// PyCon TW speaker page, Firefox 20 from Facebook, one of them on two
// browsers: four clients) load the pages' CSS and images: people.
func TestFleetOnRealLines(t *testing.T) {
	res := readLog(t, "fleet-msie7.log", Config{})
	robots, people := 0, 0
	for v := range res.Clients.All() {
		msie := v.UserAgent == "Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 6.0)"
		if msie {
			robots++
		} else {
			people++
		}
		if v.Robot != msie {
			t.Errorf("%s %q: robot=%v details=%q; want robot=%v", v.IP, v.UserAgent, v.Robot, v.Details, msie)
		}
	}
	if robots != 16 || people != 4 {
		t.Errorf("%d fleet members and %d people, want 16 and 4", robots, people)
	}
}

// TestAccountPage: a sign-up or login page is named by its last path
// segment's words, matched whole, so an article that mentions a login in
// its slug's middle word does not count, nor does a blog about logging.
func TestAccountPage(t *testing.T) {
	cases := []struct {
		path string
		want bool
	}{
		{"/wp-login.php", true},
		{"/join_form", true},
		{"/login_form", true},
		{"/acl_users/credentials_cookie_auth/require_login?came_from=http%3A//howto.basjes.nl/join_form", true},
		{"/user/register", true},
		{"/users/sign_in", true},
		{"/account/sign-up/", true},
		{"/Login.aspx", true},
		{"/auth/log-in", true},
		{"/linux/doing-pxe-without-dhcp-control", false},
		{"/blogin/post", false},               // "blogin" is no word of the list
		{"/bloginfo", false},                  // nor is "bloginfo"
		{"/login/help-with-passwords", false}, // the last segment decides
		{"/how-to-join-tables", false},        // "join" alone is no form
		{"/?next=/login", false},
		{"/", false},
		{"", false},
	}
	for _, tc := range cases {
		if got := accountPage(tc.path); got != tc.want {
			t.Errorf("accountPage(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
}

// TestAccountFleet: one exact browser string from many addresses that
// spends most of its requests on the sign-up and login forms is a fleet
// even in a log that sees no assets (a front server answers them), where
// the plain fleet rule says nothing; people who share the string and read
// the site dilute its share of form pages, and one of them loading an
// asset clears the string.
func TestAccountFleet(t *testing.T) {
	const ff = "Mozilla/5.0 (Windows NT 5.1; rv:35.0) Gecko/20100101 Firefox/35.0"
	member := func(i int) string { return fmt.Sprintf("203.0.%d.%d", 100+i%4, 10+i) } // four /24s
	// run is one visit of the spam campaign: an article with the host root
	// as Referer, then the sign-up and login forms, each posted.
	visit := func(i int) []req {
		ip, s := member(i), 100+900*i
		return []req{
			{ip: ip, ua: ff, sec: s, path: "/linux/some-article", referer: "http://www.example.com/"},
			{ip: ip, ua: ff, sec: s + 2, path: "/join_form", referer: "http://www.example.com/"},
			{ip: ip, ua: ff, sec: s + 30, method: "POST", path: "/join_form", status: 302, referer: "http://www.example.com/join_form"},
			{ip: ip, ua: ff, sec: s + 35, path: "/acl_users/credentials_cookie_auth/require_login?came_from=http%3A//www.example.com/join_form", referer: "http://www.example.com/join_form"},
			{ip: ip, ua: ff, sec: s + 36, path: "/login_form", referer: "http://www.example.com/"},
			{ip: ip, ua: ff, sec: s + 70, method: "POST", path: "/login_form", referer: "http://www.example.com/login_form"},
		}
	}
	fleet := func(n int) []req {
		var out []req
		for i := range n {
			out = append(out, visit(i)...)
		}
		return out
	}
	// reader: a person under the same string reading pages (no assets: the
	// log sees none), who outweighs the forms when there are enough of them.
	reader := func(ip, ua string, n int) []req {
		var out []req
		for k := range n {
			out = append(out, req{ip: ip, ua: ua, sec: 50000 + 60*k, path: fmt.Sprintf("/linux/article-%d", k), referer: "http://www.example.com/"})
		}
		return out
	}
	// the site's other readers: a pages-only log (assets served elsewhere).
	others := func() []req { return reader("198.51.100.7", chromeUA, 120) }
	cases := []struct {
		name  string
		reqs  []req
		ip    string
		robot bool
	}{
		{"ten addresses posting the forms, assets served elsewhere", append(others(), fleet(10)...), member(3), true},
		{"nine addresses", append(others(), fleet(9)...), member(3), false},
		{"people under the string read the site", append(append(others(), fleet(10)...), reader("198.51.100.9", ff, 40)...), member(3), false},
		{"one of them loads an asset", append(append(others(), fleet(10)...),
			req{ip: member(7), ua: ff, sec: 90000, path: "/static/main.css", referer: "http://www.example.com/"}), member(3), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := verdictOf(t, run(Config{}, tc.reqs), tc.ip, ff)
			if v.Robot != tc.robot {
				t.Errorf("robot=%v score=%d details=%q; want robot=%v", v.Robot, v.Score, v.Details, tc.robot)
			}
		})
	}
}

// TestAccountFleetOnRealLines reads real lines of basjes-niels-2015
// (testdata/corpus), in testdata/detect/account-fleet-firefox17.log:
// every request under "X11; Linux i686; rv:17.0" Firefox 17, from 17
// addresses in 16 networks over five days, each visit an article with the
// host root as Referer then Plone's join_form and login_form, fetched and
// posted (a registration-spam campaign through proxies; the log holds no
// assets, its author filtered it). 123.88.10.57 posted the sign-up form
// 82 s after fetching it, too slow for the quick-form signal, and nothing
// else about it alone says robot: all 17 are robots as members of the
// fleet.
func TestAccountFleetOnRealLines(t *testing.T) {
	res := readLog(t, "account-fleet-firefox17.log", Config{})
	n := 0
	for v := range res.Clients.All() {
		n++
		if !v.Robot {
			t.Errorf("%s %q: not a robot: score %d %q", v.IP, v.UserAgent, v.Score, v.Details)
		}
	}
	if n != 17 {
		t.Errorf("%d clients, want 17", n)
	}
	v := verdictOf(t, res, "123.88.10.57", "Mozilla/5.0 (X11; Linux i686; rv:17.0) Gecko/20100101 Firefox/17.0")
	if !strings.Contains(strings.Join(v.Details, "; "), "account fleet") {
		t.Errorf("123.88.10.57: details %q, want the account fleet", v.Details)
	}
}

// TestFleetKeepsAddressesBounded: a log's client field is the attacker's
// (a host name as long as a line may be). The fleet tally keeps up to ten
// addresses of each of 65,536 strings; kept whole, lines of a megabyte
// held 640 GB. It keeps them cut as a client keeps its address.
func TestFleetKeepsAddressesBounded(t *testing.T) {
	var f fleetTally
	for _, n := range []int{MaxStoredClient + 1, 4096, 1 << 20} {
		for i := range fleetMinAddresses {
			host := fmt.Sprintf("%d-%s.example", i, strings.Repeat("a", n))
			r := &logparse.Record{Client: host, UserAgent: fmt.Sprintf("Scanner/%d", n), Method: "GET", Target: "/"}
			pf := newPathFacts(r.Path())
			f.count(r, r.Path(), &pf, resourcePage)
		}
	}
	for i := range f.entries {
		e := f.at(i)
		ua, addrs := f.text.string(e.ua), f.addresses(e)
		if len(addrs) != fleetMinAddresses {
			t.Errorf("%s: %d addresses kept, want %d (each one distinct)", ua, len(addrs), fleetMinAddresses)
		}
		for _, a := range addrs {
			if len(a) > MaxStoredClient {
				t.Errorf("%s: an address of %d bytes kept, want at most %d", ua, len(a), MaxStoredClient)
			}
		}
	}
}

// TestFleetRecentTellsStringsApart: strings alike where glanceHash looks
// (length, first, middle and last eight bytes) share a place in recent;
// taking turns, each is counted under its own entry, as find alone counts.
func TestFleetRecentTellsStringsApart(t *testing.T) {
	uas := []string{"Mozilla/5.0 (A) xxxxxxxxxxxx Gecko/1", "Mozilla/5.0 (B) xxxxxxxxxxxx Gecko/1",
		"Mozilla/5.0 (C) xxxxxxxxxxxx Gecko/1", "short", "shorT", ""}
	if glanceHash(uas[0]) != glanceHash(uas[1]) || glanceHash(uas[1]) != glanceHash(uas[2]) {
		t.Fatal("the strings were meant to look alike to glanceHash")
	}
	var f fleetTally
	want := map[string]int64{}
	for i := range 50 {
		ua := uas[(i*7)%len(uas)]
		r := &logparse.Record{Client: fmt.Sprintf("10.0.%d.1", i), UserAgent: ua, Method: "GET", Target: "/"}
		pf := newPathFacts(r.Path())
		f.count(r, r.Path(), &pf, resourcePage)
		if ua != "" {
			want[ua]++
		}
	}
	for ua, n := range want {
		if e := f.entry(ua); e == nil || e.requests != n {
			t.Errorf("%q: entry %+v, want %d requests", ua, e, n)
		}
	}
	if int(f.entries) != len(want) {
		t.Errorf("%d entries, want %d", f.entries, len(want))
	}
}

// TestFleetTallyAcrossChunks: the entries sit in chunks of fleetChunk;
// every string up to fleetMaxAgents keeps its own counts and addresses,
// whatever chunk it is in, and strings past the bound are not counted.
func TestFleetTallyAcrossChunks(t *testing.T) {
	var f fleetTally
	ua := func(i int) string { return fmt.Sprintf("Mozilla/5.0 (X11; Linux x86_64) Test/%d", i) }
	count := func(i, addr int) {
		r := &logparse.Record{Client: fmt.Sprintf("10.%d.%d.1", addr, i%250), UserAgent: ua(i), Method: "GET", Target: "/"}
		pf := newPathFacts(r.Path())
		f.count(r, r.Path(), &pf, resourcePage)
	}
	for i := range fleetMaxAgents + 10 {
		count(i, 0)
	}
	for i := 0; i < fleetMaxAgents+10; i += 97 {
		count(i, 1) // a second address, and a second request
	}
	if f.entries != fleetMaxAgents {
		t.Fatalf("%d entries, want %d", f.entries, fleetMaxAgents)
	}
	for i := range fleetMaxAgents + 10 {
		e := f.entry(ua(i))
		if i >= fleetMaxAgents {
			if e != nil {
				t.Fatalf("%s counted past the bound", ua(i))
			}
			continue
		}
		want := int64(1)
		if i%97 == 0 {
			want = 2
		}
		if e == nil || e.requests != want || int64(len(f.addresses(e))) != want || f.text.string(e.ua) != ua(i) {
			t.Fatalf("%s: entry %+v, want %d requests and addresses", ua(i), e, want)
		}
	}
}

// fleetsOfEveryKind is a tally of strings of 1 to 13 addresses, in one
// network or several, with and without assets or sign-up pages, host
// names and strings alike to glanceHash, and the strings to ask it of.
func fleetsOfEveryKind() (*fleetTally, []string) {
	f := new(fleetTally)
	var uas []string
	for n := range fleetMinAddresses + 3 {
		for _, kind := range []string{"one network", "networks", "asset", "account", "host names"} {
			ua := fmt.Sprintf("Mozilla/5.0 (Windows NT 10.0) Test/%d %s", n, kind)
			uas = append(uas, ua)
			for i := range n + 1 {
				ip := fmt.Sprintf("198.51.%d.%d", i%3, i+1)
				switch kind {
				case "one network":
					ip = fmt.Sprintf("198.51.100.%d", i+1)
				case "host names":
					ip = fmt.Sprintf("host-%d.example", i)
				}
				path, res := "/", resourcePage
				switch {
				case kind == "asset" && i == n:
					path, res = "/a.css", resourceAsset
				case kind == "account":
					path = "/wp-login.php"
				}
				r := &logparse.Record{Client: ip, UserAgent: ua, Method: "GET", Target: path}
				pf := newPathFacts(r.Path())
				f.count(r, r.Path(), &pf, res)
			}
		}
	}
	alike := []string{"Mozilla/5.0 (A) xxxxxxxxxxxx Gecko/1", "Mozilla/5.0 (B) xxxxxxxxxxxx Gecko/1"}
	for i := range fleetMinAddresses {
		r := &logparse.Record{Client: fmt.Sprintf("10.%d.0.1", i), UserAgent: alike[0], Method: "GET", Target: "/"}
		pf := newPathFacts(r.Path())
		f.count(r, r.Path(), &pf, resourcePage)
	}
	r := &logparse.Record{Client: "10.0.0.1", UserAgent: alike[1], Method: "GET", Target: "/"}
	pf := newPathFacts(r.Path())
	f.count(r, r.Path(), &pf, resourcePage)
	uas = append(uas, alike...)
	uas = append(uas, "never sent", "")
	return f, uas
}

// TestFleetManyAnswersAsEntry: fleet and accountFleet look a string up
// only if its bit in many says it may have come from fleetMinAddresses
// addresses; they answer as the entry found by find says, for strings of
// every number of addresses, in one network or several, with and without
// assets or sign-up pages, and strings alike to glanceHash.
func TestFleetManyAnswersAsEntry(t *testing.T) {
	f, uas := fleetsOfEveryKind()
	fleets := 0
	for _, ua := range uas {
		wantFleet, wantAccount := 0, 0
		if e := f.entry(ua); e != nil && f.spread(e) {
			wantFleet = int(e.n)
			if e.account*accountFleetDen >= e.requests*accountFleetNum {
				wantAccount = int(e.n)
			}
		}
		if got := f.fleet(ua); got != wantFleet {
			t.Errorf("%q: fleet %d, want %d", ua, got, wantFleet)
		}
		if got := f.accountFleet(ua); got != wantAccount {
			t.Errorf("%q: accountFleet %d, want %d", ua, got, wantAccount)
		}
		if wantFleet > 0 {
			fleets++
		}
	}
	if fleets < 4 {
		t.Errorf("%d fleets among the strings, want at least 4 (the test tests nothing)", fleets)
	}
}

// TestFleetFrozenAnswersAsCounted: a frozen tally (a Pool's, once closed)
// answers fleet and accountFleet for every string as the tally did, and
// lets go of its entries and index.
func TestFleetFrozenAnswersAsCounted(t *testing.T) {
	f, uas := fleetsOfEveryKind()
	fleet, account := map[string]int{}, map[string]int{}
	fleets := 0
	for _, ua := range uas {
		fleet[ua], account[ua] = f.fleet(ua), f.accountFleet(ua)
		if fleet[ua] > 0 && account[ua] > 0 {
			fleets++
		}
	}
	if fleets == 0 {
		t.Fatal("no account fleet among the strings: the test tests little")
	}
	f.freeze()
	f.freeze() // twice is once
	for _, ua := range uas {
		if got := f.fleet(ua); got != fleet[ua] {
			t.Errorf("%q: frozen fleet %d, want %d", ua, got, fleet[ua])
		}
		if got := f.accountFleet(ua); got != account[ua] {
			t.Errorf("%q: frozen accountFleet %d, want %d", ua, got, account[ua])
		}
	}
	if f.chunks != nil || f.index.slots != nil || f.more != nil {
		t.Error("a frozen tally holds its entries")
	}
	var none *fleetTally
	if none.fleet("x") != 0 || none.accountFleet("x") != 0 {
		t.Error("a nil tally answers")
	}
}
