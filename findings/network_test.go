package findings

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestNetworksList: the networks view sums clients by /24 and /48, counts
// distinct User-agents, names the operator of its first verified client in
// the verdicts' order, and lists the most requests first, then by network.
func TestNetworksList(t *testing.T) {
	verified := func(v Verdict, op string) Verdict {
		v.Identity, v.Operator = IdentityVerified, op
		return v
	}
	tests := []struct {
		name     string
		verdicts []Verdict
		want     []string // network operator clients/robots/requests/agents/violations/incidents
	}{
		{"empty", nil, nil},
		{"host names have no network", []Verdict{{IP: "crawl.example.net", UserAgent: "a", Requests: 5}}, nil},
		{"one /24, repeated and distinct agents", []Verdict{
			{IP: "192.0.2.1", UserAgent: "a", Requests: 3, Robot: true, Violations: 2},
			{IP: "192.0.2.200", UserAgent: "a", Requests: 1, Incidents: 1},
			{IP: "192.0.2.9", UserAgent: "b", Requests: 1},
		}, []string{"192.0.2.0/24 - 3/1/5/2/2/1"}},
		{"operator of the first verified client in order", []Verdict{
			{IP: "66.249.66.1", UserAgent: "x", Requests: 9},
			verified(Verdict{IP: "66.249.66.2", UserAgent: "g", Requests: 8}, "Google"),
			verified(Verdict{IP: "66.249.66.3", UserAgent: "h", Requests: 7}, "Other"),
		}, []string{"66.249.66.0/24 Google 3/0/24/3/0/0"}},
		{"most requests first, then by network text; IPv6 by /48; mapped IPv4 is IPv4", []Verdict{
			{IP: "2001:db8:1:2::5", UserAgent: "a", Requests: 2},
			{IP: "2001:db8:1:ffff::9", UserAgent: "a", Requests: 2},
			{IP: "::ffff:10.0.0.7", UserAgent: "a", Requests: 2},
			{IP: "9.0.0.1", UserAgent: "a", Requests: 2},
			{IP: "10.0.0.8", UserAgent: "c", Requests: 2},
		}, []string{"10.0.0.0/24 - 2/0/4/2/0/0", "2001:db8:1::/48 - 2/0/4/1/0/0", "9.0.0.0/24 - 1/0/2/1/0/0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n networkTally
			for i := range tt.verdicts {
				n.Add(&tt.verdicts[i], agentHash(tt.verdicts[i].UserAgent))
			}
			var got []string
			for _, s := range n.list().Summaries() {
				op := s.Operator
				if op == "" {
					op = "-"
				}
				got = append(got, fmt.Sprintf("%s %s %d/%d/%d/%d/%d/%d", s.Network, op, s.Clients, s.Robots, s.Requests, s.UserAgents, s.Violations, s.Incidents))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestNetworkNamesAsString: NetworkList.All writes the networks' names
// into one text with Prefix.AppendTo, At one at a time; each must be what
// NetworkOf(ip).String() says, for IPv4, IPv6 (short and long forms) and
// mapped IPv4.
func TestNetworkNamesAsString(t *testing.T) {
	ips := []string{"0.0.0.1", "255.255.255.255", "1.2.3.4", "::1", "::", "2001:db8::1", "::ffff:192.0.2.1",
		"fe80::1", "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", "1:2:3:4:5:6:7:8", "64:ff9b::10.0.0.1"}
	for i := range 300 {
		ips = append(ips, fmt.Sprintf("%d.%d.%d.%d", i*7%256, i*13%256, i%256, i/2), fmt.Sprintf("2001:%x:%x::%x", i*31, i*17, i))
	}
	var n networkTally
	want := map[string]bool{}
	for _, ip := range ips {
		n.Add(&Verdict{IP: ip, UserAgent: "a", Requests: 1}, agentHash("a"))
		p, ok := NetworkOf(ip)
		if !ok {
			t.Fatalf("%s: no network", ip)
		}
		want[p.String()] = true
	}
	l := n.list()
	got := l.Summaries()
	if len(got) != len(want) {
		t.Fatalf("%d networks, want %d", len(got), len(want))
	}
	for i, s := range got {
		if !want[s.Network] {
			t.Errorf("network %q is no Prefix.String of the addresses", s.Network)
		}
		if at := l.At(i); at != s {
			t.Errorf("At(%d) = %+v, All gave %+v", i, at, s)
		}
	}
}

// TestNetworkListOrder: a pass's list, sorted by its rows' name keys, and
// the merge of parts' lists are in the order of the summaries sorted by
// requests and then by name as strings, with each network's sums: networks
// of a few requests each (most tie), IPv4 and IPv6 of every name length.
func TestNetworkListOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 35))
	var ips []string
	for range 3000 {
		if rng.IntN(3) == 0 {
			g := func() uint32 {
				return []uint32{0, 1, 0xf, 0x10, 0xff, 0x100, 0xfff, 0x1000, 0xffff}[rng.IntN(9)] + uint32(rng.IntN(2))
			}
			ips = append(ips, fmt.Sprintf("%x:%x:%x::%x", g()&0xffff, g()&0xffff, g()&0xffff, rng.IntN(9)))
			continue
		}
		ips = append(ips, fmt.Sprintf("%d.%d.%d.%d", rng.IntN(256), []int{0, 9, 10, 99, 100, 255}[rng.IntN(6)], rng.IntN(256), rng.IntN(256)))
	}
	ops := []string{"", "", "", "A", "B"}
	var one networkTally
	parts := make([]networkTally, 3)
	for i, ip := range ips {
		v := Verdict{IP: ip, UserAgent: fmt.Sprint(rng.IntN(3)), Requests: int64(1 + rng.IntN(3)), Robot: rng.IntN(2) == 0, Violations: int64(rng.IntN(4) / 3)}
		if op := ops[rng.IntN(len(ops))]; op != "" {
			v.Identity, v.Operator = IdentityVerified, op
		}
		one.Add(&v, agentHash(v.UserAgent))
		p, _ := NetworkOf(ip)
		parts[networkKey(p.Addr())%3].Add(&v, agentHash(v.UserAgent))
		ips[i] = p.String()
	}
	want := one.list().Summaries()
	sorted := slices.Clone(want)
	slices.SortFunc(sorted, func(a, b NetworkSummary) int {
		return cmp.Or(cmp.Compare(b.Requests, a.Requests), strings.Compare(a.Network, b.Network))
	})
	if !slices.Equal(want, sorted) {
		t.Errorf("the list is not in the order of requests, then name")
	}
	lists := make([]NetworkList, len(parts))
	for i := range parts {
		lists[i] = parts[i].list()
	}
	if got := mergeDisjointNetworks(lists).Summaries(); !slices.Equal(got, want) {
		t.Errorf("parts merged: %d networks, want the %d of one tally, in its order", len(got), len(want))
	}
}

// TestNetworkNameKeys: a network's key writes its name back
// (textKey.appendName) as Prefix.String writes it, and keys compare as
// names do, for /24s and for /48s of groups of every length and zero
// groups anywhere (their names of 5 to 19 bytes).
func TestNetworkNameKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 5))
	group := func() uint64 {
		return []uint64{0, 0, 1, 0xa, 0x10, 0xab, 0x100, 0xabc, 0x1000, 0xffff}[rng.IntN(10)] + uint64(rng.IntN(3))&0xf
	}
	var nets []uint64
	for range 20_000 {
		if rng.IntN(2) == 0 {
			nets = append(nets, 1<<63|uint64(rng.IntN(1<<24)))
			continue
		}
		nets = append(nets, (group()&0xffff)<<32|(group()&0xffff)<<16|group()&0xffff)
	}
	nets = append(nets, 0, 1<<63, 1<<63|(1<<24-1), 0xffff_ffff_ffff, 0xfff_ffff_ffff, 0xff_ffff_ffff, 0xf_ffff_ffff)
	for i, n := range nets {
		want := networkOfKey(n).String()
		k := keyOf(n)
		if got := string(k.appendName(nil)); got != want {
			t.Fatalf("%#x: name %q from its key, want %q", n, got, want)
		}
		if i == 0 {
			continue
		}
		o := nets[i-1]
		if got, want := k.compare(keyOf(o)), strings.Compare(want, networkOfKey(o).String()); got != want {
			t.Fatalf("%s against %s: keys compare %d, names %d", networkOfKey(n), networkOfKey(o), got, want)
		}
	}
}

// networkKeySlow is networkKeyOf without its IPv4 fast path.
func networkKeySlow(ip string) (uint64, bool) {
	p, ok := NetworkOf(ip)
	if !ok {
		return 0, false
	}
	return networkKey(p.Addr()), true
}

// TestNetworkKeyOfAsNetworkOf: reading an IPv4 address's /24 from its
// text gives the key NetworkOf's prefix does, and no key where NetworkOf
// finds none.
func TestNetworkKeyOfAsNetworkOf(t *testing.T) {
	cases := []string{"", ".", "1.2.3.4", "0.0.0.0", "255.255.255.255", "256.1.1.1", "1.2.3.256", "01.2.3.4",
		"1.2.3.04", "1.2.3.0", "1.2.3", "1.2.3.4.5", "1..3.4", ".1.2.3", "1.2.3.", "1.2.3.4 ", " 1.2.3.4", "1.2.3.4a",
		"1000.2.3.4", "00.1.2.3", "::ffff:1.2.3.4", "2001:db8::1", "fe80::1%eth0", "host.example", "1.2.3.-4", "1.2.3.4/24"}
	rng := rand.New(rand.NewPCG(5, 6))
	const alphabet = "0123456789.:af%"
	for range 20000 {
		b := make([]byte, 1+rng.IntN(16))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		cases = append(cases, string(b), fmt.Sprintf("%d.%d.%d.%d", rng.IntN(300), rng.IntN(300), rng.IntN(300), rng.IntN(300)))
	}
	for _, ip := range cases {
		k, ok := networkKeyOf(ip)
		wk, wok := networkKeySlow(ip)
		if k != wk || ok != wok {
			t.Fatalf("networkKeyOf(%q) = %x, %v; NetworkOf gives %x, %v", ip, k, ok, wk, wok)
		}
		checkAppendNetwork(t, ip)
	}
}

// checkAppendNetwork fails t unless AppendNetwork writes ip's network as
// NetworkOf's String does, after what dst held.
func checkAppendNetwork(t *testing.T, ip string) {
	t.Helper()
	b, ok := AppendNetwork([]byte("x"), ip)
	p, wok := NetworkOf(ip)
	want := "x"
	if wok {
		want += p.String()
	}
	if string(b) != want || ok != wok {
		t.Fatalf("AppendNetwork(%q) = %q, %v; NetworkOf gives %q, %v", ip, b, ok, want, wok)
	}
}

// FuzzNetworkKeyOf: as TestNetworkKeyOfAsNetworkOf, on any text.
func FuzzNetworkKeyOf(f *testing.F) {
	for _, s := range []string{"1.2.3.4", "01.2.3.4", "::ffff:1.2.3.4", "255.255.255.255"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, ip string) {
		k, ok := networkKeyOf(ip)
		wk, wok := networkKeySlow(ip)
		if k != wk || ok != wok {
			t.Fatalf("networkKeyOf(%q) = %x, %v; NetworkOf gives %x, %v", ip, k, ok, wk, wok)
		}
		checkAppendNetwork(t, ip)
	})
}

// TestSortByNetworkAsSort: the radix sort puts rows in the order of
// their networks as a comparison sort does, and moves rows whole, at
// lengths around its insertion sort's and over keys of /24s, /48s, both
// and few.
func TestSortByNetworkAsSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	keys := []func() uint64{
		func() uint64 { return 1<<63 | rng.Uint64N(1<<24) },                    // /24s
		func() uint64 { return rng.Uint64N(1 << 48) },                          // /48s
		func() uint64 { return rng.Uint64N(2) << 63 >> (rng.Uint64N(2) * 15) }, // either, few
		func() uint64 { return 1<<63 | 203<<16 | rng.Uint64N(3)<<8 | rng.Uint64N(2) },
	}
	for k, key := range keys {
		for _, n := range []int{0, 1, 2, radixSmall - 1, radixSmall, radixSmall + 1, 300, 5000} {
			rows := make([]networkRow, n)
			for i := range rows {
				rows[i] = networkRow{net: key(), ua: rng.Uint64(), requests: int64(i), extra: int32(i)}
			}
			want := slices.Clone(rows)
			sortByNetwork(rows)
			if !slices.IsSortedFunc(rows, func(a, b networkRow) int { return cmp.Compare(a.net, b.net) }) {
				t.Fatalf("keys %d, %d rows: not in order of network", k, n)
			}
			whole := func(a, b networkRow) int { return cmp.Compare(a.requests, b.requests) }
			slices.SortFunc(rows, whole)
			slices.SortFunc(want, whole)
			if !slices.Equal(rows, want) {
				t.Fatalf("keys %d, %d rows: rows changed", k, n)
			}
		}
	}
}

// TestNetworkListSortAsSortFunc: the list's radix sort gives the order a
// comparison sort by sumOrder gives, at lengths around its insertion
// sort's, over /24s, /48s and both, few request counts and many (some
// past a byte, some negative, which no pass makes).
func TestNetworkListSortAsSortFunc(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	nets := []func() uint64{
		func() uint64 { return 1<<63 | rng.Uint64N(1<<24) },
		func() uint64 { return rng.Uint64N(1 << 48) },
		func() uint64 { return rng.Uint64N(2)<<63 | rng.Uint64N(1<<24) },
	}
	requests := []func() int64{
		func() int64 { return 1 + rng.Int64N(3) },
		func() int64 { return rng.Int64N(100_000) },
		func() int64 { return rng.Int64() - rng.Int64() },
	}
	for k, net := range nets {
		for q, req := range requests {
			for _, n := range []int{0, 1, 2, radixSmall - 1, radixSmall, radixSmall + 1, 300, 5000} {
				seen := map[uint64]bool{}
				l := NetworkList{}
				for len(l.sums) < n {
					if k := net(); !seen[k] {
						seen[k] = true
						l.sums = append(l.sums, networkSum{name: keyOf(k), requests: req(), clients: uint32(len(l.sums))})
					}
				}
				want := slices.Clone(l.sums)
				slices.SortFunc(want, func(a, b networkSum) int { return sumOrder(&a, &b) })
				l.sort()
				if !slices.Equal(l.sums, want) {
					t.Fatalf("networks %d, requests %d, %d sums: not sumOrder's order", k, q, n)
				}
			}
		}
	}
}
