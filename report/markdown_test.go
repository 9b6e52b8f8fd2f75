package report_test

import (
	"bytes"
	"context"
	"html"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/detect"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/report"
	"github.com/robowatch/robowatch/robots"
)

// hostileMarkdown are User-agents, paths and Referers that GitHub-flavoured
// Markdown would make links, images, HTML or table breaks of.
var hostileMarkdown = []string{
	"Mozilla/5.0 (compatible; evilbot/1.0; +https://evil.example/phish)",
	"wwwbot/1.0 (www.evil.example/x; mail bot@evil.example)",
	"mailbot/1.0 mailto:bot@evil.example xmpp:bot@evil.example/r @admin",
	"![x](https://evil.example/p.png) pngbot/1.0",
	"[click](javascript:alert(1)) linkbot/1.0",
	"<https://evil.example/angle> anglebot/1.0",
	"<img src=x onerror=alert(1)> imgbot/1.0",
	"`code` &lt;b&gt; ~~s~~ | --- | tickbot/1.0",
	"_https://evil.example/a_b_ *www.evil.example* autobot/1.0",
	"# Heading\\ hbot/1.0 \\`@@`\\",
}

// TestMarkdownRendersNoLink renders a Markdown report of a log full of
// hostileMarkdown with cmark-gfm, GitHub's own Markdown library, with
// GitHub's extensions: the page has no link, image or HTML of the log's,
// and every User-agent reads as it was sent. It skips when cmark-gfm is not
// installed (Debian's cmark-gfm package).
func TestMarkdownRendersNoLink(t *testing.T) {
	bin, err := exec.LookPath("cmark-gfm")
	if err != nil {
		t.Skip("no cmark-gfm installed (apt-get install cmark-gfm)")
	}
	rob := robots.ParseBytes([]byte("User-agent: *\nDisallow: /private\n"))
	d := detect.New(detect.Config{Robots: rob})
	start := time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC)
	var n int64
	for i := range 30 {
		for j, ua := range hostileMarkdown {
			n++
			target := "/private/" + hostileMarkdown[(i+j)%len(hostileMarkdown)]
			d.Add(&logparse.Record{Client: "203.0.113." + string(rune('1'+j)), UserAgent: ua, Referer: ua,
				Time: start.Add(time.Duration(i) * 200 * time.Millisecond), Method: "GET", Target: target,
				Status: 200, Bytes: 10, Line: n})
		}
	}
	r := &report.Report{Files: []string{"access.log"}, Stats: logparse.Stats{Lines: n + 1, Records: n, Malformed: 1, Format: "combined",
		First: start, Last: start.Add(6 * time.Second),
		Samples: []*logparse.ParseError{{File: "access.log", Line: n + 1, Text: hostileMarkdown[0]}}},
		Result: d.Result(), Robots: []string{"robots.txt"}}
	var md bytes.Buffer
	if err := report.Write(&md, "markdown", r, report.Options{}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-e", "table", "-e", "autolink", "-e", "strikethrough", "-e", "tagfilter")
	cmd.Stdin = &md
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("cmark-gfm: %v", err)
	}
	page := string(out)
	allowed := map[string]bool{"h2": true, "p": true, "table": true, "thead": true, "tbody": true, "tr": true, "th": true, "td": true, "code": true}
	for _, m := range regexp.MustCompile(`<(/?)([a-zA-Z0-9]+)`).FindAllStringSubmatch(page, -1) {
		if !allowed[strings.ToLower(m[2])] {
			t.Errorf("the rendered report has a <%s%s> element", m[1], m[2])
		}
	}
	text := html.UnescapeString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(page, ""))
	for _, ua := range hostileMarkdown {
		if !strings.Contains(text, ua) {
			t.Errorf("the rendered report does not show the User-agent %q as sent", ua)
		}
	}
	if t.Failed() {
		t.Logf("Markdown:\n%s\nrendered:\n%s", md.String(), page)
	}
}
