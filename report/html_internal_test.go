package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/findings"
)

func TestNiceStep(t *testing.T) {
	cases := []struct {
		max  float64
		n    int
		want float64
	}{
		{0, 5, 1}, {1, 5, 1}, {4, 5, 1}, {9, 5, 2}, {380, 5, 100}, {357, 2, 200}, {1234567, 4, 500000},
	}
	for _, tc := range cases {
		if got := niceStep(tc.max, tc.n); got != tc.want {
			t.Errorf("niceStep(%v, %d) = %v, want %v", tc.max, tc.n, got, tc.want)
		}
	}
}

func TestPer(t *testing.T) {
	cases := map[time.Duration]string{
		time.Second: "second", 5 * time.Second: "5 seconds", time.Minute: "minute", 10 * time.Minute: "10 minutes",
		time.Hour: "hour", 6 * time.Hour: "6 hours", 24 * time.Hour: "day", 8 * 24 * time.Hour: "8 days", 90 * time.Second: "90 seconds",
	}
	for d, want := range cases {
		if got := per(d); got != want {
			t.Errorf("per(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestTimeAxis: ticks fall on round local times inside the span, labelled
// in the log's zone, midnight by its date; each label's class says from
// which width of the plot it shows (tickLevels), and the axis is named
// with its day(s) and zone.
func TestTimeAxis(t *testing.T) {
	zone := time.FixedZone("", -7*3600)
	cases := []struct {
		name       string
		start, end time.Time
		labels     []string // text/class ("" always shown, 480 or 960 from that width)
		title      string
	}{
		{"an hour", time.Date(2024, 5, 6, 9, 3, 0, 0, zone), time.Date(2024, 5, 6, 10, 3, 0, 0, zone),
			[]string{"09:05/960", "09:10/480", "09:15/960", "09:20/", "09:25/960", "09:30/480", "09:35/960", "09:40/",
				"09:45/960", "09:50/480", "09:55/960", "10:00/"},
			"time on 2024-05-06 (-0700)"},
		{"seconds", time.Date(2024, 5, 6, 23, 59, 58, 0, zone), time.Date(2024, 5, 7, 0, 0, 3, 0, zone),
			[]string{"23:59:58/", "23:59:59/480", "May 7/", "00:00:01/480", "00:00:02/", "00:00:03/480"},
			"time from 2024-05-06 to 2024-05-07 (-0700)"},
		{"two weeks", time.Date(2024, 5, 6, 0, 0, 0, 0, zone), time.Date(2024, 5, 20, 0, 0, 0, 0, zone),
			[]string{"May 7/960", "May 9/", "May 11/960", "May 13/", "May 15/960", "May 17/", "May 19/960"},
			"time from 2024-05-06 to 2024-05-19 (-0700)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newTimeChart("", 100)
			c.xTimeAxis(tc.start, tc.end)
			var got []string
			title := ""
			for _, l := range c.Texts {
				if l.Class == "unit" {
					title = l.Text
					continue
				}
				got = append(got, l.Text+"/"+strings.TrimPrefix(strings.TrimPrefix(l.Class, "tick"), " t"))
				if l.X < 0 || l.X > 1 {
					t.Errorf("tick %q at x=%v outside the plot", l.Text, l.X)
				}
			}
			if !slices.Equal(got, tc.labels) {
				t.Errorf("labels %q, want %q", got, tc.labels)
			}
			if title != tc.title {
				t.Errorf("axis title %q, want %q", title, tc.title)
			}
		})
	}
}

// TestTimeAxisFits: on spans from a second to two years, the labels shown
// at each width fit it (about 80 px each) and the narrowest plot still
// has a label.
func TestTimeAxisFits(t *testing.T) {
	start := time.Date(2024, 2, 28, 17, 43, 21, 0, time.FixedZone("", 5*3600+1800))
	for _, span := range []time.Duration{time.Second, 7 * time.Second, 59 * time.Second, 5*time.Minute + 2*time.Second, 47 * time.Minute,
		3 * time.Hour, 25 * time.Hour, 6 * 24 * time.Hour, 40 * 24 * time.Hour, 700 * 24 * time.Hour} {
		c := newTimeChart("", 100)
		c.xTimeAxis(start, start.Add(span))
		for i, lv := range tickLevels {
			n := 0
			for _, l := range c.Texts {
				if l.Class == "unit" {
					continue
				}
				visible := true
				for _, hidden := range tickLevels[i+1:] {
					if strings.Contains(l.Class, hidden.class) {
						visible = false
					}
				}
				if visible {
					n++
				}
			}
			if n > lv.width/tickSpace+1 {
				t.Errorf("span %v: %d labels at %d px", span, n, lv.width)
			}
			if i == 0 && n == 0 && span >= 2*time.Second {
				t.Errorf("span %v: no label at %d px", span, lv.width)
			}
		}
	}
}

// TestSiteChartStacks: each bucket's bars are as tall as its requests on
// the chart's scale, humans at the bottom and robots on them.
func TestSiteChartStacks(t *testing.T) {
	tl := &findings.Timeline{
		Start: time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC), BucketSeconds: 60,
		Requests: []int64{10, 0, 40}, Robots: []int64{4, 0, 40}, Humans: []int64{6, 0, 0},
	}
	c, ok := siteChart(tl)
	if !ok || len(c.Rects) != 3 {
		t.Fatalf("rects = %+v", c.Rects)
	}
	h, r, big := c.Rects[0], c.Rects[1], c.Rects[2]
	if h.Class != "s-human" || r.Class != "s-robot" || big.Class != "s-robot" {
		t.Errorf("classes %s %s %s", h.Class, r.Class, big.Class)
	}
	if math.Abs(h.H/r.H-1.5) > 1e-9 || math.Abs(big.H/(h.H+r.H)-4) > 1e-9 {
		t.Errorf("heights %v %v %v are not 6:4 and 40:10", h.H, r.H, big.H)
	}
	if math.Abs(r.Y+r.H-h.Y) > 1e-9 || math.Abs(h.Y+h.H-c.PlotH) > 1e-9 {
		t.Errorf("robots (y %v h %v) do not sit on humans (y %v h %v) on the floor (%v)", r.Y, r.H, h.Y, h.H, c.PlotH)
	}
	if big.X <= r.X || big.X+big.W > dataWidth || !strings.Contains(big.Tip, "40 by robots") {
		t.Errorf("third bucket at x=%v w=%v, tip %q", big.X, big.W, big.Tip)
	}
	if !hasText(c, "requests per minute") || !hasText(c, "time on 2024-05-06 (+0000)") {
		t.Errorf("axes not named: %+v", c.Texts)
	}
}

// TestRobotChartsHaveTheirOwnScale: each robot's timeline is drawn to
// its own y scale, so that a robot of 3 requests beside one of 480 shows
// its shape, not a flat line on the floor (issue 36); the caption says
// the scales differ and each chart says its own peak.
func TestRobotChartsHaveTheirOwnScale(t *testing.T) {
	tl := &findings.Timeline{
		Start: time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC), BucketSeconds: 300,
		Requests: []int64{500, 3, 2}, ByRobot: []findings.RobotTimeline{
			{Name: "big", Requests: []int64{480, 0, 0}}, {Name: "small", Requests: []int64{0, 1, 2}},
		},
	}
	charts, note := robotCharts(tl)
	if len(charts) != 2 {
		t.Fatalf("%d charts", len(charts))
	}
	ticks := func(c chart) []string {
		var out []string
		for _, l := range c.Texts {
			if l.X == 0 && l.Anchor == "end" {
				out = append(out, l.Text)
			}
		}
		return out
	}
	if a, b := ticks(charts[0]), ticks(charts[1]); a[len(a)-1] != "600" || b[len(b)-1] == "600" {
		t.Errorf("y ticks %q and %q, want big's scale to 600 and small's its own", a, b)
	}
	if !strings.Contains(note, "its own scale") || !strings.Contains(note, "per 5 minutes") {
		t.Errorf("caption %q does not say each chart has its own scale", note)
	}
	if !hasText(charts[1], "requests per 5 minutes") {
		t.Errorf("no unit on the y axis: %+v", charts[1].Texts)
	}
	// small's peak of 2 stands at least half the plot tall, not a pixel
	// off the floor.
	if d := charts[1].Paths[0].D; strings.Contains(d, "V"+num(charts[1].PlotH-1)+"H") || !strings.Contains(d, "H666.7V") {
		t.Errorf("the peak of 2 is flat on the floor: %s", d)
	}
	top := charts[1].PlotH
	for seg := range strings.SplitSeq(charts[1].Paths[0].D, "V") {
		if y, err := strconv.ParseFloat(strings.Split(seg, "H")[0], 64); err == nil {
			top = min(top, y)
		}
	}
	if top > charts[1].PlotH/2 {
		t.Errorf("small's peak is at y %v of %v: not half the plot tall", top, charts[1].PlotH)
	}
}

// TestIncidentChartsShareScale: incident curves share their count scale
// and say that their time axes differ.
func TestIncidentChartsShareScale(t *testing.T) {
	start := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	charts, note := incidentCharts([]findings.Incident{
		{IP: "2001:db8:85a3:1234:5678:8a2e:370:7334", Name: "a", Start: start, Seconds: 3, Requests: 130, PeakPerSecond: 110, PerSecond: []int{10, 110, 10}},
		{IP: "192.0.2.1", Name: "b", Start: start.Add(time.Hour), Seconds: 2, Requests: 30, PeakPerSecond: 20, PerSecond: []int{20, 10}},
	})
	if len(charts) != 2 {
		t.Fatalf("%d charts", len(charts))
	}
	if !strings.Contains(note, "one scale (0 to 150 per second)") || !strings.Contains(note, "time axes differ") {
		t.Errorf("caption %q", note)
	}
	// b's 20 is twice a's 10 on the same scale of 150.
	a, b := charts[0].Rects, charts[1].Rects
	if math.Abs(b[0].H/a[0].H-2) > 1e-9 || math.Abs(a[0].H/charts[0].PlotH-10.0/150) > 1e-9 {
		t.Errorf("heights %v and %v on a plot of %v", a[0].H, b[0].H, charts[0].PlotH)
	}
}

// TestHTMLCells: numbers align right, addresses and times never wrap
// (unless absurdly long), free text may.
func TestHTMLCells(t *testing.T) {
	s := htmlSection{section: &section{header: []string{"Time", "Client", "Requests", "User-agent"},
		right: []bool{false, false, true, false}, flex: []bool{false, true, false, true}}}
	cases := []struct {
		col  int
		cell string
		want string
	}{
		{0, "2024-05-06 09:00:31 +0200", "nowrap"},
		{1, "2001:0db8:85a3:0000:0000:8a2e:0370:7334", "nowrap"},
		{1, "::ffff:192.0.2.128", "nowrap"},
		{1, strings.Repeat("x", 200), "text"},
		{2, "1,234", "num"},
		{3, "Mozilla/5.0", "text"},
	}
	for _, tc := range cases {
		if got := s.Class(tc.col, tc.cell); got != tc.want {
			t.Errorf("column %d %q: class %q, want %q", tc.col, tc.cell, got, tc.want)
		}
	}
}

func hasText(c chart, text string) bool {
	for _, l := range c.Texts {
		if l.Text == text {
			return true
		}
	}
	return false
}

func TestViolationChartSegments(t *testing.T) {
	res := &findings.Result{ViolationsChecked: true, Robots: []findings.RobotSummary{
		{Name: "A", Violations: 10, Prefixes: []findings.PrefixCount{{Prefix: "/x/", Count: 6}, {Prefix: "/y/", Count: 3}}},
		{Name: "B", Violations: 0},
		{Name: "C", Violations: 20, Prefixes: []findings.PrefixCount{{Prefix: "/y/", Count: 20}}},
	}}
	c, ok := violationChart(res)
	if !ok {
		t.Fatal("no chart")
	}
	var got []string
	for _, r := range c.Rects {
		got = append(got, fmt.Sprintf("%s %.0f", r.Class, r.W))
	}
	// C (most violations) first; /y/ has most in all, so the first colour;
	// A's one violation under no listed prefix is "other".
	scale := c.Rects[0].W / 20
	want := []string{fmt.Sprintf("p0 %.0f", 20*scale), fmt.Sprintf("p1 %.0f", 6*scale), fmt.Sprintf("p0 %.0f", 3*scale),
		fmt.Sprintf("p-other %.0f", 1*scale)}
	if !slices.Equal(got, want) {
		t.Errorf("segments %v, want %v", got, want)
	}
	if _, ok := violationChart(&findings.Result{}); ok {
		t.Error("a chart without a robots.txt check")
	}
}
