package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mattn/go-runewidth"
)

// fit makes s fit in width columns of text (borders and padding included).
//
// First it chooses the columns: it leaves out columns, in the section's
// drop order, until what remains fits at the widths the columns are
// planned at (section.plan). The plan does not depend on the log, so the
// same width shows the same columns every day, and daily reports compare;
// the widths the day's values need would show a User-agent one day and
// not the next. Left-out columns are named in a note.
//
// Then it narrows what the values need to the width: the free text,
// widest first, cut with "…" down to its minimum; then every column down
// to its plan, wrapped, not cut: what tells rows apart (section.keep:
// addresses, robot names) and the words of robowatch's own columns stay
// whole, on more lines; then, on a screen too narrow for even that, free
// text and names down to their headings. A key-value table (the summary,
// the drill-down) wraps its values too: each is one fact, read once.
// Cells are already escaped, so cutting cannot split an escape into
// something a terminal acts on.
func fit(s *section, width, perColumn int) {
	if width <= 0 || len(s.header) == 0 {
		return
	}
	plan := newColumnPlan(s, width)
	plan.choose(width, perColumn)
	cw := measureColumns(s, plan, width, perColumn)
	cw.narrow()
	// Wrapped first, then cut: a wrapped column may end narrower than
	// its width ("unnamed (192.0.2.0/24)" in 20 columns takes 15), and
	// the free text cut to make room for it takes that room back, the
	// narrowest first.
	cw.reshape(false)
	cw.settle()
	cw.reshape(true)
}

// isSet reports whether list, a per-column flag of a section, is set for
// column i; a nil list is set for none.
func isSet(list []bool, i int) bool { return list != nil && list[i] }

// columnPlan is the width each column of a section is planned at, which
// fit chooses the columns a width shows by.
type columnPlan struct {
	s            *section
	timeWidth    int // a time's width: with year and zone from wideTimes on
	addressWidth int // an address's width: an IPv6 one's from wideTimes on
}

func newColumnPlan(s *section, width int) columnPlan {
	p := columnPlan{s: s, timeWidth: len(timeLayout), addressWidth: keepWidth}
	if width < wideTimes {
		p.timeWidth = len(shortTimeLayout) // shortTimes wrote them so
		p.addressWidth = len("255.255.255.255")
	}
	return p
}

// width is the width column i is planned at: never less than its
// heading. Unless the section says: a time its layout's, an address
// or a name the longest IPv6 address, free text roomyFlex or its
// minimum, others their heading.
func (p columnPlan) width(i int) int {
	s := p.s
	h := runewidth.StringWidth(s.header[i])
	switch {
	case s.plan != nil && s.plan[i] == planAddress:
		return max(p.addressWidth, h)
	case s.plan != nil && s.plan[i] > 0:
		return max(s.plan[i], h)
	case isSet(s.when, i):
		return max(p.timeWidth, h)
	case isSet(s.keep, i):
		return max(keepWidth, h)
	case isSet(s.flex, i):
		if s.minw != nil && s.minw[i] > 0 {
			return max(s.minw[i], h)
		}
		return max(roomyFlex, h)
	}
	return h
}

// choose leaves out columns of the section, in its drop order, until what
// remains fits in width at the planned widths, and names them in a note.
func (p columnPlan) choose(width, perColumn int) {
	s := p.s
	keep := make([]bool, len(s.header))
	sum := 1
	for i := range keep {
		keep[i] = true
		sum += p.width(i) + perColumn
	}
	var out []int // columns left out, in the order they went
	for rank := 1; sum > width && rank <= len(s.drop); rank++ {
		for i, r := range s.drop {
			if r == rank && keep[i] {
				keep[i] = false
				sum -= p.width(i) + perColumn
				out = append(out, i)
			}
		}
	}
	// Leaving out a wide column may make room for a narrower one left out
	// before it: the last to go come back first, unless a column that
	// ranks above it (section.after) stays out.
	for j := len(out) - 1; j >= 0; j-- {
		if i := out[j]; sum+p.width(i)+perColumn <= width && !outranked(s, keep, i) {
			keep[i] = true
			sum += p.width(i) + perColumn
		}
	}
	var left []string
	for _, i := range out {
		if !keep[i] {
			left = append(left, s.header[i])
		}
	}
	if len(left) > 0 {
		s.keepColumns(keep)
		s.notes = append(s.notes, fmt.Sprintf("Not shown at %d columns: %s.", width, strings.Join(left, ", ")))
	}
}

// outranked reports whether column i must stay out because a column of
// drop rank s.after[i] or more is out.
func outranked(s *section, keep []bool, i int) bool {
	if s.after == nil || s.after[i] == 0 {
		return false
	}
	for j, r := range s.drop {
		if !keep[j] && r >= s.after[i] {
			return true
		}
	}
	return false
}

// columnWidths is the width fit gives each of the columns it chose, from
// what their values need down to what the table's width allows.
type columnWidths struct {
	s        *section
	plan     columnPlan
	width    int   // the table's width, borders and padding included
	widths   []int // each column's width
	need     []int // what the values would take
	total    int   // the table's width at widths, borders and padding included
	keyValue bool  // the summary or a drill-down: its values are wrapped, never cut
}

// measureColumns starts each column at the width its heading and values
// need.
func measureColumns(s *section, plan columnPlan, width, perColumn int) *columnWidths {
	widths := make([]int, len(s.header))
	for i, h := range s.header {
		widths[i] = runewidth.StringWidth(h)
	}
	for _, row := range s.rows {
		for i, c := range row {
			widths[i] = max(widths[i], cellWidth(c))
		}
	}
	total := perColumn*len(widths) + 1
	for _, w := range widths {
		total += w
	}
	return &columnWidths{s: s, plan: plan, width: width, widths: widths, need: slices.Clone(widths), total: total, keyValue: s.header[0] == ""}
}

// narrow narrows the columns in three stages, each only as far as the
// width needs: free text to its minimum, then every column to its plan,
// then free text and names to their headings.
func (cw *columnWidths) narrow() {
	s := cw.s
	cw.narrowTo(func(i int) int {
		if isSet(s.flex, i) && !isSet(s.keep, i) {
			return cw.least(i)
		}
		return cw.widths[i]
	})
	cw.narrowTo(func(i int) int {
		switch {
		case isSet(s.flex, i) && !isSet(s.keep, i):
			return cw.least(i)
		case s.drop == nil && !isSet(s.keep, i):
			return cw.widths[i] // a table that chose no columns planned none
		}
		return cw.plan.width(i)
	})
	cw.narrowTo(func(i int) int {
		if isSet(s.keep, i) || isSet(s.flex, i) {
			return cw.heading(i)
		}
		return cw.widths[i]
	})
}

// narrowTo takes a column off the widest column above its floor, one
// column at a time, until the table fits: the free text columns end up
// about as wide as one another.
func (cw *columnWidths) narrowTo(floor func(i int) int) {
	for cw.total > cw.width {
		widest := -1
		for i, w := range cw.widths {
			if w > floor(i) && (widest < 0 || w > cw.widths[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			return
		}
		cw.widths[widest]--
		cw.total--
	}
}

// heading is the width of column i's heading, at least 1.
func (cw *columnWidths) heading(i int) int { return max(1, runewidth.StringWidth(cw.s.header[i])) }

// least is the narrowest free text is cut to.
func (cw *columnWidths) least(i int) int {
	if s := cw.s; s.minw != nil && s.minw[i] > 0 {
		return max(s.minw[i], cw.heading(i))
	}
	return max(minFlex, cw.heading(i))
}

// cut reports whether column i's values are cut with "…" rather than
// wrapped.
func (cw *columnWidths) cut(i int) bool {
	return isSet(cw.s.flex, i) && !isSet(cw.s.keep, i) && !cw.keyValue
}

// reshape makes the cells of the columns that are cut (cutting) or wrapped
// (!cutting) fit their column's width, line by line.
func (cw *columnWidths) reshape(cutting bool) {
	s := cw.s
	for _, row := range s.rows {
		for i, c := range row {
			if cw.cut(i) != cutting || cellWidth(c) <= cw.widths[i] {
				continue
			}
			lines := strings.Split(c, "\n")
			for j, line := range lines {
				switch {
				case runewidth.StringWidth(line) <= cw.widths[i]:
				case isSet(s.keep, i) || cw.keyValue && isSet(s.flex, i):
					lines[j] = wrapAddress(line, cw.widths[i])
				case cw.cut(i):
					lines[j] = runewidth.Truncate(line, cw.widths[i], "…")
				default:
					lines[j] = wrapText(line, cw.widths[i])
				}
			}
			row[i] = strings.Join(lines, "\n")
		}
	}
}

// settle gives each wrapped column the width its lines took, and the room
// that frees to the columns still to be cut, the narrowest first.
func (cw *columnWidths) settle() {
	s := cw.s
	for i := range cw.widths {
		if !cw.cut(i) && cw.widths[i] < cw.need[i] {
			w := runewidth.StringWidth(s.header[i])
			for _, row := range s.rows {
				w = max(w, cellWidth(row[i]))
			}
			cw.total -= cw.widths[i] - w
			cw.widths[i] = w
		}
	}
	for cw.total < cw.width {
		best := -1
		for i, w := range cw.widths {
			if cw.cut(i) && w < cw.need[i] && (best < 0 || w < cw.widths[best]) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		cw.widths[best]++
		cw.total++
	}
}
