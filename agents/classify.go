// Package agents says what a User-agent header claims about the software
// that sent it: a browser of some family, a declared crawler, an HTTP library
// or tool, nothing at all, or a browser string that cannot be real. A claim
// is not proof; the package is the place for robowatch's knowledge of robots,
// so a catalogue of known robots and the checks of their claims (published IP
// ranges, DNS) belong here too.
package agents

import (
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/ua-parser/uap-go/uaparser"
)

// Kind says what sort of software a User-agent value names.
type Kind uint8

// The kinds of User-agent, from most to least browser-like.
const (
	Browser    Kind = iota // an ordinary browser
	Unknown                // does not parse as any known browser
	Suspicious             // a browser string that cannot be real (impossible version, impersonation)
	Empty                  // "" or "-"
	Tool                   // HTTP library, command-line tool or headless browser
	Crawler                // a declared crawler
)

var kindNames = [...]string{"browser", "unknown", "suspicious", "empty", "tool", "crawler"}

// String returns the kind's lower-case name, as reports print it.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Agent is what one User-agent value says about the software that sent it.
type Agent struct {
	Name   string // robot name (product token: "Googlebot", "python-requests", "(empty)") or browser family
	Kind   Kind   // what sort of software it is
	Reason string // why it was classed so; "" for ordinary browsers
	// Scanner: a Tool that names itself a vulnerability or port scanner
	// (sqlmap, Nikto, Nuclei, masscan …): what it does is probe for
	// weaknesses, whatever pages it asks for.
	Scanner bool

	// For a browser whose version robowatch knows the release of: "Chrome
	// 47" and when the next version superseded it (see Ancient), found
	// once per User-agent.
	Release  string
	Released time.Time
}

// Ancient returns why a's browser version was ancient at time at (when the
// log was written), or "" when it was not, is unknown, or at is zero.
func (a Agent) Ancient(at time.Time) string {
	if a.Release == "" {
		return ""
	}
	return ancient(a.Release, a.Released, at)
}

// Limits that keep attacker-chosen User-agents from costing unbounded time or
// memory.
const (
	// MaxLen is how much of a User-agent is read. Real browsers send
	// well under 512 bytes; a longer value is classified by its first
	// MaxLen bytes, and a browser-looking one is suspicious.
	MaxLen = 1024
	// maxCachedAgents bounds the classifier's cache: at most about
	// maxCachedAgents*MaxLen bytes of keys (32 MiB) when every
	// User-agent is huge, a few MiB for real logs.
	maxCachedAgents = 1 << 15
	// MaxParserBytes bounds the bytes one classifier hands to uap-go. Its
	// regular expressions cost 3 to 20 µs per byte (0.5 ms for a typical
	// app's User-agent, 17 ms for 1 KiB of junk), so a flood of distinct
	// junk User-agents would otherwise cost milliseconds a line. The budget
	// is a few thousand real strings, at most a few seconds of junk; past
	// it, strings that only uap-go could place are classed by their shape
	// and by the product tokens uap-go knows them by (fallback.go).
	MaxParserBytes = 256 << 10
	// maxParserInput is how much of a User-agent uap-go sees: enough for
	// every app and browser marker, and a quarter of the worst-case cost.
	maxParserInput = 256
	// maxNameLen bounds a robot name taken from a User-agent.
	maxNameLen = 64
)

// Classifier classifies User-agent values, each distinct value once: the
// answers are cached, so a log's millions of lines cost one classification per
// distinct User-agent. The zero value is ready to use. A Classifier is not
// safe for concurrent use; the uap-go parser behind it is shared by all
// classifiers and built on first need.
type Classifier struct {
	cache        map[string]Agent
	order        []string // the cache's keys in the order they came, a ring once full
	next         int      // the oldest key in order, the next to go
	parserBytes  int      // bytes handed to uap-go so far, bounded by MaxParserBytes
	reserveBytes int      // bytes handed past MaxParserBytes for real-looking strings, bounded by MaxReserveBytes
	scratch      []byte   // the lower-cased User-agent being classified: reused, never kept (see detach)
}

// Classify returns what ua says about its sender.
func (c *Classifier) Classify(ua string) Agent { return c.classifyKeep(ua, false) }

// ClassifyOwned is Classify for a string the caller keeps unchanged: the
// cache holds it, not a copy (a log of a million distinct User-agents
// would otherwise hold each twice).
func (c *Classifier) ClassifyOwned(ua string) Agent { return c.classifyKeep(ua, true) }

// ClassifyUncached is Classify for a caller that keeps the answer for each
// distinct string itself (the detector interns User-agents): it neither
// looks in the cache nor fills it, which on a log of distinct strings was a
// quarter of the cost of classifying one.
func (c *Classifier) ClassifyUncached(ua string) Agent {
	return c.classify(strings.Trim(ua, " \t"))
}

func (c *Classifier) classifyKeep(ua string, owned bool) Agent {
	ua = strings.Trim(ua, " \t")
	key := agentKey(ua)
	if a, ok := c.cache[key]; ok {
		return a
	}
	a := c.classify(ua)
	if !owned {
		key = strings.Clone(key) // ua may be a slice of a much larger line the caller reuses
	}
	c.remember(key, a)
	return a
}

// ClassifyBytes is Classify for a User-agent still in a read buffer; a cache
// hit does not allocate.
func (c *Classifier) ClassifyBytes(ua []byte) Agent {
	if len(ua) <= MaxLen {
		if a, ok := c.cache[string(ua)]; ok {
			return a
		}
	}
	return c.ClassifyOwned(string(ua)) // string(ua) is a copy of its own
}

// agentKey is the cache key of ua: the answer depends only on the first
// MaxLen bytes and on whether there are more, so one byte past the
// limit stands for all of them.
func agentKey(ua string) string {
	if len(ua) > MaxLen+1 {
		return ua[:MaxLen+1]
	}
	return ua
}

func (c *Classifier) remember(key string, a Agent) {
	if c.cache == nil {
		c.cache = make(map[string]Agent)
	}
	// Bounded first in, first out: frequent User-agents come back in, and
	// the eviction is a step along a ring, where picking a random map entry
	// cost a third of the time of a new string on a log of distinct ones.
	if len(c.order) < maxCachedAgents {
		c.order = append(c.order, key)
	} else {
		delete(c.cache, c.order[c.next])
		c.order[c.next] = key
		c.next = (c.next + 1) % maxCachedAgents
	}
	c.cache[key] = a
}

// WarmUp starts building uap-go's parser in the background, for a run that
// will classify User-agents: the tens of milliseconds it takes then overlap
// the reading of the first lines instead of stalling the first browser
// string uap-go must place.
func WarmUp() { go uapParser() }

// uapParser is uap-go's parser, built once per process on first need: building
// it compiles about a thousand regular expressions (tens of milliseconds).
// Its own cache is kept tiny, since Classifier caches the answers.
var uapParser = sync.OnceValue(func() *uaparser.Parser {
	p, err := uaparser.New(uaparser.WithCacheSize(8))
	if err != nil {
		return nil // classify without it: undecided strings become unknown
	}
	return p
})

// classify classifies ua, trimmed of surrounding blanks.
func (c *Classifier) classify(ua string) Agent {
	if ua == "" || ua == "-" || ua == `"-"` {
		return Agent{Name: "(empty)", Kind: Empty, Reason: "empty User-agent"}
	}
	long := len(ua) > MaxLen
	if long {
		ua = ua[:MaxLen]
	}
	if strings.IndexByte(ua, 0x1b) >= 0 {
		// Terminal escape sequences are no part of a name: read without
		// them, "\x1b[31mRedBot/1.0" is RedBot, not "31mRedBot". A browser
		// string that carried them is suspicious all the same.
		a := c.classify(withoutEscapes(ua))
		if a.Kind == Browser {
			a.Kind, a.Reason = Suspicious, "control characters in User-agent"
		}
		return a
	}
	// Lower-casing into a reused buffer instead of a new string per
	// User-agent: on a log of distinct strings that garbage was a tenth of
	// everything allocated. What the answer keeps of it is copied out.
	lower := c.lowerInto(ua)
	return c.detach(c.classifyLower(ua, lower, long))
}

// classifyLower is classify for a User-agent at most MaxLen long (long says
// it was cut) and its lower-cased form.
func (c *Classifier) classifyLower(ua, lower string, long bool) Agent {
	if name := exploitAgent(lower); name != "" {
		return Agent{Name: name, Kind: Tool, Reason: "exploit in the User-agent: " + name, Scanner: true}
	}
	if appleMessagesPreview(lower) {
		return Agent{Name: appleMessagesName, Kind: Crawler, Reason: "link preview of Apple's Messages, fetched from the sender's device (Safari with facebookexternalhit/1.1 Facebot Twitterbot/1.0)"}
	}
	if a, ok := declaredAgent(ua, lower); ok {
		return a
	}
	a := c.browserAgent(ua, lower)
	if a.Kind != Browser {
		return a
	}
	a.Release, a.Released, _ = browserReleaseLower(lower)
	switch {
	case long:
		a.Kind, a.Reason = Suspicious, "User-agent longer than 1 KiB"
	case uaHasControl(ua):
		a.Kind, a.Reason = Suspicious, "control characters in User-agent"
	default:
		if why := impossibleBrowser(lower); why != "" {
			a.Kind, a.Reason = Suspicious, why
		}
	}
	return a
}

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
func exploitAgent(lower string) string {
	switch {
	case strings.HasPrefix(strings.TrimLeft(lower, " "), "() {"):
		return "Shellshock"
	case strings.Contains(lower, "${jndi:"), log4jObfuscated(lower):
		return "Log4Shell"
	}
	return ""
}

// log4jObfuscated reports a Log4j lookup nested to hide "jndi" from
// filters, as scanners sent it in December 2021 and since:
// "${${::-j}${::-n}${::-d}${::-i}:${::-l}${::-d}${::-a}${::-p}://…}",
// "${${lower:j}ndi:…}", "${${env:X:-j}ndi…}". Read as a browser string it
// was "no known browser" named "-j", and no scanner.
func log4jObfuscated(lower string) bool {
	for _, s := range [...]string{"${${", "${::-", "${lower:", "${upper:"} {
		if strings.Contains(lower, s) {
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
func declaredAgent(ua, lower string) (Agent, bool) {
	if tok, at := findToken(lower); tok != nil {
		if name, ok := androidApp(ua, lower, at, tok); ok {
			return Agent{Name: name, Kind: Browser}, true
		}
		name := tokenName(ua, at, tok)
		if tok.kind == Crawler {
			return Agent{Name: name, Kind: Crawler, Reason: "declared " + tok.what + " token " + name}, true
		}
		return Agent{Name: name, Kind: Tool, Reason: tok.what + " " + name, Scanner: tok.what == "scanner"}, true
	}
	if e, ok := catalogued(lower); ok {
		if e.Purpose == "library" {
			return Agent{Name: e.Name, Kind: Tool, Reason: "catalogued tool " + e.Name}, true
		}
		return Agent{Name: e.Name, Kind: Crawler, Reason: "catalogued robot " + e.Name + " (" + e.Purpose + ")"}, true
	}
	if k, _, name := roleWord(ua, lower); k >= 0 {
		w := &agentRoleWords[k]
		if w.kind == Crawler {
			return Agent{Name: name, Kind: Crawler, Reason: "declared crawler token " + name + ` ("` + w.word + `")`}, true
		}
		return Agent{Name: name, Kind: Tool, Reason: "tool token " + name + ` ("` + w.word + `")`}, true
	}
	if what := contactAddress(lower); what != "" {
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

// tokensByFirstByte indexes agentTokens by their first byte, so that
// findToken looks at a handful of candidates per word instead of searching
// the whole User-agent for every token.
var tokensByFirstByte = func() (idx [256][]*agentToken) {
	for i := range agentTokens {
		t := &agentTokens[i]
		idx[t.token[0]] = append(idx[t.token[0]], t)
	}
	return idx
}()

// tokenPairs are the first two bytes of agentTokens.
var tokenPairs = func() (s *pairSet) {
	s = new(pairSet)
	for i := range agentTokens {
		s.add(agentTokens[i].token)
	}
	return s
}()

// findToken returns the table token found earliest in lower at a word start,
// the longest one when several start at the same byte; a language runtime's
// token only when nothing else matches.
// roleWord finds the first of agentRoleWords (in table order) that lower
// holds as a word that names the product, and its first such place; k is
// -1 when none does. One pass over lower, with the words indexed by their
// first byte: a word searched for in turn was a third of the time spent on
// a new User-agent.
func roleWord(ua, lower string) (k, at int, name string) {
	k = -1
	idx := roleWordsByFirstByte()
	pairs := roleWordPairs()
	for i := 0; i < len(lower); i++ {
		if !pairs.mayStart(lower, i) {
			continue
		}
		for _, j := range idx[lower[i]] {
			if k >= 0 && j >= k {
				continue // an earlier word in the table already matched
			}
			w := &agentRoleWords[j]
			end := i + len(w.word)
			if !strings.HasPrefix(lower[i:], w.word) ||
				w.atWordStart && i > 0 && uaLetter(lower[i-1]) ||
				w.atWordEnd && end < len(lower) && (uaLetter(lower[end]) || uaDigit(lower[end])) ||
				w.word == "bot" && i >= 2 && lower[i-2:i] == "cu" || // CUBOT, a phone maker
				inAddress(lower, i) || compared(lower, i) {
				continue
			}
			n := productName(ua, i, end)
			if w.word == "http" && (strings.EqualFold(n, "http") || strings.EqualFold(n, "https")) {
				continue // "(HTTPS)" in a phone browser's comment, not a product
			}
			if strings.HasPrefix(strings.ToLower(n), w.word) {
				// "Superfeedr bot/2.0", "(compatible; Yahoo Ad monitoring; …)": the
				// role word is not the name; the product before it is.
				if r := robotName(ua, lower); r != "(unknown)" && r != "Mozilla" {
					n = r
				}
			}
			k, at, name = j, i, n
		}
	}
	return k, at, name
}

// roleWordsByFirstByte indexes agentRoleWords by their first byte.
var roleWordsByFirstByte = sync.OnceValue(func() *[256][]int {
	idx := new([256][]int)
	for j, w := range agentRoleWords {
		idx[w.word[0]] = append(idx[w.word[0]], j)
	}
	return idx // a pointer: the table by value was a 6 KiB copy per User-agent classified
})

// roleWordPairs are the first two bytes of agentRoleWords.
var roleWordPairs = sync.OnceValue(func() *pairSet {
	s := new(pairSet)
	for _, w := range agentRoleWords {
		s.add(w.word)
	}
	return s
})

// compared reports whether the product around lower[i] follows "like " or
// "not ": "like FeedFetcher-Google" (Feedly, Inoreader), "not Googlebot"
// compare with a crawler, they do not claim to be it.
func compared(lower string, i int) bool {
	for i > 0 && (uaLetter(lower[i-1]) || uaDigit(lower[i-1]) || lower[i-1] == '-' || lower[i-1] == '_' || lower[i-1] == '.') {
		i--
	}
	return strings.HasSuffix(lower[:i], "like ") || strings.HasSuffix(lower[:i], "not ")
}

func findToken(lower string) (*agentToken, int) {
	var runtime *agentToken
	runtimeAt := 0
	for i := 0; i < len(lower); i++ {
		if i > 0 && uaLetter(lower[i-1]) || !tokenPairs.mayStart(lower, i) {
			continue
		}
		var best *agentToken
		for _, t := range tokensByFirstByte[lower[i]] {
			if strings.HasPrefix(lower[i:], t.token) && (best == nil || len(t.token) > len(best.token)) {
				best = t
			}
		}
		switch {
		case best == nil:
		case compared(lower, i):
		case best.what != runtimeClient:
			return best, i
		case runtime == nil:
			runtime, runtimeAt = best, i
		}
	}
	return runtime, runtimeAt
}

// tokenName is the robot name for table token t found at byte at of ua: the
// product token around it as written ("Googlebot-Image"), or the table's
// spelling when the product token is just the token ("go-http-client" →
// "Go-http-client") or the token spans words ("Screaming Frog SEO Spider").
func tokenName(ua string, at int, t *agentToken) string {
	tok := strings.TrimRight(t.token, "/(: ")
	if strings.ContainsAny(tok, " !") {
		return t.name
	}
	name := productName(ua, at, at+len(tok))
	if name == "" || strings.EqualFold(name, tok) {
		return t.name
	}
	return name
}

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

// inAddress reports whether byte i of lower lies inside a URL or an e-mail
// address ("http://example.com/robot.html") or a device build id
// ("Build/S1RSS32"), where role words say nothing about the product itself.
func inAddress(lower string, i int) bool {
	start, end := i, i
	for start > 0 && !uaFieldSep(lower[start-1]) {
		start--
	}
	for end < len(lower) && !uaFieldSep(lower[end]) {
		end++
	}
	f := lower[start:end]
	return strings.HasPrefix(f, "build/") || strings.Contains(f, "://") || strings.HasPrefix(f, "+") || strings.HasPrefix(f, "www.") ||
		strings.Contains(f, ".com") || strings.IndexByte(f, '@') >= 0
}

// contactAddress says whether lower carries a contact URL or e-mail address,
// and which.
func contactAddress(lower string) string {
	if strings.Contains(lower, "http://") || strings.Contains(lower, "https://") ||
		strings.Contains(lower, "+http") || strings.Contains(lower, "mailto:") {
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
	for from := 0; ; {
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

// browserFamilies maps product tokens to browser families, most specific
// first: Edge and Opera also say "Chrome/", Chrome also says "Safari/". It
// names the browsers that carry almost all human traffic, so that uap-go is
// asked only about the rest.
var browserFamilies = []struct{ token, family string }{
	{"edg/", "Edge"}, {"edge/", "Edge"}, {"edga/", "Edge"}, {"edgios/", "Edge"},
	{"opr/", "Opera"}, {"opios/", "Opera"}, {"opera/", "Opera"}, {"opera mini", "Opera"}, {"opera mobi", "Opera"},
	{"samsungbrowser/", "Samsung Internet"}, {"yabrowser/", "Yandex Browser"}, {"ucbrowser", "UC Browser"},
	{"vivaldi/", "Vivaldi"}, {"silk/", "Amazon Silk"},
	{"firefox/", "Firefox"}, {"fxios/", "Firefox"},
	{"crios/", "Chrome"}, {"chromium/", "Chromium"}, {"chrome/", "Chrome"},
	{"msie ", "IE"}, {"trident/", "IE"},
	{"safari/", "Safari"},
}

// familiesByFirstByte indexes browserFamilies by their tokens' first byte,
// and familyPairs holds the tokens' first two bytes.
var familiesByFirstByte, familyPairs = func() (*[256][]int, *pairSet) {
	idx, pairs := new([256][]int), new(pairSet)
	for j, f := range browserFamilies {
		idx[f.token[0]] = append(idx[f.token[0]], j)
		pairs.add(f.token)
	}
	return idx, pairs
}()

// browserFamily returns the family of the first of browserFamilies, in
// table order, whose token lower contains. It reads lower once: a token
// searched for at a time read a Chrome string some seventeen times.
func browserFamily(lower string) (string, bool) {
	best := len(browserFamilies)
	for i := 0; i < len(lower); i++ {
		if !familyPairs.mayStart(lower, i) {
			continue
		}
		for _, j := range familiesByFirstByte[lower[i]] {
			if j < best && strings.HasPrefix(lower[i:], browserFamilies[j].token) {
				best = j
			}
		}
	}
	if best == len(browserFamilies) {
		return "", false
	}
	return browserFamilies[best].family, true
}

// browserAgent classes a User-agent that declares no robot. The common
// browsers are named by a table; the rest are asked of uap-go, which knows
// hundreds of browsers, apps and media players and labels some crawlers
// "Spider". A string neither knows is still a browser or an app when it has
// the shape of one: a Mozilla/ prefix with a layout engine, or a platform it
// runs on ("Android", "Windows", "AmigaOS"). Scripts and tools name neither.
func (c *Classifier) browserAgent(ua, lower string) Agent {
	mozilla := strings.HasPrefix(lower, "mozilla/") || strings.HasPrefix(lower, "opera/")
	engine := mozilla && hasEngine(lower)
	if engine {
		if family, ok := browserFamily(lower); ok {
			return Agent{Name: family, Kind: Browser}
		}
		// In-app browsers (Facebook's, Instagram's …) are most of what the
		// family table leaves; uap-go would give them the same names from
		// the same tokens at a fraction of a millisecond each, which a log
		// of 100,000 distinct app strings cannot afford.
		if name, ok := tokenFamily(ua, lower); ok {
			return Agent{Name: name, Kind: Browser}
		}
	}
	in := ua[:min(len(ua), maxParserInput)]
	plausible := looksReal(lower)
	p := c.parser(len(in), plausible)
	if p != nil {
		if family := p.ParseUserAgent(in).Family; family != "Other" && family != "" {
			name := cleanName(family)
			if lf := strings.ToLower(family); strings.Contains(lf, "bot") || strings.Contains(lf, "spider") || strings.Contains(lf, "crawl") {
				return Agent{Name: name, Kind: Crawler, Reason: "uap-go names crawler " + name}
			}
			return Agent{Name: name, Kind: Browser}
		}
		if name, ok := tokenFamily(ua, lower); ok {
			return Agent{Name: name, Kind: Browser} // a browser uap-go does not know (w3m)
		}
	} else if name, ok := clientFamily(ua, lower, engine); ok {
		// The budget is spent: the browsers and apps that only uap-go
		// would name are known by their tokens (see fallback.go).
		return Agent{Name: name, Kind: Browser}
	}
	// A product with a version is what a script's string lacks; MediaTek's
	// feature-phone browsers send none ("MAXX_MAUI WAP Browser", "Maui
	// Browser"), their platform's name standing for both.
	if engine || (mozilla || strings.IndexByte(lower, '/') > 0 || featurePhone(lower)) && hasPlatform(lower) {
		if mozilla && !engine && bareMozilla(lower) {
			// "Mozilla/5.0 (Windows NT 10.0; Win64; x64)": every browser since
			// 1998 names its engine; this is a script's idea of a browser.
			return Agent{Name: "Mozilla", Kind: Suspicious, Reason: "Mozilla/ and a platform but no browser engine"}
		}
		name := robotName(ua, lower)
		if name == "(unknown)" {
			name = "Mozilla"
		}
		return Agent{Name: name, Kind: Browser}
	}
	if p = c.parser(len(in), plausible); p != nil && p.ParseDevice(in).Family == "Spider" {
		name := robotName(ua, lower)
		return Agent{Name: name, Kind: Crawler, Reason: "uap-go labels " + name + " a Spider"}
	}
	reason := "not a known browser"
	if p == nil {
		reason = "not a known browser (User-agent parser budget spent)"
	}
	return Agent{Name: robotName(ua, lower), Kind: Unknown, Reason: reason}
}

// parser returns uap-go's parser for a parse of n bytes, or nil when the
// classifier's budget is spent.
//
// Strings that look like a real client's (plausible: see looksReal) may go on
// past the budget, on a reserve of their own: junk, which a flood is made
// of, cannot then spend what the people after it need. Junk made to look
// real spends the reserve too; past both, clientFamily stands in for uap-go,
// so that a browser or an in-app browser gets the same kind (and mostly the
// same name) whether it comes first or after 100,000 junk strings.
func (c *Classifier) parser(n int, plausible bool) *uaparser.Parser {
	switch {
	case c.parserBytes+n <= MaxParserBytes:
		c.parserBytes += n
	case plausible && c.reserveBytes+n <= MaxReserveBytes:
		c.parserBytes, c.reserveBytes = MaxParserBytes, c.reserveBytes+n
	default:
		c.parserBytes = MaxParserBytes
		return nil
	}
	return uapParser()
}

// MaxReserveBytes bounds what uap-go is handed past MaxParserBytes for
// strings that look like a real client's: two thousand more strings or so,
// and for junk made to look real about three seconds a classifier at the
// 11 µs a byte uap-go took for "Mozilla/5.0 (compatible; botN/1.0; xbotN)"
// (1 MiB made a flood of 100,000 of them cost 17.5 s, 9.4 s now).
const MaxReserveBytes = 256 << 10

// looksReal reports whether a lower-cased User-agent has what real clients'
// have and random junk has not: a product token with a version ("lynx/2.8",
// "cfnetwork/1410"), a platform or a browser engine.
func looksReal(lower string) bool {
	if hasPlatform(lower) || hasEngine(lower) {
		return true
	}
	for i := 1; i+1 < len(lower); i++ {
		if lower[i] == '/' && uaDigit(lower[i+1]) && uaLetter(lower[i-1]) {
			return true
		}
	}
	return false
}

// platforms are the systems that browsers and apps name in their User-agent
// comment; a library's default User-agent names none. They match at a word
// start ("Microsoft" does not name CrOS).
var platforms = [...]string{
	"windows", "macintosh", "mac os", "x11", "linux", "android", "iphone", "ipad", "ipod", "cpu os",
	"darwin", "cros ", "freebsd", "openbsd", "netbsd", "sunos", "blackberry", "bb10", "symbian",
	"series40", "series60", "midp", "j2me", "webos", "web0s", "tizen", "kaios", "playstation",
	"nintendo", "xbox", "smart-tv", "smarttv", "roku", "amiga", "morphos", "beos", "haiku", "os/2",
	"maui", "wap browser", // MediaTek's feature phones ("WAP Browser/MAUI", "MAXX_MAUI WAP Browser")
}

// featurePhone reports whether lower names MediaTek's feature-phone
// platform (MAUI) or its WAP browser, the last two platforms.
func featurePhone(lower string) bool {
	return hasWordStart(lower, "maui") || hasWordStart(lower, "wap browser")
}

// bareMozilla reports whether lower is only "mozilla/x (comment)", without
// the "compatible; Browser x" of old browsers that had no engine token.
func bareMozilla(lower string) bool {
	i, j := strings.IndexByte(lower, '('), strings.IndexByte(lower, ')')
	return (i < 0 || j > i && strings.TrimSpace(lower[j+1:]) == "") && !strings.Contains(lower, "compatible")
}

func hasPlatform(lower string) bool {
	for _, p := range platforms {
		if hasWordStart(lower, p) {
			return true
		}
	}
	return false
}

// hasWordStart reports whether lower holds w where no letter comes before it.
func hasWordStart(lower, w string) bool {
	for from := 0; ; {
		i := strings.Index(lower[from:], w)
		if i < 0 {
			return false
		}
		i += from
		if i == 0 || !uaLetter(lower[i-1]) {
			return true
		}
		from = i + 1
	}
}

// hasEngine reports whether lower names a browser layout engine, as every
// browser since Netscape does.
func hasEngine(lower string) bool {
	for _, e := range [...]string{"applewebkit", "gecko", "trident/", "msie ", "presto/", "khtml"} {
		if strings.Contains(lower, e) {
			return true
		}
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

// misspellings are tokens no browser writes, from browser strings copied
// by hand into scripts: "Mozlila/5.0 (Linux; Android 7.0; SM-G892A
// Bulid/NRD90M; wv) … Moblie Safari/537.36", the string of exploit scripts
// on GitHub (WordPress upload and shell scanners), read by its Chrome
// token as Chrome Mobile WebView.
var misspellings = [...]string{"mozlila/", "mozila/", "mozzila/", "mozlla/", "mozillla/", " bulid/", " moblie safari/"}

// misspelledToken returns the misspelled token of lower, "" if none.
func misspelledToken(lower string) string {
	for _, m := range misspellings {
		if strings.Contains(lower, m) {
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
func firefoxRevision(lower string) string {
	i := strings.Index(lower, "gecko/20100101 firefox/")
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
func impossibleBrowser(lower string) string {
	if strings.ContainsAny(lower, "'\"<>`") || strings.Contains(lower, "${") {
		return "quote, bracket or ${ in a browser string: an injection attempt"
	}
	if t := misspelledToken(lower); t != "" {
		return "misspelled " + t + ": a script's copy of a browser string"
	}
	if why := firefoxRevision(lower); why != "" {
		return why
	}
	if i := strings.Index(lower, "mozilla/"); i > 0 {
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
	if why := chromeForgery(lower); why != "" {
		return why
	}
	nt, ntOK := windowsNT(lower)
	if ntOK && !validNT[nt] {
		return "Windows NT " + nt + " does not exist"
	}
	if v, ok := versionAfter(lower, "msie "); ok {
		if v > 11 {
			return "MSIE " + strconv.Itoa(v) + " does not exist"
		}
		if strings.Contains(lower, "android") && !strings.Contains(lower, "windows phone") {
			return "MSIE on Android"
		}
	}
	// The system-support limits are those of Google's Chrome and Mozilla's
	// Firefox; forks (which add their own product token) sometimes kept
	// old systems alive longer, so only the unmodified strings are judged.
	chrome, isChrome := versionAfter(lower, "chrome/")
	isChrome = isChrome && pureChrome(lower)
	firefox, isFirefox := versionAfter(lower, "firefox/")
	isFirefox = isFirefox && pureFirefox(lower)
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
	if mac, ok := macOSMinor(lower); ok {
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
// may mix tokens.
func chromeForgery(lower string) string {
	if _, ok := versionAfter(lower, "chrome/"); !ok {
		return ""
	}
	if !strings.Contains(lower, "applewebkit/") {
		return "Chrome/ without AppleWebKit/, which every Chrome writes"
	}
	i, j := strings.IndexByte(lower, '('), strings.IndexByte(lower, ')')
	if i < 0 || j < i {
		return ""
	}
	comment := lower[i:j]
	if (strings.Contains(comment, "windows nt") || strings.Contains(comment, "mac os x")) &&
		strings.Contains(comment, "rv:") {
		return "Gecko's rv: in a Chrome string, which only Firefox and IE 11 write"
	}
	return ""
}

// pureChrome reports whether lower is Google Chrome's own form, ending
// "(KHTML, like Gecko) Chrome/v [Mobile ]Safari/v" with no fork's token.
func pureChrome(lower string) bool {
	const key = "like gecko) chrome/"
	i := strings.Index(lower, key)
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
func pureFirefox(lower string) bool {
	const key = "gecko/20100101 firefox/"
	i := strings.Index(lower, key)
	if i < 0 {
		return false
	}
	rest := lower[i+len(key):]
	return rest != "" && uaVersionLen(rest) == len(rest)
}

// uaVersionLen returns the length of the version ("120.0.6099.109") at the
// start of s.
func uaVersionLen(s string) int {
	n := 0
	for n < len(s) && (uaDigit(s[n]) || s[n] == '.') {
		n++
	}
	return n
}

// validNT lists the Windows NT versions that exist (6.4 was the Windows 10
// preview).
var validNT = map[string]bool{
	"3.1": true, "3.5": true, "3.51": true, "4.0": true, "5.0": true, "5.01": true, "5.1": true,
	"5.2": true, "6.0": true, "6.1": true, "6.2": true, "6.3": true, "6.4": true, "10.0": true,
}

// windowsNT returns the "major.minor" after "windows nt " (a build number
// after a second dot, as in "10.0.18362", is dropped).
func windowsNT(lower string) (string, bool) {
	i := strings.Index(lower, "windows nt ")
	if i < 0 {
		return "", false
	}
	s := lower[i+len("windows nt "):]
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
func macOSMinor(lower string) (int, bool) {
	i := strings.Index(lower, "mac os x 10")
	if i < 0 {
		return 0, false
	}
	s := lower[i+len("mac os x 10"):]
	if s == "" || s[0] != '_' && s[0] != '.' {
		return 0, false
	}
	return uaLeadingInt(s[1:])
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

// lowerInto returns s lower-cased in ASCII: s itself when it has no upper
// case, else a string over c.scratch, valid until the next call.
func (c *Classifier) lowerInto(s string) string {
	i := 0
	for i < len(s) && !('A' <= s[i] && s[i] <= 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := append(c.scratch[:0], s...)
	for j := i; j < len(b); j++ {
		if 'A' <= b[j] && b[j] <= 'Z' {
			b[j] += 'a' - 'A'
		}
	}
	c.scratch = b
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// detach gives a's strings storage of their own where they are slices of
// the scratch buffer, which the next User-agent overwrites.
func (c *Classifier) detach(a Agent) Agent {
	if len(c.scratch) == 0 {
		return a
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(c.scratch)))
	hi := lo + uintptr(cap(c.scratch))
	for _, s := range []*string{&a.Name, &a.Reason, &a.Release} {
		if p := uintptr(unsafe.Pointer(unsafe.StringData(*s))); len(*s) > 0 && p >= lo && p < hi {
			*s = strings.Clone(*s)
		}
	}
	return a
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

// withoutEscapes is s without its terminal escape sequences: CSI ("ESC [
// 31 m"), OSC ("ESC ] 8 ; ; url BEL" or ending "ESC \\") and two-byte
// ones; other control bytes stay, for classify to see.
func withoutEscapes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != 0x1b {
			b.WriteByte(s[i])
			continue
		}
		switch {
		case i+1 < len(s) && s[i+1] == '[':
			j := i + 2
			for j < len(s) && s[j] >= 0x20 && s[j] <= 0x3f {
				j++
			}
			i = j // the final byte, or the end
		case i+1 < len(s) && s[i+1] == ']':
			j := i + 2
			for j < len(s) && s[j] != 0x07 && !(s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\') {
				j++
			}
			if j < len(s) && s[j] == 0x1b {
				j++
			}
			i = j
		default:
			i++ // ESC and the byte after it
		}
	}
	return b.String()
}

func uaHasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 && s[i] != '\t' || s[i] == 0x7f {
			return true
		}
	}
	return false
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
