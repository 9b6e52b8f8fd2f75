package detect

import (
	"cmp"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

// Drill-down: for the clients an admin asks about (--client), the detector
// keeps what a timeline needs, which it cannot afford for every client:
// requests per minute and the first and last requests in full.

// WatchRequests is how many of a watched client's first and last requests
// are kept in full.
const WatchRequests = 20

// maxWatchMinutes bounds the per-minute counts of one watched client (about
// 70 days of minutes with requests); later new minutes are counted in
// Requests but not drawn.
const maxWatchMinutes = 100_000

// maxWatchMinutesAll bounds the per-minute counts of all watched clients
// together (about 40 MB): 1,000 drill-downs of 100,000 minutes each would
// otherwise be gigabytes. With the requests each keeps (2 × WatchRequests,
// their paths and referers capped at MaxStoredPath) and its robots.txt
// fetches (maxWatchFetches), all drill-downs together hold at most about
// 70 MB, whatever the log.
const maxWatchMinutesAll = 1_000_000

// maxWatched bounds the clients (IP + User-agent pairs) with a drill-down:
// they are never folded, so an address that sends a fresh User-agent with
// every request would otherwise hold the detector's memory unbounded. Past
// it, the pairs Watch picks are tracked as other clients are, and
// Result.WatchDropped counts them.
const maxWatched = 1000

// maxWatchFetches bounds the robots.txt fetches listed for one client.
const maxWatchFetches = 100

// watch is the drill-down state of one watched client.
type watch struct {
	minutes map[int64]int
	cut     bool
	fetches []findings.Fetch
	first   []findings.Request
	last    []findings.Request // ring of the latest requests once first is full
	next    int                // ring position
	seen    int64
}

// add counts one request of the watched client; minutesLeft is what is
// left of maxWatchMinutesAll, which a new minute takes one of.
func (w *watch) add(r *logparse.Record, path string, robotsTxt bool, minutesLeft *int) {
	if !r.Time.IsZero() {
		m := r.Time.Unix() / 60
		if _, ok := w.minutes[m]; ok {
			w.minutes[m]++
		} else if len(w.minutes) < maxWatchMinutes && *minutesLeft > 0 {
			w.minutes[m] = 1
			*minutesLeft--
		} else {
			w.cut = true
		}
	}
	if robotsTxt && len(w.fetches) < maxWatchFetches {
		w.fetches = append(w.fetches, findings.Fetch{Time: r.Time, Status: r.Status})
	}
	w.seen++
	req := findings.Request{Time: r.Time, Method: strings.Clone(capText(r.Method, MaxStoredMethod)), Path: strings.Clone(capText(path, MaxStoredPath)),
		Status: r.Status, Bytes: r.Bytes, Referer: strings.Clone(capText(r.Referer, MaxStoredPath))}
	switch {
	case len(w.first) < WatchRequests:
		w.first = append(w.first, req)
	case len(w.last) < WatchRequests:
		w.last = append(w.last, req)
	default:
		w.last[w.next] = req
		w.next = (w.next + 1) % WatchRequests
	}
}

func (w *watch) timeline(c *client, loc *time.Location) findings.ClientTimeline {
	t := findings.ClientTimeline{IP: c.ip, UserAgent: c.ua.ua, Cut: w.cut, RobotsTxt: nonNil(w.fetches), First: nonNil(w.first)}
	t.Last = append(append([]findings.Request{}, w.last[w.next:]...), w.last[:w.next]...)
	t.Skipped = w.seen - int64(len(t.First)+len(t.Last))
	for m, n := range w.minutes {
		at := time.Unix(m*60, 0)
		if loc != nil {
			at = at.In(loc)
		}
		t.Minutes = append(t.Minutes, findings.MinuteCount{Minute: at, Requests: n})
	}
	slices.SortFunc(t.Minutes, func(a, b findings.MinuteCount) int { return a.Minute.Compare(b.Minute) })
	t.Minutes = nonNil(t.Minutes)
	return t
}

// timelines returns the drill-downs of the watched clients, ordered as
// Result.Clients is.
func (d *Detector) timelines() []findings.ClientTimeline {
	var out []findings.ClientTimeline
	for c := range d.clients.all() {
		if w := c.rare().watch; w != nil {
			out = append(out, w.timeline(c, d.loc))
		}
	}
	slices.SortFunc(out, func(a, b findings.ClientTimeline) int {
		return cmp.Or(strings.Compare(a.IP, b.IP), strings.Compare(a.UserAgent, b.UserAgent))
	})
	return nonNil(out)
}

// WatchList returns a Config.Watch that picks clients by address: each spec
// is an IP address ("66.249.66.1", "2001:db8::1"), a CIDR prefix
// ("66.249.64.0/19") or, for logs that record host names, a host name
// compared without regard to case. An IPv6 address may be spelt any way a
// log or a tool writes one, since the log's clients are read in one form
// (RFC 5952, without a zone: see logparse.Record.Client): in brackets,
// with or without a port ("[2001:db8::1]:443", as a balancer logs it),
// with a zone ("fe80::1%eth0"), or IPv4-mapped ("::ffff:192.0.2.0/120"
// is 192.0.2.0/24).
func WatchList(specs []string) (func(ip string) bool, error) {
	var prefixes []netip.Prefix
	hosts := map[string]bool{}
	for _, s := range specs {
		s = unbracket(strings.TrimSpace(s))
		switch {
		case s == "":
			return nil, errors.New("empty client address")
		case strings.Contains(s, "/"):
			p, err := netip.ParsePrefix(s)
			if err != nil {
				// netip's message repeats the call and the value; the
				// reason after it is what the admin needs.
				why := err.Error()
				if i := strings.LastIndex(why, "): "); i >= 0 {
					why = why[i+3:]
				}
				return nil, fmt.Errorf("%q: not a CIDR network: %s", s, why)
			}
			if p.Addr().Is4In6() && p.Bits() >= 96 {
				// The clients' IPv4-mapped addresses are read as IPv4
				// ones, which a ::ffff: prefix would never contain.
				p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
			}
			prefixes = append(prefixes, p.Masked())
		default:
			if a, err := netip.ParseAddr(s); err == nil {
				a = a.Unmap().WithZone("")
				prefixes = append(prefixes, netip.PrefixFrom(a, a.BitLen()))
			} else if why := badHostName(s); why != "" {
				return nil, fmt.Errorf("%q: not an IP address, a CIDR network or a host name: %s", s, why)
			} else {
				hosts[strings.ToLower(s)] = true
			}
		}
	}
	return func(ip string) bool {
		if a, err := netip.ParseAddr(ip); err == nil {
			a = a.Unmap()
			for _, p := range prefixes {
				if p.Contains(a) {
					return true
				}
			}
			return false
		}
		return hosts[strings.ToLower(ip)]
	}, nil
}

// unbracket is the IPv6 address of "[2001:db8::1]" or
// "[2001:db8::1]:443"; anything else is returned as it is.
func unbracket(s string) string {
	rest, ok := strings.CutPrefix(s, "[")
	if !ok {
		return s
	}
	addr, port, ok := strings.Cut(rest, "]")
	if !ok {
		return s
	}
	if port != "" {
		p, ok := strings.CutPrefix(port, ":")
		if !ok || p == "" || strings.Trim(p, "0123456789") != "" {
			return s
		}
	}
	if a, err := netip.ParseAddr(addr); err != nil || !a.Is6() {
		return s
	}
	return addr
}

// badHostName says why s cannot be a host name as a server logs one (%h
// with HostnameLookups): "" when it can. A value of digits and dots only is
// a mistyped IPv4 address (1.2.3), since no top-level domain is numeric;
// one with ':' a mistyped IPv6 address.
func badHostName(s string) string {
	if len(s) > 253 {
		return "longer than 253 bytes"
	}
	numeric := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ':':
			return "a mistyped IPv6 address?"
		case c >= '0' && c <= '9', c == '.':
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '-', c == '_':
			numeric = false
		default:
			return fmt.Sprintf("%q is not in a host name", c)
		}
	}
	if numeric {
		return "a mistyped IPv4 address?"
	}
	if strings.HasPrefix(s, ".") || strings.HasSuffix(s, "..") || strings.Contains(s, "..") {
		return "an empty label"
	}
	return ""
}
