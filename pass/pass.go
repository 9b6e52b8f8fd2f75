// Package pass is one pass over the logs: it opens the inputs in order,
// cuts their records to the --since/--until window, and feeds them to the
// detector, read to their end (a batch run, or one --shard of it) or as
// their lines come (-F, or -o jsonl's pipes); then it works out the
// verdicts. One path serves all of them, as a tailer with a "follow"
// option would: what differs is how an input is read, not what is done
// with its records or how what it gave is accounted.
//
// The command line (package cli) says what happened, in its own words,
// through Notes, and writes the report of the Outcome.
package pass

import (
	"io"
	"time"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/detect"
	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/input"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/report"
)

// Options are what a pass reads and how.
type Options struct {
	Names    []string         // the inputs in the order given; input.Stdin is standard input
	Stdin    io.Reader        // what input.Stdin reads
	Format   *logparse.Format // nil: detect each input's format
	Strict   bool             // the first malformed line is an input's error
	Since    logparse.TimeBound
	Until    logparse.TimeBound
	Proxies  logparse.Proxies // --trust-proxy
	Shard    findings.Shard   // judge only this shard's clients
	Detect   detect.Config    // with robots.txt loaded; Events set when Out is
	DNS      *agents.Verifier // checks the claims the ranges cannot settle, after reading; nil: no DNS
	Workers  int              // detectors judging in parallel in a batch run
	Follow   bool             // follow the files as tail -F does, until ctx is done
	Interval time.Duration    // how often Out gets a running summary
	Out      LiveOutput       // nil: a batch run; else findings go to Detect.Events as found
	Progress io.Writer        // where the progress line is drawn; nil: none
	Notes    Notes            // told what happens to the inputs; nil: no one
	// AfterRead, if set, is called once the last record was read and
	// before the verdicts are worked out (the heap profile's moment).
	AfterRead func()
}

// LiveOutput is where a live run sends what is not a finding: running
// summaries every Interval and what happened to its inputs. The findings
// themselves go to the detector's Events.
type LiveOutput interface {
	Summary(live findings.Live, stats logparse.Stats)
	File(t time.Time, kind, file string)
	Error(t time.Time, kind, file, message string)
	Malformed(t time.Time, e *logparse.ParseError)
}

// Notes are told, as the pass goes, what the user is to hear of its
// inputs; the words are the caller's.
type Notes interface {
	Duplicate(d input.Duplicate)                        // a file named twice, read once
	StepBack(name string, after bool)                   // name went back in time; after: not the first input
	Input(name string, stats logparse.Stats, err error) // an input was read: what it gave, and its error if any
	Following(ev input.FollowEvent)                     // a followed file's read error (still followed) or removal
}

// Outcome is what a pass read and found.
type Outcome struct {
	Files       []string // the inputs, each once, in the order read
	Reordered   bool     // the files were read in time order, not the order given
	Stats       logparse.Stats
	FileFormats []report.FileFormat
	Errors      []string // the inputs' errors
	// Stopped: an input's error ended the pass (--strict, or no input
	// could be read), which wants no report; Notes.Input was told.
	Stopped bool
	Partial bool             // interrupted: the verdicts are of what was read until then
	Result  *findings.Result // nil when Stopped
	Window  string           // the --since/--until window; "" when none
	Outside int64            // records outside Window
	// Inputs are the fingerprints of the inputs (input.Digest), sorted,
	// without repeats; nil for a live or partial pass, whose bytes are
	// no whole input's.
	Inputs []string
}

// quiet is the Notes of a pass that tells no one.
type quiet struct{}

func (quiet) Duplicate(input.Duplicate)           {}
func (quiet) StepBack(string, bool)               {}
func (quiet) Input(string, logparse.Stats, error) {}
func (quiet) Following(input.FollowEvent)         {}
