package findings

import (
	"cmp"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/logparse"
)

// Selection says which clients a block list names (--block). The zero
// value selects nothing; DefaultSelection is what an admin gets without
// choosing.
//
// The categories (impostors, violators, scanners, incidents, robots) only
// ever take robots that are not verified crawlers: a block list made by
// default must never cut a site off from a search engine or a person.
// A verified crawler is listed only when the admin names it (Names) or its
// purpose (Purposes); a client judged human never is.
type Selection struct {
	Impostors bool     // robots whose address is not their claimed operator's
	Violators bool     // robots that fetched what robots.txt disallows
	Scanners  bool     // robots of kind scanner (probes for weaknesses)
	Incidents bool     // robots with a rapid-fire incident
	Robots    bool     // every robot
	Purposes  []string // purpose:P, e.g. ai-training (lower case)
	Names     []string // name:N, a robot's name (lower case)
}

// DefaultSelection is impostors,violators,scanners,incidents.
var DefaultSelection = Selection{Impostors: true, Violators: true, Scanners: true, Incidents: true}

// ParseSelection reads a --block value: comma-separated impostors,
// violators, scanners, incidents, robots, purpose:P and name:N.
func ParseSelection(s string) (Selection, error) {
	var sel Selection
	for item := range strings.SplitSeq(s, ",") {
		if err := sel.add(strings.TrimSpace(item)); err != nil {
			return Selection{}, err
		}
	}
	return sel, nil
}

func (s *Selection) add(item string) error {
	lower := strings.ToLower(item)
	switch {
	case lower == "impostors":
		s.Impostors = true
	case lower == "violators":
		s.Violators = true
	case lower == "scanners":
		s.Scanners = true
	case lower == "incidents":
		s.Incidents = true
	case lower == "robots":
		s.Robots = true
	case strings.HasPrefix(lower, "purpose:") && len(lower) > len("purpose:"):
		p := lower[len("purpose:"):]
		if !slices.Contains(agents.Purposes, p) {
			// A mistyped purpose would select nobody: an empty list
			// that looks like a clean log.
			return fmt.Errorf("%q: want a purpose of %s", item, strings.Join(agents.Purposes, ", "))
		}
		s.Purposes = append(s.Purposes, p)
	case strings.HasPrefix(lower, "name:") && len(lower) > len("name:"):
		s.Names = append(s.Names, lower[len("name:"):])
	case item == "":
		return errors.New("empty item")
	default:
		return fmt.Errorf("%q: want impostors, violators, scanners, incidents, robots, purpose:P or name:N", item)
	}
	return nil
}

// String is the selection as --block would take it.
func (s Selection) String() string {
	var items []string
	for _, c := range []struct {
		on   bool
		name string
	}{{s.Impostors, "impostors"}, {s.Violators, "violators"}, {s.Scanners, "scanners"}, {s.Incidents, "incidents"}, {s.Robots, "robots"}} {
		if c.on {
			items = append(items, c.name)
		}
	}
	for _, p := range s.Purposes {
		items = append(items, "purpose:"+p)
	}
	for _, n := range s.Names {
		items = append(items, "name:"+n)
	}
	return strings.Join(items, ",")
}

// reasons are why a selection takes a client or an address: each is set
// when one of its clients was taken for it.
type reasons struct {
	named, purpose    string // the name or purpose the admin gave, as taken
	impostor, scanner bool
	// claimed and verified: an impostor taken for something else (name:,
	// violators, robots), a verified crawler taken by name: or purpose:;
	// the comment says which, so that the real crawler and its impostor
	// named together can be told apart.
	claimed, verified     bool
	violations, incidents bool // taken for its violations, its incidents
	robot                 bool // taken only as a robot (--block robots)
}

func (a *reasons) any() bool {
	return a.named != "" || a.purpose != "" || a.impostor || a.scanner || a.violations || a.incidents || a.robot
}

func (a *reasons) merge(b reasons) {
	a.named = cmp.Or(a.named, b.named)
	a.purpose = cmp.Or(a.purpose, b.purpose)
	a.impostor, a.scanner = a.impostor || b.impostor, a.scanner || b.scanner
	a.claimed, a.verified = a.claimed || b.claimed, a.verified || b.verified
	a.violations, a.incidents, a.robot = a.violations || b.violations, a.incidents || b.incidents, a.robot || b.robot
}

// why says which of its items s takes v for; none: not taken.
func (s *Selection) why(v *Verdict) reasons {
	var r reasons
	if !v.Robot || paceAlone(v) {
		return r
	}
	if slices.Contains(s.Names, strings.ToLower(v.Name)) {
		r.named = v.Name
	}
	if p := purposeOf(v); p != "" && slices.Contains(s.Purposes, p) {
		r.purpose = p
	}
	if identityOf(v) == "verified" {
		r.verified = r.any()
		return r // only ever by name or purpose
	}
	r.impostor = s.Impostors && identityOf(v) == "impostor"
	r.violations = s.Violators && v.Violations > 0
	r.scanner = s.Scanners && v.Kind == "scanner"
	r.incidents = s.Incidents && v.Incidents > 0
	r.robot = s.Robots && !r.any()
	r.claimed = identityOf(v) == "impostor" && r.any()
	return r
}

// paceAlone reports whether v is a browser judged a robot on its pace
// alone: a person clicking fast, many tabs opened at once, or the people
// behind one address can do that, so no selection takes it. A robot under
// a browser's name that also does what browsers do not (no assets, no
// Referer, a probe) carries those reasons too.
func paceAlone(v *Verdict) bool {
	return v.Kind == agents.Browser.String() && len(v.Reasons) == 1 && v.Reasons[0] == ReasonRate
}

// words says the reasons of o in words, with its counts.
func (a *reasons) words(o *Offender) []string {
	var w []string
	if a.impostor || a.claimed {
		w = append(w, "impostor")
	}
	if a.verified {
		w = append(w, "verified")
	}
	if a.scanner {
		w = append(w, "scanner")
	}
	if a.violations {
		w = append(w, plural(o.Violations, "robots.txt violation", "robots.txt violations"))
	}
	if a.incidents {
		w = append(w, plural(int64(o.Incidents), "rapid-fire incident", "rapid-fire incidents"))
	}
	if a.named != "" {
		w = append(w, "named by --block name:"+strings.ToLower(a.named))
	}
	if a.purpose != "" {
		w = append(w, "purpose "+a.purpose)
	}
	if a.robot {
		w = append(w, "robot")
	}
	return w
}

// plural is n and the noun for it: "1 request", "2 requests".
func plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Offender is one address or network a block list names, and why.
type Offender struct {
	Prefix     netip.Prefix // a single address (/32, /128) or an aggregated network
	Addresses  int          // selected addresses it stands for (1 unless aggregated)
	Names      []string     // the names of its selected clients, sorted, at most maxOffenderNames
	MoreNames  bool         // there were more names
	Why        []string     // why it is listed, in words with its counts ("3 robots.txt violations")
	Clients    int          // selected clients (IP + User-agent)
	Requests   int64
	Violations int64
	Incidents  int
}

// maxOffenderNames bounds the names an Offender keeps for its comment: a
// network of rotating User-agents has as many names as requests.
const maxOffenderNames = 5

// BlockOptions say how BlockList picks and groups addresses.
type BlockOptions struct {
	Select Selection
	Allow  []netip.Prefix // never listed, whatever the selection

	// Aggregate lists a /24 (IPv4) or /48 (IPv6) instead of its addresses
	// when at least this many of them are selected; 0 never does. A
	// network is listed only when every client seen in it was selected,
	// none of them was folded into Other (--max-clients,
	// detect.Config.Expire: its verdict is not known) and no allowed
	// address lies in it: a block list never reaches past what the log
	// showed doing wrong.
	Aggregate int
}

// BlockList is what a block list names and what it leaves out (see
// Result.BlockList).
type BlockList struct {
	Offenders []Offender
	Skipped   []string // selected clients whose address is no IP address
	Internal  []string // selected internal addresses and CDN edges
	// Shared counts the addresses left out because a client judged human
	// was seen there too: a NAT, a proxy, a shared host. Denying one would
	// deny the people behind it, and a block list holds only what is
	// certain.
	Shared int
	// PeopleNetworks counts the networks --aggregate would have listed
	// whole but lists address by address: a client judged human was seen
	// in each.
	PeopleNetworks int
}

// BlockList picks the clients opt.Select names, one entry per address (an
// IPv4-mapped IPv6 address as its IPv4 one), in address order, without
// the allowed ones and without each address at which a client judged human
// was seen. Skipped are the selected clients whose address is no IP
// address (a host name, or garbage a log can hold): they cannot go in a
// block list, and the caller says so. Internal are the selected addresses
// no request from the internet comes from (loopback, private, link-local:
// the server itself, its balancer, a health check, WordPress's own cron),
// and a CDN's edge addresses, which carry every visitor's requests when the
// log names the edge (a site behind Cloudflare that logs no
// CF-Connecting-IP): denying them can take the site down, so they are
// named, not listed.
// Clients folded into Other are not known one by one and are not listed.
func (r *Result) BlockList(opt BlockOptions) BlockList {
	var list []Offender
	var skipped, internal []string
	byAddr := map[netip.Addr]*Offender{}
	why := map[netip.Addr]*reasons{}
	seen := map[netip.Prefix]bool{} // networks with a client not selected
	// human: addresses at which a client was judged human (not junk: a
	// TLS handshake is no person). One pass sees a robot before or after
	// the people of its address, so they are left out at the end.
	human := map[netip.Addr]bool{}
	people := map[netip.Prefix]bool{} // networks of human
	for v := range r.Clients.All() {
		addr, err := netip.ParseAddr(v.IP)
		rs := opt.Select.why(&v)
		if err != nil {
			if rs.any() && len(skipped) < 100 && !slices.Contains(skipped, v.IP) {
				skipped = append(skipped, v.IP)
			}
			continue
		}
		addr = addr.Unmap().WithZone("")
		if !v.Robot && v.Kind != KindJunk {
			human[addr], people[network(addr)] = true, true
		}
		if !rs.any() || allowed(opt.Allow, addr) {
			seen[network(addr)] = true
			continue
		}
		if logparse.InternalAddress(addr) || agents.CDN(addr) != "" {
			seen[network(addr)] = true
			if t := addr.String(); len(internal) < 100 && !slices.Contains(internal, t) {
				internal = append(internal, t)
			}
			continue
		}
		o := byAddr[addr]
		if o == nil {
			o = &Offender{Prefix: netip.PrefixFrom(addr, addr.BitLen()), Addresses: 1}
			byAddr[addr] = o
			why[addr] = new(reasons)
		}
		o.Clients++
		o.Requests += v.Requests
		o.Violations += v.Violations
		o.Incidents += v.Incidents
		o.addName(v.Name)
		why[addr].merge(rs)
	}
	shared, peopleNets := 0, 0
	for addr, o := range byAddr {
		if human[addr] {
			delete(byAddr, addr)
			shared++
			continue
		}
		o.Why = why[addr].words(o)
	}

	// Aggregate: count the selected addresses of each network.
	if opt.Aggregate > 0 {
		members := map[netip.Prefix][]netip.Addr{}
		for addr := range byAddr {
			members[network(addr)] = append(members[network(addr)], addr)
		}
		// A client folded into Other may have been a person: its
		// network is listed address by address. Not knowing where Other's
		// clients came from, none is listed whole.
		folded := func(net netip.Prefix) bool {
			if r.Folded == nil {
				return r.Other.Requests > 0 || r.Other.Clients > 0
			}
			return r.Folded.has(net.Addr())
		}
		for net, addrs := range members {
			if len(addrs) < opt.Aggregate {
				continue
			}
			if people[net] {
				// People were seen in it: the robots' addresses are
				// certain, the rest of the network is theirs.
				peopleNets++
				continue
			}
			if seen[net] || folded(net) || overlaps(opt.Allow, net) {
				continue
			}
			agg, aggWhy := &Offender{Prefix: net}, new(reasons)
			for _, a := range addrs {
				o := byAddr[a]
				agg.Addresses++
				agg.Clients += o.Clients
				agg.Requests += o.Requests
				agg.Violations += o.Violations
				agg.Incidents += o.Incidents
				for _, n := range o.Names {
					agg.addName(n)
				}
				agg.MoreNames = agg.MoreNames || o.MoreNames
				aggWhy.merge(*why[a])
				delete(byAddr, a)
			}
			agg.Why = aggWhy.words(agg)
			list = append(list, *agg)
		}
	}
	for _, o := range byAddr {
		list = append(list, *o)
	}
	slices.SortFunc(list, func(a, b Offender) int {
		if c := a.Prefix.Addr().Compare(b.Prefix.Addr()); c != 0 {
			return c
		}
		return cmp.Compare(a.Prefix.Bits(), b.Prefix.Bits())
	})
	slices.Sort(skipped)
	slices.SortFunc(internal, func(a, b string) int {
		return netip.MustParseAddr(a).Compare(netip.MustParseAddr(b))
	})
	return BlockList{Offenders: list, Skipped: skipped, Internal: internal, Shared: shared, PeopleNetworks: peopleNets}
}

func (o *Offender) addName(name string) {
	if slices.Contains(o.Names, name) {
		return
	}
	if len(o.Names) >= maxOffenderNames {
		o.MoreNames = true
		return
	}
	o.Names = append(o.Names, name)
	slices.Sort(o.Names)
}

// network is the /24 of an IPv4 address, the /48 of an IPv6 one: the
// blocks one operator usually holds whole.
func network(a netip.Addr) netip.Prefix {
	bits := 48
	if a.Is4() {
		bits = 24
	}
	p, _ := a.Prefix(bits)
	return p
}

func allowed(allow []netip.Prefix, a netip.Addr) bool {
	for _, p := range allow {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

func overlaps(allow []netip.Prefix, net netip.Prefix) bool {
	for _, p := range allow {
		if p.Overlaps(net) {
			return true
		}
	}
	return false
}

// identityOf and purposeOf are what agents says of v's claim.
func identityOf(v *Verdict) string { return v.Identity }
func purposeOf(v *Verdict) string  { return v.Purpose }
