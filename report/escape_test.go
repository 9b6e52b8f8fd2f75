package report

import (
	"testing"

	"github.com/mattn/go-runewidth"
)

func TestEscape(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "Mozilla/5.0 (X11)", "Mozilla/5.0 (X11)"},
		{"empty", "", ""},
		{"CSI colour", "a\x1b[31mred", `a\x1b[31mred`},
		{"OSC title", "\x1b]0;pwned\x07x", `\x1b]0;pwned\x07x`},
		{"backspace", "admin\x08\x08\x08\x08\x08guest", `admin\x08\x08\x08\x08\x08guest`},
		{"tab newline cr", "a\tb\nc\rd", `a\tb\nc\rd`},
		{"DEL and NUL", "\x7f\x00", `\x7f\x00`},
		{"invalid UTF-8", "caf\xe9", `caf\xe9`},
		{"TLS handshake", "\x16\x03\x01\x02", `\x16\x03\x01\x02`},
		{"C1 CSI", "a\u009b31mb", `a\u009b31mb`},
		{"bidi override", "abc\u202edcba", `abc\u202edcba`},
		{"bidi isolate", "x\u2066y\u2069", `x\u2066y\u2069`},
		{"zero width", "goo\u200bgle", `goo\u200bgle`},
		{"Hangul fillers", "bot\u115f\u3164", `bot\u115f\u3164`},
		{"grapheme joiner and variation selector", "a\u034fb\ufe0f", `a\u034fb\ufe0f`},
		{"non-ASCII letters kept", "Grüße 日本", "Grüße 日本"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Escape(tt.in)
			if got != tt.want {
				t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
			}
			for _, r := range got {
				if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
					t.Errorf("Escape(%q) left control %U", tt.in, r)
				}
			}
		})
	}
}

func TestCut(t *testing.T) {
	tests := []struct {
		in    string
		width int
		want  string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"a longer string", 8, "a longe…"},
		{"\x1b[2J", 0, `\x1b[2J`},
		{"日本語テキスト", 7, "日本語…"},
	}
	for _, tt := range tests {
		got := Cut(tt.in, tt.width)
		if got != tt.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", tt.in, tt.width, got, tt.want)
		}
		if tt.width > 0 && runewidth.StringWidth(got) > tt.width {
			t.Errorf("Cut(%q, %d) is %d columns wide", tt.in, tt.width, runewidth.StringWidth(got))
		}
	}
}

// TestAddress: a client address is shown escaped, and a record that gave
// none ("-" in the log: Gunicorn behind a Unix socket) as "-", not as an
// empty cell or "(first )".
func TestAddress(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "-"},
		{"203.0.113.9", "203.0.113.9"},
		{"2001:db8::7", "2001:db8::7"},
		{"evil\x1b[31mhost", Escape("evil\x1b[31mhost")},
	}
	for _, tt := range tests {
		if got := Address(tt.in); got != tt.want {
			t.Errorf("Address(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
