package report

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// Progress shows how far a long run has got on one terminal line: bytes
// read of the total, records per second and the time left. It is meant for
// stderr when stderr is a terminal; cron and pipes get nothing. Hand-written
// rather than a progress-bar library: it is one line of text redrawn a few
// times a second, and the counters are bumped from the hot loop, so they are
// plain atomics.
type Progress struct {
	w     io.Writer
	total int64 // bytes to read in all; 0 when unknown (standard input)
	every time.Duration
	start time.Time

	bytes   atomic.Int64
	records atomic.Int64

	stop chan struct{}
	done sync.WaitGroup
}

// NewProgress returns a Progress that draws on w every interval once
// started; total is the number of input bytes, or 0 when unknown.
func NewProgress(w io.Writer, total int64, interval time.Duration) *Progress {
	return &Progress{w: w, total: total, every: interval}
}

// AddBytes counts n more input bytes read (compressed bytes, for a
// compressed file, so that they compare with the file sizes).
func (p *Progress) AddBytes(n int64) { p.bytes.Add(n) }

// AddRecords counts n more records read. A nil Progress does nothing.
func (p *Progress) AddRecords(n int64) {
	if p != nil {
		p.records.Add(n)
	}
}

// Start begins redrawing the line.
func (p *Progress) Start() {
	p.start = time.Now()
	p.stop = make(chan struct{})
	p.done.Add(1)
	go func() {
		defer p.done.Done()
		t := time.NewTicker(p.every)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				fmt.Fprint(p.w, "\r\x1b[K") // leave the terminal line clean for the report
				return
			case now := <-t.C:
				fmt.Fprint(p.w, "\r\x1b[K"+p.Line(now))
			}
		}
	}()
}

// Stop erases the line and stops redrawing it. A nil Progress does nothing.
func (p *Progress) Stop() {
	if p == nil || p.stop == nil {
		return
	}
	close(p.stop)
	p.done.Wait()
	p.stop = nil
}

// Line is the progress text as of now.
func (p *Progress) Line(now time.Time) string {
	elapsed := now.Sub(p.start)
	read, recs := p.bytes.Load(), p.records.Load()
	rate := ""
	if s := elapsed.Seconds(); s > 0 {
		rate = fmt.Sprintf(", %s records/s", Count(int64(float64(recs)/s)))
	}
	if p.total <= 0 {
		return fmt.Sprintf("robowatch: %s read, %s records%s", Bytes(read), Count(recs), rate)
	}
	frac := float64(read) / float64(p.total)
	eta := ""
	if frac > 0.01 && frac < 1 {
		left := time.Duration(float64(elapsed) * (1 - frac) / frac)
		eta = ", " + Duration(left) + " left"
	}
	return fmt.Sprintf("robowatch: %s of %s (%.0f%%), %s records%s%s", Bytes(read), Bytes(p.total), 100*frac, Count(recs), rate, eta)
}
