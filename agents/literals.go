package agents

import "sync"

// textLiterals are the literals the rules ask of a User-agent's text
// (uaText.contains, index, versionAfter): the one pass over a
// new User-agent finds them all with the tables' words, so that each
// question costs a bit test, not a search. A literal asked but not listed
// is searched for, right but slower (TestEveryLiteralIndexed lists them);
// one shorter than three bytes cannot be listed (the pass hashes three).
func textLiterals() []string {
	lits := []string{
		// impossibleBrowser and what it calls.
		"gecko/20100101 firefox/", "mozilla/", "msie ", "android", "windows phone", "chrome/", "firefox/",
		"applewebkit/", "like gecko) chrome/", "windows nt ", "mac os x 10",
		// browserReleaseText and safari.
		"trident/7.0", "version/", "safari/", "opera",
		// contactAddress and exploitAgent.
		"http://", "https://", "+http", "mailto:", "www.", "${jndi:",
		// clientFamily.
		"safari", "mobile/", "iphone", "ipad", "ipod",
	}
	lits = append(lits, misspellings[:]...)
	lits = append(lits, platforms[:]...)
	lits = append(lits, engines[:]...)
	lits = append(lits, log4jNestings[:]...)
	lits = append(lits, safariPlatforms[:]...)
	lits = append(lits, clientTokenWords()...)
	for _, f := range browserFamilies {
		lits = append(lits, f.token)
	}
	return lits
}

// literalWords is the size of uaText.found in words: room for 256
// literals.
const literalWords = 4

// literalSet finds a literal's number in textLiterals: asked some forty
// times per new User-agent, with the literal's string. An open-addressed
// table hashed on the length and a few bytes is one probe and one
// comparison (a constant's bytes are the table's, so the comparison is
// mostly of pointers); the words' index, by three bytes, had to search
// buckets of up to seven ("moz…") and cost 110 instructions a question.
type literalSet struct {
	slots [literalSlots]literalSlot
}

type literalSlot struct {
	lit string
	id  int16
}

// literalSlots is the size of literalSet: twice the most literals there
// may be, so that a probe rarely goes on.
const literalSlots = literalWords * 64 * 2

// literalHash is the slot a literal begins its probe at: a hash of its
// length and its first and last two bytes, a few instructions (literals
// alike in those, "mozila/" and "mozlla/", take the next slots). A literal
// is at least two bytes long.
func literalHash(lit string) uint32 {
	n := len(lit)
	a := uint32(lit[0]) | uint32(lit[1])<<8
	b := uint32(lit[n-2]) | uint32(lit[n-1])<<8
	return (a*0x9e3779b1 ^ b*0x85ebca6b ^ uint32(n)<<11) >> 16 & (literalSlots - 1)
}

// add numbers lit id.
func (s *literalSet) add(lit string, id int) {
	for h := literalHash(lit); ; h = (h + 1) & (literalSlots - 1) {
		if s.slots[h].lit == "" {
			s.slots[h] = literalSlot{lit, int16(id)}
			return
		}
	}
}

// find returns the number of lit, whose literalHash is h, in textLiterals;
// -1 if it is not one.
func (s *literalSet) find(lit string, h uint32) int {
	for ; ; h = (h + 1) & (literalSlots - 1) {
		switch sl := &s.slots[h]; sl.lit {
		case lit:
			return int(sl.id)
		case "":
			return -1
		}
	}
}

// literalTable is a table of textLiterals the rules loop over (seven
// misspellings, forty app tokens): a string that holds none of it is ruled
// out by one test of mask, not a question per entry, and the entries it
// may hold are known by their numbers, ids.
type literalTable struct {
	mask [literalWords]uint64
	ids  []int16
}

// literalTableOf returns, made on first use, the literalTable of lits,
// which must all be textLiterals.
func literalTableOf(lits []string) func() *literalTable {
	return sync.OnceValue(func() *literalTable {
		x := tableWordIndex()
		l := &literalTable{ids: make([]int16, len(lits))}
		for i, lit := range lits {
			id := -1
			if len(lit) >= 3 {
				id = x.lits.find(lit, literalHash(lit))
			}
			if id < 0 {
				panic("agents: " + lit + " is not one of textLiterals")
			}
			l.mask[id>>6] |= 1 << (id & 63)
			l.ids[i] = int16(id)
		}
		return l
	})
}

// holdsAny reports whether lower may hold a literal of l: false only when
// it holds none.
func (t *uaText) holdsAny(l *literalTable) bool {
	if t.unfiltered {
		return true
	}
	var any uint64
	for i := range l.mask {
		any |= t.found[i] & l.mask[i]
	}
	return any != 0
}

// mayHoldEntry reports whether lower may hold entry i of l: false only
// when it does not.
func (t *uaText) mayHoldEntry(l *literalTable, i int) bool {
	id := l.ids[i]
	return t.unfiltered || t.found[id>>6]&(1<<(id&63)) != 0
}
