package robots

import (
	"strconv"
	"strings"
	"testing"
)

// Files of the standards, written out as the documents give them.
const (
	// RFC 9309 §5.1.
	rfcSimple = `User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot
`
	// RFC 9309 §5.2.
	rfcLongest = `User-Agent: foobot
Allow: /example/page/
Disallow: /example/page/disallowed.gif
`
	// The 1994 Standard for Robot Exclusion, its three examples.
	koster1994 = `# robots.txt for http://www.example.com/

User-agent: *
Disallow: /cyberworld/map/ # This is an infinite virtual URL space
Disallow: /tmp/ # these will soon disappear
Disallow: /foo.html
`
	cybermapper = `# robots.txt for http://www.example.com/

User-agent: *
Disallow: /cyberworld/map/ # This is an infinite virtual URL space

# Cybermapper knows where to go.
User-agent: cybermapper
Disallow:
`
	goAway = `# go away
User-agent: *
Disallow: /
`
	// The 1996 revision (draft-koster-robots-00), its www.fict.org example.
	fict = `# /robots.txt for http://www.fict.org/
# comments to webmaster@fict.org

User-agent: unhipbot
Disallow: /

User-agent: webcrawler
User-agent: excite
Disallow: 

User-agent: *
Disallow: /org/plans.html
Allow: /org/
Allow: /serv
Allow: /~mak
Disallow: /
`
)

// matchCase is one question to a robots.txt: may agent fetch path? rule is
// the text of the deciding rule ("" when none decides); its line is looked up
// in the file, so the fixtures stay readable. When the text is on several
// lines, "text@N" names line N.
type matchCase struct {
	name    string
	file    string
	agent   string
	path    string
	allowed bool
	rule    string
}

// lineOf returns the 1-based line of the first line of file starting with text.
func lineOf(t *testing.T, file, text string) int {
	t.Helper()
	for i, l := range strings.Split(strings.ReplaceAll(file, "\r\n", "\n"), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), text) {
			return i + 1
		}
	}
	t.Fatalf("fixture has no line %q", text)
	return 0
}

func runMatchCases(t *testing.T, cases []matchCase) {
	t.Helper()
	for _, c := range cases {
		r := ParseBytes([]byte(c.file))
		got, rule := r.Allowed(c.agent, c.path)
		if got != c.allowed {
			t.Errorf("%s: Allowed(%q, %q) = %v, want %v (rule %+v)", c.name, c.agent, c.path, got, c.allowed, rule)
			continue
		}
		switch {
		case c.rule == "" && rule != nil:
			t.Errorf("%s: Allowed(%q, %q): decided by %q (line %d), want no rule", c.name, c.agent, c.path, rule.Text, rule.Line)
		case c.rule != "" && rule == nil:
			t.Errorf("%s: Allowed(%q, %q): no rule, want %q", c.name, c.agent, c.path, c.rule)
		case c.rule != "":
			text, want := c.rule, 0
			if i := strings.LastIndexByte(text, '@'); i >= 0 {
				text = c.rule[:i]
				want, _ = strconv.Atoi(c.rule[i+1:])
			} else {
				want = lineOf(t, c.file, text)
			}
			if rule.Text != text || rule.Line != want {
				t.Errorf("%s: Allowed(%q, %q): rule line %d %q, want line %d %q", c.name, c.agent, c.path, rule.Line, rule.Text, want, text)
			}
		}
	}
}

func TestRFC9309Examples(t *testing.T) {
	runMatchCases(t, []matchCase{
		// §5.1: "*" group for robots without a group of their own.
		{"5.1 * gif", rfcSimple, "otherbot", "/pic.gif", false, "Disallow: *.gif$"},
		{"5.1 * gif in subdir", rfcSimple, "otherbot", "/a/b/pic.gif", false, "Disallow: *.gif$"},
		{"5.1 * gif with query ends the match", rfcSimple, "otherbot", "/pic.gif?size=2", true, ""},
		{"5.1 * example", rfcSimple, "otherbot", "/example/page.html", false, "Disallow: /example/"},
		{"5.1 * example longer than gif", rfcSimple, "otherbot", "/example/allowed.gif", false, "Disallow: /example/"},
		{"5.1 * publications", rfcSimple, "otherbot", "/publications/report.html", true, "Allow: /publications/"},
		{"5.1 * publications beats gif", rfcSimple, "otherbot", "/publications/a.gif", true, "Allow: /publications/"},
		{"5.1 * elsewhere", rfcSimple, "otherbot", "/other", true, ""},
		// foobot: everything disallowed but two paths; no colon space needed.
		{"5.1 foobot page", rfcSimple, "foobot", "/example/page.html", true, "Allow:/example/page.html"},
		{"5.1 foobot gif", rfcSimple, "foobot", "/example/allowed.gif", true, "Allow:/example/allowed.gif"},
		{"5.1 foobot other", rfcSimple, "foobot", "/example/other.html", false, "Disallow:/"},
		{"5.1 foobot root", rfcSimple, "foobot", "/", false, "Disallow:/"},
		// barbot and bazbot share a group and do not fall back to "*".
		{"5.1 barbot page", rfcSimple, "barbot", "/example/page.html", false, "Disallow: /example/page.html"},
		{"5.1 bazbot page", rfcSimple, "bazbot", "/example/page.html", false, "Disallow: /example/page.html"},
		{"5.1 barbot no * fallback", rfcSimple, "barbot", "/example/other.html", true, ""},
		{"5.1 bazbot gif", rfcSimple, "bazbot", "/pic.gif", true, ""},
		// quxbot's group has no rules: all allowed.
		{"5.1 quxbot", rfcSimple, "quxbot", "/example/page.html", true, ""},
		// §5.2: longest match.
		{"5.2 allow dir", rfcLongest, "foobot", "/example/page/", true, "Allow: /example/page/"},
		{"5.2 allow file", rfcLongest, "foobot", "/example/page/other.gif", true, "Allow: /example/page/"},
		{"5.2 longer disallow", rfcLongest, "foobot", "/example/page/disallowed.gif", false, "Disallow: /example/page/disallowed.gif"},
	})
}

func TestStandard1994(t *testing.T) {
	runMatchCases(t, []matchCase{
		{"map", koster1994, "anybot", "/cyberworld/map/index.html", false, "Disallow: /cyberworld/map/"},
		{"cyberworld elsewhere", koster1994, "anybot", "/cyberworld/index.html", true, ""},
		{"tmp", koster1994, "anybot", "/tmp/x", false, "Disallow: /tmp/"},
		{"tmp without slash", koster1994, "anybot", "/tmp", true, ""},
		{"foo.html", koster1994, "anybot", "/foo.html", false, "Disallow: /foo.html"},
		{"comment not in pattern", koster1994, "anybot", "/foo.html#top", false, "Disallow: /foo.html"},
		{"cybermapper allowed", cybermapper, "cybermapper", "/cyberworld/map/x", true, ""},
		{"cybermapper header", cybermapper, "Cybermapper/1.0 (+http://example.org/)", "/cyberworld/map/x", true, ""},
		{"others kept out", cybermapper, "otherbot", "/cyberworld/map/x", false, "Disallow: /cyberworld/map/"},
		{"go away", goAway, "anybot", "/", false, "Disallow: /"},
		{"go away deep", goAway, "anybot", "/a/b/c", false, "Disallow: /"},
		{"robots.txt always allowed", goAway, "anybot", "/robots.txt", true, ""},
		// "Disallow: /help disallows both /help.html and /help/index.html,
		// whereas Disallow: /help/ would disallow /help/index.html but allow
		// /help.html."
		{"/help vs /help.html", "User-agent: *\nDisallow: /help\n", "bot", "/help.html", false, "Disallow: /help"},
		{"/help vs /help/index.html", "User-agent: *\nDisallow: /help\n", "bot", "/help/index.html", false, "Disallow: /help"},
		{"/help/ vs /help/index.html", "User-agent: *\nDisallow: /help/\n", "bot", "/help/index.html", false, "Disallow: /help/"},
		{"/help/ vs /help.html", "User-agent: *\nDisallow: /help/\n", "bot", "/help.html", true, ""},
		{"/help/ vs /help", "User-agent: *\nDisallow: /help/\n", "bot", "/help", true, ""},
	})
}

// TestFict1996 is the table of the 1996 revision. It used first-match
// order; its answers are the same under longest match.
func TestFict1996(t *testing.T) {
	type row struct {
		path                     string
		unhip, webcrawler, other bool
	}
	rows := []row{
		{"/", false, true, false},
		{"/index.html", false, true, false},
		{"/robots.txt", true, true, true},
		{"/server.html", false, true, true},
		{"/services/fast.html", false, true, true},
		{"/services/slow.html", false, true, true},
		{"/orgo.gif", false, true, false},
		{"/org/about.html", false, true, true},
		{"/org/plans.html", false, true, false},
		{"/%7Ejim/jim.html", false, true, false},
		{"/%7Emak/mak.html", false, true, true},
	}
	r := ParseBytes([]byte(fict))
	for _, w := range rows {
		for _, q := range []struct {
			agent string
			want  bool
		}{{"unhipbot", w.unhip}, {"webcrawler", w.webcrawler}, {"excite", w.webcrawler}, {"otherbot", w.other}} {
			if got, rule := r.Allowed(q.agent, w.path); got != q.want {
				t.Errorf("fict.org: Allowed(%q, %q) = %v (rule %+v), want %v", q.agent, w.path, got, rule, q.want)
			}
		}
	}
}

func TestPercentEncoding(t *testing.T) {
	file := func(pattern string) string { return "User-agent: *\nDisallow: " + pattern + "\n" }
	cases := []struct {
		pattern, path string
		match         bool
	}{
		// The 1996 revision's table.
		{"/tmp", "/tmp", true},
		{"/tmp", "/tmp.html", true},
		{"/tmp", "/tmp/a.html", true},
		{"/tmp/", "/tmp", false},
		{"/tmp/", "/tmp/", true},
		{"/tmp/", "/tmp/a.html", true},
		{"/a%3cd.html", "/a%3cd.html", true},
		{"/a%3Cd.html", "/a%3cd.html", true},
		{"/a%3cd.html", "/a%3Cd.html", true},
		{"/a%3Cd.html", "/a%3Cd.html", true},
		{"/a%2fb.html", "/a%2fb.html", true},
		{"/a%2fb.html", "/a/b.html", false},
		{"/a/b.html", "/a%2fb.html", false},
		{"/a/b.html", "/a/b.html", true},
		{"/%7ejoe/index.html", "/~joe/index.html", true},
		{"/~joe/index.html", "/%7Ejoe/index.html", true},
		// RFC 9309 §2.2.2: non-ASCII octets are compared percent-encoded, on
		// both sides; unreserved escapes equal their character.
		{"/foo/bar/ツ", "/foo/bar/%E3%83%84", true},
		{"/foo/bar/ツ", "/foo/bar/%e3%83%84", true},
		{"/foo/bar/ツ", "/foo/bar/ツ", true},
		{"/foo/bar/%E3%83%84", "/foo/bar/ツ", true},
		{"/foo/bar/%62%61%7A", "/foo/bar/baz", true},
		{"/foo/bar/baz", "/foo/bar/%62%61%7A", true},
		{"/foo/bar?baz=https://foo.bar", "/foo/bar?baz=https://foo.bar", true},
		{"/wiki/Special:", "/wiki/Special%3ASearch", false},
		{"/wiki/Special%3A", "/wiki/Special%3aSearch", true},
		// RFC 9309 §2.2.3: %2A and %24 in a rule are a literal '*' and '$'.
		{"/path/file-with-a-%2A.html", "/path/file-with-a-*.html", true},
		{"/path/file-with-a-%2A.html", "/path/file-with-a-x.html", false},
		{"/path/foo-%24", "/path/foo-$", true},
		{"/path/foo-%24", "/path/foo-", false},
		// A '$' inside a pattern is literal; only a final '$' anchors.
		{"/a$b", "/a$b", true},
		{"/a$b", "/a", false},
		// Malformed escapes compare as written and never error.
		{"/x%zz", "/x%zz", true},
		{"/x%zz", "/x%25zz", false},
		{"/x", "/x%zz", true},
		{"/x%", "/x%", true},
		{"/x%4", "/x%4", true},
		{"/y", "/x%zz", false},
		// Bytes outside the URI character set are compared encoded.
		{"/a%20b", "/a b", true},
		{"/a|b", "/a%7Cb", true},
		// Paths are case-sensitive.
		{"/x/", "/X/y", false},
		{"/OnThisDay", "/onthisday", false},
	}
	for _, c := range cases {
		got, _ := ParseBytes([]byte(file(c.pattern))).Allowed("bot", c.path)
		if got == c.match {
			t.Errorf("pattern %q, path %q: matched = %v, want %v", c.pattern, c.path, !got, c.match)
		}
	}
}

func TestWildcards(t *testing.T) {
	file := func(pattern string) string { return "User-agent: *\nDisallow: " + pattern + "\n" }
	cases := []struct {
		pattern, path string
		match         bool
	}{
		{"/fish*", "/fish", true},
		{"/fish*", "/fishheads/yummy.html", true},
		{"/fish*", "/Fish.asp", false},
		{"/*.php", "/filename.php", true},
		{"/*.php", "/folder/filename.php?parameters", true},
		{"/*.php", "//folder/any.php.file.html", true},
		{"/*.php", "/index?f=filename.php/", true},
		{"/*.php", "/php/", false},
		{"/*.php", "/windows.PHP", false},
		{"/*.php$", "/filename.php", true},
		{"/*.php$", "/folder/filename.php", true},
		{"/*.php$", "/filename.php?parameters", false},
		{"/*.php$", "/filename.php/", false},
		{"/*.php$", "/filename.php5", false},
		{"/*.php$", "/aaaphpaaa", false},
		{"/fish*.php", "/fish.php", true},
		{"/fish*.php", "/fishheads/catfish.php?parameters", true},
		{"/fish*.php", "/Fish.PHP", false},
		{"/foo/*/qux", "/foo/bar/qux", true},
		{"/foo/*/qux", "/foo//qux", false}, // the server serves /foo/qux: slashes merge before matching
		{"/foo/*/qux", "/foo/qux", false},
		{"/foo/bar$", "/foo/bar", true},
		{"/foo/bar$", "/foo/bar/", false},
		{"*.gif$", "/a.gif", true},
		{"*/account/", "/en/account/x", true},
		{"*/account/", "/account/x", true},
		{"*/account/", "/accounts/", false},
		{"/*", "/", true},
		{"*", "/anything", true},
		{"/**a", "/xxa", true},
		{"/*$", "/anything", true},
		{"/a*b*c$", "/abcbc", true},
		{"/a*b*c$", "/abcb", false},
		{"/a*bc$", "/abcbc", true},
		{"/*aab", "/aaab", true},
		{"/*a*a*a*a*a*b", "/aaaaab", true},
		{"/*a*a*a*a*a*b", "/aaaaaaaaaaaaaaaa", false},
		{"/*a*a*a*a*a*b", "/aaaa" + "b", false},
		{"/r/*/comments/*/*/c*", "/r/golang/comments/abc/title/c1", true},
		{"/r/*/comments/*/*/c*", "/r/golang/comments/abc/", false},
		{"$", "/", false},
		{"/$", "/", true},
		{"/$", "/page.html", false},
	}
	for _, c := range cases {
		got, _ := ParseBytes([]byte(file(c.pattern))).Allowed("bot", c.path)
		if got == c.match {
			t.Errorf("pattern %q, path %q: matched = %v, want %v", c.pattern, c.path, !got, c.match)
		}
	}
}

// TestRequestTargets: the forms a path takes in a log's request line, and
// robowatch's own answers beside Google's suite (google_conformance_test.go).
func TestRequestTargets(t *testing.T) {
	runMatchCases(t, []matchCase{
		{"empty agent gets *", "user-agent: *\ndisallow: /\n", "", "/x", false, "disallow: /"},
		// The suite asks as "FooBot" only: a robot's token in any case.
		{"keys upper, agent lower", "USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n", "foobot", "/x/y", true, "ALLOW: /x/"},
		{"keys camel, agent upper", "uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n", "FOOBOT", "/a/b", false, "dIsAlLoW: /"},
		// URLs and request targets.
		{"absolute URL", "user-agent: FooBot\ndisallow: /x/\n", "FooBot", "http://foo.bar/x/y", false, "disallow: /x/"},
		{"absolute URL no path", "user-agent: FooBot\ndisallow: /$\n", "FooBot", "http://foo.bar", false, "disallow: /$"},
		{"absolute URL query", "user-agent: FooBot\ndisallow: /?a\n", "FooBot", "http://foo.bar?a=1", false, "disallow: /?a"},
		{"fragment ignored", "user-agent: FooBot\ndisallow: /x$\n", "FooBot", "/x#frag", false, "disallow: /x$"},
		{"star target", "user-agent: FooBot\ndisallow: /\n", "FooBot", "*", false, "disallow: /"},
		{"robots.txt with query", "user-agent: FooBot\ndisallow: /\n", "FooBot", "/robots.txt?x=1", true, ""},
		{"robots.txt absolute", "user-agent: FooBot\ndisallow: /\n", "FooBot", "https://a.example/robots.txt", true, ""},
		{"robots.txt.bak", "user-agent: FooBot\ndisallow: /\n", "FooBot", "/robots.txt.bak", false, "disallow: /"},
	})
}

func TestAgentSelection(t *testing.T) {
	const google = `User-agent: googlebot
Disallow: /g/

User-agent: googlebot-news
Disallow: /news/

User-agent: Lycos
Disallow: /lycos/

User-agent: google
Disallow: /google/

User-agent: bot
Disallow: /bot/

User-agent: MJ12bot
Disallow: /mj/

User-agent: 360Spider
Disallow: /360/

User-agent: *
Disallow: /star/
`
	const gbot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	runMatchCases(t, []matchCase{
		{"header", google, gbot, "/g/x", false, "Disallow: /g/"},
		{"header no * fallback", google, gbot, "/star/x", true, ""},
		{"bare token", google, "Googlebot", "/g/x", false, "Disallow: /g/"},
		{"case", google, "GOOGLEBOT/2.1", "/g/x", false, "Disallow: /g/"},
		{"own group beats prefix", google, "Googlebot-News", "/news/x", false, "Disallow: /news/"},
		{"own group only", google, "Googlebot-News", "/g/x", true, ""},
		{"prefix at - falls back", google, "Googlebot-Image/1.0", "/g/x", false, "Disallow: /g/"},
		{"prefix fallback not *", google, "Googlebot-Image/1.0", "/star/x", true, ""},
		{"prefix at _", google, "Lycos_Spider_(Rex)/1.0 libwww/3.1", "/lycos/x", false, "Disallow: /lycos/"},
		{"google is not googlebot", google, gbot, "/google/x", true, ""},
		{"URL words dropped", google, "Mozilla/5.0 (compatible; FooCrawler/1.0; +http://www.google.com/foo)", "/google/x", true, ""},
		{"URL dropped: star", google, "Mozilla/5.0 (compatible; FooCrawler/1.0; +http://www.google.com/foo)", "/star/x", false, "Disallow: /star/"},
		{"email dropped", google, "FooCrawler/1.0 (googlebot@example.com)", "/g/x", true, ""},
		{"bare prefix not enough", google, "Googlebotx/1.0", "/star/x", false, "Disallow: /star/"},
		{"bot only for bot", google, "SomeBot/1.0", "/bot/x", true, ""},
		{"bot word", google, "bot/1.0", "/bot/x", false, "Disallow: /bot/"},
		{"digits in token", google, "Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)", "/mj/x", false, "Disallow: /mj/"},
		// A '/' ends a product's name: the version after it names no
		// robot, whatever letters it holds.
		{"version is no name", "User-agent: bl.uk_lddc_bot\nDisallow: /\n", "Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)", "/x", true, ""},
		{"version is no name: star", "User-agent: bl.uk_lddc_bot\nDisallow: /\n\nUser-agent: *\nDisallow: /star/\n", "Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)", "/star/x", false, "Disallow: /star/"},
		{"leading digits", google, "Mozilla/5.0 (Windows NT 6.1; 360Spider)", "/360/x", false, "Disallow: /360/"},
		{"browser gets *", google, "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36", "/star/x", false, "Disallow: /star/"},
		{"empty gets *", google, "", "/star/x", false, "Disallow: /star/"},
		// Operators' documented fallbacks: "User-agent: Yandex" is for all
		// Yandex robots, unless one has its own group; Applebot follows
		// Googlebot's group when none names Applebot.
		{"yandex family", "User-agent: YandexBot\nDisallow: /yb/\n\nUser-agent: Yandex\nDisallow: /y/\n\nUser-agent: *\nDisallow: /star/\n", "Mozilla/5.0 (compatible; YandexImages/3.0; +http://yandex.com/bots)", "/y/x", false, "Disallow: /y/"},
		{"yandex family not star", "User-agent: YandexBot\nDisallow: /yb/\n\nUser-agent: Yandex\nDisallow: /y/\n\nUser-agent: *\nDisallow: /star/\n", "Mozilla/5.0 (compatible; YandexImages/3.0; +http://yandex.com/bots)", "/star/x", true, ""},
		{"yandexbot own group", "User-agent: YandexBot\nDisallow: /yb/\n\nUser-agent: Yandex\nDisallow: /y/\n", "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", "/y/x", true, ""},
		{"yandexbot without own group", "User-agent: Yandex\nDisallow: /y/\n", "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", "/y/x", false, "Disallow: /y/"},
		{"applebot follows googlebot", "User-agent: Googlebot\nDisallow: /g/\n\nUser-agent: *\nDisallow: /star/\n", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)", "/g/x", false, "Disallow: /g/"},
		{"applebot own group", "User-agent: Googlebot\nDisallow: /g/\n\nUser-agent: Applebot\nDisallow: /a/\n", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)", "/g/x", true, ""},
		{"HeadlessChrome is a robot's name", "User-agent: HeadlessChrome\nDisallow: /\n", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36", "/x", false, "Disallow: /"},
		{"bingbot follows msnbot", "User-agent: msnbot\nDisallow: /m/\n", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "/m/x", false, "Disallow: /m/"},
		{"bingbot own group", "User-agent: msnbot\nDisallow: /m/\n\nUser-agent: bingbot\nDisallow: /b/\n", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "/m/x", true, ""},
		{"not yandex", "User-agent: Yandex\nDisallow: /y/\n", "Yandex/1.0", "/y/x", false, "Disallow: /y/"},
		// Google's special-case crawlers ignore "*": only their own group.
		{"adsbot ignores star", "User-agent: *\nDisallow: /checkout\n", "AdsBot-Google (+http://www.google.com/adsbot.html)", "/checkout/1", true, ""},
		{"adsbot mobile ignores star", "User-agent: *\nDisallow: /checkout\n", "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36 (compatible; AdsBot-Google-Mobile; +http://www.google.com/mobile/adsbot.html)", "/checkout/1", true, ""},
		{"apis-google ignores star", "User-agent: *\nDisallow: /\n", "APIs-Google (+https://developers.google.com/webmasters/APIs-Google.html)", "/x", true, ""},
		{"mediapartners ignores star", "User-agent: *\nDisallow: /\n", "Mediapartners-Google", "/x", true, ""},
		{"adsbot own group", "User-agent: *\nDisallow: /\n\nUser-agent: AdsBot-Google\nDisallow: /cart\n", "AdsBot-Google (+http://www.google.com/adsbot.html)", "/cart", false, "Disallow: /cart"},
		{"adsbot-mobile falls back to adsbot", "User-agent: AdsBot-Google\nDisallow: /cart\n", "AdsBot-Google-Mobile", "/cart", false, "Disallow: /cart"},
		{"googlebot still gets star", "User-agent: *\nDisallow: /checkout\n", gbot, "/checkout/1", false, "Disallow: /checkout"},
		{"yandexish word", "User-agent: Yandex\nDisallow: /y/\n\nUser-agent: *\nDisallow: /star/\n", "SomeBot/1.0", "/y/x", true, ""},
		// The words of a browser's header are no robot's name: a group
		// written for a whole header (as Microsoft's answers site does)
		// or for "Safari" is not Googlebot's, nor GPTBot's.
		{"header group not googlebot", "User-agent: Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1; MS Search 6.0 Robot)\nDisallow: /\n\nUser-agent: *\nDisallow: /star/\n", gbot, "/x", true, ""},
		{"header group: star for googlebot", "User-agent: Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1; MS Search 6.0 Robot)\nDisallow: /\n\nUser-agent: *\nDisallow: /star/\n", gbot, "/star/x", false, "Disallow: /star/"},
		{"browser words name no group", "User-agent: compatible\nDisallow: /c/\nUser-agent: KHTML\nDisallow: /k/\nUser-agent: like\nDisallow: /l/\nUser-agent: Safari\nDisallow: /s/\n", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot) Safari/537.36", "/s/x", true, ""},
		{"browser words, own token", "User-agent: Safari\nDisallow: /s/\n\nUser-agent: GPTBot\nDisallow: /g/\n", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot) Safari/537.36", "/g/x", false, "Disallow: /g/"},
		{"browser words, own token only", "User-agent: Safari\nDisallow: /s/\n\nUser-agent: GPTBot\nDisallow: /g/\n", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot) Safari/537.36", "/s/x", true, ""},
		{"dash gets *", google, "-", "/star/x", false, "Disallow: /star/"},
		// A line names one product token, its first word (RFC 9309, as
		// Google's parser reads it): "Sogou web spider" is not "web".
		{"names line first", "User-Agent: Copernicus Fred\nDisallow: /cf/\n", "Copernicus/1.0", "/cf/x", false, "Disallow: /cf/"},
		{"names line second", "User-Agent: Copernicus Fred\nDisallow: /cf/\n", "Fred", "/cf/x", true, ""},
		{"sogou web spider: not web", "User-agent: Sogou web spider\nDisallow: /\n", "WebCrawler/1.0 web spider", "/x", true, ""},
		{"sogou web spider: sogou", "User-agent: Sogou web spider\nDisallow: /\n", "Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)", "/x", false, "Disallow: /"},
		{"names line * Rex: star", "User-Agent: * Rex\nDisallow: /sr/\n", "otherbot", "/sr/x", false, "Disallow: /sr/"},
		{"names line * Rex: rex", "User-Agent: * Rex\nDisallow: /sr/\n", "Rex/2", "/sr/x", false, "Disallow: /sr/"},
		// Paths on one line are several rules.
		{"paths line 1", "User-agent: *\nDisallow: /cgi-bin/ /tmp/\n", "bot", "/cgi-bin/x", false, "Disallow: /cgi-bin/ /tmp/"},
		{"paths line 2", "User-agent: *\nDisallow: /cgi-bin/ /tmp/\n", "bot", "/tmp/x", false, "Disallow: /cgi-bin/ /tmp/"},
		{"paths line other", "User-agent: *\nDisallow: /cgi-bin/ /tmp/\n", "bot", "/x", true, ""},
		// ...but a word that starts no path is the rest of a path with a
		// space, matched as the request for it holds it (%20): split, the
		// line would disallow every path starting /Service.
		{"path with a space", "User-agent: *\nDisallow: /Service References/\n", "bot", "/Service%20References/x", false, "Disallow: /Service References/"},
		{"path with a space: prefix", "User-agent: *\nDisallow: /Service References/\n", "bot", "/Services/x", true, ""},
		{"path with a space: rest", "User-agent: *\nDisallow: /Service References/\n", "bot", "/References/x", true, ""},
		// A trailing '*' on a name is not a wildcard.
		{"agent star suffix", "User-agent: Mediapartners-Google*\nDisallow: /\n", "Mediapartners-Google", "/x", false, "Disallow: /"},
		// "*" alone after a rule starts a new group; blank lines do not end one.
		{"blank merges agents", "User-agent: a\n\nUser-agent: b\nDisallow: /\n", "a", "/x", false, "Disallow: /"},
	})
}

func TestMatcherGroupName(t *testing.T) {
	r := ParseBytes([]byte("User-agent: googlebot\nDisallow: /a\n\nUser-agent: googlebot-image\nDisallow: /b\n\nUser-agent: *\nCrawl-delay: 5\nDisallow: /c\n\nUser-agent: Slowbot\nCrawl-delay: 2.5\n\nUser-agent: slowbot\nCrawl-delay: 10\n"))
	cases := []struct {
		ua, group string
		delay     float64 // seconds; -1 for none
	}{
		{"Googlebot/2.1", "googlebot", -1},
		{"Googlebot-Image/1.0", "googlebot-image", -1},
		{"Googlebot-Image/1.0 (also Googlebot/2.1)", "googlebot, googlebot-image", -1},
		{"Mozilla/5.0 Firefox/120", "*", 5},
		{"slowbot", "slowbot", 2.5},
	}
	for _, c := range cases {
		m := r.Agent(c.ua)
		if m.Group() != c.group {
			t.Errorf("Agent(%q).Group() = %q, want %q", c.ua, m.Group(), c.group)
		}
		d, ok := m.CrawlDelay()
		if c.delay < 0 && ok || c.delay >= 0 && (!ok || d.Seconds() != c.delay) {
			t.Errorf("Agent(%q).CrawlDelay() = %v, %v; want %v s", c.ua, d, ok, c.delay)
		}
	}
	if g := ParseBytes([]byte("User-agent: foo\nDisallow: /\n")).Agent("bar").Group(); g != "" {
		t.Errorf("no applicable group: Group() = %q, want \"\"", g)
	}
	var nilRobots *Robots
	if ok, rule := nilRobots.Allowed("bot", "/x"); !ok || rule != nil {
		t.Errorf("nil Robots: Allowed = %v, %v; want true, nil", ok, rule)
	}
	var nilMatcher *Matcher
	if ok, _ := nilMatcher.Allowed("/x"); !ok || nilMatcher.Group() != "" {
		t.Errorf("nil Matcher must allow all")
	}
	// Matchers are cached by the set of tokens.
	if r.Agent("Googlebot/2.1") != r.Agent("googlebot") {
		t.Errorf("Agent is not cached for the same token set")
	}
}

func TestHeaderWords(t *testing.T) {
	cases := []struct {
		ua   string
		want string
	}{
		{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Mozilla Googlebot compatible"},
		{"Baiduspider+(+http://www.baidu.com/search/spider.htm)", "Baiduspider"},
		{"Foo/1.0+http://x.example/", "Foo"},
		{"Bar/2 (mailto:bar@example.com; www.example.com)", "Bar"},
		{"Lycos_Spider_(Rex)/1.0 libwww/3.1", "Lycos_Spider_ Rex libwww"},
		{"MJ12bot/v1.4.8 360Spider 1234", "MJ12bot 360Spider"},
		// A version is no name: "bl" of SemrushBot's is not bl.uk_lddc_bot.
		{"Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)", "Mozilla SemrushBot compatible"},
		{"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) Chrome/W.X.Y.Z Mobile Safari/537.36", "Mozilla Linux Android Nexus 5X Build Chrome Mobile Safari"},
		{"Qwantify/Bleriot/1.1", "Qwantify"},
		{"Screaming+Frog+SEO+Spider/19.0+Mobile", "Screaming Frog SEO Spider Mobile"},
		{"", ""},
	}
	for _, c := range cases {
		var got []string
		forEachWord(c.ua, func(w string) { got = append(got, w) })
		// Order is not part of the contract; compare as sets.
		want := strings.Fields(c.want)
		if len(got) != len(want) {
			t.Errorf("words(%q) = %q, want %q", c.ua, got, want)
			continue
		}
		for _, w := range want {
			found := false
			for _, g := range got {
				found = found || g == w
			}
			if !found {
				t.Errorf("words(%q) = %q, want %q", c.ua, got, want)
				break
			}
		}
	}
}

// TestDotSegments: a path is matched as the server resolves it — dot
// segments removed, repeated slashes merged (RFC 3986 §5.2.4; nginx's
// merge_slashes and Apache do so by default) — so /./private, //private
// and /x/../private are all /private.
func TestDotSegments(t *testing.T) {
	r := ParseBytes([]byte("User-agent: *\nDisallow: /private\nAllow: /private/ok\nDisallow: /*/secret$\n"))
	m := r.Agent("bot")
	tests := []struct {
		path    string
		allowed bool
	}{
		{"/private", false},
		{"/./private", false},
		{"//private", false},
		{"///private/x", false},
		{"/x/../private", false},
		{"/x/y/../../private", false},
		{"/../private", false}, // above the root stays at the root
		{"/%2e%2e/private", false},
		{"/x/%2E%2E/private", false},
		{"/public/../private?q=/../x", false},
		{"/private/./ok", true},
		{"/private/x/../ok", true},
		{"/a/b/./secret", false},
		{"/a//secret", false}, // merged: /a/secret
		{"/public", true},
		{"/.../private", true}, // "..." is a name, not a dot segment
		{"/x/..private", true},
		{"/public?next=//private", true},  // the query is not the path
		{"/private%2F..%2Fpublic", false}, // %2F is no slash
		{"/public/..", true},
		{"/x/.", true},
	}
	for _, tt := range tests {
		if got, _ := m.Allowed(tt.path); got != tt.allowed {
			t.Errorf("Allowed(%q) = %v, want %v", tt.path, got, tt.allowed)
		}
	}
	// Rules are read as the paths are: a rule written with "//" or a dot
	// segment matches the path written the same way (Google's matcher
	// compares both as written). What is ambiguous stays as written.
	rules := []struct {
		rule, path string
		allowed    bool
	}{
		{"Disallow: //private", "//private/x", false},
		{"Disallow: //private", "/private/x", false},
		{"Disallow: /proxy/http://", "/proxy/http://example.com/", false},
		{"Disallow: /a/./b/", "/a/./b/c", false},
		{"Disallow: /a/./b/", "/a/b/c", false},
		{"Disallow: /a/../c/", "/c/x", false},
		{"Disallow: /a/../c/", "/a/c/x", true},
		{"Disallow: /a/..", "/a/..hidden", false}, // a prefix: "/a/.." is no segment here
		{"Disallow: /a/..", "/b", true},
		{"Disallow: /x/*/../y", "/x/q/y", true},         // after '*': as written
		{"Disallow: /p?next=//a", "/p?next=//a", false}, // the query as written
		{"Disallow: /p?next=//a", "/p?next=/a", true},
		{"Disallow: /a/%2E%2E/b", "/a/%2E%2E/b", false}, // both read as /b
		{"Disallow: /a/%2E%2E/b", "/b", false},
	}
	for _, tt := range rules {
		got, _ := ParseBytes([]byte("User-agent: *\n"+tt.rule+"\n")).Allowed("bot", tt.path)
		if got != tt.allowed {
			t.Errorf("%q, path %q: allowed %v, want %v", tt.rule, tt.path, got, tt.allowed)
		}
	}
	for _, tt := range []struct{ in, want string }{
		{"/a/b/../c", "/a/c"}, {"/a/..", "/"}, {"/..", "/"}, {"/a/.", "/a/"}, {"/a//b", "/a/b"}, {"//", "/"},
		{"/a/", "/a/"}, {"/./a?x=/../y", "/a?x=/../y"}, {"/a/b/..", "/a/"},
	} {
		if got := string(appendResolved(nil, tt.in)); got != tt.want {
			t.Errorf("appendResolved(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { m.Allowed("/x/../private/a") }); n != 0 {
		t.Errorf("Allowed with dot segments allocates %v times", n)
	}
}

// TestLongestMatchCountsCanonicalLength: rules are ranked by the length of
// the pattern they are matched as (unreserved escapes decoded, non-ASCII
// encoded), not as written: "/%7Ejoe/" is the 6-octet "/~joe/".
func TestLongestMatchCountsCanonicalLength(t *testing.T) {
	runMatchCases(t, []matchCase{
		{"tilde allow longer", "User-agent: *\nDisallow: /%7Ejoe/\nAllow: /~joe/p\n", "x", "/~joe/pub/paper.pdf", true, "Allow: /~joe/p"},
		{"tilde allow longer, disallow spelt out", "User-agent: *\nAllow: /~a\nDisallow: /%7E\n", "x", "/~a", true, "Allow: /~a"},
		{"encoded allow shorter", "User-agent: *\nAllow: /%61%62%63\nDisallow: /abcd\n", "x", "/abcde", false, "Disallow: /abcd"},
		{"encoded allow, path still under it", "User-agent: *\nAllow: /%61%62%63\nDisallow: /ab\n", "x", "/abcde", true, "Allow: /%61%62%63"},
		{"non-ASCII counts encoded", "User-agent: *\nDisallow: /ü\nAllow: /%C3%BC\n", "x", "/ü/x", true, "Allow: /%C3%BC"},
		{"wildcard and end count", "User-agent: *\nAllow: /a*$\nDisallow: /abc\n", "x", "/abc", true, "Allow: /a*$"},
	})
}
