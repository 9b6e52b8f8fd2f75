package agents

import "strings"

// When a flood of distinct junk User-agents has spent uap-go's budget (see
// Classifier.parser), the strings after it are classified without uap-go.
// The people among them must come out as they would have before the flood:
// otherwise an attacker could send 100,000 junk strings first and have every
// Lynx, Outlook or Facebook-app user after them judged a robot. The common
// browsers never need uap-go (browserFamilies), and the platform and engine
// rules place most apps; what is left are the browsers and apps that uap-go
// knows by a product token alone. clientFamily knows them by the same
// tokens, byte by byte.

// clientTokens are the browsers and apps that uap-go knows by name and that
// neither browserFamilies nor the platform and engine rules of browserAgent
// recognise (no "Mozilla/" with an engine, no platform in the comment), or
// that they name otherwise. The names are uap-go's family names (uap-core's
// regexes.yaml, where the entries come from; none was copied from the
// labelled test corpus), so that a string is named the same with or without
// uap-go; "" names the app by its own product token, as uap-go does for
// CFNetwork apps. Only what uap-go itself calls a browser or an app is
// listed, with the version its rules want after the token: the stand-in is
// to be no more lenient than uap-go. One more is here that uap-go does not
// know: w3m, a text browser as Lynx is, whose readers are people
// (browserAgent asks this table when uap-go names nothing). A token
// matches at a word start (the byte before it is not a letter); the first
// in table order wins.
var clientTokens = []struct {
	token, family string
	version       bool // a digit must follow the token, as uap-go's rules want a version there
}{
	// Text-mode and old desktop browsers.
	{"lynx/", "Lynx", true}, {"links (", "Links", true}, {"elinks/", "ELinks", true}, {"elinks (", "ELinks", true}, {"w3m/", "w3m", true},
	{"dillo/", "Dillo", true}, {"omniweb/", "OmniWeb", false}, {"konqueror/", "Konqueror", true},
	{"icab/", "iCab", true}, {"icab ", "iCab", true}, {"ncsa_mosaic/", "NCSA Mosaic", true}, {"ncsa mosaic/", "NCSA Mosaic", true},
	// Feature-phone and WAP browsers.
	{"opera mini/", "Opera Mini", true}, {"up.browser/", "UP.Browser", true}, {"ucweb/", "UC Browser", true},
	{"uc browser", "UC Browser", true}, {"ucbrowser", "UC Browser", true}, {"netfront/", "NetFront", true},
	{"obigo/", "Obigo", false}, {"dolfin/", "Dolfin", true}, {"blazer/", "Palm Blazer", true}, {"avantgo ", "AvantGo", true}, {"planetweb/", "Planetweb", true},
	// In-app browsers and apps' own requests.
	{"fban/", "Facebook", false}, {"fbav/", "Facebook", true}, {"fb_iab/", "Facebook", false}, {"instagram ", "Instagram", true},
	{"twitter for iphone", "Twitter", false}, {"pinterest/", "Pinterest", false}, {"line/", "LINE", true},
	{"cfnetwork/", "", true}, {"dalvik/", "Android", true},
	// Android's WebView without a "Mozilla/" prefix.
	{"version/4.0 chrome/", "Chrome Mobile WebView", true},
	// Mail clients and media players.
	{"microsoft outlook", "Outlook", false}, {"msoffice 1", "Outlook", false},
	{"quicktime/", "QuickTime", true}, {"nsplayer/", "NSPlayer", true}, {"vlc/", "VLC", true},
	{"vlc media player", "VLC", false}, {"itunes/", "iTunes", true},
}

// clientFamily names the browser or app that lower (ua lower-cased) comes
// from by its tokens, as uap-go would; ok is false when no token names one.
// It is the classification past uap-go's budget, so that browsers and apps
// get the same kind, and mostly the same name, with or without uap-go.
func clientFamily(t *uaText, engine bool) (name string, ok bool) {
	lower := t.lower
	if name, ok := tokenFamily(t); ok {
		return name, true
	}
	if !engine {
		// browserAgent asks the family table only of a "Mozilla/" string
		// with an engine; uap-go finds these tokens anywhere, and so must
		// its stand-in ("Opera/9.00 (Windows NT 5.1; U; en)" has neither).
		for _, f := range browserFamilies {
			if i := t.index(f.token); i >= 0 && versionAt(lower, i+len(f.token), f.token) {
				return f.family, true
			}
		}
	}
	if engine && !t.contains("safari") && t.hasWord("mobile/", false) &&
		(t.hasWord("iphone", false) || t.hasWord("ipad", false) || t.hasWord("ipod", false)) {
		// WebKit on iOS without Safari's token: an app's web view, which
		// uap-go names so.
		return "Mobile Safari UI/WKWebView", true
	}
	return "", false
}

// anyClientToken is the literalTable of clientTokens' tokens.
var anyClientToken = literalTableOf(clientTokenWords())

// clientTokenWords are clientTokens' tokens, in order.
func clientTokenWords() []string {
	toks := make([]string, len(clientTokens))
	for i, c := range clientTokens {
		toks[i] = c.token
	}
	return toks
}

// tokenFamily names the browser or app by the first of clientTokens in lower.
func tokenFamily(t *uaText) (name string, ok bool) {
	l := anyClientToken()
	if !t.holdsAny(l) {
		return "", false
	}
	for i, c := range clientTokens {
		if t.mayHoldEntry(l, i) && hasWord(t.lower, c.token, c.version) {
			if c.family == "" {
				return robotName(t.ua, t.lower), true
			}
			return c.family, true
		}
	}
	return "", false
}

// hasWord is hasWord(t.lower, tok, version).
func (t *uaText) hasWord(tok string, version bool) bool {
	return t.contains(tok) && hasWord(t.lower, tok, version)
}

// hasWord reports whether tok occurs in lower at a word start (the byte
// before it is not a letter) and, if version, with a digit after it.
func hasWord(lower, tok string, version bool) bool {
	for from := 0; ; {
		i := strings.Index(lower[from:], tok)
		if i < 0 {
			return false
		}
		i += from
		if (i == 0 || !uaLetter(lower[i-1])) && (!version || i+len(tok) < len(lower) && uaDigit(lower[i+len(tok)])) {
			return true
		}
		from = i + 1
	}
}

// versionAt reports whether a family token that ends in '/' or ' ' and
// ends at byte end of lower has a version after it, as uap-go's rules for
// the family want ("Opera/9.00", not "Opera/8.xx").
func versionAt(lower string, end int, tok string) bool {
	if last := tok[len(tok)-1]; last != '/' && last != ' ' {
		return true
	}
	return end < len(lower) && uaDigit(lower[end])
}
