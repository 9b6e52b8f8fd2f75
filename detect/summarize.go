package detect

import (
	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/findings"
)

// summarizing is what Result keeps beside the findings.Summary while it
// judges each client once: what only detect can sum (the clients' answers
// and path sketches, their timeline bins, violations and edges).
type summarizing struct {
	sum     *findings.Summary
	env     *verdictEnv
	pc      *passClients
	checked bool // violations were checked (Result.ViolationsChecked)
	viols   *storedViolations

	tallies      []*pathTally // per robots row, by the index Summary.Add gives
	all, humans  pathTally    // every robot's and every person's
	robotClients []robotBins
	edges        []findings.ClientEdge

	// Robots are counted as distinct clients too: one folded, seen again
	// and folded again (or tracked at the end) is one robot, not one a
	// fold.
	folded     bool // some client was folded into Other
	robotsSeen distinctCount

	touched int // touchClients's counts, read by no one

	// methods is the map of a robot client's requests by method (see
	// conductOf), the same for every client: Summary.Add copies it.
	methods map[string]int64

	// The hashes of the batch of clients being summarized, by place in
	// the batch (hashBatch): their User-agents' agentHash, and when
	// clients were folded their clientHash, and held, the distinct count
	// of the clients held (when countHeld).
	agentHashes  [touchAhead]uint64
	clientHashes [touchAhead]uint64
	countHeld    bool
	held         distinctCount

	// parked is the record a parked client is unpacked into to be
	// summarized (it is parked again after, as summarize left it).
	parked client
}

// hashBatch hashes the clients of a batch, each User-agent once: for the
// summary's counts of User-agents (findings.ClientFacts.AgentHash), and
// after a fold for the count of distinct robots and clients. Each was a
// pass of its own over the clients' User-agents, 250,000 cold texts of
// 120 bytes on the churn log: the held clients' hashes in their table,
// and the summary's maphash of each in the sorted order.
func (b *summarizing) hashBatch(cs []clientRef) {
	// A byte of each further line of each text first (touchClients read
	// the first): reads independent of each other, which overlap, where
	// the hash read each text line after line (agentHashes4 135 -> 55 of
	// the churn log's perf samples).
	for _, r := range cs {
		ua := r.agent().ua
		for at := 64; at < len(ua); at += 64 {
			b.touched += int(ua[at] >> 7)
		}
		if len(ua) > 0 {
			b.touched += int(ua[len(ua)-1] >> 7)
		}
	}
	var uas [4]string
	k := 0
	for ; k+4 <= len(cs); k += 4 {
		for j := range uas {
			uas[j] = cs[k+j].agent().ua
		}
		h := agentHashes4(&uas)
		copy(b.agentHashes[k:k+4], h[:])
	}
	for ; k < len(cs); k++ {
		b.agentHashes[k] = pathHash(cs[k].agent().ua)
	}
	if !b.folded {
		return
	}
	for k, r := range cs {
		h := mixClientHash(pathHash(r.ip()), b.agentHashes[k])
		b.clientHashes[k] = h
		if b.countHeld {
			b.held.add(h)
		}
	}
}

// summarizeRef summarizes the i-th of the clients list, r. A parked
// client is summarized in a copy and parked again, as summarize left it,
// unless summarize kept it in a record of its own (keep) or it no longer
// fits a parked entry (kept likewise).
func (d *Detector) summarizeRef(i int, r clientRef, b *summarizing) {
	if r.c != nil {
		d.summarize(i, r.c, b)
		return
	}
	c := &b.parked
	*c = client{}
	r.p.view(c)
	if d.summarize(i, c, b) == c && !r.p.pack(c, r.p.owner()) {
		b.keep(i, c)
	}
}

// keep moves c, the i-th client, a parked client's copy, into a record of
// its own for the rest of the Result and the report, which returns it.
func (b *summarizing) keep(i int, c *client) *client {
	k := new(client)
	*k = *c
	b.pc.clients[i] = clientRef{c: k}
	return k
}

// summarize judges c, the i-th of the clients list, for the summary and
// lets go of what only the pass and the summary needed of it (its window,
// timeline bins and panel: the verdicts read none of them).
//
// It returns the client summarized: c, or the record keep moved a parked
// client's copy to.
func (d *Detector) summarize(i int, c *client, b *summarizing) *client {
	d.advance(c, maxSecond)
	recent := c.recent() // for its edge, before its window goes
	c.rate.release(d.th.pool)
	if c.x != nil {
		c.x.watch = nil
	}
	j := b.env.judge(c)
	if j.plain() {
		b.pc.plain.set(i)
	}
	v := b.env.verdictApart(c, &j)
	if c == &b.parked && v.Kind == findings.KindScanner && b.pc.firstScanner == nil {
		// The first scanner is held by pointer (Result.FirstScanner).
		c = b.keep(i, c)
	}
	if v.Identity == agents.IdentityVerified && v.Operator != "" {
		// The summary reads a verdict's network only for the operators'
		// lists of networks; working it out for every client was an
		// address parsed and a string made for nothing (4 MB on the
		// churn log).
		v.Network = networkName(c.ip)
	}
	f := findings.ClientFacts{AgentHash: b.agentHashes[i%touchAhead]}
	if v.Kind != findings.KindServer && v.Kind != findings.KindJunk {
		f.Incidents, f.IncidentsUnlisted = d.incidentsOf(c, v.Name)
	}
	if v.Kind == findings.KindScanner && b.pc.firstScanner == nil {
		b.pc.firstScanner = c
	}
	if !v.Robot {
		b.sum.Add(&v, &f)
		if v.Kind != findings.KindJunk && v.Kind != findings.KindServer {
			// A person's page views its operators' products sent.
			for _, r := range c.rare().referred {
				b.sum.Refer(r.operator, r.views)
			}
			b.humans.addStatus(c)
		}
		if c.x != nil {
			c.x.viol = nil // a human's violations are not reported
		}
		c.bins, c.pan = clientBins{}, nil
		return c
	}
	if b.folded {
		b.robotsSeen.add(b.clientHashes[i%touchAhead])
	}
	if d.cfg.Events != nil && c.flags&flagAnnounced == 0 {
		// Judged a robot on the whole of its traffic only now.
		d.announce(c, b.env)
	}
	if c.rare().viol != nil {
		b.viols.add(c, v.Name)
	}
	if e, ok := edgeOf(c, recent); ok { // before conductOf closes its open minute
		b.edges = append(b.edges, e)
	}
	robotFacts(c, &f, b.checked, b.methods)
	row := b.sum.Add(&v, &f)
	if row == len(b.tallies) {
		b.tallies = append(b.tallies, &pathTally{})
	}
	b.tallies[row].add(c)
	b.all.add(c)
	b.robotClients = append(b.robotClients, robotBins{b.sum.Row(row).Name, c.bins, c.first, c.lastOf()})
	c.bins, c.pan = clientBins{}, nil
	return c
}

// robotFacts sets what the robots row of c needs beyond its verdict (a
// new per-robot number is set here, on f.Robot); checked: violations were
// checked at all; methods is the map conductOf fills.
func robotFacts(c *client, f *findings.ClientFacts, checked bool, methods map[string]int64) {
	x, r := c.rare(), &f.Robot
	f.Checked = c.flags&flagChecked != 0
	r.Conduct = conductOf(c, checked && f.Checked, methods)
	if fe := x.fetches; fe != nil {
		r.UnreachableRequests, r.RobotsTxtServed = fe.unreachable, fe.served
	}
	if c.robotsTxt > 0 {
		r.FirstFetch = &x.fetches.first
	}
	if cv := x.viol; cv != nil {
		f.ViolationsUnlisted = cv.n - int64(len(cv.list))
		r.FirstViolation, r.LastViolation = &cv.first, &cv.last
		r.Prefixes = cv.prefixes
	}
}

// incidentsOf is c's listed incidents, with name its verdict's, and how
// many more it had.
func (d *Detector) incidentsOf(c *client, name string) ([]findings.Incident, int) {
	list := c.incidents()
	unlisted := c.incidentCount() - len(list)
	if len(list) == 0 {
		return nil, unlisted
	}
	out := make([]findings.Incident, len(list))
	for i, in := range list {
		out[i] = d.incident(c, in, name)
	}
	return out, unlisted
}
