package report

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestProgressLine(t *testing.T) {
	p := NewProgress(nil, 1_000_000_000, time.Second)
	p.start = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	p.AddBytes(250_000_000)
	p.AddRecords(1_000_000)
	got := p.Line(p.start.Add(10 * time.Second))
	want := "robowatch: 250 MB of 1.0 GB (25%), 1.0M records, 100k records/s, 30s left"
	if got != want {
		t.Errorf("Line = %q, want %q", got, want)
	}
	unknown := NewProgress(nil, 0, time.Second)
	unknown.start = p.start
	unknown.AddBytes(5000)
	if got := unknown.Line(p.start.Add(time.Second)); !strings.Contains(got, "5.0 kB read") {
		t.Errorf("Line without a total = %q", got)
	}
}

func TestProgressErasesItsLine(t *testing.T) {
	var buf bytes.Buffer
	p := NewProgress(&buf, 100, time.Millisecond)
	p.Start()
	time.Sleep(5 * time.Millisecond)
	p.Stop()
	p.Stop() // a second Stop is harmless
	if !strings.HasSuffix(buf.String(), "\r\x1b[K") {
		t.Errorf("the progress line is not erased at the end: %q", buf.String())
	}
}
