package robots

import "strings"

// googleMaxLine is how many bytes of a line Google's parser reads
// (kMaxLineLen of robots.cc, less its final NUL); the rest is dropped.
const googleMaxLine = 2083*8 - 1

// EndsInOpenGroup reports whether User-agent lines appended to text would
// join a group of it: whether its last User-agent lines have no Allow or
// Disallow line after them, as robowatch reads the file or as Google's
// parser does.
//
// RFC 9309 readers end a group only at a rule: a blank line, a comment, a
// Crawl-delay or a Sitemap line ends nothing, so "User-agent: * /
// Crawl-delay: 10" at the end of a file makes "User-agent: X / Disallow: /"
// written after it one group, and every robot without a group of its own
// gets the Disallow: /. Google's parser also reads every key that merely
// starts with "user-agent", "allow" or "disallow" ("User-agents:",
// "Disallowed:") as that key, and only the first 16663 bytes of a line up
// to a NUL: the file is open if it is open in either reading.
func EndsInOpenGroup(text string) bool {
	var ours, google struct{ agents, rules bool }
	step := func(st *struct{ agents, rules bool }, agent, rule bool) {
		switch {
		case agent:
			st.agents, st.rules = true, false
		case rule && st.agents:
			st.rules = true
		}
	}
	s := trimBOM(text)
	for len(s) > 0 {
		var line string
		line, s = cutLine(s)
		if k, ok := lineKey(line); ok {
			kd := keys[strings.ToLower(k)]
			step(&ours, kd.kind == keyUserAgent, kd.kind == keyAllow || kd.kind == keyDisallow)
		}
		g := line
		if len(g) > googleMaxLine {
			g = g[:googleMaxLine]
		}
		if j := strings.IndexByte(g, 0); j >= 0 {
			g = g[:j]
		}
		if k, ok := googleLineKey(g); ok {
			step(&google, googleKey(k, "user-agent", "useragent", "user agent"),
				googleKey(k, "allow", "disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw"))
		}
	}
	return ours.agents && !ours.rules || google.agents && !google.rules
}

// lineKey is the key of a robots.txt line, as the parser splits it (see
// splitKeyValue): before a colon, or the first of exactly two words.
func lineKey(line string) (string, bool) {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	line = trimSpace(line)
	if line == "" {
		return "", false
	}
	if i := strings.IndexByte(line, ':'); i >= 0 {
		k := trimSpace(line[:i])
		return k, k != ""
	}
	f := fields(line, false)
	if len(f) != 2 {
		return "", false
	}
	return f[0], true
}

// googleLineKey is the key of a line as Google's parser splits it
// (GetKeyAndValueFrom): before a colon, or, with no colon, the first of
// exactly two words apart by spaces or tabs.
func googleLineKey(line string) (string, bool) {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	const space = " \t\n\v\f\r" // absl::ascii_isspace: Unicode spaces are part of a key
	line = strings.Trim(line, space)
	if i := strings.IndexByte(line, ':'); i >= 0 {
		k := strings.Trim(line[:i], space)
		return k, k != ""
	}
	i := strings.IndexAny(line, " \t")
	if i < 0 || strings.ContainsAny(strings.TrimLeft(line[i:], " \t"), " \t") {
		return "", false
	}
	return line[:i], true
}

// googleKey reports whether key starts with one of the prefixes, ignoring
// case, as Google's parser recognises keys.
func googleKey(key string, prefixes ...string) bool {
	for _, p := range prefixes {
		if hasPrefixFold(key, p) {
			return true
		}
	}
	return false
}
