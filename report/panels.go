package report

import (
	"fmt"
	"time"

	"github.com/robowatch/robowatch/findings"
)

// The panels an admin knows from GoAccess, of robots: requests per day
// robots against people, the answers robots got, the paths they asked for
// most. Each is a section of its own (--section traffic, status, paths).

// panelRobots is how many robots the paths section lists the paths of.
const panelRobots = 10

// pathsPerRobot is how many of its paths the paths section lists per robot.
const pathsPerRobot = 3

// trafficSection is the site's requests per day (per hour for a log of
// under two days), robots against people, from the timeline.
func trafficSection(r *Report) *section {
	tl := &r.Result.Timeline
	unit, layout := 24*time.Hour, "2006-01-02 Mon"
	if first, last := r.span(); last.Sub(first) < 48*time.Hour {
		unit, layout = time.Hour, "2006-01-02 15:04"
	}
	width := time.Duration(tl.BucketSeconds) * time.Second
	if width > unit {
		// A log of more than 200 days: its buckets are the finest there is.
		unit, layout = width, "2006-01-02 15:04"
	}
	what := "day"
	if unit == time.Hour {
		what = "hour"
	} else if unit != 24*time.Hour {
		what = per(unit)
	}
	s := &section{
		name: "traffic", title: "Requests per " + what + ": robots and people",
		header: []string{capitalize(what), "Requests", "Robots", "People", "Robots' share"},
		right:  []bool{false, true, true, true, true},
		keep:   []bool{true, false, false, false, false},
		drop:   []int{0, 1, 0, 3, 2},
	}
	type row struct {
		start                   time.Time
		requests, robots, human int64
	}
	var rows []row
	for i := range tl.Requests {
		at := tl.Start.Add(time.Duration(i) * width)
		day := truncateLocal(at, unit)
		if len(rows) == 0 || !rows[len(rows)-1].start.Equal(day) {
			rows = append(rows, row{start: day})
		}
		x := &rows[len(rows)-1]
		x.requests += tl.Requests[i]
		x.robots += at64(tl.Robots, i)
		x.human += at64(tl.Humans, i)
	}
	for i := 0; i < len(rows); i++ {
		x := rows[i]
		// A run of periods without a request is one row: a log with a
		// burst and weeks of silence is no page of zeros.
		j := i
		for j+1 < len(rows) && rows[j+1].requests == 0 && x.requests == 0 {
			j++
		}
		label := x.start.Format(layout)
		if j > i {
			label += " … " + rows[j].start.Format(layout)
		}
		s.rows = append(s.rows, []string{label, Count(x.requests), Count(x.robots), Count(x.human), hourShare(x.robots, x.requests)})
		i = j
	}
	if len(rows) == 0 {
		s.notes = append(s.notes, "No timed requests.")
	}
	if tl.Other != nil {
		s.notes = append(s.notes, "Requests of clients folded together (--max-clients) are in Requests only: neither robots nor people.")
	}
	return s
}

// truncateLocal is the start of the day (or hour) of t in t's own zone.
func truncateLocal(t time.Time, unit time.Duration) time.Time {
	if unit == 24*time.Hour {
		y, m, d := t.Date()
		return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
	}
	_, off := t.Zone()
	shift := time.Duration(off) * time.Second
	return t.Add(shift).Truncate(unit).Add(-shift)
}

func at64(s []int64, i int) int64 {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// statusSection is the answers robots got, all robots and people first,
// then each robot.
func statusSection(r *Report, opt Options) *section {
	s := &section{
		name: "status", title: "Answers to robots (status codes)",
		header: []string{"Robot", "Requests", "2xx", "3xx", "4xx", "404", "5xx", "Bytes"},
		right:  []bool{false, true, true, true, true, true, true, true},
		flex:   []bool{true, false, false, false, false, false, false, false},
		keep:   []bool{true, false, false, false, false, false, false, false},
		drop:   []int{0, 0, 4, 3, 0, 0, 2, 1},
	}
	res := r.Result
	add := func(name string, c findings.StatusCounts, requests, bytes string) {
		s.rows = append(s.rows, []string{name, requests, Count(c.S2xx), Count(c.S3xx), Count(c.S4xx), Count(c.NotFound), Count(c.S5xx), bytes})
	}
	p := &res.Panels
	add("All robots", p.RobotStatus, Count(p.RobotStatus.Total()), Bytes(res.RobotBytes))
	add("People", p.HumanStatus, Count(p.HumanStatus.Total()), "")
	n := opt.top(len(res.Robots))
	for _, b := range res.Robots[:n] {
		add(Escape(b.Name), b.Status, Count(b.Requests), Bytes(b.Bytes))
	}
	s.notes = cutNote(n, len(res.Robots), "robot name", "robot names")
	if p.Uncounted > 0 {
		s.notes = append(s.notes, Count(p.Uncounted)+" requests of clients past the panels' memory bound are in no count here.")
	}
	return s
}

// pathsSection is the paths robots asked for most: all robots' first,
// then each robot's few.
func pathsSection(r *Report, opt Options) *section {
	s := &section{
		name: "paths", title: "Paths robots asked for most",
		header: []string{"Robot", "Path", "Requests"},
		right:  []bool{false, false, true},
		// A path cut at its end is no path (a catalogue's paths differ
		// only there): it wraps instead.
		keep: []bool{true, true, false},
	}
	res := r.Result
	approx := false
	add := func(name string, list []findings.PathCount, max int) {
		for i, pc := range list[:min(len(list), max)] {
			who := ""
			if i == 0 {
				who = name
			}
			n := Count(pc.Requests)
			if pc.Error > 0 {
				n = Count(pc.Requests) + "-" + Count(pc.Requests+pc.Error)
				approx = true
			}
			s.rows = append(s.rows, []string{who, Escape(pc.Path), n})
		}
	}
	add("All robots", res.Panels.RobotPaths, panelRobots)
	// Three rows a robot: the busiest ones only, whatever --top says.
	n := min(opt.top(len(res.Robots)), panelRobots)
	for _, b := range res.Robots[:n] {
		add(Escape(b.Name), b.TopPaths, pathsPerRobot)
	}
	if len(s.rows) == 0 {
		s.notes = append(s.notes, "No robot requests.")
	}
	if approx {
		s.notes = append(s.notes, "A range (10-12) is a count a busy client's bounded tally can only bracket (docs/json.md: the panels).")
	}
	if p := res.Panels.Unlisted; p > 0 {
		s.notes = append(s.notes, Count(p)+" requests to paths past the first 65,536 distinct ones are in no list.")
	}
	if n < len(res.Robots) {
		s.notes = append(s.notes, fmt.Sprintf("The paths of the %s busiest of %s robot names; the JSON report lists every one's (robots[].top_paths).", Exact(int64(n)), Exact(int64(len(res.Robots)))))
	}
	return s
}

// hourShare is the robots' share of a period's requests; "-" for a period
// with none, where "0%" would read as people only.
func hourShare(robots, requests int64) string {
	if requests == 0 {
		return "-"
	}
	return share(robots, requests)
}
