package detect

import (
	"net/netip"
	"strings"

	"github.com/robowatch/robowatch/logparse"
)

// A fleet is one script run from many addresses: the same exact browser
// User-agent string at fleetMinAddresses or more addresses in more than one
// network, and not one request under it, at any of them, for an image,
// style, script or font. People who share a browser version share its
// string too, but among ten of them on a site with assets one at least
// loads a page's assets; a fleet copied the string once and fetches bare
// documents (Baidu's bare MSIE 7 string sending GET / from a dozen
// addresses in turn, a WordPress probe string posting /xmlrpc.php from
// seventy). Whether a string is a fleet's is a matter of the whole log, so
// it is counted over every record (Add, Pass, a Pool's Add) and asked only
// once the log is read (Result): a worker or a shard alone sees only its
// networks, and its verdict would change with --workers.
const (
	fleetMinAddresses = 10
	// fleetMaxAgents bounds the strings counted: past it new strings are
	// not counted (a log rotating a User-agent per request would otherwise
	// keep one entry per request). The records come in log order whatever
	// the workers, so the same strings are counted on every run.
	fleetMaxAgents = 1 << 16
	// fleetMaxRequests: a member of a fleet makes a few requests; one that
	// reads on is judged on what it reads.
	fleetMaxRequests = 5
)

// fleetTally counts, per exact User-agent string, the addresses that sent
// it (up to fleetMinAddresses) and whether any request under it was for an
// asset.
type fleetTally struct {
	agents map[string]*fleetAgent
	last   *fleetAgent // the entry of the previous record's string
	lastUA string
}

type fleetAgent struct {
	ua    string   // the string, as the map's key holds it
	addrs []string // distinct addresses, the first fleetMinAddresses
	asset bool     // an asset (the favicon aside) was fetched under it
}

// count adds r, whose resource class is res.
func (f *fleetTally) count(r *logparse.Record, res resource) {
	ua := r.UserAgent
	if len(ua) > MaxStoredAgent {
		ua = capText(ua, MaxStoredAgent) // as the client keeps it
	}
	if ua == "" {
		return
	}
	e := f.last
	if e == nil || f.lastUA != ua {
		e = f.agents[ua]
		if e == nil {
			if len(f.agents) >= fleetMaxAgents {
				return
			}
			if f.agents == nil {
				f.agents = map[string]*fleetAgent{}
			}
			e = &fleetAgent{ua: strings.Clone(ua)} // r's memory may be reused
			f.agents[e.ua] = e
		}
		f.last, f.lastUA = e, e.ua
	}
	if res == resourceAsset && !e.asset && fingerprintOf(r.Path()) != fpFavicon {
		e.asset = true
	}
	if e.asset || len(e.addrs) >= fleetMinAddresses {
		return
	}
	for _, a := range e.addrs {
		if a == r.Client {
			return
		}
	}
	e.addrs = append(e.addrs, strings.Clone(r.Client))
}

// fleet reports how many addresses (fleetMinAddresses at most) sent ua, if
// they make a fleet: at least fleetMinAddresses, in more than one network
// (a /24, an IPv6 /48), and no asset fetched under ua.
func (f *fleetTally) fleet(ua string) int {
	if f == nil {
		return 0
	}
	e := f.agents[ua]
	if e == nil || e.asset || len(e.addrs) < fleetMinAddresses {
		return 0
	}
	var first netip.Prefix
	for i, a := range e.addrs {
		n, ok := networkOf(a)
		if !ok {
			return 0 // host names: no networks to tell apart
		}
		if i == 0 {
			first = n
		} else if n != first {
			return len(e.addrs)
		}
	}
	return 0
}
