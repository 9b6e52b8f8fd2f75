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
	"time"
	"unsafe"
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
	text         uaText   // the User-agent being classified (read)
	// unfiltered turns the one pass's shortcuts off (every literal is
	// searched for, every byte tried as a word's start): the rules as they
	// read, for the tests that hold the classifier to them.
	unfiltered bool
}

// Classify returns what ua says about its sender.
func (c *Classifier) Classify(ua string) Agent { return c.classifyKeep(ua, false) }

// ClassifyOwned is Classify for a string the caller keeps unchanged: the
// cache holds it, not a copy (a log of a million distinct User-agents
// would otherwise hold each twice).
func (c *Classifier) ClassifyOwned(ua string) Agent { return c.classifyKeep(ua, true) }

// ClassifyUncached is Classify for a caller that keeps the answer for each
// distinct string itself (the detector interns User-agents): it neither
// looks in the cache nor fills it, a cost a log of distinct strings would
// pay for nothing.
func (c *Classifier) ClassifyUncached(ua string) Agent {
	return c.classify(trimBlanks(ua))
}

func (c *Classifier) classifyKeep(ua string, owned bool) Agent {
	ua = trimBlanks(ua)
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

// trimBlanks is strings.Trim(ua, " \t") without the set of two bytes
// strings.Trim builds each call (a third of its 130 instructions; once
// per new User-agent).
func trimBlanks(ua string) string {
	for len(ua) > 0 && (ua[0] == ' ' || ua[0] == '\t') {
		ua = ua[1:]
	}
	for len(ua) > 0 && (ua[len(ua)-1] == ' ' || ua[len(ua)-1] == '\t') {
		ua = ua[:len(ua)-1]
	}
	return ua
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
	// the eviction is a step along a ring, far cheaper than picking a
	// random map entry.
	if len(c.order) < maxCachedAgents {
		c.order = append(c.order, key)
	} else {
		delete(c.cache, c.order[c.next])
		c.order[c.next] = key
		c.next = (c.next + 1) % maxCachedAgents
	}
	c.cache[key] = a
}

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
	// Lower-cased into a reused buffer, not a new string per User-agent,
	// which a log of distinct strings would pay for in garbage. What the
	// answer keeps of it is copied out.
	return c.detach(c.classifyText(c.read(ua), long))
}

// classifyText is classify for a User-agent at most MaxLen long (long says
// it was cut).
func (c *Classifier) classifyText(t *uaText, long bool) Agent {
	if name := exploitAgent(t); name != "" {
		return Agent{Name: name, Kind: Tool, Reason: "exploit in the User-agent: " + name, Scanner: true}
	}
	if appleMessagesPreview(t.lower) {
		return Agent{Name: appleMessagesName, Kind: Crawler, Reason: "link preview of Apple's Messages, fetched from the sender's device (Safari with facebookexternalhit/1.1 Facebot Twitterbot/1.0)"}
	}
	if a, ok := declaredAgent(t); ok {
		return a
	}
	a := c.browserAgent(t)
	if a.Kind != Browser {
		return a
	}
	a.Release, a.Released, _ = browserReleaseText(t)
	switch {
	case long:
		a.Kind, a.Reason = Suspicious, "User-agent longer than 1 KiB"
	case t.control:
		a.Kind, a.Reason = Suspicious, "control characters in User-agent"
	default:
		if why := impossibleBrowser(t); why != "" {
			a.Kind, a.Reason = Suspicious, why
		}
	}
	return a
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
