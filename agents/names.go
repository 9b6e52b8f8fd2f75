package agents

import "strings"

// productName widens the match ua[start:end] to the product token around it:
// the run of letters, digits and "-_." ("AhrefsBot" around "bot"). A version
// glued in front ("Mozilla/5.0libwww-perl") and a trailing "-1.4" version
// are dropped.
func productName(ua string, start, end int) string {
	match := start
	for start > 0 && uaNameByte(ua[start-1]) {
		start--
	}
	for end < len(ua) && uaNameByte(ua[end]) {
		end++
	}
	if k := strings.IndexByte(ua[start:match], '.'); k >= 0 {
		// a version glued in front: "5.0libwww-perl" (but "360Spider" stays)
		for start < match && !uaLetter(ua[start]) {
			start++
		}
	}
	name := strings.TrimRight(ua[start:end], ".-_")
	if k := strings.LastIndexAny(name, "-_"); k > 0 && uaVersion(name[k+1:]) {
		name = name[:k] // "Nutch-1.4", "binlar_2.6.3"
		if k := len(name) - len("_version"); k > 0 && strings.EqualFold(name[k+1:], "version") && (name[k] == '_' || name[k] == '-') {
			name = name[:k] // "Pingdom.com_bot_version_1.4_"
		}
	}
	name = strings.TrimRight(name, ".-_")
	if len(name) > maxNameLen {
		name = name[:maxNameLen]
	}
	return name
}

// robotName names a robot that the table does not know: the product after
// "compatible;", else the leading product name of a non-browser string
// ("Tiny Tiny RSS/1.11" → "Tiny Tiny RSS"), else the first product token that
// no browser sends, else the host of its contact URL.
func robotName(ua, lower string) string {
	if i := strings.Index(lower, "compatible;"); i >= 0 {
		j := i + len("compatible;")
		for j < len(ua) && ua[j] == ' ' {
			j++
		}
		if j < len(ua) && uaLetter(ua[j]) {
			if name := productName(ua, j, j+1); !browserWord(strings.ToLower(name)) && !isScheme(ua[j:]) {
				return phraseName(ua, j, name)
			}
		}
	}
	if !strings.HasPrefix(lower, "mozilla/") {
		// The first word with a letter: a number before it ("1" of "=1+1
		// crawler/1") names no product; a value of numbers only ("123") is
		// named by its first, as it names nothing else.
		first := ""
		for i := 0; i < len(ua); i++ {
			if !uaLetter(ua[i]) && !uaDigit(ua[i]) {
				continue
			}
			name := productName(ua, i, i+1)
			if name == "" || isScheme(ua[i:]) {
				break
			}
			if strings.IndexFunc(name, func(r rune) bool { return r < 0x80 && uaLetter(byte(r)) }) >= 0 {
				return phraseName(ua, i, name)
			}
			if first == "" {
				first = phraseName(ua, i, name)
			}
			for i < len(ua) && (uaNameByte(ua[i]) || ua[i] == '+') {
				i++
			}
		}
		if first != "" {
			return first
		}
	}
	for i := 0; i < len(lower); i++ {
		if lower[i] != '/' || i == 0 || !uaNameByte(lower[i-1]) {
			continue
		}
		start := i
		for start > 0 && uaNameByte(lower[start-1]) {
			start--
		}
		if !browserWord(lower[start:i]) && uaLetter(lower[start]) {
			return productName(ua, start, i)
		}
	}
	if host := urlHost(ua, lower); host != "" {
		return host
	}
	if strings.HasPrefix(lower, "mozilla/") {
		return "Mozilla"
	}
	return "(unknown)"
}

// isScheme reports whether s starts with an http or https URL, which names
// no product.
func isScheme(s string) bool {
	l := uaLower(s[:min(len(s), len("https://"))])
	return strings.HasPrefix(l, "http://") || l == "https://"
}

// phraseName widens name, the first word of a product at ua[at:], to a
// product name of several words when they run up to the version or comment:
// "Sogou web spider/4.0", "Digg Feed Fetcher 1.0 (…)", "Chef Client/10.18".
func phraseName(ua string, at int, name string) string {
	end := at
	for end < len(ua) && end-at <= maxNameLen && (uaNameByte(ua[end]) || ua[end] == ' ' || ua[end] == '!') {
		end++
	}
	phrase := ua[at:end]
	if end < len(ua) && ua[end] != '/' && ua[end] != '(' && ua[end] != ';' || end-at > maxNameLen {
		return name
	}
	if k := strings.Index(phrase, " - "); k >= 0 {
		phrase = phrase[:k] // "Feedbin - 1 subscribers"
	}
	for k := 0; k+1 < len(phrase); k++ {
		if phrase[k] == ' ' && uaDigit(phrase[k+1]) {
			phrase = phrase[:k] // "Digg Feed Fetcher 1.0", "Instagram 3.0.4 Android"
			break
		}
	}
	phrase = strings.TrimSpace(phrase)
	if !strings.Contains(phrase, " ") || len(phrase) < len(name) {
		return name
	}
	return phrase
}

// urlHost returns the host of the first URL in ua, without "www.".
func urlHost(ua, lower string) string {
	i := strings.Index(lower, "://")
	if i < 0 {
		return ""
	}
	i += len("://")
	if strings.HasPrefix(lower[i:], "www.") {
		i += len("www.")
	}
	end := i
	for end < len(ua) && (uaLetter(ua[end]) || uaDigit(ua[end]) || ua[end] == '-' || ua[end] == '.') {
		end++
	}
	host := strings.TrimRight(ua[i:end], ".")
	if len(host) > maxNameLen {
		host = host[:maxNameLen]
	}
	return host
}

// browserWord reports whether a product name is one that browsers send.
func browserWord(w string) bool {
	switch w {
	case "mozilla", "applewebkit", "khtml", "gecko", "like", "chrome", "chromium", "safari", "version",
		"mobile", "firefox", "msie", "trident", "edg", "edge", "opr", "opera", "crios", "fxios", "presto",
		"u", "windows", "linux", "x11", "macintosh", "iphone", "ipad", "android", "compatible", "build":
		return true
	}
	return false
}

// cleanName keeps a name from uap-go (which may copy any text of the
// User-agent) printable and short.
func cleanName(s string) string {
	b := make([]byte, 0, min(len(s), maxNameLen))
	for i := 0; i < len(s) && len(b) < maxNameLen; i++ {
		if c := s[i]; uaNameByte(c) || c == ' ' || c == '(' || c == ')' || c == '/' || c == '+' {
			b = append(b, c)
		}
	}
	if len(b) == 0 {
		return "(unknown)"
	}
	return string(b)
}
