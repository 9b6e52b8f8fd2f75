package findings

import (
	"time"

	"github.com/robowatch/robowatch/agents"
)

// Verdict is the judgement on one client.
type Verdict struct {
	IP               string   `json:"ip"`
	UserAgent        string   `json:"user_agent"`
	Robot            bool     `json:"robot"`
	Name             string   `json:"name"`    // robot name or browser family (from the User-agent)
	Kind             string   `json:"kind"`    // browser, unknown, suspicious, empty, tool, crawler, scanner, junk or monitor
	Score            int      `json:"score"`   // points of evidence; RobotScore or more is a robot
	Reasons          []string `json:"reasons"` // robots-txt, rate, user-agent, behaviour: the signals that gave points
	Details          []string `json:"details"` // the evidence in words, one line per piece
	Requests         int64    `json:"requests"`
	Bytes            int64    `json:"bytes"`
	Pages            int64    `json:"pages"`  // HTML pages asked for
	Assets           int64    `json:"assets"` // images, CSS, JS, fonts asked for
	Errors           int64    `json:"errors"` // answers 4xx and 5xx
	RobotsTxtFetches int64    `json:"robots_txt_fetches"`
	Violations       int64    `json:"violations"`       // disallowed requests (robots only; 0 when not computed)
	Cached           int64    `json:"cached,omitempty"` // requests the robots.txt in force disallows and a copy the robot could hold allowed (robots only)
	// PreferenceConflicts: pages served to it (2xx) that the site's
	// content-use preferences (robots.txt's Content-Signal and
	// Content-Usage lines, a logged Content-Usage header) decline to a
	// robot of its purpose; PreferenceRule the first such preference. A
	// preference, not a crawl rule: never a violation (robots only).
	PreferenceConflicts int64      `json:"preference_conflicts,omitempty"`
	PreferenceRule      string     `json:"preference_rule,omitempty"`
	Discovery           *Discovery `json:"discovery,omitempty"` // its fetches of /llms.txt, /llms-full.txt and /.well-known/ files (robots only)
	Incidents           int        `json:"incidents"`
	First               time.Time  `json:"first"`
	Last                time.Time  `json:"last"`
	Peak                Peak       `json:"peak"`
	CrawlDelay          float64    `json:"crawl_delay,omitempty"`          // seconds, of the robot's robots.txt group
	CrawlDelayFast      bool       `json:"crawl_delay_exceeded,omitempty"` // the robot came faster than CrawlDelay allows

	// Who the client claims to be, checked (agents.Ranges.IdentifyAt, by
	// the lists of the client's own time): the operator its robot name
	// claims, and verified (VerifiedBy says how), impostor or unverified.
	// Empty for a client that claims no known operator.
	Operator   string `json:"operator,omitempty"`
	Identity   string `json:"identity,omitempty"`
	VerifiedBy string `json:"verified_by,omitempty"`
	Purpose    string `json:"purpose,omitempty"` // what its robot is for: search, ai-training, seo, … (agents.Purpose)
	Network    string `json:"network,omitempty"` // its /24 (IPv4) or /48 (IPv6), as networks[] sums them; none for a host name

	// IdentityNote says how a client seen before the range lists' history
	// was judged: "by the earliest ranges known, DAY" (verified) or
	// "ranges only from DAY" (unverified).
	IdentityNote string `json:"identity_note,omitempty"`
}

// Peak is the most requests a client made in any 1 s, 10 s and 60 s window,
// with the first second of that window.
type Peak struct {
	Per1s  int       `json:"per_1s"`
	Per10s int       `json:"per_10s"`
	Per60s int       `json:"per_60s"`
	At1s   time.Time `json:"at_1s,omitzero"` // absent when the client has no timed request
	At10s  time.Time `json:"at_10s,omitzero"`
	At60s  time.Time `json:"at_60s,omitzero"`
}

// The identities a Verdict or a RobotSummary may have (agents.Identify).
const (
	IdentityVerified   = agents.IdentityVerified
	IdentityImpostor   = agents.IdentityImpostor
	IdentityUnverified = agents.IdentityUnverified
)

// The four reasons a verdict may give, as the JSON contract spells them.
const (
	ReasonRobotsTxt = "robots-txt" // fetched /robots.txt
	ReasonRate      = "rate"       // a rapid-fire incident
	ReasonUserAgent = "user-agent" // the User-agent is not an ordinary browser
	ReasonBehaviour = "behaviour"  // requests unlike a browser's
	ReasonScanner   = "scanner"    // probes for weaknesses (scanner.go)
)

// Kinds a verdict gives beyond the User-agent's (agents.Kind).
const (
	KindScanner = "scanner" // probes for weaknesses: its User-agent, whatever it says, does not matter
	KindJunk    = "junk"    // no HTTP request at all: TLS handshakes, binary or empty request lines
	KindServer  = "server"  // the web server itself: Apache's "internal dummy connection" from loopback
)
