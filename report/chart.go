package report

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// The HTML report draws its pictures as inline SVG computed here, so the
// file needs no script and no network. A chart spans the width of its box,
// whatever the window, at a fixed height in pixels, and its text keeps its
// size: nothing in it is scaled to fit. Its coordinates are
//
//   - y: pixels from the top of the SVG;
//   - x of axes, grid lines and labels: a fraction of the plot's width, 0 at
//     its left and 1 at its right, written as a percentage, with an offset
//     in pixels (DX) for labels; the count labels of the y axis sit left
//     of 0, in the plot box's padding;
//   - x of the data (bars, curves): thousandths of the plot's width, drawn
//     in an inner SVG stretched to the plot (preserveAspectRatio="none"),
//     with y in pixels from the plot's top.
//
// A time axis has a tick label for every round time at full width; the
// style sheet hides every other one, then more, as the box narrows
// (container queries), so labels never run into each other on a phone.
// html/template writes it all out, escaping every string from the log.

// chart is one picture.
type chart struct {
	Title  string        // caption
	Note   string        // a line under the caption: what is drawn
	Legend []legendEntry // series and their colours
	Bars   bool          // horizontal bars with their names above them: no y labels at the left
	H      float64       // height of the SVG in px
	Top    float64       // top of the plot in px
	PlotH  float64       // height of the plot in px
	Rects  []shape       // data: X, W in thousandths of the plot's width; Y, H in px from the plot's top
	Paths  []shape       // data: D in the same units
	Lines  []shape       // axes and grid: X, X2 fractions of the plot's width; Y, Y2 px from the SVG's top
	Texts  []label
}

// legendEntry names one series; Class picks its colour in the style sheet.
type legendEntry struct {
	Label, Class string
}

// shape is a rectangle (X, Y, W, H), a path (D) or a line (X, Y to X2, Y2),
// with a class for its colour and a tooltip.
type shape struct {
	X, Y, W, H, X2, Y2 float64
	D                  string
	Class              string
	Tip                string
}

// label is a piece of text in a chart at X (a fraction of the plot's
// width) plus DX pixels, with its baseline at Y; After follows it in a
// lighter style.
type label struct {
	X, DX, Y float64
	Anchor   string // start, middle, end
	Class    string
	Text     string
	After    string
}

// dataWidth is the width of the data's coordinate space.
const dataWidth = 1000

// Heights in px: the band above the plot for the y axis's unit, the band
// under it for tick labels and the x axis's title.
const (
	topBand    = 20
	bottomBand = 36
)

// newTimeChart is a chart with a plot of height plotH and room for axes.
func newTimeChart(title string, plotH float64) chart {
	return chart{Title: title, Top: topBand, PlotH: plotH, H: topBand + plotH + bottomBand}
}

func (c *chart) bottom() float64 { return c.Top + c.PlotH }

// num writes a coordinate with at most one decimal.
func num(f float64) string {
	return strconv.FormatFloat(math.Round(f*10)/10, 'f', -1, 64)
}

// pct writes a fraction of the plot's width as a percentage.
func pct(f float64) string {
	return strconv.FormatFloat(math.Round(f*10000)/100, 'f', -1, 64) + "%"
}

// niceStep returns the smallest 1, 2 or 5 times a power of ten that splits
// max into at most n steps.
func niceStep(max float64, n int) float64 {
	if max <= 0 {
		return 1
	}
	raw := max / float64(n)
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return math.Max(1, m*p)
		}
	}
	return math.Max(1, 10*p)
}

// scale is a count axis from 0 to Top in steps of Step.
type scale struct {
	Top, Step float64
}

// niceScale is the scale for counts up to max with at most ticks steps.
func niceScale(max float64, ticks int) scale {
	step := niceStep(max, ticks)
	return scale{Top: math.Max(step, math.Ceil(max/step)*step), Step: step}
}

// y is the height in px above the plot's bottom of count n on s in a plot
// of height h; a count above 0 is at least 1 px, so that a robot with one
// request stays visible on a scale shared with one that sent thousands.
func (s scale) y(n int64, h float64) float64 {
	if n <= 0 {
		return 0
	}
	return math.Max(1, float64(n)/s.Top*h)
}

// yAxis draws the horizontal grid lines and count labels of s, and names
// the unit above them.
func (c *chart) yAxis(s scale, unit string) {
	for v := 0.0; v <= s.Top+s.Step/2; v += s.Step {
		y := c.bottom() - v/s.Top*c.PlotH
		cls := "grid"
		if v == 0 {
			cls = "axis"
		}
		c.Lines = append(c.Lines, shape{X: 0, Y: y, X2: 1, Y2: y, Class: cls})
		c.Texts = append(c.Texts, label{X: 0, DX: -6, Y: y + 4, Anchor: "end", Class: "tick", Text: Count(int64(v))})
	}
	c.Texts = append(c.Texts, label{X: 0, Y: 11, Anchor: "start", Class: "unit", Text: unit})
}

// xTitle names the x axis under its tick labels, at the right.
func (c *chart) xTitle(text string) {
	c.Texts = append(c.Texts, label{X: 1, Y: c.bottom() + 31, Anchor: "end", Class: "unit", Text: text})
}

// timeSteps are the spacings a time axis may use, in seconds.
var timeSteps = []int64{1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 2 * 3600, 3 * 3600, 6 * 3600, 12 * 3600,
	86400, 2 * 86400, 7 * 86400, 14 * 86400, 28 * 86400, 91 * 86400, 364 * 86400}

// tickLevels are the plot widths in px at which a time axis shows more
// tick labels, and the class the style sheet hides its labels by below
// that width. A label needs about 80 px.
var tickLevels = []struct {
	width int
	class string
}{{240, ""}, {480, "t480"}, {960, "t960"}}

const tickSpace = 80

// timeStep is the spacing of at most maxTicks ticks over span seconds: the
// smallest of the steps in timeSteps and their doubles that is a multiple
// of finer (0: any), so that a narrow axis shows a subset of the ticks of
// a wide one.
func timeStep(span int64, maxTicks int, finer int64) int64 {
	ok := func(s int64) bool { return span/s <= int64(maxTicks) && (finer == 0 || s%finer == 0) }
	var best int64
	for _, s := range timeSteps {
		if ok(s) {
			best = s
			break
		}
	}
	d := timeSteps[len(timeSteps)-1]
	if finer != 0 {
		d = finer
	}
	for !ok(d) {
		d *= 2
	}
	if best == 0 || d < best {
		best = d
	}
	return best
}

// xTimeAxis draws ticks along the bottom of the plot for the time from
// start to end, in start's zone, and names the axis with the day(s) and
// the zone. Ticks are times of day; one at midnight shows the date
// instead. Labels are hidden by width class (tickLevels): the ticks of a
// narrow box are a subset of those of a wide one.
func (c *chart) xTimeAxis(start, end time.Time) {
	span := end.Unix() - start.Unix()
	if span <= 0 {
		return
	}
	steps := make([]int64, len(tickLevels))
	for i := len(tickLevels) - 1; i >= 0; i-- {
		var finer int64
		if i < len(tickLevels)-1 {
			finer = steps[i+1]
		}
		steps[i] = timeStep(span, max(2, tickLevels[i].width/tickSpace), finer)
	}
	fine := steps[len(steps)-1]
	_, off := start.Zone()
	local := start.Unix() + int64(off)
	first := local - floorMod(local, fine)
	if first < local {
		first += fine
	}
	for t := first; t <= local+span; t += fine {
		x := float64(t-local) / float64(span)
		at := time.Unix(t-int64(off), 0).In(start.Location())
		// The coarsest level the tick belongs to gives its class and
		// its precision: 09:02 among 2-minute ticks, 09:02:30 among
		// 30-second ones.
		cls, step := "tick", fine
		for i, s := range steps {
			if floorMod(t, s) == 0 {
				if tickLevels[i].class != "" {
					cls += " " + tickLevels[i].class
				}
				step = s
				break
			}
		}
		layout := "15:04"
		switch {
		case floorMod(t, 86400) == 0 || step >= 86400:
			layout = "Jan 2"
		case step < 60:
			layout = "15:04:05"
		}
		c.Lines = append(c.Lines, shape{X: x, Y: c.bottom(), X2: x, Y2: c.bottom() + 4, Class: "axis"})
		c.Texts = append(c.Texts, label{X: x, Y: c.bottom() + 16, Anchor: "middle", Class: cls, Text: at.Format(layout)})
	}
	c.xTitle(timeTitle(start, end))
}

// timeTitle names a time axis: its day or days and its zone, "time on
// 2024-05-06 (+0200)".
func timeTitle(start, end time.Time) string {
	zone := " (" + start.Format("-0700") + ")"
	first, last := start.Format("2006-01-02"), end.Add(-time.Second).Format("2006-01-02")
	if first == last {
		return "time on " + first + zone
	}
	return "time from " + first + " to " + last + zone
}

func floorMod(a, b int64) int64 {
	m := a % b
	if m < 0 {
		m += b
	}
	return m
}

// stepPath is the outline of a histogram in data coordinates: counts[i]
// spans the i-th of len(counts) equal slices of the plot's width, drawn on
// s in a plot of height h; closed along the bottom.
func stepPath(counts []int64, s scale, h float64) string {
	bw := dataWidth / float64(len(counts))
	var b []byte
	b = fmt.Appendf(b, "M0 %s", num(h))
	for i, n := range counts {
		b = fmt.Appendf(b, "V%sH%s", num(h-s.y(n, h)), num(float64(i+1)*bw))
	}
	b = fmt.Appendf(b, "V%sZ", num(h))
	return string(b)
}

func maxOf(counts []int64) int64 {
	var m int64
	for _, n := range counts {
		m = max(m, n)
	}
	return m
}

// per names a bucket width for "requests per ...": "minute", "5 minutes".
func per(d time.Duration) string {
	units := []struct {
		d    time.Duration
		name string
	}{{24 * time.Hour, "day"}, {time.Hour, "hour"}, {time.Minute, "minute"}, {time.Second, "second"}}
	for _, u := range units {
		if d >= u.d && d%u.d == 0 {
			if d == u.d {
				return u.name
			}
			return strconv.FormatInt(int64(d/u.d), 10) + " " + u.name + "s"
		}
	}
	return Duration(d)
}

// bucketLabel names one bucket of a timeline for a tooltip.
func bucketLabel(start time.Time, width time.Duration) string {
	layout := "2006-01-02 15:04"
	if width < time.Minute {
		layout = "2006-01-02 15:04:05"
	}
	return start.Format(layout) + " (" + Duration(width) + ")"
}
