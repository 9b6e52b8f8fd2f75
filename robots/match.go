package robots

import (
	"bytes"
	"math/bits"
	"slices"
	"strings"
	"unsafe"
)

// Byte classes for the canonical form in which patterns and paths are
// compared (RFC 9309 §2.2.2, RFC 3986 §2): unreserved and reserved bytes are
// kept, '%' starts an escape, everything else (non-ASCII, controls, space,
// `"<>\^{|}` and the backquote) is percent-encoded.
const (
	classKeep uint8 = iota
	classEncode
	classPercent
)

var byteClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		t[c] = classEncode
	}
	keep := "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~" + // unreserved
		":/?#[]@!$&'()*+,;=" // reserved
	for i := 0; i < len(keep); i++ {
		t[keep[i]] = classKeep
	}
	t['%'] = classPercent
	return t
}()

const upperHex = "0123456789ABCDEF"

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

// needsCanon reports whether s differs from its canonical form.
func needsCanon(s string) bool {
	for i := 0; i < len(s); i++ {
		if byteClass[s[i]] != classKeep {
			return true
		}
	}
	return false
}

// appendCanon appends the canonical form of s to dst: bytes outside the URI
// character set are percent-encoded; escapes are written with upper-case
// hex, except escapes of unreserved characters, which become the character
// (%7E = ~), and %2A and %24, which become '*' and '$' so that a rule can
// name a literal '*' or '$' (RFC 9309 §2.2.3); a malformed escape is kept
// as it is. Escapes of other reserved characters stay escapes: %2F is not '/'.
func appendCanon(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch byteClass[c] {
		case classKeep:
			dst = append(dst, c)
		case classEncode:
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		case classPercent:
			if i+2 < len(s) {
				hi, ok1 := unhex(s[i+1])
				lo, ok2 := unhex(s[i+2])
				if ok1 && ok2 {
					b := hi<<4 | lo
					if isUnreserved(b) || b == '*' || b == '$' {
						dst = append(dst, b)
					} else {
						dst = append(dst, '%', upperHex[hi], upperHex[lo])
					}
					i += 2
					continue
				}
			}
			dst = append(dst, '%')
		}
	}
	return dst
}

// canonString returns the canonical form of s as a new string.
func canonString(s string) string {
	if !needsCanon(s) {
		return s
	}
	return string(appendCanon(nil, s))
}

// compiledRule is a Rule's pattern, split at its '*'s into literal segments
// in canonical form.
type compiledRule struct {
	prio  int32    // 2 * pattern length (+1 for Allow): the higher wins
	first string   // must match at the start of the path (the radix-tree key)
	segs  []string // after each '*': found leftmost in turn; the last may be ""
	end   bool     // the pattern ended in '$'
	need  int      // bytes the segments need after first
	rule  *Rule
	// The bytes and byte pairs the segments need, for a quick "cannot
	// match" test against the path's (see pathFilter).
	filter pathFilter
}

// pathFilter records which bytes and (hashed) byte pairs a string holds.
// Canonical strings are ASCII, so the byte set is exact. A rule whose
// segments need a byte or pair the path lacks cannot match it: this skips
// almost every wildcard rule without searching the path.
type pathFilter struct {
	bytes [2]uint64
	pairs [4]uint64
}

func pairHash(a, b byte) uint32 { return (uint32(a)<<8 | uint32(b)) * 0x9E3779B1 >> 24 }

func (f *pathFilter) add(s string) {
	for i := 0; i < len(s); i++ {
		c := s[i] & 0x7F
		f.bytes[c>>6] |= 1 << (c & 63)
		if i > 0 {
			h := pairHash(s[i-1], s[i])
			f.pairs[h>>6] |= 1 << (h & 63)
		}
	}
}

// covers reports whether f holds everything g holds.
func (f *pathFilter) covers(g *pathFilter) bool {
	return g.bytes[0]&^f.bytes[0]|g.bytes[1]&^f.bytes[1]|
		g.pairs[0]&^f.pairs[0]|g.pairs[1]&^f.pairs[1]|g.pairs[2]&^f.pairs[2]|g.pairs[3]&^f.pairs[3] == 0
}

// priority orders rules as RFC 9309 and Google do: the longest pattern wins,
// Allow wins a tie. The length is that of the pattern in the canonical form
// it is matched in (non-ASCII bytes percent-encoded, as Google counts
// them; unreserved characters decoded, as RFC 9309 compares them): ranked
// as written, "Disallow: /%7Ejoe/" outranked "Allow: /~joe/p" although it
// is the shorter rule for the same paths.
func priority(r *Rule) int32 {
	n := canonLen(r.Pattern)
	p := int32(min(n, 1<<29)) * 2
	if r.Allow {
		p++
	}
	return p
}

// canonLen is the length of pattern in canonical form, its '*'s and final
// '$' included.
func canonLen(pattern string) int {
	first, rest, end := canonParts(pattern)
	n := len(first) + len(rest)
	for _, s := range rest {
		n += len(s)
	}
	if end {
		n++
	}
	return n
}

// canonParts splits pattern at its '*'s into literal parts in canonical
// form: first, then one after each '*' (a part between two '*'s may be
// empty); end says it ended in '$'.
func canonParts(pat string) (first string, rest []string, end bool) {
	if strings.HasSuffix(pat, "$") {
		end = true
		pat = pat[:len(pat)-1]
	}
	if strings.Contains(pat, "%2") {
		// %2E is '.', as the canonical form below has it anyway, and as
		// a request's path is before its dot segments are resolved.
		pat = dotEscapes.Replace(pat)
	}
	parts := strings.Split(resolvePattern(pat), "*")
	for i := range parts {
		parts[i] = canonString(parts[i])
	}
	return parts[0], parts[1:], end
}

func compileRule(r *Rule) *compiledRule {
	c := &compiledRule{prio: priority(r), rule: r}
	var rest []string
	c.first, rest, c.end = canonParts(r.Pattern)
	for i, s := range rest {
		if s == "" && i < len(rest)-1 {
			continue // "**" is "*"
		}
		c.segs = append(c.segs, s)
		c.need += len(s)
		c.filter.add(s)
	}
	return c
}

// matchRest reports whether the path p, whose first pos bytes are known to
// equal c.first, matches the rest of the pattern. Each segment is found at
// its leftmost place after the previous one: with no wildcard but '*', the
// leftmost placement leaves the most room for what follows, so this never
// needs to backtrack and runs in time linear in len(p).
func (c *compiledRule) matchRest(p string, pos int) bool {
	if c.segs == nil {
		return !c.end || pos == len(p)
	}
	if len(p)-pos < c.need {
		return false
	}
	last := len(c.segs) - 1
	for _, s := range c.segs[:last] {
		j := strings.Index(p[pos:], s)
		if j < 0 {
			return false
		}
		pos += j + len(s)
	}
	s := c.segs[last]
	if c.end {
		return len(p)-pos >= len(s) && p[len(p)-len(s):] == s
	}
	return s == "" || strings.Contains(p[pos:], s)
}

// groupIndex is a group's rules in a radix tree keyed by the literal start
// of each pattern, so that a path meets only the rules whose start it has.
type groupIndex struct {
	root node
}

type node struct {
	label string          // bytes from the parent to here
	edges string          // first byte of each child's label, for IndexByte
	kids  []*node         // children, in the order of edges
	rules []*compiledRule // rules whose first ends here, highest priority first
	wild  *wildIndex      // the node's wildcard rules when there are many; else they are in rules
}

func (g *Group) index() *groupIndex {
	g.compileOnce.Do(func() {
		ix := &groupIndex{}
		for _, r := range g.Rules {
			if r.Pattern == "" {
				continue // an empty rule decides nothing
			}
			c := compileRule(r)
			ix.root.insert(c.first, c)
		}
		ix.root.finish()
		g.compiled = ix
	})
	return g.compiled
}

func (n *node) insert(key string, c *compiledRule) {
	for {
		if key == "" {
			n.rules = append(n.rules, c)
			return
		}
		k := strings.IndexByte(n.edges, key[0])
		if k < 0 {
			n.edges += key[:1]
			n.kids = append(n.kids, &node{label: key, rules: []*compiledRule{c}})
			return
		}
		child := n.kids[k]
		common := 0
		for common < len(key) && common < len(child.label) && key[common] == child.label[common] {
			common++
		}
		if common < len(child.label) {
			// Split child: a new node for the shared part takes its place.
			mid := &node{label: child.label[:common], edges: child.label[common : common+1], kids: []*node{child}}
			child.label = child.label[common:]
			n.kids[k] = mid
			child = mid
		}
		n, key = child, key[common:]
	}
}

// wildIndexMin is how many wildcard rules a node needs before they are
// bucketed; below it a scan with the filter is as fast.
const wildIndexMin = 32

// wildIndex buckets a crowded node's wildcard rules by one byte pair each
// rule needs. A path can only match rules in the buckets of pairs it has,
// so a lookup visits a small share of the rules. The pair is chosen to
// keep the buckets even.
type wildIndex struct {
	buckets [256][]*compiledRule
	always  []*compiledRule // rules whose segments have no pair ("/*/x")
	all     []*compiledRule // every rule, for paths too long to filter
}

// finish sorts the rules by priority and buckets the wildcard rules of
// crowded nodes.
func (n *node) finish() {
	byPrio := func(a, b *compiledRule) int { return int(b.prio - a.prio) }
	wild := 0
	for _, c := range n.rules {
		if c.segs != nil {
			wild++
		}
	}
	if wild >= wildIndexMin {
		w := &wildIndex{}
		plain := n.rules[:0:0]
		for _, c := range n.rules {
			if c.segs == nil {
				plain = append(plain, c)
				continue
			}
			w.all = append(w.all, c)
			bucket := -1
			for _, s := range c.segs {
				for i := 1; i < len(s); i++ {
					h := int(pairHash(s[i-1], s[i]))
					if bucket < 0 || len(w.buckets[h]) < len(w.buckets[bucket]) {
						bucket = h
					}
				}
			}
			if bucket < 0 {
				w.always = append(w.always, c)
			} else {
				w.buckets[bucket] = append(w.buckets[bucket], c)
			}
		}
		n.rules, n.wild = plain, w
	}
	slices.SortStableFunc(n.rules, byPrio)
	for _, k := range n.kids {
		k.finish()
	}
}

// maxFilterLen bounds the paths a pathFilter is built for: on longer ones
// building it costs more than it saves, and matching stays linear anyway.
const maxFilterLen = 2048

// lookup is the state of one path's walk through a group's tree.
type lookup struct {
	p        string
	filter   pathFilter
	filtered bool // filter has been built
}

func (l *lookup) pathFilter() *pathFilter {
	if !l.filtered {
		l.filter.add(l.p)
		l.filtered = true
	}
	return &l.filter
}

// try reports whether c outranks cur and matches the path past pos.
func (l *lookup) try(c, cur *compiledRule, pos int) bool {
	if cur != nil && c.prio <= cur.prio {
		return false
	}
	if c.segs != nil {
		if len(l.p)-pos < c.need {
			return false
		}
		if len(l.p) <= maxFilterLen && !l.pathFilter().covers(&c.filter) {
			return false
		}
	}
	return c.matchRest(l.p, pos)
}

// best returns the highest-priority rule matching the canonical path p that
// outranks cur (which may be nil).
func (ix *groupIndex) best(p string, cur *compiledRule) *compiledRule {
	l := lookup{p: p}
	n := &ix.root
	pos := 0
	for {
		for _, c := range n.rules {
			if cur != nil && c.prio <= cur.prio {
				break // the rest of this node ranks lower still
			}
			if l.try(c, cur, pos) {
				cur = c
				break
			}
		}
		if w := n.wild; w != nil {
			cur = l.bestWild(w, cur, pos)
		}
		if pos >= len(p) {
			return cur
		}
		k := strings.IndexByte(n.edges, p[pos])
		if k < 0 {
			return cur
		}
		n = n.kids[k]
		if len(p)-pos < len(n.label) || p[pos:pos+len(n.label)] != n.label {
			return cur
		}
		pos += len(n.label)
	}
}

func (l *lookup) bestWild(w *wildIndex, cur *compiledRule, pos int) *compiledRule {
	if len(l.p) > maxFilterLen {
		for _, c := range w.all {
			if l.try(c, cur, pos) {
				cur = c
			}
		}
		return cur
	}
	for _, c := range w.always {
		if l.try(c, cur, pos) {
			cur = c
		}
	}
	f := l.pathFilter()
	for i, word := range f.pairs {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			word &= word - 1
			for _, c := range w.buckets[i<<6|b] {
				if l.try(c, cur, pos) {
					cur = c
				}
			}
		}
	}
	return cur
}

// pathBufSize is the stack buffer for canonicalising a path; longer paths
// that need it are rare and go to the heap.
const pathBufSize = 512

// Allowed reports whether the robot may fetch path and returns the deciding
// rule, nil when no rule decided (then the answer is "allowed"). path is a
// request target from a log: "/a/b?c", or an absolute "http://host/a";
// a fragment is ignored. /robots.txt itself is always allowed.
//
// Allowed does not allocate for ASCII paths without '%' escapes.
func (m *Matcher) Allowed(path string) (bool, *Rule) {
	if m == nil || len(m.index) == 0 {
		return true, nil
	}
	p, slash := requestPath(path)
	if slash || needsCanon(p) || needsResolve(p) {
		var buf, res [pathBufSize]byte
		b := buf[:0]
		if slash {
			b = append(b, '/')
		}
		b = appendCanon(b, p)
		if len(b) == 0 {
			return m.decide("")
		}
		// Canonical first, so that %2E%2E is a dot segment too.
		if c := unsafe.String(&b[0], len(b)); needsResolve(c) {
			b = appendResolved(res[:0], c)
		}
		// The string lives only for this call, like buf.
		p = unsafe.String(&b[0], len(b))
	}
	// Asked of the path as the server resolves it: //robots.txt (a
	// crawler joining "https://host/" and "/robots.txt"), /x/../robots.txt
	// and /%72obots.txt are served /robots.txt, so they are no violation.
	if !slash && isRobotsTxt(p) {
		return true, nil
	}
	return m.decide(p)
}

// isRobotsTxt reports whether the canonical, resolved path p is robots.txt
// itself, which RFC 9309 2.2.2 implicitly allows.
func isRobotsTxt(p string) bool {
	return p == "/robots.txt" || strings.HasPrefix(p, "/robots.txt?")
}

// dotEscapes decodes %2E, an escaped dot, in a rule.
var dotEscapes = strings.NewReplacer("%2e", ".", "%2E", ".")

// resolvePattern writes a rule's path as Allowed reads a request's: a
// request path is matched with its empty segments merged and its dot
// segments removed, so a rule written with them ("Disallow: //private",
// "/proxy/http://", "/a/./b", "/a/../b") would otherwise never match
// anything, not even the path written the same way. Only what is
// unambiguous is resolved: repeated slashes anywhere before the query, and
// "." and ".." segments that a '/' ends before the first '*'. A pattern
// that ends in "/.." or "/." is a prefix ("/a/.." also matches
// "/a/..hidden"), and a ".." after a '*' has no segment to remove that a
// wildcard could not have matched: those stay as written.
func resolvePattern(pat string) string {
	q := strings.IndexByte(pat, '?')
	if q < 0 {
		q = len(pat)
	}
	if !strings.Contains(pat[:q], "//") && !strings.Contains(pat[:q], "/./") && !strings.Contains(pat[:q], "/../") {
		return pat
	}
	out := make([]byte, 0, len(pat))
	star := false
	for i := 0; i < q; i++ {
		c := pat[i]
		if c == '*' {
			star = true
		}
		if c != '/' || len(out) == 0 || out[len(out)-1] != '/' {
			out = append(out, c)
		}
		if c != '/' || star {
			continue
		}
		// out ends in '/': look for "./" or "../" after it.
		switch rest := pat[i+1 : q]; {
		case strings.HasPrefix(rest, "./"):
			i++ // skip ".", the next '/' merges
		case strings.HasPrefix(rest, "../"):
			i += 2
			if j := strings.LastIndexByte(string(out[:len(out)-1]), '/'); j >= 0 {
				out = out[:j+1]
			}
		}
	}
	return string(out) + pat[q:]
}

// needsResolve reports whether the path part of p (before '?') has a dot
// segment or an empty one ("//"), which the server resolves away before it
// serves the file: /x/../private and //private are /private to nginx and
// Apache (RFC 3986 §5.2.4; both servers merge slashes by default), so they
// are /private to robots.txt too.
func needsResolve(p string) bool {
	for i := 0; i < len(p) && p[i] != '?'; i++ {
		if p[i] != '/' || i+1 == len(p) {
			continue
		}
		switch p[i+1] {
		case '/':
			return true
		case '.':
			rest := p[i+2:]
			if rest == "" || rest[0] == '/' || rest[0] == '?' ||
				rest[0] == '.' && (len(rest) == 1 || rest[1] == '/' || rest[1] == '?') {
				return true
			}
		}
	}
	return false
}

// appendResolved appends p, a canonical path starting with '/', with its
// dot segments removed and its empty segments merged; the query is kept as
// it is. ".." at the root stays at the root, and a path that ends in a dot
// segment ends in '/', as RFC 3986's remove_dot_segments has it.
func appendResolved(dst []byte, p string) []byte {
	query := ""
	if i := strings.IndexByte(p, '?'); i >= 0 {
		p, query = p[:i], p[i:]
	}
	start := len(dst)
	dst = append(dst, '/')
	segs := p[1:]
	for {
		seg, rest, more := strings.Cut(segs, "/")
		switch seg {
		case "", ".":
			// merged, or the directory itself
		case "..":
			if j := bytes.LastIndexByte(dst[start:len(dst)-1], '/'); j >= 0 {
				dst = dst[:start+j+1]
			}
		default:
			dst = append(dst, seg...)
			if more {
				dst = append(dst, '/')
			}
		}
		if !more {
			break
		}
		segs = rest
	}
	return append(dst, query...)
}

func (m *Matcher) decide(p string) (bool, *Rule) {
	var best *compiledRule
	for _, ix := range m.index {
		best = ix.best(p, best)
	}
	if best == nil {
		return true, nil
	}
	return best.rule.Allow, best.rule
}

// requestPath returns the path and query of a request target, and whether a
// '/' must be put in front of it (for "", "*" and "?q" targets and absolute
// URLs with no path).
func requestPath(t string) (string, bool) {
	if i := strings.IndexByte(t, '#'); i >= 0 {
		t = t[:i]
	}
	if strings.HasPrefix(t, "/") {
		return t, false
	}
	// An absolute URI: the scheme is letters and the authority runs to the
	// first '/', '?' (or the end).
	if i := strings.Index(t, "://"); i > 0 && !strings.ContainsAny(t[:i], "/?") {
		rest := t[i+3:]
		j := strings.IndexAny(rest, "/?")
		if j < 0 {
			return "", true
		}
		rest = rest[j:]
		return rest, rest[0] != '/'
	}
	return t, true
}
