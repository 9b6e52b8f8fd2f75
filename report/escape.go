package report

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

// Escape returns s with everything that could act on a terminal made
// visible: C0 and C1 control characters, DEL, invalid UTF-8, and the
// invisible Unicode format characters (bidi overrides and isolates,
// zero-width characters) that can reorder or hide text. Log lines are written
// by whoever sends a request, so every log-derived string passes through here
// before it reaches a person.
func Escape(s string) string {
	i := 0
	for i < len(s) && s[i] >= 0x20 && s[i] < 0x7f {
		i++
	}
	if i == len(s) {
		return s // the common case: printable ASCII, no allocation
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			b.WriteByte(c)
			i++
			continue
		}
		if c < utf8.RuneSelf {
			writeByteEscape(&b, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			writeByteEscape(&b, c)
			i++
			continue
		}
		if invisible(r) {
			h := strconv.FormatInt(int64(r), 16)
			if r > 0xffff {
				b.WriteString(`\U`)
				b.WriteString(strings.Repeat("0", 8-len(h)))
			} else {
				b.WriteString(`\u`)
				b.WriteString(strings.Repeat("0", 4-len(h)))
			}
			b.WriteString(h)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func writeByteEscape(b *strings.Builder, c byte) {
	switch c {
	case '\t':
		b.WriteString(`\t`)
	case '\n':
		b.WriteString(`\n`)
	case '\r':
		b.WriteString(`\r`)
	default:
		const hex = "0123456789abcdef"
		b.WriteString(`\x`)
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&0xf])
	}
}

// invisible reports whether r is a control or format character that a
// terminal would act on or not show: C1 controls, bidi embeddings, overrides
// and isolates, zero-width characters, line and paragraph separators,
// fillers and variation selectors.
func invisible(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f: // C1 controls, including CSI (0x9b) and OSC (0x9d)
		return true
	case r == 0xad, r == 0x61c, r == 0x180e:
		return true
	case r >= 0x200b && r <= 0x200f: // zero-width space, joiners, LRM, RLM
		return true
	case r >= 0x2028 && r <= 0x202e: // separators, bidi embeddings and overrides
		return true
	case r >= 0x2060 && r <= 0x206f: // word joiner, invisible operators, bidi isolates
		return true
	case r == 0xfeff: // byte-order mark / zero-width no-break space
		return true
	case r >= 0xfff9 && r <= 0xfffb: // interlinear annotation
		return true
	}
	// Every other format character: tag characters (U+E0000 block) spell
	// text no one sees, and the rest are as invisible. So are the other
	// default-ignorable ones (Hangul fillers, the combining grapheme
	// joiner) and variation selectors: two User-agents differing only in
	// them would look the same.
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) || unicode.Is(unicode.Variation_Selector, r)
}

// Cut escapes s and shortens it to at most width terminal columns, marking a
// cut with "…". A width of 0 or less means no limit.
func Cut(s string, width int) string {
	s = Escape(s)
	if width <= 0 || runewidth.StringWidth(s) <= width {
		return s
	}
	return runewidth.Truncate(s, width, "…")
}

// Address is a client address for display: escaped as Escape does, and
// "-", as the log wrote it, for a record that gave none (Gunicorn behind a
// Unix socket), rather than an empty cell.
func Address(ip string) string {
	if ip == "" {
		return "-"
	}
	return Escape(ip)
}
