package agents

import (
	"cmp"
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
// and most of a browser's three-byte runs hit an empty one.

// The tables, as wordMatch.table says.
const (
	tableTokens uint8 = iota
	tableCatalogue
	tableRoles
	tableFamilies
)

// tableWord is one word of the tables: entry is its index in its table.
type tableWord struct {
	word  string
	table uint8
	entry uint16
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

// trigramHash is the bucket of the three bytes in the low 24 bits of w.
func trigramHash(w uint32) uint32 {
	return (w & 0xffffff) * 0x9e3779b1 >> (32 - trigramBits)
}

// wordIndex holds every table word by the hash of its first three bytes:
// the words of bucket h are words[start[h]:start[h+1]], by table and by
// entry within it, so that the matches at one byte come in table order.
type wordIndex struct {
	start [1<<trigramBits + 1]uint16
	words []tableWord
}

// tableWords are the words of the four tables, by table and entry.
func tableWords() []tableWord {
	var ws []tableWord
	for i, t := range agentTokens {
		ws = append(ws, tableWord{t.token, tableTokens, uint16(i)})
	}
	for i, name := range catalogueNames() {
		ws = append(ws, tableWord{name, tableCatalogue, uint16(i)})
	}
	for i, w := range agentRoleWords {
		ws = append(ws, tableWord{w.word, tableRoles, uint16(i)})
	}
	for i, f := range browserFamilies {
		ws = append(ws, tableWord{f.token, tableFamilies, uint16(i)})
	}
	return ws
}

// tableWordIndex is the index of tableWords, built on first use (the
// catalogue is read then).
var tableWordIndex = sync.OnceValue(func() *wordIndex {
	ws := tableWords()
	hash := func(w string) uint32 {
		if len(w) < 3 {
			panic("agents: table word " + w + " is shorter than three bytes")
		}
		return trigramHash(uint32(w[0])<<16 | uint32(w[1])<<8 | uint32(w[2]))
	}
	// A stable sort keeps table and entry order within a bucket.
	slices.SortStableFunc(ws, func(a, b tableWord) int { return cmp.Compare(hash(a.word), hash(b.word)) })
	x := &wordIndex{words: ws}
	for _, w := range ws {
		x.start[hash(w.word)+1]++
	}
	for h := 1; h < len(x.start); h++ {
		x.start[h] += x.start[h-1]
	}
	return x
})

// findWords appends to t.matches every table word that t.lower holds, by
// position and at each position in table order.
func (t *uaText) findWords(x *wordIndex) {
	l := t.lower
	if len(l) < 3 {
		return
	}
	w := uint32(l[0])<<8 | uint32(l[1])
	for i := 2; i < len(l); i++ {
		w = w<<8 | uint32(l[i])
		h := trigramHash(w)
		lo, hi := x.start[h], x.start[h+1]
		if lo == hi {
			continue
		}
		at := i - 2
		for _, tw := range x.words[lo:hi] {
			if strings.HasPrefix(l[at:], tw.word) {
				t.matches = append(t.matches, wordMatch{int32(at), tw.table, tw.entry})
			}
		}
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
