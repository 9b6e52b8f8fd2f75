// Command robowatch reads web-server access logs and tells which clients are
// robots, how hard they hit the server, and which of them ignore robots.txt.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/robowatch/robowatch/detect"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/report"
	"github.com/robowatch/robowatch/robots"
)

// Exit statuses.
const (
	exitOK          = 0
	exitError       = 1 // a runtime error: unreadable file, corrupt input
	exitUsage       = 2 // bad flags or arguments
	exitInterrupted = 130
)

const usageText = `robowatch reads web-server access logs and tells which clients are robots,
how hard they hit the server, and which of them ignore robots.txt.

Usage:
  robowatch [flags] [FILE...]      read FILEs in order; none, or "-", reads standard input
  robowatch check --robots FILE|URL [--agent UA] [--lint] [-o text|json] PATH...

Examples:
  robowatch < /var/log/nginx/access.log
  robowatch /var/log/nginx/access.log*            rotated and .gz files included
  robowatch --robots /var/www/html/robots.txt access.log
  robowatch --robots www.example.com=robots-www.txt --robots api.example.com=robots-api.txt vhost.log
  robowatch -o json access.log | jq '.clients[] | select(.robot)'
  robowatch -o csv --section violations --robots robots.txt access.log > violations.csv
  robowatch -f '$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent"' access.log
  robowatch check --robots https://example.com/robots.txt --agent Googlebot /private/ /blog/

Exit status: 0 success, 1 runtime error (the other files are still read and
reported), 2 usage error, 130 interrupted (the report of what was read is
printed, marked partial).

Flags:
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is robowatch with its arguments and standard streams, so tests can
// call it as a user would.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "check" {
		return runCheck(ctx, args[1:], stdout, stderr)
	}

	fs := pflag.NewFlagSet("robowatch", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.SortFlags = false
	var (
		format     = fs.StringP("format", "f", "auto", "log format: auto, "+strings.Join(logparse.FormatNames[:3], ", ")+", or an Apache LogFormat / nginx log_format string")
		output     = fs.StringP("output", "o", "table", "output: "+strings.Join(report.Formats, ", "))
		robotsSrc  = fs.StringArray("robots", nil, "the site's robots.txt, FILE or URL; HOST=FILE|URL for one virtual host (repeatable)")
		sections   = fs.StringSlice("section", nil, "print only these sections: "+strings.Join(report.Sections, ","))
		top        = fs.Int("top", 20, "rows per list in tables; in JSON and CSV only when given (0: all)")
		strict     = fs.Bool("strict", false, "stop with an error at the first malformed line")
		burst      = fs.Int("burst", 0, "rapid-fire when a client makes more than N requests in 10 s (default 20)")
		sustained  = fs.Int("sustained", 0, "rapid-fire also when a client makes N requests in 60 s (default 60)")
		maxClients = fs.Int("max-clients", 1_000_000, "clients tracked one by one; further ones are folded into an \"other\" row (0: no cap)")
		help       = fs.BoolP("help", "h", false, "show this help")
	)
	fs.Usage = func() {
		fmt.Fprint(stderr, usageText)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitOK
		}
		fmt.Fprintf(stderr, "robowatch: %v (see robowatch --help)\n", err)
		return exitUsage
	}
	if *help {
		fs.SetOutput(stdout)
		fmt.Fprint(stdout, usageText)
		fs.PrintDefaults()
		return exitOK
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "robowatch: "+format+" (see robowatch --help)\n", a...)
		return exitUsage
	}
	logFormat, err := logparse.ParseFormat(*format)
	if err != nil {
		return usage("--format: %v", err)
	}
	if !contains(report.Formats, *output) {
		return usage("--output %q: want one of %s", *output, strings.Join(report.Formats, ", "))
	}
	for _, s := range *sections {
		if !contains(report.Sections, s) {
			return usage("--section %q: want some of %s", s, strings.Join(report.Sections, ","))
		}
	}
	if *top < 0 || *burst < 0 || *sustained < 0 || *maxClients < 0 {
		return usage("--top, --burst, --sustained and --max-clients take a number of 0 or more")
	}

	cfg := detect.Config{BurstPer10s: *burst, SustainedPer60s: *sustained, MaxClients: *maxClients}
	if err := loadRobots(ctx, *robotsSrc, &cfg, stderr); err != nil {
		fmt.Fprintf(stderr, "robowatch: %v\n", err)
		return exitError
	}

	files := fs.Args()
	if len(files) == 0 {
		files = []string{"-"}
	}
	rep := &report.Report{Files: files, Robots: *robotsSrc}
	det := detect.New(cfg)
	status := exitOK
	for _, name := range files {
		if ctx.Err() != nil {
			break
		}
		stats, err := readLog(ctx, name, stdin, logFormat, *strict, det)
		rep.Stats.Merge(stats)
		if err != nil {
			fmt.Fprintf(stderr, "robowatch: %v\n", err)
			rep.Errors = append(rep.Errors, err.Error())
			status = exitError
			if *strict {
				return exitError
			}
		}
	}
	if ctx.Err() != nil {
		rep.Partial = true
		status = exitInterrupted
	}
	rep.Result = det.Result()

	opt := report.Options{Sections: *sections, Top: *top}
	if *output == "json" || *output == "csv" {
		opt.Top = 0
		if fs.Changed("top") {
			opt.Top = *top
		}
	}
	if f, ok := stdout.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil {
			opt.Width = w
		}
	}
	if err := report.Write(stdout, *output, rep, opt); err != nil {
		fmt.Fprintf(stderr, "robowatch: writing the report: %v\n", err)
		return exitError
	}
	return status
}

// readLog feeds one input to the detector and returns what was read from it.
// A malformed line is counted (or, with strict, is the error); a read error
// ends this input but not the run.
func readLog(ctx context.Context, name string, stdin io.Reader, f *logparse.Format, strict bool, det *detect.Detector) (logparse.Stats, error) {
	var in io.Reader
	if name == "-" {
		r, err := logparse.Decompress(stdin, "-")
		if err != nil {
			return logparse.Stats{}, err
		}
		in = r
	} else {
		rc, err := logparse.Open(name)
		if err != nil {
			return logparse.Stats{}, err
		}
		defer rc.Close()
		in = rc
	}
	rd := logparse.NewReader(in, name, f)
	var rec logparse.Record
	for n := 0; ; n++ {
		if n&1023 == 0 && ctx.Err() != nil {
			return rd.Stats(), nil
		}
		err := rd.Read(&rec)
		if err == nil {
			det.Add(&rec)
			continue
		}
		if err == io.EOF {
			return rd.Stats(), nil
		}
		var pe *logparse.ParseError
		if errors.As(err, &pe) {
			if strict {
				return rd.Stats(), fmt.Errorf("--strict: %w", err)
			}
			continue
		}
		return rd.Stats(), err
	}
}

// loadRobots reads the --robots sources into cfg: "FILE|URL" for the whole
// log, "HOST=FILE|URL" for one virtual host.
func loadRobots(ctx context.Context, sources []string, cfg *detect.Config, stderr io.Writer) error {
	for _, src := range sources {
		host, where := splitHostSource(src)
		r, err := readRobots(ctx, where, stderr)
		if err != nil {
			return fmt.Errorf("--robots %s: %w", src, err)
		}
		if host == "" {
			if cfg.Robots != nil {
				return fmt.Errorf("--robots %s: a robots.txt for the whole log was already given; use HOST=FILE for virtual hosts", src)
			}
			cfg.Robots = r
			continue
		}
		if cfg.RobotsByHost == nil {
			cfg.RobotsByHost = map[string]*robots.Robots{}
		}
		cfg.RobotsByHost[strings.ToLower(host)] = r
	}
	return nil
}

// splitHostSource splits "HOST=SOURCE". A source with no "=" before its
// first "/" or ":" (a path or a URL) is for the whole log.
func splitHostSource(s string) (host, source string) {
	i := strings.IndexByte(s, '=')
	if i <= 0 || strings.ContainsAny(s[:i], "/:\\") {
		return "", s
	}
	return s[:i], s[i+1:]
}

// readRobots reads a robots.txt from a file, or fetches it from a URL and
// reads the outcome as RFC 9309 prescribes. What happened, and anything odd
// about the file, is said on stderr.
func readRobots(ctx context.Context, src string, stderr io.Writer) (*robots.Robots, error) {
	var r *robots.Robots
	if strings.HasPrefix(src, "http://") || strings.HasPrefix(src, "https://") {
		res, err := robots.Fetch(ctx, src, nil)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(stderr, "robowatch: robots.txt %s\n", report.Escape(res.String()))
		return res.Robots, nil
	}
	f, err := os.Open(src)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err = robots.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", src, err)
	}
	if r.Truncated {
		fmt.Fprintf(stderr, "robowatch: warning: %s is larger than %d KiB; only its first %d KiB were read (RFC 9309)\n", src, robots.MaxSize>>10, robots.MaxSize>>10)
	}
	if r.HTML {
		fmt.Fprintf(stderr, "robowatch: warning: %s looks like an HTML page, not a robots.txt; its lines are skipped\n", src)
	}
	return r, nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

const checkUsage = `Usage:
  robowatch check --robots FILE|URL [--agent UA] [-o text|json|csv] PATH...
  robowatch check --robots FILE|URL --lint [-o text|json|csv]

For each PATH (path and query, as in a request line), says whether the robot
whose User-agent is UA may fetch it, which group of the robots.txt applied and
which rule decided, with its line. UA may be a product token (Googlebot) or a
whole User-agent header as logged. --lint lists what the file's author
probably got wrong instead.

Exit status: 0 every path allowed (--lint: no errors found), 1 some path
disallowed (--lint: errors found), 2 usage error or unreadable robots.txt.

Examples:
  robowatch check --robots robots.txt --agent Googlebot /private/x '/search?q=1'
  robowatch check --robots https://example.com/robots.txt -o json /
  robowatch check --robots robots.txt --lint

Flags:
`

// runCheck is ` + "`robowatch check`" + `.
func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("robowatch check", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.SortFlags = false
	var (
		src    = fs.String("robots", "", "the robots.txt: a FILE, or an http(s) URL to fetch")
		agent  = fs.String("agent", "*", "the robot's User-agent: a product token or a whole header")
		lint   = fs.Bool("lint", false, "list what the file's author probably got wrong")
		output = fs.StringP("output", "o", "text", "output: "+strings.Join(report.CheckFormats, ", "))
		help   = fs.BoolP("help", "h", false, "show this help")
	)
	fs.Usage = func() {
		fmt.Fprint(stderr, checkUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitOK
		}
		fmt.Fprintf(stderr, "robowatch check: %v (see robowatch check --help)\n", err)
		return exitUsage
	}
	if *help {
		fs.SetOutput(stdout)
		fmt.Fprint(stdout, checkUsage)
		fs.PrintDefaults()
		return exitOK
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "robowatch check: "+format+" (see robowatch check --help)\n", a...)
		return exitUsage
	}
	switch {
	case *src == "":
		return usage("--robots FILE|URL is required")
	case !contains(report.CheckFormats, *output):
		return usage("--output %q: want one of %s", *output, strings.Join(report.CheckFormats, ", "))
	case *lint && fs.NArg() > 0:
		return usage("--lint takes no paths")
	case !*lint && fs.NArg() == 0:
		return usage("give at least one PATH to check, or --lint")
	}
	r, err := readRobots(ctx, *src, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "robowatch check: --robots %s: %v\n", *src, err)
		return exitUsage
	}
	if *lint {
		problems := robots.Lint(r)
		if err := report.WriteLint(stdout, *output, *src, problems); err != nil {
			fmt.Fprintf(stderr, "robowatch check: %v\n", err)
			return exitUsage
		}
		for _, p := range problems {
			if p.Severity == robots.Error {
				return exitError
			}
		}
		return exitOK
	}
	decisions := r.Check(*agent, fs.Args()...)
	if err := report.WriteCheck(stdout, *output, decisions); err != nil {
		fmt.Fprintf(stderr, "robowatch check: %v\n", err)
		return exitUsage
	}
	for _, d := range decisions {
		if !d.Allowed {
			return exitError
		}
	}
	return exitOK
}
