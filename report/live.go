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

	"github.com/robowatch/robowatch/detect"
	"github.com/robowatch/robowatch/logparse"
)

// LiveView is the terminal screen of a follow run (-F on a terminal): the
// headline counts, the top robots, the open incidents, the latest
// violations and what happened to the files, redrawn in place at every
// Summary to fit the window as it is then. It is a detect.Events, told of
// findings as they come; its methods are called from one goroutine.
// Close it before the final report: it gives the terminal its screen back.
type LiveView struct {
	w     io.Writer
	opt   Options
	on    bool // the alternate screen is in use
	open  []detect.Incident
	viol  []detect.Violation // the latest, oldest first
	notes []string           // the latest file notices, oldest first
}

// liveKeep is how many violations and notices the view remembers.
const (
	liveViolations = 20
	liveNotes      = 5
)

// NewLiveView returns a LiveView drawing on w (a terminal).
func NewLiveView(w io.Writer, opt Options) *LiveView { return &LiveView{w: w, opt: opt} }

// Robot is part of detect.Events: the robots table reads the detector's
// counts at each redraw.
func (v *LiveView) Robot(detect.Verdict) {}

// Violation remembers the latest violations.
func (v *LiveView) Violation(x detect.Violation) {
	v.viol = append(v.viol, x)
	if len(v.viol) > liveViolations {
		v.viol = slices.Delete(v.viol, 0, len(v.viol)-liveViolations)
	}
}

// Incident adds an open incident.
func (v *LiveView) Incident(in detect.Incident) { v.open = append(v.open, in) }

// IncidentEnd takes a closed incident off the open ones.
func (v *LiveView) IncidentEnd(in detect.Incident) {
	v.open = slices.DeleteFunc(v.open, func(o detect.Incident) bool { return o.IP == in.IP && o.UserAgent == in.UserAgent })
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
func (v *LiveView) Summary(live detect.Live, stats logparse.Stats) {
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
// headline always, then each list as far as room allows.
func (v *LiveView) render(live detect.Live, stats logparse.Stats, width, height int) []string {
	fitLine := func(s string) string { return cutPlain(s, width) }
	out := []string{
		fitLine(fmt.Sprintf("robowatch -F   log time %s   (Ctrl-C ends with the report)", clock(live.Time))),
		fitLine(fmt.Sprintf("%s records  %s clients  %s robots  %s violations  %s incidents (%d open)  %s malformed",
			Exact(live.Records), Exact(live.Clients), Exact(live.Robots), Exact(live.Violations), Exact(live.Incidents), len(v.open), Exact(stats.Malformed))),
	}
	room := height - len(out)
	section := func(title string, header string, rows []string, want int) {
		if room < 3 || len(rows) == 0 {
			return
		}
		n := min(len(rows), want, room-2)
		out = append(out, "", fitLine(title+"  "+header))
		for _, r := range rows[:n] {
			out = append(out, fitLine(r))
		}
		room -= n + 2
	}
	var robots []string
	for _, r := range live.TopRobots {
		robots = append(robots, fmt.Sprintf("%-28s %-12s %-10s %7s %9s %6s %4d",
			Cut(r.Name, 28), Cut(r.Operator, 12), r.Identity, Count(int64(r.Clients)), Count(r.Requests), Count(r.Violations), r.Incidents))
	}
	section("ROBOTS", fmt.Sprintf("%-20s %-12s %-10s %7s %9s %6s %4s", "", "OPERATOR", "IDENTITY", "CLIENTS", "REQUESTS", "VIOL", "INC"), robots, 10)
	var open []string
	for _, in := range slices.Backward(v.open) {
		open = append(open, fmt.Sprintf("%-39s %-20s since %s  %6s requests  peak %d/s",
			Cut(in.IP, 39), Cut(in.Name, 20), clock(in.Start), Count(in.Requests), in.PeakPerSecond))
	}
	section("OPEN INCIDENTS", "", open, 5)
	var viol []string
	for _, x := range slices.Backward(v.viol) {
		viol = append(viol, fmt.Sprintf("%s  %-15s %-16s %s (line %d)  %s",
			clock(x.Time), Cut(x.IP, 39), Cut(x.Name, 16), Cut(x.Rule, 40), x.Line, Cut(x.Path, 200)))
	}
	section("LATEST VIOLATIONS", "", viol, 8)
	section("FILES", "", slices.Collect(slices.Values(v.notes)), liveNotes)
	return out
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
