package pass

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/robowatch/robowatch/detect"
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
	mine = p.opt.Shard.Owns(rec.Client)
	return mine, p.inWindow(rec, mine)
}

// inWindow tells whether rec is in the window, counting this shard's
// records left out.
func (p *pass) inWindow(rec *logparse.Record, mine bool) bool {
	if !mine {
		return p.clip.In(rec)
	}
	return p.clip.Keep(rec)
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
// whole, and come back to the reader when every worker is done with them.
// Each block's records are routed to the workers on the goroutine that
// parsed it (route); this one follows the window, in log order.
func (p *pass) readBlocks(ctx context.Context, rd *logparse.ParallelReader) (logparse.Stats, error) {
	pool := p.det.pool
	rd.Prepare = p.route
	var elsewhere int64
	for ctx.Err() == nil {
		b, err := rd.ReadBatch()
		switch {
		case err == io.EOF:
			return p.shardStats(rd.Stats(), elsewhere), nil
		case err != nil:
			return p.shardStats(rd.Stats(), elsewhere), err
		}
		recs, rt := b.Records, b.Note.(*detect.Routes)
		var strictErr error
		if p.opt.Strict && len(b.Errors) > 0 {
			// The records before the first malformed line count.
			pe := b.Errors[0]
			recs = recs[:countBefore(recs, pe.Line)]
			strictErr = strict(pe)
		}
		elsewhere += int64(rt.Elsewhere(len(recs)))
		if !p.clip.Open() {
			for i := range recs {
				if !p.inWindow(&recs[i], rt.Mine(i)) {
					rt.LeaveOut(i)
				}
			}
		}
		p.progress.AddRecords(int64(len(recs)))
		pool.AddRoutes(recs, rt, func() { rd.Release(b) })
		if strictErr != nil {
			return p.shardStats(rd.Stats(), elsewhere), strictErr
		}
	}
	return p.shardStats(rd.Stats(), elsewhere), nil
}

// route resolves the clients of b's records behind the trusted proxies and
// routes them to the Pool's workers (ParallelReader.Prepare: on the
// goroutine that parsed them).
func (p *pass) route(b *logparse.Batch) {
	rt, _ := b.Note.(*detect.Routes)
	if rt == nil {
		rt = new(detect.Routes)
		b.Note = rt
	}
	for i := range b.Records {
		p.opt.Proxies.Resolve(&b.Records[i])
	}
	var memo *detect.PathMemo // the parser's, kept for its next batches
	if b.Local != nil {
		memo, _ = (*b.Local).(*detect.PathMemo)
		if memo == nil {
			memo = detect.NewPathMemo()
			*b.Local = memo
		}
	}
	p.det.pool.Route(b.Records, p.opt.Shard, rt, memo)
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
