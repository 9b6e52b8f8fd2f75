package report

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/robots"
)

// lintCaseFiles are the files of the robots package's TestLint cases
// (robots/lint_test.go), copied: each is a way a robots.txt goes wrong.
var lintCaseFiles = []struct{ name, file string }{
	{"lint: clean", "User-agent: *\nDisallow: /private/\nSitemap: https://e.example/s.xml\n"},
	{"lint: unknown key", "User-agent: *\nDisallow: /x\nFoo: bar\n"},
	{"lint: unknown key near a known one", "Usr-agent: *\nDisallow: /x\n"},
	{"lint: misspelled", "User-agent: *\nDissallow: /x\n"},
	{"lint: misspelled agent", "Useragent: *\nDisallow: /x\n"},
	{"lint: missing colon", "User-agent *\nDisallow /x\n"},
	{"lint: garbage", "User-agent: *\nDisallow: /x\njust some words\n"},
	{"lint: rule outside group", "Disallow: /x\nCrawl-delay: 3\nUser-agent: *\nDisallow: /y\n"},
	{"lint: several * groups", "User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n"},
	{"lint: several groups", "User-agent: a\nDisallow: /a\nUser-agent: A\nDisallow: /b\n"},
	{"lint: path start", "User-agent: *\nDisallow: private/\n"},
	{"lint: full URL as path", "User-agent: *\nDisallow: https://example.com/private/?a\n"},
	{"lint: dollar inside", "User-agent: *\nDisallow: /a$b\n"},
	{"lint: empty disallow meant as block", "User-agent: BadBot\nDisallow:\n\nUser-agent: *\nDisallow:\n"},
	{"lint: empty disallow, no * group", "User-agent: AhrefsBot\nDisallow:\n"},
	{"lint: empty disallow as whitelist", "# robots.txt for http://www.example.com/\n\nUser-agent: *\nDisallow: /cyberworld/map/ # This is an infinite virtual URL space\n\n# Cybermapper knows where to go.\nUser-agent: cybermapper\nDisallow:\n"},
	{"lint: allow-all file", "User-agent: *\nDisallow:\n"},
	{"lint: several agents", "User-agent: Copernicus Fred\nDisallow: /x\n"},
	{"lint: version not a name", "User-agent: Yahoo Pipes 1.0\nDisallow: /x\n"},
	{"lint: several paths", "User-agent: *\nDisallow: /cgi-bin/ /tmp/\n"},
	{"lint: path with a space", "User-agent: *\nDisallow: /Service References/\n"},
	{"lint: path with spaces, no slash", "User-agent: *\nDisallow: /docs/Staff Dev/ x\n"},
	{"lint: 1994 blank line", "User-agent: cybermapper\n\nUser-agent: *\nDisallow: /\n"},
	{"lint: 1994 blank line, two agents", "User-agent: a\nUser-agent: b\n\n\nUser-agent: c\nDisallow: /\n"},
	{"lint: rules after blank", "User-agent: *\nAllow: /\n\nDisallow: /x\nDisallow: /y\n"},
	{"lint: empty user-agent", "User-agent:\nDisallow: /x\n"},
	{"lint: bad user-agent", "User-agent: (foo)\nDisallow: /x\n"},
	{"lint: agent wildcard", "User-agent: Mediapartners-Google*\nDisallow: /\n"},
	{"lint: agent not token", "User-agent: Twitterbot/1.0\nDisallow: /\n"},
	{"lint: browser word", "User-agent: Safari\nDisallow: /s/\n"},
	{"lint: browser word, whole header", "User-agent: Mozilla/4.0 (compatible; MSIE 6.0; MS Search 6.0 Robot)\nDisallow: /\n"},
	{"lint: dotted agent not token", "User-agent: Mail.RU_Bot\nDisallow: /\n"},
	{"lint: bad crawl-delay", "User-agent: *\nCrawl-delay: 10s\nDisallow: /x\n"},
	{"lint: duplicate crawl-delay", "User-agent: *\nCrawl-delay: 1\nCrawl-delay: 2\nDisallow: /x\n"},
	{"lint: crawl-delay joins", "User-agent: *\nCrawl-delay: 10\n# AI\nUser-agent: CCBot\nDisallow: /\n"},
	{"lint: crawl-delay chain: one warning", "User-agent: a\nCrawl-delay: 2\n\nUser-agent: b\nCrawl-delay: 1\n\nUser-agent: c\nUser-agent: d\nDisallow: /\n"},
	{"lint: crawl-delay then rule", "User-agent: a\nCrawl-delay: 2\nDisallow: /x\nUser-agent: b\nDisallow: /\n"},
	{"lint: crawl-delay after agents", "User-agent: a\nUser-agent: b\nCrawl-delay: 2\nDisallow: /x\n"},
	{"lint: crawl-delay, no rules after", "User-agent: a\nCrawl-delay: 2\nUser-agent: b\nCrawl-delay: 3\n"},
	{"lint: sitemap relative", "User-agent: *\nDisallow: /x\nSitemap: /sitemap.xml\n"},
	{"lint: non-standard collapsed", "User-agent: *\nDisallow: /z\nNoindex: /a\nNoindex: /b\nNoindex: /c\nHost: e.example\n"},
	{"lint: no groups", "# nothing\n"},
	{"lint: group without rules at the end", "User-agent: a\nDisallow: /x\nUser-agent: b\n"},
	{"lint: html", "<!DOCTYPE html>\n<html><head><title>Not Found: oops</title></head>\n<body>Disallow all robots</body></html>\n"},
}

// edgeCaseFiles are the ends of files that a suggestion appended to
// without care would join: open groups, the Crawl-delay of the issue,
// files without a final line end, CRLF and CR-only files, a BOM, a file
// ending in a comment, keys only Google reads, and a file over 500 KiB.
var edgeCaseFiles = []struct{ name, file string }{
	{"crawl-delay star at the end", "User-agent: *\nCrawl-delay: 10\n"},
	{"crawl-delay star after rules", "User-agent: Googlebot\nDisallow: /nogoogle/\n\nUser-agent: *\nCrawl-delay: 10\n"},
	{"crawl-delay, CRLF", "User-agent: *\r\nDisallow: /private/\r\n\r\nUser-agent: *\r\nCrawl-delay: 10\r\n"},
	{"crawl-delay, CR only", "User-agent: *\rDisallow: /private/\r\rUser-agent: bingbot\rCrawl-delay: 5\r"},
	{"crawl-delay, no final line end", "User-agent: *\nDisallow: /private/\nUser-agent: bingbot\nCrawl-delay: 5"},
	{"comment without line end", "User-agent: *\nDisallow: /private/\n# User-agent: Bytespider"},
	{"agent in a comment without line end", "User-agent: *\n# Disallow: /"},
	{"BOM, open group", "\xEF\xBB\xBFUser-agent: *\nCrawl-delay: 10\n"},
	{"BOM only", "\xEF\xBB\xBF"},
	{"half a BOM, open group", "\xEF\xBBUser-agent: Googlebot\n"},
	{"open named group, blank line and comments", "User-agent: *\nDisallow: /tmp/\n\nUser-agent: Googlebot\nUser-agent: bingbot\n\n# the end\n"},
	{"sitemap after an open group", "User-agent: *\nCrawl-delay: 2\nSitemap: https://e.example/s.xml\n"},
	{"Google-only agent key", "User-agent: *\nDisallow: /private/\nUser-agents: Googlebot\n"},
	{"Google-only rule key", "User-agent: bingbot\nDisallowed: /x\n"},
	{"rule hidden from Google by a NUL", "User-agent: Googlebot\n\x00Disallow: /x\n"},
	{"rule hidden from Google by a long line", "User-agent: Googlebot\n" + strings.Repeat(" ", 17000) + "Disallow: /x\n"},
	{"several paths on an open group", "User-agent: *\nDisallow: /a /b\nUser-agent: bingbot\n"},
	{"empty agent after rules", "User-agent: *\nDisallow: /a\nUser-agent:\n"},
	{"site names an AI crawler with a version", "User-agent: GPTBot/1.2\nAllow: /\nUser-agent: *\nCrawl-delay: 4\n"},
	{"site names an AI crawler with digits", "User-agent: CCBot2\nAllow: /open/\nUser-agent: *\nDisallow: /private/\n"},
	{"over 500 KiB, open at the end", bigSite()},
}

// bigSite is a robots.txt over 500 KiB whose last groups lie past them
// and end open: its groups past the limit are read by no RFC 9309 reader.
func bigSite() string {
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /private/\n")
	for i := 0; b.Len() < robots.MaxSize+1000; i++ {
		fmt.Fprintf(&b, "Disallow: /archive/%d/%s/\n", i, strings.Repeat("x", 400))
	}
	b.WriteString("\nUser-agent: Googlebot\nDisallow: /late/\n\nUser-agent: *\nCrawl-delay: 10\nSitemap: https://e.example/s.xml\n")
	return b.String()
}

// aiCrawlers are the AI-training crawlers the round trip's log saw.
var aiCrawlers = []string{"Applebot-Extended", "Bytespider", "CCBot", "ClaudeBot", "GPTBot", "Meta-ExternalAgent", "PerplexityBot"}

// TestSuggestedRobotsTxtRoundTrip: the suggested robots.txt means exactly
// the site's groups plus the added one, read back by robowatch's parser
// and by a port of Google's (google_robots_test.go), for every robots.txt
// of ../shared/data/robots (or the copies in testdata), the hostile files,
// the robots package's lint cases and the edge cases above. For each file:
// the site's file is kept byte for byte; for the robots it names, *,
// Googlebot, bingbot, a robot no group names and the AI crawlers the site
// has a group for, every path (from the file's rules, and some of any
// site) gets the verdict it got from the site's file; the AI crawlers the
// site has no group for, and only they, are added, and are disallowed
// everywhere (but /robots.txt, which robowatch always allows). A group
// added past 500 KiB is read by neither, and they read the site's file.
func TestSuggestedRobotsTxtRoundTrip(t *testing.T) {
	type siteFile struct{ name, file string }
	var files []siteFile
	corpus, _ := filepath.Glob("../../shared/data/robots/*.robots.txt")
	if len(corpus) == 0 {
		corpus, _ = filepath.Glob("../testdata/robots/*.robots.txt")
	}
	hostile, _ := filepath.Glob("../testdata/robots/hostile/*")
	if len(corpus) == 0 || len(hostile) == 0 {
		t.Fatal("no robots.txt files in ../../shared/data/robots or ../testdata/robots")
	}
	for _, f := range slices.Concat(corpus, hostile) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, siteFile{filepath.Base(f), string(b)})
	}
	for _, c := range slices.Concat(lintCaseFiles, edgeCaseFiles) {
		files = append(files, siteFile{c.name, c.file})
	}

	res := &findings.Result{ViolationsChecked: true}
	for _, name := range aiCrawlers {
		// One request each from an address anyone may have: unverified.
		res.Robots = append(res.Robots, findings.RobotSummary{Name: name, Requests: 1, Purpose: "ai-training", Identity: "unverified"})
	}
	for _, f := range files {
		t.Run(f.name, func(t *testing.T) {
			site := robots.ParseBytes([]byte(f.file))
			var out strings.Builder
			if _, err := WriteRobotsTxt(&out, &Report{Files: []string{"access.log"}, Result: res, SiteRobots: site}); err != nil {
				t.Fatal(err)
			}
			text := out.String()
			if !strings.HasPrefix(text, f.file) {
				t.Fatalf("the site's file is not kept byte for byte")
			}
			added := addedAgents(text[len(f.file):])
			// ended: the suggestion ended the site's last group (see below).
			ended := strings.Contains(text[len(f.file):], "\nDisallow:\n") || strings.Contains(text[len(f.file):], "\nDisallow:\r")
			for _, name := range aiCrawlers {
				if want := !siteHasGroup(site, f.file, name); slices.Contains(added, name) != want {
					t.Errorf("%s added: %v, want %v (the site's file has a group for it: %v)", name, !want, want, !want)
				}
			}
			if t.Failed() {
				t.Logf("suggested:\n%s", text)
				return
			}

			agents := []string{"*", "Googlebot", "bingbot", "NoGroupBot"}
			for _, g := range site.Groups {
				for _, a := range g.Agents {
					if tok := extractUserAgent(strings.TrimSpace(a)); tok != "" && !slices.Contains(agents, tok) {
						agents = append(agents, tok)
					}
				}
			}
			agents = append(agents, aiCrawlers...)
			paths := roundTripPaths(site)

			sugg := robots.ParseBytes([]byte(text))
			for _, p := range suggestLint(site, sugg) {
				// The empty Disallow that ends the site's last group, which
				// had no rule (lint: group-without-rules), is a rule: lint
				// now says the group changes nothing, or that it runs on
				// past a Crawl-delay, as it did.
				if ended && (p.Code == "empty-disallow" || p.Code == "crawl-delay-joins") {
					continue
				}
				t.Errorf("lint finds what the site's file did not have: %+v", p)
			}
			gSite, gSugg := googleParse(f.file), googleParse(text)
			readsAdded := strings.Index(text, "\nUser-agent: ") < robots.MaxSize-200 // the added group lies in the first 500 KiB
			bad := 0
			for _, a := range agents {
				for _, p := range paths {
					ours, _ := site.Allowed(a, p)
					oursSugg, _ := sugg.Allowed(a, p)
					google, googleSugg := googleAllowed(gSite, a, p), googleAllowed(gSugg, a, p)
					wantOurs, wantGoogle := ours, google
					if slices.Contains(added, a) && readsAdded {
						wantOurs, wantGoogle = p == "/robots.txt", false
					}
					if oursSugg != wantOurs || googleSugg != wantGoogle {
						if bad++; bad <= 10 {
							t.Errorf("%s %s: robowatch %v (site's file: %v), Google %v (site's file: %v); want %v, %v",
								a, p, oursSugg, ours, googleSugg, google, wantOurs, wantGoogle)
						}
					}
				}
			}
			if bad > 0 {
				t.Logf("%d wrong verdicts; the end of the suggested file:\n%s", bad, tail(text, 1500))
			}
		})
	}
}

// suggestLint is what check --lint says of the suggested file that it does
// not say of the site's own: the test's measure of "adds no problem".
func suggestLint(site, suggested *robots.Robots) []robots.Problem {
	seen := map[string]int{}
	for _, p := range robots.Lint(site) {
		seen[p.Code]++
	}
	var out []robots.Problem
	for _, p := range robots.Lint(suggested) {
		if seen[p.Code] > 0 {
			seen[p.Code]--
			continue
		}
		out = append(out, p)
	}
	return out
}

// addedAgents are the User-agent names in what the suggestion added.
func addedAgents(added string) []string {
	var names []string
	for _, l := range strings.Split(strings.ReplaceAll(added, "\r", "\n"), "\n") {
		if name, ok := strings.CutPrefix(l, "User-agent: "); ok {
			names = append(names, name)
		}
	}
	return names
}

// siteHasGroup reports whether the site's file has a group for the robot,
// as robowatch reads it (its own name, or a group it falls back to) or as
// Google does (a User-agent whose leading letters, '-' and '_' are its
// name).
func siteHasGroup(site *robots.Robots, text, name string) bool {
	if g := site.Agent(name).Group(); g != "" && g != "*" {
		return true
	}
	for _, d := range googleParse(text) {
		if d.key == googleAgent && strings.EqualFold(extractUserAgent(d.value), name) {
			return true
		}
	}
	return false
}

// roundTripPaths are paths to ask about: /, /robots.txt, paths any site
// has, and for rules of the file (80 at most, spread over the file), a
// path each matches and one just beside it.
func roundTripPaths(site *robots.Robots) []string {
	paths := []string{"/", "/robots.txt", "/index.html", "/news/today", "/search?q=x", "/private/x", "/tmp/", "/a", "/x", "/archive/1/"}
	var rules []*robots.Rule
	for _, g := range site.Groups {
		for _, r := range g.Rules {
			if r.Pattern != "" {
				rules = append(rules, r)
			}
		}
	}
	step := max(1, len(rules)/80)
	for i := 0; i < len(rules); i += step {
		pat := strings.TrimSuffix(rules[i].Pattern, "$")
		if pat[0] != '/' {
			pat = "/" + pat
		}
		for _, p := range []string{strings.ReplaceAll(pat, "*", ""), strings.ReplaceAll(pat, "*", "x") + "y"} {
			if !slices.Contains(paths, p) {
				paths = append(paths, p)
			}
		}
	}
	return paths
}

// tail is the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
