package agents

import "strings"

// uaVersionLen returns the length of the version ("120.0.6099.109") at the
// start of s.
func uaVersionLen(s string) int {
	n := 0
	for n < len(s) && (uaDigit(s[n]) || s[n] == '.') {
		n++
	}
	return n
}

// versionAfter returns the major version number right after key.
func versionAfter(lower, key string) (int, bool) {
	i := strings.Index(lower, key)
	if i < 0 {
		return 0, false
	}
	return uaLeadingInt(lower[i+len(key):])
}

// uaLeadingInt parses the decimal number at the start of s, at most 6 digits.
func uaLeadingInt(s string) (int, bool) {
	n, i := 0, 0
	for ; i < len(s) && i < 6 && uaDigit(s[i]); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n, i > 0
}

// uaVersion reports whether s looks like a version number ("1.4", "2").
func uaVersion(s string) bool {
	if s == "" || !uaDigit(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !uaDigit(s[i]) && s[i] != '.' {
			return false
		}
	}
	return true
}

func uaLower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

func uaLetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }
func uaDigit(b byte) bool  { return '0' <= b && b <= '9' }
func uaNameByte(b byte) bool {
	return uaLetter(b) || uaDigit(b) || b == '-' || b == '_' || b == '.' || b == '!'
}

// uaFieldSep reports whether b ends a field of a User-agent: a URL runs
// until one of these.
func uaFieldSep(b byte) bool {
	return b == ' ' || b == ';' || b == '(' || b == ')' || b == ',' || b == '"' || b == '<' || b == '>'
}
