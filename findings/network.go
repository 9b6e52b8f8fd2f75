package findings

import (
	"cmp"
	"encoding/binary"
	"math"
	"math/bits"
	"net/netip"
	"slices"
	"strings"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/internal/radix"
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

// AppendNetwork appends the name of the network NetworkOf finds in ip, as
// its String writes it; ok is false, and dst as it was, for a host name.
// An IPv4 address's /24 is written from its text: the report names every
// client's network, and parsing each address into a netip.Prefix to print
// it was most of the churn log's 20 ms of that (CPU profiles of 3 runs).
func AppendNetwork(dst []byte, ip string) ([]byte, bool) {
	if _, ok := ipv4Key(ip); ok {
		// ipv4Key took the text for netip's own (no leading zero, each
		// field at most 255): its first three fields print the same.
		i := strings.LastIndexByte(ip, '.')
		return append(append(dst, ip[:i+1]...), "0/24"...), true
	}
	p, ok := NetworkOf(ip)
	if !ok {
		return dst, false
	}
	return p.AppendTo(dst), true
}

// networkKeyOf is networkKey of the network NetworkOf finds in ip; ok is
// false where NetworkOf's is. An IPv4 address's /24 is read straight from
// its text: parsing every client's address into a netip.Prefix was 27 ms
// of the churn log's Result (CPU profiles of 4 runs, 250,000 clients).
func networkKeyOf(ip string) (uint64, bool) {
	if k, ok := ipv4Key(ip); ok {
		return k, true
	}
	p, ok := NetworkOf(ip)
	if !ok {
		return 0, false
	}
	return networkKey(p.Addr()), true
}

// ipv4Key is networkKey of the /24 of s, a dotted-quad IPv4 address as
// netip.ParseAddr reads one (four fields of 1-3 digits, at most 255, no
// leading zero); ok is false for anything else, which NetworkOf reads.
func ipv4Key(s string) (uint64, bool) {
	// A field at a time, its up to three digits read one after another,
	// not through a switch a byte: for every client twice (the network
	// tally, the report's network), 61M of churn.log's instructions
	// (cachegrind).
	var key uint64
	i := 0
	for field := range 4 {
		if i >= len(s) || s[i]-'0' > 9 {
			return 0, false
		}
		val := uint64(s[i] - '0')
		i++
		// No digit after a leading zero: the next byte must be a dot.
		if val != 0 && i < len(s) && s[i]-'0' <= 9 {
			val = val*10 + uint64(s[i]-'0')
			i++
			if i < len(s) && s[i]-'0' <= 9 {
				val = val*10 + uint64(s[i]-'0')
				i++
			}
		}
		if val > 255 {
			return 0, false
		}
		key = key<<8 | val
		if field < 3 {
			if i >= len(s) || s[i] != '.' {
				return 0, false
			}
			i++
		}
	}
	if i != len(s) {
		return 0, false
	}
	return 1<<63 | key>>8, true
}

// networkTally sums verdicts by network, most requests first. A high-churn log
// has about as many networks as clients, so the sums are not kept in a map
// of summaries, each with its own set of User-agents: every client leaves a
// row of numbers, and list sorts the rows by network and adds up each run.
type networkTally struct {
	rows   []networkRow
	extras []networkExtra // what few rows have (networkRow.extra)
	ops    []string       // the operators rows name (networkExtra.op)
	sorted bool           // rows are in sortRows's order
}

// networkRow is one client's part of its network's summary: 32 bytes, a
// row for every client of a churn log (250,000 at 56 bytes were 14 MB of
// what Result allocated).
type networkRow struct {
	net      uint64 // the network (networkKey): the sort key
	ua       uint64 // agentHash of the User-agent; a collision (one in 2^64 a pair) would undercount by one
	requests int64
	extra    int32 // 1 + index in networkTally.extras; 0: no violations, incidents nor operator
	robot    bool
}

// networkExtra is the rest of a row, of the few clients with violations,
// incidents or a verified operator.
type networkExtra struct {
	violations int64
	incidents  int32
	order      int32  // the client's place in the verdicts' order: the first verified one names the network's operator
	op         uint32 // 1 + index in networkTally.ops of a verified client's operator; 0 for none
}

// networkOfKey is the /24 or /48 whose address networkKey made k of.
func networkOfKey(k uint64) netip.Prefix {
	if k&(1<<63) != 0 {
		return netip.PrefixFrom(netip.AddrFrom4([4]byte{byte(k >> 16), byte(k >> 8), byte(k)}), 24)
	}
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], k<<16)
	return netip.PrefixFrom(netip.AddrFrom16(b), 48)
}

// Add counts a client, ua the agentHash of its User-agent.
func (n *networkTally) Add(v *Verdict, ua uint64) {
	net, ok := networkKeyOf(v.IP)
	if !ok {
		return
	}
	r := networkRow{net: net, ua: ua, requests: v.Requests, robot: v.Robot}
	e := networkExtra{violations: v.Violations, incidents: int32(min(v.Incidents, math.MaxInt32)), order: int32(min(len(n.rows), math.MaxInt32))}
	if v.Identity == agents.IdentityVerified && v.Operator != "" {
		k := slices.Index(n.ops, v.Operator)
		if k < 0 && len(n.ops) < math.MaxUint16 {
			k, n.ops = len(n.ops), append(n.ops, v.Operator)
		}
		e.op = uint32(k + 1)
	}
	if e.violations != 0 || e.incidents != 0 || e.op != 0 {
		n.extras = append(n.extras, e)
		r.extra = int32(len(n.extras))
	}
	n.rows = append(n.rows, r)
}

// list sums the rows into the networks' list, most requests first, and
// lets go of them.
func (n *networkTally) list() NetworkList {
	n.sortRows()
	count := 0
	for i, r := range n.rows {
		if i == 0 || r.net != n.rows[i-1].net {
			count++
		}
	}
	l := NetworkList{sums: make([]networkSum, 0, count), ops: n.ops}
	for i := 0; i < len(n.rows); {
		var s NetworkSummary
		j, op := n.sum(i, &s)
		sum := networkSum{name: keyOf(n.rows[i].net), requests: s.Requests, clients: uint32(s.Clients), robots: uint32(s.Robots), agents: uint32(s.UserAgents)}
		if s.Violations != 0 || s.Incidents != 0 || op != 0 {
			l.extras = append(l.extras, networkExtra{violations: s.Violations, incidents: int32(s.Incidents), op: op})
			sum.extra = uint32(len(l.extras))
		}
		l.sums = append(l.sums, sum)
		i = j
	}
	n.rows, n.extras = nil, nil
	l.sort()
	return l
}

// sortRows puts the rows in order of network and User-agent, once. They
// are sorted by network (sortByNetwork), then each network's few by
// User-agent: most networks of a high-churn log have one row, and
// comparing the pair (both halves, cmp.Or's arguments) was a fifth of
// listing them (cachegrind).
// Rows of one network and User-agent may come in any order: sum adds them
// up alike.
func (n *networkTally) sortRows() {
	if n.sorted {
		return
	}
	rows := n.rows
	sortByNetwork(rows)
	for i := 0; i < len(rows); {
		j := i + 1
		for j < len(rows) && rows[j].net == rows[i].net {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(rows[i:j], func(a, b networkRow) int { return cmp.Compare(a.ua, b.ua) })
		}
		i = j
	}
	n.sorted = true
}

// sortByNetwork puts rows in order of network, those of one network in
// any order. It is a radix sort in place (American flag sort) on the
// bytes in which the networks differ, most significant first: a /24's
// key varies in three, and pdqsort's partitions of the rows, a
// comparison each, were most of listing a churn log's networks
// (cachegrind).
func sortByNetwork(rows []networkRow) {
	var diff uint64 // the bits in which some network differs from the first
	for i := range rows {
		diff |= rows[i].net ^ rows[0].net
	}
	if diff == 0 {
		return
	}
	var buckets []byte // each row's byte being sorted on (radix.Permute)
	if len(rows) >= radixSmall {
		buckets = make([]byte, len(rows))
	}
	radixByNetwork(rows, buckets, (63-bits.LeadingZeros64(diff))/8, diff)
}

// radixSmall is the length under which radixByNetwork sorts by insertion.
const radixSmall = 24

// radixByNetwork sorts rows, which agree on the networks' bytes above
// byte b (0: the least significant), by the bytes from b down that diff
// has bits in; buckets is scratch as long as rows.
func radixByNetwork(rows []networkRow, buckets []byte, b int, diff uint64) {
	for b >= 0 && byte(diff>>(8*b)) == 0 {
		b--
	}
	if b < 0 || len(rows) < 2 {
		return
	}
	if len(rows) < radixSmall {
		for i := 1; i < len(rows); i++ {
			for j := i; j > 0 && rows[j].net < rows[j-1].net; j-- {
				rows[j], rows[j-1] = rows[j-1], rows[j]
			}
		}
		return
	}
	shift := uint(8 * b)
	buckets = buckets[:len(rows)]
	for i := range rows {
		buckets[i] = byte(rows[i].net >> shift)
	}
	var end [256]int
	radix.Permute(rows, buckets, &end)
	for lo, hi := range radix.Runs(&end) {
		radixByNetwork(rows[lo:hi], buckets[lo:hi], b-1, diff)
	}
}

// sum adds up into s the rows of the network whose first row is at i, in
// rows sorted by network, and returns where the next network starts and
// its operator (1 + index in ops; 0 for none).
func (n *networkTally) sum(i int, s *NetworkSummary) (int, uint32) {
	rows, first := n.rows, n.rows[i]
	opAt, op := int32(math.MaxInt32), uint32(0)
	j := i
	for ; j < len(rows) && rows[j].net == first.net; j++ {
		x := &rows[j]
		s.Clients++
		s.Requests += x.requests
		if x.robot {
			s.Robots++
		}
		if x.extra > 0 {
			e := &n.extras[x.extra-1]
			s.Violations += e.violations
			s.Incidents += int(e.incidents)
			if e.op > 0 && e.order < opAt {
				s.Operator, opAt, op = n.ops[e.op-1], e.order, e.op
			}
		}
		if (j == i || x.ua != rows[j-1].ua) && s.UserAgents < maxNetworkAgents {
			s.UserAgents++
		}
	}
	return j, op
}

// newNetworkTally is a tally with room for the given number of clients.
func newNetworkTally(clients int) *networkTally {
	return &networkTally{rows: make([]networkRow, 0, clients)}
}
