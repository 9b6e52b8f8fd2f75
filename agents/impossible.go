package agents

import (
	"strconv"
	"strings"
)

// misspellings are tokens no browser writes, from browser strings copied
// by hand into scripts: "Mozlila/5.0 (Linux; Android 7.0; SM-G892A
// Bulid/NRD90M; wv) … Moblie Safari/537.36", the string of exploit scripts
// on GitHub (WordPress upload and shell scanners), read by its Chrome
// token as Chrome Mobile WebView.
var misspellings = [...]string{"mozlila/", "mozila/", "mozzila/", "mozlla/", "mozillla/", " bulid/", " moblie safari/"}

// anyMisspelling is the literalTable of misspellings.
var anyMisspelling = literalTableOf(misspellings[:])

// misspelledToken returns the misspelled token of lower, "" if none.
func misspelledToken(t *uaText) string {
	if !t.holdsAny(anyMisspelling()) {
		return ""
	}
	for _, m := range misspellings {
		if t.contains(m) {
			return strings.Trim(m, " /")
		}
	}
	return ""
}

// firefoxRevision returns why a desktop Firefox string's Gecko revision
// (rv:) does not match its version, or "". Since Firefox 5 the two are one
// number, except rv:109.0 kept by Firefox 110 to 119 (Firefox 4 said
// rv:2.0). A script that edits one and not the other sent
// "rv:32.0) Gecko/20100101 Firefox/31.0" asking for /testproxy.php
// (the nginx log a blog post on AWS ELB health checks quotes).
func firefoxRevision(t *uaText) string {
	lower := t.lower
	i := t.index("gecko/20100101 firefox/")
	if i < 0 {
		return ""
	}
	fx, ok := uaLeadingInt(lower[i+len("gecko/20100101 firefox/"):])
	rv, ok2 := versionAfter(lower[:i], "rv:")
	if !ok || !ok2 || fx < 5 || rv == fx || rv == 109 && fx >= 110 && fx <= 119 {
		return ""
	}
	return "Firefox " + strconv.Itoa(fx) + " with rv:" + strconv.Itoa(rv) + ": Firefox writes its version in both"
}

// impossibleBrowser returns why a browser User-agent cannot be real, or "".
// The rules do not depend on the date of the log: an old browser is not
// suspicious (old logs exist, and so do old machines), but a version that
// never ran on the system it names, or a version that never existed, is.
//
//   - Windows NT versions other than 3.1–6.4 and 10.0: Windows 11 still says
//     10.0, so "Windows NT 11.0" is invented (a favourite of fake-UA lists).
//   - MSIE beyond 11 (Internet Explorer ended at 11), or MSIE on Android.
//   - Chrome/Edge 50+ on Windows XP or Vista (49 was the last), 110+ on
//     Windows 7/8/8.1 (109 was the last); Firefox 53+ on XP or Vista (52 ESR),
//     116+ on Windows 7/8/8.1 (115 ESR).
//   - Chrome 50+ on Mac OS X 10.6–10.8 (49), 88+ on 10.9–10.10 (87), 104+ on
//     10.11–10.12 (103), 117+ on 10.13–10.14 (116); Firefox 49+ on 10.6–10.8
//     (48), 79+ on 10.9–10.11 (78 ESR), 116+ on 10.12–10.14 (115 ESR).
//     Newer Chrome and Firefox report 10.15 on every macOS, so 10.15 says nothing.
//   - Quotes, angle brackets, backquotes or "${" (SQL, HTML and Log4Shell
//     injection); no browser sends them.
//   - "Mozilla/" after a comma or a bar ("Anonymous, Mozilla/5.0 …"): two
//     values glued together by a script.
//   - An engine or browser token right after "Mozilla/5.0" ("Mozilla/5.0
//     Gecko/20100115 Firefox/3.6"): no system named, as no browser sends.
func impossibleBrowser(t *uaText) string {
	lower := t.lower
	if t.quote || t.dollar && t.contains("${") { // quoteBytes
		return "quote, bracket or ${ in a browser string: an injection attempt"
	}
	if m := misspelledToken(t); m != "" {
		return "misspelled " + m + ": a script's copy of a browser string"
	}
	if why := firefoxRevision(t); why != "" {
		return why
	}
	if i := t.index("mozilla/"); i > 0 {
		j := i - 1
		for j > 0 && lower[j] == ' ' {
			j--
		}
		if b := lower[j]; b == ',' || b == '|' || b == ';' {
			return "another value glued before Mozilla/"
		}
	}
	if strings.HasPrefix(lower, "mozilla/") {
		// Every browser names its system in a comment right after
		// Mozilla/5.0 ("(Windows NT 10.0; …)", "(iPhone; …)"); a script's
		// shortened string goes straight on to the engine.
		rest := lower[len("mozilla/"):]
		rest = strings.TrimLeft(rest[uaVersionLen(rest):], " ")
		for _, e := range [...]string{"gecko/", "applewebkit/", "chrome/", "firefox/", "safari/"} {
			if strings.HasPrefix(rest, e) {
				return "no system named after Mozilla/, as every browser names one"
			}
		}
	}
	chrome, namesChrome := t.versionAfter("chrome/") // asked once, for chromeForgery and below
	if why := chromeForgery(t, namesChrome); why != "" {
		return why
	}
	nt, ntOK := windowsNT(t)
	if ntOK && !validNT[nt] {
		return "Windows NT " + nt + " does not exist"
	}
	if v, ok := t.versionAfter("msie "); ok {
		if v > 11 {
			return "MSIE " + strconv.Itoa(v) + " does not exist"
		}
		if t.contains("android") && !t.contains("windows phone") {
			return "MSIE on Android"
		}
	}
	// The system-support limits are those of Google's Chrome and Mozilla's
	// Firefox; forks (which add their own product token) sometimes kept
	// old systems alive longer, so only the unmodified strings are judged.
	isChrome := namesChrome && pureChrome(t)
	firefox, isFirefox := t.versionAfter("firefox/")
	isFirefox = isFirefox && pureFirefox(t)
	if ntOK {
		switch nt {
		case "5.0", "5.01", "5.1", "5.2", "6.0":
			if isChrome && chrome >= 50 {
				return "Chrome " + strconv.Itoa(chrome) + " on Windows NT " + nt + " (the last was 49)"
			}
			if isFirefox && firefox >= 53 {
				return "Firefox " + strconv.Itoa(firefox) + " on Windows NT " + nt + " (the last was 52)"
			}
		case "6.1", "6.2", "6.3":
			if isChrome && chrome >= 110 {
				return "Chrome " + strconv.Itoa(chrome) + " on Windows NT " + nt + " (the last was 109)"
			}
			if isFirefox && firefox >= 116 {
				return "Firefox " + strconv.Itoa(firefox) + " on Windows NT " + nt + " (the last was 115)"
			}
		}
	}
	if mac, ok := macOSMinor(t); ok {
		lastChrome, lastFirefox := 0, 0
		switch {
		case mac >= 6 && mac <= 8:
			lastChrome, lastFirefox = 49, 48
		case mac >= 9 && mac <= 10:
			lastChrome, lastFirefox = 87, 78
		case mac == 11:
			lastChrome, lastFirefox = 103, 78
		case mac == 12:
			lastChrome, lastFirefox = 103, 115
		case mac >= 13 && mac <= 14:
			lastChrome, lastFirefox = 116, 115
		}
		if isChrome && lastChrome > 0 && chrome > lastChrome {
			return "Chrome " + strconv.Itoa(chrome) + " on Mac OS X 10." + strconv.Itoa(mac) + " (the last was " + strconv.Itoa(lastChrome) + ")"
		}
		if isFirefox && lastFirefox > 0 && firefox > lastFirefox {
			return "Firefox " + strconv.Itoa(firefox) + " on Mac OS X 10." + strconv.Itoa(mac) + " (the last was " + strconv.Itoa(lastFirefox) + ")"
		}
	}
	return ""
}

// chromeForgery returns why a string naming Chrome cannot be Chrome's, or
// "". Every Chrome since the first writes its engine, AppleWebKit/, and
// none writes Gecko's revision, rv:, which only Firefox and Internet
// Explorer 11 put in their comment: strings pieced together from two
// browsers' ("(Windows NT 6.1; Win64; x64; rv:47.0) AppleWebKit/537.36 …
// Chrome/67", "(Macintosh; Intel Mac OS X 10_15_7) Chrome/126.0") are a
// script's. The rv: rule is held to Windows and macOS, where the strings
// of Chrome and Firefox are known; a fringe system's browser (AmigaOS)
// may mix tokens. namesChrome says that a version follows "chrome/".
func chromeForgery(t *uaText, namesChrome bool) string {
	lower := t.lower
	if !namesChrome {
		return ""
	}
	if !t.contains("applewebkit/") {
		return "Chrome/ without AppleWebKit/, which every Chrome writes"
	}
	i, j := strings.IndexByte(lower, '('), strings.IndexByte(lower, ')')
	if i < 0 || j < i {
		return ""
	}
	comment := lower[i:j]
	// rv: first: a Chrome string's comment names Windows or macOS, and
	// seldom has it.
	if strings.Contains(comment, "rv:") &&
		(strings.Contains(comment, "windows nt") || strings.Contains(comment, "mac os x")) {
		return "Gecko's rv: in a Chrome string, which only Firefox and IE 11 write"
	}
	return ""
}

// pureChrome reports whether lower is Google Chrome's own form, ending
// "(KHTML, like Gecko) Chrome/v [Mobile ]Safari/v" with no fork's token.
func pureChrome(t *uaText) bool {
	const key = "like gecko) chrome/"
	lower := t.lower
	i := t.index(key)
	if i < 0 {
		return false
	}
	rest := lower[i+len(key):]
	rest = strings.TrimPrefix(rest[uaVersionLen(rest):], " mobile")
	if !strings.HasPrefix(rest, " safari/") {
		return false
	}
	rest = rest[len(" safari/"):]
	return rest != "" && uaVersionLen(rest) == len(rest)
}

// pureFirefox reports whether lower is Mozilla Firefox's own desktop form,
// ending "Gecko/20100101 Firefox/v".
func pureFirefox(t *uaText) bool {
	const key = "gecko/20100101 firefox/"
	lower := t.lower
	i := t.index(key)
	if i < 0 {
		return false
	}
	rest := lower[i+len(key):]
	return rest != "" && uaVersionLen(rest) == len(rest)
}

// validNT lists the Windows NT versions that exist (6.4 was the Windows 10
// preview).
var validNT = map[string]bool{
	"3.1": true, "3.5": true, "3.51": true, "4.0": true, "5.0": true, "5.01": true, "5.1": true,
	"5.2": true, "6.0": true, "6.1": true, "6.2": true, "6.3": true, "6.4": true, "10.0": true,
}

// windowsNT returns the "major.minor" after "windows nt " (a build number
// after a second dot, as in "10.0.18362", is dropped).
func windowsNT(t *uaText) (string, bool) {
	i := t.index("windows nt ")
	if i < 0 {
		return "", false
	}
	s := t.lower[i+len("windows nt "):]
	n := 0
	for n < len(s) && uaDigit(s[n]) {
		n++
	}
	if n == 0 || n > 3 {
		return "", false
	}
	if n < len(s) && s[n] == '.' {
		m := n + 1
		for m < len(s) && uaDigit(s[m]) {
			m++
		}
		if m == n+1 {
			return "", false
		}
		return s[:m], true
	}
	return s[:n], true
}

// macOSMinor returns the minor version after "mac os x 10_" or "mac os x 10.".
func macOSMinor(t *uaText) (int, bool) {
	i := t.index("mac os x 10")
	if i < 0 {
		return 0, false
	}
	s := t.lower[i+len("mac os x 10"):]
	if s == "" || s[0] != '_' && s[0] != '.' {
		return 0, false
	}
	return uaLeadingInt(s[1:])
}
