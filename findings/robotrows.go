package findings

import "slices"

// robotRows are robots rows by name as a pass (Summary) and a merge
// (mergeRobots) build them: a row is added to by add, whether what joins it
// is one client or a part's row, and finished by finish.
//
// A row per name is found by its index: on a log of many robot names (a
// flood of made-up ones), rows kept beside pointers to copies of them, and
// a prefix count per name that broke no rule, were most of the memory at
// the end.
type robotRows struct {
	at       map[string]int
	list     []RobotSummary
	prefixes map[string]map[string]int64 // violations by prefix, of the names with some
}

func newRobotRows(names int) robotRows {
	return robotRows{at: make(map[string]int, names), list: make([]RobotSummary, 0, names), prefixes: map[string]map[string]int64{}}
}

// index is the index of name's row; false when it has none yet.
func (t *robotRows) index(name string) (int, bool) {
	i, ok := t.at[name]
	return i, ok
}

// push makes r the row of its name and returns its index.
func (t *robotRows) push(r RobotSummary) int {
	i := len(t.list)
	if i == cap(t.list) {
		// append grows a long list by a quarter at a time: with rows of 624
		// bytes, the 4,700 names of each worker on the churn log allocated
		// five times their list (25 MB of the 155 MB allocated at the end
		// of the pass). Doubling allocates twice.
		grown := make([]RobotSummary, i, max(2*i, 8))
		copy(grown, t.list)
		t.list = grown
	}
	t.at[r.Name] = i
	t.list = append(t.list, r)
	return i
}

// addPrefixes adds violations by prefix to name's.
func (t *robotRows) addPrefixes(name string, pre []PrefixCount) {
	if len(pre) == 0 {
		return
	}
	m := t.prefixes[name]
	if m == nil {
		m = map[string]int64{}
		t.prefixes[name] = m
	}
	for _, p := range pre {
		m[p.Prefix] += p.Count
	}
}

// finish works out each row's compliance (checked: violations were
// checked at all), conduct shares and top prefixes, and returns the rows
// in the robots list's order.
func (t *robotRows) finish(checked bool) []RobotSummary {
	for i := range t.list {
		s := &t.list[i]
		s.setCompliance(checked && s.checked)
		s.Conduct.Finish()
		s.Prefixes, s.AllPrefixes = nil, nil
		for p, n := range t.prefixes[s.Name] {
			s.Prefixes = append(s.Prefixes, PrefixCount{Prefix: p, Count: n})
		}
		sortPrefixes(s)
	}
	slices.SortFunc(t.list, robotOrder)
	return t.list
}

// add adds r, a row of one client or a part's row of the same name, to s:
// every count but its Reasons, prefixes and paths, which come in other
// forms from a pass and from a part.
func (s *RobotSummary) add(r *RobotSummary) {
	s.Identity, s.VerifiedBy = joinIdentities(s.Identity, s.VerifiedBy, r.Identity, r.VerifiedBy)
	s.checked = s.checked || r.checked
	s.CrawlDelayFast = s.CrawlDelayFast || r.CrawlDelayFast
	s.Clients += r.Clients
	s.Requests += r.Requests
	s.Bytes = AddBytes(s.Bytes, max(r.Bytes, 0))
	s.Violations += r.Violations
	s.Cached += r.Cached
	s.addAI(r.PreferenceConflicts, r.PreferenceRule, r.Discovery)
	s.Incidents += r.Incidents
	s.Status.Add(r.Status)
	s.FetchedRobotsTxt = s.FetchedRobotsTxt || r.FetchedRobotsTxt
	s.UnreachableRequests += r.UnreachableRequests
	s.RobotsTxtServed.Add(&r.RobotsTxtServed)
	s.Conduct.Add(&r.Conduct)
	if r.FirstFetch != nil {
		s.FirstFetch = earliest(s.FirstFetch, *r.FirstFetch)
	}
	if r.FirstViolation != nil {
		s.FirstViolation = earliest(s.FirstViolation, *r.FirstViolation)
	}
	if r.LastViolation != nil {
		s.LastViolation = latest(s.LastViolation, *r.LastViolation)
	}
}
