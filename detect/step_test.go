package detect

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/robowatch/robowatch/logparse"
)

// stepLog is a log for the step tests: clients browsing one a second for
// an hour from t0, then the records of after (seconds after t0, in order),
// and a scraper's burst of 300 requests in 10 s at burstAt.
func stepLog(after []int, burstAt int) []logparse.Record {
	var recs []logparse.Record
	add := func(ip, ua, path string, sec int) {
		r := req{ip: ip, ua: ua, sec: sec, path: path}.record()
		recs = append(recs, *r)
	}
	for s := range 3600 {
		add(fmt.Sprintf("10.7.%d.1", s%40), chromeUA, "/", s)
	}
	for _, s := range after {
		if s == burstAt {
			for i := range 300 {
				add("192.0.2.66", scraperUA, fmt.Sprintf("/item/%d", i), s+i/30)
			}
			continue
		}
		add(fmt.Sprintf("10.7.%d.1", s%40), chromeUA, "/", s)
	}
	return recs
}

// seconds returns from, from+1, ... to-1.
func seconds(from, to int) []int {
	var s []int
	for i := from; i < to; i++ {
		s = append(s, i)
	}
	return s
}

// TestClockStepBack: when the log's time goes back for good (a server
// clock set back, two servers' logs read one after the other), the rate
// windows follow it and a burst after the step is an incident; a few
// records written late are no step and stay late.
func TestClockStepBack(t *testing.T) {
	for _, tt := range []struct {
		name      string
		after     []int // seconds after the first hour's traffic
		burstAt   int
		newInput  bool // NewInput before the records after the hour
		incidents int
		late      int64
		steps     int64
	}{
		{"clock set back 30 min, burst a minute later", append(seconds(1800, 1860), seconds(1860, 1861+600)...), 1860, false, 1, stepRecords - 1, 1},
		{"second input of the same hour, burst in it", append(seconds(0, 60), seconds(60, 1200)...), 60, true, 1, 0, 1},
		// Long downloads that Apache logs at their end, with their start
		// time: a few, between records in order.
		{"a few late records are no step", []int{3600, 3000, 3601, 3001, 3602, 3002, 3603}, -1, false, 0, 3, 0},
		{"fewer than stepRecords in a row are late", seconds(3000, 3000+stepRecords-1), -1, false, 0, stepRecords - 1, 0},
		{"clock set forward: nothing late", seconds(7200, 7300), 7200, false, 1, 0, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			recs := stepLog(tt.after, tt.burstAt)
			d := New(Config{})
			for i := range recs {
				if tt.newInput && i == 3600 {
					d.NewInput()
				}
				d.Add(&recs[i])
			}
			res := d.Result()
			if len(res.Incidents) != tt.incidents || res.LateRecords != tt.late || d.Steps() != tt.steps {
				t.Fatalf("%d incidents, %d late, %d steps; want %d, %d, %d (incidents %+v)",
					len(res.Incidents), res.LateRecords, d.Steps(), tt.incidents, tt.late, tt.steps, res.Incidents)
			}
			if tt.incidents > 0 && (res.Incidents[0].IP != "192.0.2.66" || res.Incidents[0].Requests != 300) {
				t.Errorf("incident %+v, want the scraper's 300 requests", res.Incidents[0])
			}
		})
	}
}

// TestPoolStepsAsOnePass: a Pool follows the clock's steps back as one
// Detector does, whatever the worker count and wherever the batches are
// cut: the same incidents, peaks and late records.
func TestPoolStepsAsOnePass(t *testing.T) {
	// Two steps: the clock set back 30 min with a burst after it, then a
	// second input of the same hour with a burst of its own.
	recs := stepLog(append(seconds(1800, 1860), seconds(1860, 1861+300)...), 1860)
	second := len(recs)
	for s := range 600 {
		r := req{ip: fmt.Sprintf("10.7.%d.1", s%40), ua: chromeUA, sec: s, path: "/"}.record()
		recs = append(recs, *r)
	}
	for i := range 300 {
		r := req{ip: "192.0.2.67", ua: scraperUA, sec: 600 + i/30, path: fmt.Sprintf("/p/%d", i)}.record()
		recs = append(recs, *r)
	}
	one := New(Config{})
	for i := range recs {
		if i == second {
			one.NewInput()
		}
		one.Add(&recs[i])
	}
	want := one.Result()
	if len(want.Incidents) != 2 || one.Steps() != 2 {
		t.Fatalf("one Detector: %d incidents, %d steps; want 2 and 2", len(want.Incidents), one.Steps())
	}
	for _, workers := range []int{2, 3, 8} {
		for _, cut := range []int{1000, 3601, 4000} {
			p := NewPool(Config{}, workers)
			p.Add(recs[:cut], nil, nil, nil)
			p.Add(recs[cut:second], nil, nil, nil)
			p.NewInput()
			p.Add(recs[second:], nil, nil, nil)
			got := p.Result()
			if p.Steps() != 2 || got.LateRecords != want.LateRecords || !reflect.DeepEqual(got.Incidents, want.Incidents) {
				t.Errorf("%d workers, cut at %d: %d steps, %d late, incidents %+v; one Detector: 2, %d, %+v",
					workers, cut, p.Steps(), got.LateRecords, got.Incidents, want.LateRecords, want.Incidents)
			}
			for i := range want.Clients.Len() {
				if g, w := got.Clients.At(i), want.Clients.At(i); g.IP != w.IP || g.Peak != w.Peak || g.Requests != w.Requests {
					t.Errorf("%d workers: client %s peak %+v, one Detector %s %+v", workers, g.IP, g.Peak, w.IP, w.Peak)
				}
			}
		}
	}
}

// TestActiveIndexAfterClockStep: a client whose rate window restarts when
// the log's clock steps back keeps its window, and its place among the
// active clients with it; folding it afterwards takes it, not another,
// off the active list.
func TestActiveIndexAfterClockStep(t *testing.T) {
	d := New(Config{MaxClients: 2})
	add := func(ip string, at time.Time) {
		d.Add(&logparse.Record{Client: ip, UserAgent: curlUA, Method: "GET", Target: "/", Status: 200, Time: at})
	}
	for i := range 5 {
		add("192.0.2.1", t0.Add(time.Duration(i)*time.Second))
	}
	add("192.0.2.2", t0.Add(5*time.Second))
	d.NewInput()
	add("192.0.2.2", t0.Add(-time.Hour)) // the clock steps back: its window restarts
	add("192.0.2.3", t0.Add(-time.Hour)) // folds the lightest, 192.0.2.2
	for i, c := range d.active {
		if c.rate.window == nil || int(c.rate.window.active) != i {
			t.Errorf("active[%d] is %s, its window says place %v", i, c.ip, c.rate.window)
		}
		if c.ip == "192.0.2.2" {
			t.Errorf("the folded client is still active")
		}
	}
	if len(d.active) != 2 {
		t.Errorf("%d active clients, want 2", len(d.active))
	}
}
