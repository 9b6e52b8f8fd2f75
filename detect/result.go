package detect

import (
	"math"
	"time"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/findings"
)

// Result ends the pass and returns the verdicts. The first call does the
// work; later calls return the same Result, and Add is ignored after it.
func (d *Detector) Result() *findings.Result {
	if d.result != nil {
		return d.result
	}
	res, lt := d.passTotals()
	// The pass has read its last record: what only reading needed (the
	// User-agent interning, the classifier's cache, the clients' index
	// and eviction heap: 11 MB of indexes for the churn log's 250,000
	// clients) goes before the clients' sort keys and the verdicts are
	// made, not after, so the two are never held together. The
	// User-agent records stay, for the parked clients that name them.
	d.uas.index, d.uas.places.free = slotIndex{}, nil
	d.agents, d.agentSet, d.agentPurpose = agents.Classifier{}, nil, nil
	d.clients.readOnly()
	d.recent = nil
	sorted := sortClients(&d.clients)
	if d.cfg.Watch != nil {
		res.Watched = d.timelines()
	}
	// The verdicts are built from the clients when the report reads them
	// (see ClientList); here each client is judged once for the summaries,
	// and what only the pass needed is let go.
	lt.fleets = d.fleets
	env := &verdictEnv{lt: lt, cfg: d.cfg, loc: d.loc, addrs: addressesOf(&d.clients), dns: d.dns.answers}
	// The clients are in sorted now, which holds their records.
	d.clients = clientTable{}
	res.DNSChecked = d.dns.checked
	pc := &passClients{clients: sorted, env: env, plain: newClientBits(len(sorted))}
	res.Clients = findings.NewClientList(pc)
	b := &summarizing{sum: findings.NewSummary(len(sorted)), env: env, pc: pc, checked: res.ViolationsChecked,
		viols: &storedViolations{index: new(findings.Index)}, folded: d.other.Requests > 0, methods: map[string]int64{}}
	b.countHeld = b.folded && d.cfg.MaxClients > 0
	for lo := 0; lo < len(sorted); lo += touchAhead {
		batch := sorted[lo:min(lo+touchAhead, len(sorted))]
		b.touched += touchClients(batch)
		b.hashBatch(batch)
		for k, r := range batch {
			d.summarizeRef(lo+k, r, b)
		}
	}
	if res.ClientsEstimated {
		// A client folded and seen again is one client, not two.
		res.DistinctClients = max(d.seenClients(&b.held), res.DistinctClients)
	}
	d.th.pool = nil
	res.Violations = findings.NewViolationList(b.viols)
	d.finish(res, b)
	d.result = res
	return res
}

// touchAhead is how many clients touchClients reads ahead of summarize.
const touchAhead = 32

// touchClients reads of each client what summarize reads first (the
// client, its User-agent's record, its address and User-agent): the
// sorted clients are far apart in memory, and summarize, reading one
// client at a time, waited on each of these reads in turn, where here
// the reads of the batch are independent and overlap. It returns a
// count made of what it read, for the reads not to be left out.
func touchClients(cs []clientRef) int {
	n := 0
	for _, r := range cs {
		ua, ip := r.agent(), r.ip()
		if ua.dummy {
			n++
		}
		if len(ip) > 0 && ip[0] == 0 {
			n++
		}
		if len(ua.ua) > 0 && ua.ua[0] == 0 {
			n++
		}
		if r.c != nil && r.c.x != nil {
			n++
		}
	}
	return n
}

// passTotals starts the Result with what the pass counted as it read,
// before any client is judged, and the log's traits.
func (d *Detector) passTotals() (*findings.Result, logTraits) {
	res := &findings.Result{
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
	res.Ranges = nonNil(d.cfg.ranges().Files)
	res.RangesNewer = d.oldLog()
	// A client's bytes bound those of its seconds and incidents, and a
	// folded client's saturated total saturates Other's: these are all the
	// totals to look at.
	res.BytesSaturated = d.other.Bytes == math.MaxInt64
	res.WatchDropped = d.watchDropped
	res.DistinctClients = int64(d.clients.len())
	// Estimated when some client was folded: after the clients are
	// summarized, which hashes them (Result).
	res.ClientsEstimated = d.other.Requests > 0
	// Folded clients' findings count in the totals (their rows are gone).
	res.ViolationCount += d.other.Violations
	res.IncidentCount += int(d.other.Incidents)
	res.ViolationsUnlisted += d.unlisted.violations
	res.IncidentsUnlisted += int(d.unlisted.incidents)
	lt := d.counts.traits()
	res.AssetsElsewhere, res.LogPages, res.LogAssets = lt.assetsElsewhere, d.counts.pages, d.counts.plainAssets
	return res, lt
}

// finish sets what the clients summed up to on res, once every client
// was summarized.
func (d *Detector) finish(res *findings.Result, b *summarizing) {
	b.sum.ListNetworks()
	for i, t := range b.tallies {
		s := b.sum.Row(i)
		s.Status = t.status
		s.SetTopPaths(t.list(&d.pan.paths, !d.merged))
	}
	b.tallies = nil
	res.Panels = findings.Panels{RobotStatus: b.all.status, HumanStatus: b.humans.status, Uncounted: b.all.uncounted + b.humans.uncounted, Unlisted: b.all.unlisted + b.humans.unlisted}
	res.Panels.SetRobotPaths(b.all.list(&d.pan.paths, !d.merged))
	b.all, b.humans, d.pan = pathTally{}, pathTally{}, panels{}
	for op, n := range d.otherReferred {
		b.sum.Refer(op, n)
	}
	b.sum.Finish(res)
	if b.folded {
		u := d.otherRobots.union(&b.robotsSeen)
		res.RobotCount = int(max(u.estimate(), int64(res.RobotCount)))
	}
	res.Timeline, res.RobotBuckets = d.timelineResult(b.robotClients, res.Robots)
	res.Edges = b.edges
	findings.SortEdges(res.Edges)
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

func peakOf(c *client, loc *time.Location) findings.Peak {
	r := &c.rate
	p := findings.Peak{Per1s: int(r.peak1), Per10s: int(r.peak10), Per60s: int(r.peak60)}
	if r.peak1 > 0 {
		p.At1s = atIn(c.second(r.at1, wideAt1), loc)
		p.At10s = atIn(c.second(r.at10, wideAt10), loc)
		p.At60s = atIn(c.second(r.at60, wideAt60), loc)
	}
	return p
}

func (d *Detector) incident(c *client, in incident, name string) findings.Incident {
	other := in.requests
	for _, n := range in.status {
		other -= n
	}
	return findings.Incident{
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
		Status:        findings.StatusMix{S2xx: in.status[0], S3xx: in.status[1], S4xx: in.status[2], S5xx: in.status[3], Other: other},
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

// oldLog reports whether the log starts before the range lists' history
// begins (agents.Ranges.NewerThan). A Pool's workers each say so of their
// own share; the earliest one's answer is the log's.
func (d *Detector) oldLog() bool {
	return d.started && d.cfg.ranges().NewerThan(d.first)
}
