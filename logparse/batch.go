package logparse

import (
	"errors"
	"io"
)

// Batch is a run of consecutive lines of a log, parsed: its records and its
// malformed lines, each in log order. ParallelReader.ReadBatch returns them
// to a caller that hands the same lines to several goroutines (robowatch
// judges clients on every core); the strings of the records stay valid
// until the Batch is released.
type Batch struct {
	Records []Record
	Errors  []*ParseError // the malformed lines among the records, by line
	Note    any           // what ParallelReader.Prepare made of the records
	// Local is what Prepare keeps on the goroutine that calls it, for the
	// next batches it prepares there (never two at once): a parser's memo.
	Local *any
	b     *batch // the reader's block, returned by Release; nil for lines read one by one
}

// seqBatchLines is how many lines a Batch of lines read one by one holds
// (the lines format detection read, and W3C logs, which are read in order).
const seqBatchLines = 4096

// ReadBatch returns the next lines as a Batch; at the end of the input it
// returns io.EOF (or the error that ended reading) and no Batch. Release
// each Batch when done with its records; a few can be held at once (the
// reader waits for a Release when all of its blocks are held). ReadBatch
// and Read are not to be mixed on one reader. Stats counts the lines of
// the Batches returned.
func (r *ParallelReader) ReadBatch() (*Batch, error) {
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
		sequential := len(r.seq.pending) > 0 || r.seq.err != nil
		if f := r.seq.format; f != nil && f.w3c != nil {
			sequential = true
		}
		if sequential {
			return r.seqBatch()
		}
		r.startBlocks()
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
	r.stats.Merge(b.stats)
	return &Batch{Records: b.recs, Errors: b.errs, Note: b.note, b: b}, nil
}

// seqBatch reads lines one by one into a Batch: the pending lines of
// format detection (then the blocks take over), or a W3C log's.
func (r *ParallelReader) seqBatch() (*Batch, error) {
	out := &Batch{}
	w3c := r.seq.format != nil && r.seq.format.w3c != nil
	for n := 0; n < seqBatchLines && (w3c || len(r.seq.pending) > 0 || r.seq.err != nil); n++ {
		var rec Record
		err := r.seq.Read(&rec)
		var pe *ParseError
		switch {
		case err == nil:
			out.Records = append(out.Records, rec)
			continue
		case errors.As(err, &pe):
			out.Errors = append(out.Errors, pe)
			continue
		}
		if len(out.Records) > 0 || len(out.Errors) > 0 {
			return r.prepared(out), nil // the error again on the next call
		}
		if err != io.EOF {
			return nil, err
		}
		r.final = err
		return nil, err
	}
	if len(out.Records) == 0 && len(out.Errors) == 0 {
		return r.ReadBatch() // nothing was pending: on to the blocks
	}
	return r.prepared(out), nil
}

// prepared is b after Prepare, for the lines read one by one.
func (r *ParallelReader) prepared(b *Batch) *Batch {
	if r.Prepare != nil {
		b.Local = &r.seqLocal
		r.Prepare(b)
		b.Local = nil
	}
	return b
}

// Release gives b's memory back to the reader; b's records must not be
// used after.
func (r *ParallelReader) Release(b *Batch) {
	if b != nil && b.b != nil {
		r.release(b.b)
		b.b, b.Records, b.Errors = nil, nil, nil
	}
}
