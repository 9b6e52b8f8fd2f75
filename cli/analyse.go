package cli

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/botauth"
	"github.com/robowatch/robowatch/detect"
	"github.com/robowatch/robowatch/input"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/report"
	"github.com/robowatch/robowatch/robots"
)

const analyseUsage = `robowatch reads web-server access logs and tells which clients are robots,
how hard they hit the server, and which of them ignore robots.txt.

Usage:
  robowatch [flags] [FILE...]
	read the FILEs in order; none, or "-", reads standard input
  robowatch check --robots FILE|URL|- [--agent UA] [--lint] [-o text|json|csv] PATH...
	what a robots.txt says about PATHs (robowatch check --help)
  robowatch merge [-o FORMAT] PART.json...
	one report of the JSON reports of --shard runs or of several days (robowatch merge --help)

Exit status: 0 success, 1 runtime error (the other files are still read and
reported), 2 usage error, 3 --fail-on found what it watches for, 130
interrupted (the report of what was read is printed, marked partial; with
-F, Ctrl-C or SIGTERM is how a run ends: exit 0 and the whole report).

Examples:
  robowatch < /var/log/nginx/access.log
  # rotated and .gz files included
  robowatch /var/log/nginx/access.log*
  robowatch --robots /var/www/html/robots.txt access.log
  robowatch --robots www.example.com=robots-www.txt --robots api.example.com=robots-api.txt vhost.log
  robowatch -o json access.log | jq '.clients[] | select(.robot)'
  robowatch -o csv --section violations --robots robots.txt access.log > violations.csv
  # a format robowatch does not recognise: the Apache LogFormat or nginx log_format string
  robowatch -f '%h %l %u %t "%r" %>s %b "%{User-agent}i"' access.log
  # the timeline of one client (or network)
  robowatch --client 66.249.64.0/19 --since 2h access.log
  # for cron: mail on findings
  robowatch -o text --fail-on violations,scanners access.log.1
  # live: follow the log through rotation; Ctrl-C for the report
  robowatch -F /var/log/nginx/access.log
  # events as they happen
  robowatch -F -o jsonl access.log | jq -c 'select(.event == "violation")'
  robowatch check --robots https://example.com/robots.txt --agent Googlebot /private/ /blog/
  # what sites can pool (robowatch merge LEDGER...)
  robowatch -o ledger --site example.org --robots robots.txt access.log

Flags:
`

// Analyse is robowatch's main command: read logs, judge their clients,
// write the report.
type Analyse struct {
	Files    []string         // the logs in the order given; "-" is standard input
	Format   *logparse.Format // nil: detect each file's format
	Strict   bool             // the first malformed line is an error
	Since    logparse.TimeBound
	Until    logparse.TimeBound
	Robots   []string      // --robots values: FILE, URL or HOST=FILE|URL
	Detect   detect.Config // thresholds, --max-clients, --client; robots.txt is the caller's to load
	Output   string        // one of report.Formats
	Report   report.Options
	Block    report.BlockOptions // for the block-list outputs (report.BlockFormats)
	Proxies  logparse.Proxies    // --trust-proxy: the client is the right-most untrusted X-Forwarded-For address
	Shard    detect.Shard        // --shard I/N: only the clients of this shard (for robowatch merge)
	Workers  int                 // --workers: detectors judging in parallel (a batch run)
	Ranges   string              // --ranges DIR|FILE: published crawler ranges to use instead of the built-in ones
	Keys     string              // --keys DIR: Web Bot Auth key directories to verify signatures against
	FailOn   []string            // findings that make the exit status 3 (FailConditions)
	Progress bool                // draw a progress line on stderr
	Profiles Profiles
	Clients  []string // --client values, as given
	// SeededFrom: the SHA-256 of the --state-from report, for the report.
	SeededFrom string

	Follow   bool          // -F: follow the files as they grow, through rotation, until interrupted
	Interval time.Duration // a live run's running summary (-o jsonl) or redraw (terminal) period
	LiveView bool          // -F on a terminal: redraw a live view every Interval

	Client *http.Client // fetches --robots URLs; nil: robots.Fetch's default
}

// Config is the detector's configuration with the robots.txt files of
// --robots read or fetched. What happened to each, and anything odd about
// it, is said on stderr.
//
// failed are the robots.txt URLs that could not be fetched (robots.LoadSet
// leaves them out), each with why, also said on stderr: the run goes on
// without them, and is to end with an error.
func (a *Analyse) Config(ctx context.Context, stderr io.Writer) (cfg detect.Config, failed []string, err error) {
	set, warnings, err := robots.LoadSet(ctx, a.Robots, a.Client)
	for _, w := range warnings {
		Warnf(stderr, "robowatch: %s\n", w)
	}
	if err != nil {
		return a.Detect, nil, fmt.Errorf("--robots %w", err)
	}
	for _, f := range set.Failed {
		Warnf(stderr, "robowatch: error: --robots %s\n", f)
	}
	cfg = a.Detect
	cfg.Robots, cfg.RobotsByHost, cfg.RobotsVersions = set.Default, set.ByHost, set.Versions
	for host, vs := range set.Versions {
		if sizesTell(vs) {
			at := "the whole log"
			if host != "" {
				at = host
			}
			Warnf(stderr, "robowatch: robots.txt versions of %s differ in size: the size of each 2xx robots.txt answer in the log tells which version a robot got\n", at)
		}
	}
	cfg.DNSContext = ctx
	if a.Ranges != "" {
		// A directory of range files, or one file (a JAFAR file, say):
		// read with the history beside it, if any.
		fsys, only := os.DirFS(a.Ranges), []string(nil)
		if st, err := os.Stat(a.Ranges); err == nil && !st.IsDir() {
			fsys, only = os.DirFS(filepath.Dir(a.Ranges)), []string{filepath.Base(a.Ranges)}
		}
		if cfg.Ranges, err = agents.LoadRanges(fsys, only...); err != nil {
			return cfg, nil, fmt.Errorf("--ranges %s: %w", a.Ranges, err)
		}
		if len(cfg.Ranges.Files) == 0 {
			return cfg, nil, fmt.Errorf("--ranges %s: no range file robowatch knows (googlebot.json, googlesc.json, googleutf.json, ipverse-crawlers.json, or a JAFAR file whose service names a robot)", a.Ranges)
		}
	}
	if a.Keys != "" {
		if cfg.Keys, err = botauth.LoadDir(os.DirFS(a.Keys)); err != nil {
			return cfg, nil, fmt.Errorf("--keys %s: %w", a.Keys, err)
		}
		if len(cfg.Keys.Files) == 0 {
			return cfg, nil, fmt.Errorf("--keys %s: no key directory file (HOST.json: the JSON Web Key Set https://HOST/.well-known/http-message-signatures-directory serves)", a.Keys)
		}
	}
	return cfg, set.Failed, nil
}

// RunOptions are the options the report is made with that change its
// counts and verdicts, for robowatch merge to refuse parts made with
// different ones. cfg is Config's, with the robots.txt files read: they are
// named by content, and one that could not be fetched is no file checked
// against.
func (a *Analyse) RunOptions(cfg detect.Config) *report.RunOptions {
	o := &report.RunOptions{Burst: cfg.BurstPer10s, Sustained: cfg.SustainedPer60s, MaxClients: cfg.MaxClients,
		RobotsTxt: []string{}, TrustProxy: []string{}, Since: a.Since.String(), Until: a.Until.String()}
	if o.Burst <= 0 {
		o.Burst = detect.DefaultBurstPer10s
	}
	if o.Sustained <= 0 {
		o.Sustained = detect.DefaultSustainedPer60s
	}
	if cfg.Robots != nil {
		o.RobotsTxt = append(o.RobotsTxt, report.RobotsDigest(cfg.Robots.Text))
	}
	for host, r := range cfg.RobotsByHost {
		o.RobotsTxt = append(o.RobotsTxt, host+"="+report.RobotsDigest(r.Text))
	}
	for host, vs := range cfg.RobotsVersions {
		// Parts judged by other histories are no parts of one report: the
		// later versions name themselves with their times.
		for _, v := range vs[1:] {
			at := v.From.Format(time.RFC3339)
			if v.Date {
				at = v.From.Format(time.DateOnly)
			}
			o.RobotsTxt = append(o.RobotsTxt, host+"@"+at+"="+report.RobotsDigest(v.Robots.Text))
		}
	}
	slices.Sort(o.RobotsTxt)
	for _, p := range a.Proxies {
		if s := p.String(); !slices.Contains(o.TrustProxy, s) {
			o.TrustProxy = append(o.TrustProxy, s)
		}
	}
	slices.Sort(o.TrustProxy)
	return o
}

// sizesTell reports whether some versions of a history differ in size, so
// that a log's answers to robots.txt fetches can tell them apart.
func sizesTell(vs []robots.Version) bool {
	for _, v := range vs[1:] {
		if v.Size != vs[0].Size && v.Size >= 0 && vs[0].Size >= 0 {
			return true
		}
	}
	return false
}

// siteOption checks --site: the name a ledger gives the site, for
// -o ledger only (another output has no place for it, and taking it
// silently would let a script believe it wrote a ledger).
func siteOption(site string, ledger bool) error {
	switch {
	case ledger && site == "":
		return fmt.Errorf("-o ledger needs --site NAME: the site's name, which a merge of several sites' ledgers tells them by")
	case !ledger && site != "":
		return fmt.Errorf("--site names the site in a ledger: it goes with -o ledger")
	case ledger:
		if err := report.CheckSite(site); err != nil {
			return fmt.Errorf("--site %q: %v", site, err)
		}
	}
	return nil
}

// maxCount bounds the numeric flags.
const maxCount = 1_000_000_000

// ShownRobots are the --robots values as reports show them: passwords in
// URLs masked (robots.Redact).
func (a *Analyse) ShownRobots() []string {
	shown := make([]string, len(a.Robots))
	for i, src := range a.Robots {
		shown[i] = robots.Redact(src)
	}
	return shown
}

// FailConditions are the findings --fail-on can turn into exit status 3.
var FailConditions = []string{"violations", "incidents", "robots", "scanners", "impostors"}

// Status is the exit status that the findings in res call for, for a run
// that went well otherwise: ExitError when a --client matched no request
// (said on stderr: a typo would otherwise look like a quiet client),
// ExitFailOn when res has any of the findings --fail-on named, else ExitOK.
func (a *Analyse) Status(res *detect.Result, stderr io.Writer) int {
	status := ExitOK
	for _, spec := range a.Clients {
		if !a.matched(spec, res) {
			in := a.inputs()
			if a.Since.IsSet() || a.Until.IsSet() {
				// Its requests may all be outside the window.
				in = "the --since/--until window of " + in
			}
			Warnf(stderr, "robowatch: --client %s: no requests from it in %s", spec, in)
			status = ExitError
		}
	}
	if status != ExitOK {
		return status
	}
	for _, c := range a.FailOn {
		switch {
		case c == "violations" && res.ViolationCount > 0,
			c == "incidents" && res.IncidentCount > 0,
			c == "robots" && res.RobotCount > 0,
			c == "scanners" && res.Scanners > 0,
			c == "impostors" && impostors(res):
			return ExitFailOn
		}
	}
	return ExitOK
}

// impostors reports whether a robot name of res came from an address its
// operator does not publish: what the headline's Impostors line names.
func impostors(res *detect.Result) bool {
	for _, b := range res.Robots {
		if b.Identity == detect.IdentityImpostor {
			return true
		}
	}
	return false
}

// matched reports whether a drill-down of res is of a client spec names.
func (a *Analyse) matched(spec string, res *detect.Result) bool {
	match, err := detect.WatchList([]string{spec})
	if err != nil {
		return false
	}
	for _, t := range res.Watched {
		if match(t.IP) {
			return true
		}
	}
	return false
}

// inputs names the logs read, for a message.
func (a *Analyse) inputs() string {
	names := make([]string, len(a.Files))
	for i, f := range a.Files {
		names[i] = f
		if f == input.Stdin {
			names[i] = "standard input"
		}
	}
	if len(names) > 3 {
		return strings.Join(names[:3], ", ") + fmt.Sprintf(" and %d more", len(names)-3)
	}
	return strings.Join(names, ", ")
}

// looksLikeFile reports whether a --format value that is no format names
// a log file: one that is there, or a name as logs are named. A format
// string has spaces, % or $ in it, and a format name none of / or .log.
func looksLikeFile(s string) bool {
	if s == "" || strings.ContainsAny(s, " %$") {
		return false
	}
	if st, err := os.Stat(s); err == nil && !st.IsDir() {
		return true
	}
	return strings.Contains(s, "/") || strings.Contains(s, ".log") || strings.HasSuffix(s, ".gz")
}

func parseAnalyse(args []string, stdin io.Reader, stdout, stderr io.Writer) (*Analyse, error) {
	fs := pflag.NewFlagSet("robowatch", pflag.ContinueOnError)
	var (
		format     = fs.StringP("format", "f", "auto", "log format: auto, "+strings.Join(logparse.FormatNames[:len(logparse.FormatNames)-1], ", ")+", syslog+FORMAT (a text format or json behind syslog headers), cri+FORMAT or docker+FORMAT (a container runtime's log of one), or an Apache LogFormat / nginx log_format string")
		output     = fs.StringP("output", "o", "table", "output: "+strings.Join(report.Formats, ", ")+"; a block list: "+strings.Join(report.BlockFormats, ", "))
		robotsSrc  = fs.StringArray("robots", nil, "the site's robots.txt, FILE or URL; HOST=FILE|URL for one virtual host; FILE@TIME for a version in force from TIME, RFC 3339 or a date in the log's zone (repeatable)")
		robotsHist = fs.StringArray("robots-history", nil, "a directory of the site's robots.txt versions, each file named by the time it came into force (2024-05-01.txt, 2024-05-01T12:00:00Z.txt); HOST=DIR for one virtual host (repeatable)")
		sections   = fs.StringSlice("section", nil, "print only these sections: "+strings.Join(report.Sections, ","))
		top        = fs.Int("top", 20, "rows per list in tables; in JSON and CSV only when given (0: all)")
		strict     = fs.Bool("strict", false, "stop with an error at the first malformed line")
		burst      = fs.Int("burst", 0, "rapid-fire when a client makes more than N requests in 10 s (default 20)")
		sustained  = fs.Int("sustained", 0, "rapid-fire also when a client makes N requests in 60 s (default 60)")
		maxClients = fs.Int("max-clients", detect.DefaultMaxClients, "clients tracked one by one (about 1 KB each); past it the lightest are folded into an \"other\" row, the heaviest stay exact (0: no cap)")
		since      = fs.String("since", "", "only records from this time on: RFC 3339, 2006-01-02 (the log's zone), or a duration back from the last record (2h, 1d)")
		until      = fs.String("until", "", "only records before this time (same forms as --since)")
		watch      = fs.StringArray("client", nil, "drill down into a client: IP, CIDR (66.249.64.0/19) or host name (repeatable)")
		failOn     = fs.StringSlice("fail-on", nil, "exit 3 when the report has any of: violations (needs --robots), incidents, robots, scanners, impostors (for cron and monitoring)")
		color      = fs.String("color", "auto", "colour headings: auto (on a terminal, unless NO_COLOR is set), always, never")
		progress   = fs.String("progress", "auto", "progress line on stderr: auto (when stderr is a terminal), always, never")
		verifyDNS  = fs.Bool("verify-dns", false, "check the claims of robots whose operators publish no ranges (bingbot, Applebot, YandexBot, Baiduspider, …) by reverse and forward DNS, after reading (at most 20 s)")
		dnsServer  = fs.String("dns-server", "", "--verify-dns asks this server (HOST:PORT) instead of the system's resolver")
		ranges     = fs.String("ranges", "", "check crawler identities against the published range files in DIR (googlebot.json, …, with their *.history.tsv), or against FILE (Google's shape or JAFAR's, whose service names the robot), instead of the built-in copies")
		keys       = fs.String("keys", "", "verify Web Bot Auth signatures the log records against the key directories in DIR (HOST.json: what https://HOST/.well-known/http-message-signatures-directory serves)")
		workers    = fs.Int("workers", 0, "judge clients on N goroutines (0: one per core); the report is the same for any N while no client is folded (--max-clients), and the same on every run for one N")
		stateFrom  = fs.String("state-from", "", "start from the JSON report of the day before (-o json): the copy of robots.txt each robot held, robots.txt unreachable, a minute after a 429 or 503 still open; so that robowatch merge of the days is one run over them (see docs/robots-txt.md, Conduct)")
		shard      = fs.String("shard", "", "I/N: read only the clients whose network hashes to part I of N, for robowatch merge (see docs/scale-out.md)")
		trustProxy = fs.StringArray("trust-proxy", nil, "a proxy, load balancer or CDN in front of the server (address or CIDR, repeatable): its requests are the client's in X-Forwarded-For")
		jsonFields = fs.String("json-fields", "", "JSON logs: the keys of fields robowatch does not know, FIELD=KEY,… (ip, time, request, method, uri, protocol, status, bytes, referer, ua, host, xff, signature, signature_input, signature_agent, content_usage; a nested key as a.b)")
		cols       = fs.Int("width", 0, "fit tables to N columns (default: the terminal's width, else $COLUMNS, else 100)")
		block      = fs.StringSlice("block", nil, "block lists take: impostors, violators, scanners, incidents, robots, purpose:P, name:N (default impostors,violators,scanners,incidents)")
		allow      = fs.StringArray("allow", nil, "never put this address or CIDR network in a block list (repeatable)")
		allowFile  = fs.StringArray("allow-file", nil, "never block the addresses and networks in FILE, one a line, # comments (repeatable)")
		aggregate  = fs.Bool("aggregate", false, "block lists name a /24 (IPv4) or /48 (IPv6) instead of its addresses when --aggregate-at of them are selected")
		aggAt      = fs.Int("aggregate-at", 8, "selected addresses of one network that --aggregate lists as the network")
		nftTable   = fs.String("nft-table", "robowatch", "-o nftables: the name of the table (family inet) the file replaces")
		nftHook    = fs.String("nft-hook", "input", "-o nftables: the hook of its drop chain: input, forward or prerouting")
		follow     = fs.BoolP("follow", "F", false, "follow the files as they grow, through rotation and truncation (as tail -F), until Ctrl-C or SIGTERM; then the report")
		interval   = fs.Duration("interval", 0, "a live run's summary events (-o jsonl, default 10s) or live view redraw (-F on a terminal, default 2s)")
		site       = fs.String("site", "", "-o ledger: the site's name in the ledger, e.g. example.org (see docs/scale-out.md)")
		expire     = fs.Duration("expire", 24*time.Hour, "with -F: a client idle this long (log time) is folded into \"other\", so a run of weeks stays small (0: never)")
		a          Analyse
	)
	fs.StringVar(&a.Profiles.CPU, "cpuprofile", "", "write a CPU profile (go tool pprof) to FILE")
	fs.StringVar(&a.Profiles.Heap, "memprofile", "", "write a heap profile (go tool pprof) to FILE, taken after the last record")
	_ = fs.MarkHidden("cpuprofile")
	_ = fs.MarkHidden("memprofile")
	if ok, err := parseFlags(fs, "robowatch", analyseUsage, args, stdout, stderr); !ok {
		return nil, err
	}
	usage := func(format string, v ...any) (*Analyse, error) {
		return nil, &UsageError{"robowatch", fmt.Sprintf(format, v...)}
	}
	var err error
	if a.Format, err = logparse.ParseFormat(*format); err != nil {
		if looksLikeFile(*format) {
			// tail's habit: robowatch -f access.log, for -F.
			return usage("--format %q is a file, not a log format: did you mean -F (follow)?", *format)
		}
		return usage("--format: %v", err)
	}
	if *jsonFields != "" {
		if a.Format != nil && a.Format.Name() != "json" {
			return usage("--json-fields is for JSON logs; it does not go with --format %s", *format)
		}
		if a.Format, err = logparse.ParseJSONFields(*jsonFields); err != nil {
			return usage("--json-fields: %v", err)
		}
	}
	if !slices.Contains(report.Formats, *output) && !slices.Contains(report.BlockFormats, *output) {
		return usage("--output %q: want one of %s", *output, strings.Join(append(slices.Clone(report.Formats), report.BlockFormats...), ", "))
	}
	if err := siteOption(*site, *output == "ledger"); err != nil {
		return usage("%v", err)
	}
	if *output == "ledger" && *shard != "" {
		return usage("-o ledger is a whole site's: not with --shard (merge the shards' -o json parts with robowatch merge -o ledger --site NAME)")
	}
	for _, p := range *trustProxy {
		pr, err := parsePrefix(p)
		if err != nil {
			return usage("--trust-proxy %q: %v", p, err)
		}
		a.Proxies = append(a.Proxies, pr)
	}
	if a.Workers = *workers; *workers < 0 || *workers > 64 {
		return usage("--workers %d: want 1 to 64, or 0 for one per core", *workers)
	} else if *workers == 0 {
		a.Workers = min(runtime.GOMAXPROCS(0), 64)
	}
	if *shard != "" {
		if a.Shard, err = detect.ParseShard(*shard); err != nil {
			return usage("--shard: %v", err)
		}
		if *follow || *output == "jsonl" {
			return usage("--shard makes one part of a report for robowatch merge: not with -F or -o jsonl")
		}
	}
	if *dnsServer != "" && !*verifyDNS {
		return usage("--dns-server is for --verify-dns")
	}
	if a.Block, err = blockOptions(*block, *allow, *allowFile, *aggregate, *aggAt, *nftTable, *nftHook); err != nil {
		return nil, &UsageError{"robowatch", err.Error()}
	}
	// A trusted proxy is never blocked: when its log gives no client to
	// credit, its requests stay its own, and denying it denies everyone.
	a.Block.Allow = append(a.Block.Allow, a.Proxies...)
	for _, dir := range *robotsHist {
		host, where := robots.SplitHost(dir)
		srcs, err := robots.HistorySources(host, where)
		if err != nil {
			return usage("--robots-history %v", err)
		}
		*robotsSrc = append(*robotsSrc, srcs...)
	}
	for _, src := range *robotsSrc {
		// Said before the log is read: robots.LoadSet would try to open
		// a file named "-" or "" and fail with exit 1 and an OS error.
		_, where := robots.SplitHost(src)
		where, _, _, err := robots.SplitTime(where)
		if err != nil {
			return usage("--robots %s: %v", src, err)
		}
		switch where {
		case "":
			return usage("--robots %q: no FILE or URL", src)
		case "-":
			return usage("--robots %s: standard input is for the log; give the robots.txt as a FILE or URL (robowatch check --robots - reads it from standard input)", src)
		}
	}
	for _, s := range *sections {
		if !slices.Contains(report.Sections, s) {
			return usage("--section %q: want some of %s", s, strings.Join(report.Sections, ","))
		}
	}
	if slices.Contains(*sections, "client") && len(*watch) == 0 {
		// The section is the --client drill-downs: without one, the
		// report was empty and the exit status 0.
		return usage("--section client draws the clients --client names: give --client IP|CIDR|host")
	}
	if *output == "csv" && len(*sections) > 1 {
		// Said before the log is read, not after.
		return usage("-o csv writes one section; choose one with --section (%s)", strings.Join(report.Sections, ", "))
	}
	// The detector counts requests in 32 bits, and no host has memory for
	// a billion clients: larger values would wrap, not mean more.
	for _, n := range []struct {
		flag  string
		value int
	}{{"top", *top}, {"burst", *burst}, {"sustained", *sustained}, {"max-clients", *maxClients}, {"width", *cols}, {"aggregate-at", *aggAt}} {
		if n.value < 0 || n.value > maxCount {
			return usage("--%s %d: want a number from 0 to %d", n.flag, n.value, maxCount)
		}
	}
	// The detector reads 0 as "the default", which is not what --burst 0
	// says (every request above the threshold): refuse it, not ignore it.
	for _, f := range []string{"burst", "sustained"} {
		if v, _ := fs.GetInt(f); fs.Changed(f) && v == 0 {
			return usage("--%s 0: want 1 or more requests", f)
		}
	}
	for _, f := range *failOn {
		if !slices.Contains(FailConditions, f) {
			return usage("--fail-on %q: want some of %s", f, strings.Join(FailConditions, ","))
		}
		if f == "violations" && len(*robotsSrc) == 0 {
			// Without robots.txt there are no violations: the alert could
			// never fire, which a cron job would never notice.
			return usage("--fail-on violations needs --robots FILE|URL")
		}
	}
	for _, m := range []struct{ flag, value string }{{"color", *color}, {"progress", *progress}} {
		if !slices.Contains(modes, m.value) {
			return usage("--%s %q: want auto, always or never", m.flag, m.value)
		}
	}
	if *since != "" {
		if a.Since, err = logparse.ParseTimeBound(*since); err != nil {
			return usage("--since: %v", err)
		}
	}
	if *until != "" {
		if a.Until, err = logparse.ParseTimeBound(*until); err != nil {
			return usage("--until: %v", err)
		}
	}
	if a.Since.NotBefore(a.Until) {
		return usage("--since %s is not before --until %s: the window would be empty", *since, *until)
	}
	a.Detect = detect.Config{BurstPer10s: *burst, SustainedPer60s: *sustained, MaxClients: *maxClients}
	if *stateFrom != "" {
		if *follow {
			return usage("--state-from starts a day's report from the day before's: not with -F")
		}
		f, err := os.Open(*stateFrom)
		if err != nil {
			return nil, fmt.Errorf("--state-from: %w", err)
		}
		a.Detect.Seed, a.SeededFrom, err = report.ReadSeed(*stateFrom, f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("--state-from %w", err)
		}
	}
	for _, d := range []struct {
		flag  string
		value time.Duration
	}{{"interval", *interval}, {"expire", *expire}} {
		if d.value < 0 {
			return usage("--%s %s: want a duration of 0 or more, e.g. 10s, 24h", d.flag, d.value)
		}
	}
	if fs.Changed("expire") && !*follow {
		return usage("--expire is for -F (a batch run reads a log once: nothing to expire)")
	}
	if a.Follow = *follow; a.Follow {
		a.Detect.Expire = *expire
	}
	if *verifyDNS {
		a.Detect.DNS = &agents.Verifier{}
		if *dnsServer != "" {
			host, port, err := net.SplitHostPort(*dnsServer)
			if err != nil || host == "" || port == "" {
				return usage("--dns-server %q: want HOST:PORT, e.g. 127.0.0.1:53", *dnsServer)
			}
			server := *dnsServer
			a.Detect.DNS.Resolver = &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
				var d net.Dialer
				return d.DialContext(ctx, network, server)
			}}
		}
	}
	if a.Clients = *watch; len(*watch) > 0 {
		if a.Detect.Watch, err = detect.WatchList(*watch); err != nil {
			return usage("--client: %v", err)
		}
	}

	a.Files = fs.Args()
	if len(a.Files) == 0 {
		a.Files = []string{"-"}
	}
	if len(a.Files) == 1 && a.Files[0] == "-" && on("auto", stdin) {
		// Someone typed "robowatch" at a prompt and it seems to hang.
		Warnf(stderr, "robowatch: reading a log from standard input (the terminal); end with Ctrl-D, or give a file: robowatch access.log")
	}
	a.Strict, a.Robots, a.Output, a.FailOn, a.Ranges, a.Keys = *strict, *robotsSrc, *output, *failOn, *ranges, *keys
	// A progress line would only get in the way of someone typing a log.
	a.Progress = on(*progress, stderr) && (*progress == "always" || !on("auto", stdin))
	a.Report = report.Options{Sections: *sections, Top: *top, Width: width(stdout, *cols, fs.Changed("width")),
		Color: *color == "always" || (*color == "auto" && os.Getenv("NO_COLOR") == "" && on("auto", stdout)), Site: *site}
	a.LiveView = a.Follow && *output == "table" && on("auto", stdout)
	switch a.Interval = *interval; {
	case a.Interval > 0:
	case a.LiveView:
		a.Interval = 2 * time.Second
	default:
		a.Interval = 10 * time.Second
	}
	if (*output == "json" || *output == "csv") && !fs.Changed("top") {
		a.Report.Top = 0 // scripts get every row unless they ask for fewer
	}
	return &a, nil
}
