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

	"github.com/robowatch/robowatch/detect"
)

// The HTML report is one self-contained file: the text report's tables
// (built once, by sections) and inline SVG pictures. It runs no script and
// loads nothing: its Content-Security-Policy forbids both, so even a string
// that slipped past escaping could not act. html/template escapes every
// string from the log a second time, for HTML, after Escape made terminal
// controls visible.

//go:embed html.tmpl
var htmlSource string

var htmlTemplate = template.Must(template.New("report").Funcs(template.FuncMap{"num": num}).Parse(htmlSource))

// maxIncidentCharts bounds the incident pictures; the table lists the rest.
const maxIncidentCharts = 20

// htmlPage is what the template renders.
type htmlPage struct {
	Input    string
	Span     string
	Sections []htmlSection
}

// htmlSection is one section: pictures first, then the table.
type htmlSection struct {
	*section
	Charts []chart // full width
	Grid   []chart // small multiples
	Notes  []string
}

// Right reports whether column i holds numbers.
func (s htmlSection) Right(i int) bool { return s.right != nil && i < len(s.right) && s.right[i] }

// Text reports whether column i holds free text from the log, which may
// break anywhere to fit.
func (s htmlSection) Text(i int) bool { return s.flex != nil && i < len(s.flex) && s.flex[i] }

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

func writeHTML(w io.Writer, r *Report, opt Options) error {
	res := r.Result
	page := htmlPage{Input: inputNames(r.Files)}
	if !r.Stats.First.IsZero() {
		page.Span = r.Stats.First.Format(timeLayout) + " to " + r.Stats.Last.Format(timeLayout)
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
			hs.Grid = robotCharts(&res.Timeline)
		case "violations":
			if c, ok := violationChart(res); ok {
				hs.Charts = append(hs.Charts, c)
			}
		case "incidents":
			n := min(opt.top(len(res.Incidents)), maxIncidentCharts)
			for _, in := range res.Incidents[:n] {
				hs.Grid = append(hs.Grid, incidentChart(in))
			}
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
func siteChart(tl *detect.Timeline) (chart, bool) {
	n := len(tl.Requests)
	if n == 0 {
		return chart{}, false
	}
	width := time.Duration(tl.BucketSeconds) * time.Second
	c := chart{
		Title: "Requests over time",
		Note:  "Requests per " + per(width) + ", robots stacked on humans (by the final verdicts).",
		W:     960, H: 280,
		Legend: []legendEntry{{"Humans", "s-human"}, {"Robots", "s-robot"}},
	}
	if tl.Other != nil {
		c.Legend = append(c.Legend, legendEntry{"Other clients (not tracked, --max-clients)", "s-other"})
	}
	if tl.Estimated > 0 {
		c.Note += fmt.Sprintf(" %s robot requests are placed by estimate (memory bound).", Count(tl.Estimated))
	}
	p := plot{left: 56, top: 12, width: 960 - 56 - 16, height: 280 - 12 - 40}
	top := c.yAxis(p, float64(maxOf(tl.Requests)), 5)
	bw := p.width / float64(n)
	for i := 0; i < n; i++ {
		at := tl.Start.Add(time.Duration(i) * width)
		x := p.left + float64(i)*bw
		var other int64
		if tl.Other != nil {
			other = tl.Other[i]
		}
		tip := fmt.Sprintf("%s: %d requests, %d by humans, %d by robots", bucketLabel(at, width), tl.Requests[i], tl.Humans[i], tl.Robots[i])
		if other > 0 {
			tip += fmt.Sprintf(", %d by other clients", other)
		}
		y := p.bottom()
		for _, s := range []struct {
			n     int64
			class string
		}{{tl.Humans[i], "s-human"}, {tl.Robots[i], "s-robot"}, {other, "s-other"}} {
			if s.n <= 0 {
				continue
			}
			h := float64(s.n) / top * p.height
			y -= h
			c.Rects = append(c.Rects, shape{X: x, Y: y, W: max(bw-0.5, 0.5), H: h, Class: s.class, Tip: tip})
		}
	}
	c.xTimeAxis(p, tl.Start, tl.Start.Add(time.Duration(n)*width))
	return c, true
}

// robotCharts draws one small timeline per top robot name, each on its
// own scale (the label says its peak).
func robotCharts(tl *detect.Timeline) []chart {
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
		peak := maxOf(rt.Requests)
		c := chart{
			Title: Escape(rt.Name),
			Note:  fmt.Sprintf("%s requests; at most %s per %s", Count(total), Count(peak), per(width)),
			W:     300, H: 120, Small: true,
		}
		p := plot{left: 40, top: 8, width: 300 - 40 - 10, height: 120 - 8 - 36}
		top := c.yAxis(p, float64(peak), 3)
		c.Paths = append(c.Paths, shape{D: stepPath(p, rt.Requests, top, true), Class: "s-robot area", Tip: Escape(rt.Name)})
		c.xTimeAxis(p, tl.Start, tl.Start.Add(time.Duration(n)*width))
		out = append(out, c)
	}
	return out
}

// incidentChart draws an incident's requests in each second.
func incidentChart(in detect.Incident) chart {
	c := chart{
		Title: fmt.Sprintf("%s %s", Escape(in.IP), Escape(in.Name)),
		Note: fmt.Sprintf("%s, %s: %s requests, at most %d in a second", in.Start.Format(timeLayout),
			Duration(time.Duration(in.Seconds)*time.Second), Count(in.Requests), in.PeakPerSecond),
		W: 460, H: 160, Small: true,
	}
	if in.PerSecondCut {
		c.Note += fmt.Sprintf("; the curve shows the first %s", Duration(time.Duration(len(in.PerSecond))*time.Second))
	}
	curve := make([]int64, len(in.PerSecond))
	for i, v := range in.PerSecond {
		curve[i] = int64(v)
	}
	n := len(curve)
	if n == 0 {
		return c
	}
	p := plot{left: 44, top: 8, width: 460 - 44 - 12, height: 160 - 8 - 40}
	top := c.yAxis(p, float64(maxOf(curve)), 4)
	if n <= 300 {
		bw := p.width / float64(n)
		gap := min(bw*0.15, 2)
		for i, v := range curve {
			if v == 0 {
				continue
			}
			h := float64(v) / top * p.height
			at := in.Start.Add(time.Duration(i) * time.Second)
			c.Rects = append(c.Rects, shape{X: p.left + float64(i)*bw + gap/2, Y: p.bottom() - h, W: bw - gap, H: h,
				Class: "s-robot", Tip: fmt.Sprintf("%s: %d requests", at.Format("15:04:05"), v)})
		}
	} else {
		c.Paths = append(c.Paths, shape{D: stepPath(p, curve, top, true), Class: "s-robot area"})
	}
	c.xTimeAxis(p, in.Start, in.Start.Add(time.Duration(n)*time.Second))
	return c
}

// prefixColours is how many path prefixes get a colour of their own in the
// violations chart; the rest share one.
const prefixColours = 7

// violationChart draws one bar per robot name with violations, split by
// the path prefixes they fell under.
func violationChart(res *detect.Result) (chart, bool) {
	if !res.ViolationsChecked {
		return chart{}, false
	}
	var robots []detect.RobotSummary
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
	slices.SortStableFunc(robots, func(a, b detect.RobotSummary) int { return cmp.Compare(b.Violations, a.Violations) })
	robots = robots[:min(len(robots), 15)]
	prefixes := make([]string, 0, len(totals))
	for p := range totals {
		prefixes = append(prefixes, p)
	}
	slices.SortFunc(prefixes, func(a, b string) int { return cmp.Or(cmp.Compare(totals[b], totals[a]), cmp.Compare(a, b)) })
	class := map[string]string{}
	c := chart{Title: "robots.txt violations by robot and path prefix", W: 960}
	for i, p := range prefixes {
		if i == prefixColours {
			c.Legend = append(c.Legend, legendEntry{"other prefixes", "p-other"})
			break
		}
		class[p] = fmt.Sprintf("p%d", i)
		c.Legend = append(c.Legend, legendEntry{Escape(p), class[p]})
	}
	const row, labelW = 26.0, 200.0
	c.H = 12 + row*float64(len(robots)) + 36
	p := plot{left: labelW, top: 12, width: 960 - labelW - 60, height: row * float64(len(robots))}
	top := float64(robots[0].Violations)
	step := niceStep(top, 6)
	top = max(step, float64(int64((top+step-1)/step))*step)
	for v := 0.0; v <= top+step/2; v += step {
		x := p.left + v/top*p.width
		c.Lines = append(c.Lines, shape{X: x, Y: p.top, X2: x, Y2: p.bottom(), Class: "grid"})
		c.Texts = append(c.Texts, label{X: x, Y: p.bottom() + 16, Anchor: "middle", Class: "tick", Text: Count(int64(v))})
	}
	c.Texts = append(c.Texts, label{X: p.left + p.width/2, Y: p.bottom() + 32, Anchor: "middle", Class: "tick", Text: "disallowed requests"})
	for i, s := range robots {
		y := p.top + float64(i)*row + 4
		h := row - 8
		x := p.left
		seg := func(n int64, cls, tip string) {
			if n <= 0 {
				return
			}
			w := float64(n) / top * p.width
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
		c.Texts = append(c.Texts, label{X: p.left - 8, Y: y + h/2 + 4, Anchor: "end", Class: "name", Text: Cut(name, 28)},
			label{X: x + 6, Y: y + h/2 + 4, Anchor: "start", Class: "tick", Text: Count(s.Violations)})
	}
	c.Lines = append(c.Lines, shape{X: p.left, Y: p.top, X2: p.left, Y2: p.bottom(), Class: "axis"})
	if n := countViolators(res.Robots); n > len(robots) {
		c.Note = fmt.Sprintf("The %d robot names with most violations of %d.", len(robots), n)
	}
	return c, true
}

func countViolators(robots []detect.RobotSummary) int {
	n := 0
	for _, s := range robots {
		if s.Violations > 0 {
			n++
		}
	}
	return n
}
