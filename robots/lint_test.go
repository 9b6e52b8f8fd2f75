package robots

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// codes renders problems as "code@line" in order.
func codes(ps []Problem) string {
	var s []string
	for _, p := range ps {
		s = append(s, p.Code+"@"+itoa(p.Line))
	}
	return strings.Join(s, " ")
}

func TestLint(t *testing.T) {
	cases := []struct {
		name, file, want string
		says             string // in the first problem's message or suggestion
	}{
		{"clean", "User-agent: *\nDisallow: /private/\nSitemap: https://e.example/s.xml\n", "", ""},
		{"unknown key", "User-agent: *\nDisallow: /x\nFoo: bar\n", "unknown-key@3", `unknown key "Foo"`},
		{"unknown key near a known one", "Usr-agent: *\nDisallow: /x\n", "no-groups@0 unknown-key@1 rule-outside-group@2", "every robot may fetch everything"},
		{"misspelled", "User-agent: *\nDissallow: /x\n", "misspelled-key@2", `write "Disallow: /x"`},
		{"misspelled agent", "Useragent: *\nDisallow: /x\n", "misspelled-key@1", "User-agent"},
		{"missing colon", "User-agent *\nDisallow /x\n", "missing-colon@1 missing-colon@2", `write "User-agent: *"`},
		{"garbage", "User-agent: *\nDisallow: /x\njust some words\n", "garbage@3", "ignored"},
		{"rule outside group", "Disallow: /x\nCrawl-delay: 3\nUser-agent: *\nDisallow: /y\n", "rule-outside-group@1 rule-outside-group@2", "before any User-agent"},
		{"several * groups", "User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n", "several-star-groups@4", "line 1"},
		{"several groups", "User-agent: a\nDisallow: /a\nUser-agent: A\nDisallow: /b\n", "several-groups@3", "line 1"},
		{"path start", "User-agent: *\nDisallow: private/\n", "path-start@2", `write "Disallow: /private/"`},
		{"full URL as path", "User-agent: *\nDisallow: https://example.com/private/?a\n", "path-start@2", `write "Disallow: /private/?a"`},
		{"dollar inside", "User-agent: *\nDisallow: /a$b\n", "dollar-inside@2", "literal"},
		// "Disallow:" meant as "disallow all": a named group that changes
		// nothing, because everybody may fetch everything anyway.
		{"empty disallow meant as block", "User-agent: BadBot\nDisallow:\n\nUser-agent: *\nDisallow:\n", "empty-disallow@2", `write "Disallow: /"`},
		{"empty disallow, no * group", "User-agent: AhrefsBot\nDisallow:\n", "empty-disallow@2", "AhrefsBot changes nothing"},
		// ...but not the cybermapper whitelist, nor the plain allow-all file.
		{"empty disallow as whitelist", cybermapper, "", ""},
		{"allow-all file", "User-agent: *\nDisallow:\n", "", ""},
		{"several agents", "User-agent: Copernicus Fred\nDisallow: /x\n", "several-agents@1", `only the first ("copernicus")`},
		{"version not a name", "User-agent: Yahoo Pipes 1.0\nDisallow: /x\n", "several-agents@1", "(Yahoo, Pipes)"},
		{"several paths", "User-agent: *\nDisallow: /cgi-bin/ /tmp/\n", "several-paths@2", `one pattern "/cgi-bin/ /tmp/"`},
		// A word that starts no path makes the value one path with a space.
		{"path with a space", "User-agent: *\nDisallow: /Service References/\n", "path-space@2", `write "Disallow: /Service%20References/"`},
		{"path with spaces, no slash", "User-agent: *\nDisallow: /docs/Staff Dev/ x\n", "path-space@2", `"/docs/Staff%20Dev/%20x"`},
		{"1994 blank line", "User-agent: cybermapper\n\nUser-agent: *\nDisallow: /\n", "blank-line-1994@1", `add "Disallow:" after line 1`},
		{"1994 blank line, two agents", "User-agent: a\nUser-agent: b\n\n\nUser-agent: c\nDisallow: /\n", "blank-line-1994@2", "a, b"},
		{"rules after blank", "User-agent: *\nAllow: /\n\nDisallow: /x\nDisallow: /y\n", "rules-after-blank-1994@4", "delete blank line 3"},
		{"empty user-agent", "User-agent:\nDisallow: /x\n", "empty-user-agent@1", "names no robot"},
		{"bad user-agent", "User-agent: (foo)\nDisallow: /x\n", "bad-user-agent@1", "names no robot"},
		{"agent wildcard", "User-agent: Mediapartners-Google*\nDisallow: /\n", "agent-wildcard@1", `"Mediapartners-Google"`},
		{"agent not token", "User-agent: Twitterbot/1.0\nDisallow: /\n", "agent-not-token@1", `"Twitterbot"`},
		// A browser's word names no robot: the group applies to none.
		{"browser word", "User-agent: Safari\nDisallow: /s/\n", "browser-word@1", "applies to no robot"},
		{"browser word, whole header", "User-agent: Mozilla/4.0 (compatible; MSIE 6.0; MS Search 6.0 Robot)\nDisallow: /\n", "several-agents@1 agent-not-token@1 browser-word@1", "several words"},
		// A dotted name is cut to its first word, but writing that word would
		// widen the group: no such suggestion.
		{"dotted agent not token", "User-agent: Mail.RU_Bot\nDisallow: /\n", "agent-not-token@1", "every other robot called \"Mail\""},
		{"bad crawl-delay", "User-agent: *\nCrawl-delay: 10s\nDisallow: /x\n", "bad-crawl-delay@2", "seconds"},
		{"duplicate crawl-delay", "User-agent: *\nCrawl-delay: 1\nCrawl-delay: 2\nDisallow: /x\n", "duplicate-crawl-delay@3", "first (1s)"},
		// Crawl-delay ends no group for Google: the User-agent lines after it
		// join it, and their rules bind the robots before it too.
		{"crawl-delay joins", "User-agent: *\nCrawl-delay: 10\n# AI\nUser-agent: CCBot\nDisallow: /\n", "crawl-delay-joins@2", `"Disallow: /" first`},
		{"crawl-delay chain: one warning", "User-agent: a\nCrawl-delay: 2\n\nUser-agent: b\nCrawl-delay: 1\n\nUser-agent: c\nUser-agent: d\nDisallow: /\n", "crawl-delay-joins@2", "so a, b get the rules meant for c, d"},
		{"crawl-delay then rule", "User-agent: a\nCrawl-delay: 2\nDisallow: /x\nUser-agent: b\nDisallow: /\n", "", ""},
		{"crawl-delay after agents", "User-agent: a\nUser-agent: b\nCrawl-delay: 2\nDisallow: /x\n", "", ""},
		{"crawl-delay, no rules after", "User-agent: a\nCrawl-delay: 2\nUser-agent: b\nCrawl-delay: 3\n", "group-without-rules@1", "a, b"},
		{"sitemap relative", "User-agent: *\nDisallow: /x\nSitemap: /sitemap.xml\n", "sitemap-url@3", "absolute"},
		{"non-standard collapsed", "User-agent: *\nDisallow: /z\nNoindex: /a\nNoindex: /b\nNoindex: /c\nHost: e.example\n", "non-standard-key@3 non-standard-key@6", "also on 2 more lines: 4, 5"},
		{"no groups", "# nothing\n", "no-groups@0", "everything"},
		{"group without rules at the end", "User-agent: a\nDisallow: /x\nUser-agent: b\n", "group-without-rules@3", "b"},
		{"html", "<!DOCTYPE html>\n<html><head><title>Not Found: oops</title></head>\n<body>Disallow all robots</body></html>\n", "html@1", "soft 404"},
	}
	for _, c := range cases {
		ps := Lint(ParseBytes([]byte(c.file)))
		if got := codes(ps); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
			continue
		}
		if c.says != "" && !strings.Contains(ps[0].Message+" | "+ps[0].Suggestion, c.says) {
			t.Errorf("%s: %q does not say %q", c.name, ps[0].Message+" | "+ps[0].Suggestion, c.says)
		}
		for _, p := range ps {
			if p.Message == "" {
				t.Errorf("%s: empty message: %+v", c.name, p)
			}
		}
	}
}

func TestLintTooLarge(t *testing.T) {
	big := "User-agent: *\nDisallow: /x\n" + strings.Repeat("# padding\n", MaxSize/10+10)
	if got := codes(Lint(ParseBytes([]byte(big)))); got != "too-large@0" {
		t.Errorf("got %q", got)
	}
}

func TestLintNil(t *testing.T) {
	if ps := Lint(nil); ps != nil {
		t.Errorf("Lint(nil) = %v", ps)
	}
	if ps := Lint(&Robots{}); codes(ps) != "no-groups@0" {
		t.Errorf("Lint(zero) = %v", ps)
	}
}

// TestLintRealFiles pins what --lint says about real files: nothing wrong
// with google.com's, the 1994-vs-RFC notes on netflix.com's and
// wikipedia.org's, and the soft 404 of regmovies.com.
func TestLintRealFiles(t *testing.T) {
	cases := map[string]string{
		"www.google.com.robots.txt":    "",
		"www.netflix.com.robots.txt":   "rules-after-blank-1994@22 several-agents@166",
		"en.wikipedia.org.robots.txt":  "agent-wildcard@15 agent-not-token@38 several-agents@59 agent-not-token@77 several-agents@92 rules-after-blank-1994@169",
		"www.regmovies.com.robots.txt": "html@1",
		"adguard.com.robots.txt":       "non-standard-key@19 non-standard-key@21",
	}
	for name, want := range cases {
		if got := codes(Lint(readTestdata(t, name))); got != want {
			t.Errorf("%s: got %q, want %q", name, got, want)
		}
	}
	// Across all 20 shared files: no errors but the HTML page, and no
	// garbage lines (they are all real robots.txt files but one).
	files, _ := filepath.Glob(filepath.Join(sharedRobots, "*.robots.txt"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range Lint(ParseBytes(b)) {
			if p.Severity == Error && p.Code != "html" || p.Code == "garbage" || p.Code == "unknown-key" {
				t.Errorf("%s: %+v", filepath.Base(f), p)
			}
		}
	}
}

// TestLintNeverWidens: no suggestion proposes a User-agent name shorter
// than the one written, unless only a version was cut off.
func TestLintNeverWidens(t *testing.T) {
	for _, ua := range []string{"Mail.RU_Bot", "Yandex.Direct", "Sogou web spider", "Mediapartners-Google*"} {
		r := ParseBytes([]byte("User-agent: " + ua + "\nDisallow: /\n"))
		for _, p := range Lint(r) {
			if name, ok := strings.CutPrefix(p.Suggestion, `write "User-agent: `); ok && p.Code == "agent-not-token" {
				t.Errorf("%q: suggests %q", ua, strings.TrimSuffix(name, `"`))
			}
		}
	}
}

// TestCrawlDelayJoin: robots whose groups run together past their
// Crawl-delays (as Google reads them) keep the shortest delay, not the
// first: no robot is held to a delay written for another.
func TestCrawlDelayJoin(t *testing.T) {
	r := ParseBytes([]byte("User-agent: a\nCrawl-delay: 20\n\nUser-agent: b\nCrawl-delay: 1\n\nUser-agent: c\nDisallow: /x\n"))
	if len(r.Groups) != 1 {
		t.Fatalf("%d groups, want 1 (Google's reading)", len(r.Groups))
	}
	for _, a := range []string{"a", "b", "c"} {
		if d, ok := r.Agent(a).CrawlDelay(); !ok || d != time.Second {
			t.Errorf("%s: Crawl-delay %v %v, want 1s", a, d, ok)
		}
	}
	if ok, _ := r.Allowed("a", "/x"); ok {
		t.Errorf("a may fetch /x: Google's reading gives it c's rules")
	}
}
