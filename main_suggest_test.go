package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/robowatch/robowatch/cli"
	"github.com/robowatch/robowatch/robots"
)

// bytespiderLog is one request with Bytespider's User-agent, from an
// address anyone may have: all it takes to add Bytespider's group.
const bytespiderLog = `203.0.113.7 - - [06/May/2024:09:00:00 +0000] "GET /news HTTP/1.1" 200 512 "-" "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)"` + "\n"

// suggest runs -o robots.txt over bytespiderLog with site as the site's
// robots.txt and returns the suggested file and what went to stderr; with
// merge, robowatch merge -o robots.txt of the run's JSON report does.
func suggest(t *testing.T, site string, merge bool) (string, string) {
	t.Helper()
	dir := t.TempDir()
	siteFile, logFile, part := filepath.Join(dir, "robots.txt"), filepath.Join(dir, "access.log"), filepath.Join(dir, "part.json")
	if err := os.WriteFile(siteFile, []byte(site), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(logFile, []byte(bytespiderLog), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"-o", "robots.txt", "--robots", siteFile, logFile}
	if merge {
		code, out, errOut := runCLI(t, nil, "-o", "json", "--robots", siteFile, logFile)
		if code != cli.ExitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if err := os.WriteFile(part, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		args = []string{"merge", "-o", "robots.txt", "--robots", siteFile, part}
	}
	code, out, errOut := runCLI(t, nil, args...)
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	return out, errOut
}

// TestSuggestCrawlDelayStarGroupKeepsGooglebot: a site's robots.txt that
// ends with "User-agent: *" and "Crawl-delay: 10" and no rule. Google ends
// a group only at a rule, so the appended "User-agent: Bytespider /
// Disallow: /" joined the * group and barred Googlebot, and every robot
// without a group, from the whole site, after one request with a
// Bytespider User-agent.
func TestSuggestCrawlDelayStarGroupKeepsGooglebot(t *testing.T) {
	for _, site := range []string{
		"User-agent: *\nCrawl-delay: 10\n",
		"User-agent: *\r\nCrawl-delay: 10\r\n",
		"User-agent: *\nCrawl-delay: 10",                         // no final line end
		"\xEF\xBB\xBFUser-agent: *\nCrawl-delay: 10 # be gentle", // BOM, a comment and no line end
		"User-agent: *\nCrawl-delay: 10\n\n# more to come\n",
	} {
		out, _ := suggest(t, site, false)
		if !strings.HasPrefix(out, site) {
			t.Errorf("%q: the site's file is not kept as it was:\n%s", site, out)
		}
		got := robots.ParseBytes([]byte(out))
		for _, q := range []struct {
			agent string
			want  bool
		}{{"Googlebot", true}, {"bingbot", true}, {"Bytespider", false}} {
			if ok, _ := got.Allowed(q.agent, "/news"); ok != q.want {
				t.Errorf("%q: %s /news: allowed %v, want %v\n%s", site, q.agent, ok, q.want, out)
			}
		}
		if g := got.Agent("Googlebot").Group(); g != "*" {
			t.Errorf("%q: Googlebot falls in group %q, want the site's *\n%s", site, g, out)
		}
	}
}

// TestSuggestKeepsLargeSiteFile: a site's robots.txt over 500 KiB is kept
// whole, its last groups and Sitemap line too (it was cut at 500 KiB), and
// stderr warns that Google reads only the first 500 KiB, so the groups
// added after them go unread.
func TestSuggestKeepsLargeSiteFile(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := 0; b.Len() < robots.MaxSize+4096; i++ {
		b.WriteString("Disallow: /archive/" + strings.Repeat("x", 40) + "/" + strconv.Itoa(i) + "/\n")
	}
	b.WriteString("\nUser-agent: Googlebot\nDisallow: /late/\n\nSitemap: https://www.example.com/sitemap.xml\n")
	site := b.String()
	for _, merge := range []bool{false, true} {
		out, errOut := suggest(t, site, merge)
		if !strings.HasPrefix(out, site) {
			t.Errorf("merge %v: the site's file is not kept whole: %d bytes of %d kept", merge, commonPrefix(out, site), len(site))
		}
		if !strings.Contains(out, "\nUser-agent: Bytespider\n") {
			t.Errorf("merge %v: no Bytespider group added", merge)
		}
		if !strings.Contains(errOut, "warning: the suggested robots.txt is 50") || !strings.Contains(errOut, "first 500 KiB: the group added at its end for Bytespider is not read") {
			t.Errorf("merge %v: no warning that the added group lies past 500 KiB: %q", merge, errOut)
		}

		// A small file draws no such warning.
		if _, errOut := suggest(t, "User-agent: *\nDisallow: /private/\n", merge); strings.Contains(errOut, "500 KiB") {
			t.Errorf("merge %v: warning for a small file: %q", merge, errOut)
		}
	}
}

func commonPrefix(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}
