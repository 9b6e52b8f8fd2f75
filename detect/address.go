package detect

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"maps"
	"math"
	"net/netip"
	"slices"
	"strings"

	"github.com/robowatch/robowatch/agents"
)

// A client is an address and a User-agent, so that people behind one NAT
// address stay apart. A scraper that sends a fresh User-agent with every
// request uses that against us: each pair makes a request or two and looks
// like nobody. Seen per address, it is plain: many User-agents, each used
// once or twice, never for the assets a browser loads, and never coming
// from a link. People behind a NAT load pages with their assets, under a
// handful of User-agents; phones behind a carrier's address may each have
// their own (in-app browsers write model and build) and a warm cache, but
// they arrive from a search, a post or the site's own pages: a Referer.

// A scraper given an IPv6 /64 does the same with addresses: each request
// from a fresh address of its /64, so that no address makes more than one.
// A /64 is one subscriber's, one host's: a household's devices each take
// privacy addresses, but a few, for hours, and load pages with assets. So a
// /64 is judged as an address is, its addresses in place of User-agents.
//
// Where the log holds next to no assets (an origin behind a CDN), "never
// for an asset" says nothing, and rotation is judged only at a robot's
// pace: the address's (or the /64's) fleeting clients together made at
// least Config.SustainedPer60s requests a minute over their span. A NAT of
// people with one page each does not keep that up without Referers.

// A rotation need not be one request per User-agent, nor without a
// Referer: a view-count inflater draws each visit's User-agent from a pool
// of a dozen, so that each is used for a few visits; a referrer spammer
// sends its made-up Referer with every request. What neither does is
// render a page. So in a log that records assets (logTraits.hasAssets),
// an address (or /64) with rotatingMinAgents browsers or more, none of
// which ever loaded an image, style, script or font, each used for at
// most rotatingMaxUses requests, is rotating too: ten people behind one
// NAT, each with a browser of their own, load the pages they open, and
// one who does not (a warm cache) is not ten.

// Rotating: an address with at least rotatingMinAgents User-agents, or a
// /64 with at least rotatingMinAgents addresses, rotatingShare of whose
// clients were used at most twice and without an asset; or, where the log
// records assets, all of whose clients were used at most rotatingMaxUses
// times and none for an asset.
const (
	rotatingMinAgents = 10
	rotatingShare     = 0.8
	rotatingMaxUses   = 10
	rotatingMaxPaths  = 2
)

// addressStats is what the clients of one address, or of one IPv6 /64,
// did together.
type addressStats struct {
	agents   int // clients (distinct User-agents of an address)
	addrs    int // distinct addresses of a /64 (addressesOf keeps only those with rotatingMinAgents); 1 for an address
	fleeting int // of the clients, used at most twice, never for an asset nor with a Referer
	// assets: the clients' requests for assets, all together; heavy: the
	// clients used more than rotatingMaxUses times.
	assets, heavy int64
	// paths: the distinct paths the clients' last requests asked for (their
	// pollHash), up to rotatingMaxPaths and one more.
	paths []uint32
	// The fleeting clients' requests, and the Unix seconds of the first
	// and last of them: their pace together.
	fleetingRequests int64
	first, last      int64
}

// rotating reports whether the address (or /64) sends a fresh User-agent
// (or address) with most requests.
func (a *addressStats) rotating() bool {
	return a.agents >= rotatingMinAgents && float64(a.fleeting) >= rotatingShare*float64(a.agents)
}

// unrendered reports whether the address (or /64) rotates User-agents (or
// addresses) that never render a page: many, each used a few times, not
// one of them for an asset. Only a log that records assets can show it.
func (a *addressStats) unrendered() bool {
	return a.agents >= rotatingMinAgents && a.assets == 0 && a.heavy == 0 && len(a.paths) <= rotatingMaxPaths
}

// brisk reports whether the fleeting clients together made perMinute
// requests a minute or more, over their span (a minute at least).
func (a *addressStats) brisk(perMinute int) bool {
	span := max(a.last-a.first, 60)
	return perMinute > 0 && a.fleetingRequests*60 >= int64(perMinute)*span
}

// fleeting reports whether c was used at most twice, never for an asset
// nor from a link: one request of a rotation.
func (c *client) fleeting() bool {
	return c.requests <= 2 && c.assets == 0 && c.referers == 0
}

// key64 is the key of the /64 of ip in the map addressesOf returns: a
// zero byte (no address's text has one) and its 8 bytes; ok is false for
// an IPv4 address and a host name.
func key64(ip string) (key [9]byte, ok bool) {
	if strings.IndexByte(ip, ':') < 0 {
		return key, false
	}
	a, err := netip.ParseAddr(ip)
	if err != nil || a.Unmap().Is4() {
		return key, false
	}
	b := a.As16()
	copy(key[1:], b[:8])
	return key, true
}

// seedAddresses seeds addressesOf's count of User-agents per address.
var seedAddresses = maphash.MakeSeed()

// addressesOf gathers the clients of each address that has at least
// rotatingMinAgents of them, and of each IPv6 /64 with as many addresses
// (keyed by key64): no other can be rotating. The count runs over sorted
// hashes of the addresses, so a log of a million addresses, each with a
// client or two, costs a slice of integers, not a map keyed and valued by
// strings (two addresses sharing a hash, one pair in 2^64, would add up);
// the map holds one entry per ten clients at most, and the table is
// bounded by Config.MaxClients.
func addressesOf(clients *clientTable) map[string]addressStats {
	hashes := make([]uint64, 0, clients.len())
	var pairs [][2]uint64 // the /64 and the hash of the address, of each IPv6 client
	for c := range clients.all() {
		h := maphash.String(seedAddresses, c.ip)
		hashes = append(hashes, h)
		if k, ok := key64(c.ip); ok {
			pairs = append(pairs, [2]uint64{binary.BigEndian.Uint64(k[1:]), h})
		}
	}
	slices.Sort(hashes)
	var many []uint64 // the hashes of addresses with rotatingMinAgents clients or more, sorted
	for i := 0; i < len(hashes); {
		j := i + 1
		for j < len(hashes) && hashes[j] == hashes[i] {
			j++
		}
		if j-i >= rotatingMinAgents {
			many = append(many, hashes[i])
		}
		i = j
	}
	// The /64s with rotatingMinAgents addresses or more, and how many.
	slices.SortFunc(pairs, func(a, b [2]uint64) int {
		return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
	})
	nets := map[uint64]int{}
	for i := 0; i < len(pairs); {
		j, n := i+1, 1
		for ; j < len(pairs) && pairs[j][0] == pairs[i][0]; j++ {
			if pairs[j][1] != pairs[j-1][1] {
				n++
			}
		}
		if n >= rotatingMinAgents {
			nets[pairs[i][0]] = n
		}
		i = j
	}
	out := make(map[string]addressStats)
	if len(many) == 0 && len(nets) == 0 {
		return out
	}
	note := func(key string, c *client, addrs int) {
		a := out[key]
		a.agents++
		a.addrs = addrs
		a.assets += int64(c.assets)
		if c.requests > rotatingMaxUses {
			a.heavy++
		}
		if len(a.paths) <= rotatingMaxPaths && !slices.Contains(a.paths, c.pollHash) {
			a.paths = append(a.paths, c.pollHash)
		}
		if c.fleeting() {
			a.fleeting++
			a.fleetingRequests += c.requests
			if a.fleeting == 1 || c.first.sec < a.first {
				a.first = c.first.sec
			}
			a.last = max(a.last, c.last.sec)
		}
		out[key] = a
	}
	for c := range clients.all() {
		if _, ok := slices.BinarySearch(many, maphash.String(seedAddresses, c.ip)); ok {
			note(c.ip, c, 1)
		}
		if len(nets) == 0 {
			continue
		}
		if k, ok := key64(c.ip); ok {
			if n, ok := nets[binary.BigEndian.Uint64(k[1:])]; ok {
				note(string(k[:]), c, n)
			}
		}
	}
	return out
}

// rotation says why c is one request of a rotation: of User-agents at its
// address, or of addresses in its /64; "" when it is not.
func (e *verdictEnv) rotation(c *client) string {
	if c.assets > 0 {
		return ""
	}
	if a, ok := e.addrs[c.ip]; ok {
		if a.rotating() && (e.lt.hasAssets || a.brisk(e.cfg.SustainedPer60s)) {
			return fmt.Sprintf("one of %d User-agents from this address, %d of them used at most twice, never for an asset nor from a link: a rotating User-agent", a.agents, a.fleeting)
		}
		if a.unrendered() && e.lt.hasAssets {
			return fmt.Sprintf("one of %d User-agents from this address, each used at most %d times for the same URL, not one for an asset in a log of pages and assets: a rotating User-agent", a.agents, rotatingMaxUses)
		}
	}
	if k, ok := key64(c.ip); ok {
		if a, ok := e.addrs[string(k[:])]; ok {
			var b [16]byte
			copy(b[:8], k[1:])
			net := netip.PrefixFrom(netip.AddrFrom16(b), 64)
			if a.rotating() && (e.lt.hasAssets || a.brisk(e.cfg.SustainedPer60s)) {
				return fmt.Sprintf("one of %d addresses of %s, %d of its %d clients used at most twice, never for an asset nor from a link: rotating addresses", a.addrs, net, a.fleeting, a.agents)
			}
			if a.unrendered() && e.lt.hasAssets {
				return fmt.Sprintf("one of %d addresses of %s, its %d clients each used at most %d times for the same URL, not one for an asset in a log of pages and assets: rotating addresses", a.addrs, net, a.agents, rotatingMaxUses)
			}
		}
	}
	return ""
}

// rotates reports whether the address or /64 of ip may be rotating, before
// the log's traits are known: its clients are worth judging again.
func rotates(addrs map[string]addressStats, ip string) bool {
	if a, ok := addrs[ip]; ok && (a.rotating() || a.unrendered()) {
		return true
	}
	k, ok := key64(ip)
	if !ok {
		return false
	}
	a, ok := addrs[string(k[:])]
	return ok && (a.rotating() || a.unrendered())
}

// NetworkSummary is what the clients of one network (a /24 for IPv4, a /48
// for IPv6) did: the view for an operator's or a botnet's many addresses.
type NetworkSummary struct {
	Network    string `json:"network"`
	Operator   string `json:"operator,omitempty"` // the operator its verified crawlers belong to, if any
	Clients    int    `json:"clients"`
	Robots     int    `json:"robots"`
	Requests   int64  `json:"requests"`
	UserAgents int    `json:"user_agents"` // distinct User-agents
	Violations int64  `json:"violations"`
	Incidents  int    `json:"incidents"`
}

// seedAgents seeds the hashes of a network's User-agents; collisions among
// them (one in 2^64 a pair) would undercount by one.
var seedAgents = maphash.MakeSeed()

// maxNetworkAgents bounds the User-agents counted per network: past it the
// count is a lower bound, as it is in merged reports.
const maxNetworkAgents = 10_000

// networkOf is the /24 or /48 of an address; ok is false for a host name.
func networkOf(ip string) (netip.Prefix, bool) {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return netip.Prefix{}, false
	}
	a = a.Unmap()
	bits := 48
	if a.Is4() {
		bits = 24
	}
	p, err := a.Prefix(bits)
	return p, err == nil
}

// networks sums verdicts by network, most requests first. A high-churn log
// has about as many networks as clients, so the sums are not kept in a map
// of summaries, each with its own set of User-agents: every client leaves a
// row of numbers, and list sorts the rows by network and adds up each run.
type networks struct {
	rows []networkRow
	ops  []string // the operators rows name (networkRow.op)
}

// networkRow is one client's part of its network's summary.
type networkRow struct {
	hi, lo     uint64 // the network's address bits, masked: the sort key
	ua         uint64 // hash of the User-agent
	requests   int64
	violations int64
	incidents  int32
	order      int32  // the client's place in the verdicts' order: the first verified one names the network's operator
	op         uint16 // 1 + index in networks.ops of a verified client's operator; 0 for none
	bits       uint8
	robot      bool
}

func (n *networks) add(v *Verdict) {
	p, ok := networkOf(v.IP)
	if !ok {
		return
	}
	a := p.Addr().As16()
	r := networkRow{
		hi:         binary.BigEndian.Uint64(a[:8]),
		lo:         binary.BigEndian.Uint64(a[8:]),
		ua:         maphash.String(seedAgents, v.UserAgent),
		requests:   v.Requests,
		violations: v.Violations,
		incidents:  int32(min(v.Incidents, math.MaxInt32)),
		order:      int32(min(len(n.rows), math.MaxInt32)),
		bits:       uint8(p.Bits()),
		robot:      v.Robot,
	}
	if v.Identity == agents.IdentityVerified && v.Operator != "" {
		k := slices.Index(n.ops, v.Operator)
		if k < 0 && len(n.ops) < math.MaxUint16 {
			k, n.ops = len(n.ops), append(n.ops, v.Operator)
		}
		r.op = uint16(k + 1)
	}
	n.rows = append(n.rows, r)
}

func (n *networks) list() []NetworkSummary {
	rows := n.rows
	slices.SortFunc(rows, func(a, b networkRow) int {
		return cmp.Or(cmp.Compare(a.hi, b.hi), cmp.Compare(a.lo, b.lo), cmp.Compare(a.ua, b.ua))
	})
	count := 0
	for i := range rows {
		if i == 0 || rows[i].hi != rows[i-1].hi || rows[i].lo != rows[i-1].lo {
			count++
		}
	}
	out := make([]NetworkSummary, 0, count)
	for i := 0; i < len(rows); {
		r := rows[i]
		var a [16]byte
		binary.BigEndian.PutUint64(a[:8], r.hi)
		binary.BigEndian.PutUint64(a[8:], r.lo)
		s := NetworkSummary{Network: netip.PrefixFrom(netip.AddrFrom16(a).Unmap(), int(r.bits)).String()}
		opAt := int32(math.MaxInt32)
		j := i
		for ; j < len(rows) && rows[j].hi == r.hi && rows[j].lo == r.lo; j++ {
			x := &rows[j]
			s.Clients++
			s.Requests += x.requests
			s.Violations += x.violations
			s.Incidents += int(x.incidents)
			if x.robot {
				s.Robots++
			}
			if x.op > 0 && x.order < opAt {
				s.Operator, opAt = n.ops[x.op-1], x.order
			}
			if (j == i || x.ua != rows[j-1].ua) && s.UserAgents < maxNetworkAgents {
				s.UserAgents++
			}
		}
		out = append(out, s)
		i = j
	}
	n.rows = nil
	slices.SortFunc(out, func(a, b NetworkSummary) int {
		return cmp.Or(cmp.Compare(b.Requests, a.Requests), cmp.Compare(a.Network, b.Network))
	})
	return out
}

// unnamed is the name of a robot found by its behaviour under a browser's
// User-agent: "unnamed (180.76.15.0/24)", its network (the address itself
// when the log holds a host name).
func unnamed(ip string) string {
	if p, ok := networkOf(ip); ok {
		return "unnamed (" + p.String() + ")"
	}
	if i := strings.IndexByte(ip, '.'); i > 0 && strings.IndexByte(ip[i+1:], '.') > 0 {
		// A host name (a Common Log Format log's %h): its domain is the
		// network, "piweba4y.prodigy.com" one of "*.prodigy.com".
		return "unnamed (*" + ip[i:] + ")"
	}
	return "unnamed (" + ip + ")"
}

// OperatorSummary is what the verified crawlers of one operator did, over
// all of their networks: the view for "how hard does Google hit us".
type OperatorSummary struct {
	Operator   string `json:"operator"`
	Networks   int    `json:"networks"` // distinct /24 and /48 networks its verified crawlers came from
	Clients    int    `json:"clients"`
	Robots     int    `json:"robots"`
	Requests   int64  `json:"requests"`
	UserAgents int    `json:"user_agents"` // distinct User-agents (up to maxNetworkAgents)
	Violations int64  `json:"violations"`
	Incidents  int    `json:"incidents"`

	// Crawl-to-refer: Pages are the page requests of its verified
	// crawlers; ReferredViews the page views of people its products sent
	// (a Referer of its search engine or assistant, or ChatGPT's
	// utm_source tag: agents.Referral); CrawlToRefer is Pages per
	// referred view, null when its products sent no one. A row may have
	// referred views and no crawler.
	Pages         int64    `json:"pages"`
	ReferredViews int64    `json:"referred_views"`
	CrawlToRefer  *float64 `json:"crawl_to_refer"`

	// The sets behind Networks and UserAgents, kept for merging (the JSON
	// report's state): network texts, and FNV-1a hashes of User-agents.
	NetworkSet []string `json:"-"`
	AgentSet   []uint64 `json:"-"`
}

// operators sums the verified clients by operator.
type operators map[string]*operatorSets

type operatorSets struct {
	s      OperatorSummary
	nets   map[string]struct{}
	agents map[uint64]struct{}
}

// row returns the row of op, made on first use.
func (o operators) row(op string) *operatorSets {
	e := o[op]
	if e == nil {
		e = &operatorSets{s: OperatorSummary{Operator: op}, nets: map[string]struct{}{}, agents: map[uint64]struct{}{}}
		o[op] = e
	}
	return e
}

// refer counts page views of people that op's products sent.
func (o operators) refer(op string, views int64) {
	if views > 0 {
		o.row(op).s.ReferredViews += views
	}
}

func (o operators) add(v *Verdict) {
	if v.Identity != IdentityVerified || v.Operator == "" {
		return
	}
	e := o.row(v.Operator)
	e.s.Clients++
	e.s.Requests += v.Requests
	e.s.Pages += v.Pages
	e.s.Violations += v.Violations
	e.s.Incidents += v.Incidents
	if v.Robot {
		e.s.Robots++
	}
	if v.Network != "" {
		e.nets[v.Network] = struct{}{}
	}
	if len(e.agents) < maxNetworkAgents {
		e.agents[agentHash(v.UserAgent)] = struct{}{}
	}
}

// agentHash is FNV-1a (64 bits) of a User-agent: the same in every run,
// so that merged reports can take the union of their sets.
func agentHash(ua string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(ua); i++ {
		h ^= uint64(ua[i])
		h *= 1099511628211
	}
	return h
}

func (o operators) list() []OperatorSummary {
	out := make([]OperatorSummary, 0, len(o))
	for _, e := range o {
		s := e.s
		s.NetworkSet = slices.Sorted(maps.Keys(e.nets))
		s.AgentSet = slices.Sorted(maps.Keys(e.agents))
		s.Networks, s.UserAgents = len(s.NetworkSet), len(s.AgentSet)
		s.CrawlToRefer = CrawlToRefer(s.Pages, s.ReferredViews)
		out = append(out, s)
	}
	sortOperators(out)
	return out
}

// CrawlToRefer is pages per referred view to two decimals, from the
// counts as they stand (summed over parts, never an average of ratios);
// nil without a referred view.
func CrawlToRefer(pages, views int64) *float64 {
	if views <= 0 {
		return nil
	}
	r := math.Round(float64(pages)/float64(views)*100) / 100
	return &r
}

func sortOperators(out []OperatorSummary) {
	slices.SortFunc(out, func(a, b OperatorSummary) int {
		return cmp.Or(cmp.Compare(b.Requests, a.Requests), cmp.Compare(a.Operator, b.Operator))
	})
}

// MergeOperators combines operators lists: counts add up, networks and
// User-agents are the union of the parts' sets.
func MergeOperators(parts [][]OperatorSummary) []OperatorSummary {
	o := operators{}
	for _, p := range parts {
		for _, s := range p {
			e := o.row(s.Operator)
			e.s.Clients += s.Clients
			e.s.Pages += s.Pages
			e.s.ReferredViews += s.ReferredViews
			e.s.Robots += s.Robots
			e.s.Requests += s.Requests
			e.s.Violations += s.Violations
			e.s.Incidents += s.Incidents
			for _, n := range s.NetworkSet {
				e.nets[n] = struct{}{}
			}
			for _, a := range s.AgentSet {
				if len(e.agents) < maxNetworkAgents {
					e.agents[a] = struct{}{}
				}
			}
		}
	}
	return o.list()
}
