package agents

import "strings"

// appleMessagesName names the link previews of Apple's Messages.
const appleMessagesName = "Apple Messages link preview"

// appleMessagesPreview reports whether lower is the User-agent Apple's
// Messages fetches a shared link's preview with, from the person's own
// iPhone, iPad or Mac: Safari's string with Meta's and X's preview tokens
// appended so that sites serve it their Open Graph cards. Read as
// facebookexternalhit it made an impostor of Meta out of a person's phone,
// and blocked the address the person browses from.
func appleMessagesPreview(lower string) bool {
	const tail = " facebookexternalhit/1.1 facebot twitterbot/1.0"
	if !strings.HasSuffix(lower, tail) {
		return false
	}
	safari := lower[:len(lower)-len(tail)]
	return strings.HasPrefix(safari, "mozilla/5.0 (") &&
		(strings.Contains(safari, "(iphone;") || strings.Contains(safari, "(ipad;") || strings.Contains(safari, "(macintosh;")) &&
		strings.Contains(safari, " applewebkit/") && strings.Contains(safari, " safari/") &&
		!strings.Contains(safari, "chrome/") && !strings.Contains(safari, "crios/")
}

// exploitAgent names an exploit sent as the User-agent, "" if there is
// none: Shellshock (CVE-2014-6271), a bash function "() { :; }; cmd" that
// a CGI script's bash runs, and Log4Shell (CVE-2021-44228), a Log4j
// lookup "${jndi:ldap://…}". Both carry a command or URL after them, which
// named the client by what it downloads: "() { :;}; /bin/bash -c 'wget …'"
// was the tool Wget.
func exploitAgent(t *uaText) string {
	switch {
	case strings.HasPrefix(strings.TrimLeft(t.lower, " "), "() {"):
		return "Shellshock"
	case t.dollar && (t.contains("${jndi:") || log4jObfuscated(t)):
		return "Log4Shell"
	}
	return ""
}

// log4jNestings are the starts of the nested Log4j lookups log4jObfuscated
// knows.
var log4jNestings = [...]string{"${${", "${::-", "${lower:", "${upper:"}

// log4jObfuscated reports a Log4j lookup nested to hide "jndi" from
// filters, as scanners sent it in December 2021 and since:
// "${${::-j}${::-n}${::-d}${::-i}:${::-l}${::-d}${::-a}${::-p}://…}",
// "${${lower:j}ndi:…}", "${${env:X:-j}ndi…}". Read as a browser string it
// was "no known browser" named "-j", and no scanner.
func log4jObfuscated(t *uaText) bool {
	for _, s := range log4jNestings {
		if t.contains(s) {
			return true
		}
	}
	return false
}

// declaredAgent finds what a User-agent says about itself: a known crawler or
// tool token, a robot role word in a product name, or a contact URL or e-mail
// address (the convention for crawlers since the 1990s; browsers never send
// one). A known token anywhere wins, so "Mozilla/5.0 (…) Chrome/… (compatible;
// Googlebot/2.1; …)" is Googlebot: a browser string that names a crawler is a
// crawler claim, whether or not the claim is true.
func declaredAgent(t *uaText) (Agent, bool) {
	ua, lower := t.ua, t.lower
	if tok, at := findToken(t); tok != nil {
		if name, ok := androidApp(ua, lower, at, tok); ok {
			return Agent{Name: name, Kind: Browser}, true
		}
		name := tokenName(ua, at, tok)
		if tok.kind == Crawler {
			return Agent{Name: name, Kind: Crawler, Reason: "declared " + tok.what + " token " + name}, true
		}
		return Agent{Name: name, Kind: Tool, Reason: tok.what + " " + name, Scanner: tok.what == "scanner"}, true
	}
	if e, ok := catalogued(t); ok {
		if e.Purpose == "library" {
			return Agent{Name: e.Name, Kind: Tool, Reason: "catalogued tool " + e.Name}, true
		}
		return Agent{Name: e.Name, Kind: Crawler, Reason: "catalogued robot " + e.Name + " (" + e.Purpose + ")"}, true
	}
	if k, _, name := roleWord(t); k >= 0 {
		w := &agentRoleWords[k]
		if w.kind == Crawler {
			return Agent{Name: name, Kind: Crawler, Reason: "declared crawler token " + name + ` ("` + w.word + `")`}, true
		}
		return Agent{Name: name, Kind: Tool, Reason: "tool token " + name + ` ("` + w.word + `")`}, true
	}
	if what := contactAddress(t); what != "" {
		return Agent{Name: robotName(ua, lower), Kind: Crawler, Reason: "contact " + what + " in User-agent"}, true
	}
	return Agent{}, false
}

// androidApp names the Android app that sent ua when the library token tok
// found at byte at follows the app's own product and an Android platform:
// "BlogReader/3.2.1 (com.example.blogreader; Android 14) okhttp/4.12.0" is
// people using an app, as "BlogReader/3.2.1 CFNetwork/1568 Darwin/24" is
// on iOS. A bare "okhttp/4.12.0" names no app and stays a library.
func androidApp(ua, lower string, at int, tok *agentToken) (string, bool) {
	if tok.token != "okhttp" || at == 0 || !uaLetter(ua[0]) {
		return "", false
	}
	end := 0
	for end < len(ua) && uaNameByte(ua[end]) {
		end++
	}
	if end >= len(ua) || ua[end] != '/' || strings.HasPrefix(lower, "mozilla/") || strings.HasPrefix(lower, "okhttp") {
		return "", false
	}
	if !strings.Contains(lower[:at], "android") {
		return "", false
	}
	return cleanName(ua[:min(end, maxNameLen)]), true
}

// anyContactScheme is the literalTable of the starts of a contact URL.
var anyContactScheme = literalTableOf([]string{"http://", "https://", "+http", "mailto:"})

// contactAddress says whether lower carries a contact URL or e-mail address,
// and which.
func contactAddress(t *uaText) string {
	lower := t.lower
	if t.holdsAny(anyContactScheme()) &&
		(t.contains("http://") || t.contains("https://") || t.contains("+http") || t.contains("mailto:")) {
		return "URL"
	}
	for from := 0; ; {
		// "+example.com": the contact convention without the scheme
		i := strings.IndexByte(lower[from:], '+')
		if i < 0 {
			break
		}
		i += from
		from = i + 1
		if uaDomain(lower[i+1:]) {
			return "URL"
		}
	}
	for from := 0; t.contains("www."); {
		i := strings.Index(lower[from:], "www.")
		if i < 0 {
			break
		}
		i += from
		from = i + 1
		if (i == 0 || !uaNameByte(lower[i-1])) && i+4 < len(lower) && uaLetter(lower[i+4]) {
			return "URL"
		}
	}
	for from := 0; ; {
		i := strings.IndexByte(lower[from:], '@')
		if i < 0 {
			break
		}
		i += from
		from = i + 1
		if i > 0 && uaNameByte(lower[i-1]) && uaDomain(lower[i+1:]) {
			return "e-mail address"
		}
	}
	return ""
}

// uaDomain reports whether s starts with a host name that has a dot and a
// letter after it ("bytedance.com"), unlike "ios@9.2.3" or "en_IR@calendar=".
func uaDomain(s string) bool {
	if s == "" || !uaLetter(s[0]) && !uaDigit(s[0]) {
		return false
	}
	dot := false
	for i := 0; i < len(s); i++ {
		b := s[i]
		switch {
		case uaLetter(b) || uaDigit(b) || b == '-':
			if dot && uaLetter(b) {
				return true
			}
		case b == '.':
			dot = true
		default:
			return false
		}
	}
	return false
}
