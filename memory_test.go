package main

import (
	"runtime"
	"testing"
	"time"
)

func TestMemoryLimit(t *testing.T) {
	for _, tc := range []struct {
		live uint64
		want int64
	}{
		{0, memoryFloor},
		{50 << 20, memoryFloor},             // small logs: the limit never binds before GOGC does
		{89 << 20, memoryFloor},             // 89 + 22 + 16 = 127 MiB: still the floor
		{100 << 20, (100 + 25 + 16) << 20},  // past it: a quarter of the live heap, and 16 MiB
		{1 << 30, (1<<30 + 1<<28) + 16<<20}, // a flood of clients: follows the live heap up
		{^uint64(0) >> 2, int64(^uint64(0)>>2 + ^uint64(0)>>4 + 16<<20)},
	} {
		if got := memoryLimit(tc.live); got != tc.want {
			t.Errorf("memoryLimit(%d MiB) = %d MiB, want %d MiB", tc.live>>20, got>>20, tc.want>>20)
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
	for i := range 3 {
		runtime.GC()
		select {
		case <-calls:
		case <-time.After(10 * time.Second):
			t.Fatalf("no call after collection %d", i+1)
		}
	}
}
