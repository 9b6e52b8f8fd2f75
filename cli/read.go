package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
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
func (opt *Analyse) ReadLog(ctx context.Context, files *input.Files, name string, clip *logparse.Clip, det *detect.Detector, progress *report.Progress, out LiveOutput) (logparse.Stats, error) {
	r, err := files.Open(ctx, name)
	if err != nil && ctx.Err() != nil {
		return logparse.Stats{}, nil // interrupted while waiting for the first bytes: no read error
	} else if err != nil {
		return logparse.Stats{}, err
	}
	defer r.Close()
	// Parsing runs on every core; records come in log order, as the Detector needs.
	rd := logparse.NewParallelReader(r, name, opt.Format)
	rd.ReuseRecord = true // the Detector copies what it keeps
	defer rd.Close()
	var (
		rec  logparse.Record
		read int64
		pe   *logparse.ParseError // out of the loop: errors.As makes it escape
		told = time.Now()         // the last running summary
	)
	for n := 0; ; n++ {
		if n&1023 == 0 {
			if ctx.Err() != nil {
				return rd.Stats(), nil
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
			if read++; clip.Keep(&rec) {
				det.Add(&rec)
			}
		case err == io.EOF || ctx.Err() != nil:
			return rd.Stats(), nil
		case !errors.As(err, &pe):
			return rd.Stats(), err
		case opt.Strict:
			return rd.Stats(), fmt.Errorf("--strict: %w", err)
		case out != nil:
			out.Malformed(det.Clock(), pe)
		}
	}
}
