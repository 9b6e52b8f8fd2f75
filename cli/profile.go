package cli

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"strings"

	"github.com/spf13/pflag"
)

// Profiles are the hidden --cpuprofile and --memprofile flags, for the
// profiles docs/performance.md describes. The zero value profiles
// nothing.
type Profiles struct {
	CPU  string // write a CPU profile of the run to this file
	Heap string // write the live heap after the last record to this file
	// Trace is a file for the run's execution trace (go tool trace): where
	// the cores sat idle, which a CPU profile does not show.
	Trace string

	cpu   *os.File
	trace *os.File
}

// Go samples an allocation in every 512 KiB for heap profiles, which only
// --memprofile reads: each sample's stack is walked through the binary's
// tables and kept in a hash table of 1.4 MB. Without the sampling the
// million-line log peaked 0.6-1.5 MB lower (GODEBUG=memprofilerate=0,
// alternated runs); stopped from main, after the packages' init, 44.6 ->
// 43.8 MB (median of 7).
const heapSampleRate = 512 << 10

// sampling is whether StopAllocSampling left the rate as it was.
var sampling = true

// StopAllocSampling turns off the sampling of allocations for heap
// profiles, unless GODEBUG sets its rate; a --memprofile run turns it back
// on (Start), from then on.
func StopAllocSampling() {
	if !strings.Contains(os.Getenv("GODEBUG"), "memprofilerate=") {
		runtime.MemProfileRate, sampling = 0, false
	}
}

// Start starts the trace and the CPU profile, those asked for, and the
// sampling of allocations for the heap profile.
func (p *Profiles) Start() error {
	if p.Heap != "" && !sampling {
		runtime.MemProfileRate, sampling = heapSampleRate, true
	}
	var err error
	if p.Trace != "" {
		if p.trace, err = startFile("trace", p.Trace, trace.Start); err != nil {
			return err
		}
	}
	if p.CPU != "" {
		if p.cpu, err = startFile("cpuprofile", p.CPU, pprof.StartCPUProfile); err != nil {
			p.Stop() // the trace: the caller defers Stop only once Start is done
			return err
		}
	}
	return nil
}

// startFile creates name and starts writing to it with start, the
// profile of the flag named flag.
func startFile(flag, name string, start func(io.Writer) error) (*os.File, error) {
	f, err := os.Create(name)
	if err != nil {
		return nil, fmt.Errorf("--%s: %w", flag, err)
	}
	if err := start(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--%s: %w", flag, err)
	}
	return f, nil
}

// Stop ends the CPU profile and the trace, and closes their files.
func (p *Profiles) Stop() {
	if p.trace != nil {
		trace.Stop()
		p.trace.Close()
		p.trace = nil
	}
	if p.cpu != nil {
		pprof.StopCPUProfile()
		p.cpu.Close()
		p.cpu = nil
	}
}

// WriteHeap writes the live heap, after a collection, if a heap profile
// was asked for; a failure is said on stderr, as it costs the report nothing.
func (p *Profiles) WriteHeap(stderr io.Writer) {
	if err := p.writeHeap(); err != nil {
		Warnf(stderr, "robowatch: %v", err)
	}
}

func (p *Profiles) writeHeap() error {
	if p.Heap == "" {
		return nil
	}
	f, err := os.Create(p.Heap)
	if err != nil {
		return fmt.Errorf("--memprofile: %w", err)
	}
	runtime.GC()
	if err := pprof.WriteHeapProfile(f); err != nil {
		f.Close()
		return fmt.Errorf("--memprofile: %w", err)
	}
	return f.Close()
}

// flags defines the hidden profile flags.
func (p *Profiles) flags(fs *pflag.FlagSet) {
	fs.StringVar(&p.CPU, "cpuprofile", "", "write a CPU profile (go tool pprof) to FILE")
	fs.StringVar(&p.Heap, "memprofile", "", "write a heap profile (go tool pprof) to FILE, taken after the last record, of what was allocated from the start of the pass on (all of it with GODEBUG=memprofilerate=N)")
	fs.StringVar(&p.Trace, "trace", "", "write an execution trace (go tool trace) of the run to FILE")
	_ = fs.MarkHidden("cpuprofile")
	_ = fs.MarkHidden("trace")
	_ = fs.MarkHidden("memprofile")
}
