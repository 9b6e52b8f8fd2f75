// A port of the parser and matcher of Google's robotstxt library,
// https://github.com/google/robotstxt (robots.cc at commit
// 22b355ff855419e6a3ff8ff09c0ad7fdb17116f9):
//
//	Copyright 1999 Google LLC
//
//	Licensed under the Apache License, Version 2.0 (the "License");
//	you may not use this file except in compliance with the License.
//	You may obtain a copy of the License at
//
//	    https://www.apache.org/licenses/LICENSE-2.0
//
//	Unless required by applicable law or agreed to in writing, software
//	distributed under the License is distributed on an "AS IS" BASIS,
//	WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
//	See the License for the specific language governing permissions and
//	limitations under the License.
//
// The License's text is in ../robots/LICENSE-google-robotstxt. Changes made
// by the robowatch project: rewritten in Go for tests, the file split into
// directives once and replayed for each robot and path, and cut at 500 KiB
// as Googlebot's fetcher cuts it.

package report

import (
	"strings"
	"testing"
)

// googleDirective is one key-value line as Google's parser emits it.
type googleDirective struct {
	key   int // googleAgent, googleAllow or googleDisallow
	value string
	line  int
	plain bool // value holds no '*' or '$': a prefix (this port's shortcut)
}

const (
	googleAgent = iota
	googleAllow
	googleDisallow
)

// googleParse splits a robots.txt into the directives Google's matcher
// reads (RobotsTxtParser::Parse): its first 500 KiB, a BOM or the start of
// one skipped, lines ended by LF, CR or CRLF, each cut at 16663 bytes.
func googleParse(body string) []googleDirective {
	const maxSize = 500 << 10
	if len(body) > maxSize {
		body = body[:maxSize]
	}
	const maxLine = 2083*8 - 1
	var (
		out      []googleDirective
		line     []byte
		lineNum  int
		bomPos   int
		lastCR   bool
		bom      = "\xEF\xBB\xBF"
		emitLine = func() {
			lineNum++
			if d, ok := googleLine(string(line)); ok {
				d.line, d.plain = lineNum, !strings.ContainsAny(d.value, "*$")
				out = append(out, d)
			}
		}
	)
	for i := 0; i < len(body); i++ {
		ch := body[i]
		if bomPos < len(bom) {
			match := ch == bom[bomPos]
			bomPos++
			if match {
				continue
			}
		}
		bomPos = len(bom)
		if ch != '\n' && ch != '\r' {
			if len(line) < maxLine {
				line = append(line, ch)
			}
			continue
		}
		if !(len(line) == 0 && lastCR && ch == '\n') {
			emitLine()
		}
		line = line[:0]
		lastCR = ch == '\r'
	}
	emitLine()
	return out
}

// googleLine is GetKeyAndValueFrom and GetKeyType for one line.
func googleLine(line string) (googleDirective, bool) {
	if i := strings.IndexByte(line, 0); i >= 0 { // a C string
		line = line[:i]
	}
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	const space = " \t\n\v\f\r"
	line = strings.Trim(line, space)
	if line == "" {
		return googleDirective{}, false
	}
	var key, value string
	if i := strings.IndexByte(line, ':'); i >= 0 {
		key, value = line[:i], line[i+1:]
	} else {
		i := strings.IndexAny(line, " \t")
		if i < 0 {
			return googleDirective{}, false
		}
		key, value = line[:i], strings.TrimLeft(line[i:], " \t")
		if strings.ContainsAny(value, " \t") {
			return googleDirective{}, false
		}
	}
	key, value = strings.Trim(key, space), strings.Trim(value, space)
	if key == "" {
		return googleDirective{}, false
	}
	prefix := func(ps ...string) bool {
		for _, p := range ps {
			if len(key) >= len(p) && strings.EqualFold(key[:len(p)], p) {
				return true
			}
		}
		return false
	}
	switch {
	case prefix("user-agent", "useragent", "user agent"):
		return googleDirective{key: googleAgent, value: value}, true
	case prefix("allow"):
		return googleDirective{key: googleAllow, value: googleEscape(value)}, true
	case prefix("disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw"):
		return googleDirective{key: googleDisallow, value: googleEscape(value)}, true
	}
	return googleDirective{}, false // Sitemap and unknown keys: nothing for the matcher
}

// googleEscape is MaybeEscapePattern: %xx upper-cased, bytes past ASCII
// percent-encoded.
func googleEscape(s string) string {
	const hex = "0123456789ABCDEF"
	isHex := func(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteByte('%')
			b.WriteString(strings.ToUpper(s[i+1 : i+3]))
			i += 2
		case c&0x80 != 0:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xf])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// googleAllowed is RobotsMatcher::OneAgentAllowedByRobots: whether the
// robot whose product token is agent may fetch path (a URL path, with its
// query).
func googleAllowed(directives []googleDirective, agent, path string) bool {
	path = googlePath(path)
	var (
		seenGlobal, seenSpecific, everSpecific, separator bool
		allowGlobal, allowSpecific                        = -1, -1
		disallowGlobal, disallowSpecific                  = -1, -1
	)
	set := func(global, specific *int, p int) {
		if seenSpecific {
			*specific = max(*specific, p)
		} else {
			*global = max(*global, p)
		}
	}
	for _, d := range directives {
		switch d.key {
		case googleAgent:
			if separator {
				seenSpecific, seenGlobal, separator = false, false, false
			}
			if ua := d.value; len(ua) >= 1 && ua[0] == '*' && (len(ua) == 1 || strings.ContainsRune(" \t\n\v\f\r", rune(ua[1]))) {
				seenGlobal = true
			} else if strings.EqualFold(extractUserAgent(ua), agent) {
				seenSpecific, everSpecific = true, true
			}
		case googleAllow, googleDisallow:
			if !seenGlobal && !seenSpecific {
				continue
			}
			separator = true
			p := -1
			if d.plain && strings.HasPrefix(path, d.value) || !d.plain && googleMatches(path, d.value) {
				p = len(d.value)
			}
			if d.key == googleDisallow {
				if p >= 0 {
					set(&disallowGlobal, &disallowSpecific, p)
				}
				continue
			}
			if p >= 0 {
				set(&allowGlobal, &allowSpecific, p)
				continue
			}
			// 'index.htm' and 'index.html' are read as the directory.
			if i := strings.LastIndexByte(d.value, '/'); i >= 0 && strings.HasPrefix(d.value[i:], "/index.htm") {
				pat := d.value[:i+1] + "$"
				if googleMatches(path, pat) {
					set(&allowGlobal, &allowSpecific, len(pat))
				}
			}
		}
	}
	switch {
	case allowSpecific > 0 || disallowSpecific > 0:
		return disallowSpecific <= allowSpecific
	case everSpecific:
		return true
	case allowGlobal > 0 || disallowGlobal > 0:
		return disallowGlobal <= allowGlobal
	}
	return true
}

// extractUserAgent is ExtractUserAgent: the leading run of [a-zA-Z_-].
func extractUserAgent(ua string) string {
	i := 0
	for i < len(ua) && ('a' <= ua[i] && ua[i] <= 'z' || 'A' <= ua[i] && ua[i] <= 'Z' || ua[i] == '-' || ua[i] == '_') {
		i++
	}
	return ua[:i]
}

// googleMatches is RobotsMatchStrategy::Matches: '*' matches any run, a
// final '$' the end of the path.
func googleMatches(path, pattern string) bool {
	pos := make([]int, 1, len(path)+1)
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		if c == '$' && i+1 == len(pattern) {
			return pos[len(pos)-1] == len(path)
		}
		if c == '*' {
			from := pos[0]
			pos = pos[:0]
			for j := from; j <= len(path); j++ {
				pos = append(pos, j)
			}
			continue
		}
		next := pos[:0]
		for _, p := range pos {
			if p < len(path) && path[p] == c {
				next = append(next, p+1)
			}
		}
		pos = next
		if len(pos) == 0 {
			return false
		}
	}
	return true
}

// googlePath is GetPathParamsQuery for a path: what follows a '#' dropped.
func googlePath(p string) string {
	if i := strings.IndexByte(p, '#'); i >= 0 {
		p = p[:i]
	}
	if p == "" || p[0] != '/' {
		p = "/" + p
	}
	return p
}

// TestGoogleReader holds the port to answers of Google's library
// (robots_test.cc, and the case): the round trip is only as good
// as its reading.
func TestGoogleReader(t *testing.T) {
	for _, c := range []struct {
		file, agent, path string
		allowed           bool
	}{
		// A group ends only at a rule: the Crawl-delay's * group runs on.
		{"User-agent: *\nCrawl-delay: 10\n\nUser-agent: Bytespider\nDisallow: /\n", "Googlebot", "/news", false},
		{"User-agent: *\nCrawl-delay: 10\nDisallow:\n\nUser-agent: Bytespider\nDisallow: /\n", "Googlebot", "/news", true},
		{"User-agent: *\nCrawl-delay: 10\nDisallow:\n\nUser-agent: Bytespider\nDisallow: /\n", "Bytespider", "/news", false},
		// Keys are read by their start; a colon may be a space.
		{"User-agents: FooBot\nDisallowed: /x\n", "FooBot", "/x/y", false},
		{"User-agent FooBot\nDisallow /x\n", "FooBot", "/x/y", false},
		{"User-agent: FooBot\nDisallow: /x /y\n", "FooBot", "/x/y", true},
		// Longest match wins, Allow wins ties, * and a final $.
		{"User-agent: FooBot\nDisallow: /\nAllow: /public\n", "FooBot", "/public/a", true},
		{"User-agent: FooBot\nDisallow: /a\nAllow: /a\n", "FooBot", "/a", true},
		{"User-agent: FooBot\nDisallow: /*.pdf$\n", "FooBot", "/x/y.pdf", false},
		{"User-agent: FooBot\nDisallow: /*.pdf$\n", "FooBot", "/x/y.pdf?z", true},
		// A robot's own group hides the * group; an empty one too.
		{"User-agent: *\nDisallow: /\nUser-agent: FooBot\nDisallow:\n", "FooBot", "/x", true},
		{"User-agent: *\nDisallow: /\nUser-agent: FooBot\nDisallow:\n", "BarBot", "/x", false},
		// Names are their leading letters, '-' and '_'; '*' then a space is *.
		{"User-agent: FooBot/1.2\nDisallow: /\n", "FooBot", "/x", false},
		{"User-agent: FooBot2\nDisallow: /\n", "FooBot", "/x", false},
		{"User-agent: * bar\nDisallow: /\n", "FooBot", "/x", false},
		// Index.html is its directory for Allow.
		{"User-agent: *\nDisallow: /\nAllow: /allowed-slash/index.html\n", "FooBot", "/allowed-slash/", true},
		// A BOM, CR-only lines, and the 500 KiB cut.
		{"\xEF\xBB\xBFUser-agent: FooBot\rDisallow: /x\r", "FooBot", "/x", false},
		{"User-agent: FooBot\n" + strings.Repeat("#\n", 256<<10) + "Disallow: /x\n", "FooBot", "/x", true},
	} {
		if got := googleAllowed(googleParse(c.file), c.agent, c.path); got != c.allowed {
			t.Errorf("%q: %s %s: allowed %v, want %v", c.file, c.agent, c.path, got, c.allowed)
		}
	}
}
