package logparse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
)

// TestReadBatchAsRead: the batches hold the records and malformed lines Read
// returns, in the same order, with the same Stats, for logs read in blocks,
// W3C logs (read in order) and inputs shorter than format detection reads.
func TestReadBatchAsRead(t *testing.T) {
	var mixed strings.Builder
	for i := range 20000 {
		if i%997 == 5 {
			mixed.WriteString("garbage line\n")
			continue
		}
		fmt.Fprintf(&mixed, "192.0.2.%d - - [10/Mar/2024:00:%02d:%02d +0000] \"GET /p%d HTTP/1.1\" 200 %d \"-\" \"UA %d\"\n", i%250, i/60%60, i%60, i, i, i%7)
	}
	iis, err := os.ReadFile("../testdata/formats/iis.log")
	if err != nil {
		t.Fatal(err)
	}
	for name, log := range map[string]string{
		"combined": mixed.String(), "w3c": string(iis), "short": "192.0.2.1 - - [10/Mar/2024:00:00:00 +0000] \"GET / HTTP/1.1\" 200 1\n",
		"empty": "", "no-newline": strings.TrimSuffix(mixed.String()[:5000], "\n"),
	} {
		t.Run(name, func(t *testing.T) {
			want, wantStats := readLines(t, log, false)
			got, gotStats := readLines(t, log, true)
			if got != want {
				t.Errorf("batches differ from Read:\n got %.300s\nwant %.300s", got, want)
			}
			if fmt.Sprint(gotStats.Lines, gotStats.Records, gotStats.Malformed, gotStats.Directives) !=
				fmt.Sprint(wantStats.Lines, wantStats.Records, wantStats.Malformed, wantStats.Directives) {
				t.Errorf("stats %+v, Read's %+v", gotStats, wantStats)
			}
		})
	}
}

// readLines lists what a ParallelReader (small blocks, ReuseRecord) gives,
// one line of text per record or malformed line.
func readLines(t *testing.T, log string, batches bool) (string, Stats) {
	t.Helper()
	r := NewParallelReader(strings.NewReader(log), "x.log", nil)
	r.ReuseRecord, r.block, r.Workers = true, 4096, 3
	defer r.Close()
	var out bytes.Buffer
	if !batches {
		for {
			var rec Record
			err := r.Read(&rec)
			var pe *ParseError
			switch {
			case err == nil:
				fmt.Fprintf(&out, "%d %s %s %s\n", rec.Line, rec.Client, rec.Target, rec.UserAgent)
			case errors.As(err, &pe):
				fmt.Fprintf(&out, "%d malformed\n", pe.Line)
			case err == io.EOF:
				return out.String(), r.Stats()
			default:
				t.Fatal(err)
			}
		}
	}
	var held []*Batch
	for {
		b, err := r.ReadBatch()
		if err == io.EOF {
			for _, b := range held {
				r.Release(b)
			}
			return out.String(), r.Stats()
		} else if err != nil {
			t.Fatal(err)
		}
		ri, ei := 0, 0
		for ri < len(b.Records) || ei < len(b.Errors) {
			if ei == len(b.Errors) || ri < len(b.Records) && b.Records[ri].Line < b.Errors[ei].Line {
				rec := &b.Records[ri]
				fmt.Fprintf(&out, "%d %s %s %s\n", rec.Line, rec.Client, rec.Target, rec.UserAgent)
				ri++
			} else {
				fmt.Fprintf(&out, "%d malformed\n", b.Errors[ei].Line)
				ei++
			}
		}
		// Hold two batches at a time, as a consumer whose goroutines are
		// still at work on the one before does.
		held = append(held, b)
		if len(held) > 2 {
			r.Release(held[0])
			held = held[1:]
		}
	}
}

// TestCloseLetsTheBlocksGo: once a reader is closed it keeps no block for
// reuse, neither those it held nor those released after, since whoever
// still holds the reader (a closure that releases a batch) would hold them
// too, through a report.
func TestCloseLetsTheBlocksGo(t *testing.T) {
	var log strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&log, "192.0.2.%d - - [10/Mar/2024:00:%02d:%02d +0000] \"GET /p%d HTTP/1.1\" 200 %d \"-\" \"UA\"\n", i%250, i/60%60, i%60, i, i)
	}
	r := NewParallelReader(strings.NewReader(log.String()), "x.log", nil)
	r.ReuseRecord, r.block, r.Workers = true, 4096, 2
	var held []*Batch
	for {
		b, err := r.ReadBatch()
		if err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if b.b != nil && len(held) < 2 {
			held = append(held, b) // released after Close
			continue
		}
		r.Release(b)
	}
	if len(held) == 0 {
		t.Fatal("no block was read")
	}
	r.Close()
	for _, b := range held {
		r.Release(b)
		if b.Records != nil {
			t.Error("a released Batch still holds its records")
		}
	}
	if n := len(r.free); n > 0 {
		t.Errorf("the closed reader keeps %d blocks for reuse", n)
	}
}

// TestPrepareEveryBatch: Prepare sees every Batch ReadBatch returns, the
// lines read one by one too, with its records as ReadBatch returns them,
// and its Note comes back with the Batch and with the block's next use.
func TestPrepareEveryBatch(t *testing.T) {
	var log strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&log, "192.0.2.%d - - [10/Mar/2024:00:%02d:%02d +0000] \"GET /p%d HTTP/1.1\" 200 %d \"-\" \"UA\"\n", i%250, i/60%60, i%60, i, i)
	}
	type note struct{ lines, uses int }
	r := NewParallelReader(strings.NewReader(log.String()), "x.log", nil)
	r.ReuseRecord, r.block, r.Workers = true, 4096, 3
	r.Prepare = func(b *Batch) {
		n, _ := b.Note.(*note)
		if n == nil {
			n = new(note)
			b.Note = n
		}
		n.uses++
		n.lines = 0
		for _, rec := range b.Records {
			n.lines += len(rec.Target) // a sum of what the records say, checked against them below
		}
	}
	defer r.Close()
	reused, records := false, 0
	for {
		b, err := r.ReadBatch()
		if err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		n, ok := b.Note.(*note)
		if !ok {
			t.Fatalf("a Batch of %d records without Prepare's Note", len(b.Records))
		}
		sum := 0
		for _, rec := range b.Records {
			sum += len(rec.Target)
		}
		if n.lines != sum {
			t.Fatalf("Prepare saw targets of %d bytes, the Batch has %d", n.lines, sum)
		}
		reused = reused || n.uses > 1
		records += len(b.Records)
		r.Release(b)
	}
	if records != 20000 || !reused {
		t.Errorf("%d records, a block's Note reused: %v; want 20000, true", records, reused)
	}
}
