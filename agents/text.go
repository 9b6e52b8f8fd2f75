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
	t.ua, t.lower = ua, c.lowerInto(ua)
	if c.unfiltered {
		t.control = uaHasControl(ua)
		for i := range t.pairs {
			t.pairs[i] = ^uint64(0)
		}
		return t
	}
	t.pairs = [pairBloomWords]uint64{}
	control := false
	l := t.lower
	for i := 0; i+1 < len(l); i++ {
		b := l[i]
		control = control || b < 0x20 && b != '\t' || b == 0x7f
		h := pairHash(b, l[i+1])
		t.pairs[h>>6] |= 1 << (h & 63)
	}
	if n := len(l); n > 0 {
		b := l[n-1]
		control = control || b < 0x20 && b != '\t' || b == 0x7f
	}
	t.control = control
	return t
}

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

// lowerInto returns s lower-cased in ASCII: s itself when it has no upper
// case, else a string over c.scratch, valid until the next call.
func (c *Classifier) lowerInto(s string) string {
	i := 0
	for i < len(s) && !('A' <= s[i] && s[i] <= 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := append(c.scratch[:0], s...)
	for j := i; j < len(b); j++ {
		if 'A' <= b[j] && b[j] <= 'Z' {
			b[j] += 'a' - 'A'
		}
	}
	c.scratch = b
	return unsafe.String(unsafe.SliceData(b), len(b))
}
