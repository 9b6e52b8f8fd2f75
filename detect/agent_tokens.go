package detect

// agentToken is one entry of the User-agent knowledge table: a lower-case
// byte string that, found at the start of a word in a User-agent, names a
// crawler or a tool.
type agentToken struct {
	token string    // lower-case; matched case-insensitively at a word start
	name  string    // canonical spelling, used when the product token is exactly token
	kind  AgentKind // AgentCrawler or AgentTool
	what  string    // what the software is, for the reason: "crawler", "HTTP library", ...
}

// runtimeClient marks the tokens of a language runtime's built-in HTTP client
// ("Java/17", "Python/3.11"): a library named in the same User-agent
// ("Python/3.11 aiohttp/3.9") is the better name.
const runtimeClient = "runtime HTTP client"

// agentTokens is all robowatch knows by name about robots' User-agents. A
// token matches at a word start (the byte before it is not a letter or digit)
// and the robot name is the whole product token around it, so "googlebot"
// names both "Googlebot" and "Googlebot-Image". Where the table says nothing,
// the generic rules in agent.go (role words such as "bot" or "spider", a
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
	{"googlebot", "Googlebot", AgentCrawler, "crawler"},
	{"adsbot-google", "AdsBot-Google", AgentCrawler, "crawler"},
	{"mediapartners-google", "Mediapartners-Google", AgentCrawler, "crawler"},
	{"feedfetcher-google", "FeedFetcher-Google", AgentCrawler, "feed fetcher"},
	{"google-inspectiontool", "Google-InspectionTool", AgentCrawler, "crawler"},
	{"googleother", "GoogleOther", AgentCrawler, "crawler"},
	{"storebot-google", "Storebot-Google", AgentCrawler, "crawler"},
	{"apis-google", "APIs-Google", AgentCrawler, "crawler"},
	{"google-read-aloud", "Google-Read-Aloud", AgentCrawler, "fetcher"},
	{"duplexweb-google", "DuplexWeb-Google", AgentCrawler, "fetcher"},
	{"google-site-verification", "Google-Site-Verification", AgentCrawler, "fetcher"},
	{"google favicon", "Google Favicon", AgentCrawler, "fetcher"},
	{"googleweblight", "googleweblight", AgentCrawler, "transcoding proxy"},
	{"google web preview", "Google Web Preview", AgentCrawler, "preview fetcher"},
	{"google-structured-data-testing-tool", "Google-Structured-Data-Testing-Tool", AgentCrawler, "testing tool"},
	{"google page speed", "Google Page Speed Insights", AgentCrawler, "testing tool"},
	{"chrome-lighthouse", "Chrome-Lighthouse", AgentCrawler, "audit tool"},
	{"appengine-google", "AppEngine-Google", AgentTool, "App Engine URL fetcher"},
	{"bingbot", "bingbot", AgentCrawler, "crawler"},
	{"bingpreview", "BingPreview", AgentCrawler, "preview fetcher"},
	{"msnbot", "msnbot", AgentCrawler, "crawler"},
	{"adidxbot", "adidxbot", AgentCrawler, "crawler"},
	{"yahoo! slurp", "Yahoo! Slurp", AgentCrawler, "crawler"},
	{"yandex", "Yandex", AgentCrawler, "crawler"},
	{"baiduspider", "Baiduspider", AgentCrawler, "crawler"},
	{"applebot", "Applebot", AgentCrawler, "crawler"},
	{"duckduckbot", "DuckDuckBot", AgentCrawler, "crawler"},
	{"duckassistbot", "DuckAssistBot", AgentCrawler, "crawler"},
	{"yeti/", "Yeti", AgentCrawler, "crawler"},
	{"seznambot", "SeznamBot", AgentCrawler, "crawler"},
	{"mojeekbot", "MojeekBot", AgentCrawler, "crawler"},
	{"petalbot", "PetalBot", AgentCrawler, "crawler"},
	{"qwantify", "Qwantify", AgentCrawler, "crawler"},
	{"exabot", "Exabot", AgentCrawler, "crawler"},
	{"coccocbot", "coccocbot", AgentCrawler, "crawler"},

	// AI and data-set crawlers and fetchers, from the vendors' pages:
	// platform.openai.com/docs/bots, support.anthropic.com (ClaudeBot), commoncrawl.org/ccbot,
	// docs.perplexity.ai/guides/bots, bytedance.com/spider, developer.amazon.com/amazonbot,
	// developers.facebook.com/docs/sharing/webmasters/web-crawlers, diffbot.com.
	{"gptbot", "GPTBot", AgentCrawler, "crawler"},
	{"chatgpt-user", "ChatGPT-User", AgentCrawler, "fetcher"},
	{"oai-searchbot", "OAI-SearchBot", AgentCrawler, "crawler"},
	{"claudebot", "ClaudeBot", AgentCrawler, "crawler"},
	{"claude-web", "Claude-Web", AgentCrawler, "fetcher"},
	{"claude-user", "Claude-User", AgentCrawler, "fetcher"},
	{"claude-searchbot", "Claude-SearchBot", AgentCrawler, "crawler"},
	{"anthropic-ai", "anthropic-ai", AgentCrawler, "crawler"},
	{"ccbot", "CCBot", AgentCrawler, "crawler"},
	{"perplexitybot", "PerplexityBot", AgentCrawler, "crawler"},
	{"perplexity-user", "Perplexity-User", AgentCrawler, "fetcher"},
	{"bytespider", "Bytespider", AgentCrawler, "crawler"},
	{"amazonbot", "Amazonbot", AgentCrawler, "crawler"},
	{"meta-externalagent", "meta-externalagent", AgentCrawler, "crawler"},
	{"meta-externalfetcher", "meta-externalfetcher", AgentCrawler, "fetcher"},
	{"facebookbot", "FacebookBot", AgentCrawler, "crawler"},
	{"diffbot", "Diffbot", AgentCrawler, "crawler"},
	{"cohere-ai", "cohere-ai", AgentCrawler, "crawler"},
	{"youbot", "YouBot", AgentCrawler, "crawler"},
	{"ai2bot", "AI2Bot", AgentCrawler, "crawler"},
	{"timpibot", "Timpibot", AgentCrawler, "crawler"},
	{"imagesiftbot", "ImagesiftBot", AgentCrawler, "crawler"},
	{"omgili", "omgili", AgentCrawler, "crawler"},

	// SEO and marketing crawlers, from their bot pages (ahrefs.com/robot, semrush.com/bot,
	// mj12bot.com, moz.com/help (DotBot, rogerbot), webmeup.com (BLEXBot), dataforseo.com/dataforseo-bot).
	{"ahrefsbot", "AhrefsBot", AgentCrawler, "crawler"},
	{"ahrefssiteaudit", "AhrefsSiteAudit", AgentCrawler, "crawler"},
	{"semrushbot", "SemrushBot", AgentCrawler, "crawler"},
	{"siteauditbot", "SiteAuditBot", AgentCrawler, "crawler"},
	{"mj12bot", "MJ12bot", AgentCrawler, "crawler"},
	{"dotbot", "DotBot", AgentCrawler, "crawler"},
	{"rogerbot", "rogerbot", AgentCrawler, "crawler"},
	{"blexbot", "BLEXBot", AgentCrawler, "crawler"},
	{"dataforseobot", "DataForSeoBot", AgentCrawler, "crawler"},
	{"serpstatbot", "serpstatbot", AgentCrawler, "crawler"},
	{"screaming frog", "Screaming Frog SEO Spider", AgentCrawler, "crawler"},
	{"sistrix", "SISTRIX", AgentCrawler, "crawler"},

	// Link-preview fetchers of social networks and chat apps, from their developer docs
	// (facebook "facebookexternalhit", developer.twitter.com cards, api.slack.com/robots,
	// discord.com, core.telegram.org, linkedin.com, developers.pinterest.com, redditbot).
	{"facebookexternalhit", "facebookexternalhit", AgentCrawler, "preview fetcher"},
	{"facebookcatalog", "FacebookCatalog", AgentCrawler, "crawler"},
	{"twitterbot", "Twitterbot", AgentCrawler, "preview fetcher"},
	{"linkedinbot", "LinkedInBot", AgentCrawler, "preview fetcher"},
	{"slackbot", "Slackbot", AgentCrawler, "preview fetcher"},
	{"slack-imgproxy", "Slack-ImgProxy", AgentCrawler, "image proxy"},
	{"discordbot", "Discordbot", AgentCrawler, "preview fetcher"},
	{"telegrambot", "TelegramBot", AgentCrawler, "preview fetcher"},
	{"whatsapp/", "WhatsApp", AgentCrawler, "preview fetcher"},
	{"pinterestbot", "Pinterestbot", AgentCrawler, "crawler"},
	{"redditbot", "redditbot", AgentCrawler, "preview fetcher"},
	{"embedly", "Embedly", AgentCrawler, "preview fetcher"},
	{"iframely", "Iframely", AgentCrawler, "preview fetcher"},
	{"skypeuripreview", "SkypeUriPreview", AgentCrawler, "preview fetcher"},
	{"vkshare", "vkShare", AgentCrawler, "preview fetcher"},
	{"mastodon/", "Mastodon", AgentCrawler, "preview fetcher"},
	{"bitlybot", "bitlybot", AgentCrawler, "preview fetcher"},

	// Web archives (archive.org/details/archive.org_bot, github.com/internetarchive/heritrix3).
	{"ia_archiver", "ia_archiver", AgentCrawler, "archiver"},
	{"archive.org_bot", "archive.org_bot", AgentCrawler, "archiver"},
	{"heritrix", "heritrix", AgentCrawler, "archiver"},
	{"nutch", "Nutch", AgentCrawler, "crawler framework"},

	// Uptime and performance monitors, from their documentation (pingdom.com, uptimerobot.com,
	// statuscake.com, site24x7.com, gtmetrix.com, catchpoint.com, newrelic.com, datadoghq.com,
	// Kubernetes kube-probe, AWS ELB, Nagios/monitoring-plugins check_http, prometheus.io, zabbix.com).
	{"pingdom", "Pingdom", AgentCrawler, "uptime monitor"},
	{"uptimerobot", "UptimeRobot", AgentCrawler, "uptime monitor"},
	{"statuscake", "StatusCake", AgentCrawler, "uptime monitor"},
	{"site24x7", "Site24x7", AgentCrawler, "uptime monitor"},
	{"gtmetrix", "GTmetrix", AgentCrawler, "performance monitor"},
	{"catchpoint", "Catchpoint", AgentCrawler, "performance monitor"},
	{"newrelicpinger", "NewRelicPinger", AgentCrawler, "uptime monitor"},
	{"datadog", "Datadog", AgentCrawler, "monitor"},
	{"ptst/", "WebPageTest", AgentCrawler, "performance monitor"},   // docs.webpagetest.org: appends "PTST/<version>"
	{"gomezagent", "GomezAgent", AgentCrawler, "synthetic monitor"}, // Dynatrace (Gomez) synthetic monitoring
	{"kube-probe", "kube-probe", AgentTool, "health check"},
	{"elb-healthchecker", "ELB-HealthChecker", AgentTool, "health check"},
	{"googlehc", "GoogleHC", AgentTool, "health check"},
	{"check_http", "check_http", AgentTool, "monitoring plugin"},
	{"prometheus/", "Prometheus", AgentTool, "monitor"},
	{"zabbix", "Zabbix", AgentTool, "monitor"},

	// HTTP libraries and command-line clients: the default User-agent of each (curl.se,
	// gnu.org/software/wget, requests.readthedocs.io, docs.python.org urllib, aiohttp, httpx,
	// pkg.go.dev/net/http, the JDK HttpURLConnection "Java/", Apache HttpComponents, square.github.io/okhttp,
	// metacpan.org LWP, Scrapy, node-fetch, axios, undici, Guzzle, Ruby rest-client/http.rb/Faraday,
	// Postman, HTTPie, PowerShell, .NET, Rust reqwest, Dart, libfetch).
	{"curl/", "curl", AgentTool, "command-line client"},
	{"libcurl", "libcurl", AgentTool, "HTTP library"},
	{"wget", "Wget", AgentTool, "command-line client"},
	{"python-requests", "python-requests", AgentTool, "HTTP library"},
	{"python-urllib", "Python-urllib", AgentTool, "HTTP library"},
	{"python-httpx", "python-httpx", AgentTool, "HTTP library"},
	{"python/", "Python", AgentTool, runtimeClient},
	{"aiohttp", "aiohttp", AgentTool, "HTTP library"},
	{"httpx", "httpx", AgentTool, "HTTP library"},
	{"urllib3", "urllib3", AgentTool, "HTTP library"},
	{"mechanize", "mechanize", AgentTool, "HTTP library"},
	{"go-http-client", "Go-http-client", AgentTool, "HTTP library"},
	{"go-resty", "go-resty", AgentTool, "HTTP library"},
	{"java/", "Java", AgentTool, runtimeClient},
	{"apache-httpclient", "Apache-HttpClient", AgentTool, "HTTP library"},
	{"apache-httpasyncclient", "Apache-HttpAsyncClient", AgentTool, "HTTP library"},
	{"jakarta commons-httpclient", "Jakarta Commons-HttpClient", AgentTool, "HTTP library"},
	{"okhttp", "okhttp", AgentTool, "HTTP library"},
	{"jersey/", "Jersey", AgentTool, "HTTP library"},
	{"libwww-perl", "libwww-perl", AgentTool, "HTTP library"},
	{"lwp-", "LWP", AgentTool, "HTTP library"},
	{"lwp::", "LWP", AgentTool, "HTTP library"},
	{"http::tiny", "HTTP-Tiny", AgentTool, "HTTP library"},
	{"scrapy", "Scrapy", AgentTool, "scraping framework"},
	{"node-fetch", "node-fetch", AgentTool, "HTTP library"},
	{"axios", "axios", AgentTool, "HTTP library"},
	{"undici", "undici", AgentTool, "HTTP library"},
	{"got (", "got", AgentTool, "HTTP library"},
	{"superagent", "superagent", AgentTool, "HTTP library"},
	{"guzzlehttp", "GuzzleHttp", AgentTool, "HTTP library"},
	{"php/", "PHP", AgentTool, runtimeClient},
	{"rest-client", "rest-client", AgentTool, "HTTP library"},
	{"http.rb", "http.rb", AgentTool, "HTTP library"},
	{"faraday", "Faraday", AgentTool, "HTTP library"},
	{"ruby/", "Ruby", AgentTool, runtimeClient},
	{"postmanruntime", "PostmanRuntime", AgentTool, "API client"},
	{"insomnia", "insomnia", AgentTool, "API client"},
	{"httpie", "HTTPie", AgentTool, "command-line client"},
	{"windowspowershell", "WindowsPowerShell", AgentTool, "command-line client"},
	{"winhttp", "WinHTTP", AgentTool, "HTTP library"},
	{"reqwest", "reqwest", AgentTool, "HTTP library"},
	{"dart/", "Dart", AgentTool, runtimeClient},
	{"libfetch", "libfetch", AgentTool, "HTTP library"},
	{"fetch libfetch", "fetch", AgentTool, "command-line client"},
	{"grpc-", "grpc", AgentTool, "RPC library"},
	{"aria2", "aria2", AgentTool, "download tool"},
	{"httrack", "HTTrack", AgentTool, "site copier"},
	{"sitesucker", "SiteSucker", AgentTool, "site copier"},
	{"apachebench", "ApacheBench", AgentTool, "load tester"},

	// Headless and automated browsers (developer.chrome.com/docs/chromium/headless, phantomjs.org,
	// pptr.dev, playwright.dev, selenium.dev, cypress.io).
	{"headlesschrome", "HeadlessChrome", AgentTool, "headless browser"},
	{"phantomjs", "PhantomJS", AgentTool, "headless browser"},
	{"puppeteer", "Puppeteer", AgentTool, "headless browser"},
	{"playwright", "Playwright", AgentTool, "headless browser"},
	{"selenium", "Selenium", AgentTool, "automated browser"},
	{"webdriver", "WebDriver", AgentTool, "automated browser"},
	{"cypress/", "Cypress", AgentTool, "automated browser"},

	// Scanners: the defaults of common scanning and attack tools (their source code or manuals:
	// masscan, zgrab, nmap NSE, nikto, sqlmap, nuclei, wpscan, ffuf, gobuster, WhatWeb, Wappalyzer,
	// Censys, Palo Alto Expanse, LeakIX, Netcraft, Qualys, Nessus, OpenVAS, Arachni, Acunetix).
	{"masscan", "masscan", AgentTool, "scanner"},
	{"zgrab", "zgrab", AgentTool, "scanner"},
	{"nmap", "Nmap", AgentTool, "scanner"},
	{"nikto", "Nikto", AgentTool, "scanner"},
	{"sqlmap", "sqlmap", AgentTool, "scanner"},
	{"nuclei", "Nuclei", AgentTool, "scanner"},
	{"wpscan", "WPScan", AgentTool, "scanner"},
	{"fuzz faster u fool", "ffuf", AgentTool, "scanner"},
	{"gobuster", "gobuster", AgentTool, "scanner"},
	{"whatweb", "WhatWeb", AgentTool, "scanner"},
	{"wappalyzer", "Wappalyzer", AgentTool, "scanner"},
	{"censysinspect", "CensysInspect", AgentTool, "scanner"},
	{"expanse", "Expanse", AgentTool, "scanner"},
	{"l9explore", "l9explore", AgentTool, "scanner"},
	{"l9tcpid", "l9tcpid", AgentTool, "scanner"},
	{"netcraft", "Netcraft", AgentTool, "scanner"},
	{"qualys", "Qualys", AgentTool, "scanner"},
	{"nessus", "Nessus", AgentTool, "scanner"},
	{"openvas", "OpenVAS", AgentTool, "scanner"},
	{"arachni", "Arachni", AgentTool, "scanner"},
	{"acunetix", "Acunetix", AgentTool, "scanner"},
}

// agentRoleWords are generic words that only robots put in a User-agent: a
// product called "…bot", "…Spider" or "…Crawler" declares itself, and so does
// a feed reader polling "for N subscribers". They match anywhere inside a word
// (unless atWordStart), never inside a URL or an e-mail address, and name the
// product token around them. The list follows the role words of isbot's
// generic pattern and uap-go's generic crawler regexes, not single strings.
var agentRoleWords = []struct {
	word        string
	kind        AgentKind
	atWordStart bool // the byte before must not be a letter ("scanner" but not "CamScanner", a browser app)
	atWordEnd   bool // the byte after must not be a letter ("…Bot/2.1" but not "Bottle")
}{
	{"bot", AgentCrawler, false, true},
	{"crawl", AgentCrawler, false, false},
	{"spider", AgentCrawler, false, false},
	{"slurp", AgentCrawler, false, false},
	{"fetcher", AgentCrawler, false, false},
	{"scraper", AgentCrawler, false, false},
	{"archiver", AgentCrawler, false, false},
	{"indexer", AgentCrawler, false, false},
	{"preview", AgentCrawler, false, false},
	{"monitor", AgentCrawler, false, false},
	{"checker", AgentCrawler, false, false},
	{"validator", AgentCrawler, false, false},
	{"scanner", AgentTool, true, false},
	{"uptime", AgentCrawler, false, false},
	{"synthetic", AgentCrawler, false, false},
	{"subscriber", AgentCrawler, false, false},
	{"feed", AgentCrawler, true, false},
	{"rss", AgentCrawler, false, true},
	{"probe", AgentTool, false, false},
	{"proxy", AgentCrawler, false, false},
	{"headless", AgentTool, false, false},
	{"http", AgentTool, false, false}, // a product named after HTTP is a client library: "scalaj-http", "HttpClient"
	{"http client", AgentTool, false, false},
}
