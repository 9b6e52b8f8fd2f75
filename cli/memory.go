package cli

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// Go's collector lets the heap grow to twice what was live after the last
// collection (GOGC=100). robowatch's live state grows steadily through a
// log (a few hundred bytes per client) and makes little garbage, so that
// doubling is mostly the headroom, and it is what decides the peak memory.
// robowatch lets the heap grow by half the live heap (gcPercent), and
// after every collection sets Go's soft memory limit so that on a large
// heap it may grow only by an eighth of the live heap and 16 MiB before the
// next one, but never below memoryFloor: small logs collect a little more
// often than under Go's defaults, large ones much more often instead of
// doubling their heap. The limit counts all the runtime's memory, so the
// rest of it (free and partly used spans, metadata, stacks: tens of MiB on
// a large run) is added on top; without it the headroom could shrink to
// nothing and the collector run without pause. GOMEMLIMIT or GOGC in the
// environment turn this off.
const memoryFloor = 128 << 20

// gcPercent is the GOGC robowatch starts with (see passGCPercent). On the
// generated million-line log (20 MB live at the end of the pass) it took
// the peak from 61-64 MB to 51-55 MB for 1-3% more CPU; with 25 the peak
// was 47 MB for a third more CPU.
const gcPercent = 50

// reportGCPercent is the GOGC from the end of the pass on. The pass's
// heap has grown to its largest by then, and building the verdicts and
// writing the report (16 and 5 MB allocated on the million-line log, over
// 13 MB live) grew the process past it; its peak RSS was there (RSS by
// phase, sampled every millisecond: pass 40-41 MB, verdicts 42-46, report
// 43-46). See PassEnded.
const reportGCPercent = 25

// limiting: LimitMemory set robowatch's policy.
var limiting bool

// memoryLimit is the soft limit for a live heap of live bytes when the
// runtime holds other bytes besides its heap objects.
func memoryLimit(live, other uint64) int64 {
	return int64(max(memoryFloor, live+live/8+16<<20+other))
}

// memorySamples are the runtime metrics memoryLimit is computed from.
var memorySamples = [...]string{
	"/gc/heap/live:bytes",
	"/memory/classes/total:bytes",
	"/memory/classes/heap/released:bytes",
	"/memory/classes/heap/objects:bytes",
}

// LimitMemory starts following the live heap with the memory limit, unless
// the environment tunes the collector itself.
func LimitMemory() {
	if os.Getenv("GOMEMLIMIT") != "" || os.Getenv("GOGC") != "" {
		return
	}
	samples := make([]metrics.Sample, len(memorySamples))
	for i, name := range memorySamples {
		samples[i].Name = name
	}
	limiting = true
	debug.SetGCPercent(gcPercent)
	debug.SetMemoryLimit(memoryLimit(0, 0))
	afterEachGC(func() {
		metrics.Read(samples)
		var v [len(memorySamples)]uint64
		for i, s := range samples {
			if s.Value.Kind() != metrics.KindUint64 {
				return // a runtime without these metrics: keep the limit
			}
			v[i] = s.Value.Uint64()
		}
		live, total, released, objects := v[0], v[1], v[2], v[3]
		var other uint64
		if inUse := total - min(total, released); inUse > objects {
			other = inUse - objects
		}
		debug.SetMemoryLimit(memoryLimit(live, other))
		gcPolicy.Lock()
		if !gcPolicy.passOver {
			debug.SetGCPercent(passGCPercent(live))
		}
		gcPolicy.Unlock()
	})
}

// The pass's GOGC shrinks as its live heap grows: a collection lets the
// heap grow by at most passHeadroom past its live part (gcPercent up to a
// live heap of 12 MiB), down to passMinGCPercent. The peak is where the
// heap is largest, at the end of the pass, and only the collections of
// the larger heaps run more often. On the million-line log (17 MB live at
// the end: GOGC 35 there) the peak RSS went 38.1-40.0 -> 37.4-39.0 MB (8
// runs alternated), its instructions 14.74-14.78G -> 14.79-14.85G
// (cachegrind; two runs of one binary differ by up to 0.8%). Below
// passMinGCPercent the memory limit takes over on large heaps anyway.
const (
	passHeadroom     = 6 << 20
	passMinGCPercent = 35
)

// passGCPercent is the pass's GOGC after a collection that left live bytes.
func passGCPercent(live uint64) int {
	return int(min(gcPercent, max(passMinGCPercent, 100*passHeadroom/max(live, 1))))
}

// gcPolicy is whether the pass is over (PassEnded): the GOGC set after each
// collection is then the report's. The lock keeps a collection's update
// from coming after PassEnded's.
var gcPolicy struct {
	sync.Mutex
	passOver bool
}

// PassEnded collects the heap once the last record was read, while nothing
// allocates, gives the pages it freed back to the system, and lowers GOGC
// to reportGCPercent for the rest of the run, under LimitMemory's policy.
// The verdicts and the report then grow from what is live, not from the
// pass's high-water mark: the pages the pass left free (9 MB on the
// million-line log) are scattered among live ones, and the verdicts' and
// the report's allocations, of other sizes, took fresh pages beside them.
// Peak RSS there by phase (VmHWM at each phase's end, 5 runs each): with
// a collection alone and GOGC 35 the verdicts or the report raised the
// pass's peak by 0.5-1.5 MB in 4 runs of 5; with the pages given back and
// GOGC 25, in 1 of 5, by 0.3 MB.
func PassEnded() {
	if !limiting {
		return
	}
	gcPolicy.Lock()
	gcPolicy.passOver = true
	debug.SetGCPercent(reportGCPercent)
	gcPolicy.Unlock()
	debug.FreeOSMemory()
}

// settleMinLive is the live heap from which Settle collects: below it the
// collection costs more than the memory it gives back is worth.
const settleMinLive = 64 << 20

// Settle collects the heap and gives the pages it freed back to the
// system, when the live heap is large (settleMinLive), under robowatch's
// memory policy. It is called where what one phase needed is all garbage
// and the next allocates beside it: when a Pool's workers have judged
// their clients, before their results are merged (detect.Config.Judged),
// and before the report is written. The churn log (300,000 clients) had
// peaked in the merge, its workers' garbage (their sort keys and working
// lists, 60 MB) waiting for the next collection in pages that stayed
// resident: 160-162 -> 142-144 MB with the first call, user CPU the same
// (3 runs alternated); then, its workers' results merged faster, in the
// report: 141-146 -> 138-141 MB with the second, 10 ms a run. The
// million-line log's live heap (17 MB) stays under the bound.
func Settle() {
	if !limiting {
		return
	}
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 && s[0].Value.Uint64() < settleMinLive {
		return
	}
	debug.FreeOSMemory()
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
