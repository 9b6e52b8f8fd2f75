package agents

import (
	"strings"
	"unsafe"
)

// uaText is the User-agent being classified: as sent, lower-cased, and what
// one pass over its bytes found. The rules ask some fifty questions of each
// new User-agent ("does it contain msie ", "${jndi:", " moblie safari/" …);
// on a log of distinct browser strings each was a search of the whole
// string, and the searches together were most of the time a new client
// cost. Every literal the rules ask about (textLiterals) is found by the
// pass that finds the tables' words (words.go), so that a question is a
// bit and, for where, a position.
type uaText struct {
	ua, lower string
	// padded is lower and wordPad zero bytes after it, for findWords to
	// read eight bytes at any of lower's.
	padded  []byte
	control bool // a control byte other than tab (see uaHasControl)
	quote   bool // one of quoteBytes
	dollar  bool // a '$', which every Log4j lookup starts with
	// hits are where read found a word of the index may end its first
	// three bytes: the byte's position above trigramBits, the bucket
	// below.
	hits []uint32
	// matches are the words of the tables that lower holds (findWords),
	// by position.
	matches []wordMatch
	// found has the bit of every literal of textLiterals that lower holds,
	// first where it first begins (valid only where the bit is set).
	found [literalWords]uint64
	first [literalWords * 64]int32
	words *wordIndex // the index found was filled from
	// unfiltered: every literal may be there (Classifier.unfiltered).
	unfiltered bool
}

// read makes c.text the text of ua (at most MaxLen bytes, no escapes):
// lower-cased into c.scratch, which the next User-agent overwrites.
func (c *Classifier) read(ua string) *uaText {
	t := &c.text
	if cap(c.scratch) < len(ua)+wordPad {
		c.scratch = make([]byte, 0, max(len(ua)+wordPad, 256))
	}
	t.padded = c.scratch[:len(ua)+wordPad]
	clear(t.padded[len(ua):])
	b := c.scratch[:len(ua)]
	c.scratch = b
	t.matches = t.matches[:0]
	t.found = [literalWords]uint64{}
	t.words = tableWordIndex()
	// A text too long for uaText.hits to say where a hit is, read as the
	// rules read: only textOf's callers pass one (Classify reads MaxLen
	// bytes).
	t.unfiltered = c.unfiltered || len(ua) >= maxHitText
	if t.unfiltered {
		for i := 0; i < len(ua); i++ {
			b[i] = lowerByte[ua[i]]
		}
		t.ua, t.lower = ua, unsafe.String(unsafe.SliceData(b), len(b))
		t.control, t.quote = uaHasControl(ua), strings.ContainsAny(t.lower, quoteBytes)
		t.dollar = strings.IndexByte(t.lower, '$') >= 0
		t.findWordsEverywhere()
		return t
	}
	if cap(t.hits) < len(ua) {
		t.hits = make([]uint32, 0, max(len(ua), 256))
	}
	class, n := lowerAndHash(b, ua, t.words.filled[:], t.hits[:len(ua)])
	t.hits = t.hits[:n]
	t.ua, t.lower = ua, unsafe.String(unsafe.SliceData(b), len(b))
	t.control, t.quote, t.dollar = class&classControl != 0, class&classQuote != 0, class&classDollar != 0
	t.findWords(t.words)
	return t
}

// maxHitText is the length of a text at which uaText.hits can no longer
// hold a byte's position above its bucket: 1 MiB.
const maxHitText = 1 << (32 - trigramBits)

// lowerAndHash lower-cases src into dst, returns the classes of its bytes
// (byteClass) and puts in hits where a word of the index whose buckets
// filled has may end its first three bytes (uaText.hits), n of them. One
// loop does all three: as two, the second's reading of the text again was
// some 1,400 instructions of a browser string's 11,000; it is a function
// of its own so that the loop's variables stay in registers.
func lowerAndHash(dst []byte, src string, filled []uint64, hits []uint32) (class uint8, n int) {
	dst = dst[:len(src)]
	hits = hits[:len(src)]
	filled = filled[:1<<trigramBits/64]
	var classes uint16
	var w uint32
	for i := 0; i < len(src); i++ {
		lc := lowerClass[src[i]]
		classes |= lc
		c := uint8(lc)
		dst[i] = c
		w = (w | uint32(c)) << 8
		if h := trigramHash(w); filled[h/64]&(1<<(h%64)) != 0 {
			hits[n] = uint32(i)<<trigramBits | h
			n++
		}
	}
	return uint8(classes >> 8), n
}

// lowerByte lower-cases ASCII; byteClass says which bytes the rules look
// for anywhere in a User-agent.
var lowerByte, byteClass = func() (lower, class [256]uint8) {
	for i := range 256 {
		lower[i] = uint8(i)
		if 'A' <= i && i <= 'Z' {
			lower[i] += 'a' - 'A'
		}
		if i < 0x20 && i != '\t' || i == 0x7f {
			class[i] |= classControl
		}
	}
	for _, q := range []byte(quoteBytes) {
		class[q] |= classQuote
	}
	class['$'] |= classDollar
	return lower, class
}()

// lowerClass is lowerByte and, above it, the byteClass of the lower-cased
// byte: one load a byte.
var lowerClass = func() (lc [256]uint16) {
	for i := range lc {
		lc[i] = uint16(lowerByte[i]) | uint16(byteClass[lowerByte[i]])<<8
	}
	return lc
}()

// The classes of byteClass.
const (
	classControl = 1 << iota // a control byte other than tab (uaHasControl)
	classQuote               // one of quoteBytes
	classDollar              // '$'
)

// quoteBytes are the quotes and brackets no browser sends (impossibleBrowser).
const quoteBytes = "'\"<>`"

// textOf is the text of ua for the callers outside the classifier, which
// have no scratch to reuse.
func textOf(ua string) *uaText {
	var c Classifier
	return c.read(ua)
}

// index is strings.Index(t.lower, lit): for one of textLiterals, where the
// one pass found it first (unless the classifier is unfiltered), with no
// search. contains and versionAfter, which ask it, are inlined where the
// rules ask: a question is one call.
func (t *uaText) index(lit string) int {
	if t.unfiltered || len(lit) < 3 {
		return strings.Index(t.lower, lit)
	}
	id := t.words.lits.find(lit, literalHash(lit))
	if id < 0 {
		if onUnindexedLiteral != nil {
			onUnindexedLiteral(lit)
		}
		return strings.Index(t.lower, lit)
	}
	if t.found[id>>6]&(1<<(id&63)) == 0 {
		return -1
	}
	return int(t.first[id])
}

// onUnindexedLiteral, when set (by a test), hears of every literal asked
// that the one pass did not look for.
var onUnindexedLiteral func(lit string)

// contains is strings.Contains(t.lower, lit).
func (t *uaText) contains(lit string) bool { return t.index(lit) >= 0 }

// versionAfter is versionAfter(t.lower, key).
func (t *uaText) versionAfter(key string) (int, bool) {
	at := t.index(key)
	if at < 0 {
		return 0, false
	}
	return uaLeadingInt(t.lower[at+len(key):])
}
