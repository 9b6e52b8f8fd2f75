package findings

import (
	"cmp"
	"encoding/binary"
	"hash/maphash"
	"math"
	"net/netip"
	"slices"
	"strings"

	"github.com/robowatch/robowatch/agents"
)

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

// NetworkOf is the /24 or /48 of an address; ok is false for a host name.
func NetworkOf(ip string) (netip.Prefix, bool) {
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

// networkTally sums verdicts by network, most requests first. A high-churn log
// has about as many networks as clients, so the sums are not kept in a map
// of summaries, each with its own set of User-agents: every client leaves a
// row of numbers, and list sorts the rows by network and adds up each run.
type networkTally struct {
	rows   []networkRow
	ops    []string // the operators rows name (networkRow.op)
	sorted bool     // rows are in sortRows's order
}

// networkRow is one client's part of its network's summary.
type networkRow struct {
	hi, lo     uint64 // the network's address bits, masked: the sort key
	ua         uint64 // hash of the User-agent
	requests   int64
	violations int64
	incidents  int32
	order      int32  // the client's place in the verdicts' order: the first verified one names the network's operator
	op         uint16 // 1 + index in networkTally.ops of a verified client's operator; 0 for none
	bits       uint8
	robot      bool
}

// Add counts a client.
func (n *networkTally) Add(v *Verdict) {
	p, ok := NetworkOf(v.IP)
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

// List is the networks, most requests first.
func (n *networkTally) List() []NetworkSummary { return listNetworks([]*networkTally{n}) }

// listNetworks is the networks of tallies that share no network (a
// detect.Pool's workers'), most requests first, in one list: listing each
// tally and merging the lists held each network twice. Each tally's rows
// are let go of.
func listNetworks(tallies []*networkTally) []NetworkSummary {
	count := 0
	for _, n := range tallies {
		n.sortRows()
		for i, r := range n.rows {
			if i == 0 || r.hi != n.rows[i-1].hi || r.lo != n.rows[i-1].lo {
				count++
			}
		}
	}
	out := make([]NetworkSummary, 0, count)
	// The networks' names are written into one text and cut from it once
	// it is whole: Prefix.String made three allocations a network, for
	// 233,000 networks on the churn log.
	var text strings.Builder
	text.Grow(count * len("255.255.255.0/24"))
	ends := make([]int, 0, count)
	for _, n := range tallies {
		for i := 0; i < len(n.rows); {
			var s NetworkSummary
			i = n.sum(i, &s)
			out = append(out, s)
			r := &n.rows[i-1]
			var a [16]byte
			binary.BigEndian.PutUint64(a[:8], r.hi)
			binary.BigEndian.PutUint64(a[8:], r.lo)
			var buf [64]byte // AppendTo writes a valid prefix as String does
			text.Write(netip.PrefixFrom(netip.AddrFrom16(a).Unmap(), int(r.bits)).AppendTo(buf[:0]))
			ends = append(ends, text.Len())
		}
		n.rows = nil
	}
	names, start := text.String(), 0
	for k, end := range ends {
		out[k].Network, start = names[start:end], end
	}
	slices.SortFunc(out, func(a, b NetworkSummary) int {
		if a.Requests != b.Requests {
			return cmp.Compare(b.Requests, a.Requests)
		}
		return strings.Compare(a.Network, b.Network)
	})
	return out
}

// sortRows puts the rows in order of network and User-agent, once.
func (n *networkTally) sortRows() {
	if !n.sorted {
		slices.SortFunc(n.rows, func(a, b networkRow) int {
			return cmp.Or(cmp.Compare(a.hi, b.hi), cmp.Compare(a.lo, b.lo), cmp.Compare(a.ua, b.ua))
		})
		n.sorted = true
	}
}

// sum adds up into s the rows of the network whose first row is at i, in
// rows sorted by network, and returns where the next network starts.
func (n *networkTally) sum(i int, s *NetworkSummary) int {
	rows, first := n.rows, n.rows[i]
	opAt := int32(math.MaxInt32)
	j := i
	for ; j < len(rows) && rows[j].hi == first.hi && rows[j].lo == first.lo; j++ {
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
	return j
}

// newNetworkTally is a tally with room for the given number of clients.
func newNetworkTally(clients int) *networkTally {
	return &networkTally{rows: make([]networkRow, 0, clients)}
}
