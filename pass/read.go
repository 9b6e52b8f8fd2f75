package pass

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/robowatch/robowatch/input"
	"github.com/robowatch/robowatch/logparse"
)

// read feeds one input to the detection, cut to the window, and returns
// what was read from it. A malformed line is counted (with --strict, it is
// the error); a read error ends this input but not the run; an interrupt is
// no error: the report says partial.
func (p *pass) read(ctx context.Context, files *input.Files, name string) (logparse.Stats, error) {
	r, err := files.Open(ctx, name)
	if err != nil && ctx.Err() != nil {
		return logparse.Stats{}, nil // interrupted while waiting for the first bytes: no read error
	} else if err != nil {
		return logparse.Stats{}, err
	}
	defer r.Close()
	digest := input.NewDigest(r)
	defer p.noteInput(digest) // after the reader's Close below
	// Parsing runs on every core; records come in log order, as the Detector needs.
	rd := logparse.NewParallelReader(digest, name, p.opt.Format)
	rd.ReuseRecord = true // the Detector copies what it keeps
	defer rd.Close()
	if p.det.pool != nil {
		return p.readBlocks(ctx, rd)
	}
	return p.readRecords(ctx, rd)
}

// admit resolves rec's client behind the trusted proxies and tells whether
// the record is this shard's and whether it is in the window. Another
// shard's record in the window only moves the clock.
func (p *pass) admit(rec *logparse.Record) (mine, in bool) {
	p.opt.Proxies.Resolve(rec)
	if !p.opt.Shard.Owns(rec.Client) {
		return false, p.clip.In(rec)
	}
	return true, p.clip.Keep(rec)
}

// strict is the error --strict makes of a malformed line.
func strict(err error) error { return fmt.Errorf("--strict: %w", err) }

// readRecords is read for one Detector: record by record, with running
// summaries to a live output.
func (p *pass) readRecords(ctx context.Context, rd *logparse.ParallelReader) (logparse.Stats, error) {
	det, out := p.det.Detector, p.opt.Out
	var (
		read      int64
		elsewhere int64                // records of other shards (--shard)
		pe        *logparse.ParseError // out of the loop: errors.As makes it escape
		told      = time.Now()         // the last running summary
	)
	for n := 0; ; n++ {
		if n&1023 == 0 {
			if ctx.Err() != nil {
				return p.shardStats(rd.Stats(), elsewhere), nil
			}
			p.progress.AddRecords(read)
			read = 0
			if out != nil && time.Since(told) >= p.opt.Interval {
				out.Summary(det.Live(), rd.Stats())
				told = time.Now()
			}
		}
		// In place, not copied out: the record is the reader's until the
		// next call, and the Detector copies what it keeps.
		switch rec, err := rd.Next(); {
		case err == nil:
			read++
			mine, in := p.admit(rec)
			switch {
			case !mine:
				elsewhere++
				if in {
					det.Pass(rec)
				}
			case in:
				det.Add(rec)
			}
		case err == io.EOF || ctx.Err() != nil:
			return p.shardStats(rd.Stats(), elsewhere), nil
		case !errors.As(err, &pe):
			return p.shardStats(rd.Stats(), elsewhere), err
		case p.opt.Strict:
			return p.shardStats(rd.Stats(), elsewhere), strict(err)
		case out != nil:
			out.Malformed(det.Clock(), pe)
		}
	}
}

// readBlocks is read for a Pool: the reader's blocks go to the workers
// whole, each record marked as in the window and this shard's or not, and
// come back to the reader when every worker is done with them.
func (p *pass) readBlocks(ctx context.Context, rd *logparse.ParallelReader) (logparse.Stats, error) {
	var elsewhere int64
	for ctx.Err() == nil {
		b, err := rd.ReadBatch()
		switch {
		case err == io.EOF:
			return p.shardStats(rd.Stats(), elsewhere), nil
		case err != nil:
			return p.shardStats(rd.Stats(), elsewhere), err
		}
		recs := b.Records
		var strictErr error
		if p.opt.Strict && len(b.Errors) > 0 {
			// The records before the first malformed line count.
			pe := b.Errors[0]
			recs = recs[:countBefore(recs, pe.Line)]
			strictErr = strict(pe)
		}
		keep, mine := make([]bool, len(recs)), []bool(nil)
		if p.opt.Shard.N > 1 {
			mine = make([]bool, len(recs))
		}
		for i := range recs {
			m, in := p.admit(&recs[i])
			keep[i] = in
			if !m {
				elsewhere++
			}
			if mine != nil {
				mine[i] = m
			}
		}
		p.progress.AddRecords(int64(len(recs)))
		p.det.pool.Add(recs, keep, mine, func() { rd.Release(b) })
		if strictErr != nil {
			return p.shardStats(rd.Stats(), elsewhere), strictErr
		}
	}
	return p.shardStats(rd.Stats(), elsewhere), nil
}

// countBefore is how many of recs (in line order) come before line.
func countBefore(recs []logparse.Record, line int64) int {
	n := 0
	for n < len(recs) && recs[n].Line < line {
		n++
	}
	return n
}

// noteInput keeps the fingerprint of an input read read, for inputs. An
// input without bytes is left out: it adds nothing to a report, and every
// empty file would be "the same input".
func (p *pass) noteInput(d *input.Digest) {
	sum, n, ok := d.Sum()
	switch {
	case !ok:
		p.digestsCut = true
	case n > 0:
		p.digests = append(p.digests, sum)
	}
}

// inputs are the fingerprints (input.Digest) of the inputs read read,
// sorted, without repeats: robowatch merge refuses shards of different
// inputs and parts that share one. nil when an input was not read to its
// end (the run was interrupted): its bytes so far are no input's.
func (p *pass) inputs() []string {
	if p.digestsCut {
		return nil
	}
	return slices.Compact(append([]string{}, slices.Sorted(slices.Values(p.digests))...))
}
