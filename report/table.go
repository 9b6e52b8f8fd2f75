package report

import (
	"fmt"
	"io"
	"net/netip"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-runewidth"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/pkg/twwidth"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// tablewriter makes its cache of text widths at init, a map sized for
// widthCacheSize entries: 640 kB live through every run, in the heap the
// collector's headroom is counted on, though most runs write no table.
// It is dropped at init and made again by the first table drawn.
const widthCacheSize = 8192 // tablewriter's own size (twwidth)

var widthCache sync.Once

func init() { twwidth.SetCacheCapacity(0) }

// DefaultWidth is the width terminal tables are fitted to when none is
// known (Options.Width 0: the output is no terminal, $COLUMNS is not set
// and no --width was given), as under cron or in a pipe. Such a report is
// read in a mail or a file: 100 columns show a mail client's usual window
// whole, and keep the rows one might otherwise get (as wide as the longest
// User-agent: 900 columns for a 700-character one) from wrapping into
// unreadable hash. A wider terminal, or --width, shows more.
const DefaultWidth = 100

// Widths a terminal table is fitted with.
const (
	minFlex   = 8   // the narrowest a flexible column is cut to
	roomyFlex = 16  // the width a flexible column is given before columns are left out for it
	keepWidth = 39  // the longest IPv6 address: what tells rows apart is wrapped only past it, never cut
	wideTimes = 120 // from this width on, times in lists keep their year and zone

	// Widths columns are planned at (section.plan), whatever a log holds.
	planAddress = -1 // an address: an IPv4 one's 15 columns under wideTimes (an IPv6 one wraps), from it on an IPv6 one's
	nameWidth   = 16 // a robot's or browser's name; "unnamed (203.0.113.0/24)" wraps
	uaWidth     = 19 // a User-agent cut to "Mozilla/5.0 (compat…" still says something
)

// ANSI attributes for headings and for cells whose colour means something
// (see tone). Colour is added after the table is fitted: the fitting counts
// columns of text, and tablewriter skips the escapes when it pads.
const (
	ansiBold  = "\x1b[1m"
	ansiRed   = "\x1b[31m"
	ansiBrown = "\x1b[33m" // yellow on most terminals
	ansiReset = "\x1b[0m"
)

// toneColors is the colour of each tone: red for robots.txt violations,
// yellow for rapid-fire incidents, bold red for impostors.
var toneColors = [...]string{toneViolation: ansiRed, toneIncident: ansiBrown, toneImpostor: ansiBold + ansiRed}

// tableStyle draws sections as terminal tables, reusing one
// tablewriter.Table for all of them: a new Table, and each Reset of one,
// allocates a stringer cache of hundreds of kilobytes (a map for 10,240
// types), and a drill-down into thousands of clients draws thousands of
// tables. The rows are strings already, so the cache is replaced by one
// that keeps nothing.
type tableStyle struct {
	t *tablewriter.Table
}

// noStringerCache is a tablewriter stringer cache that keeps nothing.
type noStringerCache struct{}

func (noStringerCache) Add(reflect.Type, reflect.Value) bool   { return false }
func (noStringerCache) Get(reflect.Type) (reflect.Value, bool) { return reflect.Value{}, false }
func (noStringerCache) Purge()                                 {}

func (ts *tableStyle) render(w io.Writer, s *section, opt Options) error {
	width := opt.Width
	if width <= 0 {
		width = DefaultWidth
	}
	title := wrapText(s.title, width) // a drill-down's names an IPv6 address: 54 columns
	if opt.Color {
		title = ansiBold + title + ansiReset
	}
	if _, err := fmt.Fprintf(w, "%s\n", title); err != nil {
		return err
	}
	if len(s.rows) > 0 {
		widthCache.Do(func() { twwidth.SetCacheCapacity(widthCacheSize) })
		if width < wideTimes {
			shortenTimes(s)
		}
		stack(s)
		fit(s, width, 3)
		// A list whose rows take several lines needs a rule between them
		// to show where a row ends; a key-value table shows it by its key.
		between := tw.Off
		if s.header[0] != "" && multiline(s) {
			between = tw.On
		}
		if opt.Color {
			colour(s)
		}
		align := make([]tw.Align, len(s.header))
		for i := range align {
			align[i] = tw.AlignLeft
			if s.right != nil && s.right[i] {
				align[i] = tw.AlignRight
			}
		}
		opts := []tablewriter.Option{
			tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{
				Symbols:  tw.NewSymbols(tw.StyleLight),
				Settings: tw.Settings{Separators: tw.Separators{BetweenRows: between}},
			})),
			tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: align}),
			tablewriter.WithHeaderAlignment(tw.AlignLeft),
			tablewriter.WithHeaderAutoFormat(tw.Off),
			tablewriter.WithRowAutoWrap(tw.WrapNone),
			tablewriter.WithTrimSpace(tw.Off),
			tablewriter.WithStringerCacheCustom(noStringerCache{}),
		}
		if ts.t == nil {
			ts.t = tablewriter.NewTable(w, opts...)
		} else {
			ts.t.Reset()
			ts.t.Options(opts...)
		}
		t := ts.t
		if s.header[0] != "" {
			t.Header(s.header)
		}
		for _, row := range s.rows {
			if err := t.Append(row); err != nil {
				return err
			}
		}
		if err := t.Render(); err != nil {
			return err
		}
	}
	for _, n := range s.notes {
		if _, err := fmt.Fprintf(w, "%s\n", wrapText(n, width)); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w)
	return err
}

// shortenTimes writes the times of s's time columns (whole, in timeLayout)
// without year and zone.
func shortenTimes(s *section) {
	for i := range s.header {
		if s.when == nil || !s.when[i] {
			continue
		}
		for _, row := range s.rows {
			if t, err := time.Parse(timeLayout, row[i]); err == nil {
				row[i] = t.Format(shortTimeLayout)
			}
		}
	}
}

// stack merges each column that goes under another (section.under) into
// that column's cells, one line each, and names the merged column after
// both: "Client / robot". The merged column is left out, cut or kept as the
// column on top is.
func stack(s *section) {
	if s.under == nil {
		return
	}
	var tops []int // the columns that stay, in order
	at := make([]int, len(s.header))
	for i, u := range s.under {
		if u == 0 {
			at[i] = len(tops)
			tops = append(tops, i)
		}
	}
	for i, u := range s.under {
		if u > 0 {
			at[i] = at[u-1]
		}
	}
	header := make([]string, len(tops))
	for i, h := range s.header {
		if s.under[i] == 0 {
			header[at[i]] = h
		} else {
			header[at[i]] += " / " + strings.ToLower(h[:1]) + h[1:]
		}
	}
	for r, row := range s.rows {
		cells := make([]string, len(tops))
		for i, c := range row {
			if s.under[i] == 0 {
				cells[at[i]] = c
			} else {
				cells[at[i]] += "\n" + c
			}
		}
		s.rows[r] = cells
		if r < len(s.tones) && s.tones[r] != nil {
			tones := make([]tone, len(tops))
			for i, t := range s.tones[r] {
				tones[at[i]] = max(tones[at[i]], t)
			}
			s.tones[r] = tones
		}
	}
	keep := make([]bool, len(s.header))
	for _, i := range tops {
		keep[i] = true
	}
	s.header = header
	s.right, s.flex, s.keep, s.when = kept(s.right, keep), kept(s.flex, keep), kept(s.keep, keep), kept(s.when, keep)
	s.drop, s.after, s.minw, s.plan, s.under = kept(s.drop, keep), kept(s.after, keep), kept(s.minw, keep), kept(s.plan, keep), nil
}

// cellWidth is the width of a cell's widest line.
func cellWidth(c string) int {
	if !strings.Contains(c, "\n") {
		return runewidth.StringWidth(c)
	}
	w := 0
	for line := range strings.SplitSeq(c, "\n") {
		w = max(w, runewidth.StringWidth(line))
	}
	return w
}

// multiline reports whether a row of s takes more than one line.
func multiline(s *section) bool {
	for _, row := range s.rows {
		for _, c := range row {
			if strings.Contains(c, "\n") {
				return true
			}
		}
	}
	return false
}

// kept returns the elements of list whose keep is true; a nil list stays nil.
func kept[T any](list []T, keep []bool) []T {
	if list == nil {
		return nil
	}
	out := make([]T, 0, len(list))
	for i, v := range list {
		if keep[i] {
			out = append(out, v)
		}
	}
	return out
}

// colour paints the cells whose colour means something, line by line so
// that each line of a cell resets what it set.
func colour(s *section) {
	for r, tones := range s.tones {
		for i, t := range tones {
			if t == toneNone {
				continue
			}
			lines := strings.Split(s.rows[r][i], "\n")
			for j, line := range lines {
				if line != "" {
					lines[j] = toneColors[t] + line + ansiReset
				}
			}
			s.rows[r][i] = strings.Join(lines, "\n")
		}
	}
}

// wrapAddress is wrapText for a cell that may be an IP address: an address
// is broken after a ':' or '.', so that no piece reads as an address of its
// own ("2001:db8::1234:567" and "8" would be two).
func wrapAddress(text string, width int) string {
	if width < 2 || len(text) <= width {
		return wrapText(text, width)
	}
	if _, err := netip.ParseAddr(text); err != nil {
		return wrapText(text, width)
	}
	var lines []string
	for len(text) > width {
		cut := strings.LastIndexAny(text[:width], ":.")
		if cut <= 0 {
			cut = width - 1
		}
		lines, text = append(lines, text[:cut+1]), text[cut+1:]
	}
	return strings.Join(append(lines, text), "\n")
}

// wrapText breaks text into lines of at most width columns, at spaces
// where it can and inside a word wider than a line (a User-agent, a path,
// an address). Spaces inside a line are kept as they are ("May  6"); a
// line break takes the place of one. A width of 0 or less leaves text
// whole.
func wrapText(text string, width int) string {
	if width <= 0 || runewidth.StringWidth(text) <= width {
		return text
	}
	var b strings.Builder
	line := 0 // width of the line being written
	for i, word := range strings.Split(text, " ") {
		w := runewidth.StringWidth(word)
		switch {
		case i == 0:
		case line+1+w <= width:
			b.WriteByte(' ')
			line++
		case word == "":
			continue // a space where the line breaks
		default:
			b.WriteByte('\n')
			line = 0
		}
		if line+w <= width {
			b.WriteString(word)
			line += w
			continue
		}
		// A word wider than a line: broken wherever the line is full. A
		// rune of width 0 (a combining mark) stays with the one before it.
		for _, r := range word {
			rw := runewidth.RuneWidth(r)
			if line > 0 && line+rw > width {
				b.WriteByte('\n')
				line = 0
			}
			b.WriteRune(r)
			line += rw
		}
	}
	return b.String()
}
