package detect

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"net/netip"
	"slices"
	"strings"

	"github.com/robowatch/robowatch/findings"
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
	// Each client's address, not the client: a parked one is not
	// unpacked to be read (25 samples of the 179 of this count).
	for r := range clients.places() {
		ip := r.ip()
		h := maphash.String(seedAddresses, ip)
		hashes = append(hashes, h)
		if k, ok := key64(ip); ok {
			pairs = append(pairs, [2]uint64{binary.BigEndian.Uint64(k[1:]), h})
		}
	}
	sortHashes(hashes)
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
		if len(a.paths) <= rotatingMaxPaths && !slices.Contains(a.paths, c.page.pollHash) {
			a.paths = append(a.paths, c.page.pollHash)
		}
		if c.fleeting() {
			a.fleeting++
			a.fleetingRequests += int64(c.requests)
			if a.fleeting == 1 || c.first.sec < a.first {
				a.first = c.first.sec
			}
			a.last = max(a.last, c.lastSec())
		}
		out[key] = a
	}
	var tmp client
	for r := range clients.places() {
		ip := r.ip()
		if _, ok := slices.BinarySearch(many, maphash.String(seedAddresses, ip)); ok {
			tmp = client{}
			note(ip, r.load(&tmp), 1)
		}
		if len(nets) == 0 {
			continue
		}
		if k, ok := key64(ip); ok {
			if n, ok := nets[binary.BigEndian.Uint64(k[1:])]; ok {
				tmp = client{}
				note(string(k[:]), r.load(&tmp), n)
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

// unnamed is the name of a robot found by its behaviour under a browser's
// User-agent: "unnamed (180.76.15.0/24)", its network (the address itself
// when the log holds a host name).
func unnamed(ip string) string {
	var buf [80]byte
	if b, ok := findings.AppendNetwork(append(buf[:0], "unnamed ("...), ip); ok {
		return string(append(b, ')'))
	}
	if i := strings.IndexByte(ip, '.'); i > 0 && strings.IndexByte(ip[i+1:], '.') > 0 {
		// A host name (a Common Log Format log's %h): its domain is the
		// network, "piweba4y.prodigy.com" one of "*.prodigy.com".
		return "unnamed (*" + ip[i:] + ")"
	}
	return "unnamed (" + ip + ")"
}
