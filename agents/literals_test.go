package agents

import (
	"slices"
	"strings"
	"testing"
)

// TestEveryLiteralIndexed classifies every probe and requires each literal
// the rules ask of a text to be one the one pass found (textLiterals):
// one left out is searched for, right but at the cost the index saves.
// Literals under three bytes cannot be indexed and are asked only where a
// byte class rules most strings out ("${" after a '$').
func TestEveryLiteralIndexed(t *testing.T) {
	missed := map[string]int{}
	onUnindexedLiteral = func(lit string) {
		if len(lit) >= 3 {
			missed[lit]++
		}
	}
	defer func() { onUnindexedLiteral = nil }()
	var c Classifier
	spent := Classifier{parserBytes: MaxParserBytes, reserveBytes: MaxReserveBytes}
	for _, ua := range pairFilterProbes(t) {
		c.ClassifyUncached(ua)
		spent.ClassifyUncached(ua)
	}
	for _, lit := range slices.Sorted(func(yield func(string) bool) {
		for lit := range missed {
			if !yield(lit) {
				return
			}
		}
	}) {
		t.Errorf("literal %q asked %d times is not in textLiterals", lit, missed[lit])
	}
}

// TestLiteralsFoundWhereTheyAre holds the one pass's literals to
// strings.Index on every probe: found where they first begin, and only
// there.
func TestLiteralsFoundWhereTheyAre(t *testing.T) {
	var c Classifier
	lits := textLiterals()
	for _, ua := range pairFilterProbes(t) {
		if len(ua) > MaxLen {
			ua = ua[:MaxLen]
		}
		x := c.read(ua)
		for _, lit := range lits {
			id := x.words.lits.find(lit, literalHash(lit))
			if id < 0 {
				t.Fatalf("%q is not in the index", lit)
			}
			got := -1
			if x.found[id>>6]&(1<<(id&63)) != 0 {
				got = int(x.first[id])
			}
			if want := strings.Index(x.lower, lit); got != want {
				t.Fatalf("%q: %q found at %d, strings.Index says %d", ua, lit, got, want)
			}
			if got2 := x.index(lit); got2 != got {
				t.Fatalf("%q: index(%q) = %d, the pass found it at %d", ua, lit, got2, got)
			}
		}
	}
}

// TestLongTextLiterals: a text longer than uaText.hits can place (textOf's
// callers pass any length) still finds a literal past its first MiB.
func TestLongTextLiterals(t *testing.T) {
	ua := strings.Repeat("x", maxHitText) + " Chrome/99.0 Mozilla/"
	x := textOf(ua)
	if got, want := x.index("chrome/"), strings.Index(x.lower, "chrome/"); got != want {
		t.Errorf("index(chrome/) = %d, want %d", got, want)
	}
	if v, ok := x.versionAfter("chrome/"); !ok || v != 99 {
		t.Errorf("versionAfter(chrome/) = %d, %v, want 99, true", v, ok)
	}
}
