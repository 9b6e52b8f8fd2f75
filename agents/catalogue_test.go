package agents

import (
	"strings"
	"testing"
)

// TestLookup: the big crawlers from robowatch's own table, the AI crawlers
// from ai.robots.txt's list, each with operator and purpose.
func TestLookup(t *testing.T) {
	tests := []struct {
		name, operator, purpose string
		known                   bool
	}{
		{"Googlebot", "Google", "search", true},
		{"GPTBot", "OpenAI", "ai-training", true},
		{"ChatGPT-User", "OpenAI", "ai-assistant", true},
		{"AI2Bot", "Ai2", "ai-training", true}, // from the list only
		{"Firefox", "", "", false},
	}
	for _, tt := range tests {
		e, ok := Lookup(tt.name)
		if ok != tt.known || e.Operator != tt.operator || e.Purpose != tt.purpose {
			t.Errorf("Lookup(%q) = %+v, %v; want %q, %q, %v", tt.name, e, ok, tt.operator, tt.purpose, tt.known)
		}
	}
	if n := len(catalogue()); n < 100 {
		t.Errorf("the built-in catalogue has %d entries", n)
	}
}

// TestLoadCatalogueBad: a malformed entry is an error naming file and line.
func TestLoadCatalogueBad(t *testing.T) {
	tests := []struct{ text, want string }{
		{"# comment\nGoodBot\tOp\tsearch\thttps://x.example/\nBadBot\tOp\tsearch\n", "c.tsv:3: want name, operator, purpose and URL"},
		{"Bot\tOp\tworld-domination\t\n", `c.tsv:1: purpose "world-domination"`},
		{"Bot\tOp\tsearch\tjavascript:alert(1)\n", `c.tsv:1: URL "javascript:alert(1)"`},
	}
	for _, tt := range tests {
		if _, err := LoadCatalogue(strings.NewReader(tt.text), "c.tsv"); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("LoadCatalogue(%q): %v, want %q", tt.text, err, tt.want)
		}
	}
}
