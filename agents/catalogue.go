package agents

import (
	"bufio"
	"bytes"
	"cmp"
	_ "embed"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// CatalogueEntry is what robowatch knows of one robot by name.
type CatalogueEntry struct {
	Name     string
	Operator string
	Purpose  string // one of Purposes
	URL      string // its documentation
}

// Purposes are the words a robot's purpose is said in, in JSON.
var Purposes = []string{"search", "ai-training", "ai-search", "ai-assistant", "seo", "social-preview", "feed", "archive", "monitoring", "scanner", "library", "other"}

//go:embed catalogue/ai-robots.tsv
var aiRobotsTSV []byte

// LoadCatalogue reads a catalogue file: one robot a line, name, operator,
// purpose and URL separated by tabs; '#' lines are comments. A line that is
// not of that shape is an error naming file and line: a silent skip would
// leave a robot unknown.
func LoadCatalogue(r io.Reader, file string) ([]CatalogueEntry, error) {
	var out []CatalogueEntry
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 4 || f[0] == "" {
			return nil, fmt.Errorf("%s:%d: want name, operator, purpose and URL separated by tabs", file, n)
		}
		if !slices.Contains(Purposes, f[2]) {
			return nil, fmt.Errorf("%s:%d: purpose %q is not one of %s", file, n, f[2], strings.Join(Purposes, ", "))
		}
		if f[3] != "" && !strings.HasPrefix(f[3], "https://") && !strings.HasPrefix(f[3], "http://") {
			return nil, fmt.Errorf("%s:%d: URL %q is not an http(s) URL", file, n, f[3])
		}
		out = append(out, CatalogueEntry{Name: f[0], Operator: f[1], Purpose: f[2], URL: f[3]})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return out, nil
}

// catalogue is the built-in catalogue by lower-case name.
var catalogue = sync.OnceValue(func() map[string]CatalogueEntry {
	entries, err := LoadCatalogue(bytes.NewReader(aiRobotsTSV), "catalogue/ai-robots.tsv")
	if err != nil {
		panic("agents: the built-in catalogue does not load: " + err.Error())
	}
	m := make(map[string]CatalogueEntry, len(entries))
	for _, e := range entries {
		m[strings.ToLower(e.Name)] = e
	}
	return m
})

// Lookup says what robowatch knows of the robot called name: the big
// crawlers from its own table (identity.go), the AI crawlers from
// ai.robots.txt's list; ok is false for a name it does not know.
func Lookup(name string) (CatalogueEntry, bool) {
	// Every verdict looks its name up ("Chrome" for most), twice on a
	// log of new clients (its purpose, its URL): lower-cased into a buffer
	// on the stack, it costs no allocation, and only the claims that
	// start with the name's first byte are tried (all of them were 120
	// ns a lookup, the churn log's 600,000 of them 70 ms).
	var buf [64]byte
	lower := asciiLower(buf[:0], name)
	if len(lower) > 0 {
		for _, i := range claimsByFirst[lower[0]] {
			if c := &claims[i]; bytes.HasPrefix(lower, []byte(c.prefix)) {
				return CatalogueEntry{Name: name, Operator: c.operator, Purpose: c.purpose, URL: c.url}, true
			}
		}
	}
	e, ok := catalogue()[string(lower)]
	return e, ok
}

// claimsByFirst are the claims by the first byte of their prefix, in
// table order (the first that matches wins).
var claimsByFirst = func() (t [256][]uint8) {
	if len(claims) > 256 {
		panic("agents: more claims than claimsByFirst numbers")
	}
	for i, c := range claims {
		t[c.prefix[0]] = append(t[c.prefix[0]], uint8(i))
	}
	return t
}()

// asciiLower appends s to dst lower-cased as strings.ToLower would, for
// the names Lookup is given; a name with bytes past ASCII goes through
// strings.ToLower.
func asciiLower(dst []byte, s string) []byte {
	start := len(dst)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf:
			return append(dst[:start], strings.ToLower(s)...)
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// genericNames are catalogue names that are also ordinary words or other
// products' names ("Cursor", "Operator"): as a token in a User-agent they
// say nothing of a robot, so they name one only through the other signals.
var genericNames = []string{"cursor", "operator", "openai", "spider", "useai", "devin"}

// catalogueNames are the catalogue's names that catalogued looks for,
// lower-case: those of five bytes or more that are no ordinary word,
// longest first, so that "meta-externalagent" wins over a shorter name it
// starts with.
var catalogueNames = sync.OnceValue(func() []string {
	var names []string
	for name := range catalogue() {
		if len(name) < 5 || slices.Contains(genericNames, name) {
			continue
		}
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Or(cmp.Compare(len(b), len(a)), strings.Compare(a, b)) })
	return names
})

// catalogued finds a catalogued robot's name as a product in lower (a
// lower-case User-agent): at the start or after a blank, '(', ';', '+' or
// ',', and followed by the end, '/', a blank, ';', ')' or ','. So the
// catalogue feeds the User-agent signal: a robot robowatch knows by name
// is a robot whether or not its string has "bot" or a URL in it.
// nameStart and nameEnd are the bytes a catalogued name may follow and be
// followed by in a User-agent, as tables: this runs on every byte of every
// new User-agent.
var nameStart, nameEnd = byteSet(" (;+,"), byteSet("/ ;),")

func byteSet(s string) (t [256]bool) {
	for i := 0; i < len(s); i++ {
		t[s[i]] = true
	}
	return t
}

func catalogued(t *uaText) (CatalogueEntry, bool) {
	lower := t.lower
	for _, m := range t.matches {
		if m.table != tableCatalogue {
			continue
		}
		i := int(m.at)
		name := catalogueNames()[m.entry]
		if end := i + len(name); (i == 0 || nameStart[lower[i-1]]) && (end == len(lower) || nameEnd[lower[end]]) {
			return catalogue()[name], true
		}
	}
	return CatalogueEntry{}, false
}
