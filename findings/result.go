package findings

import (
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

	// Folded are the networks Other's clients came from, which a block
	// list never aggregates; nil when not known (a merged report), and
	// then none with anything in Other is.
	Folded *FoldedNetworks `json:"-"`

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
	// Rangesearliest: the robot clients seen before the lists' history,
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

// DefaultReorderTolerance is how far a record may be older than the latest
// one and still count in its client's rate windows (LateRecords are
// older): the reordering a log may hold, and so how much consecutive logs
// may overlap at a rotation.
const DefaultReorderTolerance = 60 * time.Second
