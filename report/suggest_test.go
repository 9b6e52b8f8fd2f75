package report_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/detect"
	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/report"
	"github.com/robowatch/robowatch/robots"
)

// TestSuggestedRobotsTxt: -o robots.txt is the site's file unchanged, then
// a group shutting out the AI-training crawlers the log saw (not one the
// file already has a group for), and the robots that broke it named in
// comments. It reads back as robots.txt: the AI crawlers are disallowed,
// the rest as before, and check --lint finds nothing it did not find in
// the site's own file.
func TestSuggestedRobotsTxt(t *testing.T) {
	siteText := "User-agent: *\nDisallow: /private/\n\nUser-agent: CCBot\nDisallow: /big/\n"
	site := robots.ParseBytes([]byte(siteText))
	d := detect.New(detect.Config{Robots: site})
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	for i, q := range []struct{ ip, ua, path string }{
		// The crawlers from their operators' published ranges: impostors
		// are not what a robots.txt group is for.
		{"20.171.206.9", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)", "/news"},
		{"18.97.9.170", "CCBot/2.0 (https://commoncrawl.org/faq/)", "/news"},
		{"20.64.57.209", "ClaudeBot/1.0; +claudebot@anthropic.com", "/news"},
		{"198.51.100.12", "python-requests/2.31\n#injected", "/private/y"},
	} {
		d.Add(&logparse.Record{Client: q.ip, UserAgent: q.ua, Method: "GET", Target: q.path, Status: 200, Time: t0.Add(time.Duration(i) * time.Second)})
	}
	var out bytes.Buffer
	if err := report.Write(&out, "robots.txt", &report.Report{Files: []string{"a.log"}, Result: d.Result(), SiteRobots: site}, report.Options{}); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if !strings.HasPrefix(text, siteText) {
		t.Fatalf("the site's file is not kept as it was:\n%s", text)
	}
	got := robots.ParseBytes(out.Bytes())
	for _, tt := range []struct {
		ua, path string
		allowed  bool
	}{
		{"GPTBot", "/news", false},
		{"ClaudeBot", "/news", false},
		{"CCBot", "/news", true}, // the site's own CCBot group stands
		{"CCBot", "/big/x", false},
		{"Googlebot", "/news", true},
		{"Googlebot", "/private/x", false},
	} {
		if ok, _ := got.Allowed(tt.ua, tt.path); ok != tt.allowed {
			t.Errorf("%s %s: allowed %v, want %v\n%s", tt.ua, tt.path, ok, tt.allowed, text)
		}
	}
	if p := report.SuggestLint(site, got); len(p) > 0 {
		t.Errorf("lint finds what the site's file did not have: %+v\n%s", p, text)
	}
	if !strings.Contains(text, "#   python-requests: 1 disallowed request") {
		t.Errorf("the robot that broke robots.txt is not named:\n%s", text)
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "#injected") {
			t.Errorf("a User-agent wrote a line: %q", line)
		}
	}
}

// TestSuggestedRobotsTxtEdges: a site's file that ends in User-agent lines
// without rules must not lend them the appended Disallow: / (Googlebot and
// bingbot were shut out of the whole site), and a group already written
// for a versioned name ("GPTBot/1.2", read as GPTBot's) is not added twice.
func TestSuggestedRobotsTxtEdges(t *testing.T) {
	const gptbot = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
	for _, tt := range []struct {
		name, site     string
		gptbotAllowed  bool
		googleAllowed  bool
		wantGroupAdded bool
	}{
		{"open group at the end", "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nUser-agent: bingbot\n# Disallow: /tmp/\n", false, true, true},
		{"versioned name has a group", "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot/1.2\nAllow: /\n", true, true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			site := robots.ParseBytes([]byte(tt.site))
			d := detect.New(detect.Config{Robots: site})
			d.Add(&logparse.Record{Client: "20.171.206.9", UserAgent: gptbot, Method: "GET", Target: "/news", Status: 200, Time: time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)})
			var out bytes.Buffer
			if err := report.Write(&out, "robots.txt", &report.Report{Files: []string{"a.log"}, Result: d.Result(), SiteRobots: site}, report.Options{}); err != nil {
				t.Fatal(err)
			}
			got := robots.ParseBytes(out.Bytes())
			for _, q := range []struct {
				ua   string
				want bool
			}{{"GPTBot", tt.gptbotAllowed}, {"Googlebot", tt.googleAllowed}, {"bingbot", tt.googleAllowed}} {
				if ok, _ := got.Allowed(q.ua, "/news"); ok != q.want {
					t.Errorf("%s /news: allowed %v, want %v\n%s", q.ua, ok, q.want, out.String())
				}
			}
			if added := strings.Contains(out.String(), "\nUser-agent: GPTBot\n"); added != tt.wantGroupAdded {
				t.Errorf("GPTBot group added %v, want %v\n%s", added, tt.wantGroupAdded, out.String())
			}
			if p := report.SuggestLint(site, got); len(p) > 0 {
				t.Errorf("lint finds what the site's file did not have: %+v", p)
			}
		})
	}
}

// TestWriteRobotsTxtWarnings: what WriteRobotsTxt tells the caller to show
// on stderr: a result over 500 KiB, which Google reads only the start of,
// naming the added group when it lies past that start, and a site's file
// too large to keep whole.
func TestWriteRobotsTxtWarnings(t *testing.T) {
	// GPTBot's violations make comments after the added group.
	res := &findings.Result{Robots: []findings.RobotSummary{{Name: "GPTBot", Purpose: "ai-training", Identity: "verified", Violations: 3, Finding: "ignored robots.txt"}}}
	pad := func(n int) string {
		return "User-agent: *\nDisallow: /private/\n" + strings.Repeat("#\n", (n-34)/2)
	}
	cut := robots.ParseBytes([]byte("User-agent: *\nDisallow: /x\n"))
	cut.Cut = true // as Parse sets it past robots.MaxKept
	for _, tt := range []struct {
		name string
		site *robots.Robots
		want []string
	}{
		{"small", robots.ParseBytes([]byte("User-agent: *\nDisallow: /x\n")), nil},
		{"group within 500 KiB, comments past", robots.ParseBytes([]byte(pad(robots.MaxSize - 300))), []string{"what lies past them is not read"}},
		{"group past 500 KiB", robots.ParseBytes([]byte(pad(robots.MaxSize + 10))), []string{"the group added at its end for GPTBot is not read"}},
		{"site's file over 16 MiB", cut, []string{"larger than 16 MiB: the suggested robots.txt keeps only its first 16 MiB"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			warnings, err := report.WriteRobotsTxt(&out, &report.Report{Files: []string{"a.log"}, Result: res, SiteRobots: tt.site})
			if err != nil {
				t.Fatal(err)
			}
			if len(warnings) != len(tt.want) {
				t.Fatalf("warnings %q, want %d (%d bytes)", warnings, len(tt.want), out.Len())
			}
			for i, w := range tt.want {
				if !strings.Contains(warnings[i], w) {
					t.Errorf("warning %q lacks %q", warnings[i], w)
				}
			}
		})
	}
}
