package findings

// Overlap is what a merge of parts that may share clients (consecutive
// days) needs of them: each part's clients and the merged list, by which
// the rows of a client seen in several parts are counted once and its
// edges joined. Parts whose clients are disjoint (a detect.Pool's
// workers) merge without it.
type Overlap struct {
	Parts  [][]Verdict
	Merged []Verdict
}

// Merge adds up the findings of parts into out, as one pass over all of
// their records finds them: the totals, Other, the span, the robots,
// incidents, panels, timeline, networks, operators, edges and drill-downs.
// The clients and violations lists, which a detect.Pool and a merge of
// reports hold differently, are the caller's, and so is rank: a client's
// place in the merged clients list, which orders violations and
// incidents: Merge calls it only once every other row is merged. With
// overlap nil the parts' clients are disjoint. The merged rows take over
// the parts' (mergeRobots): the parts are not to be used after.
func Merge(out *Result, parts []*Result, rank func(ip, ua string) int, overlap *Overlap) {
	var (
		incidents = make([][]Incident, 0, len(parts))
		robots    = make([][]RobotSummary, 0, len(parts))
		timelines = make([]Timeline, 0, len(parts))
		buckets   = make([][]RobotBuckets, 0, len(parts))
		panels    = make([]Panels, 0, len(parts))
		networks  = make([]NetworkList, 0, len(parts))
		operators = make([][]OperatorSummary, 0, len(parts))
		edges     = make([][]ClientEdge, 0, len(parts))
	)
	for _, r := range parts {
		if !r.First.IsZero() && (out.First.IsZero() || r.First.Before(out.First)) {
			out.First = r.First
		}
		if r.Last.After(out.Last) {
			out.Last = r.Last
		}
		out.Totals.Add(&r.Totals)
		out.Other.Add(&r.Other)
		out.ViolationsChecked = out.ViolationsChecked || r.ViolationsChecked
		out.BytesSaturated = out.BytesSaturated || r.BytesSaturated
		out.RangesNewer = out.RangesNewer || r.RangesNewer
		out.Watched = append(out.Watched, r.Watched...)
		incidents = append(incidents, r.Incidents)
		robots = append(robots, r.Robots)
		timelines = append(timelines, r.Timeline)
		buckets = append(buckets, r.RobotBuckets)
		panels = append(panels, r.Panels)
		networks = append(networks, r.Networks)
		operators = append(operators, r.Operators)
		edges = append(edges, r.Edges)
		// Each list is let go of once merged, not when the merge is done:
		// on a churn log, a Pool's workers' robots rows (10 MB) were still
		// held when their network rows were merged (two lists of 9 MB
		// into one of 18).
		r.Robots, r.RobotBuckets, r.Networks, r.Operators, r.Edges, r.Incidents = nil, nil, NetworkList{}, nil, nil, nil
	}
	// The panels' paths are merged beside the robots' (mergeRobots keeps
	// every core busy until its last names): after them, they were a
	// fifth of a millisecond more of the 1M log's Merge on one core.
	panelsMerged := make(chan Panels, 1)
	go func() { panelsMerged <- mergePanels(panels) }()
	out.Robots = mergeRobots(robots, out.ViolationsChecked)
	clear(robots)
	if overlap != nil {
		moveRobotRequests(out.Robots, overlap.Parts, overlap.Merged)
	}
	out.Timeline, out.RobotBuckets = mergeTimelines(timelines, buckets, out.Robots)
	clear(buckets)
	out.Panels = <-panelsMerged
	out.Operators = mergeOperators(operators)
	clear(operators)
	if overlap == nil {
		out.Networks = mergeDisjointNetworks(networks)
		out.Edges = mergeSortedEdges(edges) // a client is in one part
		// Last: a detect.Pool ranks its clients while the rest is merged.
		out.Incidents = mergeIncidents(incidents, rank)
		return
	}
	list := make([][]NetworkSummary, len(networks))
	for i, l := range networks {
		list[i] = l.Summaries()
	}
	merged := mergeNetworks(list)
	recount(out.Robots, merged, out.Operators, overlap.Merged)
	out.Networks = NetworkListOf(merged)
	out.Edges = JoinEdges(out.Robots, edges, overlap.Parts)
	out.Incidents = mergeIncidents(incidents, rank)
}

// mergeDisjointNetworks merges the networks lists of parts that never
// share a network (a detect.Pool's workers), each in the list's order
// (most requests first).
func mergeDisjointNetworks(lists []NetworkList) NetworkList {
	n, passes := 0, 0
	for _, l := range lists {
		n += l.Len()
		if l.sums != nil || l.Len() == 0 {
			passes++
		}
	}
	if passes == len(lists) {
		return mergeNetworkLists(lists)
	}
	parts := make([][]NetworkSummary, len(lists))
	for i, l := range lists {
		parts[i] = l.Summaries()
	}
	out := make([]NetworkSummary, 0, n)
	at := make([]int, len(parts))
	before := func(a, b *NetworkSummary) bool {
		if a.Requests != b.Requests {
			return a.Requests > b.Requests
		}
		return a.Network < b.Network
	}
	for len(out) < n {
		best := -1
		for k, p := range parts {
			if at[k] < len(p) && (best < 0 || before(&p[at[k]], &parts[best][at[best]])) {
				best = k
			}
		}
		out = append(out, parts[best][at[best]])
		at[best]++
	}
	return NetworkListOf(out)
}
