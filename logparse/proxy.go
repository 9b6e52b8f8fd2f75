package logparse

import (
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
	if len(p) == 0 || rec.Forwarded == "" || !p.Trusts(rec.Client) {
		return
	}
	xff := rec.Forwarded
	for xff != "" {
		i := strings.LastIndexByte(xff, ',')
		hop := strings.TrimSpace(xff[i+1:])
		xff = xff[:max(i, 0)]
		if hop == "" || hop == "unknown" {
			continue
		}
		addr, ok := hopAddress(hop)
		if !ok {
			return // garbage where an address should be: trust nothing further left
		}
		rec.Client = addr
		if !p.Trusts(addr) {
			return
		}
	}
}

// hopAddress returns the address one X-Forwarded-For entry names, without
// the port some proxies add ("198.51.100.7:4431", "[2001:db8::1]:443");
// ok is false for anything that is no address ("unknown", "", garbage).
func hopAddress(entry string) (addr string, ok bool) {
	h := hostOfHostPort(strings.TrimSpace(entry))
	if _, err := netip.ParseAddr(h); err != nil {
		return "", false
	}
	return canonicalClient(h), true
}

// publicHop is the client an X-Forwarded-For list names when the log has
// no other: the right-most entry that is not a private, loopback or
// link-local address (those are the site's own proxies: the entry before
// them is who came in from outside), else last, the right-most entry.
// Entries further left are the client's own word.
func publicHop(list, last string) string {
	if a, err := netip.ParseAddr(last); err == nil && !internalAddr(a) {
		return last
	}
	for rest := list; rest != ""; {
		i := strings.LastIndexByte(rest, ',')
		hop := rest[i+1:]
		rest = rest[:max(i, 0)]
		addr, ok := hopAddress(hop)
		if !ok {
			break // garbage: trust nothing further left
		}
		if a, err := netip.ParseAddr(addr); err == nil && !internalAddr(a) {
			return addr
		}
	}
	return last
}

// internalAddr reports addresses no request from the internet comes from.
func internalAddr(a netip.Addr) bool {
	a = a.Unmap()
	return a.IsPrivate() || a.IsLoopback() || a.IsLinkLocalUnicast() || a.IsUnspecified()
}
