package agents

import (
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
