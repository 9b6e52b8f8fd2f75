package agents

import (
	"strings"
)

// WarmUp decodes, in the background, what tells which strings uap-go need
// not see (uapFilter, generated data: well under a millisecond), for a run
// that will classify User-agents; uap-go's own lists are compiled when a
// string first needs one.
func WarmUp() { go uapFilters() }

// browserFamilies maps product tokens to browser families, most specific
// first: Edge and Opera also say "Chrome/", Chrome also says "Safari/". It
// names the browsers that carry almost all human traffic, so that uap-go is
// asked only about the rest.
var browserFamilies = []struct{ token, family string }{
	{"edg/", "Edge"}, {"edge/", "Edge"}, {"edga/", "Edge"}, {"edgios/", "Edge"},
	{"opr/", "Opera"}, {"opios/", "Opera"}, {"opera/", "Opera"}, {"opera mini", "Opera"}, {"opera mobi", "Opera"},
	{"samsungbrowser/", "Samsung Internet"}, {"yabrowser/", "Yandex Browser"}, {"ucbrowser", "UC Browser"},
	{"vivaldi/", "Vivaldi"}, {"silk/", "Amazon Silk"},
	{"firefox/", "Firefox"}, {"fxios/", "Firefox"},
	{"crios/", "Chrome"}, {"chromium/", "Chromium"}, {"chrome/", "Chrome"},
	{"msie ", "IE"}, {"trident/", "IE"},
	{"safari/", "Safari"},
}

// browserFamily returns the family of the first of browserFamilies, in
// table order, whose token t holds (t.matches).
func browserFamily(t *uaText) (string, bool) {
	best := len(browserFamilies)
	for _, m := range t.matches {
		if m.table == tableFamilies && int(m.entry) < best {
			best = int(m.entry)
		}
	}
	if best == len(browserFamilies) {
		return "", false
	}
	return browserFamilies[best].family, true
}

// browserAgent classes a User-agent that declares no robot. The common
// browsers are named by a table; the rest are asked of uap-go, which knows
// hundreds of browsers, apps and media players and labels some crawlers
// "Spider". A string neither knows is still a browser or an app when it has
// the shape of one: a Mozilla/ prefix with a layout engine, or a platform it
// runs on ("Android", "Windows", "AmigaOS"). Scripts and tools name neither.
func (c *Classifier) browserAgent(t *uaText) Agent {
	ua, lower := t.ua, t.lower
	mozilla := strings.HasPrefix(lower, "mozilla/") || strings.HasPrefix(lower, "opera/")
	engine := mozilla && hasEngine(t)
	if engine {
		if family, ok := browserFamily(t); ok {
			return Agent{Name: family, Kind: Browser}
		}
		// In-app browsers (Facebook's, Instagram's …) are most of what the
		// family table leaves; uap-go would give them the same names from
		// the same tokens at a fraction of a millisecond each, which a log
		// of 100,000 distinct app strings cannot afford.
		if name, ok := tokenFamily(t); ok {
			return Agent{Name: name, Kind: Browser}
		}
	}
	in := ua[:min(len(ua), maxParserInput)]
	plausible := looksReal(t)
	p, ok := c.parser(len(in), plausible)
	if ok {
		if family := p.family(in); family != "Other" && family != "" {
			name := cleanName(family)
			if lf := strings.ToLower(family); strings.Contains(lf, "bot") || strings.Contains(lf, "spider") || strings.Contains(lf, "crawl") {
				return Agent{Name: name, Kind: Crawler, Reason: "uap-go names crawler " + name}
			}
			return Agent{Name: name, Kind: Browser}
		}
		if name, ok := tokenFamily(t); ok {
			return Agent{Name: name, Kind: Browser} // a browser uap-go does not know (w3m)
		}
	} else if name, ok := clientFamily(t, engine); ok {
		// The budget is spent: the browsers and apps that only uap-go
		// would name are known by their tokens (see fallback.go).
		return Agent{Name: name, Kind: Browser}
	}
	// A product with a version is what a script's string lacks; MediaTek's
	// feature-phone browsers send none ("MAXX_MAUI WAP Browser", "Maui
	// Browser"), their platform's name standing for both.
	if engine || (mozilla || strings.IndexByte(lower, '/') > 0 || featurePhone(t)) && hasPlatform(t) {
		if mozilla && !engine && bareMozilla(lower) {
			// "Mozilla/5.0 (Windows NT 10.0; Win64; x64)": every browser since
			// 1998 names its engine; this is a script's idea of a browser.
			return Agent{Name: "Mozilla", Kind: Suspicious, Reason: "Mozilla/ and a platform but no browser engine"}
		}
		name := robotName(ua, lower)
		if name == "(unknown)" {
			name = "Mozilla"
		}
		return Agent{Name: name, Kind: Browser}
	}
	if p, ok = c.parser(len(in), plausible); ok && p.spider(in) {
		name := robotName(ua, lower)
		return Agent{Name: name, Kind: Crawler, Reason: "uap-go labels " + name + " a Spider"}
	}
	reason := "not a known browser"
	if !ok {
		reason = "not a known browser (User-agent parser budget spent)"
	}
	return Agent{Name: robotName(ua, lower), Kind: Unknown, Reason: reason}
}

// parser returns uap-go for a parse of n bytes, and false when the
// classifier's budget is spent.
//
// Strings that look like a real client's (plausible: see looksReal) may go on
// past the budget, on a reserve of their own: junk, which a flood is made
// of, cannot then spend what the people after it need. Junk made to look
// real spends the reserve too; past both, clientFamily stands in for uap-go,
// so that a browser or an in-app browser gets the same kind (and mostly the
// same name) whether it comes first or after 100,000 junk strings.
func (c *Classifier) parser(n int, plausible bool) (uap, bool) {
	switch {
	case c.parserBytes+n <= MaxParserBytes:
		c.parserBytes += n
	case plausible && c.reserveBytes+n <= MaxReserveBytes:
		c.parserBytes, c.reserveBytes = MaxParserBytes, c.reserveBytes+n
	default:
		c.parserBytes = MaxParserBytes
		return uap{}, false
	}
	return uap{}, uap{}.available()
}

// MaxReserveBytes bounds what uap-go is handed past MaxParserBytes for
// strings that look like a real client's: two thousand more strings or so,
// and for junk made to look real about three seconds a classifier at the
// 11 µs a byte uap-go takes for "Mozilla/5.0 (compatible; botN/1.0; xbotN)".
const MaxReserveBytes = 256 << 10

// looksReal reports whether a lower-cased User-agent has what real clients'
// have and random junk has not: a product token with a version ("lynx/2.8",
// "cfnetwork/1410"), a platform or a browser engine.
func looksReal(t *uaText) bool {
	if hasPlatform(t) || hasEngine(t) {
		return true
	}
	lower := t.lower
	for i := 1; i+1 < len(lower); i++ {
		if lower[i] == '/' && uaDigit(lower[i+1]) && uaLetter(lower[i-1]) {
			return true
		}
	}
	return false
}

// platforms are the systems that browsers and apps name in their User-agent
// comment; a library's default User-agent names none. They match at a word
// start ("Microsoft" does not name CrOS).
var platforms = [...]string{
	"windows", "macintosh", "mac os", "x11", "linux", "android", "iphone", "ipad", "ipod", "cpu os",
	"darwin", "cros ", "freebsd", "openbsd", "netbsd", "sunos", "blackberry", "bb10", "symbian",
	"series40", "series60", "midp", "j2me", "webos", "web0s", "tizen", "kaios", "playstation",
	"nintendo", "xbox", "smart-tv", "smarttv", "roku", "amiga", "morphos", "beos", "haiku", "os/2",
	"maui", "wap browser", // MediaTek's feature phones ("WAP Browser/MAUI", "MAXX_MAUI WAP Browser")
}

// featurePhone reports whether lower names MediaTek's feature-phone
// platform (MAUI) or its WAP browser, the last two platforms.
func featurePhone(t *uaText) bool {
	return t.contains("maui") && hasWordStart(t.lower, "maui") || t.contains("wap browser") && hasWordStart(t.lower, "wap browser")
}

// bareMozilla reports whether lower is only "mozilla/x (comment)", without
// the "compatible; Browser x" of old browsers that had no engine token.
func bareMozilla(lower string) bool {
	i, j := strings.IndexByte(lower, '('), strings.IndexByte(lower, ')')
	return (i < 0 || j > i && strings.TrimSpace(lower[j+1:]) == "") && !strings.Contains(lower, "compatible")
}

func hasPlatform(t *uaText) bool {
	for _, p := range platforms {
		if t.contains(p) && hasWordStart(t.lower, p) {
			return true
		}
	}
	return false
}

// hasWordStart reports whether lower holds w where no letter comes before it.
func hasWordStart(lower, w string) bool {
	for from := 0; ; {
		i := strings.Index(lower[from:], w)
		if i < 0 {
			return false
		}
		i += from
		if i == 0 || !uaLetter(lower[i-1]) {
			return true
		}
		from = i + 1
	}
}

// engines are the tokens of browser layout engines.
var engines = [...]string{"applewebkit", "gecko", "trident/", "msie ", "presto/", "khtml"}

// hasEngine reports whether lower names a browser layout engine, as every
// browser since Netscape does.
func hasEngine(t *uaText) bool {
	for _, e := range engines {
		if t.contains(e) {
			return true
		}
	}
	return false
}
