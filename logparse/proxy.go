package logparse

import (
	"iter"
	"net/netip"
	"strings"
)

// Proxies are the addresses of the proxies, load balancers and CDN edges in
// front of a server (--trust-proxy). Behind them the address a log records
// is the proxy's; the client is in X-Forwarded-For, which each proxy
// appends the address it saw to. Anyone can send the header, so only the
// entries added by trusted proxies can be believed: the client is the
// right-most address that is not a trusted proxy, the rule nginx's
// real_ip_recursive follows.
type Proxies []netip.Prefix

// Trusts reports whether addr is one of the proxies.
func (p Proxies) Trusts(addr string) bool {
	a, err := netip.ParseAddr(strings.TrimSpace(addr))
	if err != nil {
		return false
	}
	a = a.Unmap()
	for _, n := range p {
		if n.Contains(a) {
			return true
		}
	}
	return false
}

// Resolve replaces rec.Client with the client X-Forwarded-For names when
// the connection came from a trusted proxy. A record from anyone else keeps
// its address: its header is the client's own word.
func (p Proxies) Resolve(rec *Record) {
	if len(p) == 0 || rec.Forwarded() == "" || !p.Trusts(rec.Client) {
		return
	}
	for addr := range hops(rec.Forwarded()) {
		rec.Client = addr
		if !p.Trusts(addr) {
			return
		}
	}
}

// hops yields the entries of an X-Forwarded-For list, the right-most
// first, as addresses written canonically and parsed. Empty and "unknown"
// entries are skipped; the first entry that is no address ends the list:
// garbage where an address should be, past which nothing can be believed.
func hops(list string) iter.Seq2[string, netip.Addr] {
	return func(yield func(string, netip.Addr) bool) {
		for list != "" {
			i := strings.LastIndexByte(list, ',')
			hop := strings.TrimSpace(list[i+1:])
			list = list[:max(i, 0)]
			if hop == "" || hop == "unknown" {
				continue
			}
			addr, a, ok := hopAddress(hop)
			if !ok || !yield(addr, a) {
				return
			}
		}
	}
}

// hopAddress returns the address one X-Forwarded-For entry names, without
// the port some proxies add ("198.51.100.7:4431", "[2001:db8::1]:443"),
// written canonically and parsed; ok is false for anything that is no
// address ("unknown", "", garbage).
func hopAddress(entry string) (addr string, a netip.Addr, ok bool) {
	h := hostOfHostPort(strings.TrimSpace(entry))
	a, err := netip.ParseAddr(h)
	if err != nil {
		return "", netip.Addr{}, false
	}
	return canonicalAddr(h, a), a, true
}

// publicHop is the client an X-Forwarded-For list names when the log has
// no other: the right-most entry that is no internal address (those are
// the site's own proxies: the entry before them is who came in from
// outside), else the right-most entry. Entries further left are the
// client's own word. ok is false when the right-most entry is no address.
func publicHop(list string) (client string, ok bool) {
	last, _, ok := hopAddress(list[strings.LastIndexByte(list, ',')+1:])
	if !ok {
		return "", false
	}
	for addr, a := range hops(list) {
		if !InternalAddress(a) {
			return addr, true
		}
	}
	return last, true
}

// InternalAddress reports the addresses no request from the internet
// comes from: the host's own, private and link-local ones, RFC 6598's
// shared space 100.64.0.0/10 (a carrier's NAT, a cloud's balancer: never
// routed on the internet, as RFC 1918's ranges are not), and those no
// host has (multicast, broadcast, IPv4's reserved 240/4 and "this
// network" 0/8). In an X-Forwarded-For list they are the site's own
// proxies; in a block list they would deny the server itself, its
// balancer, or what a forged log line holds (nginx refuses a broadcast
// address in a deny rule); most requests from them mean a proxy in
// front of the server. Every such decision asks here.
func InternalAddress(a netip.Addr) bool {
	a = a.Unmap()
	if a.Is4() {
		b := a.As4()
		if b[0] >= 240 || b[0] == 0 || b[0] == 100 && b[1]&0xc0 == 64 {
			return true
		}
	}
	return a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsUnspecified() ||
		a.IsMulticast() || a.IsLinkLocalMulticast() || a.IsInterfaceLocalMulticast()
}
