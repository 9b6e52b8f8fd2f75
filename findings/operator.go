package findings

import (
	"cmp"
	"maps"
	"math"
	"slices"
)

// OperatorSummary is what the verified crawlers of one operator did, over
// all of their networks: the view for "how hard does Google hit us".
type OperatorSummary struct {
	Operator   string `json:"operator"`
	Networks   int    `json:"networks"` // distinct /24 and /48 networks its verified crawlers came from
	Clients    int    `json:"clients"`
	Robots     int    `json:"robots"`
	Requests   int64  `json:"requests"`
	UserAgents int    `json:"user_agents"` // distinct User-agents (up to maxNetworkAgents)
	Violations int64  `json:"violations"`
	Incidents  int    `json:"incidents"`

	// Crawl-to-refer: Pages are the page requests of its verified
	// crawlers; ReferredViews the page views of people its products sent
	// (a Referer of its search engine or assistant, or ChatGPT's
	// utm_source tag: agents.Referral); CrawlToRefer is Pages per
	// referred view, null when its products sent no one. A row may have
	// referred views and no crawler.
	Pages         int64    `json:"pages"`
	ReferredViews int64    `json:"referred_views"`
	CrawlToRefer  *float64 `json:"crawl_to_refer"`

	// The sets behind Networks and UserAgents, kept for merging (the JSON
	// report's state): network texts, and FNV-1a hashes of User-agents.
	NetworkSet []string `json:"-"`
	AgentSet   []uint64 `json:"-"`
}

// operatorTally sums the verified clients by operator.
type operatorTally map[string]*operatorSets

type operatorSets struct {
	s      OperatorSummary
	nets   map[string]struct{}
	agents map[uint64]struct{}
}

// row returns the row of op, made on first use.
func (o operatorTally) row(op string) *operatorSets {
	e := o[op]
	if e == nil {
		e = &operatorSets{s: OperatorSummary{Operator: op}, nets: map[string]struct{}{}, agents: map[uint64]struct{}{}}
		o[op] = e
	}
	return e
}

// Refer counts page views of people that op's products sent.
func (o operatorTally) Refer(op string, views int64) {
	if views > 0 {
		o.row(op).s.ReferredViews += views
	}
}

// Add counts a client, if it is a verified crawler; ua is the agentHash
// of its User-agent.
func (o operatorTally) Add(v *Verdict, ua uint64) {
	if v.Identity != IdentityVerified || v.Operator == "" {
		return
	}
	e := o.row(v.Operator)
	e.s.Clients++
	e.s.Requests += v.Requests
	e.s.Pages += v.Pages
	e.s.Violations += v.Violations
	e.s.Incidents += v.Incidents
	if v.Robot {
		e.s.Robots++
	}
	if v.Network != "" {
		e.nets[v.Network] = struct{}{}
	}
	if len(e.agents) < maxNetworkAgents {
		e.agents[ua] = struct{}{}
	}
}

// agentHash is FNV-1a (64 bits) of a User-agent: the same in every run,
// so that merged reports can take the union of their sets.
func agentHash(ua string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(ua); i++ {
		h ^= uint64(ua[i])
		h *= 1099511628211
	}
	return h
}

// List is the operators, most requests first.
func (o operatorTally) List() []OperatorSummary {
	out := make([]OperatorSummary, 0, len(o))
	for _, e := range o {
		s := e.s
		s.NetworkSet = slices.Sorted(maps.Keys(e.nets))
		s.AgentSet = slices.Sorted(maps.Keys(e.agents))
		s.Networks, s.UserAgents = len(s.NetworkSet), len(s.AgentSet)
		s.CrawlToRefer = CrawlToRefer(s.Pages, s.ReferredViews)
		out = append(out, s)
	}
	sortOperators(out)
	return out
}

// CrawlToRefer is pages per referred view to two decimals, from the
// counts as they stand (summed over parts, never an average of ratios);
// nil without a referred view.
func CrawlToRefer(pages, views int64) *float64 {
	if views <= 0 {
		return nil
	}
	r := math.Round(float64(pages)/float64(views)*100) / 100
	return &r
}

func sortOperators(out []OperatorSummary) {
	slices.SortFunc(out, func(a, b OperatorSummary) int {
		return cmp.Or(cmp.Compare(b.Requests, a.Requests), cmp.Compare(a.Operator, b.Operator))
	})
}

// mergeOperators combines operators lists: counts add up, networks and
// User-agents are the union of the parts' sets.
func mergeOperators(parts [][]OperatorSummary) []OperatorSummary {
	o := operatorTally{}
	for _, p := range parts {
		for _, s := range p {
			e := o.row(s.Operator)
			e.s.Clients += s.Clients
			e.s.Pages += s.Pages
			e.s.ReferredViews += s.ReferredViews
			e.s.Robots += s.Robots
			e.s.Requests += s.Requests
			e.s.Violations += s.Violations
			e.s.Incidents += s.Incidents
			for _, n := range s.NetworkSet {
				e.nets[n] = struct{}{}
			}
			for _, a := range s.AgentSet {
				if len(e.agents) < maxNetworkAgents {
					e.agents[a] = struct{}{}
				}
			}
		}
	}
	return o.List()
}
