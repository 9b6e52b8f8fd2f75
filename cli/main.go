package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/robowatch/robowatch/detect"
	"github.com/robowatch/robowatch/pass"
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
	out := opt.LiveOutput(stdout, &cfg) // nil: a batch run
	if ew, ok := out.(*report.EventWriter); ok {
		defer ew.Close()
	}
	notes := &runNotes{stderr: stderr, strict: opt.Strict}
	if len(robotsFailed) > 0 {
		notes.status = ExitError // said on stderr already; the report says what was not checked
	}
	o, err := pass.Run(ctx, opt.passOptions(cfg, stdin, stderr, out, notes))
	switch {
	case err != nil:
		return fail(err)
	case o.Stopped:
		return notes.status // no report: nothing to say, or --strict asked for none
	}
	Settle() // the pass's garbage, before the report's
	status := notes.status
	if o.Partial {
		status = ExitInterrupted
	}
	if v, ok := out.(*report.LiveView); ok {
		v.Close() // the final report goes to the shell's own screen
	}
	rep := &report.Report{Files: o.Files, Reordered: o.Reordered, Robots: opt.ShownRobots(), RobotsFailed: robotsFailed, SiteRobots: cfg.Robots, Shard: opt.Shard.String(),
		Options: opt.RunOptions(cfg), Stats: o.Stats, FileFormats: o.FileFormats, Errors: o.Errors, Partial: o.Partial, Result: o.Result,
		Window: o.Window, Outside: o.Outside, SeededFrom: opt.SeededFrom, Inputs: o.Inputs}
	if ew, ok := out.(*report.EventWriter); ok {
		rep.Streamed = ew // the events went out as found: the report adds the final summary
	}
	// The proxy hint reads every network: on a botnet's log (the churn
	// log's 233,249) that was 13-20 ms on one goroutine after the report,
	// and a collection its garbage set off. It is worked out beside the
	// report, which leaves a core idle at times, and said after it. It
	// is given the Result, not rep: the renderers set rep.Result when it
	// is nil (report.Write).
	var hint strings.Builder
	hinted := make(chan struct{})
	res := rep.Result
	go func() { defer close(hinted); opt.ProxyHint(&hint, res) }()
	if err := opt.write(stdout, stderr, rep); err != nil {
		return fail(err)
	}
	<-hinted
	io.WriteString(stderr, hint.String())
	RangesHint(stderr, rep.Result)
	AssetsHint(stderr, rep.Result)
	if status == ExitOK {
		status = opt.Status(rep.Result, stderr) // --fail-on, --client that matched nothing
	}
	return status
}

// passOptions are the options of the pass over the logs that opt asks for,
// with cfg's robots.txt files and out, the live output (nil: none).
func (opt *Analyse) passOptions(cfg detect.Config, stdin io.Reader, stderr io.Writer, out pass.LiveOutput, notes pass.Notes) pass.Options {
	po := pass.Options{Names: opt.Files, Stdin: stdin, Format: opt.Format, Strict: opt.Strict, Since: opt.Since, Until: opt.Until,
		Proxies: opt.Proxies, Shard: opt.Shard, Detect: cfg, DNS: opt.DNS, Workers: opt.Workers, Follow: opt.Follow, Interval: opt.Interval,
		Out: out, Notes: notes, AfterRead: func() { opt.Profiles.WriteHeap(stderr); PassEnded() }}
	po.Detect.Judged = Settle
	if opt.Progress {
		po.Progress = stderr
	}
	return po
}

// write writes the report in the output asked for: a block list, a
// suggested robots.txt, or a report.
func (opt *Analyse) write(stdout, stderr io.Writer, rep *report.Report) error {
	switch {
	case slices.Contains(report.BlockFormats, opt.Output):
		skipped, err := report.WriteBlock(stdout, opt.Output, rep, opt.Block)
		if err != nil {
			return fmt.Errorf("writing the block list: %w", err)
		}
		if len(skipped) > 0 {
			Warnf(stderr, "robowatch: warning: not in the block list, no IP address: %s\n", strings.Join(skipped, ", "))
		}
	case opt.Output == "robots.txt":
		warnings, err := report.WriteRobotsTxt(stdout, rep)
		if err != nil {
			return fmt.Errorf("writing the suggested robots.txt: %w", err)
		}
		for _, w := range warnings {
			Warnf(stderr, "robowatch: warning: %s\n", w)
		}
	default:
		if err := report.Write(stdout, opt.Output, rep, opt.Report); err != nil {
			return fmt.Errorf("writing the report: %w", err)
		}
	}
	return nil
}
