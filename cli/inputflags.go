package cli

import (
	"runtime"
	"strings"

	"github.com/spf13/pflag"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

// inputFlags say what is read and how: the log format, the window, the
// proxies, the shard and the workers.
type inputFlags struct {
	format, jsonFields string
	strict             bool
	since, until       string
	trustProxy         []string
	shard              string
	workers            int
}

func (f *inputFlags) flags(fs *pflag.FlagSet) {
	fs.StringVarP(&f.format, "format", "f", "auto", "log format: auto, "+strings.Join(logparse.FormatNames[:len(logparse.FormatNames)-1], ", ")+", syslog+FORMAT (a text format or json behind syslog headers), cri+FORMAT or docker+FORMAT (a container runtime's log of one), or an Apache LogFormat / nginx log_format string")
	fs.BoolVar(&f.strict, "strict", false, "stop with an error at the first malformed line")
	fs.StringVar(&f.since, "since", "", "only records from this time on: RFC 3339, 2006-01-02 (the log's zone), or a duration back from the last record (2h, 1d)")
	fs.StringVar(&f.until, "until", "", "only records before this time (same forms as --since)")
	fs.IntVar(&f.workers, "workers", 0, "judge clients on N goroutines (0: one per core); the report is the same for any N while no client is folded (--max-clients), and the same on every run for one N")
	fs.StringVar(&f.shard, "shard", "", "I/N: read only the clients whose network hashes to part I of N, for robowatch merge (see docs/scale-out.md)")
	fs.StringArrayVar(&f.trustProxy, "trust-proxy", nil, "a proxy, load balancer or CDN in front of the server (address or CIDR, repeatable): its requests are the client's in X-Forwarded-For")
	fs.StringVar(&f.jsonFields, "json-fields", "", "JSON logs: the keys of fields robowatch does not know, FIELD=KEY,… (ip, time, request, method, uri, protocol, status, bytes, referer, ua, host, xff, signature, signature_input, signature_agent, content_usage; a nested key as a.b)")
}

func (f *inputFlags) apply(a *Analyse, _ *pflag.FlagSet) error {
	var err error
	if a.Format, err = logparse.ParseFormat(f.format); err != nil {
		if looksLikeFile(f.format) {
			// tail's habit: robowatch -f access.log, for -F.
			return usagef("--format %q is a file, not a log format: did you mean -F (follow)?", f.format)
		}
		return usagef("--format: %v", err)
	}
	if f.jsonFields != "" {
		if a.Format != nil && a.Format.Name() != "json" {
			return usagef("--json-fields is for JSON logs; it does not go with --format %s", f.format)
		}
		if a.Format, err = logparse.ParseJSONFields(f.jsonFields); err != nil {
			return usagef("--json-fields: %v", err)
		}
	}
	for _, p := range f.trustProxy {
		pr, err := parsePrefix(p)
		if err != nil {
			return usagef("--trust-proxy %q: %v", p, err)
		}
		a.Proxies = append(a.Proxies, pr)
	}
	if a.Workers = f.workers; f.workers < 0 || f.workers > 64 {
		return usagef("--workers %d: want 1 to 64, or 0 for one per core", f.workers)
	} else if f.workers == 0 {
		a.Workers = min(runtime.GOMAXPROCS(0), 64)
	}
	if f.shard != "" {
		if a.Shard, err = findings.ParseShard(f.shard); err != nil {
			return usagef("--shard: %v", err)
		}
	}
	a.Strict = f.strict
	return f.window(a)
}

// window reads --since and --until.
func (f *inputFlags) window(a *Analyse) error {
	var err error
	if f.since != "" {
		if a.Since, err = logparse.ParseTimeBound(f.since); err != nil {
			return usagef("--since: %v", err)
		}
	}
	if f.until != "" {
		if a.Until, err = logparse.ParseTimeBound(f.until); err != nil {
			return usagef("--until: %v", err)
		}
	}
	if a.Since.NotBefore(a.Until) {
		return usagef("--since %s is not before --until %s: the window would be empty", f.since, f.until)
	}
	return nil
}
