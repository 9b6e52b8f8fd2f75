package cli

import (
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/robowatch/robowatch/report"
)

// outputFlags say what is written: the output format, its sections and
// rows, colour and width, the progress line, and the exit status --fail-on
// asks for.
type outputFlags struct {
	output          string
	sections        []string
	top, width      int
	failOn          []string
	color, progress string
	site            string
}

func (f *outputFlags) flags(fs *pflag.FlagSet) {
	fs.StringVarP(&f.output, "output", "o", "table", "output: "+strings.Join(report.Formats, ", ")+"; a block list: "+strings.Join(report.BlockFormats, ", "))
	fs.StringSliceVar(&f.sections, "section", nil, "print only these sections: "+strings.Join(report.Sections, ","))
	fs.IntVar(&f.top, "top", 20, "rows per list in tables; in JSON and CSV only when given (0: all)")
	fs.StringSliceVar(&f.failOn, "fail-on", nil, "exit 3 when the report has any of: violations (needs --robots), incidents, robots, scanners, impostors (for cron and monitoring)")
	fs.StringVar(&f.color, "color", "auto", "colour headings: auto (on a terminal, unless NO_COLOR is set), always, never")
	fs.StringVar(&f.progress, "progress", "auto", "progress line on stderr: auto (when stderr is a terminal), always, never")
	fs.IntVar(&f.width, "width", 0, "fit tables to N columns (default: the terminal's width, else $COLUMNS, else 100)")
	fs.StringVar(&f.site, "site", "", "-o ledger: the site's name in the ledger, e.g. example.org (see docs/scale-out.md)")
}

func (f *outputFlags) apply(a *Analyse, _ *pflag.FlagSet) error {
	if !slices.Contains(report.Formats, f.output) && !slices.Contains(report.BlockFormats, f.output) {
		return usagef("--output %q: want one of %s", f.output, strings.Join(append(slices.Clone(report.Formats), report.BlockFormats...), ", "))
	}
	if err := siteOption(f.site, f.output == "ledger"); err != nil {
		return usagef("%v", err)
	}
	for _, s := range f.sections {
		if !slices.Contains(report.Sections, s) {
			return usagef("--section %q: want some of %s", s, strings.Join(report.Sections, ","))
		}
	}
	if f.output == "csv" && len(f.sections) > 1 {
		// Said before the log is read, not after.
		return usagef("-o csv writes one section; choose one with --section (%s)", strings.Join(report.Sections, ", "))
	}
	for _, n := range []struct {
		flag  string
		value int
	}{{"top", f.top}, {"width", f.width}} {
		if err := checkCount(n.flag, n.value); err != nil {
			return err
		}
	}
	for _, c := range f.failOn {
		if !slices.Contains(FailConditions, c) {
			return usagef("--fail-on %q: want some of %s", c, strings.Join(FailConditions, ","))
		}
	}
	for _, m := range []struct{ flag, value string }{{"color", f.color}, {"progress", f.progress}} {
		if !slices.Contains(modes, m.value) {
			return usagef("--%s %q: want auto, always or never", m.flag, m.value)
		}
	}
	a.Output, a.FailOn = f.output, f.failOn
	return nil
}

// finish sets what depends on the streams: the progress line, colour and
// width.
func (f *outputFlags) finish(a *Analyse, fs *pflag.FlagSet, stdin io.Reader, stdout, stderr io.Writer) {
	// A progress line would only get in the way of someone typing a log.
	a.Progress = on(f.progress, stderr) && (f.progress == "always" || !on("auto", stdin))
	a.Report = report.Options{Sections: f.sections, Top: f.top, Width: width(stdout, f.width, fs.Changed("width")),
		Color: f.color == "always" || (f.color == "auto" && os.Getenv("NO_COLOR") == "" && on("auto", stdout)), Site: f.site}
	if (f.output == "json" || f.output == "csv") && !fs.Changed("top") {
		a.Report.Top = 0 // scripts get every row unless they ask for fewer
	}
}
