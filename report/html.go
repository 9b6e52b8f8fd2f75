package report

import (
	"cmp"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/robowatch/robowatch/findings"
)

// The HTML report is one self-contained file: the text report's tables
// (built once, by sections) and inline SVG pictures. It runs no script and
// loads nothing: its Content-Security-Policy forbids both, so even a string
// that slipped past escaping could not act. html/template escapes every
// string from the log a second time, for HTML, after Escape made terminal
// controls visible.
//
// The page uses the window's whole width, down to a phone's: the summary
// comes first, tables fill the width and a long or wide one scrolls in its
// own box, addresses never wrap, and charts stretch to the width at a fixed
// height (chart.go). html_browser_test.go checks this in Chromium.

//go:embed html.tmpl
var htmlSource string

var htmlTemplate = template.Must(template.New("report").Funcs(template.FuncMap{"num": num, "pct": pct}).Parse(htmlSource))

// maxIncidentCharts bounds the incident pictures; the table lists the rest.
const maxIncidentCharts = 20

// Plot heights in px.
const (
	siteChartHeight     = 220
	robotChartHeight    = 72
	incidentChartHeight = 100
)

// htmlPage is what the template renders.
type htmlPage struct {
	Input    string
	Span     string
	Sections []htmlSection
}

// htmlSection is one section: pictures first, then the table; the
// summary's table comes before its picture, at the top of the page.
type htmlSection struct {
	*section
	Charts   []chart // full width
	Grid     []chart // small multiples
	GridNote string  // what the small multiples share (their scale) and what not
	Notes    []string
}

// Right reports whether column i holds numbers.
func (s htmlSection) Right(i int) bool { return s.right != nil && i < len(s.right) && s.right[i] }

// maxNoWrap is the longest address or host name kept on one line; longer
// text in an address column came from an attacker and may wrap anywhere.
const maxNoWrap = 64

// Class is the CSS class of cell c in column i: numbers align right,
// addresses and times never wrap, free text from the log may break
// anywhere.
func (s htmlSection) Class(i int, c string) string {
	switch {
	case s.Right(i):
		return "num"
	case len(s.Header()) > i && (s.header[i] == "Client" && len(c) <= maxNoWrap || s.header[i] == "Time" || s.header[i] == "Start"):
		return "nowrap"
	case s.flex != nil && i < len(s.flex) && s.flex[i]:
		return "text"
	}
	return ""
}

// Header is the section's column names, or none for a key-value table.
func (s htmlSection) Header() []string {
	if len(s.header) == 0 || s.header[0] == "" {
		return nil
	}
	return s.header
}

// Rows is the table's cells.
func (s htmlSection) Rows() [][]string { return s.rows }

// Title is the section's heading.
func (s htmlSection) Title() string { return s.title }

// Name is the section's --section name.
func (s htmlSection) Name() string { return s.name }

// Headline reports whether the section is the headline or the summary,
// whose tables come before any chart.
func (s htmlSection) Headline() bool { return s.name == "headline" || s.name == "summary" }

func writeHTML(w io.Writer, r *Report, opt Options) error {
	res := r.Result
	page := htmlPage{Input: inputNames(r.Files)}
	if first, last := r.span(); !first.IsZero() {
		page.Span = first.Format(timeLayout) + " to " + last.Format(timeLayout)
	}
	for _, s := range sections(r, opt) {
		if !opt.wants(s.name) {
			continue
		}
		hs := htmlSection{section: s, Notes: s.notes}
		switch s.name {
		case "summary":
			if c, ok := siteChart(&res.Timeline); ok {
				hs.Charts = append(hs.Charts, c)
			}
		case "robots":
			hs.Grid, hs.GridNote = robotCharts(&res.Timeline)
		case "violations":
			if c, ok := violationChart(res); ok {
				hs.Charts = append(hs.Charts, c)
			}
		case "incidents":
			n := min(opt.top(len(res.Incidents)), maxIncidentCharts)
			hs.Grid, hs.GridNote = incidentCharts(res.Incidents[:n])
			if n < len(res.Incidents) {
				hs.Notes = append(hs.Notes, fmt.Sprintf("Curves drawn for the first %d incidents; the table lists more.", n))
			}
		}
		page.Sections = append(page.Sections, hs)
	}
	return htmlTemplate.Execute(w, page)
}

func inputNames(files []string) string {
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f
		if f == "-" {
			names[i] = "(standard input)"
		}
	}
	return Escape(strings.Join(names, ", "))
}

// siteChart stacks the site's requests per bucket: humans at the bottom,
// robots on top of them, folded clients above.
func siteChart(tl *findings.Timeline) (chart, bool) {
	n := len(tl.Requests)
	if n == 0 {
		return chart{}, false
	}
	width := time.Duration(tl.BucketSeconds) * time.Second
	c := newTimeChart("Requests over time", siteChartHeight)
	c.Note = "Requests per " + per(width) + ", robots stacked on humans (by the final verdicts)."
	c.Legend = []legendEntry{{"Humans", "s-human"}, {"Robots", "s-robot"}}
	if tl.Other != nil {
		c.Legend = append(c.Legend, legendEntry{"Other clients (not tracked, --max-clients)", "s-other"})
	}
	if tl.Estimated > 0 {
		c.Note += fmt.Sprintf(" %s robot requests are placed by estimate (memory bound).", Count(tl.Estimated))
	}
	s := niceScale(float64(maxOf(tl.Requests)), 5)
	c.yAxis(s, "requests per "+per(width))
	bw := dataWidth / float64(n)
	gap := min(bw*0.15, 2)
	for i := 0; i < n; i++ {
		at := tl.Start.Add(time.Duration(i) * width)
		var other int64
		if tl.Other != nil {
			other = tl.Other[i]
		}
		tip := fmt.Sprintf("%s: %d %s, %d by humans, %d by robots", bucketLabel(at, width), tl.Requests[i], requestsWord(tl.Requests[i]), tl.Humans[i], tl.Robots[i])
		if other > 0 {
			tip += fmt.Sprintf(", %d by other clients", other)
		}
		// Stacked: each segment's height is its share of the scale, so
		// that the stack is as tall as the bucket's requests.
		y := c.PlotH
		for _, seg := range []struct {
			n     int64
			class string
		}{{tl.Humans[i], "s-human"}, {tl.Robots[i], "s-robot"}, {other, "s-other"}} {
			if seg.n <= 0 {
				continue
			}
			h := float64(seg.n) / s.Top * c.PlotH
			y -= h
			c.Rects = append(c.Rects, shape{X: float64(i)*bw + gap/2, Y: y, W: bw - gap, H: h, Class: seg.class, Tip: tip})
		}
	}
	c.xTimeAxis(tl.Start, tl.Start.Add(time.Duration(n)*width))
	return c, true
}

// robotCharts draws one small timeline per top robot name, each on its
// own scale: on one shared scale the busiest robot's peak made every other
// a flat line on the floor, its shape (a nightly crawl, a steady poll, one
// burst) lost. The y labels and each chart's note give its own peak.
func robotCharts(tl *findings.Timeline) ([]chart, string) {
	width := time.Duration(tl.BucketSeconds) * time.Second
	var out []chart
	for _, rt := range tl.ByRobot {
		n := len(rt.Requests)
		if n == 0 {
			continue
		}
		var total int64
		for _, v := range rt.Requests {
			total += v
		}
		s := niceScale(float64(maxOf(rt.Requests)), 3)
		c := newTimeChart(Escape(rt.Name), robotChartHeight)
		c.Note = fmt.Sprintf("%s %s; at most %s per %s", Count(total), requestsWord(total), Count(maxOf(rt.Requests)), per(width))
		c.yAxis(s, "requests per "+per(width))
		c.Paths = append(c.Paths, shape{D: stepPath(rt.Requests, s, c.PlotH), Class: "s-robot area", Tip: Escape(rt.Name)})
		c.xTimeAxis(tl.Start, tl.Start.Add(time.Duration(len(rt.Requests))*width))
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, ""
	}
	note := fmt.Sprintf("Requests per %s of each robot name over the whole log, each chart on its own scale (read its y axis): shapes compare, heights do not.",
		per(width))
	if len(out) == 1 {
		note = fmt.Sprintf("Requests per %s of the robot name over the whole log.", per(width))
	}
	return out, note
}

// incidentCharts draws each incident's requests in each second, all on
// one count scale; each spans its own incident in time.
func incidentCharts(incidents []findings.Incident) ([]chart, string) {
	if len(incidents) == 0 {
		return nil, ""
	}
	var peak int
	for _, in := range incidents {
		peak = max(peak, in.PeakPerSecond)
		for _, v := range in.PerSecond {
			peak = max(peak, v)
		}
	}
	s := niceScale(float64(peak), 4)
	out := make([]chart, len(incidents))
	for i, in := range incidents {
		out[i] = incidentChart(in, s)
	}
	note := fmt.Sprintf("Requests in each second of each incident, all on one scale (0 to %s per second); each chart spans its own incident, so their time axes differ.",
		Count(int64(s.Top)))
	if len(incidents) == 1 {
		note = "Requests in each second of the incident."
	}
	return out, note
}

// incidentChart draws an incident's requests in each second on scale s.
func incidentChart(in findings.Incident, s scale) chart {
	c := newTimeChart(fmt.Sprintf("%s %s", Address(in.IP), Escape(in.Name)), incidentChartHeight)
	c.Note = fmt.Sprintf("%s, %s: %s requests, at most %d in a second", in.Start.Format(timeLayout),
		Duration(time.Duration(in.Seconds)*time.Second), Count(in.Requests), in.PeakPerSecond)
	if in.PerSecondCut {
		c.Note += fmt.Sprintf("; the curve shows the first %s", Duration(time.Duration(len(in.PerSecond))*time.Second))
	}
	curve := make([]int64, len(in.PerSecond))
	for i, v := range in.PerSecond {
		curve[i] = int64(v)
	}
	n := len(curve)
	c.yAxis(s, "requests per second")
	if n == 0 {
		return c
	}
	if n <= 300 {
		bw := dataWidth / float64(n)
		gap := min(bw*0.15, 2)
		for i, v := range curve {
			if v == 0 {
				continue
			}
			h := s.y(v, c.PlotH)
			at := in.Start.Add(time.Duration(i) * time.Second)
			c.Rects = append(c.Rects, shape{X: float64(i)*bw + gap/2, Y: c.PlotH - h, W: bw - gap, H: h,
				Class: "s-robot", Tip: fmt.Sprintf("%s: %d %s", at.Format("15:04:05"), v, requestsWord(v))})
		}
	} else {
		c.Paths = append(c.Paths, shape{D: stepPath(curve, s, c.PlotH), Class: "s-robot area"})
	}
	c.xTimeAxis(in.Start, in.Start.Add(time.Duration(n)*time.Second))
	return c
}

// prefixColours is how many path prefixes get a colour of their own in the
// violations chart; the rest share one.
const prefixColours = 7

// violationChart draws one bar per robot name with violations, split by
// the path prefixes they fell under; each bar has its name and count
// above it, so the bars take the whole width.
func violationChart(res *findings.Result) (chart, bool) {
	if !res.ViolationsChecked {
		return chart{}, false
	}
	var robots []findings.RobotSummary
	totals := map[string]int64{}
	for _, s := range res.Robots {
		if s.Violations == 0 {
			continue
		}
		robots = append(robots, s)
		for _, p := range s.Prefixes {
			totals[p.Prefix] += p.Count
		}
	}
	if len(robots) == 0 {
		return chart{}, false
	}
	slices.SortStableFunc(robots, func(a, b findings.RobotSummary) int { return cmp.Compare(b.Violations, a.Violations) })
	robots = robots[:min(len(robots), 15)]
	prefixes := make([]string, 0, len(totals))
	for p := range totals {
		prefixes = append(prefixes, p)
	}
	slices.SortFunc(prefixes, func(a, b string) int { return cmp.Or(cmp.Compare(totals[b], totals[a]), cmp.Compare(a, b)) })
	class := map[string]string{}
	c := chart{Title: "robots.txt violations by robot and path prefix", Bars: true}
	for i, p := range prefixes {
		if i == prefixColours {
			c.Legend = append(c.Legend, legendEntry{"other prefixes", "p-other"})
			break
		}
		class[p] = fmt.Sprintf("p%d", i)
		c.Legend = append(c.Legend, legendEntry{Escape(p), class[p]})
	}
	const row = 34.0
	c.PlotH = row * float64(len(robots))
	c.H = c.PlotH + bottomBand
	sc := niceScale(float64(robots[0].Violations), 5)
	for v := 0.0; v <= sc.Top+sc.Step/2; v += sc.Step {
		x := v / sc.Top
		cls := "grid"
		if v == 0 {
			cls = "axis"
		}
		c.Lines = append(c.Lines, shape{X: x, Y: c.Top, X2: x, Y2: c.bottom(), Class: cls})
		c.Texts = append(c.Texts, label{X: x, Y: c.bottom() + 16, Anchor: "middle", Class: "tick", Text: Count(int64(v))})
	}
	c.xTitle("disallowed requests")
	for i, s := range robots {
		top := float64(i) * row
		y, h := top+17, 13.0
		x := 0.0
		seg := func(n int64, cls, tip string) {
			if n <= 0 {
				return
			}
			w := float64(n) / sc.Top * dataWidth
			c.Rects = append(c.Rects, shape{X: x, Y: y, W: w, H: h, Class: cls, Tip: tip})
			x += w
		}
		name := Escape(s.Name)
		rest := s.Violations
		for _, pc := range s.Prefixes {
			cls := class[pc.Prefix]
			if cls == "" {
				cls = "p-other"
			}
			seg(pc.Count, cls, fmt.Sprintf("%s: %d under %s", name, pc.Count, Escape(pc.Prefix)))
			rest -= pc.Count
		}
		seg(rest, "p-other", fmt.Sprintf("%s: %d under other prefixes", name, rest))
		c.Texts = append(c.Texts, label{X: 0, Y: c.Top + top + 12, Anchor: "start", Class: "name", Text: Cut(name, 28), After: Count(s.Violations)})
	}
	if n := countViolators(res.Robots); n > len(robots) {
		c.Note = fmt.Sprintf("The %d robot names with most violations of %d.", len(robots), n)
	}
	return c, true
}

func requestsWord(n int64) string {
	if n == 1 {
		return "request"
	}
	return "requests"
}

func countViolators(robots []findings.RobotSummary) int {
	n := 0
	for _, s := range robots {
		if s.Violations > 0 {
			n++
		}
	}
	return n
}
