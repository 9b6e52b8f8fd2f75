package findings

import (
	"encoding/binary"
	"net/netip"
)

// maxFoldedNetworks bounds the networks whose folds are known one by one:
// a flood of addresses from everywhere would otherwise grow the set as
// --max-clients keeps the clients from growing. Past it every network
// counts as holding a folded client, which only ever lists less.
const maxFoldedNetworks = 100_000

// FoldedNetworks are the networks (a /24, a /48: what a block list
// aggregates) that a client was folded into Other from, by --max-clients
// or detect.Config.Expire. Such a client is known no more one by one: it
// may have been a person, so its network is never listed whole.
type FoldedNetworks struct {
	nets map[uint64]struct{}
	all  bool // past maxFoldedNetworks: every network counts
}

// networkKey is the network of a (unmapped) as a number: an IPv4 /24 with
// the top bit set, an IPv6 /48 in the low 48 bits, so the two never meet.
func networkKey(a netip.Addr) uint64 {
	if a.Is4() {
		b := a.As4()
		return 1<<63 | uint64(b[0])<<16 | uint64(b[1])<<8 | uint64(b[2])
	}
	b := a.As16()
	return binary.BigEndian.Uint64(b[:8]) >> 16
}

// Add notes the network of a folded client; a host name is in no block
// list, and adds nothing.
func (f *FoldedNetworks) Add(ip string) {
	if f.all {
		return
	}
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return
	}
	if f.nets == nil {
		f.nets = make(map[uint64]struct{})
	}
	f.nets[networkKey(a.Unmap())] = struct{}{}
	if len(f.nets) > maxFoldedNetworks {
		f.nets, f.all = nil, true
	}
}

// Union adds g's networks to f.
func (f *FoldedNetworks) Union(g *FoldedNetworks) {
	if g == nil || f.all {
		return
	}
	if g.all {
		f.nets, f.all = nil, true
		return
	}
	for k := range g.nets {
		if f.nets == nil {
			f.nets = make(map[uint64]struct{}, len(g.nets))
		}
		f.nets[k] = struct{}{}
	}
	if len(f.nets) > maxFoldedNetworks {
		f.nets, f.all = nil, true
	}
}

// has reports whether a client of the network of a was folded.
func (f *FoldedNetworks) has(a netip.Addr) bool {
	if f.all {
		return true
	}
	_, ok := f.nets[networkKey(a.Unmap())]
	return ok
}
