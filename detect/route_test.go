package detect

import (
	"fmt"
	"maps"
	"sync"
	"testing"
	"time"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

// TestPoolRoutesAsAdd: batches routed on goroutines of their own (Route,
// as robowatch's parsers do) and handed over in order (AddRoutes), some
// records left out after (the window), judge as Add of the same records
// with the same keep and mine does: the same clients, counts, late records
// and clock steps, with and without a cap on the clients.
func TestPoolRoutesAsAdd(t *testing.T) {
	t0 := time.Date(2024, 5, 6, 10, 0, 0, 0, time.UTC)
	targets := []string{"/", "/a.css", "/robots.txt", "/feed", "http://example.com/x.html", "/favicon.ico"}
	var recs []logparse.Record
	for i := range 3000 {
		at := t0.Add(time.Duration(i) * time.Second)
		switch {
		case i >= 2000 && i < 2100:
			at = at.Add(-2 * time.Hour) // the clock steps back
		case i%97 == 0:
			at = time.Time{} // no time
		}
		recs = append(recs, logparse.Record{Client: fmt.Sprintf("10.%d.%d.%d", i%7, i%61, i%5), UserAgent: fmt.Sprintf("bot/%d", i%9),
			Method: "GET", Target: targets[i%len(targets)], Status: 200, Time: at, Line: int64(i + 1)})
	}
	shard := findings.Shard{I: 1, N: 2}
	keep, mine := make([]bool, len(recs)), make([]bool, len(recs))
	for i := range recs {
		keep[i] = i%11 != 3
		mine[i] = shard.Owns(recs[i].Client)
	}
	const batch = 256
	for _, cfg := range []Config{{}, {MaxClients: 40}} {
		for _, workers := range []int{2, 3} {
			p := NewPool(cfg, workers)
			for lo := 0; lo < len(recs); lo += batch {
				hi := min(lo+batch, len(recs))
				p.Add(recs[lo:hi], keep[lo:hi], mine[lo:hi], nil)
			}
			want := p.Result()

			q := NewPool(cfg, workers)
			routes := make([]*Routes, (len(recs)+batch-1)/batch)
			var wg sync.WaitGroup
			for k := range routes {
				routes[k] = new(Routes)
				wg.Go(func() {
					q.Route(recs[k*batch:min((k+1)*batch, len(recs))], shard, routes[k], nil)
				})
			}
			wg.Wait()
			for k, rt := range routes {
				lo := k * batch
				for i := range min(batch, len(recs)-lo) {
					if !keep[lo+i] {
						rt.LeaveOut(i)
					}
				}
				q.AddRoutes(recs[lo:min(lo+batch, len(recs))], rt, nil)
			}
			got := q.Result()
			if got.Records != want.Records || got.LateRecords != want.LateRecords || got.DistinctClients != want.DistinctClients ||
				got.Other.Requests != want.Other.Requests || q.Steps() != p.Steps() {
				t.Errorf("max %d, %d workers: routed: %d records, %d late, %d clients, %d folded, %d steps; Add: %d, %d, %d, %d, %d",
					cfg.MaxClients, workers, got.Records, got.LateRecords, got.DistinctClients, got.Other.Requests, q.Steps(),
					want.Records, want.LateRecords, want.DistinctClients, want.Other.Requests, p.Steps())
			}
			if g, w := requestsOf(got), requestsOf(want); !maps.Equal(g, w) {
				t.Errorf("max %d, %d workers: routed clients %v, Add's %v", cfg.MaxClients, workers, g, w)
			}
			if cfg.MaxClients == 0 {
				// And as one Detector: the workers take their records'
				// class from Routes, not from classify.
				one := New(cfg)
				for i := range recs {
					switch {
					case !keep[i]:
					case !mine[i]:
						one.Pass(&recs[i])
					default:
						one.Add(&recs[i])
					}
				}
				r1 := one.Result()
				if got.LogPages != r1.LogPages || got.LogAssets != r1.LogAssets || !maps.Equal(requestsOf(got), requestsOf(r1)) ||
					fmt.Sprint(robotsOf(got)) != fmt.Sprint(robotsOf(r1)) {
					t.Errorf("%d workers: pages %d assets %d robots %v; one Detector: %d, %d, %v", workers,
						got.LogPages, got.LogAssets, robotsOf(got), r1.LogPages, r1.LogAssets, robotsOf(r1))
				}
			}
		}
	}
}

// requestsOf is the requests of each client of res.
func requestsOf(res *findings.Result) map[string]int64 {
	m := map[string]int64{}
	for v := range res.Clients.All() {
		m[v.IP+" "+v.UserAgent] = v.Requests
	}
	return m
}

// robotsOf is the verdict of each client of res.
func robotsOf(res *findings.Result) map[string]string {
	m := map[string]string{}
	for v := range res.Clients.All() {
		m[v.IP+" "+v.UserAgent] = fmt.Sprint(v.Kind, v.Reasons)
	}
	return m
}
