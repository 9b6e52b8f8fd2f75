package detect

import (
	"cmp"
	"time"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/findings"
)

// passClients are the clients of a pass in the clients list's order,
// judged as they are read (findings.ClientList).
type passClients struct {
	clients      []clientRef
	env          *verdictEnv
	firstScanner *client // the first client of kind scanner (Result.FirstScanner), for a Pool's merge
	// plain marks, by place in clients, those that summarize judged to
	// have nothing against them: no score, reason, detail nor kind of
	// their own. Most clients of a busy log are such people; judging
	// them again for the report touched their User-agent's text, the
	// fleets and the address statistics for nothing (a tenth of the CPU
	// of the end of a churn pass). Nothing judge reads changes after
	// summarize (TestPlainAsJudged).
	plain clientBits
}

// clientBits is a set of places in a clients list.
type clientBits []uint64

func (b clientBits) has(i int) bool { return i>>6 < len(b) && b[i>>6]&(1<<(i&63)) != 0 }

func (b clientBits) set(i int) { b[i>>6] |= 1 << (i & 63) }

// newClientBits is an empty set for a list of n clients.
func newClientBits(n int) clientBits { return make(clientBits, (n+63)/64) }

// Len is how many clients there are.
func (p *passClients) Len() int { return len(p.clients) }

// At judges the i-th client.
func (p *passClients) At(i int) findings.Verdict {
	var v findings.Verdict
	p.VerdictInto(i, &v)
	return v
}

// VerdictInto judges the i-th client into v, all of it (findings.Into).
func (p *passClients) VerdictInto(i int, v *findings.Verdict) {
	var tmp client // a parked client's copy (clientRef.load)
	c := p.clients[i].load(&tmp)
	if p.plain.has(i) {
		p.env.verdictInto(v, c, &judgement{})
		return
	}
	j := p.env.judge(c)
	p.env.verdictInto(v, c, &j)
}

// ReadAhead reads what judging the clients from lo to hi-1 reads first
// (touchClients): the clients list is in sorted order, far apart in
// memory, and the report's verdicts waited on each client's record and
// its User-agent's in turn, where here the reads overlap (verdictApart
// was the largest flat entry of the churn log's CPU profiles, its first
// reads of the client).
func (p *passClients) ReadAhead(lo, hi int) int { return touchClients(p.clients[lo:hi]) }

// Key is the i-th client's address and User-agent.
func (p *passClients) Key(i int) (ip, ua string) { return p.clients[i].ip(), p.clients[i].agent().ua }

// clientsOf is the pass's clients of a Result: nil for a list of verdicts.
func clientsOf(l findings.ClientList) *passClients {
	p, _ := l.Lazy().(*passClients)
	return p
}

// verdictEnv is what building a Verdict needs besides the client.
type verdictEnv struct {
	lt    logTraits
	cfg   Config
	loc   *time.Location              // the log's zone, for peak times
	addrs map[string]addressStats     // what the clients of each address did together (address.go)
	dns   map[string]agents.DNSResult // what DNS said of addresses whose claim the ranges could not settle
}

// verdict judges c.
func (e *verdictEnv) verdict(c *client) findings.Verdict {
	j := e.judge(c)
	return e.verdictOf(c, &j)
}

// judge is the judgement on c: its own and its address's.
func (e *verdictEnv) judge(c *client) judgement {
	j := judge(c, e.lt, &e.cfg)
	if j.kind == "" {
		if why := e.rotation(c); why != "" {
			j.add(findings.ReasonBehaviour, pointsRotating, why)
		}
	}
	return j
}

// verdictOf is the verdict on c, judged j (e.judge).
func (e *verdictEnv) verdictOf(c *client, j *judgement) findings.Verdict {
	var v findings.Verdict
	e.verdictInto(&v, c, j)
	return v
}

// verdictInto sets v, all of it, to the verdict on c, judged j: where it
// goes, not returned and copied at each call (a verdict is 488 bytes; the
// copies were a fifth of judging a churn log's client for the report,
// cachegrind).
func (e *verdictEnv) verdictInto(v *findings.Verdict, c *client, j *judgement) {
	e.fillApart(v, c, j)
	v.Network = networkName(c.ip)
}

// networkName is the network of a client address, as NetworkOf's String
// writes it; "" for a host name.
func networkName(ip string) string {
	// One allocation where String makes three, for every client twice
	// (summarize, then the report).
	var buf [64]byte
	b, _ := findings.AppendNetwork(buf[:0], ip)
	return string(b)
}

// verdictApart is verdictOf without the network.
func (e *verdictEnv) verdictApart(c *client, j *judgement) findings.Verdict {
	var v findings.Verdict
	e.fillApart(&v, c, j)
	return v
}

// fillApart sets v, all of it, to verdictApart's verdict on c.
func (e *verdictEnv) fillApart(v *findings.Verdict, c *client, j *judgement) {
	var delay time.Duration
	var tooFast bool
	if j.robot() {
		var detail string
		if delay, tooFast, detail = crawlDelay(c); detail != "" {
			j.details = append(j.details, detail)
		}
	}
	*v = findings.Verdict{
		IP:               c.ip,
		UserAgent:        c.ua.ua,
		Robot:            j.robot(),
		Name:             c.ua.agent.Name,
		Kind:             cmp.Or(j.kind, c.ua.agent.Kind.String()),
		Score:            j.score,
		Reasons:          nonNil(j.reasons),
		Details:          nonNil(j.details),
		Requests:         int64(c.requests),
		Bytes:            c.bytes,
		Pages:            int64(c.pages),
		Assets:           int64(c.assets),
		Errors:           int64(c.errors),
		RobotsTxtFetches: int64(c.robotsTxt),
		Incidents:        c.incidentCount(),
		First:            c.first.time(),
		Last:             c.lastOf().time(),
		Peak:             peakOf(c, e.loc),
		CrawlDelay:       delay.Seconds(),
		CrawlDelayFast:   tooFast,
	}
	switch v.Kind {
	case findings.KindServer:
		// Named for what it is: "PHP" (the product token it carries)
		// would read as a PHP script's visits.
		v.Name, v.Incidents = "(this server)", 0
	case findings.KindJunk:
		v.Name, v.Incidents = "(no request)", 0
	}
	if cv := c.rare().viol; v.Robot && cv != nil {
		v.Violations = cv.n
	}
	if v.Robot {
		v.Cached = c.rare().cached
		v.PreferenceConflicts, v.PreferenceRule = c.rare().prefConflicts, c.rare().prefLine
		v.Discovery = discoveryOf(c.rare().discovery)
	}
	byNetwork := v.Robot && (c.ua.agent.Kind == agents.Browser || c.ua.agent.Kind == agents.Suspicious ||
		c.ua.agent.Kind == agents.Empty && (!e.lt.hasUA || c.flags&flagAgentField == 0))
	if byNetwork {
		// Found by what it did, under a browser's name: "Chrome" would
		// name millions of people, and an implausible "Chrome" names no
		// one either. In a log without a User-agent field, "(empty)"
		// would make every robot of the log one. Its network says where
		// it came from.
		v.Name = unnamed(c.ip)
	} else if c.ua.agent.Kind != agents.Browser {
		// A browser's name claims no crawler: "Yandex Browser" is people
		// using Yandex's browser, not Yandex's robot from a wrong address.
		v.Operator, v.Identity, v.VerifiedBy, v.IdentityNote = e.cfg.ranges().IdentifyAt(v.Name, c.ip, c.first.time(), c.lastOf().time())
	}
	// DNS settles what the ranges could not, and overrules a range file
	// that calls the operator's own crawler an impostor: the file is a
	// copy of a day's list, the operator's DNS says today's. A name under
	// a domain that may not verify this robot (googleusercontent.com for
	// Googlebot) is no confirmation (agents.DNSResult.For). The ranges'
	// note goes with their judgment.
	if r, ok := e.dns[c.ip]; ok {
		r = r.For(v.Name)
		if v.Identity == agents.IdentityUnverified && r.Identity != agents.IdentityUnverified ||
			v.Identity == agents.IdentityImpostor && r.Identity == agents.IdentityVerified {
			v.Identity, v.IdentityNote = r.Identity, ""
			if r.Identity == agents.IdentityVerified {
				v.VerifiedBy = agents.VerifiedByDNS
			}
		}
	}
	signed(v, c)
	v.Purpose = purposeText(c, v.Name)
}

// purposeText is agents.Purpose(name), for a verdict on c named name. The
// name is most often its User-agent's, whose purpose was found when the
// value was interned: looking it up in the catalogue again, for every
// client twice (summarize, then the report), was 80 ms of 3 CPU profiles
// of the churn log.
func purposeText(c *client, name string) string {
	if i := int(c.ua.purpose); name == c.ua.agent.Name && i < len(fixedPurposes) {
		return fixedPurposes[i]
	}
	return agents.Purpose(name)
}
