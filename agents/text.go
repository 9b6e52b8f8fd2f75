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
// cost. Most literals share no pair of adjacent bytes with a browser's
// string, so a set of the pairs the string has answers most questions
// "no" in a few instructions; the rest are searched as before.
type uaText struct {
	ua, lower string
	control   bool // a control byte other than tab (see uaHasControl)
	quote     bool // one of quoteBytes
	dollar    bool // a '$', which every Log4j lookup starts with
	// matches are the words of the tables that lower holds (findWords),
	// by position.
	matches []wordMatch
	// pairs holds every pair of adjacent bytes of lower, hashed
	// (pairHash): a literal with a pair not in it is not in lower, nor in
	// any part of it. It is filled on the first question (paired): a
	// declared robot is known by its words alone, and never asks one.
	pairs  [pairBloomWords]uint64
	paired bool
}

// pairBloomWords is the size of uaText.pairs in words: 4,096 bits, of
// which a 150-byte User-agent sets under 4%.
const pairBloomWords = 64

// pairHash is the bit of uaText.pairs that the pair a, b sets.
func pairHash(a, b byte) uint {
	return (uint(a)<<5 ^ uint(b)*0x9d) & (pairBloomWords*64 - 1)
}

// read makes c.text the text of ua (at most MaxLen bytes, no escapes):
// lower-cased into c.scratch, which the next User-agent overwrites.
func (c *Classifier) read(ua string) *uaText {
	t := &c.text
	if cap(c.scratch) < len(ua) {
		c.scratch = make([]byte, 0, max(len(ua), 256))
	}
	b := c.scratch[:len(ua)]
	c.scratch = b
	t.matches = t.matches[:0]
	if c.unfiltered {
		for i := 0; i < len(ua); i++ {
			b[i] = lowerByte[ua[i]]
		}
		t.ua, t.lower = ua, unsafe.String(unsafe.SliceData(b), len(b))
		t.control, t.quote = uaHasControl(ua), strings.ContainsAny(t.lower, quoteBytes)
		t.dollar = strings.IndexByte(t.lower, '$') >= 0
		for i := range t.pairs {
			t.pairs[i] = ^uint64(0)
		}
		t.paired = true
		t.findWordsEverywhere()
		return t
	}
	var class uint8
	for i := 0; i < len(ua); i++ {
		x := lowerByte[ua[i]]
		class |= byteClass[x]
		b[i] = x
	}
	t.ua, t.lower = ua, unsafe.String(unsafe.SliceData(b), len(b))
	t.control, t.quote, t.dollar = class&classControl != 0, class&classQuote != 0, class&classDollar != 0
	t.paired = false
	t.findWords(tableWordIndex())
	return t
}

// pair fills t.pairs.
func (t *uaText) pair() {
	t.pairs = [pairBloomWords]uint64{}
	l := t.lower
	for i := 1; i < len(l); i++ {
		h := pairHash(l[i-1], l[i])
		t.pairs[h>>6&(pairBloomWords-1)] |= 1 << (h & 63)
	}
	t.paired = true
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

// mayHold reports whether lower, or any part of it, may contain lit: false
// only when it cannot. Every pair of lit is tested: misspellings of what
// browsers write ("mozlila/") differ from it in a pair or two.
func (t *uaText) mayHold(lit string) bool {
	if !t.paired {
		t.pair()
	}
	for i := 0; i+1 < len(lit); i++ {
		if !t.hasPair(lit[i], lit[i+1]) {
			return false
		}
	}
	return true
}

// hasPair reports whether lower may have the pair a, b; t.pairs must be
// filled.
func (t *uaText) hasPair(a, b byte) bool {
	h := pairHash(a, b)
	return t.pairs[h>>6&(pairBloomWords-1)]&(1<<(h&63)) != 0
}

// contains is strings.Contains(t.lower, lit).
func (t *uaText) contains(lit string) bool {
	return t.mayHold(lit) && strings.Contains(t.lower, lit)
}

// index is strings.Index(t.lower, lit).
func (t *uaText) index(lit string) int {
	if !t.mayHold(lit) {
		return -1
	}
	return strings.Index(t.lower, lit)
}

// versionAfter is versionAfter(t.lower, key).
func (t *uaText) versionAfter(key string) (int, bool) {
	if !t.mayHold(key) {
		return 0, false
	}
	return versionAfter(t.lower, key)
}
