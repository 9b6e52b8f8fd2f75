package cli

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestMemoryLimit(t *testing.T) {
	for _, tc := range []struct {
		live, other uint64
		want        int64
	}{
		{0, 0, memoryFloor},
		{50 << 20, 10 << 20, memoryFloor},                 // small logs: the limit never binds before GOGC does
		{99 << 20, 0, memoryFloor},                        // 99 + 12.4 + 16 = 127.4 MiB: still the floor
		{112 << 20, 0, (112 + 14 + 16) << 20},             // past it: an eighth of the live heap, and 16 MiB
		{112 << 20, 45 << 20, (112 + 14 + 16 + 45) << 20}, // the runtime's other memory does not eat the headroom
		{1 << 30, 0, (1<<30 + 1<<27) + 16<<20},            // a flood of clients: follows the live heap up
		{^uint64(0) >> 2, 0, int64(^uint64(0)>>2 + ^uint64(0)>>5 + 16<<20)},
	} {
		if got := memoryLimit(tc.live, tc.other); got != tc.want {
			t.Errorf("memoryLimit(%d MiB, %d MiB) = %d MiB, want %d MiB", tc.live>>20, tc.other>>20, got>>20, tc.want>>20)
		}
	}
}

// TestAfterEachGC checks that the hook runs after every collection, not
// only the first: the limit must follow the live heap through the log.
func TestAfterEachGC(t *testing.T) {
	calls := make(chan struct{}, 16)
	afterEachGC(func() {
		select {
		case calls <- struct{}{}:
		default:
		}
	})
	// The finalizer sets up the next sentinel after the call, so a
	// collection that starts in between does not see it and the call
	// comes with the one after: collect until it comes, as a program's
	// collections keep coming.
	for i := range 3 {
		deadline := time.After(30 * time.Second)
		for called := false; !called; {
			runtime.GC()
			select {
			case <-calls:
				called = true
			case <-time.After(10 * time.Millisecond):
			case <-deadline:
				t.Fatalf("no call within 30 s of collections after call %d", i)
			}
		}
	}
}

// TestPassEnded: the end of the pass lowers GOGC for the report under
// robowatch's policy only; without it (GOGC or GOMEMLIMIT in the
// environment, or a test's process) the collector is left as it is.
func TestPassEnded(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer func(was bool) { limiting = was }(limiting)
	limiting = false
	PassEnded()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("without the policy, GOGC after the pass = %d, want 100", got)
	}
	limiting = true
	PassEnded()
	if got := debug.SetGCPercent(100); got != reportGCPercent {
		t.Errorf("GOGC after the pass = %d, want %d", got, reportGCPercent)
	}
}

// TestPassGCPercent: GOGC 50 while the live heap is small, then at most
// passHeadroom of headroom, never below passMinGCPercent.
func TestPassGCPercent(t *testing.T) {
	for _, tc := range []struct {
		live uint64
		want int
	}{
		{0, gcPercent},
		{1 << 20, gcPercent},
		{12 << 20, gcPercent},
		{15 << 20, 40},
		{17 << 20, passMinGCPercent},
		{1 << 30, passMinGCPercent},
	} {
		if got := passGCPercent(tc.live); got != tc.want {
			t.Errorf("passGCPercent(%d MiB) = %d, want %d", tc.live>>20, got, tc.want)
		}
	}
}

// TestSettle: the collections before a Pool's merge and before the report
// run under robowatch's policy only, and only once the live heap is large.
func TestSettle(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // no collection but Judged's
	defer func(was bool) { limiting = was }(limiting)
	runtime.GC()
	collections := func() uint32 {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.NumGC
	}
	for _, tc := range []struct {
		name     string
		limiting bool
		hold     int
		collects bool
	}{
		{"no policy", false, 96 << 20, false},
		{"a small heap", true, 0, false},
		{"a large heap", true, 96 << 20, true},
	} {
		limiting = tc.limiting
		held := make([]byte, tc.hold)
		runtime.GC() // the live heap Judged reads
		before := collections()
		Settle()
		if got := collections() > before; got != tc.collects {
			t.Errorf("%s: collected %v, want %v", tc.name, got, tc.collects)
		}
		runtime.KeepAlive(held)
	}
}
