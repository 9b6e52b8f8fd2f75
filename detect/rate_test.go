package detect

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/robowatch/robowatch/logparse"
)

// TestRangesOfOneFile: a media player buffering a podcast asks for dozens
// of byte ranges of one file within seconds (206 answers): one download,
// no rapid-fire incident (six listeners were in the default block list).
// Ranges of many files, or pages, at that pace still are one.
func TestRangesOfOneFile(t *testing.T) {
	const player = "AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; de_de)"
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		path     func(i int) string
		status   int
		incident bool
	}{
		{"45 ranges of one episode in 9 s", func(int) string { return "/podcast/episode-42.mp3" }, 206, false},
		{"45 ranges of 45 files in 9 s", func(i int) string { return fmt.Sprintf("/podcast/episode-%d.mp3", i) }, 206, true},
		{"45 whole fetches of one file in 9 s", func(int) string { return "/podcast/episode-42.mp3" }, 200, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := New(Config{})
			for i := range 45 {
				d.Add(&logparse.Record{Client: "84.163.132.57", UserAgent: player, Method: "GET", Target: tt.path(i), Status: tt.status, Bytes: 400_000, Time: t0.Add(time.Duration(i*200) * time.Millisecond)})
			}
			res := d.Result()
			v := verdictOf(t, res, "84.163.132.57", player)
			if got := res.IncidentCount > 0; got != tt.incident || v.Requests != 45 {
				t.Errorf("incidents %d, requests %d; want incident %v, 45 requests", res.IncidentCount, v.Requests, tt.incident)
			}
		})
	}
}

// TestFullPathStampsSweptOncePerCut: a client with more than maxPathStamps
// requests in its last two minutes (a crawler at 100/s on fresh paths) had
// its whole stamp list swept on every request once the list stayed full:
// 8,192 steps a record, 1M such records 7.1 s against 2.0 s. The list is
// swept again only when the clock has moved, since only then can a stamp
// have left the window. A stale stamp planted in the full list shows
// whether a sweep ran.
func TestFullPathStampsSweptOncePerCut(t *testing.T) {
	pool := &windowPool{}
	r := newRate()
	for i := range 3 * maxPathStamps {
		r.add(1000, 1, 0, 200, uint64(i), pool)
	}
	if !r.pathsLost || len(r.paths) < maxPathStamps {
		t.Fatalf("%d stamps, lost %v: the list never filled", len(r.paths), r.pathsLost)
	}
	r.paths[0].sec = math.MinInt64 // out of every window: a sweep drops it
	r.add(1000, 1, 0, 200, 1, pool)
	if r.paths[0].sec != math.MinInt64 {
		t.Fatal("the full list was swept again at the same cut")
	}
	r.fin = 2000 // the clock moved: every stamp left the window
	r.add(2001, 1, 0, 200, 1, pool)
	if len(r.paths) != 1 {
		t.Fatalf("%d stamps after the clock moved past them all, want 1", len(r.paths))
	}
}

// TestWindowPoolKeepsBusyWindowsBounded: a busy client's window, grown past
// poolMaxCap, is kept when it falls idle and handed to the next client
// that becomes active, buffers and all, emptied; the big windows kept
// never hold more than poolBigBytes, and one too large for what is left is
// left to the collector.
func TestWindowPoolKeepsBusyWindowsBounded(t *testing.T) {
	busy := func(n int) *window {
		w := new(window)
		for i := range n {
			w.secs = append(w.secs, second{sec: int64(i), n: 1})
			w.paths = append(w.paths, pathStamp{int64(i), uint64(i)})
		}
		w.pend, w.n60 = n, uint32(n)
		return w
	}
	pool := &windowPool{}
	w := busy(4 * poolMaxCap)
	pool.put(w)
	if got := pool.get(); got != w {
		t.Fatal("a busy window was not kept")
	} else if len(got.secs) != 0 || len(got.paths) != 0 || got.pend != 0 || got.n60 != 0 || cap(got.secs) < 4*poolMaxCap {
		t.Fatalf("kept window not emptied, or without its buffers: %d secs (cap %d), %d paths, pend %d",
			len(got.secs), cap(got.secs), len(got.paths), got.pend)
	}
	kept := 0
	for range 4 * poolBigBytes / windowBytes(busy(4*poolMaxCap)) {
		pool.put(busy(4 * poolMaxCap))
		if pool.bigBytes > poolBigBytes {
			t.Fatalf("big windows hold %d bytes, over %d", pool.bigBytes, poolBigBytes)
		}
		kept = len(pool.big)
	}
	if kept == 0 || pool.bigBytes+windowBytes(busy(4*poolMaxCap)) <= poolBigBytes {
		t.Fatalf("%d big windows of %d bytes kept: the pool stopped short of its bound", kept, pool.bigBytes)
	}
	huge := busy(poolBigBytes / 32)
	pool.big, pool.bigBytes = nil, 0
	pool.put(huge)
	if len(pool.big) != 0 {
		t.Fatalf("a window of %d bytes, over the bound, was kept", windowBytes(huge))
	}
	for range len(pool.big) + 1 {
		if pool.get() == huge {
			t.Fatal("the window over the bound came back")
		}
	}
}
