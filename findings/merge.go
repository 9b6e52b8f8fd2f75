package findings

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Merging results (robowatch merge) combines the reports of runs over
// disjoint sets of clients (the shards of one log, --shard) into the report
// one run over all of them makes, and the reports of consecutive logs (seven
// days into a week) into one that sums what sums. A shard's verdicts are
// final: every request of a network is in one shard, so merging never needs
// to judge a client again. For consecutive logs a client seen in several
// parts is one row: its counts summed, its first and last the outermost,
// its peaks the highest of the parts (a burst across midnight counts in
// neither day whole), a robot if any part judged it one.

// RobotBuckets is one robot name's requests on the timeline's buckets,
// sparse: the state a merge needs for robot names past the top ones the
// timeline shows.
type RobotBuckets struct {
	Name    string     `json:"name"`
	Buckets [][2]int64 `json:"buckets"` // [bucket index from Timeline.Start, requests], by index
}

// clientOrder is the order of the clients list: most requests first, then
// by address and User-agent.
func clientOrder(a, b *Verdict) int {
	if a.Requests != b.Requests {
		return cmp.Compare(b.Requests, a.Requests)
	}
	if c := strings.Compare(a.IP, b.IP); c != 0 {
		return c
	}
	return strings.Compare(a.UserAgent, b.UserAgent)
}

// MergeVerdicts combines clients lists into one, in the clients' order.
func MergeVerdicts(parts [][]Verdict) []Verdict {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	out := make([]Verdict, 0, n)
	at := make(map[clientKey]int, n)
	for _, p := range parts {
		for _, v := range p {
			k := clientKey{v.IP, v.UserAgent}
			i, seen := at[k]
			if !seen {
				at[k] = len(out)
				out = append(out, v)
				continue
			}
			mergeVerdict(&out[i], &v)
		}
	}
	slices.SortFunc(out, func(a, b Verdict) int { return clientOrder(&a, &b) })
	return out
}

// mergeVerdict adds b, the same client in a later log, to a.
func mergeVerdict(a, b *Verdict) {
	if b.Robot && !a.Robot || b.Robot == a.Robot && b.Score > a.Score {
		a.Robot, a.Name, a.Kind, a.Score, a.Operator, a.Identity, a.VerifiedBy, a.IdentityNote, a.Purpose =
			b.Robot, b.Name, b.Kind, b.Score, b.Operator, b.Identity, b.VerifiedBy, b.IdentityNote, b.Purpose
	}
	a.Reasons = union(a.Reasons, b.Reasons)
	slices.SortStableFunc(a.Reasons, func(x, y string) int { // in judge's order, as one run gives them
		return cmp.Compare(reasonRank(x), reasonRank(y))
	})
	a.Details = union(a.Details, b.Details)
	a.Requests += b.Requests
	a.Bytes = AddBytes(a.Bytes, b.Bytes)
	a.Pages += b.Pages
	a.Assets += b.Assets
	a.Errors += b.Errors
	a.RobotsTxtFetches += b.RobotsTxtFetches
	a.Violations += b.Violations
	a.Cached += b.Cached
	addAI(&a.PreferenceConflicts, &a.PreferenceRule, &a.Discovery, b.PreferenceConflicts, b.PreferenceRule, b.Discovery)
	a.Incidents += b.Incidents
	a.First, a.Last = minTime(a.First, b.First), maxTime(a.Last, b.Last)
	a.CrawlDelay = max(a.CrawlDelay, b.CrawlDelay)
	a.CrawlDelayFast = a.CrawlDelayFast || b.CrawlDelayFast
	peak := func(n *int, at *time.Time, m int, mt time.Time) {
		if m > *n {
			*n, *at = m, mt
		}
	}
	peak(&a.Peak.Per1s, &a.Peak.At1s, b.Peak.Per1s, b.Peak.At1s)
	peak(&a.Peak.Per10s, &a.Peak.At10s, b.Peak.Per10s, b.Peak.At10s)
	peak(&a.Peak.Per60s, &a.Peak.At60s, b.Peak.Per60s, b.Peak.At60s)
}

// reasonRank is a reason's place in the fixed order judge gives them.
func reasonRank(r string) int {
	i := slices.Index([]string{ReasonScanner, ReasonRobotsTxt, ReasonRate, ReasonUserAgent, ReasonBehaviour}, r)
	if i < 0 {
		return 5 // a reason a later version gives: after the known ones
	}
	return i
}

// union is a, then each string of b not in a or before it in b. A part's
// lists are its own to write: a search of a for each of b was quadratic in
// a hand-edited part's huge details, so past a few strings a set is kept.
func union(a, b []string) []string {
	if len(a)*len(b) <= 64 {
		for _, s := range b {
			if !slices.Contains(a, s) {
				a = append(a, s)
			}
		}
		return a
	}
	seen := make(map[string]struct{}, len(a)+len(b))
	for _, s := range a {
		seen[s] = struct{}{}
	}
	for _, s := range b {
		if _, ok := seen[s]; !ok {
			seen[s] = struct{}{}
			a = append(a, s)
		}
	}
	return a
}

func minTime(a, b time.Time) time.Time {
	if a.IsZero() || !b.IsZero() && b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// RankOf is the place of each client in a clients list, for MergeViolations
// and mergeIncidents.
func RankOf(clients []Verdict) func(ip, ua string) int {
	rank := make(map[clientKey]int, len(clients))
	for i := range clients {
		rank[clientKey{clients[i].IP, clients[i].UserAgent}] = i
	}
	return func(ip, ua string) int { return rank[clientKey{ip, ua}] }
}

// MergeViolations combines violations lists into one, in the order of a
// single run's: by time, then by the client's rank in the merged clients
// list, then as each part listed them.
func MergeViolations(parts [][]Violation, rank func(ip, ua string) int) []Violation {
	var out []Violation
	for _, p := range parts {
		out = append(out, p...)
	}
	// The ranks are looked up (two maps of strings) only on a tie of
	// time: cmp.Or looked them up for every comparison.
	slices.SortStableFunc(out, func(a, b Violation) int {
		if c := a.Time.Compare(b.Time); c != 0 {
			return c
		}
		return cmp.Compare(rank(a.IP, a.UserAgent), rank(b.IP, b.UserAgent))
	})
	return out
}

// mergeIncidents combines incidents lists, worst first as a single run
// orders them, robots' before people's (ties by start, then by the
// client's rank).
func mergeIncidents(parts [][]Incident, rank func(ip, ua string) int) []Incident {
	out := []Incident{}
	for _, p := range parts {
		out = append(out, p...)
	}
	slices.SortStableFunc(out, func(a, b Incident) int {
		if c := cmp.Or(humanLast(&a, &b), cmp.Compare(b.Severity, a.Severity), a.Start.Compare(b.Start)); c != 0 {
			return c // the ranks only on a tie, as MergeViolations
		}
		return cmp.Compare(rank(a.IP, a.UserAgent), rank(b.IP, b.UserAgent))
	})
	return out
}

// mergeRobots combines robots lists by name, their top paths within the
// bounds mergePaths keeps, their prefixes from the whole lists
// (AllPrefixes) where a part cut Prefixes at its top ones; checked is
// whether violations were checked (for the findings). The
// merged rows take over the parts' Reasons maps: the parts are not to be
// used after (a log of many robot names would otherwise hold every map
// twice).
func mergeRobots(parts [][]RobotSummary, checked bool) []RobotSummary {
	// The names first, so that the rows are allocated once at their number.
	rows := robotRows{at: map[string]int{}, prefixes: map[string]map[string]int64{}}
	for _, p := range parts {
		for _, r := range p {
			if _, ok := rows.at[r.Name]; !ok {
				rows.at[r.Name] = len(rows.at)
			}
		}
	}
	rows.list = make([]RobotSummary, 0, len(rows.at))
	paths := make([][][]PathCount, len(rows.at)) // per row, its parts' top paths
	pathsOther := make([][]int64, len(rows.at))
	for _, p := range parts {
		for _, r := range p {
			at := rows.at[r.Name]
			if r.AllTopPaths != nil {
				paths[at] = append(paths[at], r.AllTopPaths)
				pathsOther[at] = append(pathsOther[at], r.TopPathsBase)
			} else {
				paths[at] = append(paths[at], r.TopPaths)
				pathsOther[at] = append(pathsOther[at], r.TopPathsOtherMax)
			}
			pre := r.Prefixes
			if r.AllPrefixes != nil {
				pre = r.AllPrefixes
			}
			rows.addPrefixes(r.Name, pre)
			r.checked = r.Compliance != ComplianceUnchecked
			if at < len(rows.list) {
				s := &rows.list[at]
				s.add(&r)
				for k, n := range r.Reasons {
					s.Reasons[k] += n
				}
				continue
			}
			// The name's first row, in the order of the first pass.
			if r.Discovery != nil { // the parts' rows are not to be shared
				d := *r.Discovery
				r.Discovery = &d
			}
			if r.Reasons == nil {
				r.Reasons = map[string]int{}
			}
			rows.list = append(rows.list, r)
		}
	}
	// The names' paths are apart: on two cores the 1M log's 56 names
	// (10,000 paths) took half the time of the merge, serial.
	onCores(len(rows.list), func(i int) {
		rows.list[i].SetTopPaths(mergePaths(paths[i], pathsOther[i]))
	})
	return rows.finish(checked)
}

// mergeWorkers is how many goroutines onCores runs on (tests set more).
var mergeWorkers = func() int { return runtime.GOMAXPROCS(0) }

// onCores calls f(i) for every i below n, on mergeWorkers goroutines,
// and returns when all calls have.
func onCores(n int, f func(i int)) {
	workers := min(mergeWorkers(), n)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(i)
			}
		}()
	}
	wg.Wait()
}

// mergePanels adds up the panels of parts, their paths as mergePaths does.
func mergePanels(parts []Panels) Panels {
	var out Panels
	lists, other := make([][]PathCount, 0, len(parts)), make([]int64, 0, len(parts))
	for _, p := range parts {
		out.RobotStatus.Add(p.RobotStatus)
		out.HumanStatus.Add(p.HumanStatus)
		out.Uncounted += p.Uncounted
		out.Unlisted += p.Unlisted
		if p.AllRobotPaths != nil {
			lists = append(lists, p.AllRobotPaths)
			other = append(other, p.RobotPathsBase)
		} else {
			lists = append(lists, p.RobotPaths)
			other = append(other, p.RobotPathsOtherMax)
		}
	}
	out.SetRobotPaths(mergePaths(lists, other))
	return out
}

// robotOrder is the order of the robots list: most requests first, then
// by name (compared only on a tie: cmp.Or compared the names every time,
// as its arguments are all evaluated before the call).
func robotOrder(a, b *RobotSummary) int {
	if a.Requests != b.Requests {
		return cmp.Compare(b.Requests, a.Requests)
	}
	return strings.Compare(a.Name, b.Name)
}

// sortRobots puts rows, of distinct names, in robotOrder. Their places
// are sorted, and each row then moved once, in place: a row is 624
// bytes, and pdqsort's swaps of them (and the rows passed by value to
// the comparison) were a third of merging a churn log's 14,000 robots
// rows (BenchmarkMergeRobotsChurn, CPU profile).
func sortRobots(rows []RobotSummary) {
	if len(rows) < 2 {
		return
	}
	from := make([]int32, len(rows)) // from[k]: the place of the row that goes to k
	for i := range from {
		from[i] = int32(i)
	}
	slices.SortFunc(from, func(a, b int32) int { return robotOrder(&rows[a], &rows[b]) })
	for i := range from {
		if from[i] == int32(i) {
			continue // in place, or moved there
		}
		// Follow the cycle through i: each place takes the row from
		// its source, the last the row that was at i.
		row, k := rows[i], i
		for {
			src := int(from[k])
			from[k] = int32(k)
			if src == i {
				rows[k] = row
				break
			}
			rows[k] = rows[src]
			k = src
		}
	}
}

// moveRobotRequests gives each robots row the requests and bytes of the clients the
// merge put in it, for the parts (days) in which a part judged them
// otherwise: a client a person on Monday and a robot on Tuesday is a
// robot of the week with all its requests, in the clients list, in
// summary.robot_requests and so in its robots row, which held Tuesday's
// only. Requests a part's row counted for a client the merge put in
// another row, or made no robot, leave it. For shards of one log every
// client is in one part and nothing moves. robots is sorted again.
func moveRobotRequests(robots []RobotSummary, parts [][]Verdict, merged []Verdict) {
	row := make(map[clientKey]string, len(merged))
	for i := range merged {
		if v := &merged[i]; v.Robot {
			row[clientKey{v.IP, v.UserAgent}] = RobotRowName(v.Name, v.Identity)
		}
	}
	// Bytes in and out are kept apart and saturate (hostile sizes): a
	// difference of sums near the int64 bound would wrap.
	type flow struct{ requests, bytesIn, bytesOut int64 }
	moved := map[string]*flow{}
	at := func(name string) *flow {
		f := moved[name]
		if f == nil {
			f = &flow{}
			moved[name] = f
		}
		return f
	}
	for _, p := range parts {
		for i := range p {
			v := &p[i]
			was := ""
			if v.Robot {
				was = RobotRowName(v.Name, v.Identity)
			}
			if now := row[clientKey{v.IP, v.UserAgent}]; now != was {
				from, to := at(was), at(now)
				from.requests -= v.Requests
				to.requests += v.Requests
				from.bytesOut = AddBytes(from.bytesOut, max(v.Bytes, 0))
				to.bytesIn = AddBytes(to.bytesIn, max(v.Bytes, 0))
			}
		}
	}
	if len(moved) == 0 {
		return
	}
	for i := range robots {
		if f := moved[robots[i].Name]; f != nil {
			robots[i].Requests = max(robots[i].Requests+f.requests, 0)
			robots[i].Bytes = max(AddBytes(robots[i].Bytes, f.bytesIn)-f.bytesOut, 0)
		}
	}
	sortRobots(robots)
}

// sortPrefixes orders s.Prefixes, most first, and cuts them to the top
// maxPrefixes, keeping the whole list in AllPrefixes for a later merge.
func sortPrefixes(s *RobotSummary) {
	slices.SortFunc(s.Prefixes, func(a, b PrefixCount) int {
		if a.Count != b.Count {
			return cmp.Compare(b.Count, a.Count)
		}
		return strings.Compare(a.Prefix, b.Prefix)
	})
	if len(s.Prefixes) > maxPrefixes {
		s.AllPrefixes = s.Prefixes
		s.Prefixes = s.Prefixes[:maxPrefixes:maxPrefixes]
	}
}

// mergeNetworks combines networks lists. A network is in one shard of a
// log; for consecutive logs its User-agents count is the highest of the
// parts (the parts do not say which User-agents they were).
func mergeNetworks(parts [][]NetworkSummary) []NetworkSummary {
	at := map[string]int{}
	var out []NetworkSummary
	for _, p := range parts {
		for _, n := range p {
			i, ok := at[n.Network]
			if !ok {
				at[n.Network] = len(out)
				out = append(out, n)
				continue
			}
			s := &out[i]
			s.Clients += n.Clients
			s.Robots += n.Robots
			s.Requests += n.Requests
			s.UserAgents = max(s.UserAgents, n.UserAgents)
			s.Violations += n.Violations
			s.Incidents += n.Incidents
			if s.Operator == "" {
				s.Operator = n.Operator
			}
		}
	}
	slices.SortFunc(out, func(a, b NetworkSummary) int {
		if a.Requests != b.Requests {
			return cmp.Compare(b.Requests, a.Requests)
		}
		return strings.Compare(a.Network, b.Network)
	})
	return nonNil(out)
}

// Check reports what makes t, read back from a JSON report, unfit to
// merge: a bucket width off the ladder robowatch uses, more buckets than
// a timeline has, series of different lengths, a start in a year no log
// time has (logparse reads the years 1000 to 9998: one of the year 1
// merged with a real part made a start before the year 0, which no report
// can write).
func (t *Timeline) Check() error {
	if len(t.Requests) == 0 {
		return nil
	}
	ok := false
	for i := 0; i < len(binWidths)+32 && !ok; i++ {
		ok = LadderWidth(i) == t.BucketSeconds
	}
	n := len(t.Requests)
	switch {
	case !ok:
		return fmt.Errorf("timeline bucket_seconds %d is no width robowatch uses", t.BucketSeconds)
	case n > MaxBins || len(t.Robots) > n || len(t.Humans) > n || len(t.Other) > n:
		return fmt.Errorf("timeline has %d buckets (at most %d, its series as long as requests)", n, MaxBins)
	case t.Start.UTC().Year() < 1000 || t.Start.UTC().Year() > 9998:
		return fmt.Errorf("timeline start %d is outside the years 1000-9998 a log's time has", t.Start.UTC().Year())
	}
	for _, r := range t.ByRobot {
		if len(r.Requests) > n {
			return fmt.Errorf("timeline of %q is longer than the timeline", r.Name)
		}
	}
	return nil
}

// mergeTimelines puts timelines (with each part's robot buckets) on the
// buckets a single run over all of their span would use: the ladder width
// at which the whole span fits, which every part's width divides, so the
// sums are exact. robots is the merged robots list, for the names shown.
//
// The buckets are aligned in one zone, the earliest part's, as a single
// run aligns them in its first record's: daily reports across a change of
// UTC offset (DST) are in two zones, and a part's buckets placed by its
// own local time came an hour off, the merged start in the zone of the
// part named first. A part whose offset differs from that zone by less
// than its bucket width (a part of 2 h buckets across DST) has buckets
// that straddle two of the merged ones: each counts in the one it starts
// in.
func mergeTimelines(parts []Timeline, buckets [][]RobotBuckets, robots []RobotSummary) (Timeline, []RobotBuckets) {
	out := Timeline{Requests: []int64{}, Robots: []int64{}, Humans: []int64{}, ByRobot: []RobotTimeline{}}
	ref := -1
	for i := range parts {
		p := &parts[i]
		out.Untimed += p.Untimed
		out.Estimated += p.Estimated
		if len(p.Requests) == 0 || p.BucketSeconds <= 0 {
			continue
		}
		if ref < 0 || p.Start.Before(parts[ref].Start) {
			ref = i
		}
	}
	if ref < 0 {
		return out, nil
	}
	_, zone := parts[ref].Start.Zone()
	loc := parts[ref].Start.Location()
	// local is where bucket i of p starts, in seconds of the merged zone.
	local := func(p *Timeline, i int64) int64 { return p.Start.Unix() + int64(zone) + i*p.BucketSeconds }
	var width int64
	lo, hi := local(&parts[ref], 0), int64(math.MinInt64)
	for i := range parts {
		p := &parts[i]
		if len(p.Requests) == 0 || p.BucketSeconds <= 0 {
			continue
		}
		width = max(width, p.BucketSeconds)
		lo = min(lo, local(p, 0))
		hi = max(hi, local(p, int64(len(p.Requests)))-1)
	}
	step := 0
	for LadderWidth(step) < width {
		step++
	}
	for FloorDiv(hi, LadderWidth(step))-FloorDiv(lo, LadderWidth(step)) >= MaxBins {
		step++
	}
	width = LadderWidth(step)
	base := FloorDiv(lo, width)
	n := int(FloorDiv(hi, width) - base + 1)
	out.BucketSeconds = width
	out.Start = time.Unix(base*width-int64(zone), 0).In(loc)
	out.Requests, out.Robots, out.Humans = make([]int64, n), make([]int64, n), make([]int64, n)
	other := make([]int64, n)
	folded := false
	// The top names' series are dense, as the report draws them; every
	// other name's (the state, for later merges) stays sparse, as a log of
	// many robot names has a few buckets for most of them.
	series := map[string][]int64{}
	for i := 0; i < len(robots) && i < TopRobotTimelines; i++ {
		series[robots[i].Name] = make([]int64, n)
	}
	rest := map[string][][2]int64{}
	listed := map[string]bool{} // the top names some part has buckets of
	for pi := range parts {
		p := &parts[pi]
		if len(p.Requests) == 0 || p.BucketSeconds <= 0 {
			continue
		}
		to := func(i int64) int { return int(FloorDiv(local(p, i), width) - base) }
		for i := range p.Requests {
			j := to(int64(i))
			out.Requests[j] += p.Requests[i]
			out.Robots[j] += at(p.Robots, i)
			if i < len(p.Other) {
				other[j] += p.Other[i]
				folded = true
			}
		}
		if pi < len(buckets) {
			for _, rb := range buckets[pi] {
				if s := series[rb.Name]; s != nil {
					listed[rb.Name] = true
					for _, b := range rb.Buckets {
						if j := to(b[0]); 0 <= j && j < n {
							s[j] += b[1]
						}
					}
					continue
				}
				r := rest[rb.Name]
				if r == nil {
					r = [][2]int64{}
				}
				for _, b := range rb.Buckets {
					if j := to(b[0]); 0 <= j && j < n {
						r = append(r, [2]int64{int64(j), b[1]})
					}
				}
				rest[rb.Name] = r
			}
		}
	}
	for i := range n {
		out.Humans[i] = max(0, out.Requests[i]-other[i]-out.Robots[i])
	}
	if folded {
		out.Other = other
	}
	for i := 0; i < len(robots) && i < TopRobotTimelines; i++ {
		out.ByRobot = append(out.ByRobot, RobotTimeline{Name: robots[i].Name, Requests: series[robots[i].Name]})
	}
	for name := range listed {
		rest[name] = SparseBuckets(name, series[name]).Buckets
	}
	state := make([]RobotBuckets, 0, len(rest))
	for _, name := range slices.Sorted(maps.Keys(rest)) {
		state = append(state, RobotBuckets{Name: name, Buckets: CombineBuckets(rest[name])})
	}
	return out, state
}

func at(s []int64, i int) int64 {
	if i < len(s) {
		return s[i]
	}
	return 0
}

// CombineBuckets sorts (bucket, requests) pairs by bucket and sums the
// pairs of one bucket, leaving out empty ones as sparse does.
func CombineBuckets(b [][2]int64) [][2]int64 {
	slices.SortStableFunc(b, func(x, y [2]int64) int { return cmp.Compare(x[0], y[0]) })
	out := b[:0]
	for _, e := range b {
		if len(out) > 0 && out[len(out)-1][0] == e[0] {
			out[len(out)-1][1] += e[1]
			continue
		}
		out = append(out, e)
	}
	kept := out[:0]
	for _, e := range out {
		if e[1] != 0 {
			kept = append(kept, e)
		}
	}
	if kept == nil {
		return [][2]int64{}
	}
	return kept
}

// SparseBuckets is a robot's series as RobotBuckets.
func SparseBuckets(name string, s []int64) RobotBuckets {
	rb := RobotBuckets{Name: name, Buckets: [][2]int64{}}
	for i, n := range s {
		if n != 0 {
			rb.Buckets = append(rb.Buckets, [2]int64{int64(i), n})
		}
	}
	return rb
}

// recount sets the counts of clients in the robots, networks and operators
// rows from the merged clients list: a client seen on several days is one
// client, where the parts' rows each counted it (merging seven daily
// reports made a robot seen every day seven clients). Requests, violations
// and incidents add up as they are. A row no merged client falls in keeps
// its counts. For shards of one log, whose clients are disjoint, the
// counts are the ones the parts add up to.
func recount(robots []RobotSummary, networks []NetworkSummary, operators []OperatorSummary, clients []Verdict) {
	type robotCount struct {
		clients int
		reasons map[string]int
	}
	byRobot := map[string]*robotCount{}
	type netCount struct {
		clients, robots int
		agents          map[string]struct{}
	}
	byNet := map[string]*netCount{}
	type opCount struct{ clients, robots int }
	byOp := map[string]*opCount{}
	for i := range clients {
		v := &clients[i]
		if v.Robot {
			key := RobotRowName(v.Name, v.Identity)
			rc := byRobot[key]
			if rc == nil {
				rc = &robotCount{reasons: map[string]int{}}
				byRobot[key] = rc
			}
			rc.clients++
			for _, r := range v.Reasons {
				rc.reasons[r]++
			}
		}
		if v.Network != "" {
			nc := byNet[v.Network]
			if nc == nil {
				nc = &netCount{agents: map[string]struct{}{}}
				byNet[v.Network] = nc
			}
			nc.clients++
			if v.Robot {
				nc.robots++
			}
			if len(nc.agents) < maxNetworkAgents {
				nc.agents[v.UserAgent] = struct{}{}
			}
		}
		if v.Identity == IdentityVerified && v.Operator != "" {
			oc := byOp[v.Operator]
			if oc == nil {
				oc = &opCount{}
				byOp[v.Operator] = oc
			}
			oc.clients++
			if v.Robot {
				oc.robots++
			}
		}
	}
	for i := range robots {
		if rc := byRobot[robots[i].Name]; rc != nil {
			robots[i].Clients, robots[i].Reasons = rc.clients, rc.reasons
		}
	}
	for i := range networks {
		if nc := byNet[networks[i].Network]; nc != nil {
			networks[i].Clients, networks[i].Robots = nc.clients, nc.robots
			networks[i].UserAgents = max(networks[i].UserAgents, len(nc.agents))
		}
	}
	for i := range operators {
		if oc := byOp[operators[i].Operator]; oc != nil {
			operators[i].Clients, operators[i].Robots = oc.clients, oc.robots
		}
	}
}
