package cli

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/spf13/pflag"
)

// analyseHelpOrder is the order --help lists the main command's flags in:
// the ones most runs use first, whatever group defines them.
var analyseHelpOrder = []string{
	"format", "output", "robots", "robots-history", "section", "top", "strict", "burst", "sustained",
	"max-clients", "since", "until", "client", "fail-on", "color", "progress", "verify-dns", "dns-server",
	"ranges", "keys", "workers", "state-from", "shard", "trust-proxy", "json-fields", "width", "block",
	"allow", "allow-file", "aggregate", "aggregate-at", "nft-table", "nft-hook", "follow", "interval",
	"site", "expire", "cpuprofile", "memprofile", "trace",
}

// analyseFlags are the main command's flags, in groups: what is read, how
// clients are judged, what is written, block lists, live runs.
type analyseFlags struct {
	in    inputFlags
	judge judgeFlags
	out   outputFlags
	block blockFlags
	live  liveFlags
}

// flagSet defines every group's flags, and a's profiles', on one set in
// the order of analyseHelpOrder.
func (f *analyseFlags) flagSet(a *Analyse) *pflag.FlagSet {
	defs := pflag.NewFlagSet("robowatch", pflag.ContinueOnError)
	f.in.flags(defs)
	f.judge.flags(defs)
	f.out.flags(defs)
	f.block.flags(defs)
	f.live.flags(defs)
	a.Profiles.flags(defs)
	fs := pflag.NewFlagSet("robowatch", pflag.ContinueOnError)
	for _, name := range analyseHelpOrder {
		fs.AddFlag(defs.Lookup(name))
	}
	if countFlags(defs) != len(analyseHelpOrder) {
		panic("cli: a flag of robowatch is missing from analyseHelpOrder")
	}
	return fs
}

// countFlags is how many flags fs defines.
func countFlags(fs *pflag.FlagSet) int {
	n := 0
	fs.VisitAll(func(*pflag.Flag) { n++ })
	return n
}

func parseAnalyse(args []string, stdin io.Reader, stdout, stderr io.Writer) (*Analyse, error) {
	var (
		f analyseFlags
		a Analyse
	)
	fs := f.flagSet(&a)
	if ok, err := parseFlags(fs, "robowatch", analyseUsage, args, stdout, stderr); !ok {
		return nil, err
	}
	for _, apply := range []func(*Analyse, *pflag.FlagSet) error{f.in.apply, f.out.apply, f.block.apply, f.live.apply, f.judge.apply} {
		if err := apply(&a, fs); err != nil {
			return nil, err
		}
	}
	if err := f.combine(&a); err != nil {
		return nil, err
	}
	if err := f.judge.seed(&a); err != nil {
		return nil, err
	}
	a.Files = fs.Args()
	if len(a.Files) == 0 {
		a.Files = []string{"-"}
	}
	if len(a.Files) == 1 && a.Files[0] == "-" && on("auto", stdin) {
		// Someone typed "robowatch" at a prompt and it seems to hang.
		Warnf(stderr, "robowatch: reading a log from standard input (the terminal); end with Ctrl-D, or give a file: robowatch access.log")
	}
	f.out.finish(&a, fs, stdin, stdout, stderr)
	a.LiveView = a.Follow && a.Output == "table" && on("auto", stdout)
	switch a.Interval = f.live.interval; {
	case a.Interval > 0:
	case a.LiveView:
		a.Interval = 2 * time.Second
	default:
		a.Interval = 10 * time.Second
	}
	return &a, nil
}

// usagef is a usage error of the main command.
func usagef(format string, v ...any) error {
	return &UsageError{"robowatch", fmt.Sprintf(format, v...)}
}

// checkCount bounds a numeric flag: the detector counts requests in 32
// bits, and no host has memory for a billion clients, so larger values
// would wrap, not mean more.
func checkCount(flag string, value int) error {
	if value < 0 || value > maxCount {
		return usagef("--%s %d: want a number from 0 to %d", flag, value, maxCount)
	}
	return nil
}

// combine checks the flags of one group that go, or do not go, with
// another's.
func (f *analyseFlags) combine(a *Analyse) error {
	switch {
	case a.Output == "ledger" && f.in.shard != "":
		return usagef("-o ledger is a whole site's: not with --shard (merge the shards' -o json parts with robowatch merge -o ledger --site NAME)")
	case f.in.shard != "" && (a.Follow || a.Output == "jsonl"):
		return usagef("--shard makes one part of a report for robowatch merge: not with -F or -o jsonl")
	case slices.Contains(f.out.sections, "client") && len(f.judge.clients) == 0:
		// The section is the --client drill-downs: without one, the
		// report would be empty and the exit status 0.
		return usagef("--section client draws the clients --client names: give --client IP|CIDR|host")
	case slices.Contains(a.FailOn, "violations") && len(a.Robots) == 0:
		// Without robots.txt there are no violations: the alert could
		// never fire, which a cron job would never notice.
		return usagef("--fail-on violations needs --robots FILE|URL")
	case f.judge.stateFrom != "" && a.Follow:
		return usagef("--state-from starts a day's report from the day before's: not with -F")
	}
	// A trusted proxy is never blocked: when its log gives no client to
	// credit, its requests stay its own, and denying it denies everyone.
	a.Block.Allow = append(a.Block.Allow, a.Proxies...)
	if a.Follow {
		a.Detect.Expire = f.live.expire
	}
	return nil
}
