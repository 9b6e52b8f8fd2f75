package report

import (
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/mattn/go-runewidth"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// section is one titled table of a report, in a form every text style can
// render: cells are already escaped for a terminal.
type section struct {
	name   string   // the --section name
	title  string   // the heading people read
	header []string // column names
	right  []bool   // right-align this column (numbers)
	flex   []bool   // this column may be cut to fit the width (free text from the log)
	drop   []int    // on a narrow screen, columns are left out in this order (1 first); 0: never
	minw   []int    // the narrowest a flexible column is cut to; 0 or nil: minFlex
	rows   [][]string
	notes  []string // lines under the table: what was cut, what was not computed
}

// style renders sections.
type style func(w io.Writer, s *section, opt Options) error

// timeLayout shows times in the log's own zone, to the second.
const timeLayout = "2006-01-02 15:04:05 -0700"

// timeLayout is the layout of times in table rows: on a narrow terminal
// the year and zone (both in the summary) give way to the columns that
// tell rows apart.
func (o Options) timeLayout() string {
	if o.Width > 0 && o.Width < 120 {
		return "Jan _2 15:04:05"
	}
	return timeLayout
}

func writeText(w io.Writer, r *Report, opt Options, render style) error {
	for _, s := range sections(r, opt) {
		if !opt.wants(s.name) {
			continue
		}
		if err := render(w, s, opt); err != nil {
			return err
		}
	}
	return nil
}

// sections builds every section of the report in order.
func sections(r *Report, opt Options) []*section {
	return append([]*section{
		summarySection(r),
		robotsSection(r, opt),
		clientsSection(r, opt),
		violationsSection(r, opt),
		incidentsSection(r, opt),
		malformedSection(r),
	}, clientSections(r, opt)...)
}

func summarySection(r *Report) *section {
	res := r.Result
	s := &section{name: "summary", title: "Summary", header: []string{"", ""}, flex: []bool{false, true}}
	add := func(k, v string) { s.rows = append(s.rows, []string{k, v}) }
	names := make([]string, len(r.Files))
	for i, f := range r.Files {
		names[i] = f
		if f == "-" {
			names[i] = "(standard input)"
		}
	}
	files := strings.Join(names, ", ")
	if r.Reordered {
		files += " (read oldest first)"
	}
	add("Input", Escape(files))
	format := r.Stats.Format
	if format == "" {
		format = "(none: no lines)"
	}
	add("Format", Escape(format))
	if r.Window != "" {
		add("Window", r.Window+" ("+Exact(r.Outside)+" records outside it left out)")
	}
	add("Lines", Exact(r.Stats.Lines))
	add("Records", Exact(r.Stats.Records))
	add("Malformed", Exact(r.Stats.Malformed)+percent(r.Stats.Malformed, r.Stats.Lines))
	if first, last := r.span(); !first.IsZero() {
		add("Time span", first.Format(timeLayout)+" to "+last.Format(timeLayout)+" ("+Duration(last.Sub(first))+")")
	}
	if res.ClientsEstimated {
		add("Clients", "about "+Count(res.DistinctClients)+" (IP + User-agent; "+Exact(int64(res.Clients.Len()))+" tracked one by one)")
	} else {
		add("Clients", Exact(res.DistinctClients)+" (IP + User-agent)")
	}
	add("Robots", fmt.Sprintf("%s clients, %s names", Exact(int64(res.RobotCount)), Exact(int64(len(res.Robots)))))
	if res.ViolationsChecked {
		add("Violations", Exact(res.ViolationCount)+" (robots.txt: "+Escape(strings.Join(r.Robots, ", "))+")")
		if res.Unchecked > 0 {
			add("Not checked", Exact(res.Unchecked)+" records of hosts with no robots.txt given (--robots HOST=FILE)")
		}
	} else {
		add("Violations", "not checked (no --robots given)")
	}
	add("Incidents", Exact(int64(res.IncidentCount))+" rapid-fire")
	if res.FutureRecords > 0 {
		add("Future records", Count(res.FutureRecords)+" dated after today (forged or corrupt?): counted, not in rates or the time span")
	}
	if res.LateRecords > 0 {
		add("Late records", Count(res.LateRecords)+" too far out of time order for the rate windows")
	}
	if res.Other.Clients > 0 {
		add("Other", fmt.Sprintf("about %s of the lightest clients folded together (--max-clients): %s requests",
			Count(res.Other.Clients), Count(res.Other.Requests)))
	}
	for _, e := range r.Errors {
		add("Error", Escape(e))
	}
	if r.Partial {
		add("Partial", "interrupted: the report covers only what was read")
	}
	return s
}

func robotsSection(r *Report, opt Options) *section {
	s := &section{
		name: "robots", title: "Robots (by name)",
		header: []string{"Robot", "Clients", "Requests", "Violations", "robots.txt", "Signals", "Disallowed prefixes"},
		right:  []bool{false, true, true, true, false, false, false},
		flex:   []bool{true, false, false, false, true, true, true},
		drop:   []int{0, 2, 0, 0, 0, 1, 3},
	}
	robots := r.Result.Robots
	n := opt.top(len(robots))
	for _, b := range robots[:n] {
		fetched := "not fetched"
		if b.FetchedRobotsTxt {
			fetched = "fetched"
		}
		if b.Finding != "" {
			fetched = b.Finding
		}
		viol := Count(b.Violations)
		if !r.Result.ViolationsChecked {
			viol = "-"
		}
		var prefixes []string
		for _, p := range b.Prefixes {
			prefixes = append(prefixes, p.Prefix+" ("+Count(p.Count)+")")
		}
		s.rows = append(s.rows, []string{Escape(b.Name), Count(int64(b.Clients)), Count(b.Requests), viol,
			fetched, reasonCounts(b.Reasons), Escape(strings.Join(prefixes, ", "))})
	}
	s.notes = cutNote(n, len(robots), "robot names")
	if len(robots) == 0 {
		s.notes = append(s.notes, "No robots found.")
	}
	return s
}

func clientsSection(r *Report, opt Options) *section {
	s := &section{
		name: "clients", title: "Clients (by requests)",
		header: []string{"Client", "Robot", "Name", "Score", "Requests", "Peak 1s/10s/60s", "robots.txt", "Violations", "Signals", "User-agent"},
		right:  []bool{false, false, false, true, true, true, true, true, false, false},
		flex:   []bool{true, false, true, false, false, false, false, false, true, true},
		drop:   []int{0, 0, 6, 2, 0, 3, 1, 4, 5, 0},
		minw:   []int{ipWidth, 0, 0, 0, 0, 0, 0, 0, 0, 0},
	}
	clients := &r.Result.Clients
	n := opt.top(clients.Len())
	for _, c := range clients.Head(n) {
		robot := "no"
		if c.Robot {
			robot = "yes"
		}
		viol := Count(c.Violations)
		if !r.Result.ViolationsChecked {
			viol = "-"
		}
		s.rows = append(s.rows, []string{Escape(c.IP), robot, Escape(c.Name), strconv.Itoa(c.Score), Count(c.Requests),
			fmt.Sprintf("%d/%d/%d", c.Peak.Per1s, c.Peak.Per10s, c.Peak.Per60s), Count(c.RobotsTxtFetches), viol,
			strings.Join(c.Reasons, ","), uaCell(c.UserAgent)})
	}
	s.notes = cutNote(n, clients.Len(), "clients")
	return s
}

func violationsSection(r *Report, opt Options) *section {
	s := &section{
		name: "violations", title: "robots.txt violations",
		header: []string{"Time", "Client", "Robot", "Method", "Path", "Status", "Group", "Rule"},
		right:  []bool{false, false, false, false, false, true, false, false},
		flex:   []bool{false, true, true, false, true, false, true, true},
		drop:   []int{0, 0, 4, 2, 0, 3, 1, 0},
		minw:   []int{0, ipWidth, 0, 0, 0, 0, 0, 0},
	}
	res := r.Result
	if !res.ViolationsChecked {
		s.notes = append(s.notes, "Not checked: give the site's robots.txt with --robots FILE|URL.")
		return s
	}
	n := opt.top(res.Violations.Len())
	for _, v := range res.Violations.Head(n) {
		s.rows = append(s.rows, []string{v.Time.Format(opt.timeLayout()), Escape(v.IP), Escape(v.Name), Escape(v.Method),
			Escape(v.Path), strconv.Itoa(v.Status), Escape(v.Group), fmt.Sprintf("line %d: %s", v.Line, Escape(v.Rule))})
	}
	s.notes = cutNote(n, res.Violations.Len(), "stored violations")
	if res.ViolationsDropped > 0 {
		s.notes = append(s.notes, fmt.Sprintf("%s more violations were counted but not stored (per-client limit).", Count(res.ViolationsDropped)))
	}
	if res.ViolationCount == 0 {
		s.notes = append(s.notes, "No robot requested a disallowed path.")
	}
	return s
}

func incidentsSection(r *Report, opt Options) *section {
	s := &section{
		name: "incidents", title: "Rapid-fire incidents",
		header: []string{"Start", "Length", "Client", "Robot", "Requests", "Peak/s", "Paths", "2xx/3xx/4xx/5xx", "Bytes"},
		right:  []bool{false, true, false, false, true, true, true, true, true},
		flex:   []bool{false, false, true, true, false, false, false, false, false},
		drop:   []int{0, 4, 0, 5, 0, 0, 3, 1, 2},
		minw:   []int{0, 0, ipWidth, 0, 0, 0, 0, 0, 0},
	}
	res := r.Result
	n := opt.top(len(res.Incidents))
	for _, in := range res.Incidents[:n] {
		paths := Count(int64(in.Paths))
		if in.PathsCapped {
			paths += "+"
		}
		st := in.Status
		s.rows = append(s.rows, []string{in.Start.Format(opt.timeLayout()), Duration(time.Duration(in.Seconds) * time.Second),
			Escape(in.IP), Escape(in.Name), Count(in.Requests), strconv.Itoa(in.PeakPerSecond), paths,
			fmt.Sprintf("%d/%d/%d/%d", st.S2xx, st.S3xx, st.S4xx, st.S5xx), Bytes(in.Bytes)})
	}
	s.notes = cutNote(n, len(res.Incidents), "incidents")
	if res.IncidentCount == 0 {
		s.notes = append(s.notes, "No client went above the rate threshold.")
	}
	return s
}

func malformedSection(r *Report) *section {
	s := &section{
		name: "malformed", title: "Malformed lines",
		header: []string{"Where", "Reason", "Line"},
		flex:   []bool{false, true, true},
	}
	for _, e := range r.Stats.Samples {
		s.rows = append(s.rows, []string{Escape(e.File) + ":" + strconv.FormatInt(e.Line, 10), Escape(reason(e)), Escape(e.Text)})
	}
	if m := r.Stats.Malformed; m > int64(len(s.rows)) {
		s.notes = append(s.notes, fmt.Sprintf("%s malformed lines in all; the first %d are shown.", Count(m), len(s.rows)))
	}
	if r.Stats.Malformed == 0 {
		s.notes = append(s.notes, "Every line parsed.")
	}
	return s
}

func uaCell(ua string) string {
	if ua == "" {
		return "(empty)"
	}
	return Escape(ua)
}

func reasonCounts(m map[string]int) string {
	var parts []string
	for _, k := range []string{"robots-txt", "rate", "user-agent", "behaviour"} {
		if m[k] > 0 {
			parts = append(parts, k)
		}
	}
	return strings.Join(parts, ",")
}

func percent(n, of int64) string {
	if n == 0 || of == 0 {
		return ""
	}
	p := 100 * float64(n) / float64(of)
	if p < 10 {
		return fmt.Sprintf(" (%.2g%%)", p)
	}
	if n < of {
		p = min(p, 99) // 99.8% is not "100%": some lines did parse
	}
	return fmt.Sprintf(" (%.0f%%)", p)
}

func cutNote(shown, all int, what string) []string {
	if shown < all {
		return []string{fmt.Sprintf("%d of %s %s shown (--top).", shown, Count(int64(all)), what)}
	}
	return nil
}

// minFlex is the narrowest a flexible column is cut to, and roomyFlex the
// width it is given before columns are left out for it.
const (
	minFlex   = 8
	roomyFlex = 16
	ipWidth   = 39 // the longest IPv6 address: an address is never cut
)

// fit makes s fit in width columns of text (borders and padding included):
// first it leaves out columns, in the section's drop order, until what
// remains fits with room for its free text, then it cuts the flexible
// columns, widest first. Left-out columns are named in a note. Cells are
// already escaped, so cutting cannot split an escape into something a
// terminal acts on.
func fit(s *section, width, perColumn int) {
	if width <= 0 || len(s.header) == 0 {
		return
	}
	widths := make([]int, len(s.header))
	for i, h := range s.header {
		widths[i] = runewidth.StringWidth(h)
	}
	for _, row := range s.rows {
		for i, c := range row {
			widths[i] = max(widths[i], runewidth.StringWidth(c))
		}
	}
	// floor is the narrowest column i may become, given a default for
	// flexible columns.
	floor := func(i, flexDefault int) int {
		if !s.flex[i] {
			return widths[i]
		}
		m := flexDefault
		if s.minw != nil && s.minw[i] > 0 {
			m = s.minw[i]
		}
		return min(widths[i], max(m, runewidth.StringWidth(s.header[i])))
	}
	keep := make([]bool, len(widths))
	need := 1
	for i := range keep {
		keep[i] = true
		need += floor(i, roomyFlex) + perColumn
	}
	var left []string
	for rank := 1; need > width && rank <= len(s.drop); rank++ {
		for i, r := range s.drop {
			if r == rank && keep[i] {
				keep[i] = false
				need -= floor(i, roomyFlex) + perColumn
				left = append(left, s.header[i])
			}
		}
	}
	if len(left) > 0 {
		s.header, s.right, s.flex, s.minw, widths = kept(s.header, keep), kept(s.right, keep), kept(s.flex, keep), kept(s.minw, keep), kept(widths, keep)
		for r, row := range s.rows {
			s.rows[r] = kept(row, keep)
		}
		s.notes = append(s.notes, fmt.Sprintf("Not shown at %d columns: %s.", width, strings.Join(left, ", ")))
	}

	total := perColumn*len(widths) + 1
	for _, w := range widths {
		total += w
	}
	// One column at a time, the widest that may still be cut: the free
	// text columns end up about as wide as one another.
	for total > width {
		widest := -1
		for i, w := range widths {
			if w > floor(i, minFlex) && (widest < 0 || w > widths[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			break // nothing left to cut: the table is wider than the screen
		}
		widths[widest]--
		total--
	}
	for _, row := range s.rows {
		for i, c := range row {
			if runewidth.StringWidth(c) > widths[i] {
				row[i] = runewidth.Truncate(c, widths[i], "…")
			}
		}
	}
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

// ANSI attributes for headings and warnings. Only robowatch's own text is
// coloured: table cells are not, since the table's width arithmetic would
// count the escapes.
const (
	ansiBold  = "\x1b[1m"
	ansiReset = "\x1b[0m"
)

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
	title := s.title
	if opt.Color {
		title = ansiBold + title + ansiReset
	}
	if _, err := fmt.Fprintf(w, "%s\n", title); err != nil {
		return err
	}
	if len(s.rows) > 0 {
		fit(s, opt.Width, 3)
		align := make([]tw.Align, len(s.header))
		for i := range align {
			align[i] = tw.AlignLeft
			if s.right != nil && s.right[i] {
				align[i] = tw.AlignRight
			}
		}
		opts := []tablewriter.Option{
			tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{Symbols: tw.NewSymbols(tw.StyleLight)})),
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
		if _, err := fmt.Fprintf(w, "%s\n", wrap(n, opt.Width)); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w)
	return err
}

// wrap breaks text into lines of at most width columns at spaces; a width
// of 0 or less leaves it whole.
func wrap(text string, width int) string {
	if width <= 0 || runewidth.StringWidth(text) <= width {
		return text
	}
	var b strings.Builder
	line := 0
	for i, word := range strings.Fields(text) {
		w := runewidth.StringWidth(word)
		if i > 0 && line+1+w > width {
			b.WriteByte('\n')
			line = 0
		} else if i > 0 {
			b.WriteByte(' ')
			line++
		}
		b.WriteString(word)
		line += w
	}
	return b.String()
}

func markdownStyle(w io.Writer, s *section, opt Options) error {
	var b strings.Builder
	b.WriteString("## " + s.title + "\n\n")
	if len(s.rows) > 0 {
		header := s.header
		if header[0] == "" {
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
			for _, c := range row {
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
// HTML: pipes, backticks, emphasis and angle brackets are escaped.
func mdCell(s string) string {
	if !strings.ContainsAny(s, "|\\`*_<>[]#") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '|', '\\', '`', '*', '_', '[', ']', '#':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
