package robots

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sharedRobots = "../../shared/data/robots"

func readTestdata(t *testing.T, name string) *Robots {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "robots", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// realCase is a question to a real file: rule is "line: text" of the
// deciding rule, or "" when no rule decides.
type realCase struct {
	agent, path string
	allowed     bool
	rule        string
	group       string
}

func checkReal(t *testing.T, name string, r *Robots, cases []realCase) {
	t.Helper()
	for _, c := range cases {
		m := r.Agent(c.agent)
		ok, rule := m.Allowed(c.path)
		got := ""
		if rule != nil {
			got = itoa(rule.Line) + ": " + rule.Text
		}
		if ok != c.allowed || got != c.rule || m.Group() != c.group {
			t.Errorf("%s: %q %q = %v by %q in group %q; want %v by %q in group %q", name, c.agent, c.path, ok, got, m.Group(), c.allowed, c.rule, c.group)
		}
	}
}

func TestRealGoogle(t *testing.T) {
	r := readTestdata(t, "www.google.com.robots.txt")
	const chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36"
	checkReal(t, "google", r, []realCase{
		{chrome, "/?hl=en&gws_rd=ssl", true, "12: Allow: /?hl=*&gws_rd=ssl$", "*"},
		{chrome, "/?hl=en&foo=1&gws_rd=ssl", false, "13: Disallow: /?hl=*&*&gws_rd=ssl", "*"},
		{chrome, "/?hl=en&gws_rd=ssl&x", false, "11: Disallow: /?hl=*&", "*"},
		{chrome, "/?hl=en", true, "10: Allow: /?hl=", "*"},
		{chrome, "/?q=x", false, "9: Disallow: /?", "*"},
		{chrome, "/", true, "", "*"},
		{chrome, "/search?q=robots", false, "2: Disallow: /search", "*"},
		{chrome, "/search/about", true, "3: Allow: /search/about", "*"},
		{chrome, "/m/finance", true, "23: Allow:    /m/finance", "*"},
		{"Googlebot/2.1", "/search", false, "2: Disallow: /search", "*"},
		{"Twitterbot/1.0", "/imgres?x=1", true, "287: Allow: /imgres", "twitterbot"},
		{"Twitterbot/1.0", "/search", true, "", "twitterbot"},
		{"AdsBot-Google (+http://www.google.com/adsbot.html)", "/maps/api/js/x", false, "279: Disallow: /maps/api/js/", "adsbot-google"},
	})
	if len(r.Sitemaps) != 1 || r.Sitemaps[0] != "https://www.google.com/sitemap.xml" {
		t.Errorf("Sitemaps = %q", r.Sitemaps)
	}
}

func TestRealNetflix(t *testing.T) {
	r := readTestdata(t, "www.netflix.com.robots.txt")
	// One group named by 16 consecutive User-agent lines, with a blank line
	// between its "Allow: /" and its Disallow lines.
	if g := r.Groups[1]; len(g.Agents) != 16 || g.Line != 4 || len(g.Rules) < 100 {
		t.Fatalf("group 2: %d agents at line %d, %d rules", len(g.Agents), g.Line, len(g.Rules))
	}
	var cases []realCase
	for _, a := range r.Groups[1].Agents {
		tok := strings.ToLower(a)
		cases = append(cases,
			realCase{a, "/title/80057281", true, "20: Allow: /", tok},
			realCase{a, "/login", false, "39: Disallow: /login", tok},
			realCase{a, "/AccountStatus", false, "23: Disallow: /AccountStatus", tok},
		)
	}
	cases = append(cases,
		realCase{"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "/browse", false, "125: Disallow: /browse", "bingbot"},
		realCase{"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "/browse/genre/34399", true, "127: Allow: /browse/genre/*", "bingbot"},
		realCase{"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "/browse/my-list", false, "126: Disallow: /browse/*", "bingbot"},
		realCase{"Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", "/YourAccount", false, "158: Disallow: /YourAccount", "yandexbot"},
		realCase{"Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", "/youraccount/x", false, "157: Disallow: /youraccount", "yandexbot"},
		realCase{"curl/8.0", "/title/1", false, "2: Disallow: /", "*"},
		realCase{"curl/8.0", "/robots.txt", true, "", "*"},
		realCase{"Twitterbot/1.0", "/title/1", true, "164: Allow: /", "twitterbot"},
		realCase{"Yahoo Pipes 1.0", "/x", false, "169: Disallow: /", "yahoo"},
	)
	checkReal(t, "netflix", r, cases)
}

func TestRealWikipedia(t *testing.T) {
	r := readTestdata(t, "en.wikipedia.org.robots.txt")
	// The BOM before the first '#' must not make line 1 a garbage line.
	for _, p := range Lint(r) {
		if p.Line == 1 {
			t.Errorf("BOM line reported: %+v", p)
		}
	}
	if r.Groups[0].Line != 11 || r.Groups[0].Agents[0] != "MJ12bot" {
		t.Errorf("first group: %v at line %d", r.Groups[0].Agents, r.Groups[0].Line)
	}
	const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0"
	checkReal(t, "wikipedia", r, []realCase{
		{"Mediapartners-Google", "/wiki/Main_Page", false, "16: Disallow: /", "mediapartners-google"},
		{"Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)", "/", false, "12: Disallow: /", "mj12bot"},
		{"Wget/1.21", "/wiki/X", false, "106: Disallow: /", "wget"},
		{"FAST-WebCrawler/3.8", "/wiki/X", false, "97: Disallow: /", "fast"},
		{firefox, "/wiki/Main_Page", true, "", "*"},
		{firefox, "/wiki/Special:Random", false, "160: Disallow: /wiki/Special:", "*"},
		{firefox, "/wiki/Special%3ARandom", false, "163: Disallow: /wiki/Special%3A", "*"},
		{firefox, "/wiki/Wikipedia:L%c3%b6schkandidaten/2019", false, "175: Disallow: /wiki/Wikipedia:L%C3%B6schkandidaten/", "*"},
		{firefox, "/wiki/Wikipedia:Löschkandidaten/2019", false, "175: Disallow: /wiki/Wikipedia:L%C3%B6schkandidaten/", "*"},
		{firefox, "/w/load.php?x", true, "155: Allow: /w/load.php?", "*"},
		{firefox, "/w/index.php", false, "157: Disallow: /w/", "*"},
	})
}

func TestRealHTMLAndOdd(t *testing.T) {
	r := readTestdata(t, "www.regmovies.com.robots.txt")
	if !r.HTML || len(r.Groups) != 0 {
		t.Errorf("regmovies: HTML %v, %d groups", r.HTML, len(r.Groups))
	}
	if ok, rule := r.Allowed("Googlebot", "/admin"); !ok || rule != nil {
		t.Errorf("regmovies: an HTML page must leave everything allowed")
	}
	a := readTestdata(t, "adguard.com.robots.txt")
	checkReal(t, "adguard", a, []realCase{
		{"Googlebot", "/en/account/login", false, "2: Disallow: */account/", "*"},
		{"Googlebot", "/en/license.html", false, "15: Disallow: */license.html", "*"},
		{"Googlebot", "/en/index.html", true, "", "*"},
	})
}

// TestSharedCorpus parses every file of ../shared/data/robots (when present)
// and checks a few answers each file makes certain.
func TestSharedCorpus(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(sharedRobots, "*.robots.txt"))
	if len(files) == 0 {
		t.Skip("../shared/data/robots not present")
	}
	if len(files) != 20 {
		t.Errorf("%d files in %s, want 20", len(files), sharedRobots)
	}
	spot := map[string][]realCase{
		"github.com": {
			{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "/robowatch/robowatch/tree/main/x", false, "", "googlebot"},
			{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "/robowatch/robowatch", true, "", "googlebot"},
			{"curl/8", "/robowatch", false, "", "*"},
		},
		"www.linkedin.com": {
			{"Googlebot", "/addContactsNow", false, "", "googlebot"},
			{"Googlebot", "/in/someone", true, "", "googlebot"},
		},
		"stackoverflow.com": {{"Googlebot", "/users/login?x", false, "", "*"}},
		"www.imdb.com":      {{"bot", "/OnThisDay", false, "", "*"}, {"bot", "/onthisday", true, "", "*"}},
		"arxiv.org":         {{"bot", "/abs/1234.5678", true, "", "*"}},
		"caniuse.com":       {{"bot", "/x", true, "", ""}},
		"www.regmovies.com": {{"bot", "/x", true, "", ""}},
		"eric.ed.gov":       {{"bot", "/x", true, "", "*"}},
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r := ParseBytes(b)
		name := strings.TrimSuffix(filepath.Base(f), ".robots.txt")
		if r.Truncated {
			t.Errorf("%s: truncated", name)
		}
		nonEmpty := len(strings.TrimSpace(string(b))) > 0
		if nonEmpty && !r.HTML && len(r.Groups) == 0 {
			t.Errorf("%s: no groups", name)
		}
		for _, c := range spot[name] {
			// The rule is not pinned here, only the answer and the group.
			ok, _ := r.Agent(c.agent).Allowed(c.path)
			if g := r.Agent(c.agent).Group(); ok != c.allowed || g != c.group {
				t.Errorf("%s: %q %q = %v in group %q, want %v in %q", name, c.agent, c.path, ok, g, c.allowed, c.group)
			}
		}
		// Every rule parsed must quote its own line.
		for _, g := range r.Groups {
			for _, rule := range g.Rules {
				if rule.Line < 1 || rule.Line > r.Lines || !strings.Contains(rule.Text, rule.Pattern) {
					t.Errorf("%s: rule %+v", name, rule)
				}
			}
		}
	}
}
