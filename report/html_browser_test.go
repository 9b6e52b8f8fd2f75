package report

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/detect"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/robots"
)

// The HTML report must draw in a real browser, not only look right as
// text. These tests load it in headless Chromium (Debian's chromium
// package) and skip when no Chromium is installed.

// chromium finds a headless-capable Chromium or skips the test.
func chromium(t *testing.T) string {
	t.Helper()
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
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
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

// e2eHTML renders the end-to-end test site (testdata/e2e) as HTML.
func e2eHTML(t *testing.T) []byte {
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
	var b bytes.Buffer
	r := &Report{Files: []string{name}, Stats: rd.Stats(), Result: d.Result(), Robots: []string{"robots.txt"}}
	if err := Write(&b, "html", r, Options{}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// consoleTrouble is what Chromium logs for a script error or a blocked
// load (a Content-Security-Policy violation is a console error).
var consoleTrouble = regexp.MustCompile(`(?i)ERROR:CONSOLE|Uncaught|Refused to|Content.Security.Policy|net::ERR_`)

// TestHTMLLoadsCleanly: the report as written loads without a console
// error, a blocked request or a script.
func TestHTMLLoadsCleanly(t *testing.T) {
	bin := chromium(t)
	page := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(page, e2eHTML(t), 0o644); err != nil {
		t.Fatal(err)
	}
	dom, log := runChromium(t, bin, page, "--dump-dom")
	for _, line := range strings.Split(log, "\n") {
		if consoleTrouble.MatchString(line) {
			t.Errorf("browser console: %s", line)
		}
	}
	if !strings.Contains(dom, "<svg") || !strings.Contains(dom, "Rapid-fire incidents") {
		t.Errorf("dumped DOM lacks the charts or the tables:\n%.2000s", dom)
	}
}

// measureScript runs in a copy of the report after layout and writes, for
// every chart, its size on the page and the boxes of its shapes and labels.
const measureScript = `<script>
(function () {
  var out = [];
  document.querySelectorAll("figure").forEach(function (fig) {
    var svg = fig.querySelector("svg");
    if (!svg) { out.push({caption: fig.textContent.slice(0, 60), svg: false}); return; }
    var r = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal;
    var m = {caption: fig.querySelector("figcaption").textContent.slice(0, 60), svg: true,
      width: r.width, height: r.height, shapes: 0, drawn: 0, texts: 0, outside: []};
    svg.querySelectorAll("rect, path").forEach(function (s) {
      m.shapes++;
      var b = s.getBBox();
      if (b.width > 0 && b.height > 0 && getComputedStyle(s).fill !== "none") m.drawn++;
    });
    svg.querySelectorAll("text").forEach(function (s) {
      m.texts++;
      var b = s.getBBox();
      if (b.width <= 0 || b.x < -0.5 || b.x + b.width > vb.width + 0.5 || b.y < -0.5 || b.y + b.height > vb.height + 0.5) m.outside.push(s.textContent);
    });
    out.push(m);
  });
  var pre = document.createElement("pre");
  pre.id = "measured";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>`

type measuredChart struct {
	Caption string   `json:"caption"`
	SVG     bool     `json:"svg"`
	Width   float64  `json:"width"`
	Height  float64  `json:"height"`
	Shapes  int      `json:"shapes"`
	Drawn   int      `json:"drawn"`
	Texts   int      `json:"texts"`
	Outside []string `json:"outside"`
}

// TestHTMLChartsDraw: in a browser, every chart of the e2e report has a
// size on the page, shapes with a non-zero box, and axis labels inside its
// frame. A screenshot is kept when ROBOWATCH_SCREENSHOT names a file.
func TestHTMLChartsDraw(t *testing.T) {
	bin := chromium(t)
	html := string(e2eHTML(t))
	// The report's policy forbids scripts; the measuring copy allows
	// inline ones and nothing else.
	html = strings.Replace(html, "style-src 'unsafe-inline'", "style-src 'unsafe-inline'; script-src 'unsafe-inline'", 1)
	html = strings.Replace(html, "</body>", measureScript+"\n</body>", 1)
	page := filepath.Join(t.TempDir(), "measure.html")
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	dom, log := runChromium(t, bin, page, "--dump-dom", "--window-size=1280,2000")
	for _, line := range strings.Split(log, "\n") {
		if consoleTrouble.MatchString(line) {
			t.Errorf("browser console: %s", line)
		}
	}
	m := regexp.MustCompile(`(?s)<pre id="measured">(.*?)</pre>`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("the measuring script left nothing: did it run?\n%.3000s", dom)
	}
	var charts []measuredChart
	if err := json.Unmarshal([]byte(unescapeText(m[1])), &charts); err != nil {
		t.Fatalf("%v: %s", err, m[1])
	}
	// The e2e site has a timeline, robot names, one incident and violations.
	if len(charts) < 4 {
		t.Fatalf("%d charts, want the site timeline, robot timelines, an incident and violations: %+v", len(charts), charts)
	}
	for _, c := range charts {
		switch {
		case !c.SVG:
			t.Errorf("%q: no SVG", c.Caption)
		case c.Width < 200 || c.Height < 60:
			t.Errorf("%q: laid out %.0f × %.0f px", c.Caption, c.Width, c.Height)
		case c.Drawn == 0 || c.Drawn*2 < c.Shapes:
			t.Errorf("%q: %d of %d shapes drawn with a size", c.Caption, c.Drawn, c.Shapes)
		case c.Texts < 3:
			t.Errorf("%q: %d labels, want axes with ticks", c.Caption, c.Texts)
		case len(c.Outside) > 0:
			t.Errorf("%q: labels cut at the edge: %q", c.Caption, c.Outside)
		}
	}
	if path := os.Getenv("ROBOWATCH_SCREENSHOT"); path != "" {
		plain := filepath.Join(t.TempDir(), "report.html")
		if err := os.WriteFile(plain, e2eHTML(t), 0o644); err != nil {
			t.Fatal(err)
		}
		abs, _ := filepath.Abs(path)
		runChromium(t, bin, plain, "--screenshot="+abs, "--window-size=1280,2000")
		if fi, err := os.Stat(abs); err != nil || fi.Size() < 10000 {
			t.Errorf("screenshot %s: %v", abs, err)
		}
	}
}

// unescapeText undoes the entity escaping of a text node in dumped HTML.
func unescapeText(s string) string {
	return strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&#39;", "'").Replace(s)
}
