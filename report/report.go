// Package report renders robowatch's findings as terminal tables, JSON, CSV
// and Markdown.
package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/robots"
)

// Version is the version of the JSON report's layout. Fields are only ever
// added to it; a rename or removal would bump it.
const Version = 1

// Report is everything one run found, ready to render.
type Report struct {
	Files        []string         // inputs in the order read ("-" for standard input)
	Reordered    bool             // the files were read in time order, not the order given
	Stats        logparse.Stats   // lines, records, malformed lines, format, span
	Result       *findings.Result // the verdicts; nil renders as an empty result
	Robots       []string         // robots.txt sources used for the violation check, as given
	RobotsFailed []string         // robots.txt sources that could not be fetched, each with why: not checked against
	Errors       []string         // input errors (unreadable file, corrupt gzip); the rest was still read
	Warnings     []string         // what a merge noticed that leaves the report whole (parts checked against different robots.txt files)
	FileFormats  []FileFormat     // the format each input was read in, in the order read
	SiteRobots   *robots.Robots   // the robots.txt for the whole log, for -o robots.txt; nil when none was given
	Partial      bool             // the run was cut short (interrupted): counts cover what was read
	Window       string           // the --since/--until window the records were cut to; "" when none
	Outside      int64            // records outside Window, left out of the verdicts
	Shard        string           // --shard I/N; "" for the whole log
	Options      *RunOptions      // what the run was made with that changes its counts and verdicts; nil: not known
	JudgedApart  int              // merge of consecutive logs: clients of several parts judged a person in each (see judgedApart)
	Inputs       []string         // fingerprints of the inputs (input.Digest), sorted, for merge to tell inputs apart; nil: not known
	SeededFrom   string           // --state-from: the SHA-256 of the report of the day before the run started from; "" none
	DayEdges     string           // a merge of days: what it judged by one day alone (no --state-from); "" exact

	// Streamed, for -o jsonl, is the writer the events went out on while
	// reading: Write then adds only the final summary event.
	Streamed *EventWriter
}

// FileFormat is the format one input was read in ("" when none fitted it).
type FileFormat struct {
	File   string `json:"file"`
	Format string `json:"format"`
}

// span is the time span of the records judged: those in the --since/--until
// window when one was given, else every record read.
func (r *Report) span() (first, last time.Time) {
	// The detector's span leaves out what the window cut and records dated
	// in the future (a forged 9998 would make the span eight thousand years).
	if r.Window != "" || r.Result != nil && r.Result.FutureRecords > 0 {
		return r.Result.First, r.Result.Last
	}
	return r.Stats.First, r.Stats.Last
}

// Options says how to render a Report. The zero value renders every section
// in full with no width limit.
type Options struct {
	Top      int      // rows per list (clients, violations, incidents); 0 means all
	Width    int      // terminal width to fit tables to; 0 means DefaultWidth
	Sections []string // sections to render (see Sections); empty means all
	Color    bool     // mark up headings and warnings with ANSI colour (terminals only)
	Site     string   // -o ledger: the name the ledger gives the site (--site)
}

// Sections names the report's sections, in the order they are rendered.
var Sections = []string{"headline", "summary", "robots", "conduct", "refer", "traffic", "status", "paths", "clients", "violations", "incidents", "malformed", "client"}

// Formats names the output formats Write accepts.
var Formats = []string{"table", "text", "json", "jsonl", "csv", "markdown", "html", "robots.txt", "ledger"}

// Write renders r to w in the named format, one of Formats.
func Write(w io.Writer, format string, r *Report, opt Options) error {
	if err := checkSections(opt.Sections); err != nil {
		return err
	}
	if r.Result == nil {
		r.Result = &findings.Result{}
	}
	switch format {
	case "table":
		return writeText(w, r, opt, new(tableStyle).render)
	case "text":
		return writeText(w, r, opt, plainStyle)
	case "markdown", "md":
		return writeText(w, r, opt, markdownStyle)
	case "json":
		return writeJSON(w, r, opt)
	case "jsonl":
		return writeEvents(w, r)
	case "csv":
		return writeCSV(w, r, opt)
	case "html":
		return writeHTML(w, r, opt)
	case "robots.txt":
		_, err := WriteRobotsTxt(w, r) // its warnings are for callers that can show them
		return err
	case "ledger":
		return writeLedger(w, r, opt)
	}
	return fmt.Errorf("unknown output format %q (want %s)", format, strings.Join(Formats, ", "))
}

func checkSections(names []string) error {
	for _, s := range names {
		if !slices.Contains(Sections, s) {
			return fmt.Errorf("unknown section %q (want %s)", s, strings.Join(Sections, ", "))
		}
	}
	return nil
}

func (o Options) wants(section string) bool {
	return len(o.Sections) == 0 || slices.Contains(o.Sections, section)
}

// top cuts a list of n rows to the Top option.
func (o Options) top(n int) int {
	if o.Top > 0 && n > o.Top {
		return o.Top
	}
	return n
}
