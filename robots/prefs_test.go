package robots

import (
	"strings"
	"testing"
)

// TestPreferences: what a robot is told of a path by Content-Signal and
// Content-Usage lines, each syntax in a group or before any.
func TestPreferences(t *testing.T) {
	cases := []struct {
		name, file, agent, path string
		want                    Usage
		line                    int // of the line for ai-training; 0 for none
	}{
		{"cloudflare managed", "User-agent: *\nContent-Signal: search=yes,ai-train=no,use=reference\nAllow: /\n", "GPTBot", "/a",
			Usage{Train: PrefNo, Search: PrefYes}, 2},
		{"content-signal with spaces", "User-Agent: *\nContent-Signal: ai-train=no, search=yes, ai-input=no\nAllow: /\n", "ClaudeBot", "/",
			Usage{Train: PrefNo, Input: PrefNo, Search: PrefYes}, 2},
		{"content-signal before any group", "Content-Signal: ai-train=no\nUser-agent: *\nDisallow: /private/\n", "CCBot", "/a",
			Usage{Train: PrefNo}, 1},
		{"content-signal with a path", "User-agent: *\nContent-Signal: /blog/ ai-train=no\n", "GPTBot", "/shop/",
			Usage{}, 0},
		{"content-usage longest path wins", "User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: / train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n", "GPTBot", "/ai-ok/test",
			Usage{Train: PrefYes}, 5},
		{"content-usage root", "User-Agent: *\nAllow: /\nContent-Usage: / train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n", "GPTBot", "/test",
			Usage{Train: PrefNo}, 3},
		{"content-usage named group", "User-Agent: *\nContent-Usage: / train-ai=n\n\nUser-Agent: ExampleBot\nAllow: /\nContent-Usage: / train-ai=y\n", "ExampleBot/1.0", "/x",
			Usage{Train: PrefYes}, 6},
		{"same path: most restrictive", "User-agent: *\nContent-Usage: /a/ train-ai=y\nContent-Usage: /a/ train-ai=n\n", "GPTBot", "/a/b",
			Usage{Train: PrefNo}, 3},
		{"both syntaxes: most restrictive", "User-agent: *\nContent-Signal: ai-train=yes\nContent-Usage: / train-ai=n\n", "GPTBot", "/a",
			Usage{Train: PrefNo}, 3},
		{"content-usage parameters ignored", "User-agent: *\nContent-Usage: / train-ai;x=1=n, search=y\n", "GPTBot", "/a",
			Usage{Search: PrefYes}, 0},
		{"content-usage wildcard path", "User-agent: *\nContent-Usage: /*.pdf$ train-ai=n\n", "GPTBot", "/docs/a.pdf",
			Usage{Train: PrefNo}, 2},
		{"upper case content-usage key states nothing", "User-agent: *\nContent-Usage: / Train-AI=n\nAllow: /\n", "GPTBot", "/a",
			Usage{}, 0},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			r := ParseBytes([]byte(tt.file))
			got, lines := r.Agent(tt.agent).Preferences(tt.path)
			if got != tt.want {
				t.Errorf("Preferences(%q) = %+v, want %+v", tt.path, got, tt.want)
			}
			line := 0
			if pr := lines.For("ai-training", got); pr != nil {
				line = pr.Line
			}
			if line != tt.line {
				t.Errorf("line = %d, want %d", line, tt.line)
			}
		})
	}
}

// TestPreferencesKeepGroups: a preference line between a group's
// User-agent lines and its rules must not split the group, as Cloudflare
// writes it.
func TestPreferencesKeepGroups(t *testing.T) {
	r := ParseBytes([]byte("User-agent: GPTBot\nContent-Signal: ai-train=no\nUser-agent: CCBot\nDisallow: /\n"))
	if len(r.Groups) != 1 || len(r.Groups[0].Agents) != 2 {
		t.Fatalf("groups = %d, want one of two agents", len(r.Groups))
	}
	if ok, _ := r.Allowed("GPTBot", "/a"); ok {
		t.Error("GPTBot may fetch /a; the group's Disallow: / should hold it")
	}
}

func TestDeclines(t *testing.T) {
	cases := []struct {
		usage   string
		purpose string
		want    bool
	}{
		{"train-ai=n", "ai-training", true},
		{"train-ai=n", "search", false},
		{"train-ai=y", "ai-training", false},
		{"search=n", "search", true},
		{"ai-use=n", "ai-search", true},
		{"ai-use=n", "ai-assistant", false}, // what a user provides directly is left out
		{"", "ai-training", false},
		{"train-ai=\"n\"", "ai-training", false}, // a string, not a token: unknown
	}
	for _, tt := range cases {
		if got := ParseUsage(tt.usage).Declines(tt.purpose); got != tt.want {
			t.Errorf("ParseUsage(%q).Declines(%q) = %v, want %v", tt.usage, tt.purpose, got, tt.want)
		}
	}
	if !(Usage{Input: PrefNo}).Declines("ai-assistant") || !(Usage{Input: PrefNo}).Declines("ai-search") {
		t.Error("ai-input=no should decline AI search and assistants")
	}
}

func TestLintPreferences(t *testing.T) {
	cases := []struct {
		name, file, want, says string
	}{
		{"clean signal", "User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n", "", ""},
		{"clean usage", "User-agent: *\nAllow: /\nContent-Usage: / train-ai=n\n", "", ""},
		{"unknown signal key", "User-agent: *\nContent-Signal: ai-training=no\nAllow: /\n", "preference-key@2", `"ai-training"`},
		{"unknown signal value", "User-agent: *\nContent-Signal: ai-train=maybe\nAllow: /\n", "preference-value@2", "yes or no"},
		{"signal value y", "User-agent: *\nContent-Signal: ai-train=n\nAllow: /\n", "preference-value@2", "yes or no"},
		{"usage value no", "User-agent: *\nContent-Usage: / train-ai=no\nAllow: /\n", "preference-value@2", "y or n"},
		{"usage signal key", "User-agent: *\nContent-Usage: / ai-train=n\nAllow: /\n", "preference-key@2", "train-ai, ai-use, search"},
		{"usage upper case", "User-agent: *\nContent-Usage: / Train-AI=n\nAllow: /\n", "preference-key@2", "lower case"},
		{"usage without path", "User-agent: *\nContent-Usage: train-ai=n\nAllow: /\n", "content-usage-path@2", `"Content-Usage: / train-ai=n"`},
		{"empty", "User-agent: *\nContent-Signal:\nAllow: /\n", "empty-preference@2", "states no preference"},
		{"bad use", "User-agent: *\nContent-Signal: use=all\nAllow: /\n", "preference-value@2", "immediate"},
		{"search=yes where all are disallowed", "User-agent: *\nDisallow: /\nContent-Signal: search=yes\n", "preference-disallowed@3", `line 2 ("Disallow: /")`},
		{"allowance under a disallowed path", "User-agent: *\nDisallow: /private/\nContent-Usage: /private/ train-ai=y\n", "preference-disallowed@3", "/private/"},
		{"global allowance, star disallows", "Content-Signal: search=yes\nUser-agent: *\nDisallow: /\n", "preference-disallowed@1", "all robots"},
		{"a decline where disallowed is no contradiction", "User-agent: *\nDisallow: /\nContent-Signal: ai-train=no\n", "", ""},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			ps := Lint(ParseBytes([]byte(tt.file)))
			if got := codes(ps); got != tt.want {
				t.Fatalf("codes = %q, want %q (%v)", got, tt.want, ps)
			}
			if tt.says != "" && !strings.Contains(ps[0].Message+ps[0].Suggestion, tt.says) {
				t.Errorf("message %q lacks %q", ps[0].Message+" / "+ps[0].Suggestion, tt.says)
			}
		})
	}
}
