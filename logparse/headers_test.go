package logparse

import (
	"fmt"
	"strings"
	"testing"
)

// TestHeadersKeptApart: a block's records reuse their Headers from line to
// line (Record.reset), but a Record the caller owns never shares them: the
// records Read returns, kept by value, keep each its own X-Forwarded-For,
// every other line none, whether read by Reader, ParallelReader (copied
// or not) or Format.Parse into one Record.
func TestHeadersKeptApart(t *testing.T) {
	var log strings.Builder
	want := make([]string, 5000)
	for i := range want {
		xff := "-"
		if i%2 == 0 {
			want[i] = fmt.Sprintf("203.0.%d.%d", i/250, i%250)
			xff = want[i]
		}
		fmt.Fprintf(&log, "192.0.2.1 - - [10/Mar/2024:00:%02d:%02d +0000] \"GET /p%d HTTP/1.1\" 200 1 \"-\" \"UA\" \"%s\"\n", i/60%60, i%60, i, xff)
	}
	check := func(name string, recs []Record) {
		t.Helper()
		if len(recs) != len(want) {
			t.Fatalf("%s: %d records, want %d", name, len(recs), len(want))
		}
		for i := range recs {
			if got := recs[i].Forwarded(); got != want[i] {
				t.Fatalf("%s: line %d X-Forwarded-For %q, want %q", name, i+1, got, want[i])
			}
		}
	}
	var recs []Record
	sr := NewReader(strings.NewReader(log.String()), "x.log", CombinedXFF)
	var rec Record
	for sr.Read(&rec) == nil {
		recs = append(recs, rec)
	}
	check("Reader", recs)
	for _, reuse := range []bool{false, true} {
		pr := NewParallelReader(strings.NewReader(log.String()), "x.log", CombinedXFF)
		pr.ReuseRecord, pr.block, pr.Workers = reuse, 4096, 2
		recs = recs[:0]
		for pr.Read(&rec) == nil {
			if reuse {
				rec.Request, rec.Target = strings.Clone(rec.Request), strings.Clone(rec.Target) // as the doc asks
				if rec.Headers != nil {
					rec.Headers.Forwarded = strings.Clone(rec.Headers.Forwarded) // Read's own copy: a shared one would be emptied by the next line
				}
			}
			recs = append(recs, rec)
		}
		pr.Close()
		check(fmt.Sprintf("ParallelReader (ReuseRecord %t)", reuse), recs)
	}
	recs = recs[:0]
	for _, line := range strings.SplitAfter(log.String(), "\n")[:len(want)] {
		if err := CombinedXFF.Parse([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	check("Format.Parse", recs)
}
