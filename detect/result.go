package detect

import (
	"cmp"
	"context"
	"math"
	"slices"
	"time"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/findings"
)

// Result ends the pass and returns the verdicts. The first call does the
// work; later calls return the same Result, and Add is ignored after it.
func (d *Detector) Result() *Result {
	if d.result != nil {
		return d.result
	}
	res := &Result{
		Totals:            findings.Totals{Records: d.records, LateRecords: d.late, FutureRecords: d.future, Unchecked: d.checker.unchecked},
		First:             d.first,
		Last:              d.last,
		ViolationsChecked: d.checker.enabled,
		Other:             d.other,
	}
	res.Other.Clients = d.foldedClients()
	folds := d.folded // Add is ignored from now on: the set is the Result's
	res.Folded = &folds
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
	res.ViolationsUnlisted += d.unlisted.violations
	res.IncidentsUnlisted += int(d.unlisted.incidents)
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
	nets, ops := findings.NewNetworkTally(len(sorted)), findings.OperatorTally{}
	pc := &passClients{clients: sorted, env: env}
	res.Clients = findings.NewClientList(pc)
	viols := &storedViolations{index: new(findings.Index)}
	// A robots row per name, found by its index: on a log of many robot
	// names (a flood of made-up ones), rows kept beside pointers to copies
	// of them, and a prefix count per name that broke no rule, were most of
	// the memory at the end.
	byName := map[string]int{}
	var checked []bool // per row: some request of it was checked against a robots.txt (see Compliance)
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
		nets.Add(&v)
		ops.Add(&v)
		if !v.Robot && v.Kind != KindServer && v.Kind != KindJunk {
			// A person's page views its operators' products sent.
			for _, r := range c.rare().referred {
				ops.Refer(r.operator, r.views)
			}
		}
		res.ClientBytes = addBytes(res.ClientBytes, max(v.Bytes, 0))
		if v.Kind == KindScanner {
			if res.Scanners++; res.Scanners == 1 {
				res.FirstScanner, pc.firstScanner = v.IP, c
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
			res.IncidentsUnlisted += c.rate.incidentCount() - len(c.rate.incidents())
			for _, in := range c.rate.incidents() {
				x := d.incident(c, in, v.Name)
				x.Verdict = VerdictHuman
				if v.Robot {
					x.Verdict = findings.RobotRowName(v.Name, v.Identity)
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
			res.ViolationsUnlisted += c.rare().viol.n - int64(len(c.rare().viol.list))
			viols.add(c, v.Name)
		}
		key := findings.RobotRowName(v.Name, v.Identity)
		i, ok := byName[key]
		if !ok {
			i = len(res.Robots)
			byName[key] = i
			checked = append(checked, false)
			res.Robots = append(res.Robots, RobotSummary{Name: key, Reasons: map[string]int{}, Operator: v.Operator, Identity: v.Identity, VerifiedBy: v.VerifiedBy, Purpose: v.Purpose, URL: agents.URL(v.Name)})
		}
		s := &res.Robots[i]
		s.Identity, s.VerifiedBy = findings.JoinIdentities(s.Identity, s.VerifiedBy, v.Identity, v.VerifiedBy)
		s.Clients++
		s.Requests += v.Requests
		s.Bytes = addBytes(s.Bytes, max(v.Bytes, 0))
		s.Violations += v.Violations
		s.Cached += v.Cached
		s.AddAI(v.PreferenceConflicts, v.PreferenceRule, v.Discovery)
		s.Incidents += v.Incidents
		for _, r := range v.Reasons {
			s.Reasons[r]++
		}
		checked[i] = checked[i] || c.flags&flagChecked != 0
		s.CrawlDelayFast = s.CrawlDelayFast || v.CrawlDelayFast
		if e, ok := edgeOf(c, recent); ok { // before conductOf closes its open minute
			res.Edges = append(res.Edges, e)
		}
		k := conductOf(c, res.ViolationsChecked && c.flags&flagChecked != 0)
		s.Conduct.Add(&k)
		if f := c.rare().fetches; f != nil {
			s.UnreachableRequests += f.unreachable
			s.RobotsTxtServed.Add(&f.served)
		}
		if c.robotsTxt > 0 {
			s.FetchedRobotsTxt = true
			s.FirstFetch = findings.Earliest(s.FirstFetch, c.rare().fetches.first)
		}
		if c.rare().viol != nil {
			s.FirstViolation = findings.Earliest(s.FirstViolation, c.rare().viol.first)
			s.LastViolation = findings.Latest(s.LastViolation, c.rare().viol.last)
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
	res.Violations = findings.NewViolationList(viols)

	byName = nil
	for i := range res.Robots {
		s := &res.Robots[i]
		s.SetCompliance(res.ViolationsChecked && checked[i])
		s.Conduct.Finish()
		for p, n := range prefixes[s.Name] {
			s.Prefixes = append(s.Prefixes, PrefixCount{Prefix: p, Count: n})
		}
		findings.SortPrefixes(s)
		if t := tallies[s.Name]; t != nil {
			s.Status = t.status
			s.SetTopPaths(t.list(d.pan.names))
		}
	}
	res.Panels = Panels{RobotStatus: all.status, HumanStatus: humans.status, Uncounted: all.uncounted + humans.uncounted, Unlisted: all.unlisted + humans.unlisted}
	res.Panels.SetRobotPaths(all.list(d.pan.names))
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
		return cmp.Or(findings.HumanLast(&a, &b), cmp.Compare(b.Severity, a.Severity), a.Start.Compare(b.Start))
	})
	res.Incidents = nonNil(res.Incidents)
	if folded {
		u := d.otherRobots.union(&robotsSeen)
		res.RobotCount = int(max(u.estimate(), int64(res.RobotCount)))
	}
	res.Networks = nets.List()
	for op, n := range d.otherReferred {
		ops.Refer(op, n)
	}
	res.Operators = ops.List()
	res.Robots = nonNil(res.Robots)
	res.Timeline, res.RobotBuckets = d.timelineResult(robotClients, res.Robots)
	findings.SortEdges(res.Edges)
	d.result = res
	return res
}

// maxSecond makes every second final at the end of the pass.
const maxSecond = 1<<63 - 1

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
		Status:        StatusMix{S2xx: in.status[0], S3xx: in.status[1], S4xx: in.status[2], S5xx: in.status[3], Other: other},
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
