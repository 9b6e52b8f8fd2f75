package detect

import (
	"fmt"
	"maps"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/logparse"
)

// TestPoolClockAsOnePass: a worker's records are judged against the log's
// clock as one pass over the whole log sets it, the other workers' records
// included: a record five minutes older than the one before it is late
// though it is the first its worker sees, and the counts match a single
// Detector's whatever the worker count.
func TestPoolClockAsOnePass(t *testing.T) {
	t0 := time.Date(2024, 5, 6, 10, 0, 0, 0, time.UTC)
	var recs []logparse.Record
	for i := range 40 {
		// Networks 192.0.i.0/24, one client each; every fifth record is
		// five minutes behind the clock.
		at := t0.Add(time.Duration(i) * time.Second)
		if i%5 == 4 {
			at = at.Add(-5 * time.Minute)
		}
		recs = append(recs, logparse.Record{Client: fmt.Sprintf("192.0.%d.1", i), UserAgent: "curl/8.0", Method: "GET",
			Target: "/", Status: 200, Time: at, Line: int64(i + 1)})
	}
	one := New(Config{})
	for i := range recs {
		one.Add(&recs[i])
	}
	want := one.Result()
	if want.LateRecords != 8 {
		t.Fatalf("one Detector: %d late records, want 8", want.LateRecords)
	}
	for _, workers := range []int{2, 3, 8} {
		p := NewPool(Config{}, workers)
		p.Add(recs[:17], nil, nil, nil)
		p.Add(recs[17:], nil, nil, nil)
		got := p.Result()
		if got.LateRecords != want.LateRecords || got.Records != want.Records || got.DistinctClients != want.DistinctClients {
			t.Errorf("%d workers: %d late, %d records, %d clients; one Detector: %d, %d, %d", workers,
				got.LateRecords, got.Records, got.DistinctClients, want.LateRecords, want.Records, want.DistinctClients)
		}
	}
}

// TestPoolShareOfCap: workers that share --max-clients hold places in
// proportion to their records, not to who reached the cap first. Here one
// worker's networks fill the cap before the other sees a record; the
// other's heavy client (200 requests of 5,200, far above records/places)
// must still be tracked, and the workers together keep to the cap. It may
// lose its first visits, made while its worker's part of the cap was that
// of its few records so far (3 places of 100): a part that followed the
// latest records instead would fold the first worker's heavy clients each
// time the traffic moved.
func TestPoolShareOfCap(t *testing.T) {
	const places = 100
	// Two sets of /24s, one for each of two workers.
	var nets [2][]string
	for i := 0; len(nets[0]) < 10 || len(nets[1]) < 11; i++ {
		n := fmt.Sprintf("10.%d.%d", i/256, i%256)
		if w := routeOf(n+".1") % 2; len(nets[w]) < 10+int(w) {
			nets[w] = append(nets[w], n)
		}
	}
	heavyNet := nets[1][10]
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	var recs []logparse.Record
	add := func(ip, ua string) {
		recs = append(recs, logparse.Record{Client: ip, UserAgent: ua, Method: "GET", Target: "/", Status: 200,
			Time: t0.Add(time.Duration(len(recs)) * time.Second)})
	}
	for w := range 2 {
		for i := range 2500 {
			add(fmt.Sprintf("%s.%d", nets[w][i/250], i%250), "flood/1.0") // distinct addresses; one User-agent to classify
			if w == 1 && i%25 == 0 {
				add(heavyNet+".7", "heavy/1.0")
				add(heavyNet+".7", "heavy/1.0")
			}
		}
	}
	for _, workers := range []int{2, 4} {
		p := NewPool(Config{MaxClients: places}, workers)
		for lo := 0; lo < len(recs); lo += 512 {
			p.Add(recs[lo:min(lo+512, len(recs))], nil, nil, nil)
		}
		res := p.Result()
		var tracked, heavy int64
		for v := range res.Clients.All() {
			tracked += v.Requests
			if v.IP == heavyNet+".7" {
				heavy = v.Requests
			}
		}
		if heavy < 190 {
			t.Errorf("%d workers: heavy client tracked with %d requests, want 190 to 200", workers, heavy)
		}
		if n := res.Clients.Len(); n > places {
			t.Errorf("%d workers: %d clients tracked, cap %d", workers, n, places)
		}
		if tracked+res.Other.Requests != int64(len(recs)) {
			t.Errorf("%d workers: %d tracked + %d other requests, %d records", workers, tracked, res.Other.Requests, len(recs))
		}
	}
}

// runPool runs recs through a Pool in batches of 500 and lists its
// tracked clients with their requests, and the folded requests.
func runPool(recs []logparse.Record, cfg Config, workers int) (map[string]int64, int64) {
	p := NewPool(cfg, workers)
	for lo := 0; lo < len(recs); lo += 500 {
		p.Add(recs[lo:min(lo+500, len(recs))], nil, nil, nil)
	}
	res := p.Result()
	got := map[string]int64{}
	for v := range res.Clients.All() {
		got[v.IP+" "+v.UserAgent] = v.Requests
	}
	return got, res.Other.Requests
}

// churn is n records from distinct clients over many networks (up to
// 800,000), every tenth from one of five heavy clients, one a second.
func churn(n int) []logparse.Record {
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	recs := make([]logparse.Record, n)
	for i := range recs {
		// One User-agent: classifying 20,000 would take most of the test.
		ip, ua := fmt.Sprintf("10.%d.%d.%d", i%13, i/13%256, i%251), "flood/1.0"
		if i%10 == 0 {
			ip, ua = fmt.Sprintf("192.0.%d.7", i/10%5), "heavy/1.0"
		}
		recs[i] = logparse.Record{Client: ip, UserAgent: ua, Method: "GET", Target: "/", Status: 200, Time: t0.Add(time.Duration(i) * time.Second)}
	}
	return recs
}

// TestPoolFoldsTheSameEveryRun: past --max-clients, which clients a Pool's
// workers fold does not depend on how fast each ran, so the same log gives
// the same report every time (cron diffs daily reports): the workers' parts
// of the cap are set where records are handed out, not raced for.
func TestPoolFoldsTheSameEveryRun(t *testing.T) {
	recs := churn(20_000)
	for _, workers := range []int{2, 3} {
		first, other := runPool(recs, Config{MaxClients: 300}, workers)
		if other == 0 || len(first) > 300 {
			t.Fatalf("%d workers: %d clients tracked, %d requests folded; want folding under a cap of 300", workers, len(first), other)
		}
		for run := range 4 {
			got, gotOther := runPool(recs, Config{MaxClients: 300}, workers)
			if gotOther != other || !maps.Equal(got, first) {
				t.Fatalf("%d workers, run %d: %d clients, %d folded; the first run %d, %d", workers, run+2, len(got), gotOther, len(first), other)
			}
		}
		for i := range 5 {
			if n := first[fmt.Sprintf("192.0.%d.7 heavy/1.0", i)]; n != 400 {
				t.Errorf("%d workers: heavy client %d tracked with %d requests, want 400", workers, i, n)
			}
		}
	}
}

// TestPoolExactNearCap: a log with nearly as many clients as the cap, in
// many batches, is read exactly by any number of workers: they fold
// nothing while their clients together stay under the cap, less a few
// places a worker (Pool.cut).
func TestPoolExactNearCap(t *testing.T) {
	const cap = 2000
	for _, workers := range []int{2, 3, 5} {
		margin := min(32*workers, cap/8)
		var recs []logparse.Record
		for _, r := range churn(2 * cap) {
			if r.UserAgent != "heavy/1.0" && len(recs) < 2*(cap-margin) {
				recs = append(recs, r, r) // cap - margin distinct clients, each twice
			}
		}
		for i := range recs {
			recs[i].Time = recs[0].Time.Add(time.Duration(i) * time.Second)
		}
		got, other := runPool(recs, Config{MaxClients: cap}, workers)
		var sum int64
		for _, n := range got {
			sum += n
		}
		if other != 0 || sum != int64(len(recs)) {
			t.Errorf("%d workers: %d clients with %d requests, %d folded; want all %d requests exact", workers, len(got), sum, other, len(recs))
		}
	}
}

// TestPoolCountsWatchedClients: watched clients (--client) are never
// folded but take places under the cap, in a Pool's workers as in one
// Detector: with more clients than the cap, watched ones included, every
// worker count folds and tracks at most the cap, not the cap and the
// watched clients on top (which --workers 1 never holds, so --workers 2
// folded nothing and still gave another report).
func TestPoolCountsWatchedClients(t *testing.T) {
	const cap = 970 // 900 clients and 100 watched: over the cap, under it less the margin without those
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	var recs []logparse.Record
	for round := range 3 {
		for i := range 1000 {
			ip := fmt.Sprintf("10.%d.%d.1", i/250, i%250)
			if i < 100 {
				ip = fmt.Sprintf("172.16.%d.1", i)
			}
			recs = append(recs, logparse.Record{Client: ip, UserAgent: "flood/1.0", Method: "GET", Target: "/", Status: 200, Time: t0.Add(time.Duration(round*1000+i) * time.Second)})
		}
	}
	watch := func(ip string) bool { return strings.HasPrefix(ip, "172.16.") }
	for _, workers := range []int{1, 2, 3} {
		got, other := runPool(recs, Config{MaxClients: cap, Watch: watch}, workers)
		var sum int64
		watched := 0
		for k, n := range got {
			sum += n
			if strings.HasPrefix(k, "172.16.") {
				watched++
			}
		}
		if len(got) > cap || other == 0 || sum+other != int64(len(recs)) || watched != 100 {
			t.Errorf("%d workers: %d clients (%d watched) with %d requests, %d folded; want at most %d clients, some folded, all 100 watched, %d requests in all",
				workers, len(got), watched, sum, other, cap, len(recs))
		}
	}
}

// TestPoolLetsTheWorkersPartsGo: once the workers' results are merged,
// the rows the merge copied are the merged result's alone; the workers,
// which live as long as the Pool, hold none of them (on a botnet's log
// their networks alone were 18 MB).
func TestPoolLetsTheWorkersPartsGo(t *testing.T) {
	at := time.Date(2024, 5, 6, 10, 0, 0, 0, time.UTC)
	var recs []logparse.Record
	for i := range 64 {
		recs = append(recs, logparse.Record{Client: fmt.Sprintf("203.0.%d.7", i), UserAgent: "curl/8.5.0", Method: "GET",
			Target: "/", Status: 200, Time: at.Add(time.Duration(i) * time.Second), Line: int64(i + 1)})
	}
	p := NewPool(Config{}, 2)
	p.Add(recs, nil, nil, nil)
	got := p.Result()
	if got.Networks.Len() != 64 {
		t.Fatalf("%d networks merged, want 64", got.Networks.Len())
	}
	for k, d := range p.dets {
		r := d.result
		for _, part := range []struct {
			name string
			n    int
		}{{"networks", r.Networks.Len()}, {"operators", len(r.Operators)}, {"edges", len(r.Edges)}, {"robots", len(r.Robots)}, {"clients", r.Clients.Len()}, {"violations", r.Violations.Len()}} {
			if part.n != 0 {
				t.Errorf("worker %d still holds %d %s after the merge", k, part.n, part.name)
			}
		}
	}
}

// TestSortClientsAsClientBefore: the sort keys (request count, then the
// address's first sixteen bytes) order clients as clientBefore does, with
// addresses that share a prefix of any length, run past sixteen bytes,
// hold a zero byte or are one another's prefix, and clients of one address
// told apart by their User-agents; parked clients among them.
func TestSortClientsAsClientBefore(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	prefixes := []string{"203.0.113.", "203.0.11", "2001:db8:0:0:1:", "2001:db8::", "host-", "", "1.2.3.4\x00", "10.0.0.1"}
	tb := clientTable{owner: testOwner()}
	for range 5000 {
		ip := prefixes[rng.IntN(len(prefixes))] + strconv.Itoa(rng.IntN(300))
		if rng.IntN(10) == 0 {
			ip = ip[:rng.IntN(len(ip)+1)]
		}
		ua := fmt.Sprintf("agent/%d", rng.IntN(4))
		if c, _ := tb.find(ip, ua); c != nil {
			continue
		}
		_, h := tb.find(ip, ua)
		c, at := tb.fresh()
		requests := uint32(1 + rng.IntN(3))
		if rng.IntN(20) == 0 { // counts that differ in their higher bytes too
			requests = uint32(rng.Int64N(1 << 32))
		}
		*c = client{ip: ip, ua: tb.owner.agent(ua), requests: requests, evict: evictSlot{at: -1}}
		tb.put(at, h)
		if rng.IntN(2) == 0 {
			tb.park(c)
		}
	}
	if tb.parks.used == 0 {
		t.Fatal("no client parked")
	}
	got := sortClients(&tb)
	var want []clientRef
	for r := range tb.places() {
		want = append(want, r)
	}
	slices.SortFunc(want, func(a, b clientRef) int {
		switch {
		case a == b:
			return 0
		case clientBefore(a, b):
			return -1
		}
		return 1
	})
	if len(got) != len(want) {
		t.Fatalf("%d clients sorted, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("place %d: %q %q, want %q %q", i, got[i].ip(), got[i].agent().ua, want[i].ip(), want[i].agent().ua)
		}
	}
}

// TestMergeSortedAsOneSort: merging sorted lists from both ends gives the
// one sorted list of all their clients, with each client's plain mark,
// for any number of lists and clients (the halves meet at any place),
// parked or not.
func TestMergeSortedAsOneSort(t *testing.T) {
	o := testOwner()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, size := range []int{0, 1, 2, 63, 64, 65, 130, 300, 1000, 5000} {
		for parts := 1; parts <= 3; parts++ {
			var all []clientRef
			plain := map[clientRef]bool{}
			lists := make([]*passClients, parts)
			for k := range lists {
				lists[k] = &passClients{}
			}
			for i := range size {
				ip := fmt.Sprintf("203.0.%d.%d", rng.IntN(4), rng.IntN(300))
				c := clientRef{c: &client{ip: ip, ua: o.agent(fmt.Sprintf("agent/%d", i)), requests: uint32(1 + rng.IntN(3))}}
				if p := parkedIn(o); rng.IntN(2) == 0 && p.pack(c.c, o) {
					c = clientRef{p: p}
				}
				all = append(all, c)
				plain[c] = rng.IntN(3) == 0
				k := rng.IntN(parts)
				lists[k].clients = append(lists[k].clients, c)
			}
			sortByClientBefore := func(cs []clientRef) {
				slices.SortFunc(cs, func(a, b clientRef) int {
					if a == b {
						return 0
					}
					if clientBefore(a, b) {
						return -1
					}
					return 1
				})
			}
			for _, l := range lists {
				sortByClientBefore(l.clients)
				l.plain = newClientBits(len(l.clients))
				for i, c := range l.clients {
					if plain[c] {
						l.plain.set(i)
					}
				}
			}
			sortByClientBefore(all)
			got := mergeSorted(lists, size)
			if len(got.clients) != len(all) {
				t.Fatalf("%d clients in %d lists: %d merged", size, parts, len(got.clients))
			}
			for i, c := range all {
				if got.clients[i] != c || got.plain.has(i) != plain[c] {
					t.Fatalf("%d clients in %d lists: place %d is %q (plain %v), want %q (plain %v)",
						size, parts, i, got.clients[i].agent().ua, got.plain.has(i), c.agent().ua, plain[c])
				}
			}
		}
	}
}

// TestPoolCallsJudgedOnce: Config.Judged is called once, when the workers
// have judged their clients and before the merge, by a Pool of more than
// one worker (one has nothing to merge).
func TestPoolCallsJudgedOnce(t *testing.T) {
	for _, workers := range []int{1, 2, 3} {
		n := 0
		p := NewPool(Config{Judged: func() { n++ }}, workers)
		p.Add(churn(2000), nil, nil, nil)
		res := p.Result()
		p.Result()
		want := 1
		if workers == 1 {
			want = 0
		}
		if n != want || res.Clients.Len() == 0 {
			t.Errorf("%d workers: Judged called %d times, want %d (%d clients)", workers, n, want, res.Clients.Len())
		}
	}
}

// TestSortTiedKeysInNLogN: clients whose keys tie on every byte (one
// address behind a proxy with a User-agent each, all of one request) are
// sorted in n log n comparisons, not n squared by insertion (100,000
// took 4.8 s so, 0.05 s by pdqsort), and in clientBefore's order.
func TestSortTiedKeysInNLogN(t *testing.T) {
	tb := clientTable{owner: testOwner()}
	const n = 20_000
	for i := range n {
		ip, ua := "10.0.0.1", "Mozilla/5.0 Agent/"+strconv.Itoa(i)
		_, h := tb.find(ip, ua)
		c, at := tb.fresh()
		*c = client{ip: ip, ua: tb.owner.agent(ua), requests: 1, evict: evictSlot{at: -1}}
		tb.put(at, h)
	}
	calls := 0
	defer func(f func(*clientTable, *leadKey, *leadKey) int) { compareTied = f }(compareTied)
	compareTied = func(t *clientTable, a, b *leadKey) int {
		calls++
		return compareLeadKeys(t, a, b)
	}
	got := sortClients(&tb)
	// pdqsort makes about n log2 n comparisons (n 20,000: 286,000); by
	// insertion it would be about n*n/4 (100 million).
	if most := 2 * n * bits.Len(n); calls == 0 || calls > most {
		t.Errorf("%d clients of tied keys sorted in %d comparisons, want 1 to %d", n, calls, most)
	}
	for i := 1; i < len(got); i++ {
		if !clientBefore(got[i-1], got[i]) {
			t.Fatalf("place %d: %q before %q", i, got[i-1].agent().ua, got[i].agent().ua)
		}
	}
}

// TestRouteOfByNetwork: the addresses of one network go to one worker
// (the verdicts look at a network whole), whichever way the address is
// written, and an IPv4 address or a host name goes by the text before
// its last dot.
func TestRouteOfByNetwork(t *testing.T) {
	for _, tt := range []struct{ a, b string }{
		{"192.0.2.1", "192.0.2.254"},
		{"192.0.2.1", "::ffff:192.0.2.77"},
		{"2001:db8:1::1", "2001:db8:1:ffff::2"},
		{"crawl-66-249-66-1.googlebot.com", "crawl-66-249-66-1.googlebot.net"},
	} {
		if routeOf(tt.a) != routeOf(tt.b) {
			t.Errorf("%s and %s routed apart", tt.a, tt.b)
		}
	}
	for _, addr := range []string{"192.0.2.1", "10.0.0.255", "1.2.3", "a.b", "host.example.org"} {
		if got, want := routeOf(addr), fnv32(addr[:strings.LastIndexByte(addr, '.')]); got != want {
			t.Errorf("routeOf(%q) = %x, want fnv32 of its text before the last dot, %x", addr, got, want)
		}
	}
	if routeOf("192.0.2.1") == routeOf("192.0.3.1") && routeOf("192.0.3.1") == routeOf("192.0.4.1") {
		t.Error("three networks share a route: the hash reads no more than the first two numbers")
	}
}
