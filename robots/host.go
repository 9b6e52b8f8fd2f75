package robots

import (
	"net/netip"
	"strings"
)

// HostKey returns virtual host h in the form hosts are compared in: without
// its port and its trailing dot, in lower case, and an IPv6 address without
// brackets, in RFC 5952 form.
//
// One host reaches a log written many ways: a Host header
// "[2001:DB8::1]:8080", an absolute URL's host "2001:db8::1" (logparse
// takes its brackets off), a --robots "[2001:db8:0:0:0:0:0:1]=FILE". A
// name's trailing dot makes it fully qualified, and nginx and Apache serve
// "www.example.com." as www.example.com; a client that writes its Host so
// must not escape that site's robots.txt. One dot only: nginx answers a
// name ending in two with 400, and it names no site.
func HostKey(h string) string {
	h = stripPort(h)
	if b, ok := strings.CutPrefix(h, "["); ok {
		if a, ok := strings.CutSuffix(b, "]"); ok {
			h = a
		}
	}
	if strings.IndexByte(h, ':') >= 0 {
		if a, err := netip.ParseAddr(h); err == nil && a.Is6() {
			return a.String()
		}
	}
	if len(h) > 1 && h[len(h)-1] == '.' {
		h = h[:len(h)-1]
	}
	return strings.ToLower(h)
}

// stripPort cuts ":443" off "example.com:443" and "[2001:db8::1]:443" (and
// keeps "[::1]" and a bare "::1" whole).
func stripPort(h string) string {
	i := strings.LastIndexByte(h, ':')
	if i < 0 || strings.IndexByte(h[i:], ']') >= 0 {
		return h
	}
	if strings.HasPrefix(h, "[") && i > 0 && h[i-1] == ']' {
		return h[:i]
	}
	if strings.Count(h, ":") > 1 { // a bare IPv6 address
		return h
	}
	return h[:i]
}
