package robots

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"os"
	"slices"
	"strings"
)

// Load reads a robots.txt from a file, or fetches it from an http(s) URL with client (nil: Fetch's default).
//
// A fetch's outcome is read as RFC 9309 prescribes (see Fetch): a 4xx
// allows everything and a 5xx, a timeout or a network error disallows
// everything; neither is an error. The error is for a file that cannot be
// opened or read, a URL that cannot be fetched at all, or ctx cancelled
// before the fetch completed: an interrupt says nothing about the site, so
// it must not become "everything disallowed". A deadline on ctx is a
// timeout like the client's: unreachable.
//
// The warnings are one line each, to be shown after the program's name
// ("robowatch: " + w): "robots.txt " + FetchResult.String() for what a
// fetch came to, "warning: ..." for a file cut at MaxSize or that is an
// HTML page. They hold src, URLs and redirect targets verbatim, which
// anyone may have written: escape them before they reach a terminal.
func Load(ctx context.Context, src string, client *http.Client) (*Robots, []string, error) {
	r, _, warnings, err := loadSource(ctx, src, client)
	return r, warnings, err
}

// loadSource is Load, with what a fetch came to (Fetched for a file).
func loadSource(ctx context.Context, src string, client *http.Client) (*Robots, *FetchResult, []string, error) {
	if strings.HasPrefix(src, "http://") || strings.HasPrefix(src, "https://") {
		return load(ctx, src, client)
	}
	r, warnings, err := loadFile(src)
	return r, nil, warnings, err
}

func loadFile(src string) (*Robots, []string, error) {
	f, err := os.Open(src)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return LoadReader(f, src)
}

// LoadReader reads a robots.txt from rd (a file or standard input, named
// name in the warnings), with Load's warnings.
func LoadReader(rd io.Reader, name string) (*Robots, []string, error) {
	src := name
	r, err := Parse(rd)
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s: %w", src, err)
	}
	var warnings []string
	if r.Truncated {
		warnings = append(warnings, fmt.Sprintf("warning: %s is larger than %d KiB; only its first %d KiB were read (RFC 9309)", src, MaxSize>>10, MaxSize>>10))
	}
	if r.HTML {
		warnings = append(warnings, fmt.Sprintf("warning: %s looks like an HTML page, not a robots.txt; its HTML lines are skipped, any robots.txt lines in it count, as crawlers read them", src))
	}
	return r, warnings, nil
}

// load fetches the robots.txt at rawURL. A truncated or HTML body needs no
// warning of its own: FetchResult.String says so.
func load(ctx context.Context, rawURL string, client *http.Client) (*Robots, *FetchResult, []string, error) {
	res, err := Fetch(ctx, rawURL, client)
	if err != nil {
		return nil, nil, nil, err
	}
	if res.Outcome == Unreachable && errors.Is(ctx.Err(), context.Canceled) {
		return nil, nil, nil, fmt.Errorf("robots: fetching %q: %w", Redact(rawURL), ctx.Err())
	}
	return res.Robots, res, []string{"robots.txt " + res.String()}, nil
}

// Set is the robots.txt files of one log: one for the whole log and/or one per virtual host.
type Set struct {
	Default *Robots            // for every host without its own; nil: none
	ByHost  map[string]*Robots // HostKey → its robots.txt; nil when no source named a host
	Failed  []string           // the sources that could not be fetched (unreachable), one line each saying why

	// Versions are the histories of the hosts given more than one
	// version (FILE@TIME): HostKey, "" for the whole log, → its versions
	// by From. Default and ByHost hold each one's earliest, which is in
	// force from the start of the log too: nothing older is known.
	Versions map[string][]Version
}

// LoadSet reads sources in order with Load: "FILE|URL" for the whole log, "HOST=FILE|URL" for one virtual host.
//
// A source is HOST=... only when its "=" comes before any "/", ":" or "\",
// so that paths and URLs holding "=" stay whole-log sources. Hosts are
// keyed by HostKey; a host given twice, however spelt, keeps its last
// robots.txt. Only one whole-log source is allowed, and that is checked
// before anything is read, so a mistake costs no fetch.
//
// Errors name the source as given, "SRC: ...", for the caller to prefix
// with its flag's name. The warnings are Load's, in the order of sources;
// on error they are those of the sources read before it, and the Set is
// empty.
//
// An unreachable URL (5xx, timeout, network error) is left out of the Set
// and named in Set.Failed instead of its warning. RFC 9309 tells a crawler
// to take it as "everything disallowed", and that is what Load returns (and
// what check shows); but a log checked against it would show every
// robot's every request as a violation, well-behaved crawlers first, when
// all that is known is that the site did not answer. Its records are not
// checked, and the caller says so loudly.
func LoadSet(ctx context.Context, sources []string, client *http.Client) (Set, []string, error) {
	whole := false
	for _, src := range sources {
		host, where := SplitHost(src)
		_, at, _, err := SplitTime(where)
		if err != nil {
			return Set{}, nil, fmt.Errorf("%s: %w", Redact(src), err)
		}
		if host == "" && at.IsZero() {
			if whole {
				return Set{}, nil, fmt.Errorf("%s: a robots.txt for the whole log was already given; use HOST=FILE for virtual hosts, FILE@TIME for a later version", Redact(src))
			}
			whole = true
		}
	}
	var (
		set      Set
		warnings []string
		versions = map[string][]Version{}
	)
	for _, src := range sources {
		host, where := SplitHost(src)
		where, at, date, _ := SplitTime(where)
		r, res, w, err := loadSource(ctx, where, client)
		if err != nil {
			return Set{}, append(warnings, w...), fmt.Errorf("%s: %w", Redact(src), err)
		}
		if res != nil && res.Outcome == Unreachable {
			set.Failed = append(set.Failed, fmt.Sprintf("%s: %s: violations not checked against it (it is no sign that robots may fetch nothing)", Redact(src), unreachableWhy(res)))
			continue
		}
		warnings = append(warnings, w...)
		key := HostKey(host)
		if host == "" {
			key = ""
		}
		v := Version{From: at, Date: date, Robots: r, Size: sizeOf(r), Source: Redact(src)}
		if at.IsZero() && key != "" {
			// A host given twice without a time keeps its last file.
			versions[key] = slices.DeleteFunc(versions[key], func(v Version) bool { return v.From.IsZero() })
		}
		versions[key] = append(versions[key], v)
	}
	for key, vs := range versions {
		if err := sortVersions(vs); err != nil {
			return Set{}, warnings, err
		}
		if key == "" {
			set.Default = vs[0].Robots
		} else {
			if set.ByHost == nil {
				set.ByHost = map[string]*Robots{}
			}
			set.ByHost[key] = vs[0].Robots
		}
		if len(vs) > 1 {
			if set.Versions == nil {
				set.Versions = map[string][]Version{}
			}
			set.Versions[key] = vs
		}
	}
	return set, warnings, nil
}

// SplitHost splits "HOST=SOURCE". A source with no "=" before its first
// "/", ":" or "\" (a path or a URL) is for the whole log: host is "".
// A host that is an IPv6 address has colons of its own: it is a host when
// it is one, in brackets as a Host header writes it or bare
// ("[2001:db8::1]=a.txt", "2001:db8::1=a.txt"); no file or URL is named
// so.
func SplitHost(s string) (host, source string) {
	i := strings.IndexByte(s, '=')
	if i <= 0 {
		return "", s
	}
	if strings.ContainsAny(s[:i], `/:\`) && !isIPv6Host(s[:i]) {
		return "", s
	}
	return s[:i], s[i+1:]
}

// isIPv6Host reports whether h is an IPv6 address, bare or in brackets.
func isIPv6Host(h string) bool {
	if b, ok := strings.CutPrefix(h, "["); ok {
		if h, ok = strings.CutSuffix(b, "]"); !ok {
			return false
		}
	}
	a, err := netip.ParseAddr(h)
	return err == nil && a.Is6()
}

// Redact returns src with the password of a URL in it (http://user:pass@host/)
// masked as "xxxxx", as net/url's URL.Redacted does: --robots values are
// shown in messages and reports, which are mailed and pasted. It works on
// text that does not parse as a URL too, and on HOST=URL values; anything
// else is returned as it is.
func Redact(src string) string {
	i := strings.Index(src, "://")
	if i < 0 {
		return src
	}
	rest := src[i+3:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	at := strings.LastIndexByte(rest[:end], '@')
	if at < 0 {
		return src
	}
	colon := strings.IndexByte(rest[:at], ':')
	if colon < 0 {
		return src // a user name and no password
	}
	return src[:i+3] + rest[:colon+1] + "xxxxx" + rest[at:]
}

// unreachableWhy says what an unreachable fetch came to, without RFC 9309's
// conclusion for crawlers ("everything disallowed"), which does not hold
// for a log being checked.
func unreachableWhy(res *FetchResult) string {
	switch {
	case res.Status >= 500:
		return fmt.Sprintf("HTTP %d: robots.txt unreachable", res.Status)
	case res.Status != 0:
		return fmt.Sprintf("unexpected HTTP %d: robots.txt unreachable", res.Status)
	}
	return fmt.Sprintf("%v: robots.txt unreachable", res.Err)
}
