package logparse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// blockBytes is how much of the input a ParallelReader hands to a parser
// goroutine at once: large enough that the hand-over costs nothing next to
// parsing a block's thousand lines, small enough that the blocks in flight
// (with their records and line strings) stay a few MiB. 1 MiB blocks cost
// 25-30 MB more peak RSS on a 1M-line log, for no measurable speed.
const blockBytes = 256 << 10

// ErrReaderClosed is returned by ParallelReader.Read after Close.
var ErrReaderClosed = errors.New("logparse: read after Close")

// ParallelReader reads Records like Reader, with the same records, malformed
// lines, errors and Stats in the same order, but parses on several
// goroutines: one goroutine reads (and decompresses) the input and cuts it
// into blocks of whole lines, Workers goroutines parse the blocks, and Read
// returns their records in log order. Memory stays bounded: a few blocks
// are in flight, and a line over MaxLineBytes is skipped as it streams by.
//
// Read must be called from one goroutine. Call Close when stopping before
// io.EOF or a fatal error, so that the goroutines end.
type ParallelReader struct {
	// MaxLineBytes is as for Reader; set it before the first Read.
	MaxLineBytes int
	// Workers is how many goroutines parse; 0 means runtime.GOMAXPROCS(0).
	// Set it before the first Read.
	Workers int
	// ReuseRecord, when true, lets the strings of the Records Read returns
	// share memory with the reader's blocks instead of a copy of each line:
	// they are valid only until the next call to Read, and a caller that
	// keeps one must copy it (strings.Clone). It saves the one allocation a
	// line otherwise costs, and the garbage collection that follows it (as
	// encoding/csv's Reader.ReuseRecord). Set it before the first Read.
	ReuseRecord bool
	// Prepare, if not nil, is called with each Batch before ReadBatch
	// returns it, on the goroutine that parsed it: what is worked out of
	// each record alone (robowatch: the detector that judges it) is so
	// worked out on every core, not on the one goroutine that reads the
	// batches in log order. What it keeps in Batch.Note stays with the
	// reader's block for the next Batch of that block. Set it before the
	// first ReadBatch; Read does not call it.
	Prepare func(*Batch)
	// seqLocal is Batch.Local for the lines read one by one, prepared on
	// ReadBatch's goroutine.
	seqLocal any

	seq     *Reader // reads the lines format detection looks at, then the rest is cut into blocks
	started bool
	stats   Stats  // of the batches returned before cur (seq counts the lines before them)
	cur     *batch // the batch Read is returning from
	ri, ei  int    // next record and next error of cur
	one     Record // what Next returns of the lines read one by one
	final   error  // sticky: io.EOF or a fatal error
	closed  bool

	order     chan *batch   // batches in log order, parsed or not yet
	free      chan *batch   // batches to fill
	done      chan struct{} // closed by Close
	closeOnce sync.Once
	retired   atomic.Bool // Close was called: released batches are dropped, not kept for reuse
	err       error       // io.EOF or the fatal error that ended reading; set before order is closed

	block int // bytes per block; 0 means blockBytes (tests cut small blocks)

	// Owned by the reading goroutine.
	lineNo int64  // lines cut so far
	carry  []byte // the start of a line cut by the end of a block
	head   []byte // the start of a line over the limit, for its ParseError
}

// batch is a block of consecutive lines and, once ready, what they parse to.
type batch struct {
	data    []byte // whole lines; or, with tooLong, the start of one line over the limit
	first   int64  // number of the first line in data
	tooLong bool
	recs    []Record
	errs    []*ParseError // malformed lines, in order
	stats   Stats
	note    any           // Batch.Note: Prepare's, kept with the block
	ready   chan struct{} // receives once the batch is parsed
}

// NewParallelReader returns a ParallelReader of r; name and f are as for NewReader.
func NewParallelReader(r io.Reader, name string, f *Format) *ParallelReader {
	return &ParallelReader{seq: NewReader(r, name, f)}
}

// Format is as Reader.Format.
func (r *ParallelReader) Format() *Format { return r.seq.format.own() }

// Stats returns the counts of the lines Read has returned so far.
func (r *ParallelReader) Stats() Stats {
	if !r.started || r.order == nil {
		return r.seq.Stats()
	}
	s := r.seq.Stats()
	s.Samples = slices.Clip(s.Samples) // appends below must not reach the readers' own
	s.Merge(r.stats)
	if b := r.cur; b != nil && (r.ri > 0 || r.ei > 0) {
		for i := range b.recs[:r.ri] {
			s.AddRecord(&b.recs[i])
		}
		for _, e := range b.errs[:r.ei] {
			s.AddMalformed(e)
		}
	}
	return s
}

// Close stops the goroutines and lets the blocks go. It does not wait for a
// Read of the underlying reader in progress, which ends when that reader
// returns.
func (r *ParallelReader) Close() error {
	r.closeOnce.Do(func() {
		r.closed = true
		if r.done != nil {
			close(r.done)
		}
		r.retire()
	})
	return nil
}

// retire drops the batches kept for reuse, and from now on those released:
// a caller may hold the reader (a Batch's owner, a closure that releases
// it) long after the input ended, and its blocks and records, a few MB,
// would be held with it through the report.
func (r *ParallelReader) retire() {
	r.retired.Store(true)
	for {
		select {
		case <-r.free:
		default:
			return
		}
	}
}

// Read parses the next line into rec, as Reader.Read does.
func (r *ParallelReader) Read(rec *Record) error {
	got, err := r.next(rec)
	if err == nil && got != rec {
		*rec = *got
		if h := got.Headers; h != nil {
			// The block's, reused for its next lines (Record.reset).
			own := *h
			rec.Headers = &own
		}
	}
	return err
}

// Next is Read without the copy: it returns the next record where the
// reader holds it, valid until the next call. A caller that reads record
// after record and keeps none (robowatch with one core) saves a copy of
// 300 bytes a line, and its write barriers.
func (r *ParallelReader) Next() (*Record, error) {
	return r.next(&r.one)
}

// next returns the next record: the lines format detection read and a
// W3C log's are read into into, the others are returned in place.
func (r *ParallelReader) next(into *Record) (*Record, error) {
	if r.closed {
		return nil, ErrReaderClosed
	}
	if !r.started {
		r.started = true
		seq := r.seq
		seq.MaxLineBytes = r.MaxLineBytes
		seq.started = true
		if seq.format == nil {
			seq.detect()
		}
	}
	if r.order == nil {
		// The lines read for format detection come first, from the
		// sequential Reader; so does a read error among them.
		if len(r.seq.pending) > 0 || r.seq.err != nil {
			return into, r.seqRead(into)
		}
		if f := r.seq.format; f != nil && f.w3c != nil {
			// A #Fields line changes how the lines after it read: W3C
			// logs are read in order, by the sequential Reader.
			return into, r.seqRead(into)
		}
		r.startBlocks()
	}
	for {
		if b := r.cur; b != nil {
			recLine, errLine := int64(math.MaxInt64), int64(math.MaxInt64)
			if r.ri < len(b.recs) {
				recLine = b.recs[r.ri].Line
			}
			if r.ei < len(b.errs) {
				errLine = b.errs[r.ei].Line
			}
			switch {
			case recLine < errLine:
				r.ri++
				return &b.recs[r.ri-1], nil
			case r.ei < len(b.errs):
				r.ei++
				return nil, b.errs[r.ei-1]
			}
			r.stats.Merge(b.stats)
			r.cur = nil
			r.release(b)
		}
		if r.final != nil {
			return nil, r.final
		}
		b, ok := <-r.order
		if !ok {
			r.final = r.err
			return nil, r.final
		}
		<-b.ready
		r.cur, r.ri, r.ei = b, 0, 0
	}
}

// seqRead reads the next line with the sequential Reader into into,
// keeping the Headers of r.one, which is the reader's alone.
func (r *ParallelReader) seqRead(into *Record) error {
	if into == &r.one {
		return r.seq.readInto(into)
	}
	return r.seq.Read(into)
}

// startBlocks starts the goroutines on the input past the lines format
// detection read, once they have been returned.
func (r *ParallelReader) startBlocks() {
	workers := r.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// Two batches per parser keep each busy while the consumer works
	// through one and the reader fills another.
	n := 2*workers + 2
	r.order = make(chan *batch, n)
	r.free = make(chan *batch, n)
	r.done = make(chan struct{})
	for range n {
		r.free <- &batch{ready: make(chan struct{}, 1)}
	}
	r.lineNo = r.seq.lineNo
	work := make(chan *batch, n)
	for range workers {
		go r.parseBlocks(work)
	}
	go r.cut(work)
}

func (r *ParallelReader) blockSize() int {
	if r.block > 0 {
		return r.block
	}
	return blockBytes
}

// release returns a batch to the reading goroutine, dropping a buffer that
// grew for a long line.
func (r *ParallelReader) release(b *batch) {
	if cap(b.data) > 2*r.blockSize() {
		b.data = nil
	}
	clear(b.errs)
	b.errs = b.errs[:0]
	b.stats = Stats{}
	if r.retired.Load() {
		b.data, b.recs, b.errs, b.note = nil, nil, nil, nil
		return
	}
	r.free <- b // never blocks: free has room for every batch
	if r.retired.Load() {
		r.retire() // Close ran since the check above: b must not stay
	}
}

// cut reads the input into blocks of whole lines and sends them to be
// parsed, and in log order to Read, until the end of the input, a fatal
// error, or Close.
func (r *ParallelReader) cut(work chan<- *batch) {
	defer close(work)
	if err := r.cutBlocks(work); err != nil {
		r.err = err
	}
	close(r.order)
}

// cutBlocks is cut's loop. It returns io.EOF at the end of the input, the
// fatal error that ended it (after the lines before it), or nil after Close.
func (r *ParallelReader) cutBlocks(work chan<- *batch) error {
	src := r.seq.br
	maxLine := r.seq.maxLine()
	var rerr error // from src; once set, src is not read again
	for {
		var b *batch
		select {
		case b = <-r.free:
		case <-r.done:
			return nil
		}
		if b.data == nil {
			b.data = make([]byte, 0, r.blockSize())
		}
		b.data = append(b.data[:0], r.carry...)
		r.carry = r.carry[:0]
		b.tooLong = false
		if rerr == nil {
			rerr = fill(src, &b.data)
		}
		for {
			if i := bytes.LastIndexByte(b.data, '\n'); i >= 0 {
				switch rerr {
				case nil:
					r.carry = append(r.carry, b.data[i+1:]...)
					b.data = b.data[:i+1]
				case io.EOF:
					// A last line without a line end is a line.
				default:
					b.data = b.data[:i+1] // Reader drops a line cut by an error
				}
				break
			}
			if rerr != nil {
				if rerr != io.EOF {
					b.data = b.data[:0]
				}
				break
			}
			if limit := max(maxLine+2, readBufferSize); len(b.data) <= limit {
				// One line fills the block and may be within the limit
				// (Reader's rule): grow the block, but not past the limit.
				b.data = slices.Grow(b.data, min(cap(b.data), limit+1-cap(b.data)))
				rerr = fill(src, &b.data)
				continue
			}
			// Over the limit and still no line end: keep the line's start
			// for the error and let the rest stream by.
			var complete bool
			complete, rerr = r.skipLine(src, b)
			if !complete {
				b.data = b.data[:0]
			}
			break
		}
		if len(b.data) == 0 {
			r.free <- b // never blocks: free has room for every batch
		} else {
			b.first = r.lineNo + 1
			if b.tooLong {
				r.lineNo++
			} else {
				r.lineNo += int64(bytes.Count(b.data, []byte{'\n'}))
				if b.data[len(b.data)-1] != '\n' {
					r.lineNo++ // the last line, without a line end
				}
			}
			r.order <- b // never blocks: order has room for every batch
			work <- b    // nor does work
		}
		if rerr != nil && len(r.carry) == 0 {
			if rerr == io.EOF {
				return io.EOF
			}
			return r.fatal(rerr)
		}
	}
}

// fatal names the input and the line reading stopped at, as Reader does.
func (r *ParallelReader) fatal(err error) error {
	if r.seq.name == "" {
		return fmt.Errorf("line %d: %w", r.lineNo+1, err)
	}
	return fmt.Errorf("%s: line %d: %w", r.seq.name, r.lineNo+1, err)
}

// skipLine reads past the end of the line over the limit that fills b.data,
// leaving its first bytes in b.data (b.tooLong) and what follows its line
// end in r.carry. The line is complete when its end, or the input's, was
// reached; err is what src returned last.
func (r *ParallelReader) skipLine(src io.Reader, b *batch) (complete bool, err error) {
	r.head = append(r.head[:0], textHead(b.data)...)
	for {
		b.data = b.data[:0]
		err = fill(src, &b.data)
		if i := bytes.IndexByte(b.data, '\n'); i >= 0 {
			r.carry = append(r.carry, b.data[i+1:]...)
			complete = true
			break
		}
		if err != nil {
			complete = err == io.EOF
			break
		}
	}
	b.data = append(b.data[:0], r.head...)
	b.tooLong = true
	return complete, err
}

// fill reads into the free capacity of *buf until it is full, or the
// input ends or fails.
func fill(src io.Reader, buf *[]byte) error {
	b := *buf
	defer func() { *buf = b }()
	for len(b) < cap(b) {
		n, err := src.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			return err
		}
	}
	return nil
}

// parseBlocks parses the batches from work until it is closed.
func (r *ParallelReader) parseBlocks(work <-chan *batch) {
	name, f, max, alias := r.seq.name, r.seq.format, r.seq.maxLine(), r.ReuseRecord
	var dates clfDate // this goroutine's: the blocks it parses are mostly of one day
	var local any     // Batch.Local of this goroutine's batches
	for b := range work {
		b.parse(name, f, max, alias, &dates)
		if r.Prepare != nil {
			pb := Batch{Records: b.recs, Errors: b.errs, Note: b.note, Local: &local}
			r.Prepare(&pb)
			b.note = pb.Note
		}
		b.ready <- struct{}{}
	}
}

// parse parses the lines of b as Reader.Read would; with alias, the
// records' strings are views of b.data, which is not refilled before Read
// has moved past them (see release).
func (b *batch) parse(name string, f *Format, max int, alias bool, dates *clfDate) {
	b.recs = b.recs[:0]
	no := b.first
	if b.tooLong {
		b.addTooLong(name, no, b.data, max)
		return
	}
	data := b.data
	var last time.Time // the time of the last record: most lines have the time of the one before
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i+1], data[i+1:]
		} else {
			data = nil
		}
		if content := len(TrimEOL(line)); content > max || len(line) > readBufferSize && len(line) > max+3 {
			// Reader's rule, to the byte: over max without the line end,
			// or, for a line longer than its buffer, over max+3 with it.
			b.addTooLong(name, no, textHead(line), max)
			no++
			continue
		}
		if no == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		b.recs = slices.Grow(b.recs, 1)
		rec := &b.recs[:len(b.recs)+1][len(b.recs)]
		rec.File, rec.Line = name, no
		if err := f.parseCached(line, rec, alias, dates); err != nil {
			pe := err.(*ParseError)
			pe.File, pe.Line = name, no
			b.errs = append(b.errs, pe)
			b.stats.AddMalformed(pe)
		} else {
			b.recs = b.recs[:len(b.recs)+1]
			if rec.Time != last { // the same Time, bit for bit, changes neither end of the span
				b.stats.addTime(rec.Time)
				last = rec.Time
			}
			b.stats.addRecordUntimed(rec)
		}
		no++
	}
}

// addTooLong records line number no, whose start is head, as over the limit.
func (b *batch) addTooLong(name string, no int64, head []byte, max int) {
	if no == 1 {
		head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	}
	pe := &ParseError{File: name, Line: no, Column: max + 1,
		Err:  fmt.Errorf("%w: more than %d bytes", ErrLineTooLong, max),
		Text: LineText(head, MaxTextBytes)}
	b.errs = append(b.errs, pe)
	b.stats.AddMalformed(pe)
}
