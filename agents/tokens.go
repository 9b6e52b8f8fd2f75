package agents

import "strings"

// agentToken is one entry of the User-agent knowledge table: a lower-case
// byte string that, found at the start of a word in a User-agent, names a
// crawler or a tool.
type agentToken struct {
	token string // lower-case; matched case-insensitively at a word start
	name  string // canonical spelling, used when the product token is exactly token
	kind  Kind   // Crawler or Tool
	what  string // what the software is, for the reason: "crawler", "HTTP library", ...
}

// runtimeClient marks the tokens of a language runtime's built-in HTTP client
// ("Java/17", "Python/3.11"): a library named in the same User-agent
// ("Python/3.11 aiohttp/3.9") is the better name.
const runtimeClient = "runtime HTTP client"

// agentTokens is all robowatch knows by name about robots' User-agents. A
// token matches at a word start (the byte before it is not a letter or digit)
// and the robot name is the whole product token around it, so "googlebot"
// names both "Googlebot" and "Googlebot-Image". Where the table says nothing,
// the generic rules of declaredAgent (role words such as "bot" or "spider", a
// contact URL) and uap-go decide.
//
// Families are listed because their User-agents do not carry a role word or a
// contact URL, or because the vendor documents them; each group says where it
// comes from. No entry was copied from the labelled test corpus.
var agentTokens = []agentToken{
	// Search engines, from each vendor's crawler documentation:
	// developers.google.com/search/docs/crawling-indexing/overview-google-crawlers,
	// bing.com/webmasters/help/which-crawlers-does-bing-use, yandex.com/support/webmaster/robot-workings,
	// baidu.com/search/robots_english.html, support.apple.com/HT204683, duckduckgo.com/duckduckbot,
	// help.naver.com (Yeti), seznam.cz (SeznamBot), mojeek.com/bot.html, aspiegel.com/petalbot.
	{"googlebot", "Googlebot", Crawler, "crawler"},
	{"adsbot-google", "AdsBot-Google", Crawler, "crawler"},
	{"mediapartners-google", "Mediapartners-Google", Crawler, "crawler"},
	{"feedfetcher-google", "FeedFetcher-Google", Crawler, "feed fetcher"},
	{"google-inspectiontool", "Google-InspectionTool", Crawler, "crawler"},
	{"googleother", "GoogleOther", Crawler, "crawler"},
	{"storebot-google", "Storebot-Google", Crawler, "crawler"},
	{"apis-google", "APIs-Google", Crawler, "crawler"},
	{"google-read-aloud", "Google-Read-Aloud", Crawler, "fetcher"},
	{"duplexweb-google", "DuplexWeb-Google", Crawler, "fetcher"},
	{"google-site-verification", "Google-Site-Verification", Crawler, "fetcher"},
	// Google's user-triggered fetchers with neither a role word nor a URL
	// (developers.google.com/crawling/docs/crawlers-fetchers/google-user-triggered-fetchers).
	{"google-cws", "Google-CWS", Crawler, "fetcher"},
	{"googlemessages", "GoogleMessages", Crawler, "preview fetcher"},
	{"google-pinpoint", "Google-Pinpoint", Crawler, "fetcher"},
	{"google favicon", "Google Favicon", Crawler, "fetcher"},
	{"googleweblight", "googleweblight", Crawler, "transcoding proxy"},
	{"google web preview", "Google Web Preview", Crawler, "preview fetcher"},
	{"google-structured-data-testing-tool", "Google-Structured-Data-Testing-Tool", Crawler, "testing tool"},
	{"google page speed", "Google Page Speed Insights", Crawler, "testing tool"},
	{"chrome-lighthouse", "Chrome-Lighthouse", Crawler, "audit tool"},
	{"appengine-google", "AppEngine-Google", Tool, "App Engine URL fetcher"},
	{"bingbot", "bingbot", Crawler, "crawler"},
	{"bingpreview", "BingPreview", Crawler, "preview fetcher"},
	{"msnbot", "msnbot", Crawler, "crawler"},
	{"adidxbot", "adidxbot", Crawler, "crawler"},
	{"yahoo! slurp", "Yahoo! Slurp", Crawler, "crawler"},
	{"yandex", "Yandex", Crawler, "crawler"},
	{"baiduspider", "Baiduspider", Crawler, "crawler"},
	{"applebot", "Applebot", Crawler, "crawler"},
	{"duckduckbot", "DuckDuckBot", Crawler, "crawler"},
	{"duckassistbot", "DuckAssistBot", Crawler, "crawler"},
	{"yeti/", "Yeti", Crawler, "crawler"},
	{"seznambot", "SeznamBot", Crawler, "crawler"},
	{"mojeekbot", "MojeekBot", Crawler, "crawler"},
	{"petalbot", "PetalBot", Crawler, "crawler"},
	{"qwantify", "Qwantify", Crawler, "crawler"},
	{"exabot", "Exabot", Crawler, "crawler"},
	{"coccocbot", "coccocbot", Crawler, "crawler"},

	// AI and data-set crawlers and fetchers, from the vendors' pages:
	// platform.openai.com/docs/bots, support.anthropic.com (ClaudeBot), commoncrawl.org/ccbot,
	// docs.perplexity.ai/guides/bots, bytedance.com/spider, developer.amazon.com/amazonbot,
	// developers.facebook.com/docs/sharing/webmasters/web-crawlers, diffbot.com.
	{"gptbot", "GPTBot", Crawler, "crawler"},
	{"chatgpt-user", "ChatGPT-User", Crawler, "fetcher"},
	{"oai-searchbot", "OAI-SearchBot", Crawler, "crawler"},
	{"claudebot", "ClaudeBot", Crawler, "crawler"},
	{"claude-web", "Claude-Web", Crawler, "fetcher"},
	{"claude-user", "Claude-User", Crawler, "fetcher"},
	{"claude-searchbot", "Claude-SearchBot", Crawler, "crawler"},
	{"anthropic-ai", "anthropic-ai", Crawler, "crawler"},
	{"ccbot", "CCBot", Crawler, "crawler"},
	{"perplexitybot", "PerplexityBot", Crawler, "crawler"},
	{"perplexity-user", "Perplexity-User", Crawler, "fetcher"},
	{"bytespider", "Bytespider", Crawler, "crawler"},
	{"amazonbot", "Amazonbot", Crawler, "crawler"},
	{"meta-externalagent", "meta-externalagent", Crawler, "crawler"},
	{"meta-externalfetcher", "meta-externalfetcher", Crawler, "fetcher"},
	{"facebookbot", "FacebookBot", Crawler, "crawler"},
	{"diffbot", "Diffbot", Crawler, "crawler"},
	{"cohere-ai", "cohere-ai", Crawler, "crawler"},
	{"youbot", "YouBot", Crawler, "crawler"},
	{"ai2bot", "AI2Bot", Crawler, "crawler"},
	{"timpibot", "Timpibot", Crawler, "crawler"},
	{"imagesiftbot", "ImagesiftBot", Crawler, "crawler"},
	{"omgili", "omgili", Crawler, "crawler"},

	// SEO and marketing crawlers, from their bot pages (ahrefs.com/robot, semrush.com/bot,
	// mj12bot.com, moz.com/help (DotBot, rogerbot), webmeup.com (BLEXBot), dataforseo.com/dataforseo-bot).
	{"ahrefsbot", "AhrefsBot", Crawler, "crawler"},
	{"ahrefssiteaudit", "AhrefsSiteAudit", Crawler, "crawler"},
	{"semrushbot", "SemrushBot", Crawler, "crawler"},
	{"siteauditbot", "SiteAuditBot", Crawler, "crawler"},
	{"mj12bot", "MJ12bot", Crawler, "crawler"},
	{"dotbot", "DotBot", Crawler, "crawler"},
	{"rogerbot", "rogerbot", Crawler, "crawler"},
	{"blexbot", "BLEXBot", Crawler, "crawler"},
	{"dataforseobot", "DataForSeoBot", Crawler, "crawler"},
	{"serpstatbot", "serpstatbot", Crawler, "crawler"},
	{"screaming frog", "Screaming Frog SEO Spider", Crawler, "crawler"},
	{"sistrix", "SISTRIX", Crawler, "crawler"},

	// Link-preview fetchers of social networks and chat apps, from their developer docs
	// (facebook "facebookexternalhit", developer.twitter.com cards, api.slack.com/robots,
	// discord.com, core.telegram.org, linkedin.com, developers.pinterest.com, redditbot).
	{"facebookexternalhit", "facebookexternalhit", Crawler, "preview fetcher"},
	{"facebookcatalog", "FacebookCatalog", Crawler, "crawler"},
	{"twitterbot", "Twitterbot", Crawler, "preview fetcher"},
	{"linkedinbot", "LinkedInBot", Crawler, "preview fetcher"},
	{"slackbot", "Slackbot", Crawler, "preview fetcher"},
	{"slack-imgproxy", "Slack-ImgProxy", Crawler, "image proxy"},
	{"discordbot", "Discordbot", Crawler, "preview fetcher"},
	{"telegrambot", "TelegramBot", Crawler, "preview fetcher"},
	{"whatsapp/", "WhatsApp", Crawler, "preview fetcher"},
	{"pinterestbot", "Pinterestbot", Crawler, "crawler"},
	{"redditbot", "redditbot", Crawler, "preview fetcher"},
	{"embedly", "Embedly", Crawler, "preview fetcher"},
	{"iframely", "Iframely", Crawler, "preview fetcher"},
	{"skypeuripreview", "SkypeUriPreview", Crawler, "preview fetcher"},
	{"vkshare", "vkShare", Crawler, "preview fetcher"},
	{"mastodon/", "Mastodon", Crawler, "preview fetcher"},
	{"bitlybot", "bitlybot", Crawler, "preview fetcher"},

	// Web archives (archive.org/details/archive.org_bot, github.com/internetarchive/heritrix3).
	{"ia_archiver", "ia_archiver", Crawler, "archiver"},
	{"archive.org_bot", "archive.org_bot", Crawler, "archiver"},
	{"heritrix", "heritrix", Crawler, "archiver"},
	{"nutch", "Nutch", Crawler, "crawler framework"},

	// Uptime and performance monitors, from their documentation (pingdom.com, uptimerobot.com,
	// statuscake.com, site24x7.com, gtmetrix.com, catchpoint.com, newrelic.com, datadoghq.com,
	// Kubernetes kube-probe, AWS ELB, Nagios/monitoring-plugins check_http, prometheus.io and its
	// blackbox_exporter, zabbix.com).
	{"pingdom", "Pingdom", Crawler, "uptime monitor"},
	{"uptimerobot", "UptimeRobot", Crawler, "uptime monitor"},
	{"statuscake", "StatusCake", Crawler, "uptime monitor"},
	{"site24x7", "Site24x7", Crawler, "uptime monitor"},
	{"gtmetrix", "GTmetrix", Crawler, "performance monitor"},
	{"catchpoint", "Catchpoint", Crawler, "performance monitor"},
	{"newrelicpinger", "NewRelicPinger", Crawler, "uptime monitor"},
	{"datadog", "Datadog", Crawler, "monitor"},
	{"ptst/", "WebPageTest", Crawler, "performance monitor"},   // docs.webpagetest.org: appends "PTST/<version>"
	{"gomezagent", "GomezAgent", Crawler, "synthetic monitor"}, // Dynatrace (Gomez) synthetic monitoring
	{"kube-probe", "kube-probe", Tool, "health check"},
	{"elb-healthchecker", "ELB-HealthChecker", Tool, "health check"},
	{"googlehc", "GoogleHC", Tool, "health check"},
	{"check_http", "check_http", Tool, "monitoring plugin"},
	{"prometheus/", "Prometheus", Tool, "monitor"},
	{"blackbox exporter/", "Blackbox Exporter", Tool, "monitor"}, // Prometheus's prober: "Blackbox Exporter/<version>"
	{"zabbix", "Zabbix", Tool, "monitor"},

	// HTTP libraries and command-line clients: the default User-agent of each (curl.se,
	// gnu.org/software/wget, requests.readthedocs.io, docs.python.org urllib, aiohttp, httpx,
	// pkg.go.dev/net/http, the JDK HttpURLConnection "Java/", Apache HttpComponents, square.github.io/okhttp,
	// metacpan.org LWP, Scrapy, node-fetch, axios, undici, Guzzle, Ruby rest-client/http.rb/Faraday,
	// Postman, HTTPie, PowerShell, .NET, Rust reqwest, Dart, libfetch).
	{"curl/", "curl", Tool, "command-line client"},
	{"libcurl", "libcurl", Tool, "HTTP library"},
	{"wget", "Wget", Tool, "command-line client"},
	{"python-requests", "python-requests", Tool, "HTTP library"},
	{"python-urllib", "Python-urllib", Tool, "HTTP library"},
	{"python-httpx", "python-httpx", Tool, "HTTP library"},
	{"python/", "Python", Tool, runtimeClient},
	{"aiohttp", "aiohttp", Tool, "HTTP library"},
	{"httpx", "httpx", Tool, "HTTP library"},
	{"urllib3", "urllib3", Tool, "HTTP library"},
	{"mechanize", "mechanize", Tool, "HTTP library"},
	{"go-http-client", "Go-http-client", Tool, "HTTP library"},
	{"go-resty", "go-resty", Tool, "HTTP library"},
	{"java/", "Java", Tool, runtimeClient},
	{"apache-httpclient", "Apache-HttpClient", Tool, "HTTP library"},
	{"apache-httpasyncclient", "Apache-HttpAsyncClient", Tool, "HTTP library"},
	{"jakarta commons-httpclient", "Jakarta Commons-HttpClient", Tool, "HTTP library"},
	{"okhttp", "okhttp", Tool, "HTTP library"},
	{"jersey/", "Jersey", Tool, "HTTP library"},
	{"libwww-perl", "libwww-perl", Tool, "HTTP library"},
	{"lwp-", "LWP", Tool, "HTTP library"},
	{"lwp::", "LWP", Tool, "HTTP library"},
	{"http::tiny", "HTTP-Tiny", Tool, "HTTP library"},
	{"scrapy", "Scrapy", Tool, "scraping framework"},
	{"node-fetch", "node-fetch", Tool, "HTTP library"},
	{"axios", "axios", Tool, "HTTP library"},
	{"undici", "undici", Tool, "HTTP library"},
	{"got (", "got", Tool, "HTTP library"},
	{"superagent", "superagent", Tool, "HTTP library"},
	{"guzzlehttp", "GuzzleHttp", Tool, "HTTP library"},
	{"php/", "PHP", Tool, runtimeClient},
	{"rest-client", "rest-client", Tool, "HTTP library"},
	{"http.rb", "http.rb", Tool, "HTTP library"},
	{"faraday", "Faraday", Tool, "HTTP library"},
	{"ruby/", "Ruby", Tool, runtimeClient},
	{"postmanruntime", "PostmanRuntime", Tool, "API client"},
	{"insomnia", "insomnia", Tool, "API client"},
	{"httpie", "HTTPie", Tool, "command-line client"},
	{"windowspowershell", "WindowsPowerShell", Tool, "command-line client"},
	{"winhttp", "WinHTTP", Tool, "HTTP library"},
	{"reqwest", "reqwest", Tool, "HTTP library"},
	{"dart/", "Dart", Tool, runtimeClient},
	{"libfetch", "libfetch", Tool, "HTTP library"},
	{"fetch libfetch", "fetch", Tool, "command-line client"},
	{"grpc-", "grpc", Tool, "RPC library"},
	{"aria2", "aria2", Tool, "download tool"},
	{"httrack", "HTTrack", Tool, "site copier"},
	{"sitesucker", "SiteSucker", Tool, "site copier"},
	{"apachebench", "ApacheBench", Tool, "load tester"},

	// Headless and automated browsers (developer.chrome.com/docs/chromium/headless, phantomjs.org,
	// pptr.dev, playwright.dev, selenium.dev, cypress.io).
	{"headlesschrome", "HeadlessChrome", Tool, "headless browser"},
	{"phantomjs", "PhantomJS", Tool, "headless browser"},
	{"puppeteer", "Puppeteer", Tool, "headless browser"},
	{"playwright", "Playwright", Tool, "headless browser"},
	{"selenium", "Selenium", Tool, "automated browser"},
	{"webdriver", "WebDriver", Tool, "automated browser"},
	{"cypress/", "Cypress", Tool, "automated browser"},

	// Scanners: the defaults of common scanning and attack tools (their source code or manuals:
	// masscan, zgrab, nmap NSE, nikto, sqlmap, nuclei, wpscan, ffuf, gobuster, WhatWeb, Wappalyzer,
	// Censys, Palo Alto Expanse, LeakIX, Netcraft, Qualys, Nessus, OpenVAS, Arachni, Acunetix).
	{"masscan", "masscan", Tool, "scanner"},
	{"zgrab", "zgrab", Tool, "scanner"},
	{"nmap", "Nmap", Tool, "scanner"},
	{"nikto", "Nikto", Tool, "scanner"},
	{"sqlmap", "sqlmap", Tool, "scanner"},
	{"nuclei", "Nuclei", Tool, "scanner"},
	{"wpscan", "WPScan", Tool, "scanner"},
	{"fuzz faster u fool", "ffuf", Tool, "scanner"},
	{"gobuster", "gobuster", Tool, "scanner"},
	{"whatweb", "WhatWeb", Tool, "scanner"},
	{"wappalyzer", "Wappalyzer", Tool, "scanner"},
	{"censysinspect", "CensysInspect", Tool, "scanner"},
	{"expanse", "Expanse", Tool, "scanner"},
	{"l9explore", "l9explore", Tool, "scanner"},
	{"l9tcpid", "l9tcpid", Tool, "scanner"},
	{"netcraft", "Netcraft", Tool, "scanner"},
	{"qualys", "Qualys", Tool, "scanner"},
	{"nessus", "Nessus", Tool, "scanner"},
	{"openvas", "OpenVAS", Tool, "scanner"},
	{"arachni", "Arachni", Tool, "scanner"},
	{"acunetix", "Acunetix", Tool, "scanner"},
}

// agentRoleWords are generic words that only robots put in a User-agent: a
// product called "…bot", "…Spider" or "…Crawler" declares itself, and so does
// a feed reader polling "for N subscribers". They match anywhere inside a word
// (unless atWordStart), never inside a URL or an e-mail address, and name the
// product token around them. The list follows the role words of isbot's
// generic pattern and uap-go's generic crawler regexes, not single strings.
var agentRoleWords = []struct {
	word        string
	kind        Kind
	atWordStart bool // the byte before must not be a letter ("scanner" but not "CamScanner", a browser app)
	atWordEnd   bool // the byte after must not be a letter ("…Bot/2.1" but not "Bottle")
}{
	{"bot", Crawler, false, true},
	{"crawl", Crawler, false, false},
	{"spider", Crawler, false, false},
	{"slurp", Crawler, false, false},
	{"fetcher", Crawler, false, false},
	{"scraper", Crawler, false, false},
	{"archiver", Crawler, false, false},
	{"indexer", Crawler, false, false},
	{"preview", Crawler, false, false},
	{"monitor", Crawler, false, false},
	{"checker", Crawler, false, false},
	{"validator", Crawler, false, false},
	{"scanner", Tool, true, false},
	{"uptime", Crawler, false, false},
	{"synthetic", Crawler, false, false},
	{"subscriber", Crawler, false, false},
	{"feed", Crawler, true, false},
	{"rss", Crawler, false, true},
	{"probe", Tool, false, false},
	{"proxy", Crawler, false, false},
	{"headless", Tool, false, false},
	{"http", Tool, false, false}, // a product named after HTTP is a client library: "scalaj-http", "HttpClient"
	{"http client", Tool, false, false},
}

// roleWord finds the first of agentRoleWords (in table order) that lower
// holds as a word that names the product, and its first such place; k is
// -1 when none does. It reads the role words t.matches found in one pass:
// searching for each word in turn would cost a new User-agent a pass per
// word.
func roleWord(t *uaText) (k, at int, name string) {
	k = -1
	for _, m := range t.matches {
		i, j := int(m.at), int(m.entry)
		if m.table != tableRoles || k >= 0 && j >= k {
			continue // an earlier word in the table already matched
		}
		n, ok := roleWordName(t.ua, t.lower, j, i)
		if !ok {
			continue
		}
		k, at, name = j, i, n
	}
	return k, at, name
}

// roleWordName returns the product that role word j, found at lower[i],
// names; ok is false when the word there names none (inside a longer word,
// an address or a comparison). roleWord and its test oracle both accept a
// match by it.
func roleWordName(ua, lower string, j, i int) (name string, ok bool) {
	w := &agentRoleWords[j]
	end := i + len(w.word)
	if w.atWordStart && i > 0 && uaLetter(lower[i-1]) ||
		w.atWordEnd && end < len(lower) && (uaLetter(lower[end]) || uaDigit(lower[end])) ||
		w.word == "bot" && i >= 2 && lower[i-2:i] == "cu" || // CUBOT, a phone maker
		inAddress(lower, i) || compared(lower, i) {
		return "", false
	}
	n := productName(ua, i, end)
	if w.word == "http" && (strings.EqualFold(n, "http") || strings.EqualFold(n, "https")) {
		return "", false // "(HTTPS)" in a phone browser's comment, not a product
	}
	if strings.HasPrefix(strings.ToLower(n), w.word) {
		// "Superfeedr bot/2.0", "(compatible; Yahoo Ad monitoring; …)": the
		// role word is not the name; the product before it is.
		if r := robotName(ua, lower); r != "(unknown)" && r != "Mozilla" {
			n = r
		}
	}
	return n, true
}

// compared reports whether the product around lower[i] follows "like " or
// "not ": "like FeedFetcher-Google" (Feedly, Inoreader), "not Googlebot"
// compare with a crawler, they do not claim to be it.
func compared(lower string, i int) bool {
	for i > 0 && (uaLetter(lower[i-1]) || uaDigit(lower[i-1]) || lower[i-1] == '-' || lower[i-1] == '_' || lower[i-1] == '.') {
		i--
	}
	return strings.HasSuffix(lower[:i], "like ") || strings.HasSuffix(lower[:i], "not ")
}

// findToken returns the table token found earliest in lower at a word start,
// the longest one when several start at the same byte; a language runtime's
// token only when nothing else matches. It reads the tokens t.matches found.
func findToken(t *uaText) (*agentToken, int) {
	lower, ms := t.lower, t.matches
	var runtime *agentToken
	runtimeAt := 0
	for k := 0; k < len(ms); {
		i := int(ms[k].at)
		var best *agentToken
		for ; k < len(ms) && int(ms[k].at) == i; k++ {
			if ms[k].table != tableTokens {
				continue
			}
			if tok := &agentTokens[ms[k].entry]; best == nil || len(tok.token) > len(best.token) {
				best = tok
			}
		}
		switch {
		case best == nil, i > 0 && uaLetter(lower[i-1]):
		case compared(lower, i):
		case best.what != runtimeClient:
			return best, i
		case runtime == nil:
			runtime, runtimeAt = best, i
		}
	}
	return runtime, runtimeAt
}

// tokenName is the robot name for table token t found at byte at of ua: the
// product token around it as written ("Googlebot-Image"), or the table's
// spelling when the product token is just the token ("go-http-client" →
// "Go-http-client") or the token spans words ("Screaming Frog SEO Spider").
func tokenName(ua string, at int, t *agentToken) string {
	tok := strings.TrimRight(t.token, "/(: ")
	if strings.ContainsAny(tok, " !") {
		return t.name
	}
	name := productName(ua, at, at+len(tok))
	if name == "" || strings.EqualFold(name, tok) {
		return t.name
	}
	return name
}

// inAddress reports whether byte i of lower lies inside a URL or an e-mail
// address ("http://example.com/robot.html") or a device build id
// ("Build/S1RSS32"), where role words say nothing about the product itself.
func inAddress(lower string, i int) bool {
	start, end := i, i
	for start > 0 && !uaFieldSep(lower[start-1]) {
		start--
	}
	for end < len(lower) && !uaFieldSep(lower[end]) {
		end++
	}
	f := lower[start:end]
	return strings.HasPrefix(f, "build/") || strings.Contains(f, "://") || strings.HasPrefix(f, "+") || strings.HasPrefix(f, "www.") ||
		strings.Contains(f, ".com") || strings.IndexByte(f, '@') >= 0
}
