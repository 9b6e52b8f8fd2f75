package agents

import (
	"strings"

	"golang.org/x/net/publicsuffix"
)

// An operator's robots take pages; its search engine or assistant sends
// people back. Referral says which operator's product a visitor came from,
// for the crawl-to-refer ratio (Cloudflare Radar's: pages crawled per
// visit referred). A host matches by its registrable domain, never by a
// substring: notgoogle.com and google.evil.com are no one's product.

// referrer is a row of the one table of where people come from.
type referrer struct {
	// domain matches itself and its subdomains. With brand set it is a
	// label that matches in front of a country's suffix: "google" is
	// google.com, google.de, google.co.uk, google.com.br, ...
	domain string
	brand  bool
	// operator is whose product it is, as the robot catalogue names the
	// operator. "" marks hosts of the operator's where people publish
	// (sites.google.com) or send links (mail.google.com): a link there is
	// a person's, not the operator's answer to a search.
	operator string
	product  string // what it is, for people reading the table
}

// referrers is the table: search engines and AI assistants whose
// operators run crawlers robowatch knows. The most specific row wins.
var referrers = []referrer{
	{domain: "google", brand: true, operator: "Google", product: "Search, News, Discover, Gemini"},
	{domain: "com.google.android.googlequicksearchbox", operator: "Google", product: "the Google app (android-app:// Referer)"},
	{domain: "sites.google.com", product: "people's sites"},
	{domain: "groups.google.com", product: "people's posts"},
	{domain: "docs.google.com", product: "people's documents"},
	{domain: "drive.google.com", product: "people's files"},
	{domain: "mail.google.com", product: "people's mail"},
	{domain: "bing.com", operator: "Microsoft", product: "Bing, Copilot in Edge"},
	{domain: "copilot.microsoft.com", operator: "Microsoft", product: "Copilot"},
	{domain: "msn.com", operator: "Microsoft", product: "MSN"},
	{domain: "chatgpt.com", operator: "OpenAI", product: "ChatGPT"},
	{domain: "chat.openai.com", operator: "OpenAI", product: "ChatGPT (before 2024)"},
	{domain: "perplexity.ai", operator: "Perplexity", product: "Perplexity"},
	{domain: "claude.ai", operator: "Anthropic", product: "Claude"},
	{domain: "duckduckgo.com", operator: "DuckDuckGo", product: "DuckDuckGo"},
	{domain: "yandex", brand: true, operator: "Yandex", product: "Yandex Search"},
	{domain: "ya.ru", operator: "Yandex", product: "Yandex Search"},
	{domain: "baidu.com", operator: "Baidu", product: "Baidu Search"},
	{domain: "search.yahoo.com", operator: "Yahoo", product: "Yahoo Search"},
	{domain: "kagi.com", operator: "Kagi", product: "Kagi Search"},
	{domain: "seznam.cz", operator: "Seznam", product: "Seznam Search"},
	{domain: "naver.com", operator: "Naver", product: "Naver Search"},
	{domain: "sogou.com", operator: "Sogou", product: "Sogou Search"},
	{domain: "search.brave.com", operator: "Brave", product: "Brave Search"},
	{domain: "ecosia.org", operator: "Ecosia", product: "Ecosia"},
}

// byDomain and brands index referrers.
var byDomain, brands = func() (map[string]string, map[string]string) {
	d, b := map[string]string{}, map[string]string{}
	for _, r := range referrers {
		if r.brand {
			b[r.domain] = r.operator
		} else {
			d[r.domain] = r.operator
		}
	}
	return d, b
}()

// Referral returns the operator whose product sent the visitor of a
// request: by the host of its Referer, else by the utm_source tag of its
// target ("/post?utm_source=chatgpt.com", which ChatGPT appends to the
// links it gives); "" for none.
func Referral(referer, target string) string {
	return orUTM(referralHost(refererHost(referer)), target)
}

// Referrals is Referral remembering the last Referer host it looked up:
// most Referers of a log name the site's own pages. The zero value is
// ready; it is not safe for concurrent use.
type Referrals struct {
	host, op string
	known    bool
}

// Of is Referral(referer, target).
func (c *Referrals) Of(referer, target string) string {
	host := refererHost(referer)
	if !c.known || host != c.host {
		// A copy: the host is a piece of a record whose memory is reused.
		c.host, c.op, c.known = strings.Clone(host), referralHost(host), true
	}
	return orUTM(c.op, target)
}

// orUTM is op, or without one the operator target's utm_source names.
func orUTM(op, target string) string {
	if op != "" || strings.IndexByte(target, '?') < 0 {
		return op
	}
	return referralHost(utmSource(target))
}

// refererHost is the host of a Referer URL, lower-cased, without port,
// user or trailing dot; "" for an address literal or no host.
func refererHost(ref string) string {
	i := strings.Index(ref, "://")
	if i < 0 {
		return ""
	}
	h := ref[i+3:]
	for j := 0; j < len(h); j++ {
		if c := h[j]; c == '/' || c == '?' || c == '#' {
			h = h[:j]
			break
		}
	}
	if j := strings.LastIndexByte(h, '@'); j >= 0 {
		h = h[j+1:]
	}
	if strings.HasPrefix(h, "[") {
		return ""
	}
	if j := strings.IndexByte(h, ':'); j >= 0 {
		h = h[:j]
	}
	return lowerHost(strings.TrimSuffix(h, "."))
}

// lowerHost lower-cases an ASCII host, allocating only when it has an
// upper-case letter (browsers send them lower-case).
func lowerHost(h string) string {
	for i := 0; i < len(h); i++ {
		if 'A' <= h[i] && h[i] <= 'Z' {
			return strings.ToLower(h)
		}
	}
	return h
}

// utmSource is the value of the utm_source parameter of target's query,
// lower-cased; "" without one.
func utmSource(target string) string {
	q := target[strings.IndexByte(target, '?')+1:]
	if i := strings.IndexByte(q, '#'); i >= 0 {
		q = q[:i]
	}
	for p := range strings.SplitSeq(q, "&") {
		if v, ok := strings.CutPrefix(p, "utm_source="); ok {
			return lowerHost(v)
		}
	}
	return ""
}

// referralHost is the operator a host belongs to by the table: the row of
// the host or of its nearest parent domain, or a brand in front of a
// country's suffix.
func referralHost(host string) string {
	for d := host; d != ""; {
		if op, ok := byDomain[d]; ok {
			return op
		}
		if op := brandOf(d); op != "" {
			return op
		}
		i := strings.IndexByte(d, '.')
		if i < 0 {
			break
		}
		d = d[i+1:]
	}
	return ""
}

// brandOf returns the operator of d when d is a brand's registrable
// domain: the brand's label, then a suffix shaped as the operators' own
// domains are (com, a country's two letters, com. or co. before them, or
// cat) that the Public Suffix List has as a public suffix of ICANN's.
// google.co.de is not Google's: co.de is a domain anyone may register.
func brandOf(d string) string {
	label, rest, ok := strings.Cut(d, ".")
	if !ok {
		return ""
	}
	op, ok := brands[label]
	if !ok || !countrySuffix(rest) {
		return ""
	}
	if s, icann := publicsuffix.PublicSuffix(d); s != rest || !icann {
		return ""
	}
	return op
}

// countrySuffix reports whether s is shaped as the suffix of a search
// engine's country domain: com, cat, "de", "co.uk", "com.br".
func countrySuffix(s string) bool {
	if s == "com" || s == "cat" {
		return true
	}
	second, cc, ok := strings.Cut(s, ".")
	if !ok {
		return letters2(s)
	}
	return (second == "co" || second == "com") && letters2(cc)
}

func letters2(s string) bool {
	return len(s) == 2 && 'a' <= s[0] && s[0] <= 'z' && 'a' <= s[1] && s[1] <= 'z'
}
