package findings

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
	list     []RobotSummary              // the rows, when made at their number (mergeRobots) or finished
	blocks   [][]RobotSummary            // the rows push made, rowBlock to a block
	prefixes map[string]map[string]int64 // violations by prefix, of the names with some
}

// rowBlock is how many rows push keeps in a block. A list grown by
// append allocated five times itself in rows of 624 bytes (25 MB of the
// 155 MB allocated at the end of a churn pass, 4,700 names a worker), a
// list grown by doubling two to four times; blocks hold each row once,
// and finish's list once more.
const rowBlock = 256

func newRobotRows() robotRows {
	return robotRows{at: map[string]int{}, prefixes: map[string]map[string]int64{}}
}

// index is the index of name's row; false when it has none yet.
func (t *robotRows) index(name string) (int, bool) {
	i, ok := t.at[name]
	return i, ok
}

// push makes r the row of its name and returns its index.
func (t *robotRows) push(r RobotSummary) int {
	k := len(t.blocks)
	if k == 0 || len(t.blocks[k-1]) == rowBlock {
		size := rowBlock
		if k == 0 {
			size = 8 // grown by append: most logs have a few robot names
		}
		t.blocks = append(t.blocks, make([]RobotSummary, 0, size))
		k++
	}
	i := t.len()
	t.blocks[k-1] = append(t.blocks[k-1], r)
	t.at[r.Name] = i
	return i
}

// row is the row at index i (push).
func (t *robotRows) row(i int) *RobotSummary { return &t.blocks[i/rowBlock][i%rowBlock] }

// len is how many rows push made.
func (t *robotRows) len() int {
	if len(t.blocks) == 0 {
		return 0
	}
	return (len(t.blocks)-1)*rowBlock + len(t.blocks[len(t.blocks)-1])
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
	switch len(t.blocks) {
	case 0:
	case 1:
		t.list = t.blocks[0]
	default:
		t.list = make([]RobotSummary, 0, t.len())
		for _, b := range t.blocks {
			t.list = append(t.list, b...)
		}
	}
	t.blocks = nil
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
	sortRobots(t.list)
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
