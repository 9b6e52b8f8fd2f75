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

	Totals // the counts that add up over parts

	First time.Time `json:"first"` // earliest record time
	Last  time.Time `json:"last"`  // latest record time

	// DistinctClients is how many distinct clients (IP + User-agent) the
	// log had: exact when nothing was folded, else estimated
	// (HyperLogLog, about 2% off) and ClientsEstimated is set.
	DistinctClients  int64 `json:"distinct_clients"`
	ClientsEstimated bool  `json:"clients_estimated"`

	// ViolationsChecked is false when no robots.txt was given: violations
	// were not computed, and the report must say so.
	ViolationsChecked bool `json:"violations_checked"`

	Other Other `json:"other"` // clients beyond detect.Config.MaxClients, folded together

	// Folded are the networks Other's clients came from, which a block
	// list never aggregates; nil when not known (a merged report), and
	// then none with anything in Other is.
	Folded *FoldedNetworks `json:"-"`

	// BytesSaturated says that some byte total (a client's, an incident's,
	// Other's) reached math.MaxInt64 and stopped there rather than wrap
	// negative: hostile or corrupt sizes; such a total is a lower bound.
	BytesSaturated bool `json:"bytes_saturated"`

	Watched []ClientTimeline `json:"watched,omitempty"` // drill-downs of the clients detect.Config.Watch picked

	Timeline Timeline `json:"timeline"` // requests over time, robots and humans
	// FirstScanner is the first (most requests) of the Scanners: what
	// the headline says, found as Result judges the clients, so that a
	// report need not judge them all again.
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

	// AssetsElsewhere: the log holds next to no image, style, script or
	// font requests for its pages (fewer than one per 100 pages, over 100
	// pages): a front server or CDN serves them, so "pages and no assets"
	// was set aside as a signal for every client of the log.
	AssetsElsewhere bool `json:"assets_elsewhere"`
	// LogPages and LogAssets are the counts that decided it: page
	// requests, and asset requests but the favicon.
	LogPages  int64 `json:"-"`
	LogAssets int64 `json:"-"`

	Networks NetworkList `json:"networks"` // the clients by /24 (IPv4) and /48 (IPv6), most requests first

	Operators []OperatorSummary `json:"operators"` // the verified crawlers by operator, most requests first

	Panels Panels `json:"panels"` // answers and paths of all robots and of people
}

// DefaultReorderTolerance is how far a record may be older than the latest
// one and still count in its client's rate windows (LateRecords are
// older): the reordering a log may hold, and so how much consecutive logs
// may overlap at a rotation.
const DefaultReorderTolerance = 60 * time.Second
