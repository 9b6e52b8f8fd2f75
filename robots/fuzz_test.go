package robots

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// refMatch is a reference matcher written the plain way: the set of path
// positions reachable after each pattern byte (Google's algorithm), on the
// canonical forms. It is slow and obviously right; the real matcher must
// agree with it.
func refMatch(pattern, path string) bool {
	end := strings.HasSuffix(pattern, "$")
	if end {
		pattern = pattern[:len(pattern)-1]
	}
	// Canonicalise between the stars, as the real matcher does.
	parts := strings.Split(pattern, "*")
	type tok struct {
		star bool
		c    byte
	}
	var toks []tok
	for i, part := range parts {
		if i > 0 {
			toks = append(toks, tok{star: true})
		}
		for _, c := range []byte(canonString(part)) {
			toks = append(toks, tok{c: c})
		}
	}
	p := canonString(path)
	pos := make([]bool, len(p)+1) // pos[q]: the pattern so far can end at q
	pos[0] = true
	for _, t := range toks {
		next := make([]bool, len(p)+1)
		alive := false
		for q := 0; q <= len(p); q++ {
			switch {
			case t.star:
				// Everything from the first reachable position on.
				if pos[q] || q > 0 && next[q-1] {
					next[q] = true
				}
			case pos[q] && q < len(p) && p[q] == t.c:
				next[q+1] = true
			}
		}
		for _, v := range next {
			alive = alive || v
		}
		if !alive {
			return false
		}
		pos = next
	}
	if end {
		return pos[len(p)]
	}
	return true
}

// refDecide applies longest match to a rule list: the winning priority
// (2*length + allow), or -1 when no rule matches.
func refDecide(rules []*Rule, path string) int32 {
	best := int32(-1)
	for _, r := range rules {
		if r.Pattern != "" && refMatch(refResolvePattern(r.Pattern), path) && priority(r) > best {
			best = priority(r)
		}
	}
	return best
}

// refResolve is the path as the server resolves it (dot segments removed,
// empty ones merged), written the slow, obvious way.
func refResolve(p string) string {
	path, query, hasQuery := strings.Cut(p, "?")
	if !strings.HasPrefix(path, "/") {
		return p
	}
	var out []string
	parts := strings.Split(path, "/")[1:]
	for i, s := range parts {
		last := i == len(parts)-1
		switch s {
		case "", ".":
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, s)
			continue
		}
		if last {
			out = append(out, "")
		}
	}
	r := "/" + strings.Join(out, "/")
	if hasQuery {
		r += "?" + query
	}
	return r
}

// refResolvePattern is a rule's pattern read as paths are (see
// resolvePattern), written the slow, obvious way: before the query, slashes
// merged; before the first '*', "." and ".." segments that are not the
// last removed. The priority stays that of the pattern as written.
func refResolvePattern(p string) string {
	path, query, hasQuery := strings.Cut(p, "?")
	pre, post := path, ""
	if i := strings.IndexByte(path, '*'); i >= 0 {
		pre, post = path[:i], path[i:]
	}
	segs := strings.Split(pre, "/")
	var out []string
	for i, s := range segs {
		last := i == len(segs)-1
		switch {
		case i > 0 && s == "" && !last:
		case i > 0 && s == "." && !last: // a segment a '/' starts, as resolvePattern's
		case i > 0 && s == ".." && !last:
			if len(out) > 1 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, s)
		}
	}
	r := strings.Join(out, "/")
	if strings.HasSuffix(r, "//") {
		r = r[:len(r)-1]
	}
	r += post
	for strings.Contains(r, "//") {
		r = strings.ReplaceAll(r, "//", "/")
	}
	if hasQuery {
		r += "?" + query
	}
	return r
}

// checkAgainstRef compares the real matcher on a one-group file with the
// reference and reports a difference.
func checkAgainstRef(t *testing.T, rules []*Rule, path string) {
	t.Helper()
	g := &Group{Agents: []string{"*"}, Rules: rules}
	r := &Robots{Groups: []*Group{g}}
	got, rule := r.Allowed("bot", path)
	want := refDecide(rules, refResolve(path))
	p, _ := requestPath(path)
	if p == "/robots.txt" || strings.HasPrefix(p, "/robots.txt?") {
		if !got || rule != nil {
			t.Fatalf("/robots.txt not allowed: %q", path)
		}
		return
	}
	switch {
	case want < 0 && rule != nil:
		t.Fatalf("path %q: decided by %q, reference: no rule matches", path, rule.Pattern)
	case want >= 0 && rule == nil:
		t.Fatalf("path %q: no rule, reference: priority %d", path, want)
	case want >= 0 && priority(rule) != want:
		t.Fatalf("path %q: decided by %q (priority %d), reference priority %d", path, rule.Pattern, priority(rule), want)
	case want >= 0 && got != rule.Allow:
		t.Fatalf("path %q: answer %v disagrees with its rule %+v", path, got, rule)
	}
}

// usablePath reports whether a fuzzed path is one the reference can take as
// is (starting with '/', no fragment).
func usablePath(p string) bool {
	return strings.HasPrefix(p, "/") && !strings.Contains(p, "#")
}

// usablePattern reports whether a fuzzed pattern can be a single rule.
func usablePattern(p string) bool {
	return p != "" && !strings.ContainsAny(p, " \t\r\n\v\f#")
}

// TestMatchRandomAgainstReference drives the radix tree and the bucketed
// wildcard index (nodes of 32+ wildcard rules) with random groups over a
// small alphabet, so that rules overlap and collide a lot.
func TestMatchRandomAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	alpha := "ab/*$%2A."
	randStr := func(n int, withStars bool) string {
		var b strings.Builder
		for range n {
			c := alpha[rng.IntN(len(alpha))]
			if !withStars && (c == '*' || c == '$') {
				c = 'a'
			}
			b.WriteByte(c)
		}
		return b.String()
	}
	for round := range 200 {
		n := 1 + rng.IntN(120)
		var rules []*Rule
		for i := range n {
			pat := "/" + randStr(rng.IntN(8), true)
			if rng.IntN(4) == 0 {
				pat = "*" + pat[1:]
			}
			rules = append(rules, &Rule{Allow: rng.IntN(2) == 0, Pattern: pat, Line: i + 1})
		}
		for range 50 {
			checkAgainstRef(t, rules, "/"+randStr(rng.IntN(16), false))
		}
		if round%20 == 0 {
			// Past maxFilterLen: the filters are not used.
			checkAgainstRef(t, rules, "/"+randStr(maxFilterLen+rng.IntN(64), false))
		}
		if t.Failed() {
			t.Fatalf("round %d", round)
		}
	}
}

// FuzzMatch checks the matcher against the reference for one fuzzed pattern,
// alone and among 40 wildcard rules (which puts it in a bucketed node).
func FuzzMatch(f *testing.F) {
	seeds := [][2]string{
		{"/*a*a*a*a*a*b", "/aaaaaaaaaaaaaaaab"},
		{"/fish*.php", "/fishheads/catfish.php?parameters"},
		{"*.gif$", "/a/b.gif"},
		{"/a%3cd.html", "/a%3Cd.html"},
		{"/%7ejoe/", "/~joe/index.html"},
		{"/a%2fb", "/a/b"},
		{"/foo/bar/ツ", "/foo/bar/%E3%83%84"},
		{"/x%zz", "/x%zz"},
		{"/path/foo-%24", "/path/foo-$"},
		{"/$", "/"},
		{"/?hl=*&gws_rd=ssl$", "/?hl=en&gws_rd=ssl"},
		{"/a$b", "/a$b"},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1], false)
	}
	f.Fuzz(func(t *testing.T, pattern, path string, allow bool) {
		if !usablePattern(pattern) || !usablePath(path) {
			return
		}
		rule := &Rule{Allow: allow, Pattern: pattern, Line: 1}
		checkAgainstRef(t, []*Rule{rule}, path)
		rules := []*Rule{rule}
		for i := range 40 {
			rules = append(rules, &Rule{Allow: i%3 == 0, Pattern: fmt.Sprintf("/*%c%c*", 'a'+i%5, 'a'+i%7), Line: i + 2})
		}
		checkAgainstRef(t, rules, path)
	})
}

// FuzzParse feeds arbitrary bytes to the parser, linter and matcher: no
// panic, and the answers keep their invariants.
func FuzzParse(f *testing.F) {
	for _, s := range []string{rfcSimple, rfcLongest, koster1994, cybermapper, fict, "\xEF\xBB\xBFUser-agent: *\rDisallow: /\r", "User-Agent: * Rex\nDisallow: /a /b\n", "<html><body>x</body></html>"} {
		f.Add([]byte(s))
	}
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "robots", "*.txt"))
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	agents := []string{"", "Googlebot", "Mozilla/5.0 (compatible; Googlebot-Image/1.0; +http://www.google.com/bot.html)", "a-b_c d", "*"}
	paths := []string{"/", "/robots.txt", "/a/b?c=d", "/%E3%83%84", "/x%zz", "", "http://h/x", "/aaaaaaaaaaaaaaaaaaaab"}
	f.Fuzz(func(t *testing.T, b []byte) {
		r := ParseBytes(b)
		r2, err := Parse(bytes.NewReader(b))
		if err != nil || groupList(r2) != groupList(r) {
			t.Fatalf("Parse and ParseBytes differ")
		}
		for _, g := range r.Groups {
			if g.Line < 1 || g.Line > r.Lines {
				t.Fatalf("group line %d of %d", g.Line, r.Lines)
			}
			for _, rule := range g.Rules {
				if rule.Line < g.Line || rule.Line > r.Lines || !strings.Contains(rule.Text, rule.Pattern) {
					t.Fatalf("rule %+v in group at line %d", rule, g.Line)
				}
			}
		}
		for _, p := range Lint(r) {
			if p.Line < 0 || p.Line > r.Lines || p.Message == "" || p.Code == "" {
				t.Fatalf("problem %+v", p)
			}
		}
		for _, a := range agents {
			m := r.Agent(a)
			for _, p := range paths {
				ok, rule := m.Allowed(p)
				if p == "/robots.txt" && (!ok || rule != nil) {
					t.Fatalf("/robots.txt disallowed")
				}
				if rule != nil && rule.Allow != ok {
					t.Fatalf("answer %v, rule %+v", ok, rule)
				}
				if rule != nil && rule.Pattern == "" {
					t.Fatalf("empty rule decided")
				}
			}
		}
		if len(b) < 4096 {
			// Every rule is checked against the reference for a few paths.
			for _, g := range r.Groups {
				for _, p := range paths {
					if usablePath(p) {
						checkAgainstRef(t, g.Rules, p)
					}
				}
			}
		}
	})
}
