package report

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/detect"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/robots"
)

// hostileReport runs the detector on a small log whose User-agents, paths
// and client names are attacks on an HTML page, as anyone can send them.
func hostileReport(t *testing.T) *Report {
	t.Helper()
	rob := robots.ParseBytes([]byte("User-agent: *\nDisallow: /admin/\n"))
	d := detect.New(detect.Config{Robots: rob})
	start := time.Date(2024, 5, 6, 9, 0, 0, 0, time.FixedZone("", 2*3600))
	hostile := []struct{ client, ua, path string }{
		{"203.0.113.5", "<script>alert(1)</script>", "/admin/<script>alert(2)</script>"},
		{"203.0.113.6", `"><svg onload=alert(3)>bot/1.0`, `/admin/"><svg onload=alert(4)>`},
		{`"><img src=x onerror=alert(5)>`, "curl/8.0 </title><script>alert(6)</script>", "/admin/'-alert(7)-'"},
	}
	var n int64
	for i := 0; i < 40; i++ {
		for _, h := range hostile {
			n++
			d.Add(&logparse.Record{Client: h.client, UserAgent: h.ua, Time: start.Add(time.Duration(i) * 100 * time.Millisecond),
				Method: "GET", Target: h.path, Status: 200, Bytes: 100, Line: n})
		}
	}
	return &Report{
		Files:  []string{"<b>access.log</b>"},
		Stats:  logparse.Stats{Lines: n, Records: n, Format: "combined", First: start, Last: start.Add(4 * time.Second)},
		Result: d.Result(),
		Robots: []string{"robots.txt"},
	}
}

func TestHTMLEscapesHostileInput(t *testing.T) {
	r := hostileReport(t)
	if len(r.Result.Incidents) == 0 || r.Result.ViolationCount == 0 || len(r.Result.Timeline.ByRobot) == 0 {
		t.Fatalf("test setup: want incidents, violations and robot timelines: %+v", r.Result)
	}
	var b bytes.Buffer
	if err := Write(&b, "html", r, Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, bad := range []string{"<script", "<svg onload", "<img", "<b>"} {
		if strings.Contains(out, bad) {
			i := strings.Index(out, bad)
			t.Errorf("raw %q in the page: %q", bad, out[max(0, i-80):min(len(out), i+80)])
		}
	}
	// Every tag the page has is one the renderer writes.
	allowed := []string{"!DOCTYPE", "html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "p", "section",
		"figure", "figcaption", "span", "ul", "li", "svg", "line", "rect", "path", "text", "div", "table", "thead", "tbody", "tr", "th", "td"}
	for _, m := range regexp.MustCompile(`<([!a-zA-Z][a-zA-Z0-9]*)`).FindAllStringSubmatch(out, -1) {
		if !slices.Contains(allowed, m[1]) {
			t.Errorf("unexpected tag <%s", m[1])
		}
	}
	for _, want := range []string{"&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;svg onload=alert(4)&gt;", "&lt;img src=x onerror=alert(5)&gt;",
		"Content-Security-Policy"} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

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
// in the log's zone, with the date under the first.
func TestTimeAxis(t *testing.T) {
	zone := time.FixedZone("", -7*3600)
	cases := []struct {
		name       string
		start, end time.Time
		labels     []string
	}{
		{"an hour", time.Date(2024, 5, 6, 9, 3, 0, 0, zone), time.Date(2024, 5, 6, 10, 3, 0, 0, zone),
			[]string{"09:10", "2024-05-06", "09:20", "09:30", "09:40", "09:50", "10:00"}},
		{"seconds", time.Date(2024, 5, 6, 23, 59, 58, 0, zone), time.Date(2024, 5, 7, 0, 0, 3, 0, zone),
			[]string{"23:59:58", "2024-05-06", "23:59:59", "00:00:00", "2024-05-07", "00:00:01", "00:00:02", "00:00:03"}},
		{"two weeks", time.Date(2024, 5, 6, 0, 0, 0, 0, zone), time.Date(2024, 5, 20, 0, 0, 0, 0, zone),
			[]string{"May 9", "May 16"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := chart{W: 700}
			p := plot{left: 50, top: 0, width: 600, height: 100}
			c.xTimeAxis(p, tc.start, tc.end)
			var got []string
			for _, l := range c.Texts {
				got = append(got, l.Text)
				if l.X < p.left || l.X > p.left+p.width {
					t.Errorf("tick %q at x=%v outside the plot", l.Text, l.X)
				}
			}
			if !slices.Equal(got, tc.labels) {
				t.Errorf("labels %q, want %q", got, tc.labels)
			}
		})
	}
}

// TestSiteChartStacks: each bucket's bars are as tall as its requests on
// the chart's scale, humans at the bottom and robots on them.
func TestSiteChartStacks(t *testing.T) {
	tl := &detect.Timeline{
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
	if math.Abs(r.Y+r.H-h.Y) > 1e-9 {
		t.Errorf("robots (y %v h %v) do not sit on humans (y %v)", r.Y, r.H, h.Y)
	}
	if big.X <= r.X || !strings.Contains(big.Tip, "40 by robots") {
		t.Errorf("third bucket at x=%v, tip %q", big.X, big.Tip)
	}
}

func TestViolationChartSegments(t *testing.T) {
	res := &detect.Result{ViolationsChecked: true, Robots: []detect.RobotSummary{
		{Name: "A", Violations: 10, Prefixes: []detect.PrefixCount{{Prefix: "/x/", Count: 6}, {Prefix: "/y/", Count: 3}}},
		{Name: "B", Violations: 0},
		{Name: "C", Violations: 20, Prefixes: []detect.PrefixCount{{Prefix: "/y/", Count: 20}}},
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
	if _, ok := violationChart(&detect.Result{}); ok {
		t.Error("a chart without a robots.txt check")
	}
}
