package report

import (
	"io"
	"strings"

	"github.com/mattn/go-runewidth"
)

// mdMaxText is the longest a cell of free text (a User-agent, a path, a
// rule, a malformed line) is in a Markdown list, in columns: Markdown has no
// width, as it goes to mail and tickets that wrap it, but a 500-character
// User-agent in each row would bury the table. 160 keeps every common
// browser and crawler User-agent whole; longer text ends in "…". Key-value
// sections (the summary, a client's drill-down) are written whole, one fact
// a row, and so are addresses, names and times.
const mdMaxText = 160

func markdownStyle(w io.Writer, s *section, opt Options) error {
	var b strings.Builder
	b.WriteString("## " + s.title + "\n\n")
	if len(s.rows) > 0 {
		header := s.header
		list := header[0] != ""
		if !list {
			header = []string{"", ""}
		}
		b.WriteString("|")
		for _, h := range header {
			b.WriteString(" " + mdCell(h) + " |")
		}
		b.WriteString("\n|")
		for i := range header {
			if s.right != nil && s.right[i] {
				b.WriteString(" ---: |")
			} else {
				b.WriteString(" --- |")
			}
		}
		b.WriteString("\n")
		for _, row := range s.rows {
			b.WriteString("|")
			for i, c := range row {
				free := s.flex != nil && s.flex[i] && (s.keep == nil || !s.keep[i])
				if list && free && runewidth.StringWidth(c) > mdMaxText {
					c = runewidth.Truncate(c, mdMaxText, "…")
				}
				b.WriteString(" " + mdCell(c) + " |")
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	for _, n := range s.notes {
		b.WriteString(mdCell(n) + "\n\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdCell keeps a cell from breaking the table or being read as Markdown or
// HTML: pipes, backticks, emphasis, strikethrough, angle brackets and
// ampersands are escaped. An unescaped '&' began a character reference:
// "&lt;b&gt;" in a User-agent rendered as "<b>", and "&rlm;" or "&zwj;" put
// back the invisible characters Escape had made visible.
//
// It also keeps GitHub-flavoured Markdown from making links of the text:
// its autolink extension links "http://", "https://" and "ftp://" URLs,
// "www." names and e-mail addresses in plain text, so a User-agent's
// "+https://evil.example/phish" would be a link in a mailed report. The colon
// of a scheme before "//" and the dot of "www." are escaped, which ends
// those. An e-mail address is found in the text after escapes are undone
// ("bot\@evil.example" and "bot&#64;evil.example" are still links), so each
// run of '@' is written as a code span of its own: the address is then
// split in two texts, neither a link, and "@name" is no mention either.
func mdCell(s string) string {
	if !strings.ContainsAny(s, "|\\`*_~<>[]#&:@wW") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '|', '\\', '`', '*', '_', '~', '[', ']', '#':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case ':':
			if i > 0 && asciiLetter(s[i-1]) && strings.HasPrefix(s[i+1:], "//") {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		case '@':
			// A run of '@' in one span: "``" inside would be read as
			// a longer delimiter.
			j := i + 1
			for j < len(s) && s[j] == '@' {
				j++
			}
			b.WriteString("`" + s[i:j] + "`")
			i = j - 1
		case 'w', 'W':
			if len(s)-i >= 4 && strings.EqualFold(s[i:i+4], "www.") {
				b.WriteString(s[i : i+3])
				b.WriteString(`\.`)
				i += 3
				continue
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func asciiLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
