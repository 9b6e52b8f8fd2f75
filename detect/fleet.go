package detect

import (
	"net/netip"
	"strings"

	"github.com/robowatch/robowatch/findings"
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
	// requests and account count the requests under the string, and of
	// them those for sign-up and login pages (accountPage).
	requests, account int64
}

// count adds r, whose origin-form path is path and resource class res.
func (f *fleetTally) count(r *logparse.Record, path string, res resource) {
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
	e.requests++
	if res != resourceAsset && accountPage(path) {
		e.account++
	}
	if res == resourceAsset && !e.asset && fingerprintOf(path) != fpFavicon {
		e.asset = true
	}
	if e.asset || len(e.addrs) >= fleetMinAddresses {
		return
	}
	ip := capText(r.Client, MaxStoredClient) // as the client keeps it: a log's host name may be a line long
	for _, a := range e.addrs {
		if a == ip {
			return
		}
	}
	e.addrs = append(e.addrs, strings.Clone(ip))
}

// fleet reports how many addresses (fleetMinAddresses at most) sent ua, if
// they make a fleet: at least fleetMinAddresses, in more than one network
// (a /24, an IPv6 /48), and no asset fetched under ua.
func (f *fleetTally) fleet(ua string) int {
	e := f.entry(ua)
	if e == nil || !e.spread() {
		return 0
	}
	return len(e.addrs)
}

// accountFleetShare: an account fleet's sign-up and login pages are at
// least accountFleetNum/accountFleetDen of the requests under its string.
const accountFleetNum, accountFleetDen = 3, 4

// accountFleet reports how many addresses (fleetMinAddresses at most) sent
// ua, if they make a fleet, as fleet asks, that spends most of its
// requests (three in four or more) on sign-up and login pages: a
// registration-spam or credential-stuffing campaign run from many proxies
// under one copied string. People who share a browser string read the
// site, and their pages outnumber the one login each makes; this holds
// where the log sees no one's assets too (a front server answers them),
// where fleet alone says nothing.
func (f *fleetTally) accountFleet(ua string) int {
	e := f.entry(ua)
	if e == nil || !e.spread() || e.account*accountFleetDen < e.requests*accountFleetNum {
		return 0
	}
	return len(e.addrs)
}

// entry returns ua's tally, or nil.
func (f *fleetTally) entry(ua string) *fleetAgent {
	if f == nil {
		return nil
	}
	return f.agents[ua]
}

// spread reports whether e's string came from fleetMinAddresses or more
// addresses in more than one network, with no asset fetched under it.
func (e *fleetAgent) spread() bool {
	if e.asset || len(e.addrs) < fleetMinAddresses {
		return false
	}
	var first netip.Prefix
	for i, a := range e.addrs {
		n, ok := findings.NetworkOf(a)
		if !ok {
			return false // host names: no networks to tell apart
		}
		if i == 0 {
			first = n
		} else if n != first {
			return true
		}
	}
	return false
}

// accountWords are the words (path segments split at '-', '_', '.')
// that name a sign-up or login page: WordPress's wp-login.php, Drupal's
// /user/register, Plone's login_form, Rails' /users/sign_in.
var accountWords = map[string]bool{
	"login": true, "logon": true, "signin": true, "signup": true,
	"register": true, "registration": true,
}

// accountPairs are the same named in two words: Plone's join_form and
// require_login's neighbour, Devise's sign_in and sign_up, log_in.
var accountPairs = map[[2]string]bool{
	{"sign", "in"}: true, {"sign", "up"}: true, {"log", "in"}: true, {"join", "form"}: true,
}

// accountPage reports whether path (the query aside) ends in a sign-up or
// login page: its last segment holds one of accountWords, or two
// neighbouring words of accountPairs, matched whole and in any case.
func accountPage(path string) bool {
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	path = strings.TrimRight(path, "/")
	seg := path[strings.LastIndexByte(path, '/')+1:]
	if seg == "" || len(seg) > 64 {
		return false
	}
	var prev string
	for seg != "" {
		i := strings.IndexAny(seg, "-_.")
		w := seg
		if i >= 0 {
			w, seg = seg[:i], seg[i+1:]
		} else {
			seg = ""
		}
		w = strings.ToLower(w)
		if accountWords[w] || accountPairs[[2]string{prev, w}] {
			return true
		}
		prev = w
	}
	return false
}
