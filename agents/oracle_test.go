package agents

import (
	"cmp"
	"slices"
	"strings"
	"sync"
)

// The scans of the tables as they were before one pass found the words of
// all four (words.go): a pass per table, skipping the bytes whose pair
// begins no word. Kept as the oracle of TestOnePassFindsWhatTheScansFound.

// pairSet is the set of the first two bytes of a table's words. Most bytes
// of a browser's User-agent start no word of any table, yet each costs a
// look through the words that share its first byte; one bit test of the
// byte and the next rules most of them out. On a log of a million distinct
// browser strings (a botnet, a rotating scraper) classifying is the pass's
// largest cost.
type pairSet [1 << 16 / 64]uint64

// add puts w's first two bytes in the set; a one-byte word puts every
// pair it begins.
func (s *pairSet) add(w string) {
	switch len(w) {
	case 0:
	case 1:
		for b := range 256 {
			s.set(w[0], byte(b))
		}
	default:
		s.set(w[0], w[1])
	}
}

func (s *pairSet) set(a, b byte) {
	k := uint(a)<<8 | uint(b)
	s[k>>6] |= 1 << (k & 63)
}

// mayStart reports whether a word of the set may start at lower[i]. The
// last byte of lower has no pair: it may start a one-byte word, so it is
// left to the caller's own test.
func (s *pairSet) mayStart(lower string, i int) bool {
	if i+1 >= len(lower) {
		return true
	}
	k := uint(lower[i])<<8 | uint(lower[i+1])
	return s[k>>6]&(1<<(k&63)) != 0
}

// oldTokensByFirstByte indexes agentTokens by their first byte, so that
// oldFindToken looks at a handful of candidates per word instead of searching
// the whole User-agent for every token.
var oldTokensByFirstByte = func() (idx [256][]*agentToken) {
	for i := range agentTokens {
		t := &agentTokens[i]
		idx[t.token[0]] = append(idx[t.token[0]], t)
	}
	return idx
}()

// oldTokenPairs are the first two bytes of agentTokens.
var oldTokenPairs = func() (s *pairSet) {
	s = new(pairSet)
	for i := range agentTokens {
		s.add(agentTokens[i].token)
	}
	return s
}()

// oldRoleWord finds the first of agentRoleWords (in table order) that lower
// holds as a word that names the product, and its first such place; k is
// -1 when none does. One pass over lower, with the words indexed by their
// first byte: searching for each word in turn would cost a new User-agent
// a pass per word.
func oldRoleWord(ua, lower string) (k, at int, name string) {
	k = -1
	idx := oldRoleWordsByFirstByte()
	pairs := oldRoleWordPairs()
	for i := 0; i < len(lower); i++ {
		if !pairs.mayStart(lower, i) {
			continue
		}
		for _, j := range idx[lower[i]] {
			if k >= 0 && j >= k {
				continue // an earlier word in the table already matched
			}
			if !strings.HasPrefix(lower[i:], agentRoleWords[j].word) {
				continue
			}
			n, ok := roleWordName(ua, lower, j, i)
			if !ok {
				continue
			}
			k, at, name = j, i, n
		}
	}
	return k, at, name
}

// oldRoleWordsByFirstByte indexes agentRoleWords by their first byte.
var oldRoleWordsByFirstByte = sync.OnceValue(func() *[256][]int {
	idx := new([256][]int)
	for j, w := range agentRoleWords {
		idx[w.word[0]] = append(idx[w.word[0]], j)
	}
	return idx // a pointer: the table by value was a 6 KiB copy per User-agent classified
})

// oldRoleWordPairs are the first two bytes of agentRoleWords.
var oldRoleWordPairs = sync.OnceValue(func() *pairSet {
	s := new(pairSet)
	for _, w := range agentRoleWords {
		s.add(w.word)
	}
	return s
})

// oldFindToken returns the table token found earliest in lower at a word start,
// the longest one when several start at the same byte; a language runtime's
// token only when nothing else matches.
func oldFindToken(lower string) (*agentToken, int) {
	var runtime *agentToken
	runtimeAt := 0
	for i := 0; i < len(lower); i++ {
		if i > 0 && uaLetter(lower[i-1]) || !oldTokenPairs.mayStart(lower, i) {
			continue
		}
		var best *agentToken
		for _, t := range oldTokensByFirstByte[lower[i]] {
			if strings.HasPrefix(lower[i:], t.token) && (best == nil || len(t.token) > len(best.token)) {
				best = t
			}
		}
		switch {
		case best == nil:
		case compared(lower, i):
		case best.what != runtimeClient:
			return best, i
		case runtime == nil:
			runtime, runtimeAt = best, i
		}
	}
	return runtime, runtimeAt
}

// oldCatalogueTokens indexes the catalogue's names by first byte, lower-case,
// for oldCatalogued: the names of five bytes or more that are no ordinary
// word, longest first, so that "meta-externalagent" wins over a shorter
// name it starts with.
var oldCatalogueTokens = sync.OnceValue(func() *[256][]string {
	idx := new([256][]string)
	for name := range catalogue() {
		if len(name) < 5 || slices.Contains(genericNames, name) {
			continue
		}
		idx[name[0]] = append(idx[name[0]], name)
	}
	for i := range idx {
		slices.SortFunc(idx[i], func(a, b string) int { return cmp.Or(cmp.Compare(len(b), len(a)), strings.Compare(a, b)) })
	}
	return idx // a pointer: the table by value was a 6 KiB copy per User-agent classified
})

// oldCataloguePairs are the first two bytes of oldCatalogueTokens' names.
var oldCataloguePairs = sync.OnceValue(func() *pairSet {
	s := new(pairSet)
	for _, names := range oldCatalogueTokens() {
		for _, name := range names {
			s.add(name)
		}
	}
	return s
})

func oldCatalogued(lower string) (CatalogueEntry, bool) {
	idx, pairs := oldCatalogueTokens(), oldCataloguePairs()
	for i := 0; i < len(lower); i++ {
		if i > 0 && !nameStart[lower[i-1]] || !pairs.mayStart(lower, i) {
			continue
		}
		for _, name := range idx[lower[i]] {
			end := i + len(name)
			if strings.HasPrefix(lower[i:], name) && (end == len(lower) || nameEnd[lower[end]]) {
				return catalogue()[name], true
			}
		}
	}
	return CatalogueEntry{}, false
}

// oldFamiliesByFirstByte indexes browserFamilies by their tokens' first byte,
// and oldFamilyPairs holds the tokens' first two bytes.
var oldFamiliesByFirstByte, oldFamilyPairs = func() (*[256][]int, *pairSet) {
	idx, pairs := new([256][]int), new(pairSet)
	for j, f := range browserFamilies {
		idx[f.token[0]] = append(idx[f.token[0]], j)
		pairs.add(f.token)
	}
	return idx, pairs
}()

// oldBrowserFamily returns the family of the first of browserFamilies, in
// table order, whose token lower contains. It reads lower once: a token
// searched for at a time read a Chrome string some seventeen times.
func oldBrowserFamily(lower string) (string, bool) {
	best := len(browserFamilies)
	for i := 0; i < len(lower); i++ {
		if !oldFamilyPairs.mayStart(lower, i) {
			continue
		}
		for _, j := range oldFamiliesByFirstByte[lower[i]] {
			if j < best && strings.HasPrefix(lower[i:], browserFamilies[j].token) {
				best = j
			}
		}
	}
	if best == len(browserFamilies) {
		return "", false
	}
	return browserFamilies[best].family, true
}
