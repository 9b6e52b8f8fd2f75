package detect

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

// floodIP is the address of the i-th client of a flood: distinct for every
// i below 2^32.
func floodIP(i int) string {
	return strconv.Itoa(1+(i>>24)&255) + "." + strconv.Itoa((i>>16)&255) + "." + strconv.Itoa((i>>8)&255) + "." + strconv.Itoa(i&255)
}

// TestMaxClientsKeepsTheHeaviest floods a capped Detector with one-request
// clients among which heavy clients come and go, some of them only after
// the cap was reached: every heavy client must come out with its exact
// counts, and nothing may be lost or counted twice.
func TestMaxClientsKeepsTheHeaviest(t *testing.T) {
	const (
		maxClients = 200
		flood      = 40000
		heavy      = 20 // half from the start, half arriving once the flood filled the table
		perHeavy   = 300
	)
	d := New(Config{MaxClients: maxClients})
	rec := logparse.Record{Method: "GET", Target: "/", Status: 200, Bytes: 100, UserAgent: chromeUA}
	records := 0
	add := func(ip string, sec int) {
		rec.Client, rec.Time = ip, t0.Add(time.Duration(sec)*time.Second)
		d.Add(&rec)
		records++
	}
	heavyIP := func(h int) string { return fmt.Sprintf("192.0.2.%d", h) }
	sent := make([]int, heavy)
	for i := 0; i < flood; i++ {
		add(floodIP(i), i/10)
		// Heavy client h starts at flood client h*1000 (the late ones when
		// the table has long been full) and spreads its requests evenly to
		// the end: each makes more than records/maxClients requests, the
		// share Space-Saving guarantees to keep.
		for h := 0; h < heavy; h++ {
			start := h * 1000
			if h < heavy/2 {
				start = h
			}
			if every := (flood - start) / perHeavy; i >= start && (i-start)%every == 0 && sent[h] < perHeavy {
				add(heavyIP(h), i/10)
				sent[h]++
			}
		}
	}
	res := d.Result()

	byIP := map[string]findings.Verdict{}
	var tracked int64
	for v := range res.Clients.All() {
		byIP[v.IP] = v
		tracked += v.Requests
	}
	if records/maxClients >= perHeavy {
		t.Fatalf("test set-up: %d records / %d clients >= %d requests per heavy client", records, maxClients, perHeavy)
	}
	for h := 0; h < heavy; h++ {
		if sent[h] < perHeavy {
			t.Fatalf("test set-up: heavy client %d made only %d requests", h, sent[h])
		}
		v, ok := byIP[heavyIP(h)]
		if !ok {
			t.Errorf("heavy client %s (%d requests) was folded away", heavyIP(h), sent[h])
			continue
		}
		if v.Requests != int64(sent[h]) {
			t.Errorf("heavy client %s: %d requests, want exactly %d", heavyIP(h), v.Requests, sent[h])
		}
	}
	if res.Clients.Len() > maxClients {
		t.Errorf("%d clients tracked, cap %d", res.Clients.Len(), maxClients)
	}
	if tracked+res.Other.Requests != int64(records) || res.Records != int64(records) {
		t.Errorf("tracked %d + other %d != %d records (Result.Records %d): requests lost or counted twice",
			tracked, res.Other.Requests, records, res.Records)
	}
	if res.Other.Bytes != 100*res.Other.Requests {
		t.Errorf("other bytes %d for %d requests of 100 bytes", res.Other.Bytes, res.Other.Requests)
	}
	// Every flood client made one request: those not tracked were folded.
	folded := float64(flood - (res.Clients.Len() - heavy))
	if got := float64(res.Other.Clients); math.Abs(got-folded) > 0.05*folded {
		t.Errorf("other clients estimated %v, want %v within 5%%", got, folded)
	}

	// The timeline keeps every request, and puts the folded ones in Other.
	var total, other int64
	for i, n := range res.Timeline.Requests {
		total += n
		other += res.Timeline.Other[i]
		if res.Timeline.Robots[i]+res.Timeline.Humans[i]+res.Timeline.Other[i] != n {
			t.Fatalf("bucket %d: robots %d + humans %d + other %d != %d requests", i,
				res.Timeline.Robots[i], res.Timeline.Humans[i], res.Timeline.Other[i], n)
		}
	}
	if total != int64(records) || other != res.Other.Requests {
		t.Errorf("timeline: %d requests, %d other; want %d and %d", total, other, records, res.Other.Requests)
	}
}

// TestMaxClientsAccounting checks the eviction's bookkeeping on a small
// table: the lightest client goes, a returning client starts afresh, a
// watched client stays, and User-agents of evicted clients are forgotten.
func TestMaxClientsAccounting(t *testing.T) {
	const watched = "198.51.100.7"
	d := New(Config{MaxClients: 3, Watch: func(ip string) bool { return ip == watched }})
	seq := []req{
		{ip: watched, ua: "w/1", sec: 0, path: "/"},
		{ip: "10.0.0.1", ua: "a/1", sec: 1, path: "/"},
		{ip: "10.0.0.1", ua: "a/1", sec: 2, path: "/"},
		{ip: "10.0.0.2", ua: "b/1", sec: 3, path: "/"}, // table full: watched, .1 (2), .2 (1)
		{ip: "10.0.0.3", ua: "c/1", sec: 4, path: "/"}, // evicts .2, the lightest
		{ip: "10.0.0.2", ua: "b/1", sec: 5, path: "/"}, // back: evicts .3 (weight 2 vs .1's 2: fewer of its own)
		{ip: watched, ua: "w/1", sec: 6, path: "/"},
	}
	for _, q := range seq {
		d.Add(q.record())
	}
	if d.uas.get("c/1") != nil {
		t.Error("the User-agent of an evicted client is still interned")
	}
	if d.uas.len() != d.clients.len() {
		t.Errorf("%d User-agents interned for %d clients", d.uas.len(), d.clients.len())
	}
	res := d.Result()
	got := map[string]int64{}
	for v := range res.Clients.All() {
		got[v.IP] = v.Requests
	}
	want := map[string]int64{watched: 2, "10.0.0.1": 2, "10.0.0.2": 1}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("tracked %v, want %v", got, want)
	}
	if res.Other.Requests != 2 || res.Other.Clients != 2 {
		t.Errorf("other %+v, want 2 requests of 2 clients (.2's first, .3's)", res.Other)
	}
	if len(res.Watched) != 1 || len(res.Watched[0].First) != 2 {
		t.Errorf("watched client's drill-down lost requests: %+v", res.Watched)
	}
}

// TestMaxClientsFloodMemory feeds 1 million distinct clients, each with a
// User-agent of its own, to a Detector capped at 10,000 clients: the heap
// it holds must not grow between the first quarter million and the end.
func TestMaxClientsFloodMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("1 million records")
	}
	const maxClients = 10000
	d := New(Config{MaxClients: maxClients})
	rec := logparse.Record{Method: "GET", Target: "/", Status: 200, Bytes: 100}
	var ua []byte
	feed := func(from, to int) {
		for i := from; i < to; i++ {
			ua = strconv.AppendInt(append(ua[:0], "bot-"...), int64(i), 10)
			rec.Client, rec.UserAgent = floodIP(i), string(ua)
			rec.Time = t0.Add(time.Duration(i) * time.Millisecond)
			d.Add(&rec)
		}
	}
	total := 1000000
	if raceEnabled {
		total = 200000
	}
	feed(0, total/4)
	mid := heapInUse()
	feed(total/4, total)
	end := heapInUse()
	runtime.KeepAlive(d)
	if d.clients.len() > maxClients || d.uas.len() > maxClients {
		t.Errorf("%d clients, %d User-agents held; cap %d", d.clients.len(), d.uas.len(), maxClients)
	}
	if grown := end - mid; grown > 4<<20 {
		t.Errorf("heap grew by %d bytes over %d more clients (from %d to %d)", grown, total*3/4, mid, end)
	}
	if res, want := d.Result(), float64(total-maxClients); math.Abs(float64(res.Other.Clients)-want) > 0.05*want {
		t.Errorf("folded clients estimated %d, want about %v", res.Other.Clients, want)
	}
}

// BenchmarkFlood10M replays 10 million distinct client addresses through a
// Detector capped at DefaultMaxClientsBench clients and reports the heap it
// holds at the end: bounded by the cap, not by the flood.
func BenchmarkFlood10M(b *testing.B) {
	const flood = 10_000_000
	rec := logparse.Record{Method: "GET", Target: "/", Status: 200, Bytes: 5120}
	for _, maxClients := range []int{100_000, 250_000} {
		b.Run(strconv.Itoa(maxClients), func(b *testing.B) {
			b.ReportAllocs()
			for n := 0; n < b.N; n++ {
				before := heapInUse()
				d := New(Config{MaxClients: maxClients})
				for i := 0; i < flood; i++ {
					rec.Client, rec.UserAgent = floodIP(i), benchUAs[i%len(benchUAs)]
					rec.Time = t0.Add(time.Duration(i) * 100 * time.Microsecond)
					d.Add(&rec)
				}
				after := heapInUse()
				b.ReportMetric(float64(after-before)/(1<<20), "MiB-held")
				b.ReportMetric(float64(after-before)/float64(maxClients), "bytes/client")
				runtime.KeepAlive(d)
			}
		})
	}
}

// BenchmarkAddSteadyStateCapped is BenchmarkAddSteadyState under a client
// cap, as the CLI runs: the eviction heap must keep the per-line path free
// of allocations.
func BenchmarkAddSteadyStateCapped(b *testing.B) { benchmarkAdd(b, Config{MaxClients: 250_000}) }

// TestMaxClientsRobotsCountedOnce: three robots taking turns under a cap
// of two are folded again and again; each is one robot, not one a fold
// (a 300-line log of 3 clients said "300 robots").
func TestMaxClientsRobotsCountedOnce(t *testing.T) {
	for _, workers := range []int{1, 2} {
		p := NewPool(Config{MaxClients: 2 * workers}, workers)
		var recs []logparse.Record
		t0 := time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC)
		for i := range 300 {
			recs = append(recs, logparse.Record{Client: fmt.Sprintf("192.0.%d.1", 2+i%3), UserAgent: "curl/8.4.0", Method: "GET", Target: fmt.Sprintf("/page%d", i), Status: 200, Time: t0.Add(time.Duration(i*5) * time.Second)})
		}
		p.Add(recs, nil, nil, nil)
		res := p.Result()
		if res.RobotCount != 3 || res.Other.Robots > 3 {
			t.Errorf("%d workers: %d robots (other %d), want 3", workers, res.RobotCount, res.Other.Robots)
		}
	}
}

// TestMaxClientsWorkersShareTheCap: a log with as many clients as the cap
// (less a place kept for each worker but one) is read exactly whatever the
// worker count, though its networks do not fall evenly to the workers.
func TestMaxClientsWorkersShareTheCap(t *testing.T) {
	var recs []logparse.Record
	t0 := time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC)
	for i := range 300 {
		recs = append(recs, logparse.Record{Client: fmt.Sprintf("10.%d.%d.9", i%7, i), UserAgent: "Mozilla/5.0", Method: "GET", Target: "/", Status: 200, Time: t0.Add(time.Duration(i) * time.Second)})
	}
	for _, workers := range []int{1, 2, 3, 5} {
		p := NewPool(Config{MaxClients: 300 + workers - 1}, workers) // a place kept for each other worker's first client
		p.Add(recs, nil, nil, nil)
		res := p.Result()
		if res.Other.Requests != 0 || res.ClientsEstimated || res.Clients.Len() != 300 {
			t.Errorf("%d workers: %d clients listed, other %+v, estimated %v; want all 300 exact", workers, res.Clients.Len(), res.Other, res.ClientsEstimated)
		}
	}
}

// TestSeenClientsAtTheEnd: the distinct clients admitted, counted at the
// end from the folded clients and the held ones, are counted register for
// register as when every admission added its client, on a pass that folds
// clients, brings some back and folds them again.
func TestSeenClientsAtTheEnd(t *testing.T) {
	d := New(Config{MaxClients: 50})
	var every distinctCount
	for i := range 3000 {
		ip, ua := fmt.Sprintf("192.0.2.%d", i*7%211), fmt.Sprintf("agent/%d", i%13)
		d.Add(&logparse.Record{Client: ip, UserAgent: ua, Method: "GET", Target: "/", Status: 200, Time: t0.Add(time.Duration(i) * time.Second)})
		every.add(clientHash(ip, ua))
	}
	if d.other.Requests == 0 {
		t.Fatal("the fixture folds no client")
	}
	var held distinctCount
	for c := range d.clients.all() {
		held.add(clientHash(c.ip, c.ua.ua))
	}
	if u := d.otherClients.union(&held); !slices.Equal(u.reg, every.reg) {
		t.Error("the folded and held clients' count differs from the count of every admission")
	}
	if got, want := d.Result().DistinctClients, every.estimate(); got != want {
		t.Errorf("Result's DistinctClients %d, want %d", got, want)
	}
}

// TestSiftsAsSwaps: the eviction heap's sifts leave every client where a
// run of swaps would (the order among equal weights decides what folds),
// over pushes, requests counted and the lightest taken, with many ties.
func TestSiftsAsSwaps(t *testing.T) {
	d := &Detector{}
	var ref []*client
	refLess := func(i, j int) bool {
		a, b := entryOf(ref[i], 0), entryOf(ref[j], 0)
		return lighter(&a, &b)
	}
	h := &d.clients.heap
	at := func(i int) *client { return d.clients.record((*h)[i].place) }
	refSwap := func(i, j int) {
		ref[i], ref[j] = ref[j], ref[i]
		ref[i].evict.at, ref[j].evict.at = int32(i), int32(j)
	}
	refUp := func(i int) {
		for i > 0 {
			p := (i - 1) / 2
			if !refLess(i, p) {
				return
			}
			refSwap(i, p)
			i = p
		}
	}
	refDown := func(i int) {
		for {
			l, m := 2*i+1, 2*i+1
			if l >= len(ref) {
				return
			}
			if r := l + 1; r < len(ref) && refLess(r, l) {
				m = r
			}
			if !refLess(m, i) {
				return
			}
			refSwap(i, m)
			i = m
		}
	}
	rnd := uint64(7)
	for step := range 20000 {
		rnd = rnd*6364136223846793005 + 1442695040888963407
		switch k := rnd >> 33; {
		case k%5 < 2 || len(ref) == 0: // a new client
			id := fmt.Sprint(step)
			floor := uint32(rnd >> 40 % 3)
			a, place := d.clients.fresh()
			a.ip, a.evict = id, evictSlot{at: int32(len(ref)), floor: floor}
			b := &client{ip: id, evict: evictSlot{at: int32(len(ref)), floor: floor}}
			*h = append(*h, entryOf(a, place))
			d.siftUp(len(*h) - 1)
			ref = append(ref, b)
			refUp(len(ref) - 1)
		case k%5 < 4: // a request of a client
			i := int(rnd >> 45 % uint64(len(ref)))
			at(i).requests++
			ref[i].requests++
			d.touched(at(i))
			refDown(i)
		default: // the lightest taken
			last := len(ref) - 1
			(*h)[0] = (*h)[last]
			*h = (*h)[:last]
			ref[0] = ref[last]
			ref = ref[:last]
			if last > 0 {
				at(0).evict.at, ref[0].evict.at = 0, 0
				d.siftDown(0)
				refDown(0)
			}
		}
		if step%64 != 0 {
			continue
		}
		for i := range ref {
			if at(i).ip != ref[i].ip || at(i).evict.at != int32(i) {
				t.Fatalf("step %d: place %d holds %s (at %d), swaps put %s there", step, i, at(i).ip, at(i).evict.at, ref[i].ip)
			}
		}
	}
}

// hashTestClients is n clients of User-agents of many lengths, the empty
// one among them.
func hashTestClients(n int) []*client {
	out := make([]*client, n)
	for i := range out {
		ua := fmt.Sprintf("Mozilla/5.0 (X11; Linux x86_64; rv:%d.0) Gecko/20100101 Firefox/%d", i%97, i)
		ua = ua[:(i*7)%(len(ua)+1)]
		out[i] = &client{ip: fmt.Sprintf("198.51.%d.%d", i%256, i%7), ua: &agentInfo{ua: ua}}
	}
	return out
}

// TestAgentHashes4AsPathHash: hashing four User-agents side by side gives
// each one's pathHash, of which clientHash is made.
func TestAgentHashes4AsPathHash(t *testing.T) {
	cs := hashTestClients(4000)
	for i := 0; i+4 <= len(cs); i++ {
		var batch [4]string
		for k, c := range [4]*client{cs[i], cs[(i*13)%len(cs)], cs[(i*31)%len(cs)], cs[(i*7+1)%len(cs)]} {
			batch[k] = c.ua.ua
		}
		got := agentHashes4(&batch)
		for k, ua := range batch {
			if want := pathHash(ua); got[k] != want {
				t.Fatalf("User-agent %q: %x, want %x", ua, got[k], want)
			}
		}
	}
	if got, want := mixClientHash(pathHash("192.0.2.1"), pathHash("agent")), clientHash("192.0.2.1", "agent"); got != want {
		t.Errorf("mixClientHash %x, clientHash %x", got, want)
	}
}

// BenchmarkClientHashes compares hashing clients one at a time
// (one-by-one) and four side by side (by-four).
func BenchmarkClientHashes(b *testing.B) {
	cs := hashTestClients(4096)
	for i, c := range cs { // browser strings of full length, as a churn log's
		c.ua.ua = fmt.Sprintf("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/1%02d.0.%d.95 Safari/537.36", i%30, i)
	}
	keys := make([]clientKey, len(cs))
	uas := make([]string, len(cs))
	for i, c := range cs {
		keys[i], uas[i] = clientKey{c.ip, c.ua.ua}, c.ua.ua
	}
	var sink uint64
	b.Run("one-by-one", func(b *testing.B) {
		for b.Loop() {
			for _, k := range keys {
				sink += clientHash(k.ip, k.ua)
			}
		}
	})
	b.Run("by-four", func(b *testing.B) {
		for b.Loop() {
			for i := 0; i+4 <= len(cs); i += 4 {
				for k, h := range agentHashes4((*[4]string)(uas[i : i+4])) {
					sink += mixClientHash(pathHash(keys[i+k].ip), h)
				}
			}
		}
	})
	_ = sink
}
