package findings

import (
	"fmt"
	"net/netip"
	"testing"
)

// TestFoldedNetworks: the networks of folded clients, as Offenders
// aggregates them; IPv4 and IPv6 never meet; past maxFoldedNetworks every
// network counts, which only ever lists less.
func TestFoldedNetworks(t *testing.T) {
	var f FoldedNetworks
	for _, ip := range []string{"198.51.100.7", "::ffff:192.0.2.1", "2001:db8:1::5", "crawl.example.org", "fe80::1%eth0"} {
		f.Add(ip)
	}
	tests := []struct {
		addr string
		has  bool
	}{
		{"198.51.100.0", true},
		{"198.51.100.255", true},
		{"198.51.101.0", false},
		{"192.0.2.0", true},
		{"::ffff:198.51.100.0", true},
		{"2001:db8:1::", true},
		{"2001:db8:1:ffff::1", true},
		{"2001:db8:2::", false},
		{"fe80::", true},
		{"0.0.0.0", false},
		{"::", false},
		{"::c633:6400", false}, // 198.51.100.0's bits, as an IPv6 address
	}
	check := func(f *FoldedNetworks, tag string) {
		for _, tt := range tests {
			if got := f.has(netip.MustParseAddr(tt.addr)); got != tt.has {
				t.Errorf("%s: has(%s) = %v, want %v", tag, tt.addr, got, tt.has)
			}
		}
	}
	check(&f, "added")
	var u FoldedNetworks
	u.Union(&f)
	u.Union(nil)
	check(&u, "union")

	var full FoldedNetworks
	for i := range maxFoldedNetworks + 1 {
		if i < 1<<16 {
			full.Add(fmt.Sprintf("10.%d.%d.1", i>>8, i&0xff))
		} else {
			full.Add(fmt.Sprintf("2001:db8:%x::1", i-1<<16))
		}
	}
	if !full.all || full.nets != nil || !full.has(netip.MustParseAddr("203.0.113.1")) {
		t.Errorf("past %d networks: all %v, %d held", maxFoldedNetworks, full.all, len(full.nets))
	}
	u.Union(&full)
	if !u.all {
		t.Error("a union with a set past its bound is not all networks")
	}
}
