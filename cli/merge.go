package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/robowatch/robowatch/input"
	"github.com/robowatch/robowatch/report"
	"github.com/robowatch/robowatch/robots"
)

const mergeUsage = `Usage:
  robowatch merge [-o FORMAT] [--top N] [--section LIST] PART.json...
  robowatch merge LEDGER.json...      the ledgers of several sites (-o ledger --site NAME) into one

Combines JSON reports into one report, in any output format. The parts are
the shards of one log (robowatch --shard I/N -o json --top 0 LOG, one per
shard: the merged report is the one a single run makes) or the reports of
consecutive logs (seven days into a week: counts add up, each client's
peaks are the highest of the parts). Each part must be a whole -o json
report (--top 0, no --section); a part may be gzip-compressed. The parts
must be made with the same --burst, --sustained, --max-clients, --robots,
--trust-proxy, --since and --until; only consecutive logs (no shards) may
differ in --robots, and merge with a warning (a site changed its file).
The shards of a split must have read the same log, and no two parts but
shards of one split may have read the same one (a whole report beside its
own shards would count the log twice): each part names its inputs by a
fingerprint of their content.

Ledgers (robowatch -o ledger --site NAME LOG) merge into a ledger of all
their sites: per robot its sums, the sites that saw it, and its shares
worked out from the sums. Two ledgers of one site over the same time are
refused (its robots would count twice), as are ledgers mixed with JSON
reports. The JSON reports of a site's shards or days merge into its ledger
with -o ledger --site NAME.

Exit status: 0 merged, 1 a part could not be read or merged, or the report
is incomplete (a part names an input it could not read, a part's run was
interrupted, or shards are missing), 2 usage error (also --fail-on
violations when no part was checked against a robots.txt), 3 a --fail-on
condition was found.

Examples:
  robowatch merge part-*.json
  robowatch merge -o json --top 0 mon.json tue.json wed.json > week.json
  robowatch merge -o robots.txt --robots /var/www/html/robots.txt part-*.json
  robowatch merge site-a.ledger.json site-b.ledger.json > pooled.ledger.json

Flags:
`

// Merge is robowatch merge: one report out of the JSON reports of parts of
// the traffic.
type Merge struct {
	Parts  []string // the JSON reports
	Robots string   // --robots: the site's robots.txt, which -o robots.txt starts from
	Output string   // one of report.Formats, or a block list format
	Report report.Options
	Block  report.BlockOptions
	FailOn []string

	outputSet bool // -o was given: a merge of ledgers writes a ledger, and refuses another format asked for
}

func parseMerge(args []string, stdout, stderr io.Writer) (*Merge, error) {
	fs := pflag.NewFlagSet("robowatch merge", pflag.ContinueOnError)
	var m Merge
	formats := slices.DeleteFunc(append(slices.Clone(report.Formats), report.BlockFormats...), func(f string) bool { return f == "jsonl" })
	fs.StringVarP(&m.Output, "output", "o", "table", "output: "+strings.Join(formats, ", "))
	top := fs.Int("top", 20, "rows per list in tables; in JSON and CSV only when given (0: all)")
	sections := fs.StringSlice("section", nil, "print only these sections: "+strings.Join(report.Sections, ","))
	fs.StringSliceVar(&m.FailOn, "fail-on", nil, "exit 3 when the merged report has: "+strings.Join(FailConditions, ", "))
	block := fs.StringSlice("block", nil, "block lists take: impostors, violators, scanners, incidents, robots, purpose:P, name:N (default impostors,violators,scanners,incidents)")
	allow := fs.StringArray("allow", nil, "never put this address or CIDR network in a block list (repeatable)")
	fs.StringVar(&m.Robots, "robots", "", "the site's robots.txt (FILE or URL), for -o robots.txt to start from")
	site := fs.String("site", "", "-o ledger of JSON reports: the site's name in the ledger")
	cols := fs.Int("width", 0, "fit tables to N columns (default: the terminal's width, else $COLUMNS, else 100)")
	if ok, err := parseFlags(fs, "robowatch merge", mergeUsage, args, stdout, stderr); !ok {
		return nil, err
	}
	usage := func(format string, v ...any) (*Merge, error) {
		return nil, &UsageError{"robowatch merge", fmt.Sprintf(format, v...)}
	}
	m.Parts = fs.Args()
	switch {
	case len(m.Parts) == 0:
		return usage("give the JSON reports to merge")
	case m.Output == "jsonl":
		return usage("-o jsonl is the event stream of a run; a merge has no events (use -o json)")
	case !slices.Contains(formats, m.Output):
		return usage("--output %q: want one of %s", m.Output, strings.Join(formats, ", "))
	case *top < 0 || *cols < 0:
		return usage("--top and --width take 0 or more")
	}
	if err := siteOption(*site, m.Output == "ledger"); err != nil && !(m.Output == "ledger" && *site == "") {
		// Without --site, -o ledger may still be a merge of ledgers, which
		// name their sites: told apart once the parts are read (Run).
		return usage("%v", err)
	}
	m.outputSet = fs.Changed("output")
	for _, c := range m.FailOn {
		if !slices.Contains(FailConditions, c) {
			return usage("--fail-on %q: want one of %s", c, strings.Join(FailConditions, ", "))
		}
	}
	var err error
	if m.Block, err = blockOptions(*block, *allow, nil, false, 8, "robowatch", "input"); err != nil {
		return usage("%v", err)
	}
	m.Report = report.Options{Sections: *sections, Top: *top, Width: width(stdout, *cols, fs.Changed("width")),
		Color: os.Getenv("NO_COLOR") == "" && on("auto", stdout), Site: *site}
	if (m.Output == "json" || m.Output == "csv") && !fs.Changed("top") {
		m.Report.Top = 0
	}
	return &m, nil
}

// Run merges the parts and writes the report; it returns the exit status.
func (m *Merge) Run(ctx context.Context, stdout, stderr io.Writer) int {
	files := &input.Files{Names: m.Parts}
	defer files.Close()
	readers := make([]io.Reader, len(m.Parts))
	isLedger := make([]bool, len(m.Parts))
	for i, name := range m.Parts {
		r, err := files.Open(ctx, name)
		if err != nil {
			return Status(stderr, fmt.Errorf("robowatch merge: %w", err))
		}
		defer r.Close()
		br := bufio.NewReaderSize(r, 64<<10)
		isLedger[i] = report.IsLedger(br)
		readers[i] = br
	}
	if slices.Contains(isLedger, true) {
		return m.mergeLedgers(readers, isLedger, stdout, stderr)
	}
	if m.Output == "ledger" && m.Report.Site == "" {
		return Status(stderr, &UsageError{"robowatch merge", "-o ledger of JSON reports needs --site NAME: the site's name, which a merge of several sites' ledgers tells them by"})
	}
	rep, err := report.Merge(m.Parts, readers)
	if err != nil {
		return Status(stderr, fmt.Errorf("robowatch merge: %w", err))
	}
	if m.Robots != "" {
		r, warnings, err := robots.Load(ctx, m.Robots, nil)
		for _, w := range warnings {
			Warnf(stderr, "robowatch merge: %s\n", w)
		}
		if err != nil {
			return Status(stderr, &UsageError{"robowatch merge", fmt.Sprintf("--robots %s: %v", robots.Redact(m.Robots), err)})
		}
		rep.SiteRobots = r
	}
	for _, e := range slices.Concat(rep.Errors, rep.Warnings) {
		Warnf(stderr, "robowatch merge: warning: %s\n", e)
	}
	if slices.Contains(report.BlockFormats, m.Output) {
		_, err = report.WriteBlock(stdout, m.Output, rep, m.Block)
	} else if m.Output == "robots.txt" {
		var warnings []string
		warnings, err = report.WriteRobotsTxt(stdout, rep)
		for _, w := range warnings {
			Warnf(stderr, "robowatch merge: warning: %s\n", w)
		}
	} else {
		err = report.Write(stdout, m.Output, rep, m.Report)
	}
	if err != nil {
		return Status(stderr, fmt.Errorf("robowatch merge: writing the report: %w", err))
	}
	if rep.Partial {
		Warnf(stderr, "robowatch merge: warning: a part's run was interrupted before the end of its input: the report is incomplete\n")
	}
	if len(rep.Errors) > 0 || rep.Partial {
		// As a single run over the same inputs: an input that could not be
		// read, shards missing or a run cut short make the report
		// incomplete.
		return ExitError
	}
	if slices.Contains(m.FailOn, "violations") && !rep.Result.ViolationsChecked {
		// As a single run without --robots: no violations is no answer.
		return Status(stderr, &UsageError{"robowatch merge", "--fail-on violations: no part was checked against a robots.txt (written without --robots)"})
	}
	a := Analyse{FailOn: m.FailOn}
	return a.Status(rep.Result, stderr)
}

// mergeLedgers merges parts that are ledgers (isLedger: which are) into one
// ledger. A ledger holds a site's robots, not its clients: it merges with
// ledgers only, and into a ledger only.
func (m *Merge) mergeLedgers(readers []io.Reader, isLedger []bool, stdout, stderr io.Writer) int {
	if j := slices.Index(isLedger, false); j >= 0 {
		l := slices.Index(isLedger, true)
		return Status(stderr, fmt.Errorf("robowatch merge: %s is a ledger and %s is not: ledgers merge with ledgers only; make %s's ledger with -o ledger --site NAME (or merge the JSON reports with -o ledger --site NAME), then merge the ledgers",
			m.Parts[l], m.Parts[j], m.Parts[j]))
	}
	switch {
	case m.outputSet && m.Output != "ledger":
		return Status(stderr, &UsageError{"robowatch merge", fmt.Sprintf("-o %s: ledgers merge into a ledger (-o ledger, the default for ledgers)", m.Output)})
	case m.Report.Site != "":
		return Status(stderr, &UsageError{"robowatch merge", "--site: ledgers name their own sites"})
	case len(m.FailOn) > 0:
		return Status(stderr, &UsageError{"robowatch merge", "--fail-on is for reports: a merge of ledgers has no clients to alert on"})
	}
	l, err := report.MergeLedgers(m.Parts, readers)
	if err != nil {
		return Status(stderr, fmt.Errorf("robowatch merge: %w", err))
	}
	if err := report.WriteLedger(stdout, l); err != nil {
		return Status(stderr, fmt.Errorf("robowatch merge: writing the ledger: %w", err))
	}
	return ExitOK
}
