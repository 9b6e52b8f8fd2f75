package findings

import (
	"cmp"
	"math"
	"slices"

	"github.com/robowatch/robowatch/agents"
)

// Summary builds the rows of a Result from its clients' verdicts, one
// client at a time, so that a pass can let go of each client once added:
// the robots rows, the networks and operators, the incidents, and the
// counts of the clients by verdict. A merge adds rows of parts with the
// same code (mergeRobots).
type Summary struct {
	totals         Totals // the counts by verdict; the pass's own (records, Other's) are the caller's
	firstScanner   string
	bytesSaturated bool
	rows           robotRows
	nets           *networkTally
	ops            operatorTally
	incidents      []Incident
	junk           map[string]bool  // the addresses of junk clients
	listed         chan NetworkList // the networks ListNetworks lists, for Finish
}

// ClientFacts is what a pass knows of a client beyond its verdict, for
// its rows. Only Incidents and IncidentsUnlisted are read for a client
// that is no robot.
type ClientFacts struct {
	Incidents         []Incident // its listed incidents; Add sets their Verdict
	IncidentsUnlisted int        // its incidents past the listed ones

	Checked            bool  // some request of it was checked against a robots.txt
	ViolationsUnlisted int64 // its violations past the listed ones
	// Robot is its robots row as if it were the only client of it, in
	// what its verdict does not say (FirstFetch, FirstViolation and
	// LastViolation, Prefixes, UnreachableRequests, RobotsTxtServed,
	// Conduct, and whatever per-robot number is added next); Add sets
	// the rest from the verdict and adds it to its row as a merge adds a
	// part's (RobotSummary.add), which copies the counts of its
	// Conduct's Methods: the caller may reuse that map after Add.
	Robot RobotSummary

	// AgentHash is the agentHash (FNV-1a) of its verdict's UserAgent, if
	// the caller has it (0: Add works it out). The networks' and the
	// operators' counts of User-agents read it: hashing the text in Add
	// read every client's User-agent again, cold, after detect had hashed
	// it for its distinct-client count.
	AgentHash uint64
}

// NewSummary returns a Summary with room for the given number of clients.
func NewSummary(clients int) *Summary {
	return &Summary{nets: newNetworkTally(clients), ops: operatorTally{}, rows: newRobotRows(), junk: map[string]bool{}}
}

// Add adds a client of verdict v, and what the pass knows of it, and
// returns the index of its robots row (Row); -1 when it is no robot.
func (s *Summary) Add(v *Verdict, f *ClientFacts) int {
	ua := f.AgentHash
	if ua == 0 { // a text whose hash is 0 hashes to 0 again: the same
		ua = agentHash(v.UserAgent)
	}
	s.nets.Add(v, ua)
	s.ops.Add(v, ua)
	t := &s.totals
	if v.Bytes == math.MaxInt64 {
		s.bytesSaturated = true
	}
	t.ClientBytes = AddBytes(t.ClientBytes, max(v.Bytes, 0))
	if v.Kind == KindScanner {
		if t.Scanners++; t.Scanners == 1 {
			s.firstScanner = v.IP
		}
	}
	if v.Kind == KindJunk {
		t.JunkConnections += v.Requests
		if !s.junk[v.IP] {
			t.JunkAddresses++
			s.junk[v.IP] = true
		}
	}
	if v.Kind != KindServer && v.Kind != KindJunk {
		// The server's own connections and connections that sent no
		// request are no one's rapid-fire (their verdict has none).
		s.addIncidents(v, f)
	}
	if !v.Robot {
		return -1
	}
	t.RobotCount++
	t.RobotRequests += v.Requests
	t.RobotBytes = AddBytes(t.RobotBytes, v.Bytes)
	if v.IdentityNote != "" {
		t.RangesEarliest++
	}
	t.ViolationCount += v.Violations
	t.ViolationsUnlisted += f.ViolationsUnlisted
	return s.addRobot(v, f)
}

func (s *Summary) addIncidents(v *Verdict, f *ClientFacts) {
	s.totals.IncidentCount += v.Incidents
	s.totals.IncidentsUnlisted += f.IncidentsUnlisted
	for _, in := range f.Incidents {
		in.Verdict = VerdictHuman
		if v.Robot {
			in.Verdict = RobotRowName(v.Name, v.Identity)
		}
		s.incidents = append(s.incidents, in)
	}
}

// addRobot adds a robot client to the row of its name and identity.
func (s *Summary) addRobot(v *Verdict, f *ClientFacts) int {
	key := RobotRowName(v.Name, v.Identity)
	i, ok := s.rows.index(key)
	if !ok {
		i = s.rows.push(RobotSummary{Name: key, Reasons: map[string]int{}, Operator: v.Operator, Identity: v.Identity,
			VerifiedBy: v.VerifiedBy, Purpose: v.Purpose, URL: agents.URL(v.Name)})
	}
	one := f.Robot
	one.Clients, one.Requests, one.Bytes, one.Violations, one.Cached = 1, v.Requests, v.Bytes, v.Violations, v.Cached
	one.PreferenceConflicts, one.PreferenceRule, one.Discovery = v.PreferenceConflicts, v.PreferenceRule, v.Discovery
	one.Incidents, one.CrawlDelayFast, one.Identity, one.VerifiedBy = v.Incidents, v.CrawlDelayFast, v.Identity, v.VerifiedBy
	one.FetchedRobotsTxt, one.checked = one.FirstFetch != nil, f.Checked
	row := s.rows.row(i)
	row.add(&one)
	for _, r := range v.Reasons {
		row.Reasons[r]++
	}
	s.rows.addPrefixes(key, one.Prefixes)
	return i
}

// Refer counts page views of people that op's products sent (the
// referrals of a person, or of the people folded into Other).
func (s *Summary) Refer(op string, views int64) { s.ops.Refer(op, views) }

// Row is robots row i, as Add returned it, for what the caller sums
// itself (its clients' answers and paths); only until Finish.
func (s *Summary) Row(i int) *RobotSummary { return s.rows.row(i) }

// ListNetworks lists the networks on a goroutine of its own, for Finish
// to take: what the caller does before Finish runs beside it. Add must
// not be called after. A detect.Pool's workers each list some 117,000
// networks of the churn log (30 ms) after summing their clients, and the
// last worker to be done held up the merge alone.
func (s *Summary) ListNetworks() {
	nets, listed := s.nets, make(chan NetworkList, 1)
	go func() { listed <- nets.list() }()
	s.listed = listed
}

// Finish sets the rows on res, in their lists' orders, and adds the counts
// of the clients to its totals; res.ViolationsChecked says whether the
// rows' compliance can be judged. s is not to be used after.
func (s *Summary) Finish(res *Result) {
	res.Totals.Add(&s.totals)
	res.FirstScanner = s.firstScanner
	res.BytesSaturated = res.BytesSaturated || s.bytesSaturated
	res.Robots = nonNil(s.rows.finish(res.ViolationsChecked))
	// Clients are visited in a fixed order and a client's own incidents
	// are in time order, so a stable sort keeps ties deterministic. The
	// one that took the server down first, not the first of the day.
	// People's busy minutes after every robot's incident: the list is of
	// robots' rapid fire first, the people's kept apart, marked human.
	slices.SortStableFunc(s.incidents, func(a, b Incident) int {
		return cmp.Or(humanLast(&a, &b), cmp.Compare(b.Severity, a.Severity), a.Start.Compare(b.Start))
	})
	res.Incidents = nonNil(s.incidents)
	// Listed here, or by ListNetworks, where each worker of a Pool sorts
	// its own at the same time: Merge, which runs alone, only merges the
	// lists.
	if s.listed != nil {
		res.Networks = <-s.listed
	} else {
		res.Networks = s.nets.list()
	}
	res.Operators = s.ops.List()
	*s = Summary{}
}
