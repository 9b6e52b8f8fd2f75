package findings

// Totals are the counts of a pass that add up over its parts (the workers
// of a detect.Pool, the shards of a log, consecutive days): each has one
// name from the pass to the JSON summary, and Add is the one sum of them.
type Totals struct {
	Records       int64 `json:"records"`           // records added (folded ones included)
	LateRecords   int64 `json:"late_records"`      // records later than detect's reorder tolerance: in totals, not in rate windows
	FutureRecords int64 `json:"future_records"`    // records dated more than detect.FutureTolerance after the time robowatch runs (detect.Config.Now): in their clients' totals, not in rates, the timeline, the time span or the log's clock
	Unchecked     int64 `json:"unchecked_records"` // records of hosts with no robots.txt given (only HOST=FILE ones were)

	ViolationCount     int64 `json:"violation_count"`    // violations of robot clients, stored or not
	ViolationsUnlisted int64 `json:"violations_dropped"` // violations counted but not listed: past a bound, or of a client folded into Other
	IncidentCount      int   `json:"incident_count"`     // incidents, stored or not
	IncidentsUnlisted  int   `json:"incidents_dropped"`  // incidents counted but not listed: past a bound, or of a client folded into Other

	WatchDropped   int64 `json:"watch_dropped"`   // clients detect.Config.Watch picked past the first 1,000, tracked without a drill-down
	DNSChecked     int   `json:"dns_checked"`     // addresses whose claim was checked by DNS (detect.Detector.VerifyDNS)
	RangesEarliest int   `json:"ranges_earliest"` // robot clients seen before the range lists' history, judged by the earliest lists known (Verdict.IdentityNote)

	// The counts of the clients by their verdicts: a merge of parts that
	// share clients (days) counts them again from the merged clients.
	RobotCount int `json:"robot_count"` // clients judged robots
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
	// ClientBytes are the bytes of all tracked clients and Scanners the
	// clients of kind scanner: what the headline says, found as Result
	// judges them, so that a report need not judge them all again.
	ClientBytes int64 `json:"-"`
	Scanners    int   `json:"-"`
}

// Add adds o's counts to t; byte counts and WatchDropped (--client pairs,
// not bounded by the records) saturate.
func (t *Totals) Add(o *Totals) {
	t.Records += o.Records
	t.LateRecords += o.LateRecords
	t.FutureRecords += o.FutureRecords
	t.Unchecked += o.Unchecked
	t.ViolationCount += o.ViolationCount
	t.ViolationsUnlisted += o.ViolationsUnlisted
	t.IncidentCount += o.IncidentCount
	t.IncidentsUnlisted += o.IncidentsUnlisted
	t.WatchDropped = SaturatingAdd(t.WatchDropped, o.WatchDropped)
	t.DNSChecked += o.DNSChecked
	t.RangesEarliest += o.RangesEarliest
	t.RobotCount += o.RobotCount
	t.JunkConnections += o.JunkConnections
	t.JunkAddresses += o.JunkAddresses
	t.RobotRequests += o.RobotRequests
	t.RobotBytes = AddBytes(t.RobotBytes, o.RobotBytes)
	t.ClientBytes = AddBytes(t.ClientBytes, o.ClientBytes)
	t.Scanners += o.Scanners
}

// SaturatingAdd is a + b, stopping at the int64 bounds instead of wrapping.
func SaturatingAdd(a, b int64) int64 {
	if s := a + b; s >= a == (b >= 0) {
		return s
	}
	if b > 0 {
		return 1<<63 - 1
	}
	return -1 << 63
}
