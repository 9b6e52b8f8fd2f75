package detect

import (
	"cmp"
	"hash/maphash"
	"math/bits"

	"github.com/robowatch/robowatch/robots"
)

// Add works out a dozen things from a request's path alone: its kind
// (classify), its hash (pathHash), its fingerprint bit, its probe, its
// page view's hash, its panel id. A site's requests go to few paths (the
// generated million-line log: 1,581 distinct in 400,000 lines, 99% of
// them to 1,384), so a pathMemo keeps those answers for the paths seen
// lately and Add reads them instead. The answers are pure functions of
// the path (the panel id is the panels' interning, which never forgets
// a path), so a memo that missed every time would change nothing but the
// time.
//
// It is four-way set-associative: a path has a set of four slots, by a
// hash of it, and takes the one its set used longest ago (nearly: a
// pseudo-LRU tree) from whatever path held it. On the generated log 97.6%
// of a worker's lookups find their path, against 95% two-way, 89% in as
// many slots direct-mapped and 83% in half as many; a churn
// log's 60% are its few common paths whatever the size. A miss costs the
// answers it would have cost anyway plus a copy of the path into the
// slot: nothing is allocated.

const (
	pathMemoBits = 9  // a Detector's memo: 512 sets of four slots, 192 kB
	pathMemoText = 55 // the longest path kept; longer ones (query strings, mostly) are worked out each time
)

// pathFacts are the answers about one path. res, fp and ph are filled in
// when the facts are made; the others when first asked for (known).
type pathFacts struct {
	// The last answer of a robots.txt matcher: m.Allowed(path) was
	// (allowed, rule). Most clients of a site share one matcher (the "*"
	// group), and Allowed is a fifth of Add's work when it runs for each.
	m    *robots.Matcher
	rule *robots.Rule

	ph      uint64 // pathHash
	vh      uint32 // viewHash32
	panel   uint32 // its panels.id + 1; 0: not interned yet (the table was full, or no panel asked)
	res     resource
	fp      uint8 // fingerprintOf
	pr      probe // probeOf
	known   uint8 // knowVH, knowProbe, knowAccount, isAccount
	allowed bool
}

const (
	knowVH = 1 << iota
	knowProbe
	knowAccount
	isAccount // accountPage's answer, once knowAccount
)

// pathSlot is one path's place in a pathMemo: the path's bytes and its
// facts (96 bytes). The facts come first, so that a short path's bytes
// share a cache line with its facts, which Add reads next (cachegrind on
// gen400k.log: Add's first-level misses 580,000 -> 517,000).
type pathSlot struct {
	facts pathFacts
	n     uint8 // the path's length; 0: empty
	text  [pathMemoText]byte
}

// pathSet is the slots a path may take.
type pathSet struct {
	ways [pathWays]pathSlot
}

// pathWays is the slots of a pathSet. Four ways of 512 sets hold what
// two of 1,024 did (192 kB) but lose fewer paths to their set's others:
// on the generated million-line log (1,582 paths, all short) a worker's
// memo missed 4.8% of its lookups with two ways and 2.7% with four, a
// parser's (128 sets) 20.3% and 18.2%, and each miss works out the facts
// again (classify, and later the view hash and the robots.txt rule).
const pathWays = 4

// pathMemo is a Detector's (or a Pool's) memo of pathFacts.
type pathMemo struct {
	bits uint8 // 1<<bits sets; 0: pathMemoBits
	seed maphash.Seed
	sets []pathSet
	// meta is each set's ways' tags and its order of use, apart from
	// the sets (a set is six cache lines): byte 1+w way w's tag, a byte of
	// its path's hash | 1 (0: empty), so that a lookup reads the slots of
	// the ways whose tag is the path's only; the low three bits a tree of
	// which ways were used longest ago (pathLRU).
	meta []uint64
	// spare holds the facts of a path too long for a slot, afresh for
	// each: its answers are worked out each time.
	spare pathFacts
}

// of returns the facts of path, an origin-form target (query included).
// They stay valid until the next call.
func (m *pathMemo) of(path string) *pathFacts {
	if len(path) == 0 || len(path) > pathMemoText {
		m.spare = newPathFacts(path)
		return &m.spare
	}
	if m.sets == nil {
		m.seed = maphash.MakeSeed()
		n := 1 << cmp.Or(m.bits, pathMemoBits)
		m.sets, m.meta = make([]pathSet, n), make([]uint64, n)
	}
	h := maphash.String(m.seed, path)
	i, tag := h&uint64(len(m.sets)-1), h>>56|1
	set, meta := &m.sets[i], &m.meta[i]
	md := *meta
	// The ways whose tag byte is tag: the high bit of each byte of x
	// that is zero (and perhaps of one above it, which the comparison
	// turns away).
	x := uint32(md>>8) ^ uint32(tag)*0x01010101
	for found := (x - 0x01010101) &^ x & 0x80808080; found != 0; found &= found - 1 {
		w := uint64(bits.TrailingZeros32(found) / 8)
		if s := &set.ways[w]; int(s.n) == len(path) && string(s.text[:len(path)]) == path {
			*meta = pathUsed(md, w)
			return &s.facts
		}
	}
	w := pathLRU(md)
	*meta = pathUsed(md&^(0xFF<<(8+8*w))|tag<<(8+8*w), w)
	s := &set.ways[w]
	s.n = uint8(copy(s.text[:], path))
	s.facts = newPathFacts(path)
	return &s.facts
}

// pathLRU is the way of a set to take a new path, by the low three bits
// of its meta (a pseudo-LRU tree): bit 0 the pair of ways used longer
// ago (0: ways 0 and 1), bit 1 the one of ways 0 and 1, bit 2 of 2 and 3.
func pathLRU(md uint64) uint64 {
	if md&1 == 0 {
		return md >> 1 & 1
	}
	return 2 + md>>2&1
}

// pathUsed returns meta md with way w used last: the tree's bits on w's
// path point away from it.
func pathUsed(md, w uint64) uint64 {
	if w < 2 {
		return md&^3 | 1 | (w^1)<<1
	}
	return md&^5 | (w^3)<<2
}

// newPathFacts works out the facts of path that every request needs.
func newPathFacts(path string) pathFacts {
	return pathFacts{ph: pathHash(path), res: classify(path), fp: fingerprintOf(path)}
}

// ph32 is pathHash32 of the path.
func (f *pathFacts) ph32() uint32 { return uint32(f.ph ^ f.ph>>32) }

// viewHash is viewHash32 of path, whose facts f are.
func (f *pathFacts) viewHash(path string) uint32 {
	if f.known&knowVH == 0 {
		f.vh, f.known = viewHash32(path), f.known|knowVH
	}
	return f.vh
}

// probe is probeOf(path), whose facts f are.
func (f *pathFacts) probe(path string) probe {
	if f.known&knowProbe == 0 {
		f.pr, f.known = probeOf(path), f.known|knowProbe
	}
	return f.pr
}

// account is accountPage(path), whose facts f are.
func (f *pathFacts) account(path string) bool {
	if f.known&knowAccount == 0 {
		f.known |= knowAccount
		if accountPage(path) {
			f.known |= isAccount
		}
	}
	return f.known&isAccount != 0
}

// allowedBy is m.Allowed(path), f being path's facts. A matcher
// never changes once made, and f keeps it from being freed and its
// address taken by another.
func (f *pathFacts) allowedBy(m *robots.Matcher, path string) (bool, *robots.Rule) {
	if f.m != m || m == nil {
		f.allowed, f.rule = m.Allowed(path)
		f.m = m
	}
	return f.allowed, f.rule
}
