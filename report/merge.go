package report

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

// StateVersion is the version of the JSON report's state object.
const StateVersion = 1

// jsonState is what robowatch merge needs beyond a report's rows, under the
// JSON report's "state" key (docs/scale-out.md: "The state key").
type jsonState struct {
	Version  int                               `json:"version"`
	Clients  int                               `json:"clients"`  // rows in clients: all of them, or the report was cut (--top)
	Networks int                               `json:"networks"` // rows in networks, likewise
	ByRobot  []findings.RobotBuckets           `json:"by_robot"` // every robot name's timeline, sparse
	Prefixes map[string][]findings.PrefixCount `json:"prefixes"` // violations by prefix of the robots whose list prefixes cuts

	// Paths are the whole lists of paths of the robots whose top_paths
	// are cut, and RobotPaths that of panels.robot_paths when it is: a
	// merge of shards adds them up to what one run counts.
	Paths      map[string]jsonPaths `json:"paths,omitempty"`
	RobotPaths *jsonPaths           `json:"robot_paths,omitempty"`

	// Operators are the sets behind operators[]' counts: its networks, and
	// its User-agents as FNV-1a hashes (16 hex digits).
	Operators []jsonOperatorSets `json:"operators"`

	// Options are what the run was made with that changes its counts and
	// verdicts; absent in the parts of a robowatch before it, which merge
	// then cannot check.
	Options *RunOptions `json:"options,omitempty"`

	// Inputs are the fingerprints of the inputs read (input.Digest: of
	// their bytes after decompression, not their names), sorted; empty
	// inputs are left out. null when not known: a run interrupted or
	// following its files, a part of a robowatch before it. Merge refuses
	// shards of different inputs and parts that share one (see Merge).
	Inputs []string `json:"inputs"`

	// Edges are the robot clients' first and last sessions and copies of
	// robots.txt, by which merge joins consecutive days and a run of the
	// next day starts (--state-from); SeededFrom, the SHA-256 of the
	// report that run started from.
	Edges      []findings.ClientEdge `json:"edges"`
	SeededFrom string                `json:"seeded_from,omitempty"`
}

// RunOptions are the options of a run that change what it counts or how it
// judges. Parts made with different ones do not add up to the report of
// one run (a burst of 25 requests is an incident at --burst 20, not at
// --burst 30; a part checked against no robots.txt has no violations), so
// merge refuses them, but for consecutive logs checked against different
// robots.txt files (see Merge). Defaults are written as the values they
// stand for.
type RunOptions struct {
	Burst      int      `json:"burst"`       // --burst: requests in 10 s
	Sustained  int      `json:"sustained"`   // --sustained: requests in 60 s
	MaxClients int      `json:"max_clients"` // --max-clients (0: no cap)
	RobotsTxt  []string `json:"robots_txt"`  // the robots.txt files checked against, by content (RobotsDigest): DIGEST, or HOST=DIGEST for one host's; sorted
	TrustProxy []string `json:"trust_proxy"` // --trust-proxy networks, sorted
	Since      string   `json:"since"`       // --since (logparse.TimeBound.String: 1d and 24h are one), "" for none
	Until      string   `json:"until"`       // --until, likewise
}

// proxies are the --trust-proxy networks, which a block list never holds
// (see WriteBlock); none when o is nil (a part of a robowatch before the
// options were recorded). An entry that is no network is an error: a part
// edited so would otherwise have its proxy denied.
func (o *RunOptions) proxies() ([]netip.Prefix, error) {
	if o == nil {
		return nil, nil
	}
	out := make([]netip.Prefix, 0, len(o.TrustProxy))
	for _, s := range o.TrustProxy {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return nil, fmt.Errorf("trust_proxy %q: not a CIDR network", s)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// RobotsDigest names a robots.txt by its content, for RunOptions: the
// first 16 hex digits of the SHA-256 of the text read. By content, not by
// path: the machines of a split may hold the same file in different places.
func RobotsDigest(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:8])
}

// differ names the first option a and b differ in, with the two values as
// a report of each says them; "" when they agree. With robotsChanged, two
// robots.txt files (neither none) are no difference: see Merge.
func (a *RunOptions) differ(b *RunOptions, robotsChanged bool) (option, av, bv string) {
	list := func(s []string) string {
		if len(s) == 0 {
			return "none"
		}
		return strings.Join(s, ", ")
	}
	bound := func(s string) string { return cmp.Or(s, "none") }
	robotsTxt := func(s []string) string {
		if len(s) == 0 {
			return "none"
		}
		return "robots.txt of SHA-256 " + strings.Join(s, ", ")
	}
	for _, o := range []struct{ option, a, b string }{
		{"--burst", strconv.Itoa(a.Burst), strconv.Itoa(b.Burst)},
		{"--sustained", strconv.Itoa(a.Sustained), strconv.Itoa(b.Sustained)},
		{"--max-clients", strconv.Itoa(a.MaxClients), strconv.Itoa(b.MaxClients)},
		{"--robots", robotsTxt(a.RobotsTxt), robotsTxt(b.RobotsTxt)},
		{"--trust-proxy", list(a.TrustProxy), list(b.TrustProxy)},
		{"--since", bound(a.Since), bound(b.Since)},
		{"--until", bound(a.Until), bound(b.Until)},
	} {
		if o.a == o.b || robotsChanged && o.option == "--robots" && len(a.RobotsTxt) > 0 && len(b.RobotsTxt) > 0 {
			continue
		}
		return o.option, o.a, o.b
	}
	return "", "", ""
}

type jsonOperatorSets struct {
	Operator   string   `json:"operator"`
	Networks   []string `json:"networks"`
	UserAgents []string `json:"user_agents"`
}

// jsonPaths is a whole list of paths and the most requests a path not in
// it had (summed as findings.Merge sums paths).
type jsonPaths struct {
	Base  int64                `json:"base"`
	Paths []findings.PathCount `json:"paths"`
}

func stateOf(r *Report) *jsonState {
	res := r.Result
	s := &jsonState{Version: StateVersion, Clients: res.Clients.Len(), Networks: res.Networks.Len(),
		ByRobot: nonNil(res.RobotBuckets), Prefixes: map[string][]findings.PrefixCount{}}
	for _, rs := range res.Robots {
		if rs.AllPrefixes != nil {
			s.Prefixes[rs.Name] = rs.AllPrefixes
		}
		if len(rs.AllTopPaths) > len(rs.TopPaths) {
			if s.Paths == nil {
				s.Paths = map[string]jsonPaths{}
			}
			s.Paths[rs.Name] = jsonPaths{rs.TopPathsBase, rs.AllTopPaths}
		}
	}
	if p := &res.Panels; len(p.AllRobotPaths) > len(p.RobotPaths) {
		s.RobotPaths = &jsonPaths{p.RobotPathsBase, p.AllRobotPaths}
	}
	s.Operators = []jsonOperatorSets{}
	for _, o := range res.Operators {
		j := jsonOperatorSets{Operator: o.Operator, Networks: nonNil(o.NetworkSet), UserAgents: make([]string, len(o.AgentSet))}
		for i, h := range o.AgentSet {
			j.UserAgents[i] = fmt.Sprintf("%016x", h)
		}
		s.Operators = append(s.Operators, j)
	}
	s.Options, s.Inputs = r.Options, r.Inputs
	s.Edges, s.SeededFrom = nonNil(res.Edges), r.SeededFrom
	return s
}

// jsonPart is a JSON report read back.
type jsonPart struct {
	Version    int                        `json:"version"`
	Summary    *jsonSummary               `json:"summary"`
	Clients    []findings.Verdict         `json:"clients"`
	Robots     []findings.RobotSummary    `json:"robots"`
	Violations []findings.Violation       `json:"violations"`
	Incidents  []findings.Incident        `json:"incidents"`
	Malformed  []jsonMalformed            `json:"malformed"`
	Errors     []string                   `json:"errors"`
	Timeline   findings.Timeline          `json:"timeline"`
	Networks   []findings.NetworkSummary  `json:"networks"`
	Operators  []findings.OperatorSummary `json:"operators"`
	Watched    []findings.ClientTimeline  `json:"watched"`
	Panels     findings.Panels            `json:"panels"`
	State      *jsonState                 `json:"state"`

	digest [sha256.Size]byte // of the file
	name   string            // as given, for messages
}

// partOrder is the order merge takes the parts in, whatever the order
// they were given in: the merged rows break their ties by it (a client's
// details, its peak times when two days peaked alike, the files and the
// malformed lines, the timeline's zone), so it must not be the command
// line's. Oldest first, as a run reads rotated logs; then by shard, and
// by content for parts alike in both.
func partOrder(a, b *jsonPart) int {
	t := func(p *time.Time) time.Time {
		if p == nil {
			return time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC) // a part without records last
		}
		return *p
	}
	shard := func(p *jsonPart) int {
		sh, _ := findings.ParseShard(p.Summary.Shard)
		return sh.I
	}
	return cmp.Or(
		t(a.Summary.First).Compare(t(b.Summary.First)),
		t(a.Summary.Last).Compare(t(b.Summary.Last)),
		cmp.Compare(shard(a), shard(b)),
		bytes.Compare(a.digest[:], b.digest[:]))
}

// readPart reads one JSON report and checks that it is whole: written by
// -o json with every client and network listed, and nothing after it (two
// reports in one file, cat mon.json tue.json, merged the first only). It
// keeps the SHA-256 of the file, which orders parts and tells one given
// twice.
func readPart(name string, r io.Reader) (*jsonPart, error) {
	var p jsonPart
	h := sha256.New()
	dec := json.NewDecoder(io.TeeReader(r, h))
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("%s: not a robowatch JSON report: %w", name, err)
	}
	if err := dec.Decode(new(json.RawMessage)); err != io.EOF {
		return nil, fmt.Errorf("%s: more than one JSON report, or something after it: merge takes one report a file", name)
	}
	h.Sum(p.digest[:0])
	switch {
	case p.Summary == nil:
		return nil, fmt.Errorf("%s: not a robowatch JSON report (no summary)", name)
	case p.Version != Version:
		return nil, fmt.Errorf("%s: JSON report version %d; this robowatch merges version %d", name, p.Version, Version)
	case !linesAddUp(p.Summary):
		// An edited or corrupt part: its counts would be added to the
		// others', and a negative one subtracted, silently.
		s := p.Summary
		return nil, fmt.Errorf("%s: its lines do not add up (%d lines, %d records, %d malformed, %d directives): not a report robowatch wrote",
			name, s.Lines, s.Records, s.Malformed, s.Directives)
	case p.State == nil || p.State.Version != StateVersion:
		return nil, fmt.Errorf("%s: no state (version %d) to merge by: write the parts with this robowatch's -o json", name, StateVersion)
	case attachOperatorSets(&p) != nil:
		return nil, fmt.Errorf("%s: %w", name, attachOperatorSets(&p))
	case p.Timeline.Check() != nil:
		return nil, fmt.Errorf("%s: %w", name, p.Timeline.Check())
	case p.State.Clients != len(p.Clients) || p.State.Networks != len(p.Networks):
		return nil, fmt.Errorf("%s: %d of %d clients and %d of %d networks listed: write the parts with -o json --top 0 and no --section",
			name, len(p.Clients), p.State.Clients, len(p.Networks), p.State.Networks)
	}
	if err := rowsAddUp(&p); err != nil {
		return nil, fmt.Errorf("%s: %w: not a report robowatch wrote", name, err)
	}
	if _, err := p.State.Options.proxies(); err != nil {
		return nil, fmt.Errorf("%s: state.options.%w", name, err)
	}
	if p.State.Inputs != nil { // a set: an edited part's order or repeats do not matter
		slices.Sort(p.State.Inputs)
		p.State.Inputs = slices.Compact(p.State.Inputs)
	}
	return &p, nil
}

// linesAddUp reports whether s counts every line once, as every report
// does (lines = records + malformed + directives), with no count negative.
// It is written so that no sum overflows: the numbers are the file's.
func linesAddUp(s *jsonSummary) bool {
	return s.Records >= 0 && s.Malformed >= 0 && s.Directives >= 0 &&
		s.Records <= s.Lines && s.Malformed <= s.Lines-s.Records && s.Directives == s.Lines-s.Records-s.Malformed
}

// tally adds counts that are each to be 0 or more, noting a negative one
// or a sum past 2^63-1 instead of wrapping.
type tally struct {
	n   int64
	bad bool
}

func (t *tally) add(vs ...int64) {
	for _, v := range vs {
		if v < 0 || v > math.MaxInt64-t.n {
			t.bad = true
			return
		}
		t.n += v
	}
}

// over says whether a count added was negative or their sum passed limit.
func (t *tally) over(limit int64) bool { return t.bad || t.n > limit }

// within says whether every one of vs is 0 or more and, together, at
// most limit.
func within(limit int64, vs ...int64) bool {
	var t tally
	t.add(vs...)
	return !t.over(limit)
}

// each says whether every one of vs is from 0 to limit.
func each(limit int64, vs ...int64) bool {
	for _, v := range vs {
		if v < 0 || v > limit {
			return false
		}
	}
	return true
}

// statusWithin reports whether a count of answers is of at most records
// requests, and none negative.
func statusWithin(c findings.StatusCounts, records int64) bool {
	return within(records, c.S2xx, c.S3xx, c.S4xx, c.S5xx, c.Other) && each(records, c.NotFound)
}

// pathsWithin reports whether a list of paths, each count with its error,
// and base are within records, and none negative.
func pathsWithin(list []findings.PathCount, base, records int64) bool {
	var t tally
	for _, pc := range list {
		t.add(pc.Requests)
		if !each(records, pc.Error, pc.Requests+pc.Error) {
			return false
		}
	}
	return !t.over(records) && each(records, base)
}

// discoveryWithin reports whether fetches of discovery files (nil: none)
// are of at most limit requests, and none negative.
func discoveryWithin(d *findings.Discovery, limit int64) bool {
	return d == nil || within(limit, d.LLMsTxt, d.LLMsFullTxt, d.WellKnown)
}

// rowsAddUp checks that a whole part's rows add up to its summary, as in
// every report robowatch writes: the clients' requests, with other's and
// the records outside the window, are its records; their violations and
// incidents are its own. Every other count (a client's pages, a network's
// requests, the timeline's buckets, a robot's prefixes) is at most the
// records, and the counts of each list together too. So the merge of parts
// whose lines together fit in an int64 sums no count past it: a hand-edited
// client of 9e18 requests, merged with another day, wrapped to negative.
func rowsAddUp(p *jsonPart) error {
	s := p.Summary
	records := s.Records
	var requests, violations, incidents tally
	for i := range p.Clients {
		c := &p.Clients[i]
		requests.add(c.Requests)
		violations.add(c.Violations)
		incidents.add(int64(c.Incidents))
		if !each(c.Requests, c.Pages, c.Assets, c.Errors, c.RobotsTxtFetches, c.Violations, int64(c.Incidents),
			c.Cached, c.PreferenceConflicts) || !discoveryWithin(c.Discovery, c.Requests) {
			return fmt.Errorf("client %q has counts beyond its %d requests, or negative", c.IP, c.Requests)
		}
	}
	requests.add(s.Other.Requests, s.Outside)
	violations.add(s.Other.Violations)
	incidents.add(s.Other.Incidents)
	switch {
	case requests.bad || requests.n != records:
		return fmt.Errorf("its clients' requests, other's (%d) and those outside the window (%d) do not add up to its %d records", s.Other.Requests, s.Outside, records)
	case violations.bad || violations.n != s.Violations || s.Violations > records:
		return fmt.Errorf("its clients' violations and other's (%d) do not add up to its %d violations", s.Other.Violations, s.Violations)
	case incidents.bad || incidents.n != int64(s.Incidents) || int64(s.Incidents) > records:
		return fmt.Errorf("its clients' incidents and other's (%d) do not add up to its %d incidents", s.Other.Incidents, s.Incidents)
	case !each(records, s.LateRecords, s.FutureRecords, s.UncheckedRecords, s.RobotRequests, s.JunkConnections,
		s.ViolationsUnlisted, int64(s.IncidentsUnlisted), int64(s.DNSChecked), int64(s.JunkAddresses), int64(s.RangesEarliest)):
		return fmt.Errorf("a summary count is beyond its %d records, or negative", records)
	}
	// The edges a merge of days joins (findings.JoinEdges): a session count
	// or a time an editor put past the records would come out in the
	// joined robots' conduct.
	for i := range p.State.Edges {
		if err := p.State.Edges[i].Check(records); err != nil {
			return fmt.Errorf("state.edges: %w", err)
		}
	}
	pan := &p.Panels
	rp := p.State.RobotPaths
	if rp == nil {
		rp = &jsonPaths{}
	}
	if !statusWithin(pan.RobotStatus, records) || !statusWithin(pan.HumanStatus, records) ||
		!pathsWithin(pan.RobotPaths, pan.RobotPathsOtherMax, records) || !pathsWithin(rp.Paths, rp.Base, records) ||
		!each(records, pan.Uncounted, pan.Unlisted) {
		return fmt.Errorf("its panels count more requests than its %d records, or a negative number", records)
	}
	tl := &p.Timeline
	if !within(records, tl.Requests...) || !within(records, tl.Robots...) || !within(records, tl.Humans...) ||
		!within(records, tl.Other...) || !each(records, tl.Untimed, tl.Estimated) {
		return fmt.Errorf("its timeline counts more requests than its %d records, or a negative number", records)
	}
	for _, r := range tl.ByRobot {
		if !within(records, r.Requests...) {
			return fmt.Errorf("its timeline of %q counts more requests than its %d records, or a negative number", r.Name, records)
		}
	}
	for _, r := range p.State.ByRobot {
		var t tally
		for _, b := range r.Buckets {
			t.add(b[1])
		}
		if t.over(records) {
			return fmt.Errorf("the state's timeline of %q counts more requests than its %d records, or a negative number", r.Name, records)
		}
	}
	var netRequests, robotRequests, opRequests tally
	for _, n := range p.Networks {
		netRequests.add(n.Requests)
		if !each(records, n.Violations, int64(n.Incidents), int64(n.Clients), int64(n.Robots), int64(n.UserAgents)) {
			return fmt.Errorf("network %s has counts beyond its %d records, or negative", n.Network, records)
		}
	}
	for _, r := range p.Robots {
		robotRequests.add(r.Requests)
		bad := !each(records, r.Violations, int64(r.Incidents), int64(r.Clients))
		for _, list := range [][]findings.PrefixCount{r.Prefixes, p.State.Prefixes[r.Name]} {
			var prefixes tally
			for _, pc := range list {
				prefixes.add(pc.Count)
			}
			bad = bad || prefixes.over(records)
		}
		for _, n := range r.Reasons {
			bad = bad || !each(records, int64(n))
		}
		k, sv := &r.Conduct, &r.RobotsTxtServed
		var methods tally
		for _, n := range k.Methods {
			methods.add(n)
		}
		bad = bad || !each(records, r.Cached, r.UnreachableRequests, r.PreferenceConflicts,
			k.Sessions, k.RobotsTxtFetches, k.Requests, k.ViolatingSessions, k.UnjudgedSessions, k.CrawlDelaySessions,
			k.FastSessions, k.NotModified, k.ErrorEpisodes, k.ErrorBefore, k.ErrorAfter) ||
			methods.over(records) || !within(records, sv.OK, sv.Redirect, sv.Unavailable, sv.Unreachable, sv.Page) ||
			!discoveryWithin(r.Discovery, records)
		bad = bad || !statusWithin(r.Status, records) || !pathsWithin(r.TopPaths, r.TopPathsOtherMax, records) ||
			!pathsWithin(p.State.Paths[r.Name].Paths, p.State.Paths[r.Name].Base, records)
		if bad {
			return fmt.Errorf("robot %q has counts beyond its %d records, or negative", r.Name, records)
		}
	}
	for _, o := range p.Operators {
		opRequests.add(o.Requests)
		if !each(records, o.Violations, int64(o.Incidents), int64(o.Clients), int64(o.Robots), int64(o.Networks), int64(o.UserAgents), o.Pages, o.ReferredViews) {
			return fmt.Errorf("operator %q has counts beyond its %d records, or negative", o.Operator, records)
		}
	}
	switch {
	case netRequests.over(records):
		return fmt.Errorf("its networks' requests come to more than its %d records, or a negative number", records)
	case robotRequests.over(records):
		return fmt.Errorf("its robots' requests come to more than its %d records, or a negative number", records)
	case opRequests.over(records):
		return fmt.Errorf("its operators' requests come to more than its %d records, or a negative number", records)
	}
	return nil
}

// attachOperatorSets puts the state's sets behind each operators[] row.
func attachOperatorSets(p *jsonPart) error {
	sets := map[string]jsonOperatorSets{}
	for _, o := range p.State.Operators {
		sets[o.Operator] = o
	}
	for i := range p.Operators {
		o := &p.Operators[i]
		set, ok := sets[o.Operator]
		if !ok {
			return fmt.Errorf("operator %q has no sets in the state", o.Operator)
		}
		o.NetworkSet, o.AgentSet = set.Networks, make([]uint64, len(set.UserAgents))
		for k, h := range set.UserAgents {
			v, err := strconv.ParseUint(h, 16, 64)
			if err != nil {
				return fmt.Errorf("operator %q: user agent hash %q: %w", o.Operator, h, err)
			}
			o.AgentSet[k] = v
		}
	}
	return nil
}

// Merge reads the JSON reports of runs over parts of the traffic (the
// shards of one log, or consecutive logs) and returns the report of all of
// it. names name the readers in errors.
func Merge(names []string, readers []io.Reader) (*Report, error) {
	if len(readers) == 0 {
		return nil, errors.New("no reports to merge")
	}
	parts := make([]*jsonPart, len(readers))
	shards := map[int]string{} // shard I: the part that is it
	digests := map[[sha256.Size]byte]string{}
	n := 0
	var lines tally
	for i, r := range readers {
		p, err := readPart(names[i], r)
		if err != nil {
			return nil, err
		}
		// Every count of a part is at most its lines (rowsAddUp), so no
		// sum of the merge passes theirs: refused, it would wrap.
		if lines.add(p.Summary.Lines); lines.bad {
			return nil, fmt.Errorf("%s to %s: more than %d lines together, more than merge can count: not reports robowatch wrote",
				names[0], names[i], int64(math.MaxInt64))
		}
		parts[i] = p
		p.name = names[i]
		// The same report twice (a file named twice, a copy) would count
		// its traffic twice. Reports of empty inputs add nothing and may
		// be alike; a shard twice is said as such below.
		if other, ok := digests[p.digest]; ok && p.Summary.Lines > 0 && p.Summary.Shard == "" {
			return nil, fmt.Errorf("%s and %s are the same report: given twice, it would count its traffic twice", other, names[i])
		}
		digests[p.digest] = names[i]
		if p.Summary.Shard == "" {
			continue
		}
		sh, err := findings.ParseShard(p.Summary.Shard)
		switch {
		case err != nil:
			return nil, fmt.Errorf("%s: shard: %w", names[i], err)
		case n != 0 && sh.N != n:
			return nil, fmt.Errorf("%s: shard %s is of a split %d ways, another part's of %d ways", names[i], sh, sh.N, n)
		case shards[sh.I] != "":
			return nil, fmt.Errorf("%s and %s are both shard %s", shards[sh.I], names[i], sh)
		}
		n, shards[sh.I] = sh.N, names[i]
	}
	// Parts made with different options would merge into a report no run
	// makes, and nothing in it would say so. A part of an older robowatch
	// says none and is taken as it is.
	// Consecutive logs (no shards) may have been checked against different
	// robots.txt files: a site changes its file in the middle of a week,
	// and each day's violations were rightly judged against the file of
	// the day. They merge, with a warning; the shards of one log, which
	// one run's options must have made, do not.
	var made *RunOptions
	madeBy := ""
	var robotsSet set[string]
	for i, p := range parts {
		o := p.State.Options
		if o == nil {
			continue
		}
		robotsSet.add(o.RobotsTxt...)
		if made == nil {
			made, madeBy = o, names[i]
			continue
		}
		if option, a, b := made.differ(o, n == 0); option != "" {
			return nil, fmt.Errorf("%s and %s were made with different %s (%s and %s): they do not merge into one report; make the parts with the same options",
				madeBy, names[i], option, a, b)
		}
	}
	if err := checkInputs(parts); err != nil {
		return nil, err
	}
	robotsTxt := robotsSet.list
	slices.Sort(robotsTxt)
	var warnings []string
	// Warned when any part's files are not all of them, whichever part
	// came first, so that the warning does not depend on the order the
	// parts are named in.
	if made != nil && slices.ContainsFunc(parts, func(p *jsonPart) bool {
		o := p.State.Options
		return o != nil && !slices.Equal(slices.Sorted(slices.Values(o.RobotsTxt)), robotsTxt)
	}) {
		changed := *made
		changed.RobotsTxt = robotsTxt
		made = &changed
		warnings = append(warnings, fmt.Sprintf("the parts were checked against %d different robots.txt files (SHA-256 %s): each part's violations are against its own", len(robotsTxt), strings.Join(robotsTxt, ", ")))
	}
	slices.SortStableFunc(parts, partOrder)
	if n == 0 {
		warnings = append(warnings, overlaps(parts)...)
	}
	rep := mergeParts(parts)
	rep.Options, rep.Inputs = made, inputsOf(parts)
	if n == 0 {
		if k := judgedApart(parts); k > 0 {
			rep.JudgedApart = k
			warnings = append(warnings, fmt.Sprintf("%s seen in several parts were judged a person in each, on that part's requests alone: "+
				"evidence that adds up over the parts (pages without assets, a steady pace) is not judged again, so one pass over all the logs may call some of them robots", noun(int64(k), "1 client", Exact(int64(k))+" clients")))
		}
	}
	rep.SeededFrom, rep.DayEdges = parts[0].State.SeededFrom, dayEdges(parts)
	rep.Warnings = append(rep.Warnings, warnings...)
	if n > 0 && len(shards) < n {
		var missing []string
		for i := 1; i <= n; i++ {
			if shards[i] == "" {
				missing = append(missing, fmt.Sprintf("%d/%d", i, n))
			}
		}
		rep.Errors = append(rep.Errors, "shards missing from the merge: "+strings.Join(missing, ", ")+"; the report covers the rest")
	}
	return rep, nil
}

// checkInputs refuses parts that would count an input twice or make one
// report of two inputs, by the inputs' fingerprints (jsonState.Inputs):
// the shards of a split must all have read the same inputs (shard 1/2 of
// Monday's log and shard 2/2 of Tuesday's are no report of either), and no
// two parts but shards of one split may share an input (a whole report
// beside its own shards, or two reports of one log, a copy elsewhere or
// compressed: its traffic would count twice). Parts that say no inputs
// (null) are not checked.
func checkInputs(parts []*jsonPart) error {
	var shard *jsonPart             // the first shard that says its inputs
	first := map[string]*jsonPart{} // an input's fingerprint: the first part that read it
	for _, p := range parts {
		in := p.State.Inputs
		if in == nil {
			continue
		}
		isShard := p.Summary.Shard != ""
		if isShard {
			if shard == nil {
				shard = p
			} else if !slices.Equal(shard.State.Inputs, in) {
				return fmt.Errorf("%s and %s are shards of different inputs (%s; %s): the shards of a split must all read the same log; merge each log's shards, then the merged reports",
					shard.name, p.name, filesText(shard), filesText(p))
			}
		}
		for _, d := range in {
			o, ok := first[d]
			switch {
			case !ok:
				first[d] = p
			case isShard && o.Summary.Shard != "":
				// The shards of one split read the same log.
			default:
				return fmt.Errorf("%s and %s read the same input (fingerprint %s; %s; %s): merged, its traffic would count twice; merge a whole report or its shards, not both",
					o.name, p.name, d, filesText(o), filesText(p))
			}
		}
	}
	return nil
}

// filesText names a part's inputs, for a message.
func filesText(p *jsonPart) string {
	f := p.Summary.Files
	switch {
	case len(f) == 0:
		return "no files named"
	case len(f) > 3:
		return "files " + strings.Join(f[:3], ", ") + fmt.Sprintf(" and %d more", len(f)-3)
	}
	return "files " + strings.Join(f, ", ")
}

// inputsOf are the inputs of the merged report: all the parts' (the shards'
// one set, or the days' together), so that it too is refused beside its
// parts; nil when a part does not say its own.
func inputsOf(parts []*jsonPart) []string {
	out := []string{}
	for _, p := range parts {
		if p.State.Inputs == nil {
			return nil
		}
		out = append(out, p.State.Inputs...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// overlaps says which parts, in partOrder, cover the same time: parts that
// are no shards are consecutive logs, and two that overlap by more than the
// reordering a log may hold (a rotation's last seconds are the next file's
// first) may be one log read twice, counted twice; or the logs of two
// servers of one site, whose clients merge but whose rates at the edges
// were judged apart. Either way the reader should know.
func overlaps(parts []*jsonPart) []string {
	var out []string
	var latest time.Time
	latestName := ""
	for _, p := range parts {
		if p.Summary.First == nil || p.Summary.Last == nil {
			continue
		}
		if latestName != "" && latest.Sub(*p.Summary.First) > findings.DefaultReorderTolerance {
			end := latest
			if p.Summary.Last.Before(end) {
				end = *p.Summary.Last
			}
			out = append(out, fmt.Sprintf("%s and %s cover the same time (%s to %s): merge sums consecutive logs and shards; if they hold the same traffic, it is counted twice",
				latestName, p.name, p.Summary.First.Format(time.RFC3339), end.Format(time.RFC3339)))
		}
		if latestName == "" || p.Summary.Last.After(latest) {
			latest, latestName = *p.Summary.Last, p.name
		}
	}
	return out
}

// mergeParts is the report of parts already checked to fit together:
// their clients and violations merged by address and User-agent, and
// everything else added up by findings.Merge, as a Pool adds its workers'.
// Parts may share clients (days), so Merge is told the overlap.
func mergeParts(parts []*jsonPart) *Report {
	rep := &Report{}
	res := &findings.Result{}
	rep.Result = res
	var (
		clients    = make([][]findings.Verdict, 0, len(parts))
		violations = make([][]findings.Violation, 0, len(parts))
		results    = make([]*findings.Result, 0, len(parts))
		estimated  bool
		estimate   int64
		ranges     set[agents.RangeFile]
	)
	mergeInputs(rep, parts)
	for _, p := range parts {
		s := p.Summary
		estimated = estimated || s.ClientsEstimated
		estimate = findings.SaturatingAdd(estimate, s.Clients) // an estimate: not bounded by the records
		res.AssetsElsewhere = res.AssetsElsewhere || s.AssetsElsewhere
		ranges.add(s.Ranges...)
		clients = append(clients, p.Clients)
		violations = append(violations, p.Violations)
		results = append(results, p.result())
	}
	res.Ranges = ranges.list

	merged := findings.MergeVerdicts(clients)
	res.Clients = findings.ClientListOf(merged)
	res.DistinctClients, res.ClientsEstimated = int64(len(merged)), estimated
	if estimated {
		// Folded clients are known only by each part's estimate.
		res.DistinctClients = max(estimate, int64(len(merged)))
	}
	rank := findings.RankOf(merged)
	res.Violations = findings.ViolationListOf(findings.MergeViolations(violations, rank))
	findings.Merge(res, results, rank, &findings.Overlap{Parts: clients, Merged: merged})
	countClients(res, merged)
	return rep
}

// mergeInputs sets what rep says of its inputs (lines, files, formats,
// robots.txt sources, errors, the window) from the parts'.
func mergeInputs(rep *Report, parts []*jsonPart) {
	var (
		windows set[string]
		// The lists the parts' lists are merged into, without repeats.
		formats, files, robotsTxt, robotsFailed, errs set[string]
		fileFormats                                   set[FileFormat]
	)
	for _, p := range parts {
		s := p.Summary
		rep.Stats.Lines += s.Lines
		rep.Stats.Records += s.Records
		rep.Stats.Malformed += s.Malformed
		rep.Stats.Directives += s.Directives
		if s.First != nil && (rep.Stats.First.IsZero() || s.First.Before(rep.Stats.First)) {
			rep.Stats.First = *s.First
		}
		if s.Last != nil && s.Last.After(rep.Stats.Last) {
			rep.Stats.Last = *s.Last
		}
		for f := range strings.SplitSeq(s.Format, ", ") {
			if f != "" {
				formats.add(f)
			}
		}
		for _, m := range p.Malformed {
			rep.Stats.Samples = append(rep.Stats.Samples, &logparse.ParseError{File: m.File, Line: m.Line, Column: m.Column, Text: m.Text, Err: errors.New(m.Reason)})
		}
		files.add(s.Files...)
		fileFormats.add(s.FileFormats...)
		rep.Reordered = rep.Reordered || s.Reordered
		robotsTxt.add(s.RobotsTxt...)
		robotsFailed.add(s.RobotsTxtFailed...)
		errs.add(p.Errors...)
		rep.Partial = rep.Partial || s.Partial
		if s.Window != "" {
			windows.add(s.Window)
		}
		rep.Outside += s.Outside
	}
	rep.Window = strings.Join(windows.list, "; ")
	rep.Stats.Format = strings.Join(formats.list, ", ")
	rep.Files, rep.FileFormats, rep.Robots, rep.RobotsFailed, rep.Errors = files.list, fileFormats.list, robotsTxt.list, robotsFailed.list, errs.list
	fileOrder := func(name string) int {
		if i, ok := files.seen[name]; ok {
			return i
		}
		return -1 // a sample of a file no part lists: first, as slices.Index had it
	}
	slices.SortStableFunc(rep.Stats.Samples, func(a, b *logparse.ParseError) int {
		return cmp.Or(cmp.Compare(fileOrder(a.File), fileOrder(b.File)), cmp.Compare(a.Line, b.Line))
	})
	rep.Stats.Samples = rep.Stats.Samples[:min(len(rep.Stats.Samples), logparse.MaxSamples)]
}

// countClients counts the merged clients by their verdicts into res's
// totals: a client of several parts (days) is one, robot if any part
// judged it one; Other's robots count too.
func countClients(res *findings.Result, merged []findings.Verdict) {
	junk := map[string]bool{}
	for i := range merged {
		v := &merged[i]
		if v.Robot {
			res.RobotCount++
			res.RobotRequests += v.Requests
			res.RobotBytes = findings.SaturatingAdd(res.RobotBytes, v.Bytes)
		}
		res.ClientBytes = findings.SaturatingAdd(res.ClientBytes, max(v.Bytes, 0))
		if v.Kind == findings.KindScanner {
			if res.Scanners++; res.Scanners == 1 {
				res.FirstScanner = v.IP
			}
		}
		if v.Kind == findings.KindJunk {
			res.JunkConnections += v.Requests
			if !junk[v.IP] {
				junk[v.IP] = true
				res.JunkAddresses++
			}
		}
	}
	res.RobotCount += int(res.Other.Robots)
}

// result is the part as the findings of a pass, for findings.Merge: its
// rows with the whole lists of paths and prefixes its state keeps, and
// its totals.
func (p *jsonPart) result() *findings.Result {
	s := p.Summary
	r := &findings.Result{Totals: *s.totals(), Other: s.Other, ViolationsChecked: s.ViolationsChecked,
		BytesSaturated: s.BytesSaturated, RangesNewer: s.RangesNewer,
		Robots: p.Robots, Incidents: p.Incidents, Timeline: p.Timeline, RobotBuckets: p.State.ByRobot, Panels: p.Panels,
		Networks: findings.NetworkListOf(p.Networks), Operators: p.Operators, Watched: p.Watched, Edges: p.State.Edges}
	if s.First != nil {
		r.First = *s.First
	}
	if s.Last != nil {
		r.Last = *s.Last
	}
	for i := range r.Robots {
		row := &r.Robots[i]
		if all, ok := p.State.Paths[row.Name]; ok {
			row.AllTopPaths, row.TopPathsBase = all.Paths, all.Base
		}
		if pre := p.State.Prefixes[row.Name]; pre != nil {
			row.AllPrefixes = pre
		}
	}
	if all := p.State.RobotPaths; all != nil {
		r.Panels.AllRobotPaths, r.Panels.RobotPathsBase = all.Paths, all.Base
	}
	return r
}

// totals are the counts of a part that add up over parts. Those of its
// clients by their verdicts (robots, junk, robot requests and bytes) are
// not: merge counts them again from the merged clients, one client of
// several days once.
func (s *jsonSummary) totals() *findings.Totals {
	return &findings.Totals{
		Records: s.Records, LateRecords: s.LateRecords, FutureRecords: s.FutureRecords, Unchecked: s.UncheckedRecords,
		ViolationCount: s.Violations, ViolationsUnlisted: s.ViolationsUnlisted, IncidentCount: s.Incidents, IncidentsUnlisted: s.IncidentsUnlisted,
		WatchDropped: s.WatchDropped, DNSChecked: s.DNSChecked, RangesEarliest: s.RangesEarliest,
	}
}

// judgedApart counts the clients of more than one part that every part
// judged a person: merge keeps the parts' verdicts (it has no requests to
// judge again), where one pass would weigh their requests together.
func judgedApart(parts []*jsonPart) int {
	type seen struct {
		parts int
		robot bool
	}
	by := map[clientKey]*seen{}
	for _, p := range parts {
		for i := range p.Clients {
			v := &p.Clients[i]
			k := clientKey{v.IP, v.UserAgent}
			c := by[k]
			if c == nil {
				c = &seen{}
				by[k] = c
			}
			c.parts++
			c.robot = c.robot || v.Robot
		}
	}
	n := 0
	for _, c := range by {
		if c.parts > 1 && !c.robot {
			n++
		}
	}
	return n
}

// clientKey is a client as a report tells them apart: address and User-agent.
type clientKey struct{ ip, ua string }

// dayEdges says, for a merge of days, which judgements one run over them
// may make otherwise: those a day made without the report of the day
// before (--state-from), when a robot crawled on both; "" when none.
func dayEdges(parts []*jsonPart) string {
	n := 0
	for i := 1; i < len(parts); i++ {
		a, b := parts[i-1], parts[i]
		if b.Summary.Shard != "" || b.State.SeededFrom == hex.EncodeToString(a.digest[:]) {
			continue
		}
		seen := make(map[clientKey]bool, len(a.State.Edges))
		for _, e := range a.State.Edges {
			seen[clientKey{e.IP, e.UserAgent}] = true
		}
		if slices.ContainsFunc(b.State.Edges, func(e findings.ClientEdge) bool { return seen[clientKey{e.IP, e.UserAgent}] }) {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d of the days merged were not run --state-from the report of the day before: their robots' first requests were judged without the copy of robots.txt fetched the day before (the 24-hour cache rule, an unreachable robots.txt), and a minute after a 429 or 503 before midnight ended at midnight; sessions, robots_txt_max_gap_s and crawl_delay_compliance are exact", n)
}

// set is a list without repeats, in the order first added, and each
// value's place in it. Adding is a map lookup: a part may list tens of
// thousands of files, errors or formats (a hand-edited one, or the merge
// of many), and a search of the list for each (slices.Contains) made a
// merge quadratic in them: 80,000 files in one part took 18 s.
type set[T comparable] struct {
	list []T
	seen map[T]int
}

func (s *set[T]) add(vs ...T) {
	for _, v := range vs {
		if _, ok := s.seen[v]; ok {
			continue
		}
		if s.seen == nil {
			s.seen = make(map[T]int)
		}
		s.seen[v] = len(s.list)
		s.list = append(s.list, v)
	}
}
