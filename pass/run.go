package pass

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/robowatch/robowatch/input"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/report"
)

// Run reads opt.Names into the detector and returns the verdicts. An
// input's error is told to Notes and ends only that input, unless the
// Outcome says Stopped; the error returned is one that leaves nothing to
// report. An interrupt (ctx) is no error: the Outcome says Partial, except
// for a -F run, which Ctrl-C ends whole.
func Run(ctx context.Context, opt Options) (*Outcome, error) {
	dnsCtx := ctx // DNS stops at an interrupt, even after a follow run, whose report is whole
	files := &input.Files{Names: opt.Names, Stdin: opt.Stdin}
	defer files.Close()
	p := newPass(opt)
	for _, d := range files.Unique() {
		p.opt.Notes.Duplicate(d)
	}
	o := &Outcome{Reordered: files.Order(ctx, func(r io.Reader) time.Time { t, _ := logparse.FirstTime(r, opt.Format); return t })}
	readCtx, names, cut, err := p.window(ctx, files)
	if err != nil {
		return nil, err
	}
	p.out, p.total = o, len(names)
	p.progress = startProgress(opt.Progress, files)
	defer p.progress.Stop()
	o.Files = files.Names
	p.det = newDetection(opt)
	defer p.det.Close()

	batch, live := split(names, opt.Follow, opt.Out != nil)
	if o.Stopped = p.readBatch(ctx, readCtx, files, batch); o.Stopped {
		return o, nil
	}
	if len(live) > 0 && readCtx.Err() == nil {
		p.progress.Stop() // a live run has no end to show progress towards
		// No file is followed after an interrupt: names are kept pipes.
		stats, errs := p.follow(readCtx, files, live)
		for i, name := range live {
			if o.Stopped = p.account(ctx, name, stats[i], errs[i]); o.Stopped {
				return o, nil
			}
		}
		if opt.Follow && ctx.Err() != nil && !cut {
			ctx = context.Background() // Ctrl-C is how a follow run ends: its report is whole
		}
	}
	p.progress.Stop()
	o.Partial = ctx.Err() != nil
	if opt.AfterRead != nil {
		opt.AfterRead()
	}
	p.verifyDNS(dnsCtx)
	o.Result = p.det.Result() // tells out of the last robots and incidents
	o.Window, o.Outside = p.clip.Window.String(), p.clip.Outside
	if len(live) == 0 && !o.Partial {
		o.Inputs = p.inputs() // a live input is read as it comes: no fingerprint says it
	}
	return o, nil
}

// window resolves a --since or --until counted back from the log's last
// record, which takes a first pass over the inputs. It returns what is to
// be read and until when; cut: an interrupt came in the first pass.
func (p *pass) window(ctx context.Context, files *input.Files) (readCtx context.Context, names []string, cut bool, err error) {
	readCtx, names = ctx, files.Names
	if !p.clip.Since.Relative() && !p.clip.Until.Relative() {
		return readCtx, names, false, nil
	}
	last, err := files.Last(ctx, func(r io.Reader) time.Time { return logparse.LastTime(r, p.opt.Format) })
	switch {
	case ctx.Err() != nil:
		// Interrupted in the first pass: the pipes read until then are
		// kept, and the partial report is of them. Read from local
		// files, they take no longer than the report.
		readCtx, names, cut = context.Background(), files.Kept(), true
	case err != nil:
		return nil, nil, false, fmt.Errorf("finding the last record for --since/--until: %w", err)
	}
	if !last.IsZero() {
		p.clip.Resolve(last)
	}
	return readCtx, names, cut, nil
}

// startProgress starts the progress line on w, counting the bytes files
// reads against their size; nil (which draws nothing) when w is nil.
func startProgress(w io.Writer, files *input.Files) *report.Progress {
	if w == nil {
		return nil
	}
	pr := report.NewProgress(w, files.Size(), 250*time.Millisecond)
	files.Count = pr.AddBytes
	pr.Start()
	return pr
}

// readBatch reads names, the inputs read to their end, one after the
// other, and reports whether an input's error stopped the pass.
func (p *pass) readBatch(ctx, readCtx context.Context, files *input.Files, names []string) (stop bool) {
	for i, name := range names {
		if readCtx.Err() != nil {
			break
		}
		steps := p.det.Steps()
		if i > 0 {
			p.det.NewInput()
		}
		stats, err := p.read(readCtx, files, name)
		if n := p.det.Steps(); n > steps {
			p.opt.Notes.StepBack(name, i > 0)
		}
		if p.account(ctx, name, stats, err) {
			return true
		}
	}
	return false
}

// account adds what reading one input gave to the Outcome and tells Notes;
// stop: no report (--strict, or none of the inputs could be read).
func (p *pass) account(ctx context.Context, name string, stats logparse.Stats, err error) (stop bool) {
	if err == nil && ctx.Err() == nil {
		if err = stats.NothingRead(name, p.opt.Format == nil); err != nil {
			stats.Format = "" // no format fitted it: none to name
		}
	}
	p.out.Stats.Merge(stats)
	p.out.FileFormats = append(p.out.FileFormats, report.FileFormat{File: name, Format: stats.Format})
	p.opt.Notes.Input(name, stats, err)
	if err == nil {
		return false
	}
	if stats.Records == 0 {
		p.unread++
	}
	p.out.Errors = append(p.out.Errors, err.Error())
	return p.opt.Strict || p.unread == p.total
}
