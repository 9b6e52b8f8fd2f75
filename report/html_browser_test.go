package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"os"
	"os/exec"
	"path/filepath"
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

// The HTML report must draw in a real browser, not only look right as
// text. These tests load it in headless Chromium (Debian's chromium
// package) and skip when no Chromium is installed. Nothing is fetched: the
// pages are files written by the test.

// chromium finds a headless-capable Chromium or skips the test; under
// -short it skips: a browser takes seconds to start.
func chromium(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a browser")
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium installed (apt-get install chromium)")
	return ""
}

// runChromium loads file in a fresh headless profile with extra flags and
// returns its standard output and error.
func runChromium(t *testing.T, bin, file string, extra ...string) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
		"--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0"}
	args = append(args, extra...)
	args = append(args, "file://"+file)
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, errOut.String())
	}
	return out.String(), errOut.String()
}

// e2eReport is the end-to-end test site (testdata/scenarios/site), as the
// html golden shows it.
func e2eReport(t *testing.T) *report.Report {
	t.Helper()
	rf, err := os.ReadFile("../testdata/scenarios/site/robots.txt")
	if err != nil {
		t.Fatal(err)
	}
	d := detect.New(detect.Config{Robots: robots.ParseBytes(rf)})
	const name = "../testdata/scenarios/site/site.log"
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	format, err := logparse.ParseFormat("auto")
	if err != nil {
		t.Fatal(err)
	}
	rd := logparse.NewReader(f, name, format)
	var rec logparse.Record
	for {
		err := rd.Read(&rec)
		if errors.Is(err, io.EOF) {
			break
		}
		var pe *logparse.ParseError
		if err != nil && !errors.As(err, &pe) {
			t.Fatal(err)
		}
		if err == nil {
			d.Add(&rec)
		}
	}
	return &report.Report{Files: []string{name}, Stats: rd.Stats(), Result: d.Result(), Robots: []string{"robots.txt"}}
}

// crowdedReport is a busier site than the e2e one, built to strain the
// layout: 130 clients at full-length IPv6 addresses (so the clients table
// is long and its addresses wide), twelve robots with long names and
// violations, three incidents, long User-agents, a span across midnight
// and one client's drill-down.
func crowdedReport(t *testing.T) *report.Report {
	t.Helper()
	const watched = "2001:0db8:ffff:ffff:ffff:ffff:ffff:ff00" // a robot with an incident: its drill-down (--client)
	d := detect.New(detect.Config{Robots: robots.ParseBytes([]byte("User-agent: *\nDisallow: /private/\n")),
		Watch: func(ip string) bool { return ip == watched }})
	start := time.Date(2024, 5, 6, 23, 10, 0, 0, time.FixedZone("", 2*3600))
	var recs []logparse.Record
	add := func(client, ua string, at time.Duration, target, referer string) {
		recs = append(recs, logparse.Record{Client: client, UserAgent: ua, Time: start.Add(at), Method: "GET", Target: target,
			Status: 200, Bytes: 5120, Referer: referer})
	}
	const browser = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.80"
	for i := 0; i < 118; i++ {
		ip := fmt.Sprintf("2001:0db8:85a3:0000:%04x:8a2e:0370:%04x", i*37%65536, i*7919%65536)
		for v := 0; v < 1+i%4; v++ {
			at := time.Duration(i*41+v*977) * time.Second % (100 * time.Minute)
			add(ip, browser, at, fmt.Sprintf("/articles/%d", i+v), "")
			add(ip, browser, at+time.Second, "/static/site.css", "https://www.example.com/")
			add(ip, browser, at+time.Second, "/static/app.js", "https://www.example.com/")
		}
	}
	add("::ffff:192.0.2.128", browser, 10*time.Minute, "/", "")
	for r := 0; r < 12; r++ {
		ip := fmt.Sprintf("2001:0db8:ffff:ffff:ffff:ffff:ffff:%04x", 0xff00+r)
		ua := fmt.Sprintf("ExampleCrawler%02d-with-a-long-product-name/2.1 (+https://crawler%02d.example.com/about-our-robot.html)", r, r)
		add(ip, ua, time.Duration(r)*time.Minute, "/robots.txt", "")
		for k := 0; k < 6+r*4; k++ {
			add(ip, ua, time.Duration(r)*time.Minute+time.Duration(k*53)*time.Second, fmt.Sprintf("/private/page-%d-%d", r, k), "")
		}
		if r < 3 { // a burst: an incident
			for k := 0; k < 45; k++ {
				add(ip, ua, time.Duration(20+r*25)*time.Minute+time.Duration(k*40)*time.Millisecond, fmt.Sprintf("/catalogue?page=%d", k), "")
			}
		}
	}
	slices.SortStableFunc(recs, func(a, b logparse.Record) int { return a.Time.Compare(b.Time) })
	for i := range recs {
		recs[i].Line = int64(i + 1)
		d.Add(&recs[i])
	}
	n := int64(len(recs))
	return &report.Report{
		Files:  []string{"/var/log/nginx/access.log.1", "/var/log/nginx/access.log"},
		Stats:  logparse.Stats{Lines: n, Records: n, Format: "combined", First: recs[0].Time, Last: recs[n-1].Time},
		Result: d.Result(),
		Robots: []string{"/var/www/html/robots.txt"},
	}
}

func renderHTML(t *testing.T, r *report.Report) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := report.Write(&b, "html", r, report.Options{}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// consoleTrouble is what Chromium logs for a script error or a blocked
// load (a Content-Security-Policy violation is a console error).
var consoleTrouble = regexp.MustCompile(`(?i)ERROR:CONSOLE|Uncaught|Refused to|Content.Security.Policy|net::ERR_`)

func checkConsole(t *testing.T, log string) {
	t.Helper()
	for _, line := range strings.Split(log, "\n") {
		if consoleTrouble.MatchString(line) {
			t.Errorf("browser console: %s", line)
		}
	}
}

// TestHTMLLoadsCleanly: the report as written, opened as a file, loads
// without a console error, a blocked request or a script.
func TestHTMLLoadsCleanly(t *testing.T) {
	bin := chromium(t)
	page := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(page, renderHTML(t, e2eReport(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	dom, log := runChromium(t, bin, page, "--dump-dom")
	checkConsole(t, log)
	if !strings.Contains(dom, "<svg") || !strings.Contains(dom, "Rapid-fire incidents") {
		t.Errorf("dumped DOM lacks the charts or the tables:\n%.2000s", dom)
	}
}

// A viewport the layout is checked at: a laptop's and a phone's.
type viewport struct{ W, H int }

var viewports = []viewport{{1280, 720}, {400, 700}}

// How the layout is measured. Chromium's --window-size cannot make a
// 400 px viewport (headless Chromium keeps a window at least 500 px wide,
// and its height includes the window's frame), and the report runs no
// script. So the test writes a page of its own: each report, byte for
// byte as written, in iframes (srcdoc) of exactly the viewports' sizes,
// and a script in the outer page that measures inside them after they
// have loaded and writes what it found into the DOM as JSON, which
// --dump-dom prints. The reports keep their Content-Security-Policy: no
// script runs inside them. One Chromium run measures every report at
// every width.
const layoutScript = `<script>
window.addEventListener("load", function () {
  var out = [];
  function box(r) { return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height}; }
  function measure(f) {
    var d = f.contentDocument, w = f.contentWindow, de = d.documentElement;
    var m = {frame: f.id, innerWidth: w.innerWidth, innerHeight: w.innerHeight, clientWidth: de.clientWidth,
      scrollWidth: de.scrollWidth, scripts: d.scripts.length, headline: null, tables: [], charts: [], nowrap: 0, wrapped: []};
    var hl = d.querySelector("#headline .scroll");
    if (hl) m.headline = box(hl.getBoundingClientRect());
    d.querySelectorAll(".scroll").forEach(function (s) {
      m.tables.push({section: s.closest("section").id, kv: s.classList.contains("kv"), box: box(s.getBoundingClientRect()),
        clientHeight: s.clientHeight, scrollHeight: s.scrollHeight, clientWidth: s.clientWidth, scrollWidth: s.scrollWidth,
        overflow: getComputedStyle(s).overflowY,
        rows: s.querySelectorAll("tbody tr").length});
    });
    d.querySelectorAll("td.nowrap").forEach(function (td) {
      m.nowrap++;
      var range = d.createRange(), lines = {};
      range.selectNodeContents(td);
      Array.prototype.forEach.call(range.getClientRects(), function (r) { lines[Math.round(r.top)] = true; });
      if (Object.keys(lines).length > 1) m.wrapped.push(td.textContent);
    });
    d.querySelectorAll("figure").forEach(function (fig) {
      var svg = fig.querySelector("svg.chart"), plot = fig.querySelector(".plot");
      var c = {caption: fig.querySelector("figcaption").textContent.slice(0, 60), section: fig.closest("section").id,
        grid: !!fig.closest(".multiples"), figure: box(fig.getBoundingClientRect()), svg: !!svg && !!plot};
      if (!c.svg) { m.charts.push(c); return; }
      var r = svg.getBoundingClientRect(), pr = plot.getBoundingClientRect(), seen = [];
      c.width = r.width; c.height = r.height; c.shapes = 0; c.drawn = 0; c.texts = 0; c.shown = 0; c.outside = []; c.overlaps = [];
      svg.querySelectorAll("svg.data rect, svg.data path").forEach(function (s) {
        c.shapes++;
        var b = s.getBoundingClientRect();
        if (b.width > 0 && b.height > 0 && getComputedStyle(s).fill !== "none") c.drawn++;
      });
      svg.querySelectorAll("text").forEach(function (t) {
        c.texts++;
        if (t.getClientRects().length === 0) return; // hidden at this width
        c.shown++;
        var b = t.getBoundingClientRect();
        if (b.width <= 0 || b.left < pr.left - 0.5 || b.right > pr.right + 0.5 || b.top < pr.top - 0.5 || b.bottom > pr.bottom + 0.5) c.outside.push(t.textContent);
        seen.forEach(function (o) {
          if (Math.min(b.right, o.b.right) - Math.max(b.left, o.b.left) > 1 && Math.min(b.bottom, o.b.bottom) - Math.max(b.top, o.b.top) > 1) c.overlaps.push(o.text + " | " + t.textContent);
        });
        seen.push({b: b, text: t.textContent});
      });
      m.charts.push(c);
    });
    return m;
  }
  var pre = document.createElement("pre");
  pre.id = "measured";
  try {
    document.querySelectorAll("iframe").forEach(function (f) { out.push(measure(f)); });
    pre.textContent = JSON.stringify(out);
  } catch (e) {
    pre.textContent = JSON.stringify({error: String(e && e.stack || e)});
  }
  document.body.appendChild(pre);
});
</script>`

type measuredBox struct {
	Left, Top, Right, Bottom, Width, Height float64
}

type measuredFrame struct {
	Frame       string          `json:"frame"`
	InnerWidth  float64         `json:"innerWidth"`
	InnerHeight float64         `json:"innerHeight"`
	ClientWidth float64         `json:"clientWidth"`
	ScrollWidth float64         `json:"scrollWidth"`
	Scripts     int             `json:"scripts"`
	Headline    *measuredBox    `json:"headline"`
	Tables      []measuredTable `json:"tables"`
	Charts      []measuredChart `json:"charts"`
	NoWrap      int             `json:"nowrap"`
	Wrapped     []string        `json:"wrapped"`
}

type measuredTable struct {
	Section      string      `json:"section"`
	KV           bool        `json:"kv"`
	Box          measuredBox `json:"box"`
	ClientHeight float64     `json:"clientHeight"`
	ScrollHeight float64     `json:"scrollHeight"`
	ClientWidth  float64     `json:"clientWidth"`
	ScrollWidth  float64     `json:"scrollWidth"`
	Overflow     string      `json:"overflow"`
	Rows         int         `json:"rows"`
}

type measuredChart struct {
	Caption  string      `json:"caption"`
	Section  string      `json:"section"`
	Grid     bool        `json:"grid"`
	Figure   measuredBox `json:"figure"`
	SVG      bool        `json:"svg"`
	Width    float64     `json:"width"`
	Height   float64     `json:"height"`
	Shapes   int         `json:"shapes"`
	Drawn    int         `json:"drawn"`
	Texts    int         `json:"texts"`
	Shown    int         `json:"shown"`
	Outside  []string    `json:"outside"`
	Overlaps []string    `json:"overlaps"`
}

// layoutPage is the measuring page: every report in an iframe of each
// viewport's size, side by side, named REPORT@WIDTH.
func layoutPage(reports map[string][]byte, names []string, script string) []byte {
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>layout</title></head>\n" +
		"<body style=\"margin:0; display:flex; align-items:flex-start; gap:24px; background:#888\">\n")
	for _, name := range names {
		for _, v := range viewports {
			fmt.Fprintf(&b, "<iframe id=\"%s@%d\" style=\"border:0; flex:none; width:%dpx; height:%dpx; background:#fff\" srcdoc=\"%s\"></iframe>\n",
				name, v.W, v.W, v.H, html.EscapeString(string(reports[name])))
		}
	}
	b.WriteString(script)
	b.WriteString("\n</body></html>\n")
	return b.Bytes()
}

// TestHTMLLayout: in Chromium, at 1280 × 720 and at 400 × 700, for the e2e
// site and a crowded one, the report
//   - does not scroll sideways (the document is no wider than the window);
//   - shows the whole summary box without scrolling;
//   - fills the window's width with its tables and charts (less the
//     page's margins);
//   - keeps long tables in boxes of their own that scroll, at most 70% of
//     the window high, and on the laptop's screen fits them to its width,
//     full IPv6 addresses included;
//   - keeps every address and time on one line;
//   - draws every chart with a size, shapes with a size, and labels that
//     are neither cut at the chart's edge nor on top of one another.
//
// ROBOWATCH_SCREENSHOT=FILE.png keeps a picture of every viewport side by
// side, as they first show.
func TestHTMLLayout(t *testing.T) {
	bin := chromium(t)
	reports := map[string][]byte{"site": renderHTML(t, e2eReport(t)), "crowded": renderHTML(t, crowdedReport(t))}
	names := []string{"site", "crowded"}
	dir := t.TempDir()
	page := filepath.Join(dir, "layout.html")
	if err := os.WriteFile(page, layoutPage(reports, names, layoutScript), 0o644); err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	dom, log := runChromium(t, bin, page, "--dump-dom", "--window-size=1400,900")
	t.Logf("Chromium measured %d reports at %d widths in %v", len(names), len(viewports), time.Since(began).Round(10*time.Millisecond))
	checkConsole(t, log)
	m := regexp.MustCompile(`(?s)<pre id="measured">(.*?)</pre>`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("the measuring script left nothing: did it run?\n%.3000s", dom)
	}
	text := html.UnescapeString(m[1])
	var frames []measuredFrame
	if err := json.Unmarshal([]byte(text), &frames); err != nil {
		t.Fatalf("%v: %.3000s", err, text)
	}
	if len(frames) != len(names)*len(viewports) {
		t.Fatalf("measured %d frames, want %d", len(frames), len(names)*len(viewports))
	}
	i := 0
	for _, name := range names {
		for _, v := range viewports {
			f := frames[i]
			i++
			t.Run(f.Frame, func(t *testing.T) { checkLayout(t, name, v, f) })
		}
	}
	if path := os.Getenv("ROBOWATCH_SCREENSHOT"); path != "" {
		plain := filepath.Join(dir, "screenshot.html")
		if err := os.WriteFile(plain, layoutPage(reports, names, ""), 0o644); err != nil {
			t.Fatal(err)
		}
		abs, _ := filepath.Abs(path)
		width := 24 * len(names) * len(viewports)
		for _, v := range viewports {
			width += len(names) * v.W
		}
		runChromium(t, bin, plain, "--hide-scrollbars", "--screenshot="+abs, fmt.Sprintf("--window-size=%d,%d", width, 720))
		if fi, err := os.Stat(abs); err != nil || fi.Size() < 10000 {
			t.Errorf("screenshot %s: %v", abs, err)
		}
	}
}

func checkLayout(t *testing.T, name string, v viewport, f measuredFrame) {
	if f.InnerWidth != float64(v.W) || f.InnerHeight != float64(v.H) {
		t.Fatalf("viewport %v × %v, want %d × %d", f.InnerWidth, f.InnerHeight, v.W, v.H)
	}
	if f.Scripts != 0 {
		t.Errorf("%d scripts in the report", f.Scripts)
	}
	if f.ScrollWidth > f.ClientWidth {
		t.Errorf("the page scrolls sideways: %v px of content in a %v px window", f.ScrollWidth, f.ClientWidth)
	}
	// The page's margins are at most 24 px a side.
	full := f.ClientWidth - 2*24 - 1
	if h := f.Headline; h == nil {
		t.Error("no headline box")
	} else if h.Top < 0 || h.Left < 0 || h.Bottom > f.InnerHeight || h.Right > f.ClientWidth {
		t.Errorf("headline box at %+v: not all of it in the first %v × %v", *h, f.ClientWidth, f.InnerHeight)
	}
	long := false
	for _, tb := range f.Tables {
		if tb.Box.Width < full {
			t.Errorf("%s: table %.0f px wide in a %v px window", tb.Section, tb.Box.Width, f.ClientWidth)
		}
		if v.W >= 1000 && tb.ScrollWidth > tb.ClientWidth {
			t.Errorf("%s: the table needs %v px, more than its box's %v", tb.Section, tb.ScrollWidth, tb.ClientWidth)
		}
		if tb.KV {
			continue
		}
		if tb.Overflow != "auto" || tb.Box.Height > 0.7*f.InnerHeight+2 {
			t.Errorf("%s: table box %.0f px high (overflow %s) in a %v px window", tb.Section, tb.Box.Height, tb.Overflow, f.InnerHeight)
		}
		if tb.ScrollHeight > tb.ClientHeight {
			long = true
		}
	}
	if name == "crowded" && !slices.ContainsFunc(f.Tables, func(tb measuredTable) bool { return tb.Section == "client" }) {
		t.Error("no drill-down of a client (--client)")
	}
	if name == "crowded" && !long {
		t.Error("no table long enough to scroll in its box: the test lost its point")
	}
	if f.NoWrap == 0 {
		t.Error("no cell marked to keep on one line (addresses, times)")
	}
	if len(f.Wrapped) > 0 {
		t.Errorf("addresses or times broken over lines: %q", f.Wrapped)
	}
	// The e2e site has a timeline, robot timelines, an incident and
	// violations.
	sections := map[string]int{}
	for _, c := range f.Charts {
		sections[c.Section]++
		switch {
		case !c.SVG:
			t.Errorf("%q: no SVG", c.Caption)
		case c.Width < 200 || c.Height < 60:
			t.Errorf("%q: laid out %.0f × %.0f px", c.Caption, c.Width, c.Height)
		case !c.Grid && c.Figure.Width < full:
			t.Errorf("%q: %.0f px wide in a %v px window", c.Caption, c.Figure.Width, f.ClientWidth)
		case c.Drawn == 0 || c.Drawn*2 < c.Shapes:
			t.Errorf("%q: %d of %d shapes drawn with a size", c.Caption, c.Drawn, c.Shapes)
		case c.Shown < 5:
			t.Errorf("%q: %d of %d labels shown, want axes with ticks and names", c.Caption, c.Shown, c.Texts)
		case len(c.Outside) > 0:
			t.Errorf("%q: labels cut at the edge: %q", c.Caption, c.Outside)
		case len(c.Overlaps) > 0:
			t.Errorf("%q: labels on top of each other: %q", c.Caption, c.Overlaps)
		}
	}
	if sections["summary"] != 1 || sections["robots"] < 2 || sections["incidents"] < 1 || sections["violations"] != 1 {
		t.Errorf("charts by section %v, want the site timeline, robot timelines, incidents and violations", sections)
	}
}
