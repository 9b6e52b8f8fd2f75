package report

import (
	"io"
	"strings"

	"github.com/mattn/go-runewidth"
)

// plainGap is the space between two columns of a plain-text list.
const plainGap = "  "

// plainStyle writes a section as plain text, for mail (-o text): a title
// underlined, columns lined up with spaces, no box drawing (which a mail
// client in a proportional font turns into a maze), no colour and no
// Markdown escapes ("http\://www\.google.com" in a mail client that does
// not render Markdown). The columns are those the terminal table shows at
// the same width: fitted the same way, so daily mails compare.
func plainStyle(w io.Writer, s *section, opt Options) error {
	width := opt.Width
	if width <= 0 {
		width = DefaultWidth
	}
	var b strings.Builder
	title := wrapText(s.title, width)
	b.WriteString(title + "\n")
	b.WriteString(strings.Repeat("=", min(width, cellWidth(title))) + "\n")
	if len(s.rows) > 0 {
		if width < wideTimes {
			shortenTimes(s)
		}
		stack(s)
		// Fitted as the table is, borders and all: the same columns as
		// the terminal shows at this width, in a column or two less.
		fit(s, width, 3)
		list := s.header[0] != ""
		widths := make([]int, len(s.header))
		for i, h := range s.header {
			if list {
				widths[i] = runewidth.StringWidth(h)
			}
		}
		for _, row := range s.rows {
			for i, c := range row {
				widths[i] = max(widths[i], cellWidth(c))
			}
		}
		right := func(i int) bool { return s.right != nil && s.right[i] }
		line := func(cells []string) {
			n := 1
			for _, c := range cells {
				n = max(n, strings.Count(c, "\n")+1)
			}
			lines := make([][]string, len(cells))
			for i, c := range cells {
				lines[i] = strings.Split(c, "\n")
			}
			for j := range n {
				var l strings.Builder
				for i := range cells {
					c := ""
					if j < len(lines[i]) {
						c = lines[i][j]
					}
					pad := strings.Repeat(" ", widths[i]-runewidth.StringWidth(c))
					if i > 0 {
						l.WriteString(plainGap)
					}
					if right(i) {
						l.WriteString(pad + c)
					} else {
						l.WriteString(c + pad)
					}
				}
				b.WriteString(strings.TrimRight(l.String(), " ") + "\n")
			}
		}
		if list {
			line(s.header)
			rules := make([]string, len(widths))
			for i, w := range widths {
				rules[i] = strings.Repeat("-", w)
			}
			line(rules)
		}
		// Rows of several lines need a blank line between them to show
		// where a row ends, as the table draws a rule.
		between := list && multiline(s)
		for r, row := range s.rows {
			if between && r > 0 {
				b.WriteString("\n")
			}
			line(row)
		}
		if between && len(s.notes) > 0 {
			b.WriteString("\n") // a note is no row
		}
	}
	for _, n := range s.notes {
		b.WriteString(wrapText(n, width) + "\n")
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}
