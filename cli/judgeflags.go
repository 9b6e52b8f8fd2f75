package cli

import (
	"context"
	"fmt"
	"net"
	"os"

	"github.com/spf13/pflag"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/detect"
	"github.com/robowatch/robowatch/report"
	"github.com/robowatch/robowatch/robots"
)

// judgeFlags say how clients are judged: robots.txt, thresholds, the
// --client drill-downs, identity checks and the day before's state.
type judgeFlags struct {
	robots, robotsHist []string
	burst, sustained   int
	maxClients         int
	clients            []string
	verifyDNS          bool
	dnsServer          string
	ranges, keys       string
	stateFrom          string
}

func (f *judgeFlags) flags(fs *pflag.FlagSet) {
	fs.StringArrayVar(&f.robots, "robots", nil, "the site's robots.txt, FILE or URL; HOST=FILE|URL for one virtual host; FILE@TIME for a version in force from TIME, RFC 3339 or a date in the log's zone (repeatable)")
	fs.StringArrayVar(&f.robotsHist, "robots-history", nil, "a directory of the site's robots.txt versions, each file named by the time it came into force (2024-05-01.txt, 2024-05-01T12:00:00Z.txt); HOST=DIR for one virtual host (repeatable)")
	fs.IntVar(&f.burst, "burst", 0, "rapid-fire when a client makes more than N requests in 10 s (default 20)")
	fs.IntVar(&f.sustained, "sustained", 0, "rapid-fire also when a client makes N requests in 60 s (default 60)")
	fs.IntVar(&f.maxClients, "max-clients", detect.DefaultMaxClients, "clients tracked one by one (about 1 KB each); past it the lightest are folded into an \"other\" row, the heaviest stay exact (0: no cap)")
	fs.StringArrayVar(&f.clients, "client", nil, "drill down into a client: IP, CIDR (66.249.64.0/19) or host name (repeatable)")
	fs.BoolVar(&f.verifyDNS, "verify-dns", false, "check the claims of robots whose operators publish no ranges (bingbot, Applebot, YandexBot, Baiduspider, …) by reverse and forward DNS, after reading (at most 20 s)")
	fs.StringVar(&f.dnsServer, "dns-server", "", "--verify-dns asks this server (HOST:PORT) instead of the system's resolver")
	fs.StringVar(&f.ranges, "ranges", "", "check crawler identities against the published range files in DIR (googlebot.json, …, with their *.history.tsv), or against FILE (Google's shape or JAFAR's, whose service names the robot), instead of the built-in copies")
	fs.StringVar(&f.keys, "keys", "", "verify Web Bot Auth signatures the log records against the key directories in DIR (HOST.json: what https://HOST/.well-known/http-message-signatures-directory serves)")
	fs.StringVar(&f.stateFrom, "state-from", "", "start from the JSON report of the day before (-o json): the copy of robots.txt each robot held, robots.txt unreachable, a minute after a 429 or 503 still open; so that robowatch merge of the days is one run over them (see docs/robots-txt.md, Conduct)")
}

func (f *judgeFlags) apply(a *Analyse, fs *pflag.FlagSet) error {
	if f.dnsServer != "" && !f.verifyDNS {
		return usagef("--dns-server is for --verify-dns")
	}
	if err := f.robotsFiles(a); err != nil {
		return err
	}
	for _, n := range []struct {
		flag  string
		value int
	}{{"burst", f.burst}, {"sustained", f.sustained}, {"max-clients", f.maxClients}} {
		if err := checkCount(n.flag, n.value); err != nil {
			return err
		}
	}
	// The detector reads 0 as "the default", which is not what --burst 0
	// says (every request above the threshold): refuse it, not ignore it.
	for _, flag := range []string{"burst", "sustained"} {
		if v, _ := fs.GetInt(flag); fs.Changed(flag) && v == 0 {
			return usagef("--%s 0: want 1 or more requests", flag)
		}
	}
	a.Detect = detect.Config{BurstPer10s: f.burst, SustainedPer60s: f.sustained, MaxClients: f.maxClients}
	if err := f.dns(a); err != nil {
		return err
	}
	if a.Clients = f.clients; len(f.clients) > 0 {
		var err error
		if a.Detect.Watch, err = detect.WatchList(f.clients); err != nil {
			return usagef("--client: %v", err)
		}
	}
	a.Ranges, a.Keys = f.ranges, f.keys
	return nil
}

// robotsFiles reads --robots and --robots-history into a.Robots.
func (f *judgeFlags) robotsFiles(a *Analyse) error {
	a.Robots = f.robots
	for _, dir := range f.robotsHist {
		host, where := robots.SplitHost(dir)
		srcs, err := robots.HistorySources(host, where)
		if err != nil {
			return usagef("--robots-history %v", err)
		}
		a.Robots = append(a.Robots, srcs...)
	}
	for _, src := range a.Robots {
		// Said before the log is read: robots.LoadSet would try to open
		// a file named "-" or "" and fail with exit 1 and an OS error.
		_, where := robots.SplitHost(src)
		where, _, _, err := robots.SplitTime(where)
		if err != nil {
			return usagef("--robots %s: %v", src, err)
		}
		switch where {
		case "":
			return usagef("--robots %q: no FILE or URL", src)
		case "-":
			return usagef("--robots %s: standard input is for the log; give the robots.txt as a FILE or URL (robowatch check --robots - reads it from standard input)", src)
		}
	}
	return nil
}

// dns reads --verify-dns and --dns-server.
func (f *judgeFlags) dns(a *Analyse) error {
	if !f.verifyDNS {
		return nil
	}
	a.DNS = &agents.Verifier{}
	if f.dnsServer == "" {
		return nil
	}
	host, port, err := net.SplitHostPort(f.dnsServer)
	if err != nil || host == "" || port == "" {
		return usagef("--dns-server %q: want HOST:PORT, e.g. 127.0.0.1:53", f.dnsServer)
	}
	server := f.dnsServer
	a.DNS.Resolver = &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, server)
	}}
	return nil
}

// seed reads --state-from, once the flags are known to be good.
func (f *judgeFlags) seed(a *Analyse) error {
	if f.stateFrom == "" {
		return nil
	}
	file, err := os.Open(f.stateFrom)
	if err != nil {
		return fmt.Errorf("--state-from: %w", err)
	}
	defer file.Close()
	if a.Detect.Seed, a.SeededFrom, err = report.ReadSeed(f.stateFrom, file); err != nil {
		return fmt.Errorf("--state-from %w", err)
	}
	return nil
}
