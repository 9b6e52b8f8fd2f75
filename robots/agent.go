package robots

import (
	"slices"
	"strings"
	"time"
)

// maxCachedMatchers bounds Agent's cache: a log can hold any number of
// distinct User-agent headers, and each combination of names they hit
// gets a Matcher. Beyond the bound Matchers are built afresh, which is cheap
// because groups are compiled once each.
const maxCachedMatchers = 4096

// agentIndex maps product tokens to the groups that name them.
type agentIndex struct {
	tokenID  map[string]int32 // lower-case token -> id; "*" is not in it
	tokens   []string         // id -> token
	groupsOf [][]int32        // id -> indices into Robots.Groups, in file order
	star     []int32          // the groups naming "*"
}

// allowAll is the Matcher for a robot no group applies to.
var allowAll = &Matcher{}

// starID is the cache key id of the `*` groups.
const starID = -1

// isTokenByte reports the bytes of a product token: [A-Za-z0-9_-].
func isTokenByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_'
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// productToken returns the token a User-agent value names: "*" for the
// default group, else the leading run of [A-Za-z0-9_-] in lower case ("" if
// there is none). "Mediapartners-Google*" names "mediapartners-google".
func productToken(name string) string {
	name = trimSpace(name)
	if name == "*" {
		return "*"
	}
	i := 0
	for i < len(name) && isTokenByte(name[i]) {
		i++
	}
	return strings.ToLower(name[:i])
}

func (r *Robots) prepare() {
	ix := &agentIndex{tokenID: make(map[string]int32)}
	for gi, g := range r.Groups {
		for _, a := range g.Agents {
			// A hand-built Group may hold "Copernicus Fred" in one entry.
			for _, name := range fields(a, true) {
				tok := productToken(name)
				switch tok {
				case "":
					continue
				case "*":
					if !slices.Contains(ix.star, int32(gi)) {
						ix.star = append(ix.star, int32(gi))
					}
					continue
				}
				id, ok := ix.tokenID[tok]
				if !ok {
					id = int32(len(ix.tokens))
					ix.tokenID[tok] = id
					ix.tokens = append(ix.tokens, tok)
					ix.groupsOf = append(ix.groupsOf, nil)
				}
				if !slices.Contains(ix.groupsOf[id], int32(gi)) {
					ix.groupsOf[id] = append(ix.groupsOf[id], int32(gi))
				}
			}
		}
	}
	for _, pr := range r.Prefs {
		pr.c = compileRule(&Rule{Pattern: pr.Pattern})
	}
	for _, g := range r.Groups {
		for _, pr := range g.Prefs {
			pr.c = compileRule(&Rule{Pattern: pr.Pattern})
		}
	}
	r.index = ix
}

// Agent returns the rules that apply to a robot, given the User-agent header
// it sent or its bare product token. Which groups apply:
//
//  1. A group's tokens are its User-agent names: "*", or the leading run of
//     [A-Za-z0-9_-] of each name, lower-cased.
//  2. The header's words: URLs, e-mail addresses and the versions after a
//     product's '/' dropped, the rest split
//     at every byte outside [A-Za-z0-9_-], lower-cased, words without a
//     letter dropped, and the words of browsers' and platforms' vocabulary
//     ("Mozilla", "compatible", "KHTML", "like", "Safari", "Windows" …)
//     dropped: they are no robot's product token, and a crawler matches
//     groups by its own token (RFC 9309 2.2.1), so a group named
//     "Mozilla/4.0 (compatible; …)" is not Googlebot's.
//  3. Every group with a token equal to a word applies; they are merged.
//  4. If none does, every group whose token is a prefix of a word ending at a
//     '-' or '_' of that word applies ("Googlebot-Image" -> "googlebot").
//  5. If none does, the operator's own documented fallback applies: a
//     "yandex" group to every Yandex robot (YandexBot, YandexImages …: Yandex
//     says "User-agent: Yandex" is for all its robots), a "googlebot" group
//     to Applebot (Apple says Applebot follows Googlebot's rules when none
//     name Applebot), an "msnbot" group to bingbot (Bing said so when
//     bingbot replaced msnbot).
//  6. If none does, the "*" groups apply; if there are none, all is allowed.
//     Google's ad and API fetchers (AdsBot-Google, AdsBot-Google-Mobile,
//     Mediapartners-Google, APIs-Google) ignore the "*" groups, as Google
//     documents: only a group naming them applies.
//
// Agent never returns nil. It is safe for concurrent use.
func (r *Robots) Agent(userAgent string) *Matcher {
	if r == nil || len(r.Groups) == 0 {
		return allowAll
	}
	r.prepOnce.Do(r.prepare)
	ix := r.index

	var exactBuf, prefixBuf [16]int32
	exact, prefix := exactBuf[:0], prefixBuf[:0]
	var low [64]byte
	forEachWord(userAgent, func(w string) {
		lw := lowerInto(low[:0], w)
		if browserWord(lw) {
			return
		}
		if id, ok := ix.tokenID[string(lw)]; ok && !slices.Contains(exact, id) {
			exact = append(exact, id)
		}
		if len(exact) > 0 {
			return // the fallback is only needed when nothing matches exactly
		}
		for k := 1; k < len(lw); k++ {
			if lw[k] != '-' && lw[k] != '_' {
				continue
			}
			if id, ok := ix.tokenID[string(lw[:k])]; ok && !slices.Contains(prefix, id) {
				prefix = append(prefix, id)
			}
		}
	})
	ids := exact
	if len(ids) == 0 {
		ids = prefix
	}
	if len(ids) == 0 {
		ids = ix.family(userAgent, ids)
	}
	if len(ids) == 0 {
		if len(ix.star) == 0 || ignoresStar(userAgent) {
			return allowAll
		}
		ids = append(ids, starID)
	}
	slices.Sort(ids)

	var keyBuf [64]byte
	key := keyBuf[:0]
	for _, id := range ids {
		key = append(key, byte(id>>24), byte(id>>16), byte(id>>8), byte(id))
	}
	r.cacheMu.Lock()
	m := r.cache[string(key)]
	r.cacheMu.Unlock()
	if m != nil {
		return m
	}
	m = r.newMatcher(ids)
	r.cacheMu.Lock()
	if r.cache == nil {
		r.cache = make(map[string]*Matcher)
	}
	if len(r.cache) < maxCachedMatchers {
		r.cache[string(key)] = m
	}
	r.cacheMu.Unlock()
	return m
}

// family returns, appended to ids, the group a robot falls back to by its
// operator's documented rule when no group names it (rule 5 of Agent).
func (ix *agentIndex) family(userAgent string, ids []int32) []int32 {
	yandex, hasYandex := ix.tokenID["yandex"]
	googlebot, hasGooglebot := ix.tokenID["googlebot"]
	msnbot, hasMsnbot := ix.tokenID["msnbot"]
	if !hasYandex && !hasGooglebot && !hasMsnbot {
		return ids
	}
	var low [64]byte
	forEachWord(userAgent, func(w string) {
		lw := lowerInto(low[:0], w)
		var id int32
		switch {
		case hasYandex && len(lw) > len("yandex") && string(lw[:len("yandex")]) == "yandex":
			id = yandex
		case hasGooglebot && string(lw) == "applebot":
			id = googlebot
		case hasMsnbot && string(lw) == "bingbot":
			id = msnbot
		default:
			return
		}
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	})
	return ids
}

// ignoresStar reports whether the User-agent is one of the robots whose
// operator documents that they ignore the "*" groups (Google's
// special-case crawlers): holding them to "*" counted AdsBot's checks of
// an advertiser's landing pages as violations.
func ignoresStar(userAgent string) bool {
	found := false
	var low [64]byte
	forEachWord(userAgent, func(w string) {
		switch string(lowerInto(low[:0], w)) {
		case "adsbot-google", "adsbot-google-mobile", "adsbot-google-mobile-apps", "mediapartners-google", "apis-google":
			found = true
		}
	})
	return found
}

// browserWord reports the lower-case words that browsers' and platforms'
// User-agent headers carry around a crawler's own token: every header has
// "Mozilla" and "compatible", most "AppleWebKit (KHTML, like Gecko)". Read
// as names they would put Googlebot in a group written for
// "Mozilla/4.0 (compatible; MSIE 6.0; …)". A switch on string(b) does not
// allocate.
func browserWord(w []byte) bool {
	switch string(w) {
	case "mozilla", "compatible", "applewebkit", "webkit", "khtml", "like", "gecko",
		"chrome", "chromium", "crios", "fxios", "safari", "mobile",
		"firefox", "msie", "trident", "edg", "edge", "edga", "edgios", "opr", "opera",
		"presto", "version", "samsungbrowser", "yabrowser", "ucbrowser",
		"windows", "nt", "win64", "win32", "wow64", "x64", "x86_64", "amd64", "i686",
		"x11", "linux", "ubuntu", "android", "iphone", "ipad", "ipod", "cpu", "os",
		"mac", "macintosh", "intel", "u", "rv", "build", "wv", "k", "tablet", "touch",
		"slcc2", "net", "clr", "infopath", "http", "https", "www":
		return true
	}
	return false
}

// newMatcher merges the groups named by the token ids (starID: the "*" groups).
func (r *Robots) newMatcher(ids []int32) *Matcher {
	ix := r.index
	var gis []int32
	names := make([]string, 0, len(ids))
	for _, id := range ids {
		if id == starID {
			gis = append(gis, ix.star...)
			names = append(names, "*")
			continue
		}
		gis = append(gis, ix.groupsOf[id]...)
		names = append(names, ix.tokens[id])
	}
	slices.Sort(gis)
	gis = slices.Compact(gis)
	m := &Matcher{name: strings.Join(names, ", "), global: r.Prefs, prefs: len(r.Prefs)}
	for _, gi := range gis {
		g := r.Groups[gi]
		m.prefs += len(g.Prefs)
		m.groups = append(m.groups, g)
		m.index = append(m.index, g.index())
		if g.HasCrawlDelay && (!m.hasDelay || g.CrawlDelay < m.delay) {
			m.delay, m.hasDelay = g.CrawlDelay, true
		}
	}
	return m
}

// lowerInto appends the ASCII lower case of s to dst.
func lowerInto(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// isChunkDelim reports the bytes that end a "chunk" of a User-agent header:
// the units in which URLs and e-mail addresses are recognised.
func isChunkDelim(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', '\v', '\f', ';', '(', ')', '[', ']', ',', '"', '<', '>', '{', '}':
		return true
	}
	return false
}

// forEachWord calls fn with each word of a User-agent header, in order, in
// its original case (rule 2 of Agent).
func forEachWord(ua string, fn func(word string)) {
	for len(ua) > 0 {
		i := 0
		for i < len(ua) && isChunkDelim(ua[i]) {
			i++
		}
		j := i
		for j < len(ua) && !isChunkDelim(ua[j]) {
			j++
		}
		chunk := ua[i:j]
		ua = ua[j:]
		if strings.IndexByte(chunk, '@') >= 0 {
			continue // an e-mail address: its words name no robot
		}
		if hasPrefixFold(strings.TrimLeft(chunk, "+"), "www.") {
			continue // a host name
		}
		if k := strings.Index(chunk, "://"); k >= 0 {
			for k > 0 && isLetter(chunk[k-1]) {
				k--
			}
			chunk = chunk[:k] // keep "Foo/1.0+" of "Foo/1.0+http://..."
		}
		for len(chunk) > 0 {
			a := 0
			for a < len(chunk) && !isTokenByte(chunk[a]) {
				if chunk[a] == '/' {
					// What follows a product's '/' is its version (RFC
					// 9110 §10.1.5), not a robot's name. It ends where
					// the chunk does, or at a '+' that stands for a
					// space ("Spider/1.0+Mobile").
					a++
					for a < len(chunk) && chunk[a] != '+' {
						a++
					}
					continue
				}
				a++
			}
			b := a
			letter := false
			for b < len(chunk) && isTokenByte(chunk[b]) {
				letter = letter || isLetter(chunk[b])
				b++
			}
			if letter {
				fn(chunk[a:b])
			}
			chunk = chunk[b:]
		}
	}
}

// Matcher answers for one robot: the merged, compiled groups that apply to
// it. The zero value and nil allow everything. A Matcher is immutable and
// safe for concurrent use.
type Matcher struct {
	groups   []*Group
	index    []*groupIndex
	name     string
	delay    time.Duration
	hasDelay bool
	global   []*Preference // the preference lines outside any group
	prefs    int           // preference lines in global and groups
}

// Group names the group(s) that applied, for reports: "googlebot", "*",
// "googlebot, googlebot-image"; "" when none did.
func (m *Matcher) Group() string {
	if m == nil {
		return ""
	}
	return m.name
}

// Groups returns the groups that applied, in file order.
func (m *Matcher) Groups() []*Group {
	if m == nil {
		return nil
	}
	return m.groups
}

// CrawlDelay returns the Crawl-delay that applies and whether there is one.
// Of several merged groups with delays the shortest counts, so that a robot
// is never blamed under a delay that may not be meant for it.
func (m *Matcher) CrawlDelay() (time.Duration, bool) {
	if m == nil {
		return 0, false
	}
	return m.delay, m.hasDelay
}
