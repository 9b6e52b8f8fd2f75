package cli

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
	"github.com/robowatch/robowatch/report"
)

// LiveOutput is where a run's findings go as they are found: -o jsonl's
// events, or -F's live view on a terminal; nil for a batch run. It sets
// cfg.Events accordingly.
func (opt *Analyse) LiveOutput(stdout io.Writer, cfg *detect.Config) LiveOutput {
	switch {
	case opt.Output == "jsonl":
		ew := report.NewEventWriter(stdout)
		cfg.Events = ew
		return ew
	case opt.LiveView:
		v := report.NewLiveView(stdout, opt.Report)
		cfg.Events = v
		return v
	}
	return nil
}

// ReadLog feeds one input to det, cut to the window, and returns what was
// read from it. A malformed line is counted (with --strict, it is the
// error); a read error ends this input but not the run; an interrupt is no
// error: the report says partial.
func (opt *Analyse) ReadLog(ctx context.Context, files *input.Files, name string, clip *logparse.Clip, j *Judge, progress *report.Progress, out LiveOutput) (logparse.Stats, error) {
	r, err := files.Open(ctx, name)
	if err != nil && ctx.Err() != nil {
		return logparse.Stats{}, nil // interrupted while waiting for the first bytes: no read error
	} else if err != nil {
		return logparse.Stats{}, err
	}
	defer r.Close()
	digest := input.NewDigest(r)
	defer opt.noteInput(digest) // after the reader's Close below
	// Parsing runs on every core; records come in log order, as the Detector needs.
	rd := logparse.NewParallelReader(digest, name, opt.Format)
	rd.ReuseRecord = true // the Detector copies what it keeps
	defer rd.Close()
	if j.Pool != nil {
		return opt.readBatches(ctx, rd, clip, j.Pool, progress)
	}
	det := j.Detector
	var (
		rec       logparse.Record
		read      int64
		elsewhere int64                // records of other shards (--shard)
		pe        *logparse.ParseError // out of the loop: errors.As makes it escape
		told      = time.Now()         // the last running summary
	)
	for n := 0; ; n++ {
		if n&1023 == 0 {
			if ctx.Err() != nil {
				return opt.shardStats(rd.Stats(), elsewhere), nil
			}
			progress.AddRecords(read)
			read = 0
			if out != nil && time.Since(told) >= opt.Interval {
				out.Summary(det.Live(), rd.Stats())
				told = time.Now()
			}
		}
		switch err := rd.Read(&rec); {
		case err == nil:
			opt.Proxies.Resolve(&rec)
			read++
			if !opt.Shard.Owns(rec.Client) {
				elsewhere++
				if clip.In(&rec) {
					det.Pass(&rec)
				}
			} else if clip.Keep(&rec) {
				det.Add(&rec)
			}
		case err == io.EOF || ctx.Err() != nil:
			return opt.shardStats(rd.Stats(), elsewhere), nil
		case !errors.As(err, &pe):
			return opt.shardStats(rd.Stats(), elsewhere), err
		case opt.Strict:
			return opt.shardStats(rd.Stats(), elsewhere), fmt.Errorf("--strict: %w", err)
		case out != nil:
			out.Malformed(det.Clock(), pe)
		}
	}
}

// noteInput keeps the fingerprint of an input ReadLog read, for Inputs.
// An input without bytes is left out: it adds nothing to a report, and
// every empty file would be "the same input".
func (opt *Analyse) noteInput(d *input.Digest) {
	sum, n, ok := d.Sum()
	switch {
	case !ok:
		opt.digestsCut = true
	case n > 0:
		opt.digests = append(opt.digests, sum)
	}
}

// Inputs are the fingerprints (input.Digest) of the inputs ReadLog read,
// sorted, without repeats: robowatch merge refuses shards of different
// inputs and parts that share one. nil when an input was not read to its
// end (the run was interrupted): its bytes so far are no input's.
func (opt *Analyse) Inputs() []string {
	if opt.digestsCut {
		return nil
	}
	return slices.Compact(append([]string{}, slices.Sorted(slices.Values(opt.digests))...))
}

// shardStats is what a --shard run counts of an input: its own records, and
// of the lines that are no record, those OwnsLine gives it, so that the
// shards' counts add up to an unsharded run's.
func (opt *Analyse) shardStats(st logparse.Stats, elsewhere int64) logparse.Stats {
	if opt.Shard.N <= 1 {
		return st
	}
	st.Records -= elsewhere
	st.Elsewhere += elsewhere
	if !opt.Shard.Owns("") {
		st.NoClient = 0 // the records with no address are one client: one shard's
	}
	mine := st.Samples[:0:0]
	var theirs int64
	for _, e := range st.Samples {
		if opt.Shard.OwnsLine(e.Line) {
			mine = append(mine, e)
		}
	}
	// Malformed lines past the samples are not known by number: the shard
	// takes its share of them, the first shards one more when they do not
	// divide evenly.
	unsampled := st.Malformed - int64(len(st.Samples))
	theirs = int64(len(st.Samples)-len(mine)) + unsampled - share(unsampled, opt.Shard)
	st.Samples = mine
	st.Malformed -= theirs
	st.MalformedElsewhere += theirs
	if opt.Shard.I != 1 {
		st.Lines -= st.Directives
		st.Directives = 0
	}
	st.Lines -= elsewhere + theirs
	return st
}

// share is shard s's part of n things dealt out one by one.
func share(n int64, s detect.Shard) int64 {
	q, r := n/int64(s.N), n%int64(s.N)
	if int64(s.I) <= r {
		q++
	}
	return q
}

// Judge is the detection of a run: a Pool of Detectors on every core, or
// one Detector for a run that reports as it reads (-o jsonl, -F) or was
// asked for one worker.
type Judge struct {
	*detect.Detector
	Pool *detect.Pool
}

// Judge returns the detection for cfg.
func (opt *Analyse) Judge(cfg detect.Config) *Judge {
	if opt.Workers > 1 && cfg.Events == nil && !opt.Follow {
		return &Judge{Pool: detect.NewPool(cfg, opt.Workers)}
	}
	return &Judge{Detector: detect.New(cfg)}
}

// Close lets a Pool's goroutines end when the run ends without Result.
func (j *Judge) Close() {
	if j.Pool != nil {
		j.Pool.Close()
	}
}

// NewInput tells the detection that another input starts (see
// detect.Detector.NewInput).
func (j *Judge) NewInput() {
	if j.Pool != nil {
		j.Pool.NewInput()
	} else {
		j.Detector.NewInput()
	}
}

// Steps is how many times the log's clock went back so far.
func (j *Judge) Steps() int64 {
	if j.Pool != nil {
		return j.Pool.Steps()
	}
	return j.Detector.Steps()
}

// WarnStepBack says that name went back in time (see
// detect.Detector.NewInput); after says it was not the first input.
func WarnStepBack(stderr io.Writer, name string, after bool) {
	if after {
		Warnf(stderr, "robowatch: note: %s goes back in time: it overlaps the files before it (two servers' logs of the same hours?) or its server clock was set back; its rates are judged on its own clock, per file, not added to theirs\n", name)
		return
	}
	Warnf(stderr, "robowatch: note: %s goes back in time (a server clock set back?); rates are judged on the clock from there\n", name)
}

// Result is the verdicts, once every input was read.
func (j *Judge) Result() *detect.Result {
	if j.Pool != nil {
		return j.Pool.Result()
	}
	return j.Detector.Result()
}

// readBatches is ReadLog for a Pool: the reader's batches go to the
// workers whole, each record marked as in the window and this shard's or
// not, and come back to the reader when every worker is done with them.
func (opt *Analyse) readBatches(ctx context.Context, rd *logparse.ParallelReader, clip *logparse.Clip, pool *detect.Pool, progress *report.Progress) (logparse.Stats, error) {
	var elsewhere int64
	for ctx.Err() == nil {
		b, err := rd.ReadBatch()
		switch {
		case err == io.EOF:
			return opt.shardStats(rd.Stats(), elsewhere), nil
		case err != nil:
			return opt.shardStats(rd.Stats(), elsewhere), err
		}
		recs := b.Records
		var strict error
		if opt.Strict && len(b.Errors) > 0 {
			// The records before the first malformed line count.
			pe := b.Errors[0]
			recs = recs[:countBefore(recs, pe.Line)]
			strict = fmt.Errorf("--strict: %w", pe)
		}
		keep, mine := make([]bool, len(recs)), []bool(nil)
		if opt.Shard.N > 1 {
			mine = make([]bool, len(recs))
		}
		for i := range recs {
			rec := &recs[i]
			opt.Proxies.Resolve(rec)
			if mine != nil {
				if mine[i] = opt.Shard.Owns(rec.Client); !mine[i] {
					elsewhere++
					keep[i] = clip.In(rec)
					continue
				}
			}
			keep[i] = clip.Keep(rec)
		}
		progress.AddRecords(int64(len(recs)))
		pool.Add(recs, keep, mine, func() { rd.Release(b) })
		if strict != nil {
			return opt.shardStats(rd.Stats(), elsewhere), strict
		}
	}
	return opt.shardStats(rd.Stats(), elsewhere), nil
}

// countBefore is how many of recs (in line order) come before line.
func countBefore(recs []logparse.Record, line int64) int {
	n := 0
	for n < len(recs) && recs[n].Line < line {
		n++
	}
	return n
}

// WarnDuplicates says which of the files named were one file, read once.
func WarnDuplicates(stderr io.Writer, dups []input.Duplicate) {
	for _, d := range dups {
		if d.Name == d.Of {
			Warnf(stderr, "robowatch: warning: %s is named twice: read once\n", d.Name)
		} else {
			Warnf(stderr, "robowatch: warning: %s is the same file as %s: read once\n", d.Name, d.Of)
		}
	}
}
