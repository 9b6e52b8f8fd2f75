// Package robots parses robots.txt files (RFC 9309 and the 1994 Standard for
// Robot Exclusion) and answers whether a robot may fetch a path.
//
// Parsing is lenient, as Google's parser is: it never fails on content, only
// on I/O, and it remembers what it had to guess so that Lint can tell the
// file's author. Matching follows RFC 9309 (longest pattern wins, Allow wins
// ties, `*` and a final `$` are special, percent-encoding normalised) and
// runs in time linear in the path for every pattern.
//
// A User-agent header from an access log is mapped to groups by the rule of
// Robots.Agent. A *Robots must not be modified or copied once Agent or
// Allowed has been called; after that, all its methods and the Matchers it
// returns are safe for concurrent use.
package robots

import (
	"sync"
	"time"
)

// MaxSize is how much of a robots.txt file is read: RFC 9309's 500 KiB floor.
const MaxSize = 500 << 10

// MaxKept is how much of a robots.txt file is kept (Text and Beyond) for a
// suggested robots.txt to start from: far past any real file, and a bound
// on what a server can make robowatch hold.
const MaxKept = 16 << 20

// Robots is a parsed robots.txt file.
type Robots struct {
	Groups   []*Group // in file order; several groups may name the same robot
	Sitemaps []string // Sitemap values, in file order
	// Prefs are the Content-Signal and Content-Usage lines before any
	// User-agent line: they apply to every robot.
	Prefs     []*Preference
	Truncated bool   // the file was longer than MaxSize and only its start was read
	HTML      bool   // the body looks like an HTML page (a "soft 404"), not a robots.txt
	Lines     int    // number of lines read
	Text      string // the part read as rules: the file, or its first MaxSize bytes (whole lines) when Truncated
	Beyond    string // the rest of the file when Truncated, not read as rules but kept: Text+Beyond is what a suggested robots.txt starts from
	Cut       bool   // the file was longer than MaxKept: Text+Beyond is only its start (whole lines)

	problems []Problem // what the parser had to guess or skip, for Lint

	prepOnce sync.Once
	index    *agentIndex

	cacheMu sync.Mutex
	cache   map[string]*Matcher
}

// Group is one group of a robots.txt: the robots it names and their rules.
type Group struct {
	Agents        []string      // User-agent values as written, one per name ("Googlebot", "*", "Mediapartners-Google*")
	Rules         []*Rule       // Allow and Disallow rules in file order; an empty Pattern decides nothing
	Prefs         []*Preference // Content-Signal and Content-Usage lines in file order: preferences, not rules
	CrawlDelay    time.Duration // the group's first valid Crawl-delay
	HasCrawlDelay bool          // the group has a valid Crawl-delay line
	Line          int           // line of the group's first User-agent line

	compileOnce sync.Once
	compiled    *groupIndex
}

// Rule is one Allow or Disallow path of a group.
type Rule struct {
	Allow   bool   // Allow rather than Disallow
	Pattern string // the path pattern as written (may hold `*` and a final `$`); "" decides nothing
	Line    int    // 1-based line number in the file
	Text    string // the line as written without its comment, e.g. "Disallow: /cgi-bin/"
}

// Decision is the answer for one path, as `robowatch check` reports it.
type Decision struct {
	Path    string // the path asked about, as given
	Allowed bool   // whether the robot may fetch Path
	Group   string // the group(s) that applied (see Matcher.Group); "" when none
	Rule    *Rule  // the deciding rule; nil when no rule decided
}

// Check answers for each path whether the robot sending userAgent may fetch it.
func (r *Robots) Check(userAgent string, paths ...string) []Decision {
	m := r.Agent(userAgent)
	out := make([]Decision, len(paths))
	for i, p := range paths {
		ok, rule := m.Allowed(p)
		out[i] = Decision{Path: p, Allowed: ok, Group: m.Group(), Rule: rule}
	}
	return out
}

// Allowed reports whether the robot sending userAgent may fetch path, and the
// deciding rule (nil when none decided). It is r.Agent(userAgent).Allowed(path).
func (r *Robots) Allowed(userAgent, path string) (bool, *Rule) {
	return r.Agent(userAgent).Allowed(path)
}

// DisallowAll returns a Robots that forbids every path to every robot, as RFC
// 9309 prescribes when robots.txt is unreachable. reason becomes the Text of
// its single rule so that reports say why.
func DisallowAll(reason string) *Robots {
	return &Robots{Groups: []*Group{{
		Agents: []string{"*"},
		Rules:  []*Rule{{Pattern: "/", Text: reason}},
	}}}
}
