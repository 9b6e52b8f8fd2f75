// Package detect decides, on one streaming pass over log records, which
// clients are robots and why, and which of their requests robots.txt forbids.
package detect

// AgentKind says what sort of software a User-agent value names.
type AgentKind uint8

// The kinds of User-agent, from most to least browser-like.
const (
	AgentBrowser    AgentKind = iota // an ordinary browser
	AgentUnknown                     // does not parse as any known browser
	AgentSuspicious                  // a browser string that cannot be real (impossible or ancient version, impersonation)
	AgentEmpty                       // "" or "-"
	AgentTool                        // HTTP library, command-line tool or headless browser
	AgentCrawler                     // a declared crawler
)

// Agent is what one User-agent value says about the software that sent it.
type Agent struct {
	Name   string    // robot name (product token: "Googlebot", "python-requests", "(empty)") or browser family
	Kind   AgentKind // what sort of software it is
	Reason string    // why it was classed so; "" for ordinary browsers
}

// AgentClassifier classifies User-agent values, each distinct value once.
// The zero value is ready to use.
type AgentClassifier struct {
	cache map[string]Agent
}

// Classify returns what ua says about its sender. STUB: replaced by the real classifier.
func (c *AgentClassifier) Classify(ua string) Agent {
	if a, ok := c.cache[ua]; ok {
		return a
	}
	a := Agent{Name: "browser", Kind: AgentBrowser}
	if ua == "" || ua == "-" {
		a = Agent{Name: "(empty)", Kind: AgentEmpty, Reason: "empty User-agent"}
	}
	if c.cache == nil {
		c.cache = make(map[string]Agent)
	}
	c.cache[ua] = a
	return a
}
