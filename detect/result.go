package detect

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/robowatch/robowatch/agents"
)

// Result is the outcome of a pass: a verdict per client, the robots by
// name, the robots.txt violations and the rapid-fire incidents, each in a
// deterministic order. Its slices carry the names of the JSON contract; the
// report package puts them under the top-level object with the summary.
type Result struct {
	Clients    ClientList     `json:"clients"`    // every client, most requests first
	Robots     []RobotSummary `json:"robots"`     // robot clients grouped by robot name, most requests first
	Violations ViolationList  `json:"violations"` // stored violations of robot clients, by time
	Incidents  []Incident     `json:"incidents"`  // rapid-fire incidents, worst first (Severity), then by start time

	Records    int64     `json:"records"`     // records added (folded ones included)
	First      time.Time `json:"first"`       // earliest record time
	Last       time.Time `json:"last"`        // latest record time
	RobotCount int       `json:"robot_count"` // clients judged robots

	// DistinctClients is how many distinct clients (IP + User-agent) the
	// log had: exact when nothing was folded, else estimated
	// (HyperLogLog, about 2% off) and ClientsEstimated is set.
	DistinctClients  int64 `json:"distinct_clients"`
	ClientsEstimated bool  `json:"clients_estimated"`
	LateRecords      int64 `json:"late_records"` // records later than ReorderTolerance: in totals, not in rate windows

	// FutureRecords are records dated more than FutureTolerance after the
	// time robowatch runs (Config.Now): in their clients' totals, not in
	// rates, the timeline, the time span or the log's clock.
	FutureRecords int64 `json:"future_records"`

	// ViolationsChecked is false when no robots.txt was given: violations
	// were not computed, and the report must say so.
	ViolationsChecked bool  `json:"violations_checked"`
	Unchecked         int64 `json:"unchecked_records"`  // records of hosts with no robots.txt given (only HOST=FILE ones were)
	ViolationCount    int64 `json:"violation_count"`    // violations of robot clients, stored or not
	ViolationsDropped int64 `json:"violations_dropped"` // violations counted but not listed: past a bound, or of a client folded into Other
	IncidentCount     int   `json:"incident_count"`     // incidents, stored or not
	IncidentsDropped  int   `json:"incidents_dropped"`  // incidents counted but not listed: past a bound, or of a client folded into Other

	Other Other `json:"other"` // clients beyond Config.MaxClients, folded together

	// folded are the networks Other's clients came from, which a block
	// list never aggregates; nil when not known (a merged report), and
	// then none with anything in Other is.
	folded *foldedNetworks

	// JunkConnections are the requests of clients that never sent an HTTP
	// request (TLS handshakes on the plain port, binary or empty request
	// lines), from JunkAddresses addresses: counted here, listed as clients
	// of kind junk, never as robots.
	JunkConnections int64 `json:"junk_connections"`
	JunkAddresses   int   `json:"junk_addresses"`

	// RobotRequests and RobotBytes are what the robot clients asked for
	// and were sent (tracked ones; Other's are not split by verdict).
	RobotRequests int64 `json:"robot_requests"`
	RobotBytes    int64 `json:"robot_bytes"`

	// BytesSaturated says that some byte total (a client's, an incident's,
	// Other's) reached math.MaxInt64 and stopped there rather than wrap
	// negative: hostile or corrupt sizes; such a total is a lower bound.
	BytesSaturated bool `json:"bytes_saturated"`

	Watched      []ClientTimeline `json:"watched,omitempty"` // drill-downs of the clients Config.Watch picked
	WatchDropped int64            `json:"watch_dropped"`     // clients Config.Watch picked past the first 1,000, tracked without a drill-down

	Timeline Timeline `json:"timeline"` // requests over time, robots and humans
	// What the headline says of all tracked clients, found as Result
	// judges them, so that a report need not judge them all again: their
	// bytes, and the clients of kind scanner with the first (most
	// requests) of them.
	ClientBytes  int64  `json:"-"`
	Scanners     int    `json:"-"`
	FirstScanner string `json:"-"`
	firstScanner *client

	// RobotBuckets is every robot name's timeline (Timeline.ByRobot shows
	// the top ones): the JSON report's state, for a merge.
	RobotBuckets []RobotBuckets `json:"-"`
	// Edges are the robot clients' edges, for a merge of days and a run
	// of the next day (edges.go), by address and User-agent.
	Edges []ClientEdge `json:"-"`

	Ranges []agents.RangeFile `json:"ranges"` // the published range files identities were checked against, dated
	// RangesNewer: the log starts before the history of the range lists
	// begins (agents.Ranges.NewerThan): its records before then are judged
	// by the earliest lists known, and an address outside them is
	// unverified, not an impostor.
	RangesNewer bool `json:"ranges_newer_than_log"`
	// RangesEarliest: the robot clients seen before the lists' history,
	// judged by the earliest lists known (Verdict.IdentityNote).
	RangesEarliest int `json:"ranges_earliest"`

	// AssetsElsewhere: the log holds next to no image, style, script or
	// font requests for its pages (fewer than one per 100 pages, over 100
	// pages): a front server or CDN serves them, so "pages and no assets"
	// was set aside as a signal for every client of the log.
	AssetsElsewhere bool `json:"assets_elsewhere"`
	// LogPages and LogAssets are the counts that decided it: page
	// requests, and asset requests but the favicon.
	LogPages  int64 `json:"-"`
	LogAssets int64 `json:"-"`

	Networks []NetworkSummary `json:"networks"` // the clients by /24 (IPv4) and /48 (IPv6), most requests first

	Operators []OperatorSummary `json:"operators"` // the verified crawlers by operator, most requests first

	DNSChecked int `json:"dns_checked"` // addresses whose claim was checked by DNS (Config.DNS)

	Panels Panels `json:"panels"` // answers and paths of all robots and of people
}

// Panels is what all robots together, and people, were answered, and the
// paths robots asked for most (panel.go).
type Panels struct {
	RobotStatus        StatusCounts `json:"robot_status"`
	HumanStatus        StatusCounts `json:"human_status"`
	RobotPaths         []PathCount  `json:"robot_paths"`
	RobotPathsOtherMax int64        `json:"robot_paths_other_max"` // the most requests a path not in robot_paths may have had
	// Uncounted are requests of clients that kept no panel (its memory
	// bound was reached): in no status or path count. Unlisted are
	// requests to paths first seen past the bound of distinct paths: in
	// the status counts, in no path list.
	Uncounted int64 `json:"uncounted"`
	Unlisted  int64 `json:"unlisted"`

	AllRobotPaths  []PathCount `json:"-"` // the whole list RobotPaths was cut from, for a merge
	RobotPathsBase int64       `json:"-"` // the most a path not in it had
}

// setRobotPaths sets the robots' paths from their whole list.
func (p *Panels) setRobotPaths(all []PathCount, base int64) {
	p.AllRobotPaths, p.RobotPathsBase = all, base
	p.RobotPaths, p.RobotPathsOtherMax = TopPaths(all, base)
}

// setTopPaths sets a row's paths from their whole list.
func (s *RobotSummary) setTopPaths(all []PathCount, base int64) {
	s.AllTopPaths, s.TopPathsBase = all, base
	s.TopPaths, s.TopPathsOtherMax = TopPaths(all, base)
}

// The identities a Verdict or a RobotSummary may have (agents.Identify).
const (
	IdentityVerified   = agents.IdentityVerified
	IdentityImpostor   = agents.IdentityImpostor
	IdentityUnverified = agents.IdentityUnverified
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

// Incident is a rapid-fire incident: a maximal stretch of time in which one
// client stayed above the rate threshold.
type Incident struct {
	IP            string    `json:"ip"`
	UserAgent     string    `json:"user_agent"`
	Name          string    `json:"name"`
	Start         time.Time `json:"start"` // first second of the stretch
	End           time.Time `json:"end"`   // last second of the stretch (inclusive)
	Seconds       int64     `json:"seconds"`
	Requests      int64     `json:"requests"`
	PeakPerSecond int       `json:"peak_per_second"`
	Paths         int       `json:"paths"`                    // distinct paths (query included)
	PerSecond     []int     `json:"per_second"`               // requests in each second from Start (at most 3,600)
	PerSecondCut  bool      `json:"per_second_cut,omitempty"` // PerSecond ends before End: too long or memory bound
	PathsCapped   bool      `json:"paths_capped,omitempty"`   // Paths is a lower bound
	Bytes         int64     `json:"bytes"`
	Status        StatusMix `json:"status"`

	// Severity ranks incidents, worst first in every list (see severity).
	Severity int64 `json:"severity"`
	// Verdict is the client's: the robot's name, or VerdictHuman for a
	// client judged a person, whose busy minute is no robot's incident.
	// Lists put people's incidents after every robot's. Empty in a report
	// written before the field (a merged part): taken for a robot's.
	Verdict string `json:"verdict,omitempty"`
}

// VerdictHuman is an incident's Verdict when its client was judged human.
const VerdictHuman = "human"

// Human reports whether the incident is of a client judged human.
func (in *Incident) Human() bool { return in.Verdict == VerdictHuman }

// humanLast orders a robot's incident before a person's.
func humanLast(a, b *Incident) int {
	switch {
	case a.Human() == b.Human():
		return 0
	case b.Human():
		return -1
	}
	return 1
}

// StatusMix counts answers by status class.
type StatusMix struct {
	S2xx  int64 `json:"2xx"`
	S3xx  int64 `json:"3xx"`
	S4xx  int64 `json:"4xx"`
	S5xx  int64 `json:"5xx"`
	Other int64 `json:"other"`
}

// Violation is one request of a robot that robots.txt disallows.
type Violation struct {
	IP        string    `json:"ip"`
	UserAgent string    `json:"user_agent"`
	Name      string    `json:"name"`
	Time      time.Time `json:"time"`
	Method    string    `json:"method"`
	Path      string    `json:"path"`
	Status    int       `json:"status"`
	Group     string    `json:"group"` // the robots.txt group that applied
	Rule      string    `json:"rule"`  // the rule as written, "Disallow: /admin/"
	Line      int       `json:"line"`  // its line in robots.txt

	// RobotsTxtFrom is when the robots.txt version judged against came
	// into force (RFC 3339); "" for the only one, or one in force from the
	// start of the log.
	RobotsTxtFrom string `json:"robots_txt_from"`
	// RobotsTxtCopy is how that version was chosen, when there are
	// several: "fetched" (the robot's last 2xx fetch of robots.txt, at most
	// 24 h before, got it), "fetched, told by size" (the answer's size was
	// that version's), "in force" (no fetch in the 24 h before: every
	// version in force then disallows the request).
	RobotsTxtCopy string `json:"robots_txt_copy,omitempty"`
	// RobotsTxtFetched is the time of that fetch, for the first two.
	RobotsTxtFetched *time.Time `json:"robots_txt_fetched,omitempty"`
	// LastFetch and LastFetchStatus are the robot's latest fetch of
	// robots.txt before the request, whatever it was answered; absent
	// when it had fetched none or there is one robots.txt (the drill-down
	// lists the fetches).
	LastFetch       *time.Time `json:"last_robots_txt_fetch,omitempty"`
	LastFetchStatus int        `json:"last_robots_txt_status,omitempty"`
}

// RobotSummary is what the robot clients sharing one robot name did.
type RobotSummary struct {
	Name             string `json:"name"`
	Clients          int    `json:"clients"`
	Requests         int64  `json:"requests"`
	Bytes            int64  `json:"bytes"` // sent to its clients; stops at 9223372036854775807 (Result.BytesSaturated)
	Violations       int64  `json:"violations"`
	FetchedRobotsTxt bool   `json:"fetched_robots_txt"`
	// Cached are its requests that the robots.txt in force disallows and a
	// copy it could hold (a version of the 24 hours before, or the one its
	// last fetch got) allowed: no violations.
	Cached int64 `json:"cached,omitempty"`
	// PreferenceConflicts are the pages served to it that the site's
	// content-use preferences decline to a robot of its purpose
	// (Verdict.PreferenceConflicts): apart from Violations, since a
	// preference is no crawl rule. PreferenceRule is the first such
	// preference of its clients, in byte order.
	PreferenceConflicts int64  `json:"preference_conflicts,omitempty"`
	PreferenceRule      string `json:"preference_rule,omitempty"`
	// Discovery: its fetches of /llms.txt, /llms-full.txt and /.well-known/
	// files; nil when none.
	Discovery *Discovery `json:"discovery,omitempty"`

	FirstFetch     *time.Time `json:"first_fetch,omitempty"`     // first fetch of /robots.txt
	FirstViolation *time.Time `json:"first_violation,omitempty"` // first disallowed request
	Finding        string     `json:"finding,omitempty"`         // see the Finding constants
	LastViolation  *time.Time `json:"last_violation,omitempty"`  // last disallowed request

	// Compliance is the robot's robots.txt record in one word: obeyed
	// (read it, broke nothing), ignored (read it, then broke it),
	// unread-violated (broke it without having read it), unread (never
	// read it, broke nothing: no evidence either way), unchecked (no
	// robots.txt to check against).
	Compliance string `json:"compliance"`

	Operator string        `json:"operator,omitempty"` // who runs the robot, when its name claims an operator robowatch knows
	Identity string        `json:"identity,omitempty"` // verified, impostor or unverified (agents.Identify); one per row
	Purpose  string        `json:"purpose,omitempty"`  // what the robot is for (agents.Purpose)
	URL      string        `json:"url,omitempty"`      // its documentation, when robowatch knows it
	Prefixes []PrefixCount `json:"prefixes,omitempty"` // violations by path prefix, most first
	// AllPrefixes is the whole list when Prefixes is cut to the top ones:
	// the JSON report's state, for a merge.
	AllPrefixes []PrefixCount  `json:"-"`
	Incidents   int            `json:"incidents"`
	Reasons     map[string]int `json:"reasons"` // clients per reason
	// CrawlDelayFast: some client of it went faster than the Crawl-delay
	// its group asks for.
	CrawlDelayFast bool `json:"crawl_delay_fast,omitempty"`
	// VerifiedBy is how the clients of a verified row were verified, as
	// Verdict.VerifiedBy says it; several ways are sorted and joined with
	// commas ("dns,ip-range"). Empty unless Identity is verified.
	VerifiedBy string `json:"verified_by,omitempty"`

	// UnreachableRequests: its requests after a 5xx (or no) answer for
	// robots.txt and before the next 2xx. RFC 9309 asks for a complete
	// disallow then, unless the robot holds a copy, which it may from
	// before the log: not violations, and never obedience.
	UnreachableRequests int64   `json:"unreachable_requests"`
	RobotsTxtServed     Served  `json:"robots_txt_served"` // how robots.txt was answered to its clients
	Conduct             Conduct `json:"conduct"`           // what it did, in the measures of the studies of crawlers (conduct.go)
	// Status is the answers its clients got, TopPaths the paths they
	// asked for most (bounds: PathCount, panel.go), and TopPathsOtherMax
	// the most requests a path not in TopPaths may have had (0: none).
	Status           StatusCounts `json:"status"`
	TopPaths         []PathCount  `json:"top_paths"`
	TopPathsOtherMax int64        `json:"top_paths_other_max"`
	// AllTopPaths and TopPathsBase are the whole list TopPaths was cut
	// from and the most a path not in it had: the JSON report's state,
	// for a merge as exact as one run.
	AllTopPaths  []PathCount `json:"-"`
	TopPathsBase int64       `json:"-"`

	checked bool // some request of it was checked against a robots.txt (see Compliance)
}

// PrefixCount is how many violations fell under one path prefix.
type PrefixCount struct {
	Prefix string `json:"prefix"`
	Count  int64  `json:"count"`
}

// Findings about a robot name and robots.txt, as RobotSummary.Finding says.
const (
	FindingIgnored     = "fetched robots.txt and then ignored it"
	FindingNeverRead   = "never fetched robots.txt"
	FindingReadLate    = "fetched robots.txt only after its first disallowed request"
	FindingObeyed      = "obeyed robots.txt"
	FindingObeyedPaths = "obeyed robots.txt's paths, not its Crawl-delay"
	FindingUnread      = "never fetched robots.txt; nothing disallowed"
	FindingNotComputed = "" // no robots.txt given
	// FindingUnreachable: it broke nothing it could be judged on, but
	// crawled while robots.txt answered 5xx or nothing.
	FindingUnreachable = "crawled while robots.txt was unreachable (5xx)"
)

// The values of RobotSummary.Compliance.
const (
	ComplianceObeyed         = "obeyed"
	ComplianceIgnored        = "ignored"
	ComplianceUnreadViolated = "unread-violated"
	ComplianceUnread         = "unread"
	ComplianceUnchecked      = "unchecked"
	// ComplianceUnreachable: no violation, but requests made while
	// robots.txt was unreachable, which nothing judges (FindingUnreachable).
	ComplianceUnreachable = "unreachable"
)

// maxPrefixes is how many path prefixes a RobotSummary lists.
const maxPrefixes = 10

// Result ends the pass and returns the verdicts. The first call does the
// work; later calls return the same Result, and Add is ignored after it.
func (d *Detector) Result() *Result {
	if d.result != nil {
		return d.result
	}
	res := &Result{
		Records:           d.records,
		First:             d.first,
		Last:              d.last,
		LateRecords:       d.late,
		FutureRecords:     d.future,
		ViolationsChecked: d.checker.enabled,
		Unchecked:         d.checker.unchecked,
		Other:             d.other,
	}
	res.Other.Clients = d.foldedClients()
	folds := d.folded // Add is ignored from now on: the set is the Result's
	res.folded = &folds
	res.Other.Robots = d.otherRobots.estimate()
	// Robots are counted as distinct clients too: one folded, seen again
	// and folded again (or tracked at the end) is one robot, not one a fold.
	var robotsSeen distinctCount
	folded := d.other.Requests > 0
	res.Ranges = nonNil(d.cfg.ranges().Files)
	res.RangesNewer = d.oldLog()
	// A client's bytes bound those of its seconds and incidents, and a
	// folded client's saturated total saturates Other's: these are all the
	// totals to look at.
	res.BytesSaturated = d.other.Bytes == math.MaxInt64
	res.WatchDropped = d.watchDropped
	// A client folded and seen again is one client, not two.
	res.DistinctClients = int64(d.clients.len())
	if d.other.Requests > 0 {
		res.DistinctClients, res.ClientsEstimated = max(d.seenClients.estimate(), res.DistinctClients), true
	}
	// Folded clients' findings count in the totals (their rows are gone).
	res.ViolationCount += d.other.Violations
	res.IncidentCount += int(d.other.Incidents)
	res.ViolationsDropped += d.unlisted.violations
	res.IncidentsDropped += int(d.unlisted.incidents)
	lt := d.counts.traits()
	res.AssetsElsewhere, res.LogPages, res.LogAssets = lt.assetsElsewhere, d.counts.pages, d.counts.plainAssets

	sorted := sortClients(&d.clients)

	if d.cfg.Watch != nil {
		res.Watched = d.timelines()
	}

	// The verdicts are built from the clients when the report reads them
	// (see ClientList); here each client is judged once for the summaries,
	// and what only the pass needed is let go.
	lt.fleets = d.fleets
	env := &verdictEnv{lt: lt, cfg: d.cfg, loc: d.loc, addrs: addressesOf(&d.clients)}
	// The pass has read its last record: what only reading needed (the
	// User-agent interning, the classifier's cache) goes before the
	// verdicts are built, not after, so the two are never held together.
	d.uas, d.agents, d.agentSet, d.agentPurpose = nil, agents.Classifier{}, nil, nil
	if d.cfg.DNS != nil {
		env.dns, res.DNSChecked = d.verifyDNS()
	}
	nets, ops := networks{rows: make([]networkRow, 0, len(sorted))}, operators{}
	res.Clients = ClientList{clients: sorted, env: env, index: new(clientIndex)}
	res.Violations.index = new(clientIndex)
	// A robots row per name, found by its index: on a log of many robot
	// names (a flood of made-up ones), rows kept beside pointers to copies
	// of them, and a prefix count per name that broke no rule, were most of
	// the memory at the end.
	byName := map[string]int{}
	prefixes := map[string]map[string]int64{}
	var robotClients []robotBins
	var all, humans pathTally
	tallies := map[string]*pathTally{}
	junkIPs := map[string]int{}
	for _, c := range sorted {
		d.advance(c, maxSecond)
		recent := c.recent() // for its edge, before its window goes
		c.rate.release(d.th.pool)
		if c.x != nil {
			c.x.watch = nil
		}
		if c.bytes == math.MaxInt64 {
			res.BytesSaturated = true
		}
		v := env.verdict(c)
		nets.add(&v)
		ops.add(&v)
		if !v.Robot && v.Kind != KindServer && v.Kind != KindJunk {
			// A person's page views its operators' products sent.
			for _, r := range c.rare().referred {
				ops.refer(r.operator, r.views)
			}
		}
		res.ClientBytes = addBytes(res.ClientBytes, max(v.Bytes, 0))
		if v.Kind == KindScanner {
			if res.Scanners++; res.Scanners == 1 {
				res.FirstScanner, res.firstScanner = v.IP, c
			}
		}
		if v.Robot {
			res.RobotRequests += v.Requests
			res.RobotBytes = addBytes(res.RobotBytes, v.Bytes)
		}
		if v.Kind == KindJunk {
			res.JunkConnections += c.requests
			if junkIPs[c.ip] == 0 {
				res.JunkAddresses++
			}
			junkIPs[c.ip]++
		}
		if v.Kind != KindServer && v.Kind != KindJunk {
			// The server's own connections and connections that sent no
			// request are no one's rapid-fire (their verdict has none).
			res.IncidentCount += v.Incidents
			res.IncidentsDropped += c.rate.incidentCount() - len(c.rate.incidents())
			for _, in := range c.rate.incidents() {
				x := d.incident(c, in, v.Name)
				x.Verdict = VerdictHuman
				if v.Robot {
					x.Verdict = robotRowName(v.Name, v.Identity)
				}
				res.Incidents = append(res.Incidents, x)
			}
		}
		if !v.Robot {
			if v.Kind != KindJunk && v.Kind != KindServer {
				humans.addStatus(c)
			}
			if c.x != nil {
				c.x.viol = nil // a human's violations are not reported
			}
			c.bins = clientBins{}
			continue
		}
		res.RobotCount++
		if v.IdentityNote != "" {
			res.RangesEarliest++
		}
		if folded {
			robotsSeen.add(clientHash(c.ip, c.ua.ua))
		}
		if d.cfg.Events != nil && c.flags&flagAnnounced == 0 {
			// Judged a robot on the whole of its traffic only now.
			d.announce(c, env)
		}
		if c.rare().viol != nil {
			res.ViolationCount += c.rare().viol.n
			res.ViolationsDropped += c.rare().viol.n - int64(len(c.rare().viol.list))
			res.Violations.add(c, v.Name)
		}
		key := robotRowName(v.Name, v.Identity)
		i, ok := byName[key]
		if !ok {
			i = len(res.Robots)
			byName[key] = i
			res.Robots = append(res.Robots, RobotSummary{Name: key, Reasons: map[string]int{}, Operator: v.Operator, Identity: v.Identity, VerifiedBy: v.VerifiedBy, Purpose: v.Purpose, URL: agents.URL(v.Name)})
		}
		s := &res.Robots[i]
		s.Identity, s.VerifiedBy = joinIdentity(s.Identity, s.VerifiedBy, v.Identity, v.VerifiedBy)
		s.Clients++
		s.Requests += v.Requests
		s.Bytes = addBytes(s.Bytes, max(v.Bytes, 0))
		s.Violations += v.Violations
		s.Cached += v.Cached
		s.addAI(v.PreferenceConflicts, v.PreferenceRule, v.Discovery)
		s.Incidents += v.Incidents
		for _, r := range v.Reasons {
			s.Reasons[r]++
		}
		s.checked = s.checked || c.flags&flagChecked != 0
		s.CrawlDelayFast = s.CrawlDelayFast || v.CrawlDelayFast
		if e, ok := edgeOf(c, recent); ok { // before conductOf closes its open minute
			res.Edges = append(res.Edges, e)
		}
		k := conductOf(c, res.ViolationsChecked && c.flags&flagChecked != 0)
		s.Conduct.add(&k)
		if f := c.rare().fetches; f != nil {
			s.UnreachableRequests += f.unreachable
			s.RobotsTxtServed.add(&f.served)
		}
		if c.robotsTxt > 0 {
			s.FetchedRobotsTxt = true
			s.FirstFetch = earliest(s.FirstFetch, c.rare().fetches.first)
		}
		if c.rare().viol != nil {
			s.FirstViolation = earliest(s.FirstViolation, c.rare().viol.first)
			s.LastViolation = latest(s.LastViolation, c.rare().viol.last)
			if len(c.rare().viol.prefixes) > 0 && prefixes[key] == nil {
				prefixes[key] = map[string]int64{}
			}
			for _, p := range c.rare().viol.prefixes {
				prefixes[key][p.Prefix] += p.Count
			}
		}
		rowTally := tallies[key]
		if rowTally == nil {
			rowTally = &pathTally{}
			tallies[key] = rowTally
		}
		rowTally.add(c)
		all.add(c)
		robotClients = append(robotClients, robotBins{key, c.bins, c.first, c.last})
		c.bins = clientBins{}
	}
	d.clients, d.uas, d.recent, d.heap, d.th.pool = clientTable{}, nil, nil, nil, nil

	byName = nil
	for i := range res.Robots {
		s := &res.Robots[i]
		s.Compliance = ComplianceUnchecked
		if res.ViolationsChecked && s.checked {
			s.Finding, s.Compliance = finding(s)
		}
		s.Conduct.finish()
		for p, n := range prefixes[s.Name] {
			s.Prefixes = append(s.Prefixes, PrefixCount{p, n})
		}
		sortPrefixes(s)
		if t := tallies[s.Name]; t != nil {
			s.Status = t.status
			s.setTopPaths(t.list(d.pan.names))
		}
	}
	res.Panels = Panels{RobotStatus: all.status, HumanStatus: humans.status, Uncounted: all.uncounted + humans.uncounted, Unlisted: all.unlisted + humans.unlisted}
	res.Panels.setRobotPaths(all.list(d.pan.names))
	d.pan = panels{}
	slices.SortFunc(res.Robots, func(a, b RobotSummary) int {
		return cmp.Or(cmp.Compare(b.Requests, a.Requests), cmp.Compare(a.Name, b.Name))
	})
	// Clients are visited in a fixed order and a client's own violations and
	// incidents are in time order, so stable sorts keep ties deterministic.
	// The one that took the server down first, not the first of the day.
	// People's busy minutes after every robot's incident: the list is of
	// robots' rapid fire first, the people's kept apart, marked human.
	slices.SortStableFunc(res.Incidents, func(a, b Incident) int {
		return cmp.Or(humanLast(&a, &b), cmp.Compare(b.Severity, a.Severity), a.Start.Compare(b.Start))
	})
	res.Incidents = nonNil(res.Incidents)
	if folded {
		u := d.otherRobots.union(&robotsSeen)
		res.RobotCount = int(max(u.estimate(), int64(res.RobotCount)))
	}
	res.Networks = nets.list()
	for op, n := range d.otherReferred {
		ops.refer(op, n)
	}
	res.Operators = ops.list()
	res.Robots = nonNil(res.Robots)
	res.Timeline, res.RobotBuckets = d.timelineResult(robotClients, res.Robots)
	sortEdges(res.Edges)
	d.result = res
	return res
}

// joinIdentity is the identity of a robots row that has identity a (by
// byA) when a client of identity b (by byB) joins it. Some verified, some
// not: the row is as good as its weakest, and says no way it was verified.
// All verified: the row names every way its clients were.
func joinIdentity(a, byA, b, byB string) (identity, verifiedBy string) {
	if a != b {
		return agents.IdentityUnverified, ""
	}
	if a != agents.IdentityVerified {
		return a, ""
	}
	if byA == byB || byB == "" {
		return a, byA
	}
	if byA == "" {
		return a, byB
	}
	ways := strings.Split(byA, ",")
	for w := range strings.SplitSeq(byB, ",") {
		if !slices.Contains(ways, w) {
			ways = append(ways, w)
		}
	}
	slices.Sort(ways)
	return a, strings.Join(ways, ",")
}

// robotRowName is the name of the robots row a client of name and
// identity counts in. A row never mixes identities: an impostor's requests,
// violations and incidents are its own, under a name that says so.
func robotRowName(name, identity string) string {
	if identity == agents.IdentityImpostor {
		return name + " (impostor)"
	}
	return name
}

// maxSecond makes every second final at the end of the pass.
const maxSecond = 1<<63 - 1

// finding says what a robot did with robots.txt, in words and in one
// word. A robot that never fetched it and broke nothing did not obey it:
// nothing shows it would have.
func finding(s *RobotSummary) (words, compliance string) {
	switch {
	case s.Violations == 0 && s.UnreachableRequests > 0:
		return FindingUnreachable, ComplianceUnreachable
	case s.Violations == 0 && s.FirstFetch == nil:
		return FindingUnread, ComplianceUnread
	case s.Violations == 0 && s.CrawlDelayFast:
		// Compliance stays one of its documented words; the finding says
		// what the robot's own details show.
		return FindingObeyedPaths, ComplianceObeyed
	case s.Violations == 0:
		return FindingObeyed, ComplianceObeyed
	case s.FirstFetch == nil:
		return FindingNeverRead, ComplianceUnreadViolated
	case !s.FirstFetch.After(*s.FirstViolation):
		return FindingIgnored, ComplianceIgnored
	case s.LastViolation != nil && s.LastViolation.After(*s.FirstFetch):
		// It broke the rules before reading them, and again after.
		return FindingReadLate, ComplianceIgnored
	default:
		return FindingReadLate, ComplianceUnreadViolated
	}
}

func latest(cur *time.Time, t time.Time) *time.Time {
	if cur == nil || t.After(*cur) {
		return &t
	}
	return cur
}

func earliest(cur *time.Time, t time.Time) *time.Time {
	if cur == nil || t.Before(*cur) {
		return &t
	}
	return cur
}

// at turns a second of the log into a time in the log's zone.
func (d *Detector) at(sec int64) time.Time { return atIn(sec, d.loc) }

func atIn(sec int64, loc *time.Location) time.Time {
	t := time.Unix(sec, 0)
	if loc != nil {
		t = t.In(loc)
	}
	return t
}

func peakOf(c *client, loc *time.Location) Peak {
	r := &c.rate
	p := Peak{Per1s: int(r.peak1), Per10s: int(r.peak10), Per60s: int(r.peak60)}
	if r.peak1 > 0 {
		p.At1s, p.At10s, p.At60s = atIn(r.at1, loc), atIn(r.at10, loc), atIn(r.at60, loc)
	}
	return p
}

func (d *Detector) incident(c *client, in incident, name string) Incident {
	other := in.requests
	for _, n := range in.status {
		other -= n
	}
	return Incident{
		IP:            c.ip,
		UserAgent:     c.ua.ua,
		Name:          name,
		Start:         d.at(in.start),
		End:           d.at(in.end),
		Seconds:       in.end - in.start + 1,
		Requests:      in.requests,
		PeakPerSecond: int(in.peak),
		Paths:         in.paths,
		PathsCapped:   in.pathsCapped,
		PerSecond:     perSecond(in.curve),
		PerSecondCut:  in.curveCut,
		Bytes:         in.bytes,
		Status:        StatusMix{in.status[0], in.status[1], in.status[2], in.status[3], other},
		Severity:      severity(in.requests, in.end-in.start+1, int64(in.peak), &d.cfg),
	}
}

// severity is what an incident weighs for an admin: the requests made
// above the sustained pace (SustainedPer60s a minute, 1 a second by
// default) over its length, times how many times its busiest second went
// past the burst pace (BurstPer10s over 10 s, 2 a second by default; at
// least once). A crawler a little over the pace for a minute weighs a few
// points; 350 requests in 4 seconds peaking at 100 a second weighs 17,000.
// At least 1: every incident went over the threshold.
func severity(requests, seconds, peak int64, cfg *Config) int64 {
	excess := requests - seconds*int64(cfg.SustainedPer60s)/60
	factor := peak * 10 / max(int64(cfg.BurstPer10s), 1)
	return max(1, max(excess, 0)*max(factor, 1))
}

// nonNil makes an empty list marshal as [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// maxDNSChecks bounds the addresses asked of DNS in one run: a log of a
// million fake Googlebots must not become a million lookups.
const maxDNSChecks = 10_000

// verifyDNS asks DNS about the addresses whose robot names claim an
// operator the published ranges do not cover (or a host name).
func (d *Detector) verifyDNS() (map[string]agents.DNSResult, int) {
	// Past the bound, the busiest addresses are asked, the same whatever
	// order the clients' table holds them in.
	type claim struct {
		ip, op   string
		requests int64
	}
	var all []claim
	for c := range d.clients.all() {
		if c.ua.agent.Kind == agents.Browser {
			continue // claims no crawler (see verdict)
		}
		op, id, _, _ := d.cfg.ranges().IdentifyAt(c.ua.agent.Name, c.ip, c.first.time(), c.last.time())
		if (id == agents.IdentityUnverified || id == agents.IdentityImpostor) && agents.HasDNS(op, c.ua.agent.Name) {
			all = append(all, claim{c.ip, op, c.requests})
		}
	}
	slices.SortFunc(all, func(a, b claim) int {
		return cmp.Or(cmp.Compare(b.requests, a.requests), cmp.Compare(a.ip, b.ip))
	})
	claims := map[string]string{}
	for _, c := range all {
		if len(claims) >= maxDNSChecks {
			break
		}
		if _, ok := claims[c.ip]; !ok {
			claims[c.ip] = c.op
		}
	}
	if len(claims) == 0 {
		return nil, 0
	}
	ctx := d.cfg.DNSContext
	if ctx == nil {
		ctx = context.Background()
	}
	got := d.cfg.DNS.VerifyAll(ctx, claims)
	return got, len(got)
}

// oldLog reports whether the log starts before the range lists' history
// begins (agents.Ranges.NewerThan). A Pool's workers each say so of their
// own share; the earliest one's answer is the log's.
func (d *Detector) oldLog() bool {
	return d.started && d.cfg.ranges().NewerThan(d.first)
}

// addAI adds a client's or a part's preference conflicts and discovery
// fetches to s. The rule kept is the first in byte order, so that workers
// and merges in any order agree.
func (s *RobotSummary) addAI(conflicts int64, rule string, d *Discovery) {
	s.PreferenceConflicts += conflicts
	if rule != "" && (s.PreferenceRule == "" || rule < s.PreferenceRule) {
		s.PreferenceRule = rule
	}
	if d != nil {
		if s.Discovery == nil {
			s.Discovery = &Discovery{}
		}
		s.Discovery.add(d)
	}
}
