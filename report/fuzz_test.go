package report

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

// FuzzEscape checks that whatever a log line carries, Escape and Cut give
// text that cannot act on a terminal: valid UTF-8 without C0 or C1
// controls, DEL, or invisible format characters (bidi overrides, zero-width
// and tag characters), and Cut stays within its width.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{
		"", "Mozilla/5.0 (X11)", "a\x1b[31mred\x1b[0m", "\x1b]0;pwned\x07", "\x1b]8;;http://x/\x1b\\link\x1b]8;;\x1b\\",
		"admin\x08\x08\x08\x08\x08guest", "\x00\x7f\xff\xfe", "a\u009b31mb", "abc\u202edcba", "x\u2066y\u2069",
		"goo\u200bgle", "Grüße 日本 🤖", "tag\U000e0041\U000e0042", "caf\xe9", "\xed\xa0\x80", "\xf4\x90\x80\x80",
		"\u0600\u061c\ufeff\ufff9", strings.Repeat("界", 40),
	} {
		f.Add(s, 20)
	}
	f.Fuzz(func(t *testing.T, s string, width int) {
		width %= 200
		for _, out := range []string{Escape(s), Cut(s, width)} {
			if !utf8.ValidString(out) {
				t.Fatalf("%q: output %q is not valid UTF-8", s, out)
			}
			for _, r := range out {
				if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || unicode.Is(unicode.Cf, r) ||
					r == 0x2028 || r == 0x2029 {
					t.Fatalf("%q: output %q keeps %U", s, out, r)
				}
			}
		}
		if esc := Escape(s); isPlain(s) != (esc == s) {
			t.Fatalf("%q: Escape changed printable text or kept something else: %q", s, esc)
		}
		if cut := Cut(s, width); width > 0 && runewidth.StringWidth(cut) > width {
			t.Fatalf("Cut(%q, %d) = %q is %d columns wide", s, width, cut, runewidth.StringWidth(cut))
		}
	})
}

// isPlain reports whether s is text Escape must leave as it is: valid UTF-8
// with no rune it escapes.
func isPlain(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || invisible(r) {
			return false
		}
	}
	return true
}
