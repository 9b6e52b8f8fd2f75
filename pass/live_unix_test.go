//go:build unix

package pass

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/input"
	"github.com/robowatch/robowatch/logparse"
)

// TestLiveStuckFIFOCountsNothing: a live run of a FIFO a silent writer holds
// open and a second FIFO that no writer ever opens (its open blocks in the
// kernel, past the interrupt): the first's line is counted once. Before,
// the second was given every input's counts when it did not stop, and the
// report had two lines of one.
func TestLiveStuckFIFOCountsNothing(t *testing.T) {
	dir := t.TempDir()
	talks, stuck := filepath.Join(dir, "talks.pipe"), filepath.Join(dir, "stuck.pipe")
	for _, f := range []string{talks, stuck} {
		if err := syscall.Mkfifo(f, 0o600); err != nil {
			t.Skip("no FIFO:", err)
		}
	}
	w, err := os.OpenFile(talks, os.O_RDWR, 0) // a writer there and then silent
	if err != nil {
		t.Skip("a FIFO cannot be opened for reading and writing here:", err)
	}
	defer w.Close()
	io.WriteString(w, "192.0.2.1 - - [06/May/2024:09:00:00 +0000] \"GET / HTTP/1.1\" 200 512 \"-\" \"curl/8.5.0\"\n")
	defer func() {
		// Lets the open that robowatch left blocked return.
		if u, err := os.OpenFile(stuck, os.O_RDWR, 0); err == nil {
			u.Close()
		}
	}()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &seenOutput{records: make(chan int64, 1)}
	p := newReadyPass(Options{Out: out, Interval: 10 * time.Millisecond})
	go func() {
		for n := range out.records {
			if n > 0 {
				cancel() // the line was taken: interrupt
				return
			}
		}
	}()
	stats, errs := p.follow(ctx, &input.Files{Names: []string{talks, stuck}}, []string{talks, stuck})
	var all logparse.Stats
	for i := range stats {
		all.Merge(stats[i])
		if errs[i] != nil {
			t.Errorf("%s: %v", []string{talks, stuck}[i], errs[i])
		}
	}
	if all.Lines != 1 || all.Records != 1 {
		t.Errorf("%d lines, %d records; want the one line once", all.Lines, all.Records)
	}
}

// seenOutput is a LiveOutput that tells the records of each running summary.
type seenOutput struct{ records chan int64 }

func (s *seenOutput) Summary(_ findings.Live, st logparse.Stats) {
	select {
	case s.records <- st.Records:
	default:
	}
}
func (s *seenOutput) File(time.Time, string, string)            {}
func (s *seenOutput) Error(time.Time, string, string, string)   {}
func (s *seenOutput) Malformed(time.Time, *logparse.ParseError) {}
