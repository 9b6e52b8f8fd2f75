package report

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/mattn/go-runewidth"
	"golang.org/x/term"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

// LiveView is the terminal screen of a follow run (-F on a terminal): the
// headline counts, the top robots, the open incidents, the latest
// violations and what happened to the files, redrawn in place at every
// Summary to fit the window as it is then. It is a findings.Events, told of
// findings as they come; its methods are called from one goroutine.
// Close it before the final report: it gives the terminal its screen back.
type LiveView struct {
	w     io.Writer
	opt   Options
	on    bool // the alternate screen is in use
	open  []findings.Incident
	viol  []findings.Violation // the latest, oldest first
	notes []string             // the latest file notices, oldest first
}

// liveKeep is how many violations and notices the view remembers.
const (
	liveViolations = 20
	liveNotes      = 5
)

// NewLiveView returns a LiveView drawing on w (a terminal).
func NewLiveView(w io.Writer, opt Options) *LiveView { return &LiveView{w: w, opt: opt} }

// Robot is part of findings.Events: the robots table reads the detector's
// counts at each redraw.
func (v *LiveView) Robot(findings.Verdict) {}

// Violation remembers the latest violations.
func (v *LiveView) Violation(x findings.Violation) {
	v.viol = append(v.viol, x)
	if len(v.viol) > liveViolations {
		v.viol = slices.Delete(v.viol, 0, len(v.viol)-liveViolations)
	}
}

// Incident adds an open incident.
func (v *LiveView) Incident(in findings.Incident) { v.open = append(v.open, in) }

// IncidentEnd takes a closed incident off the open ones.
func (v *LiveView) IncidentEnd(in findings.Incident) {
	v.open = slices.DeleteFunc(v.open, func(o findings.Incident) bool { return o.IP == in.IP && o.UserAgent == in.UserAgent })
}

func (v *LiveView) note(s string) {
	v.notes = append(v.notes, s)
	if len(v.notes) > liveNotes {
		v.notes = v.notes[1:]
	}
}

// File notes what happened to a followed file.
func (v *LiveView) File(t time.Time, kind, file string) {
	v.note(fmt.Sprintf("%s  %s %s", clock(t), file, kind))
}

// Error notes an input error.
func (v *LiveView) Error(t time.Time, kind, file, message string) {
	v.note(fmt.Sprintf("%s  %s: %s", clock(t), file, message))
}

// Malformed is counted in the headline; the lines are in the final report.
func (v *LiveView) Malformed(time.Time, *logparse.ParseError) {}

// Summary redraws the screen.
func (v *LiveView) Summary(live findings.Live, stats logparse.Stats) {
	width, height := v.size()
	lines := v.render(live, stats, width, height)
	b := bufio.NewWriter(v.w)
	if !v.on {
		v.on = true
		b.WriteString("\x1b[?1049h") // the alternate screen: the shell's scrollback stays as it was
	}
	b.WriteString("\x1b[H")
	for i, l := range lines {
		if i > 0 {
			b.WriteString("\r\n")
		}
		b.WriteString(l)
		b.WriteString("\x1b[K")
	}
	b.WriteString("\x1b[J")
	b.Flush()
}

// Close gives the terminal its screen back.
func (v *LiveView) Close() error {
	if v.on {
		v.on = false
		_, err := io.WriteString(v.w, "\x1b[?1049l")
		return err
	}
	return nil
}

// size is the window's size now; a resized window is fitted at the next
// redraw.
func (v *LiveView) size() (width, height int) {
	width, height = v.opt.Width, 24
	if f, ok := v.w.(*os.File); ok {
		if w, h, err := term.GetSize(int(f.Fd())); err == nil && w > 0 && h > 0 {
			width, height = w, h
		}
	}
	if width <= 0 {
		width = DefaultWidth
	}
	return max(width, 20), max(height, 5)
}

// render lays the view out in at most height lines of width columns: the
// headline always, then each list as far as room allows. Columns are as
// wide as what they show now, and counts are exact, so that at 100
// columns no name, address or count is cut: what gives way to a narrow
// window is the end of a line, a violation's path and rule.
func (v *LiveView) render(live findings.Live, stats logparse.Stats, width, height int) []string {
	fitLine := func(s string) string { return cutPlain(s, width) }
	out := []string{fitLine(fmt.Sprintf("robowatch -F   log time %s   (Ctrl-C ends with the report)", clock(live.Time)))}
	// The counts wrap rather than lose the last of them to the edge.
	counts := []string{Exact(live.Records) + " records", Exact(live.Clients) + " clients", Exact(live.Robots) + " robots",
		Exact(live.Violations) + " violations", fmt.Sprintf("%s incidents (%d open)", Exact(live.Incidents), len(v.open)), Exact(stats.Malformed) + " malformed"}
	line := ""
	for _, c := range counts {
		if line != "" && runewidth.StringWidth(line)+2+runewidth.StringWidth(c) > width {
			out = append(out, fitLine(line))
			line = ""
		}
		if line != "" {
			line += "  "
		}
		line += c
	}
	out = append(out, fitLine(line))
	room := height - len(out)
	section := func(title string, rows []string, want int) {
		if room < 3 || len(rows) == 0 {
			return
		}
		n := min(len(rows), want, room-2)
		out = append(out, "", fitLine(title))
		for _, r := range rows[:n] {
			out = append(out, fitLine(r))
		}
		room -= n + 2
	}
	robots := [][]string{{"ROBOTS", "OPERATOR", "IDENTITY", "CLIENTS", "REQUESTS", "VIOL", "INC"}}
	for _, r := range live.TopRobots {
		robots = append(robots, []string{Cut(r.Name, 40), Cut(r.Operator, 24), Escape(r.Identity),
			Exact(int64(r.Clients)), Exact(r.Requests), Exact(r.Violations), Exact(int64(r.Incidents))})
	}
	if rows := columns(robots, []bool{false, false, false, true, true, true, true}); len(rows) > 1 {
		section(rows[0], rows[1:], 10)
	}
	day := func(t time.Time) string { // the date only when it is not the log clock's
		if t.Format(time.DateOnly) == live.Time.Format(time.DateOnly) {
			return t.Format(time.TimeOnly)
		}
		return clock(t)
	}
	var open [][]string
	for _, in := range slices.Backward(v.open) {
		open = append(open, []string{Cut(in.IP, 39), Cut(in.Name, 40),
			fmt.Sprintf("%s requests  peak %s/s  since %s", Exact(in.Requests), Exact(int64(in.PeakPerSecond)), day(in.Start))})
	}
	section("OPEN INCIDENTS", columns(open, nil), 5)
	var viol [][]string
	for _, x := range slices.Backward(v.viol) {
		viol = append(viol, []string{day(x.Time), Cut(x.IP, 39), Cut(x.Name, 40),
			fmt.Sprintf("%s  %s (line %d)", Cut(x.Path, 40), Cut(x.Rule, 40), x.Line)})
	}
	section("LATEST VIOLATIONS", columns(viol, nil), 8)
	section("FILES", slices.Collect(slices.Values(v.notes)), liveNotes)
	return out
}

// columns lines up rows of escaped cells, two spaces apart, each column
// as wide as its widest cell; right[i] aligns column i to the right. The
// last column is not padded.
func columns(rows [][]string, right []bool) []string {
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], runewidth.StringWidth(c))
		}
	}
	lines := make([]string, 0, len(rows))
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r {
			if i > 0 {
				b.WriteString("  ")
			}
			pad := strings.Repeat(" ", widths[i]-runewidth.StringWidth(c))
			switch {
			case i < len(right) && right[i]:
				b.WriteString(pad + c)
			case i == len(r)-1:
				b.WriteString(c)
			default:
				b.WriteString(c + pad)
			}
		}
		lines = append(lines, strings.TrimRight(b.String(), " "))
	}
	return lines
}

// cutPlain shortens an already escaped line to width columns.
func cutPlain(s string, width int) string {
	s = strings.TrimRight(s, " ")
	if runewidth.StringWidth(s) <= width {
		return s
	}
	return runewidth.Truncate(s, width, "…")
}

// clock is a log time as the view shows it.
func clock(t time.Time) string {
	if t.IsZero() {
		return "--:--:--"
	}
	return t.Format("2006-01-02 15:04:05")
}
