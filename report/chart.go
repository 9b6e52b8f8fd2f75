package report

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// The HTML report draws its pictures as inline SVG computed here, so the
// file needs no script and no network. A chart is a list of shapes in a
// fixed coordinate space; html/template writes them out, escaping every
// string that came from the log.

// chart is one picture.
type chart struct {
	Title  string        // caption
	Note   string        // a line under the caption: what is drawn
	Legend []legendEntry // series and their colours
	W, H   float64       // viewBox size
	Small  bool          // one of a grid of small multiples
	Rects  []shape
	Paths  []shape
	Lines  []shape
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

// label is a piece of text in a chart.
type label struct {
	X, Y   float64
	Anchor string // start, middle, end
	Class  string
	Text   string
}

// plot is the drawing area of a chart inside its margins.
type plot struct {
	left, top, width, height float64
}

func (p plot) bottom() float64 { return p.top + p.height }

// num writes a coordinate with at most one decimal.
func num(f float64) string {
	return strconv.FormatFloat(math.Round(f*10)/10, 'f', -1, 64)
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

// yAxis draws horizontal grid lines and count labels for 0..max on p, and
// returns the top of the scale.
func (c *chart) yAxis(p plot, max float64, ticks int) float64 {
	step := niceStep(max, ticks)
	top := math.Max(step, math.Ceil(max/step)*step)
	for v := 0.0; v <= top+step/2; v += step {
		y := p.bottom() - v/top*p.height
		cls := "grid"
		if v == 0 {
			cls = "axis"
		}
		c.Lines = append(c.Lines, shape{X: p.left, Y: y, X2: p.left + p.width, Y2: y, Class: cls})
		c.Texts = append(c.Texts, label{X: p.left - 6, Y: y + 4, Anchor: "end", Class: "tick", Text: Count(int64(v))})
	}
	return top
}

// timeSteps are the spacings a time axis may use, in seconds.
var timeSteps = []int64{1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 2 * 3600, 3 * 3600, 6 * 3600, 12 * 3600,
	86400, 2 * 86400, 7 * 86400, 14 * 86400, 28 * 86400, 91 * 86400, 364 * 86400}

// xTimeAxis draws ticks along the bottom of p for the time from start to
// end at one tick per about 90 units of width, in start's zone: times of
// day, with the date under the first tick and wherever the day changes.
func (c *chart) xTimeAxis(p plot, start, end time.Time) {
	span := end.Unix() - start.Unix()
	if span <= 0 {
		return
	}
	maxTicks := max(2, int(p.width/90))
	step := timeSteps[len(timeSteps)-1]
	for _, s := range timeSteps {
		if span/s <= int64(maxTicks) {
			step = s
			break
		}
	}
	for span/step > int64(maxTicks) {
		step *= 2
	}
	_, off := start.Zone()
	local := start.Unix() + int64(off)
	first := local - floorMod(local, step)
	if first < local {
		first += step
	}
	prevDay := ""
	for t := first; t <= local+span; t += step {
		x := p.left + float64(t-local)/float64(span)*p.width
		if x+24 > c.W || x-24 < 0 {
			continue // its label would be cut at the chart's edge
		}
		at := time.Unix(t-int64(off), 0).In(start.Location())
		c.Lines = append(c.Lines, shape{X: x, Y: p.bottom(), X2: x, Y2: p.bottom() + 4, Class: "axis"})
		layout := "15:04"
		switch {
		case step < 60:
			layout = "15:04:05"
		case step >= 86400:
			layout = "Jan 2"
		}
		c.Texts = append(c.Texts, label{X: x, Y: p.bottom() + 16, Anchor: "middle", Class: "tick", Text: at.Format(layout)})
		if day := at.Format("2006-01-02"); step < 86400 && day != prevDay {
			c.Texts = append(c.Texts, label{X: x, Y: p.bottom() + 29, Anchor: "middle", Class: "tick date", Text: day})
			prevDay = day
		}
	}
}

func floorMod(a, b int64) int64 {
	m := a % b
	if m < 0 {
		m += b
	}
	return m
}

// stepPath is the outline of a histogram: counts[i] spans x0+i*bw to
// x0+(i+1)*bw, drawn on p scaled to top; closed along the bottom when fill.
func stepPath(p plot, counts []int64, top float64, fill bool) string {
	bw := p.width / float64(len(counts))
	y := func(n int64) float64 { return p.bottom() - float64(n)/top*p.height }
	var b []byte
	b = fmt.Appendf(b, "M%s %s", num(p.left), num(y(0)))
	for i, n := range counts {
		b = fmt.Appendf(b, "V%sH%s", num(y(n)), num(p.left+float64(i+1)*bw))
	}
	b = fmt.Appendf(b, "V%s", num(y(0)))
	if fill {
		b = append(b, 'Z')
	}
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
