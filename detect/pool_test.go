package detect

import (
	"fmt"
	"runtime"
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

// TestClientListAllInOrder: a long list judged on several goroutines
// yields exactly the verdicts At gives, in order, and a reader that stops
// early leaves no goroutine behind.
func TestClientListAllInOrder(t *testing.T) {
	defer func(f func() int) { verdictWorkers = f }(verdictWorkers)
	verdictWorkers = func() int { return 4 } // whatever the machine's cores
	d := New(Config{})
	t0 := time.Date(2024, 5, 6, 10, 0, 0, 0, time.UTC)
	for i := range 10_000 {
		d.Add(&logparse.Record{Client: fmt.Sprintf("10.%d.%d.%d", i>>16, i>>8&255, i&255), UserAgent: fmt.Sprintf("agent-%d/1.0", i%37),
			Method: "GET", Target: fmt.Sprintf("/p%d", i%13), Status: 200, Time: t0.Add(time.Duration(i) * time.Millisecond)})
	}
	l := d.Result().Clients
	i := 0
	for v := range l.All() {
		if w := l.At(i); v.IP != w.IP || v.UserAgent != w.UserAgent || v.Score != w.Score || v.Name != w.Name {
			t.Fatalf("verdict %d: %s %s, At gives %s %s", i, v.IP, v.UserAgent, w.IP, w.UserAgent)
		}
		i++
	}
	if i != l.Len() {
		t.Fatalf("%d verdicts, list of %d", i, l.Len())
	}
	before := runtime.NumGoroutine()
	for range 20 {
		n := 0
		for range l.All() {
			if n++; n == 5000 {
				break
			}
		}
	}
	// The verdict workers of a stopped loop end by themselves: wait for
	// them, as long as a loaded machine (the race detector, other tests)
	// needs, and no longer; 20 loops leaking 4 workers each never get there.
	after := runtime.NumGoroutine()
	for deadline := time.Now().Add(10 * time.Second); after > before+2 && time.Now().Before(deadline); after = runtime.NumGoroutine() {
		time.Sleep(10 * time.Millisecond)
	}
	if after > before+2 {
		t.Errorf("%d goroutines after 20 early stops, %d before", after, before)
	}
}

// TestPoolShareOfCap: workers that share --max-clients hold places in
// proportion to their records, not to who reached the cap first. Here one
// worker's networks fill the cap before the other sees a record; the
// other's heavy client (200 requests of 5,200, far above records/places)
// must still be tracked whole, and the workers together keep to the cap.
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
			add(fmt.Sprintf("%s.%d", nets[w][i/250], i%250), fmt.Sprintf("flood-%d-%d/1.0", w, i))
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
		if heavy != 200 {
			t.Errorf("%d workers: heavy client tracked with %d requests, want 200", workers, heavy)
		}
		if n := res.Clients.Len(); n > places {
			t.Errorf("%d workers: %d clients tracked, cap %d", workers, n, places)
		}
		if tracked+res.Other.Requests != int64(len(recs)) {
			t.Errorf("%d workers: %d tracked + %d other requests, %d records", workers, tracked, res.Other.Requests, len(recs))
		}
	}
}
