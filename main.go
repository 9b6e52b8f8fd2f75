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
	"slices"
	"sort"
	"strings"
	"time"

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
	exitFailOn      = 3 // --fail-on found what it was asked to
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
  robowatch --client 66.249.64.0/19 --since 2h access.log   timeline of one client (or network)
  robowatch -o markdown --fail-on violations access.log.1   for cron: mail on findings
  robowatch check --robots https://example.com/robots.txt --agent Googlebot /private/ /blog/

Exit status: 0 success, 1 runtime error (the other files are still read and
reported), 2 usage error, 3 --fail-on found what it watches for, 130
interrupted (the report of what was read is printed, marked partial).

Flags:
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		// The first Ctrl-C asks for the partial report; a second one,
		// should that take too long, kills as usual.
		<-ctx.Done()
		stop()
	}()
	limitMemory()
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
		maxClients = fs.Int("max-clients", defaultMaxClients, "clients tracked one by one (about 1 KB each); past it the lightest are folded into an \"other\" row, the heaviest stay exact (0: no cap)")
		sinceFlag  = fs.String("since", "", "only records from this time on: RFC 3339, 2006-01-02 (the log's zone), or a duration back from the last record (2h, 1d)")
		untilFlag  = fs.String("until", "", "only records before this time (same forms as --since)")
		watch      = fs.StringArray("client", nil, "drill down into a client: IP, CIDR (66.249.64.0/19) or host name (repeatable)")
		failOn     = fs.StringSlice("fail-on", nil, "exit 3 when the report has any of: violations (needs --robots), incidents, robots (for cron and monitoring)")
		color      = fs.String("color", "auto", "colour headings: auto (on a terminal, unless NO_COLOR is set), always, never")
		progress   = fs.String("progress", "auto", "progress line on stderr: auto (when stderr is a terminal), always, never")
		help       = fs.BoolP("help", "h", false, "show this help")
		cpuProfile = fs.String("cpuprofile", "", "write a CPU profile (go tool pprof) to FILE")
		memProfile = fs.String("memprofile", "", "write a heap profile (go tool pprof) to FILE, taken after the last record")
	)
	_ = fs.MarkHidden("cpuprofile")
	_ = fs.MarkHidden("memprofile")
	fs.Usage = func() {
		fmt.Fprint(stderr, usageText)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitOK
		}
		warnf(stderr, "robowatch: %v (see robowatch --help)\n", err)
		return exitUsage
	}
	if *help {
		fs.SetOutput(stdout)
		fmt.Fprint(stdout, usageText)
		fs.PrintDefaults()
		return exitOK
	}
	usage := func(format string, a ...any) int {
		warnf(stderr, "robowatch: "+format+" (see robowatch --help)\n", a...)
		return exitUsage
	}
	logFormat, err := logparse.ParseFormat(*format)
	if err != nil {
		return usage("--format: %v", err)
	}
	if !slices.Contains(report.Formats, *output) {
		return usage("--output %q: want one of %s", *output, strings.Join(report.Formats, ", "))
	}
	for _, s := range *sections {
		if !slices.Contains(report.Sections, s) {
			return usage("--section %q: want some of %s", s, strings.Join(report.Sections, ","))
		}
	}
	if *top < 0 || *burst < 0 || *sustained < 0 || *maxClients < 0 {
		return usage("--top, --burst, --sustained and --max-clients take a number of 0 or more")
	}
	for _, f := range *failOn {
		if !slices.Contains(failConditions, f) {
			return usage("--fail-on %q: want some of %s", f, strings.Join(failConditions, ","))
		}
		if f == "violations" && len(*robotsSrc) == 0 {
			// Without robots.txt there are no violations: the alert could
			// never fire, which a cron job would never notice.
			return usage("--fail-on violations needs --robots FILE|URL")
		}
	}
	if !slices.Contains(autoModes, *color) || !slices.Contains(autoModes, *progress) {
		return usage("--color and --progress take auto, always or never")
	}
	var since, until logparse.TimeBound
	if *sinceFlag != "" {
		if since, err = logparse.ParseTimeBound(*sinceFlag); err != nil {
			return usage("--since: %v", err)
		}
	}
	if *untilFlag != "" {
		if until, err = logparse.ParseTimeBound(*untilFlag); err != nil {
			return usage("--until: %v", err)
		}
	}

	cfg := detect.Config{BurstPer10s: *burst, SustainedPer60s: *sustained, MaxClients: *maxClients}
	if len(*watch) > 0 {
		if cfg.Watch, err = detect.WatchList(*watch); err != nil {
			return usage("--client: %v", err)
		}
	}
	if err := loadRobots(ctx, *robotsSrc, &cfg, stderr); err != nil {
		warnf(stderr, "robowatch: %v\n", err)
		return exitError
	}

	files := fs.Args()
	if len(files) == 0 {
		files = []string{"-"}
	}
	if *cpuProfile != "" {
		stopProfile, err := startCPUProfile(*cpuProfile)
		if err != nil {
			warnf(stderr, "robowatch: %v\n", err)
			return exitError
		}
		defer stopProfile()
	}

	in := &inputs{names: files, stdin: stdin, format: logFormat, strict: *strict, ctx: ctx}
	defer in.cleanup()
	reordered := in.timeOrder()
	files = in.names
	if since.Relative() || until.Relative() {
		// A duration counts back from the log's last record, which only a
		// first pass can find; standard input is kept in a temporary file
		// for the second.
		last, err := in.lastTime()
		if err != nil {
			warnf(stderr, "robowatch: finding the last record for --since/--until: %v\n", err)
			return exitError
		}
		in.window.Since, in.window.Until = resolveBound(since, last), resolveBound(until, last)
		in.resolved = true
	} else {
		in.since, in.until = since, until
	}
	if on(*progress, stderr) {
		in.progress = report.NewProgress(stderr, in.totalBytes(), 250*time.Millisecond)
		in.progress.Start()
	}

	rep := &report.Report{Files: files, Reordered: reordered, Robots: *robotsSrc}
	det := detect.New(cfg)
	status := exitOK
	for _, name := range files {
		if ctx.Err() != nil {
			break
		}
		stats, err := in.read(ctx, name, det)
		rep.Stats.Merge(stats)
		if w := malformedWarning(name, stats); w != "" {
			warnf(stderr, "robowatch: warning: %s\n", w)
		}
		if err != nil {
			warnf(stderr, "robowatch: %v\n", err)
			rep.Errors = append(rep.Errors, err.Error())
			status = exitError
			if *strict {
				in.progress.Stop()
				return exitError
			}
		}
	}
	in.progress.Stop()
	if ctx.Err() != nil {
		rep.Partial = true
		status = exitInterrupted
	}
	if *memProfile != "" {
		if err := writeHeapProfile(*memProfile); err != nil {
			warnf(stderr, "robowatch: %v\n", err)
		}
	}
	rep.Result = det.Result()
	rep.Window, rep.Outside = in.window.String(), in.outside

	opt := report.Options{Sections: *sections, Top: *top, Color: *color == "always" || (*color == "auto" && os.Getenv("NO_COLOR") == "" && on("auto", stdout))}
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
		warnf(stderr, "robowatch: writing the report: %v\n", err)
		return exitError
	}
	if status == exitOK && failed(*failOn, rep.Result) {
		return exitFailOn
	}
	return status
}

// failConditions are the findings --fail-on can turn into exit status 3.
var failConditions = []string{"violations", "incidents", "robots"}

// failed reports whether the result has any of the findings named.
func failed(conditions []string, res *detect.Result) bool {
	for _, c := range conditions {
		switch {
		case c == "violations" && res.ViolationCount > 0,
			c == "incidents" && res.IncidentCount > 0,
			c == "robots" && res.RobotCount > 0:
			return true
		}
	}
	return false
}

var autoModes = []string{"auto", "always", "never"}

// on resolves an auto|always|never flag for a stream: auto means "when w is
// a terminal".
func on(mode string, w io.Writer) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func resolveBound(b logparse.TimeBound, last time.Time) time.Time {
	if !b.IsSet() {
		return time.Time{}
	}
	return b.Resolve(last)
}

// inputs reads the logs named on the command line into the detector, cut
// to the --since/--until window.
type inputs struct {
	names    []string
	stdin    io.Reader
	format   *logparse.Format
	strict   bool
	progress *report.Progress // nil: no progress line

	since, until logparse.TimeBound // resolved into window at the first record with a time
	window       logparse.Window
	resolved     bool
	outside      int64 // records outside the window

	spooled string // standard input kept in a temporary file, for two passes

	ctx context.Context // an interrupt ends reads from pipes at once; nil: never
}

// open opens one input: "-" is standard input (or its spooled copy).
// Compression is recognised by content; bytes are counted for progress
// before decompression, so that they compare with the file sizes.
func (in *inputs) open(name string) (io.Reader, func(), error) {
	var raw io.Reader
	closeFn := func() {}
	if name == "-" && in.spooled == "" {
		ir := interruptible(in.ctx, in.stdin)
		raw, closeFn = ir, func() { ir.Close() }
	} else {
		path := name
		if name == "-" {
			path = in.spooled
		}
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		raw, closeFn = f, func() { f.Close() }
		if st, err := f.Stat(); err == nil && !st.Mode().IsRegular() {
			ir := interruptible(in.ctx, f) // a FIFO or a device may never end
			raw, closeFn = ir, func() { ir.Close(); f.Close() }
		}
	}
	if in.progress != nil {
		raw = &countingReader{r: raw, p: in.progress}
	}
	r, err := logparse.Decompress(raw, name)
	if err != nil {
		closeFn()
		return nil, nil, err
	}
	return r, closeFn, nil
}

// read feeds one input to det and returns what was read from it. A
// malformed line is counted (or, with strict, is the error); a read error
// ends this input but not the run.
func (in *inputs) read(ctx context.Context, name string, det *detect.Detector) (logparse.Stats, error) {
	r, closeFn, err := in.open(name)
	if err != nil {
		return logparse.Stats{}, err
	}
	defer closeFn()
	// Parsing runs on every core; records still come in log order, one
	// at a time, as the Detector needs them.
	rd := logparse.NewParallelReader(r, name, in.format)
	rd.ReuseRecord = true // the Detector copies what it keeps
	defer rd.Close()
	var rec logparse.Record
	var pending int64
	for n := 0; ; n++ {
		if n&1023 == 0 {
			if ctx.Err() != nil {
				return rd.Stats(), nil
			}
			if in.progress != nil {
				in.progress.AddRecords(pending)
				pending = 0
			}
		}
		err := rd.Read(&rec)
		if err == nil {
			pending++
			if !in.resolved && !rec.Time.IsZero() {
				in.window.Since, in.window.Until = resolveBound(in.since, rec.Time), resolveBound(in.until, rec.Time)
				in.resolved = true
			}
			if !in.window.Contains(rec.Time) {
				in.outside++
				continue
			}
			det.Add(&rec)
			continue
		}
		if err == io.EOF || ctx.Err() != nil {
			return rd.Stats(), nil // an interrupt is no read error: the report says partial
		}
		var pe *logparse.ParseError
		if errors.As(err, &pe) {
			if in.strict {
				return rd.Stats(), fmt.Errorf("--strict: %w", err)
			}
			continue
		}
		return rd.Stats(), err
	}
}

// lastTime reads every input once for the time of the last record (the
// latest, as times in a log need not be in order).
func (in *inputs) lastTime() (time.Time, error) {
	if slices.Contains(in.names, "-") {
		f, err := os.CreateTemp("", "robowatch-stdin-*")
		if err != nil {
			return time.Time{}, err
		}
		in.spooled = f.Name()
		_, err = io.Copy(f, in.stdin)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return time.Time{}, fmt.Errorf("keeping standard input in %s: %w", in.spooled, err)
		}
	}
	var last time.Time
	for _, name := range in.names {
		r, closeFn, err := in.open(name)
		if err != nil {
			continue // the main pass reports it
		}
		rd := logparse.NewReader(r, name, in.format)
		var rec logparse.Record
		for {
			err := rd.Read(&rec)
			if err != nil && !isParseError(err) {
				break
			}
		}
		closeFn()
		if l := rd.Stats().Last; l.After(last) {
			last = l
		}
	}
	if last.IsZero() {
		return last, errors.New("no record has a time")
	}
	return last, nil
}

// timeOrder sorts the input files by the time of their first record, so
// that "access.log*", which a shell expands newest first (access.log,
// access.log.1, access.log.2.gz), is read oldest first as the rate windows
// need. Only regular files whose first lines have a time move, among the
// places such files hold; standard input, FIFOs and files without times
// stay where they were given. It reports whether the order changed.
func (in *inputs) timeOrder() bool {
	if len(in.names) < 2 {
		return false // nothing to order, and no second open of a file being rotated
	}
	type timed struct {
		name  string
		first time.Time
	}
	var slots []int
	var files []timed
	for i, name := range in.names {
		// Only regular files can be read twice: standard input, a FIFO or
		// a device would lose what the peek read.
		if st, err := os.Stat(name); name == "-" || err != nil || !st.Mode().IsRegular() {
			continue
		}
		r, closeFn, err := in.open(name)
		if err != nil {
			continue // the main pass reports it
		}
		first, _ := logparse.FirstTime(r, in.format)
		closeFn()
		if !first.IsZero() {
			slots = append(slots, i)
			files = append(files, timed{name, first})
		}
	}
	sort.SliceStable(files, func(a, b int) bool { return files[a].first.Before(files[b].first) })
	changed := false
	for k, i := range slots {
		if in.names[i] != files[k].name {
			changed = true
			in.names[i] = files[k].name
		}
	}
	return changed
}

func (in *inputs) cleanup() {
	if in.spooled != "" {
		os.Remove(in.spooled)
	}
}

// totalBytes is the size of the input files, for progress; 0 when any is
// standard input or not a regular file.
func (in *inputs) totalBytes() int64 {
	var total int64
	for _, name := range in.names {
		st, err := os.Stat(name)
		if name == "-" || err != nil || !st.Mode().IsRegular() {
			return 0
		}
		total += st.Size()
	}
	return total
}

func isParseError(err error) bool {
	var pe *logparse.ParseError
	return errors.As(err, &pe)
}

// countingReader counts the bytes read through it for a Progress.
type countingReader struct {
	r io.Reader
	p *report.Progress
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.p.AddBytes(int64(n))
	return n, err
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
		res, err := robots.Fetch(ctx, src, robotsClient)
		if err != nil {
			return nil, err
		}
		warnf(stderr, "robowatch: robots.txt %s\n", res.String())
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
		warnf(stderr, "robowatch: warning: %s is larger than %d KiB; only its first %d KiB were read (RFC 9309)\n", src, robots.MaxSize>>10, robots.MaxSize>>10)
	}
	if r.HTML {
		warnf(stderr, "robowatch: warning: %s looks like an HTML page, not a robots.txt; its lines are skipped\n", src)
	}
	return r, nil
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
		warnf(stderr, "robowatch check: %v (see robowatch check --help)\n", err)
		return exitUsage
	}
	if *help {
		fs.SetOutput(stdout)
		fmt.Fprint(stdout, checkUsage)
		fs.PrintDefaults()
		return exitOK
	}
	usage := func(format string, a ...any) int {
		warnf(stderr, "robowatch check: "+format+" (see robowatch check --help)\n", a...)
		return exitUsage
	}
	switch {
	case *src == "":
		return usage("--robots FILE|URL is required")
	case !slices.Contains(report.CheckFormats, *output):
		return usage("--output %q: want one of %s", *output, strings.Join(report.CheckFormats, ", "))
	case *lint && fs.NArg() > 0:
		return usage("--lint takes no paths")
	case !*lint && fs.NArg() == 0:
		return usage("give at least one PATH to check, or --lint")
	}
	r, err := readRobots(ctx, *src, stderr)
	if err != nil {
		warnf(stderr, "robowatch check: --robots %s: %v\n", *src, err)
		return exitUsage
	}
	if *lint {
		problems := robots.Lint(r)
		if err := report.WriteLint(stdout, *output, *src, problems); err != nil {
			warnf(stderr, "robowatch check: %v\n", err)
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
		warnf(stderr, "robowatch check: %v\n", err)
		return exitUsage
	}
	for _, d := range decisions {
		if !d.Allowed {
			return exitError
		}
	}
	return exitOK
}
