package agents

import (
	"strings"
	"testing"
)

func TestPairSetMayStart(t *testing.T) {
	var s pairSet
	for _, w := range []string{"bot", "chrome/", "x"} {
		s.add(w)
	}
	tests := []struct {
		lower string
		i     int
		want  bool
	}{
		{"googlebot/2.1", 6, true},  // "bo"
		{"googlebot/2.1", 0, false}, // "go"
		{"mozilla chrome/1", 8, true},
		{"mozilla chrome/1", 9, false}, // "hr"
		{"axe", 1, true},               // a one-byte word starts every pair
		{"ab", 1, true},                // the last byte: left to the caller
		{"", 0, true},
	}
	for _, tt := range tests {
		if got := s.mayStart(tt.lower, tt.i); got != tt.want {
			t.Errorf("mayStart(%q, %d) = %v, want %v", tt.lower, tt.i, got, tt.want)
		}
	}
}

// The scans that skip by pairs answer what plain searches answer, on every
// labelled User-agent and a few made to sit at the edges.
func TestScansSkipNothing(t *testing.T) {
	bots, browsers := loadLabelledAgents(t)
	uas := append(append([]string{
		"", "b", "bot", "Mozilla/5.0 Chrome/", "x chrome/", "Opera Mini", "Mozilla/5.0 (compatible) Safari/",
	}, bots...), browsers...)
	for _, ua := range uas {
		lower := strings.ToLower(ua)
		wantFamily, wantOK := "", false
		for _, f := range browserFamilies {
			if strings.Contains(lower, f.token) {
				wantFamily, wantOK = f.family, true
				break
			}
		}
		if got, ok := browserFamily(textOf(lower)); got != wantFamily || ok != wantOK {
			t.Errorf("browserFamily(%q) = %q, %v; want %q, %v", lower, got, ok, wantFamily, wantOK)
		}
		var want *agentToken
		for i := 0; i < len(lower) && want == nil; i++ {
			if i > 0 && uaLetter(lower[i-1]) {
				continue
			}
			for j := range agentTokens {
				tok := &agentTokens[j]
				if strings.HasPrefix(lower[i:], tok.token) && !compared(lower, i) && tok.what != runtimeClient {
					if want == nil || len(tok.token) > len(want.token) {
						want = tok
					}
				}
			}
		}
		if got, _ := findToken(textOf(lower)); want != nil && got != want {
			t.Errorf("findToken(%q) = %v, want %v", lower, got, want)
		}
	}
}
