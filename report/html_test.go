package report_test

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/detect"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/report"
	"github.com/robowatch/robowatch/robots"
)

// hostileReport runs the detector on a small log whose User-agents, paths
// and client names are attacks on an HTML page, as anyone can send them.
func hostileReport(t *testing.T) *report.Report {
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
	return &report.Report{
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
	if err := report.Write(&b, "html", r, report.Options{}); err != nil {
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
		"figure", "figcaption", "span", "ul", "li", "svg", "line", "rect", "path", "text", "tspan", "div", "table", "thead", "tbody", "tr", "th", "td"}
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

// TestHTMLSummaryFirst: the summary's table is the first thing under the
// title, before any chart.
func TestHTMLSummaryFirst(t *testing.T) {
	var b bytes.Buffer
	if err := report.Write(&b, "html", hostileReport(t), report.Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	table, svg := strings.Index(out, `<table class="kv">`), strings.Index(out, "<svg")
	if table < 0 || svg < 0 || table > svg || !strings.Contains(out[table:svg], "Time span") {
		t.Errorf("summary table at %d, first chart at %d", table, svg)
	}
}
