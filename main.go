// Command robowatch reads web-server access logs and tells which clients are
// robots, how hard they hit the server, and which of them ignore robots.txt:
// bytes (input) → records (logparse) → verdicts (detect) → report.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/robowatch/robowatch/cli"
	"github.com/robowatch/robowatch/detect"
	"github.com/robowatch/robowatch/input"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/report"
)

func main() {
	ctx, stop := cli.InterruptContext()
	defer stop()
	cli.LimitMemory()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is robowatch with its arguments and standard streams, so tests can
// call it as a user would. It returns the exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd, err := cli.Parse(args, stdin, stdout, stderr)
	switch c := cmd.(type) {
	case *cli.Check:
		return c.Run(ctx, stdout, stderr)
	case *cli.Analyse:
		return analyse(ctx, c, stdin, stdout, stderr)
	}
	return cli.Status(stderr, err)
}

// analyse reads the logs into the detector and writes the report.
func analyse(ctx context.Context, opt *cli.Analyse, stdin io.Reader, stdout, stderr io.Writer) int {
	fail := func(err error) int { return cli.Status(stderr, fmt.Errorf("robowatch: %w", err)) }
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
	reordered := files.Order(ctx, func(r io.Reader) time.Time { t, _ := logparse.FirstTime(r, opt.Format); return t })
	clip := &logparse.Clip{Since: opt.Since, Until: opt.Until}
	if clip.Since.Relative() || clip.Until.Relative() {
		last, err := files.Last(ctx, func(r io.Reader) time.Time { return logparse.LastTime(r, opt.Format) })
		if err != nil {
			return fail(fmt.Errorf("finding the last record for --since/--until: %w", err))
		}
		clip.Resolve(last)
	}
	progress := opt.StartProgress(stderr, files) // nil: none
	defer progress.Stop()

	rep := &report.Report{Files: files.Names, Reordered: reordered, Robots: opt.ShownRobots(), RobotsFailed: robotsFailed, SiteRobots: cfg.Robots}
	det := detect.New(cfg)
	status, unread := cli.ExitOK, 0
	if len(robotsFailed) > 0 {
		status = cli.ExitError // said on stderr already; the report says what was not checked
	}
	for _, name := range files.Names {
		if ctx.Err() != nil {
			break
		}
		stats, err := readLog(ctx, files, name, opt, clip, det, progress)
		if err == nil && ctx.Err() == nil {
			if err = stats.NothingRead(name, opt.Format == nil); err != nil {
				stats.Format = "" // no format fitted it: none to name
			}
		}
		rep.Stats.Merge(stats)
		rep.FileFormats = append(rep.FileFormats, report.FileFormat{File: name, Format: stats.Format})
		if w := stats.Warning(name); w != "" {
			cli.Warnf(stderr, "robowatch: warning: %s\n", w)
		}
		if err != nil {
			if stats.Records == 0 {
				unread++
			}
			rep.Errors = append(rep.Errors, err.Error())
			if status = fail(err); opt.Strict || unread == len(files.Names) {
				return status // no report: nothing to say, or --strict asked for none
			}
		}
	}
	progress.Stop()
	if ctx.Err() != nil {
		rep.Partial, status = true, cli.ExitInterrupted
	}
	opt.Profiles.WriteHeap(stderr)
	rep.Result = det.Result()
	rep.Window, rep.Outside = clip.Window.String(), clip.Outside
	if slices.Contains(report.BlockFormats, opt.Output) {
		skipped, err := report.WriteBlock(stdout, opt.Output, rep, opt.Block)
		if err != nil {
			return fail(fmt.Errorf("writing the block list: %w", err))
		}
		if len(skipped) > 0 {
			cli.Warnf(stderr, "robowatch: warning: not in the block list, no IP address: %s\n", strings.Join(skipped, ", "))
		}
	} else if err := report.Write(stdout, opt.Output, rep, opt.Report); err != nil {
		return fail(fmt.Errorf("writing the report: %w", err))
	}
	if status == cli.ExitOK {
		status = opt.Status(rep.Result, stderr) // --fail-on, --client that matched nothing
	}
	return status
}

// readLog feeds one input to det, cut to the window, and returns what was
// read from it. A malformed line is counted (with --strict, it is the
// error); a read error ends this input but not the run; an interrupt is no
// error: the report says partial.
func readLog(ctx context.Context, files *input.Files, name string, opt *cli.Analyse, clip *logparse.Clip, det *detect.Detector, progress *report.Progress) (logparse.Stats, error) {
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
	)
	for n := 0; ; n++ {
		if n&1023 == 0 {
			if ctx.Err() != nil {
				return rd.Stats(), nil
			}
			progress.AddRecords(read)
			read = 0
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
		}
	}
}
