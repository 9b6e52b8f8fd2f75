package findings

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Shard is one part of a log split N ways by client network, for --shard
// I/N: N runs, each reading the whole log (or its share of the files),
// keep disjoint sets of clients, and `robowatch merge` makes one report of
// theirs. The zero value keeps everything.
//
// The key is the client's network (its /24, or /48 for IPv6; the address
// itself for a host name), not the address: the verdicts look at what the
// clients of an address and of a network did together (a scraper rotating
// its User-agent, a robot known by its network), and those views must see
// all of their requests in one run. Every request of an address lands in
// one shard, since an address is in one network. A /24 that carries most of
// a log's traffic makes its shard the slow one.
type Shard struct {
	I, N int // this is shard I (1-based) of N; N == 0: no sharding
}

// ParseShard reads "I/N" (1 ≤ I ≤ N ≤ 65536).
func ParseShard(s string) (Shard, error) {
	i, n, ok := strings.Cut(s, "/")
	si, err1 := strconv.Atoi(i)
	sn, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || sn < 1 || sn > 1<<16 || si < 1 || si > sn {
		return Shard{}, fmt.Errorf("%q is not I/N with 1 ≤ I ≤ N ≤ 65536 (e.g. 2/8)", s)
	}
	return Shard{si, sn}, nil
}

// String is "I/N", or "" for no sharding.
func (s Shard) String() string {
	if s.N == 0 {
		return ""
	}
	return strconv.Itoa(s.I) + "/" + strconv.Itoa(s.N)
}

// Owns reports whether the records of client address addr are this shard's.
func (s Shard) Owns(addr string) bool {
	if s.N <= 1 {
		return true
	}
	return shardOf(addr, s.N) == s.I
}

// OwnsLine reports whether a line that is no record (a malformed line, a
// W3C directive) is counted by this shard: line k of each input goes to
// shard (k-1) mod N + 1, so that every line is counted exactly once.
func (s Shard) OwnsLine(line int64) bool {
	if s.N <= 1 {
		return true
	}
	return (line-1)%int64(s.N)+1 == int64(s.I) || line < 1 && s.I == 1
}

// shardOf is the shard (1 to n) of client address addr: FNV-1a (64 bits)
// of its network's text ("192.0.2.0/24", "2001:db8:1::/48", or the
// address itself when it is no IP address), modulo n, plus 1. A tool
// that partitions a log itself (Spark, Hadoop) can key by the same.
func shardOf(addr string, n int) int {
	h := fnv.New64a()
	h.Write([]byte(shardKey(addr)))
	return int(h.Sum64()%uint64(n)) + 1
}

// shardKey is the text of addr's network, as networks[] writes it.
func shardKey(addr string) string {
	if p, ok := NetworkOf(addr); ok {
		return p.String()
	}
	return addr
}
