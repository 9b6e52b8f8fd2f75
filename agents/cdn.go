package agents

import (
	_ "embed"
	"encoding/json"
	"net/netip"
	"sync"
)

// The edge ranges of the CDNs in cdn/ (see cdn/NOTICE.md): Cloudflare's is
// a JSON array of CIDR blocks, Fastly's an object of two such arrays.
var (
	//go:embed cdn/cloudflare.json
	cloudflareRanges []byte
	//go:embed cdn/fastly.json
	fastlyRanges []byte
)

type cdnRange struct {
	name   string
	prefix netip.Prefix
}

// cdnRanges are the embedded edge ranges, read once.
var cdnRanges = sync.OnceValue(func() []cdnRange {
	var out []cdnRange
	add := func(name string, blocks []string) {
		for _, b := range blocks {
			if p, err := netip.ParsePrefix(b); err == nil {
				out = append(out, cdnRange{name, p.Masked()})
			}
		}
	}
	var cf []string
	if json.Unmarshal(cloudflareRanges, &cf) == nil {
		add("Cloudflare", cf)
	}
	var fastly struct {
		V4 []string `json:"addresses"`
		V6 []string `json:"ipv6_addresses"`
	}
	if json.Unmarshal(fastlyRanges, &fastly) == nil {
		add("Fastly", fastly.V4)
		add("Fastly", fastly.V6)
	}
	return out
})

// CDN returns the content delivery network whose published edge ranges
// hold addr ("Cloudflare", "Fastly"), "" if none does. A request from one
// is a visitor's that the CDN forwarded: a log that names the edge has no
// visitor's address for it, and a block list that denied the edge would
// deny everyone it carries.
func CDN(addr netip.Addr) string {
	addr = addr.Unmap()
	if addr.IsValid() && !cdnFirstBytes()[addr.BitLen()/128][addr.As16()[cdnFirstAt(addr)]] {
		// Every new address of a log is asked: most are ruled out by
		// their first byte, not tried against each of some forty ranges.
		return ""
	}
	return cdnScan(addr)
}

// cdnScan is CDN by trying every range.
func cdnScan(addr netip.Addr) string {
	for _, r := range cdnRanges() {
		if r.prefix.Contains(addr) {
			return r.name
		}
	}
	return ""
}

// cdnFirstBytes holds, for IPv4 ([0]) and IPv6 ([1]), the first bytes of
// the addresses some edge range holds.
var cdnFirstBytes = sync.OnceValue(func() *[2][256]bool {
	t := new([2][256]bool)
	for _, r := range cdnRanges() {
		a := r.prefix.Addr()
		first := a.As16()[cdnFirstAt(a)]
		last := first
		if bits := r.prefix.Bits(); bits < 8 {
			last = first | byte(0xff>>bits)
		}
		for b := int(first); b <= int(last); b++ {
			t[a.BitLen()/128][b] = true
		}
	}
	return t
})

// cdnFirstAt is where the first byte of addr (valid) is in its As16 form.
func cdnFirstAt(addr netip.Addr) int {
	if addr.Is4() {
		return 12
	}
	return 0
}
