package cli

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/botauth"
	"github.com/robowatch/robowatch/detect"
	"github.com/robowatch/robowatch/findings"
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
	Robots   []string         // --robots values: FILE, URL or HOST=FILE|URL
	Detect   detect.Config    // thresholds, --max-clients, --client; robots.txt is the caller's to load
	DNS      *agents.Verifier // --verify-dns: checks the claims the ranges cannot settle, after the pass; nil: no DNS
	Output   string           // one of report.Formats
	Report   report.Options
	Block    report.BlockOptions // for the block-list outputs (report.BlockFormats)
	Proxies  logparse.Proxies    // --trust-proxy: the client is the right-most untrusted X-Forwarded-For address
	Shard    findings.Shard      // --shard I/N: only the clients of this shard (for robowatch merge)
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
func (a *Analyse) Status(res *findings.Result, stderr io.Writer) int {
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
func impostors(res *findings.Result) bool {
	for _, b := range res.Robots {
		if b.Identity == findings.IdentityImpostor {
			return true
		}
	}
	return false
}

// matched reports whether a drill-down of res is of a client spec names.
func (a *Analyse) matched(spec string, res *findings.Result) bool {
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
