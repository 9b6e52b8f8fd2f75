package detect

import (
	"time"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/botauth"
	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/robots"
)

// Config holds the thresholds of the detectors. The zero value means the
// documented default for every field, so Config{} is a sensible setup.
type Config struct {
	// BurstPer10s: a client is above the rate threshold while it makes more
	// than this many requests in some 10 s window. Default 20.
	BurstPer10s int

	// SustainedPer60s: a client is also above the rate threshold while it
	// makes at least this many requests in some 60 s window. Default 60
	// (one request a second held for a minute).
	SustainedPer60s int

	// ReorderTolerance is how far back in time a record may be written
	// after a later one and still be counted in the rate windows. Default
	// 60 s (Apache stamps a request when it starts and writes it when it
	// ends; some logs are sorted per minute only).
	ReorderTolerance time.Duration

	// MinPages is the number of HTML pages a client must fetch before the
	// "no assets" and "never a Referer" behaviour signals count. Default 10.
	MinPages int

	// MinRequests is the number of requests a client must make before the
	// "mostly HEAD" and "mostly errors" behaviour signals count. Default 10.
	MinRequests int

	// HeadShare is the share of HEAD requests (0..1) above which a client
	// "mostly uses HEAD". Default 0.8.
	HeadShare float64

	// ErrorShare is the share of 4xx/5xx answers (0..1) above which a
	// client's requests are "mostly errors". Default 0.7.
	ErrorShare float64

	// FastForm: a form POSTed within this time after its page was fetched
	// was not filled in by a person. Default 2 s.
	FastForm time.Duration

	// Robots is the site's robots.txt; with neither it nor RobotsByHost,
	// violations are not computed.
	Robots *robots.Robots

	// RobotsByHost maps a virtual host (the record's VHost; port and case
	// do not matter) to its robots.txt; other hosts use Robots.
	RobotsByHost map[string]*robots.Robots

	// RobotsVersions are robots.txt histories (robots.Set.Versions): a
	// host ("" the whole log) → its versions by time, each robot request
	// judged against the copy its robot could hold (crosscheck.go). A
	// host here overrides its Robots or RobotsByHost file.
	RobotsVersions map[string][]robots.Version

	// Seed is the edges of the day before (its report's state.edges):
	// each client starts from the copy of robots.txt it held and
	// its pace of its last minute there, as one run over both days would
	// (edges.go). Nil: none.
	Seed []findings.ClientEdge

	// MaxViolationsPerClient bounds the violations kept in full for one
	// client; the rest are counted. Default 10,000. Clients whose User-agent
	// is an ordinary browser keep at most 100, and all clients together at
	// most 500,000 (see crosscheck.go).
	MaxViolationsPerClient int

	// MaxIncidentsPerClient bounds the rapid-fire incidents kept for one
	// client; the rest are counted. Default 100.
	MaxIncidentsPerClient int

	// MaxIncidentPaths bounds the distinct paths counted per incident.
	// Default 10000.
	MaxIncidentPaths int

	// MaxClients caps the clients tracked one by one. When the table is
	// full, a new client takes the place of the lightest (Space-Saving, see
	// evict.go), whose requests are folded into Result.Other: the heavy
	// clients stay, with exact counts. 0 means no cap; DefaultMaxClients
	// is what the command line uses.
	MaxClients int

	// Now is the time robowatch runs, against which records dated in the
	// future are told (see FutureTolerance); nil is time.Now.
	Now func() time.Time

	// Watch picks the clients, by address, whose drill-down (requests per
	// minute, first and last requests, robots.txt fetches) Result.Watched
	// lists; nil watches none.
	Watch func(ip string) bool

	// Ranges are the operators' published crawler addresses robot claims
	// are checked against; nil: the ones built into robowatch.
	Ranges *agents.Ranges

	// Keys are the key directories Web Bot Auth signatures are verified
	// against (--keys); nil: signatures are not checked.
	Keys *botauth.Directory

	// Events, when set, is told of robots, violations and incidents as
	// they are found (events.go), for a live run; nil: only Result says.
	Events findings.Events

	// Expire folds a client into Other once it has been idle this long (in
	// the log's time), at Advance: a follow run that lasts weeks then
	// holds the clients of the last Expire, not of every day. 0: never.
	Expire time.Duration

	// Judged, if set, is called once a Pool of several workers has judged
	// its clients, before their results are merged: what the workers needed
	// only to judge is garbage then, and the merge is where a log of very
	// many clients is largest (a caller may collect the heap there).
	Judged func()

	pooled bool // a Pool's worker, whose part of MaxClients each batch sets (Pool.cut)
}

// DefaultMaxClients is a cap on tracked clients that suits a laptop. A
// tracked client costs about 820 bytes (BenchmarkFlood10M: 195 MiB held at
// 250,000 clients after 10 million distinct ones), so the cap keeps the
// detector near 200 MB whatever the log. The heavy clients stay exact past
// it: only clients with fewer than records/250,000 requests can be folded.
const DefaultMaxClients = 250_000

// Defaults of the Config fields.
const (
	DefaultBurstPer10s            = 20
	DefaultSustainedPer60s        = 60
	DefaultReorderTolerance       = findings.DefaultReorderTolerance
	DefaultMinPages               = 10
	DefaultMinRequests            = 10
	DefaultHeadShare              = 0.8
	DefaultErrorShare             = 0.7
	DefaultFastForm               = 2 * time.Second
	DefaultMaxViolationsPerClient = 10000
	DefaultMaxIncidentsPerClient  = 100
	DefaultMaxIncidentPaths       = 10000
)

// QuickForm: a form POSTed within this time after its page was fetched, by
// a client that never loads an asset, is weak evidence (a password manager
// fills a login in a second, but on a page the browser rendered).
const QuickForm = 10 * time.Second

// browserViolationCap bounds the violations kept in full for a client with
// an ordinary browser User-agent: most such clients are people and their
// violations are dropped, so holding many would cost memory per human.
const browserViolationCap = 100

// maxStoredViolations bounds the violations kept in full by all clients
// together (about 100 bytes each plus the path), so that a site whose
// robots.txt disallows what people do every day cannot grow memory without
// limit. It counts the rows held: a client folded into Other gives its
// rows' room back. Counts stay exact past it; Result.ViolationsUnlisted says
// how many were not kept.
const maxStoredViolations = 500_000

// withDefaults returns c with every zero field set to its default.
func (c Config) withDefaults() Config {
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.BurstPer10s <= 0 {
		c.BurstPer10s = DefaultBurstPer10s
	}
	if c.SustainedPer60s <= 0 {
		c.SustainedPer60s = DefaultSustainedPer60s
	}
	if c.ReorderTolerance <= 0 {
		c.ReorderTolerance = DefaultReorderTolerance
	}
	if c.MinPages <= 0 {
		c.MinPages = DefaultMinPages
	}
	if c.MinRequests <= 0 {
		c.MinRequests = DefaultMinRequests
	}
	if c.HeadShare <= 0 || c.HeadShare > 1 {
		c.HeadShare = DefaultHeadShare
	}
	if c.ErrorShare <= 0 || c.ErrorShare > 1 {
		c.ErrorShare = DefaultErrorShare
	}
	if c.FastForm <= 0 {
		c.FastForm = DefaultFastForm
	}
	if c.MaxViolationsPerClient <= 0 {
		c.MaxViolationsPerClient = DefaultMaxViolationsPerClient
	}
	if c.MaxIncidentsPerClient <= 0 {
		c.MaxIncidentsPerClient = DefaultMaxIncidentsPerClient
	}
	if c.MaxIncidentPaths <= 0 {
		c.MaxIncidentPaths = DefaultMaxIncidentPaths
	}
	if c.MaxClients < 0 {
		c.MaxClients = 0
	}
	return c
}

// ranges is Config.Ranges or the built-in ones.
func (c *Config) ranges() *agents.Ranges {
	if c.Ranges != nil {
		return c.Ranges
	}
	return agents.DefaultRanges()
}
