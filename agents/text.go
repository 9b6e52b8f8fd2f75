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
	// matches are the words of the tables that lower holds (findWords),
	// by position.
	matches []wordMatch
	// pairs holds every pair of adjacent bytes of lower, hashed
	// (pairHash): a literal with a pair not in it is not in lower, nor in
	// any part of it.
	pairs [pairBloomWords]uint64
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
	var control uint8
	for i := 0; i < len(ua); i++ {
		x := lowerByte[ua[i]]
		control |= controlByte[x]
		b[i] = x
	}
	t.ua, t.lower, t.control = ua, unsafe.String(unsafe.SliceData(b), len(b)), control != 0
	t.matches = t.matches[:0]
	if c.unfiltered {
		for i := range t.pairs {
			t.pairs[i] = ^uint64(0)
		}
		t.findWordsEverywhere()
		return t
	}
	t.pairs = [pairBloomWords]uint64{}
	l := t.lower
	for i := 1; i < len(l); i++ {
		h := pairHash(l[i-1], l[i])
		t.pairs[h>>6] |= 1 << (h & 63)
	}
	t.findWords(tableWordIndex())
	return t
}

// lowerByte lower-cases ASCII; controlByte is 1 for a control byte other
// than tab (uaHasControl).
var lowerByte, controlByte = func() (lower, control [256]uint8) {
	for i := range 256 {
		lower[i] = uint8(i)
		if 'A' <= i && i <= 'Z' {
			lower[i] += 'a' - 'A'
		}
		if i < 0x20 && i != '\t' || i == 0x7f {
			control[i] = 1
		}
	}
	return lower, control
}()

// textOf is the text of ua for the callers outside the classifier, which
// have no scratch to reuse.
func textOf(ua string) *uaText {
	var c Classifier
	return c.read(ua)
}

// mayHold reports whether lower, or any part of it, may contain lit: false
// only when it cannot.
func (t *uaText) mayHold(lit string) bool {
	for i := 0; i+1 < len(lit); i++ {
		h := pairHash(lit[i], lit[i+1])
		if t.pairs[h>>6]&(1<<(h&63)) == 0 {
			return false
		}
	}
	return true
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
