package cli

import (
	"bufio"
	"fmt"
	"net/netip"
	"os"
	"slices"
	"strings"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/report"

	"github.com/spf13/pflag"
)

// nftHooks are the hooks a drop chain may take: the ones where a packet's
// source address is all there is to know.
var nftHooks = []string{"input", "forward", "prerouting"}

// blockOptions reads the block-list flags. Errors are usage errors naming
// the flag and the value.
func blockOptions(block, allow, allowFiles []string, aggregate bool, aggregateAt int, nftTable, nftHook string) (report.BlockOptions, error) {
	opt := report.BlockOptions{NFTTable: nftTable, NFTHook: nftHook}
	opt.Select = findings.DefaultSelection
	if len(block) > 0 {
		sel, err := findings.ParseSelection(strings.Join(block, ","))
		if err != nil {
			return opt, fmt.Errorf("--block: %v", err)
		}
		opt.Select = sel
	}
	for _, a := range allow {
		p, err := parsePrefix(a)
		if err != nil {
			return opt, fmt.Errorf("--allow %q: %v", a, err)
		}
		opt.Allow = append(opt.Allow, p)
	}
	for _, name := range allowFiles {
		ps, err := readAllowFile(name)
		if err != nil {
			return opt, fmt.Errorf("--allow-file %w", err)
		}
		opt.Allow = append(opt.Allow, ps...)
	}
	if aggregate {
		if aggregateAt < 1 {
			return opt, fmt.Errorf("--aggregate-at %d: want at least 1", aggregateAt)
		}
		opt.Aggregate = aggregateAt
	}
	if !validNFTName(nftTable) {
		return opt, fmt.Errorf("--nft-table %q: want 1 to 64 letters, digits and '_', starting with a letter", nftTable)
	}
	if nftKeywords[nftTable] {
		return opt, fmt.Errorf("--nft-table %q: a word nft reads as a keyword, not a table name; write e.g. %q", nftTable, nftTable+"_robowatch")
	}
	if !slices.Contains(nftHooks, nftHook) {
		return opt, fmt.Errorf("--nft-hook %q: want one of %s", nftHook, strings.Join(nftHooks, ", "))
	}
	return opt, nil
}

// parsePrefix reads an address (a network of one) or a CIDR network.
func parsePrefix(s string) (netip.Prefix, error) {
	s = strings.TrimSpace(s)
	if strings.Contains(s, "/") {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return netip.Prefix{}, fmt.Errorf("not a CIDR network")
		}
		if p.Addr().Is4In6() {
			p = netip.PrefixFrom(p.Addr().Unmap(), max(p.Bits()-96, 0))
		}
		return p.Masked(), nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil || a.Zone() != "" {
		return netip.Prefix{}, fmt.Errorf("not an IP address or a CIDR network")
	}
	a = a.Unmap()
	return netip.PrefixFrom(a, a.BitLen()), nil
}

// readAllowFile reads one address or network a line; blank lines and
// everything after a '#' are skipped. An entry that is neither is an error
// naming the file and line: an allow list with a typo would silently
// protect nothing.
func readAllowFile(name string) ([]netip.Prefix, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []netip.Prefix
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		if text = strings.TrimSpace(text); text == "" {
			continue
		}
		p, err := parsePrefix(text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %q: %v", name, line, text, err)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// nftKeywords are the words nft reads as keywords, not names, where a
// table's name goes (each refused by nft -c in "table inet WORD {}"; nft
// 1.0, from its scanner's strings and its documentation's vocabulary).
// Keywords are lower case: "Log" is a name.
var nftKeywords = map[string]bool{
	"accept": true, "add": true, "ah": true, "and": true, "arp": true, "bridge": true, "cgroup": true,
	"chain": true, "comment": true, "comp": true, "constant": true, "continue": true, "counter": true,
	"cpu": true, "create": true, "ct": true, "day": true, "dccp": true, "define": true,
	"delete": true, "describe": true, "device": true, "devices": true, "dnat": true, "drop": true,
	"dst": true, "dup": true, "dynamic": true, "ecn": true, "element": true, "elements": true,
	"esp": true, "ether": true, "exists": true, "expires": true, "export": true, "exthdr": true,
	"fib": true, "flags": true, "flow": true, "flowtable": true, "flush": true, "frag": true,
	"fwd": true, "goto": true, "handle": true, "hbh": true, "hook": true, "hour": true,
	"ibriport": true, "ibrname": true, "icmp": true, "icmpv6": true, "igmp": true, "iif": true,
	"iifgroup": true, "iifname": true, "iiftype": true, "import": true, "include": true,
	"index": true, "inet": true, "insert": true, "interval": true, "ip": true, "ip6": true,
	"jhash": true, "jump": true, "limit": true, "list": true, "log": true, "map": true, "mark": true,
	"masquerade": true, "meta": true, "meter": true, "mh": true, "missing": true, "monitor": true,
	"netdev": true, "nftrace": true, "not": true, "notrack": true, "numgen": true, "obriport": true,
	"obrname": true, "offload": true, "oif": true, "oifgroup": true, "oifname": true, "oiftype": true,
	"or": true, "osf": true, "pkttype": true, "policy": true, "position": true, "priority": true,
	"queue": true, "quota": true, "random": true, "redirect": true, "reject": true, "rename": true,
	"replace": true, "reset": true, "return": true, "rt": true, "rtclassid": true, "rule": true,
	"ruleset": true, "sctp": true, "secmark": true, "set": true, "size": true, "skgid": true,
	"skuid": true, "snat": true, "srh": true, "symhash": true, "synproxy": true, "table": true,
	"tcp": true, "time": true, "timeout": true, "tproxy": true, "type": true, "typeof": true,
	"udp": true, "udplite": true, "vlan": true, "vmap": true, "xor": true,
}

func validNFTName(s string) bool {
	if len(s) == 0 || len(s) > 64 || !('a' <= s[0] && s[0] <= 'z' || 'A' <= s[0] && s[0] <= 'Z') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// blockFlags say what block lists take and leave out, and the shape of
// the nftables file.
type blockFlags struct {
	block, allow, allowFiles []string
	aggregate                bool
	aggregateAt              int
	nftTable, nftHook        string
}

func (f *blockFlags) flags(fs *pflag.FlagSet) {
	fs.StringSliceVar(&f.block, "block", nil, "block lists take: impostors, violators, scanners, incidents, robots, purpose:P, name:N (default impostors,violators,scanners,incidents)")
	fs.StringArrayVar(&f.allow, "allow", nil, "never put this address or CIDR network in a block list (repeatable)")
	fs.StringArrayVar(&f.allowFiles, "allow-file", nil, "never block the addresses and networks in FILE, one a line, # comments (repeatable)")
	fs.BoolVar(&f.aggregate, "aggregate", false, "block lists name a /24 (IPv4) or /48 (IPv6) instead of its addresses when --aggregate-at of them are selected")
	fs.IntVar(&f.aggregateAt, "aggregate-at", 8, "selected addresses of one network that --aggregate lists as the network")
	fs.StringVar(&f.nftTable, "nft-table", "robowatch", "-o nftables: the name of the table (family inet) the file replaces")
	fs.StringVar(&f.nftHook, "nft-hook", "input", "-o nftables: the hook of its drop chain: input, forward or prerouting")
}

func (f *blockFlags) apply(a *Analyse, _ *pflag.FlagSet) error {
	var err error
	if a.Block, err = blockOptions(f.block, f.allow, f.allowFiles, f.aggregate, f.aggregateAt, f.nftTable, f.nftHook); err != nil {
		return &UsageError{"robowatch", err.Error()}
	}
	return checkCount("aggregate-at", f.aggregateAt)
}
