package agents

import (
	"math/rand/v2"
	"net/netip"
	"testing"
)

// TestCDN: addresses in Cloudflare's and Fastly's published edge ranges
// (the embedded copies) are named, IPv4-mapped ones too; a crawler's, a
// private and a documentation address are no CDN's.
func TestCDN(t *testing.T) {
	tests := []struct{ addr, want string }{
		{"172.70.42.7", "Cloudflare"}, // 172.64.0.0/13
		{"162.158.1.1", "Cloudflare"}, // 162.158.0.0/15
		{"::ffff:141.101.64.9", "Cloudflare"},
		{"2606:4700:10::6816:1", "Cloudflare"},
		{"151.101.1.69", "Fastly"}, // 151.101.0.0/16
		{"2a04:4e42::1", "Fastly"},
		{"66.249.66.1", ""}, // Googlebot
		{"10.0.0.1", ""},
		{"203.0.113.9", ""},
	}
	for _, tt := range tests {
		if got := CDN(netip.MustParseAddr(tt.addr)); got != tt.want {
			t.Errorf("CDN(%s) = %q, want %q", tt.addr, got, tt.want)
		}
	}
	if n := len(cdnRanges()); n < 30 {
		t.Errorf("%d edge ranges read from the embedded files, want the 22 of Cloudflare and 21 of Fastly", n)
	}
}

// TestCDNFirstByteSkipsNothing: the first-byte test answers what trying
// every range answers, at both ends of every range, just outside them and
// on random addresses of both families.
func TestCDNFirstByteSkipsNothing(t *testing.T) {
	var addrs []netip.Addr
	for _, r := range cdnRanges() {
		first := r.prefix.Addr()
		bytes := first.AsSlice()
		for i := r.prefix.Bits(); i < first.BitLen(); i++ {
			bytes[i/8] |= 0x80 >> (i % 8)
		}
		last, _ := netip.AddrFromSlice(bytes)
		addrs = append(addrs, first, last, first.Prev(), last.Next())
	}
	rng := rand.New(rand.NewPCG(35, 35))
	for range 20000 {
		var b4 [4]byte
		var b16 [16]byte
		for i := range b4 {
			b4[i] = byte(rng.Uint32())
		}
		for i := range b16 {
			b16[i] = byte(rng.Uint32())
		}
		addrs = append(addrs, netip.AddrFrom4(b4), netip.AddrFrom16(b16), netip.AddrFrom16(netip.AddrFrom4(b4).As16()))
	}
	addrs = append(addrs, netip.Addr{})
	for _, a := range addrs {
		if got, want := CDN(a), cdnScan(a.Unmap()); got != want {
			t.Errorf("CDN(%v) = %q, every range tried: %q", a, got, want)
		}
	}
}

// BenchmarkCDN is the question asked of every new address of a log.
func BenchmarkCDN(b *testing.B) {
	addrs := make([]netip.Addr, 1024)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range addrs {
		addrs[i] = netip.AddrFrom4([4]byte{byte(rng.Uint32()), byte(rng.Uint32()), byte(rng.Uint32()), byte(rng.Uint32())})
	}
	i := 0
	for b.Loop() {
		CDN(addrs[i%len(addrs)])
		i++
	}
}
