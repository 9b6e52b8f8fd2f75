package agents

import (
	"cmp"
	"encoding/binary"
	"slices"
	"strings"
	"sync"
)

// The classifier looks for the words of four tables at every byte of a new
// User-agent: the known robots' tokens (agentTokens), the catalogue's names
// (catalogueNames), the robot role words (agentRoleWords) and the browser
// families' tokens (browserFamilies). Searched a table at a time they cost
// four passes over the string and, at each byte whose first two letters
// began some word, a comparison with every word of that first letter: on
// the churn log's browser strings ("chrome/", "applewebkit", "windows")
// some 15,000 instructions a User-agent, half the classification. One pass
// now finds every word of every table: a word is looked up by a hash of
// its first three bytes, where almost no bucket holds more than one word
// and most of a browser's three-byte runs hit an empty one. The same pass
// finds the literals the rules ask about (textLiterals).

// The tables, as wordMatch.table says.
const (
	tableTokens uint8 = iota
	tableCatalogue
	tableRoles
	tableFamilies
	tableLiterals // a literal of textLiterals that is no table's word
)

// tableWord is one word of the tables: entry is its index in its table;
// lit is its index in textLiterals when the rules ask for it, else -1.
// head is the word's first eight bytes (little-endian, as loaded from the
// text), mask the bits of them it has: one comparison rules out a word
// whose three bytes' bucket it shares.
type tableWord struct {
	word       string
	head, mask uint64
	table      uint8
	entry      uint16
	lit        int16
}

// wordPad is how many zero bytes uaText.padded has after the text: a word
// has no NUL byte, so a head read past the end matches no word that does
// not fit.
const wordPad = 8

// withHead is w with its head and mask.
func (w tableWord) withHead() tableWord {
	w.head, w.mask = 0, 0
	for i := 0; i < len(w.word) && i < 8; i++ {
		w.head |= uint64(w.word[i]) << (8 * i)
		w.mask |= 0xff << (8 * i)
	}
	return w
}

// wordMatch is a table word found in a User-agent: lower[at:] begins with
// entry of table.
type wordMatch struct {
	at    int32
	table uint8
	entry uint16
}

// trigramBits is the size of wordIndex's hash: 4,096 buckets for some 400
// words.
const trigramBits = 12

// trigramHash is the bucket of the three bytes in bits 8 to 31 of w (the
// low byte is zero): read shifts each byte in and hashes, four
// instructions a byte.
func trigramHash(w uint32) uint32 {
	return w * 0x9e3779b1 >> (32 - trigramBits)
}

// wordIndex holds every table word by the hash of its first three bytes:
// the words of bucket h are words[start[h]:start[h+1]], by table and by
// entry within it, so that the matches at one byte come in table order.
type wordIndex struct {
	start  [1<<trigramBits + 1]uint16
	filled [1 << trigramBits / 64]uint64 // the buckets that hold a word
	words  []tableWord
	lits   literalSet
}

// tableWords are the words of the four tables, by table and entry.
func tableWords() []tableWord {
	var ws []tableWord
	for i, t := range agentTokens {
		ws = append(ws, tableWord{word: t.token, table: tableTokens, entry: uint16(i), lit: -1})
	}
	for i, name := range catalogueNames() {
		ws = append(ws, tableWord{word: name, table: tableCatalogue, entry: uint16(i), lit: -1})
	}
	for i, w := range agentRoleWords {
		ws = append(ws, tableWord{word: w.word, table: tableRoles, entry: uint16(i), lit: -1})
	}
	for i, f := range browserFamilies {
		ws = append(ws, tableWord{word: f.token, table: tableFamilies, entry: uint16(i), lit: -1})
	}
	return ws
}

// tableWordIndex is the index of tableWords and textLiterals, built on
// first use (the catalogue is read then).
var tableWordIndex = sync.OnceValue(func() *wordIndex {
	ws := withLiterals(tableWords(), textLiterals())
	hash := func(w string) uint32 {
		if len(w) < 3 {
			panic("agents: table word " + w + " is shorter than three bytes")
		}
		return trigramHash(uint32(w[0])<<24 | uint32(w[1])<<16 | uint32(w[2])<<8)
	}
	// A stable sort keeps table and entry order within a bucket.
	slices.SortStableFunc(ws, func(a, b tableWord) int { return cmp.Compare(hash(a.word), hash(b.word)) })
	x := &wordIndex{words: ws}
	for i, w := range ws {
		x.start[hash(w.word)+1]++
		x.filled[hash(w.word)/64] |= 1 << (hash(w.word) % 64)
		ws[i] = w.withHead()
		if w.lit >= 0 {
			x.lits.add(w.word, int(w.lit))
		}
	}
	for h := 1; h < len(x.start); h++ {
		x.start[h] += x.start[h-1]
	}
	return x
})

// withLiterals is ws with each distinct literal of lits numbered: on the
// first word of ws it equals, or on a word of its own (tableLiterals).
func withLiterals(ws []tableWord, lits []string) []tableWord {
	n := int16(0)
	seen := make(map[string]bool)
	for _, lit := range lits {
		if seen[lit] {
			continue
		}
		seen[lit] = true
		if int(n) == literalWords*64 {
			panic("agents: more than literalWords*64 literals")
		}
		i := slices.IndexFunc(ws, func(w tableWord) bool { return w.word == lit })
		if i < 0 {
			ws = append(ws, tableWord{word: lit, table: tableLiterals})
			i = len(ws) - 1
		}
		ws[i].lit = n
		n++
	}
	return ws
}

// findWords appends to t.matches every table word that t.lower holds, by
// position and at each position in table order, and notes in t.found and
// t.first the literals it holds. It looks only where read found a bucket
// of x that is not empty (t.hits).
func (t *uaText) findWords(x *wordIndex) {
	p, words := t.padded, x.words
	for _, hit := range t.hits {
		at, h := int(hit>>trigramBits)-2, hit&(1<<trigramBits-1)
		if at < 0 || at+wordPad > len(p) {
			continue // the bytes before the text hashed as NULs
		}
		head := binary.LittleEndian.Uint64(p[at : at+wordPad])
		lo, hi := int(x.start[h]), min(int(x.start[h+1]), len(words))
		for j := lo; j < hi; j++ {
			if tw := &words[j]; head&tw.mask == tw.head {
				// Most words are ruled out by their head alone; the
				// rest, off the loop, keeps its variables in registers.
				t.matched(tw, at)
			}
		}
	}
}

// matched notes tw at byte at of t.lower when the rest of it is there.
func (t *uaText) matched(tw *tableWord, at int) {
	if len(tw.word) > 8 && !strings.HasPrefix(t.lower[at+8:], tw.word[8:]) {
		return
	}
	if tw.table != tableLiterals {
		t.matches = append(t.matches, wordMatch{int32(at), tw.table, tw.entry})
	}
	if id := tw.lit; id >= 0 && t.found[id>>6]&(1<<(id&63)) == 0 {
		t.found[id>>6] |= 1 << (id & 63)
		t.first[id] = int32(at)
	}
}

// findWordsEverywhere is findWords without the hash: every word tried at
// every byte it begins with, the rules as they read (Classifier.unfiltered).
func (t *uaText) findWordsEverywhere() {
	byFirst := tableWordsByFirstByte()
	for i := range len(t.lower) {
		for _, tw := range byFirst[t.lower[i]] {
			if strings.HasPrefix(t.lower[i:], tw.word) {
				t.matches = append(t.matches, wordMatch{int32(i), tw.table, tw.entry})
			}
		}
	}
}

// tableWordsByFirstByte are tableWords by first byte, by table and entry.
var tableWordsByFirstByte = sync.OnceValue(func() *[256][]tableWord {
	idx := new([256][]tableWord)
	for _, w := range tableWords() {
		idx[w.word[0]] = append(idx[w.word[0]], w)
	}
	return idx
})
