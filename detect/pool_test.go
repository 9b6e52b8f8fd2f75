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
	time.Sleep(50 * time.Millisecond)
	if after := runtime.NumGoroutine(); after > before+2 {
		t.Errorf("%d goroutines after 20 early stops, %d before", after, before)
	}
}
