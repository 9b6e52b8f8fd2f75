package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// Go's collector lets the heap grow to twice what was live after the last
// collection (GOGC=100). robowatch's live state grows steadily through a
// log (a few hundred bytes per client) and makes little garbage, so that
// doubling is mostly the headroom, and on a busy log it is what decides the
// peak memory. After every collection robowatch sets Go's soft memory limit
// to the live heap plus a quarter, but never below memoryFloor: small logs
// run exactly as under Go's defaults (their heap never reaches the floor),
// large ones collect a little more often instead of doubling their heap.
// The limit follows the live heap up, so the collector never thrashes
// against it. GOMEMLIMIT or GOGC in the environment turn this off.
const memoryFloor = 128 << 20

// memoryLimit is the soft limit for a live heap of live bytes.
func memoryLimit(live uint64) int64 {
	return int64(max(memoryFloor, live+live/4+16<<20))
}

// limitMemory starts following the live heap with the memory limit, unless
// the environment tunes the collector itself.
func limitMemory() {
	if os.Getenv("GOMEMLIMIT") != "" || os.Getenv("GOGC") != "" {
		return
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	debug.SetMemoryLimit(memoryLimit(0))
	afterEachGC(func() {
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 {
			debug.SetMemoryLimit(memoryLimit(sample[0].Value.Uint64()))
		}
	})
}

// gcSentinel is an object with a finalizer that runs once per collection.
type gcSentinel struct{ f func() }

// afterEachGC calls f after every garbage collection, from the finalizer
// goroutine: the sentinel becomes garbage at each collection and its
// finalizer sets up the next one.
func afterEachGC(f func()) {
	runtime.SetFinalizer(&gcSentinel{f}, sentinelFinalizer)
}

func sentinelFinalizer(s *gcSentinel) {
	s.f()
	runtime.SetFinalizer(&gcSentinel{s.f}, sentinelFinalizer)
}
