package cli

import (
	"fmt"
	"io"

	"github.com/robowatch/robowatch/detect"
	"github.com/robowatch/robowatch/input"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/pass"
	"github.com/robowatch/robowatch/report"
)

// runNotes says on stderr what happens to a run's inputs (pass.Notes), and
// keeps the exit status their errors call for.
type runNotes struct {
	stderr io.Writer
	strict bool // --strict: an input's first malformed line is its error, no warning
	status int
}

// Duplicate says that a file named was another one, read once.
func (n *runNotes) Duplicate(d input.Duplicate) {
	if d.Name == d.Of {
		Warnf(n.stderr, "robowatch: warning: %s is named twice: read once\n", d.Name)
	} else {
		Warnf(n.stderr, "robowatch: warning: %s is the same file as %s: read once\n", d.Name, d.Of)
	}
}

// StepBack says that name went back in time (see
// detect.Detector.NewInput); after says it was not the first input.
func (n *runNotes) StepBack(name string, after bool) {
	if after {
		Warnf(n.stderr, "robowatch: note: %s goes back in time: it overlaps the files before it (two servers' logs of the same hours?) or its server clock was set back; its rates are judged on its own clock, per file, not added to theirs\n", name)
		return
	}
	Warnf(n.stderr, "robowatch: note: %s goes back in time (a server clock set back?); rates are judged on the clock from there\n", name)
}

// Input says what was odd about an input read, and its error.
func (n *runNotes) Input(name string, stats logparse.Stats, err error) {
	if w := stats.Warning(name); w != "" && !n.strict { // --strict stops at the first instead
		Warnf(n.stderr, "robowatch: warning: %s\n", w)
	}
	if err != nil {
		n.status = Status(n.stderr, fmt.Errorf("robowatch: %w", err))
	}
}

// Following says what went wrong with a followed file.
func (n *runNotes) Following(ev input.FollowEvent) {
	switch ev.Kind {
	case input.FollowError:
		Warnf(n.stderr, "robowatch: %s: %v (still following)\n", ev.Name, ev.Err)
	case input.FollowRemoved:
		Warnf(n.stderr, "robowatch: %s: removed; waiting for it to come back\n", ev.Name)
	}
}

// LiveOutput is where a run's findings go as they are found: -o jsonl's
// events, or -F's live view on a terminal; nil for a batch run. It sets
// cfg.Events accordingly.
func (opt *Analyse) LiveOutput(stdout io.Writer, cfg *detect.Config) pass.LiveOutput {
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
