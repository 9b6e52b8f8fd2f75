package robots

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// bigGroup returns a robots.txt with one group of n rules shaped like those
// of github.com's and linkedin.com's files: literal prefixes, "/*/x"
// patterns, "/a/*/b" patterns, "*.ext$" patterns, some Allow.
func bigGroup(n int) string {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"account", "admin", "api", "archive", "blame", "blob", "branches", "cache", "commits", "compare",
		"contributors", "download", "edit", "feed", "followers", "forks", "graphs", "groups", "help", "issues",
		"jobs", "login", "network", "news", "profile", "pulse", "raw", "search", "settings", "stars", "tags",
		"tree", "update", "wiki", "watchers", "zipball"}
	w := func() string { return words[rng.IntN(len(words))] }
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := range n {
		key := "Disallow"
		if i%7 == 0 {
			key = "Allow"
		}
		var p string
		switch i % 10 {
		case 0, 1, 2, 3, 4:
			p = fmt.Sprintf("/%s%d/%s", w(), i, w())
		case 5:
			p = fmt.Sprintf("/%s%d*", w(), i)
		case 6:
			p = fmt.Sprintf("/*/%s%d", w(), i)
		case 7:
			p = fmt.Sprintf("/%s/*/%s%d/*", w(), w(), i)
		case 8:
			p = fmt.Sprintf("/*.%s%d$", w(), i)
		case 9:
			p = fmt.Sprintf("/%s?%s%d=*", w(), w(), i)
		}
		fmt.Fprintf(&b, "%s: %s\n", key, p)
	}
	return b.String()
}

var benchPaths = []string{
	"/",
	"/robowatch/robowatch/issues/123",
	"/login?return_to=%2Fsettings%2Fprofile",
	"/search?q=robots+txt&type=code",
	"/account17/blob",
	"/news/2019/07/some-article-title-that-is-fairly-long.html",
	"/api/v3/repos/robowatch/robowatch/commits?per_page=100",
	"/static/img/logo.png",
	"/wiki/Main_Page",
	"/help/articles/about-robots",
	"/feed35*/x",
	"/jobs/view/1234567890/?refId=abc&trackingId=def",
}

func BenchmarkAllowed1000Rules(b *testing.B) {
	m := ParseBytes([]byte(bigGroup(1000))).Agent("bot")
	if n := len(m.Groups()[0].Rules); n != 1000 {
		b.Fatalf("%d rules", n)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m.Allowed(benchPaths[i%len(benchPaths)])
		i++
	}
}

// BenchmarkAllowed1000Wildcards is the hard case: 1,000 rules that all
// start with "/*", so the radix tree cannot skip any.
func BenchmarkAllowed1000Wildcards(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("User-agent: *\n")
	for i := range 1000 {
		fmt.Fprintf(&sb, "Disallow: /*/seg%d/*x\n", i)
	}
	m := ParseBytes([]byte(sb.String())).Agent("bot")
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m.Allowed(benchPaths[i%len(benchPaths)])
		i++
	}
}

// BenchmarkAllowedEscaped is a path that must be canonicalised first.
func BenchmarkAllowedEscaped(b *testing.B) {
	m := ParseBytes([]byte(bigGroup(1000))).Agent("bot")
	b.ReportAllocs()
	for b.Loop() {
		m.Allowed("/wiki/Wikipedia:L%c3%b6schkandidaten/%7Euser?q=a%20b")
	}
}

// BenchmarkManyStars: `/*a*a*a*a*a*b` against paths of 10 and 100 KiB of
// 'a'. Linear matching shows as time growing 10x from the one to the other.
func BenchmarkManyStars(b *testing.B) {
	m := ParseBytes([]byte("User-agent: *\nDisallow: /*a*a*a*a*a*b\nDisallow: /*a*a*a*a*a*b$\nAllow: /*aab*aab*aab*aab*aab*aac\n")).Agent("bot")
	for _, n := range []int{10 << 10, 100 << 10} {
		path := "/" + strings.Repeat("a", n)
		b.Run(fmt.Sprintf("%dKiB", n>>10), func(b *testing.B) {
			b.SetBytes(int64(len(path)))
			for b.Loop() {
				if ok, _ := m.Allowed(path); !ok {
					b.Fatal("matched")
				}
			}
		})
	}
}

func BenchmarkAgent(b *testing.B) {
	r := ParseBytes([]byte(bigGroup(50) + "\nUser-agent: Googlebot\nDisallow: /x\nUser-agent: bingbot\nDisallow: /y\n"))
	uas := []string{
		"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36",
		"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
		"python-requests/2.31.0",
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		r.Agent(uas[i%len(uas)])
		i++
	}
}

func BenchmarkParseLinkedInSized(b *testing.B) {
	body := []byte(bigGroup(1800))
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		ParseBytes(body)
	}
}

// TestAllowedAllocs pins the promise detect relies on: no allocation per
// request for ASCII paths without escapes, nor for escaped ones that fit
// the stack buffer.
func TestAllowedAllocs(t *testing.T) {
	m := ParseBytes([]byte(bigGroup(1000))).Agent("bot")
	for _, p := range append(benchPaths, "/wiki/L%c3%b6sch?q=a%20b", "relative", "http://host/x?y") {
		if n := testing.AllocsPerRun(100, func() { m.Allowed(p) }); n != 0 {
			t.Errorf("Allowed(%q): %v allocations", p, n)
		}
	}
}
