package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/robowatch/robowatch/input"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/report"
)

// Main is robowatch with its arguments and standard streams, so tests can
// call it as a user would. It returns the exit status.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd, err := Parse(args, stdin, stdout, stderr)
	switch c := cmd.(type) {
	case Runner: // check, merge
		return c.Run(ctx, stdout, stderr)
	case *Analyse:
		return analyse(ctx, c, stdin, stdout, stderr)
	}
	return Status(stderr, err)
}

// analyse reads the logs into the detector and writes the report.
func analyse(ctx context.Context, opt *Analyse, stdin io.Reader, stdout, stderr io.Writer) int {
	fail := func(err error) int { return Status(stderr, fmt.Errorf("robowatch: %w", err)) }
	cfg, robotsFailed, err := opt.Config(ctx, stderr) // reads or fetches robots.txt
	if err != nil {
		return fail(err)
	}
	if err := opt.Profiles.Start(); err != nil {
		return fail(err)
	}
	defer opt.Profiles.Stop()

	files := &input.Files{Names: opt.Files, Stdin: stdin}
	defer files.Close()
	WarnDuplicates(stderr, files.Unique())
	reordered := files.Order(ctx, func(r io.Reader) time.Time { t, _ := logparse.FirstTime(r, opt.Format); return t })
	clip := &logparse.Clip{Since: opt.Since, Until: opt.Until}
	readCtx, names, cut := ctx, files.Names, false // what is read, until when; cut: by an interrupt in the first pass
	if clip.Since.Relative() || clip.Until.Relative() {
		last, err := files.Last(ctx, func(r io.Reader) time.Time { return logparse.LastTime(r, opt.Format) })
		switch {
		case ctx.Err() != nil:
			// Interrupted in the first pass: the pipes read until then are
			// kept, and the partial report is of them. Read from local
			// files, they take no longer than the report.
			readCtx, names, cut = context.Background(), files.Kept(), true
		case err != nil:
			return fail(fmt.Errorf("finding the last record for --since/--until: %w", err))
		}
		if !last.IsZero() {
			clip.Resolve(last)
		}
	}
	progress := opt.StartProgress(stderr, files) // nil: none
	defer progress.Stop()

	rep := &report.Report{Files: files.Names, Reordered: reordered, Robots: opt.ShownRobots(), RobotsFailed: robotsFailed, SiteRobots: cfg.Robots, Shard: opt.Shard.String(),
		Options: opt.RunOptions(cfg)}
	out := opt.LiveOutput(stdout, &cfg) // nil: a batch run
	if ew, ok := out.(*report.EventWriter); ok {
		defer ew.Close()
		rep.Streamed = ew // the events went out as found: the report adds the final summary
	}
	det := opt.Judge(cfg) // a Pool on every core, or one Detector for a live run
	defer det.Close()
	status, unread := ExitOK, 0
	if len(robotsFailed) > 0 {
		status = ExitError // said on stderr already; the report says what was not checked
	}
	// account adds what reading one input gave to the report; stop: no report.
	account := func(name string, stats logparse.Stats, err error) (stop bool) {
		if err == nil && ctx.Err() == nil {
			if err = stats.NothingRead(name, opt.Format == nil); err != nil {
				stats.Format = "" // no format fitted it: none to name
			}
		}
		rep.Stats.Merge(stats)
		rep.FileFormats = append(rep.FileFormats, report.FileFormat{File: name, Format: stats.Format})
		if w := stats.Warning(name); w != "" && !opt.Strict { // --strict stops at the first instead
			Warnf(stderr, "robowatch: warning: %s\n", w)
		}
		if err != nil {
			if stats.Records == 0 {
				unread++
			}
			rep.Errors = append(rep.Errors, err.Error())
			status = fail(err)
			return opt.Strict || unread == len(names)
		}
		return false
	}
	batch, live := Split(names, opt.Follow, out != nil)
	for i, name := range batch {
		if readCtx.Err() != nil {
			break
		}
		steps := det.Steps()
		if i > 0 {
			det.NewInput()
		}
		stats, err := opt.ReadLog(readCtx, files, name, clip, det, progress, out)
		if n := det.Steps(); n > steps {
			WarnStepBack(stderr, name, i > 0)
		}
		if account(name, stats, err) {
			return status // no report: nothing to say, or --strict asked for none
		}
	}
	if len(live) > 0 && readCtx.Err() == nil {
		progress.Stop() // a live run has no end to show progress towards
		lv := &Live{Det: det.Detector, Out: out, Interval: opt.Interval, Clip: clip, Proxies: opt.Proxies,
			Strict: opt.Strict, Format: opt.Format, Follow: opt.Follow, Stderr: stderr}
		stats, errs := lv.Run(readCtx, files, live) // no file followed after an interrupt: names are kept pipes
		for i, name := range live {
			if account(name, stats[i], errs[i]) {
				return status
			}
		}
		if opt.Follow && ctx.Err() != nil && !cut {
			ctx = context.Background() // Ctrl-C is how a follow run ends: its report is whole
		}
	}
	progress.Stop()
	if ctx.Err() != nil {
		rep.Partial, status = true, ExitInterrupted
	}
	opt.Profiles.WriteHeap(stderr)
	rep.Result = det.Result() // tells out of the last robots and incidents
	if v, ok := out.(*report.LiveView); ok {
		v.Close() // the final report goes to the shell's own screen
	}
	rep.Window, rep.Outside = clip.Window.String(), clip.Outside
	rep.SeededFrom = opt.SeededFrom
	if len(live) == 0 && !rep.Partial {
		rep.Inputs = opt.Inputs() // a live input is read as it comes: no fingerprint says it
	}
	if slices.Contains(report.BlockFormats, opt.Output) {
		skipped, err := report.WriteBlock(stdout, opt.Output, rep, opt.Block)
		if err != nil {
			return fail(fmt.Errorf("writing the block list: %w", err))
		}
		if len(skipped) > 0 {
			Warnf(stderr, "robowatch: warning: not in the block list, no IP address: %s\n", strings.Join(skipped, ", "))
		}
	} else if opt.Output == "robots.txt" {
		warnings, err := report.WriteRobotsTxt(stdout, rep)
		if err != nil {
			return fail(fmt.Errorf("writing the suggested robots.txt: %w", err))
		}
		for _, w := range warnings {
			Warnf(stderr, "robowatch: warning: %s\n", w)
		}
	} else if err := report.Write(stdout, opt.Output, rep, opt.Report); err != nil {
		return fail(fmt.Errorf("writing the report: %w", err))
	}
	opt.ProxyHint(stderr, rep.Result)
	RangesHint(stderr, rep.Result)
	AssetsHint(stderr, rep.Result)
	if status == ExitOK {
		status = opt.Status(rep.Result, stderr) // --fail-on, --client that matched nothing
	}
	return status
}
