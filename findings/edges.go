package findings

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// The bits of ClientEdge.Head and Tail: the flags of a session.
const (
	EdgeViolating   = 1 << iota // a violation in it
	EdgeDelayed                 // under a Crawl-delay
	EdgeFast                    // faster than the Crawl-delay
	EdgeRobotsTxt               // its last request was a fetch of robots.txt
	EdgeUnreachable             // a request in it while robots.txt was unreachable
	EdgeOpensRobots             // Head only: the client's first request was a fetch of robots.txt
)

// ClientEdge is what a merge of consecutive days needs of one robot
// client beyond its counts, and what a run of the next day starts from
// (state.edges of the JSON report).
type ClientEdge struct {
	IP        string `json:"ip"`
	UserAgent string `json:"user_agent"`
	Sessions  int64  `json:"sessions"`
	First     int64  `json:"first"` // its first timed request, Unix seconds
	Last      int64  `json:"last"`  // its last
	Head      uint8  `json:"head"`  // its first session's flags (the Edge bits)
	Tail      uint8  `json:"tail"`  // its last session's
	// HeadDelayMs is the Crawl-delay over its first request, in
	// milliseconds (0: none).
	HeadDelayMs int64 `json:"head_crawl_delay_ms"`
	// Its first and latest fetch of robots.txt, and its latest request
	// before the first fetch (null: none).
	FetchFirst  *int64 `json:"fetch_first"`
	FetchLast   *int64 `json:"fetch_last"`
	BeforeFetch *int64 `json:"before_fetch"`

	// What the next day's run starts from (detect.Config.Seed).
	Robots  *EdgeRobots  `json:"robots"`  // the copy of robots.txt it held; null: no fetch
	Backoff *EdgeBackoff `json:"backoff"` // its pace at the end; null: no 429 or 503 answer, or no request in its last minute
}

// EdgeRobots is what a client's answers for robots.txt left it holding.
type EdgeRobots struct {
	Host     string `json:"host"`   // the host of its latest fetch ("" for the log's one)
	State    uint8  `json:"state"`  // 0 unknown, 1 the file, 2 none (allow all), 3 unreachable
	Latest   int64  `json:"latest"` // its latest fetch, Unix seconds
	LastAt   int64  `json:"last_at"`
	Status   int32  `json:"status"` // the status of the latest GET
	OKAt     *int64 `json:"ok_at"`  // its latest 2xx fetch of a host with versions; null: none
	OKVer    int    `json:"ok_version"`
	OKBySize bool   `json:"ok_by_size"`
}

// EdgeBackoff is a client's pace at its end: its requests of its last
// minute, and a minute after a 429 or 503 still open.
type EdgeBackoff struct {
	Open   bool       `json:"open"`
	Start  int64      `json:"start"`
	Recent [][2]int64 `json:"recent"` // [second, requests] of its last minute
}

// Edge times are Unix seconds of years 1 to 9999, as a log's can be: a
// time beyond, from an edited report, would wrap the sums and differences
// the seeded run takes of them.
var (
	edgeTimeMin = time.Time{}.Unix()
	edgeTimeMax = time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC).Unix()
)

// Check reports why edge e cannot be of a report of records records
// (nil: it can): a count negative or past them, a time out of range or
// after its last request, its last minute's requests not of its last
// minute. A run seeded from it (detect.Config.Seed) adds its counts to its
// own.
func (e *ClientEdge) Check(records int64) error {
	if e.Sessions < 0 || e.Sessions > records {
		return fmt.Errorf("sessions %d: want 0 to the report's %d records", e.Sessions, records)
	}
	if e.HeadDelayMs < 0 {
		return fmt.Errorf("head_crawl_delay_ms %d is negative", e.HeadDelayMs)
	}
	type at struct {
		name string
		t    int64
	}
	times := []at{{"first", e.First}, {"last", e.Last}}
	for _, p := range []struct {
		name string
		t    *int64
	}{{"fetch_first", e.FetchFirst}, {"fetch_last", e.FetchLast}, {"before_fetch", e.BeforeFetch}} {
		if p.t != nil {
			times = append(times, at{p.name, *p.t})
		}
	}
	if r := e.Robots; r != nil {
		times = append(times, at{"robots.latest", r.Latest}, at{"robots.last_at", r.LastAt})
		if r.OKAt != nil {
			times = append(times, at{"robots.ok_at", *r.OKAt})
		}
	}
	if b := e.Backoff; b != nil {
		times = append(times, at{"backoff.start", b.Start})
	}
	for _, t := range times {
		if t.t < edgeTimeMin || t.t > edgeTimeMax {
			return fmt.Errorf("%s %d is not a time of the years 1 to 9999", t.name, t.t)
		}
	}
	if e.First > e.Last {
		return fmt.Errorf("first %d is after last %d", e.First, e.Last)
	}
	b := e.Backoff
	if b == nil {
		return nil
	}
	// An open minute after a 429 began at most a minute before the last
	// request: a later request would have closed it.
	if b.Open && (b.Start > e.Last || b.Start < e.Last-BackoffWindow) {
		return fmt.Errorf("backoff.start %d is not of the minute before its last request %d", b.Start, e.Last)
	}
	var n int64
	for _, r := range b.Recent {
		if r[0] < e.Last-BackoffWindow || r[0] > e.Last {
			return fmt.Errorf("backoff.recent second %d is not of the minute before its last request %d", r[0], e.Last)
		}
		if r[1] < 0 || r[1] > math.MaxInt64-n {
			return errors.New("backoff.recent requests negative or past the report's records")
		}
		if n += r[1]; n > records {
			return fmt.Errorf("backoff.recent requests %d are past the report's %d records", n, records)
		}
	}
	return nil
}

// SortEdges orders edges by address and User-agent.
func SortEdges(e []ClientEdge) {
	slices.SortFunc(e, func(a, b ClientEdge) int { return edgeOrder(&a, &b) })
}

// edgeOrder is SortEdges's order. The User-agents are compared only
// between edges of one address: cmp.Or compared them every time, its
// arguments all evaluated before the call.
func edgeOrder(a, b *ClientEdge) int {
	if c := strings.Compare(a.IP, b.IP); c != 0 {
		return c
	}
	return strings.Compare(a.UserAgent, b.UserAgent)
}

// mergeSortedEdges is the edges of parts whose clients are apart (a
// detect.Pool's workers, the shards of a log) in SortEdges's order. The
// workers' lists are in that order already: they are merged, where a sort
// of them all was 0.4 ms of findings.Merge on one core for the 1M log.
// Lists out of that order, or with a client twice (a hand-edited part),
// are sorted whole, as before.
func mergeSortedEdges(parts [][]ClientEdge) []ClientEdge {
	n := 0
	for _, p := range parts {
		n += len(p)
		for i := 1; i < len(p); i++ {
			if edgeOrder(&p[i-1], &p[i]) >= 0 {
				return sortedEdges(parts)
			}
		}
	}
	if n == 0 || len(parts) == 1 {
		return sortedEdges(parts)
	}
	out := make([]ClientEdge, 0, n)
	heads := make([]int, len(parts))
	for len(out) < n {
		best := -1
		for i, p := range parts {
			if heads[i] == len(p) {
				continue
			}
			if best < 0 {
				best = i
				continue
			}
			switch c := edgeOrder(&p[heads[i]], &parts[best][heads[best]]); {
			case c == 0:
				return sortedEdges(parts)
			case c < 0:
				best = i
			}
		}
		out = append(out, parts[best][heads[best]])
		heads[best]++
	}
	return out
}

// sortedEdges is the edges of parts, concatenated and sorted.
func sortedEdges(parts [][]ClientEdge) []ClientEdge {
	out := slices.Concat(parts...)
	SortEdges(out)
	return out
}

// edgeDelta is what joining the edges of consecutive days changes in a
// robots row's conduct.
type edgeDelta struct {
	sessions, violating, unjudged, delayed, fast int64
	gap                                          *int64
}

// JoinEdges joins, client by client, the edges of the parts (consecutive
// days, in time order; verdicts their clients lists) and corrects the
// conduct of the merged robots rows by them: a session across the
// boundary counts once, a Crawl-delay broken across it breaks it, the time
// crawled on one copy runs on. A client in another robots row (or none)
// on one of the days is not joined across that boundary. It returns the
// merged edges, for a later merge. The rows' shares are worked out again.
func JoinEdges(robots []RobotSummary, parts [][]ClientEdge, verdicts [][]Verdict) []ClientEdge {
	type run struct {
		e   ClientEdge
		row string
	}
	byKey := map[clientKey]*run{}
	var order []clientKey
	delta := map[string]*edgeDelta{}
	for i, p := range parts {
		rows := map[clientKey]string{}
		if i < len(verdicts) {
			for j := range verdicts[i] {
				if v := &verdicts[i][j]; v.Robot {
					rows[clientKey{v.IP, v.UserAgent}] = RobotRowName(v.Name, v.Identity)
				}
			}
		}
		for _, b := range p {
			k := clientKey{b.IP, b.UserAgent}
			row := rows[k]
			a := byKey[k]
			if a == nil {
				byKey[k] = &run{b, row}
				order = append(order, k)
				continue
			}
			if row != "" && row == a.row && b.First >= a.e.Last {
				dl := delta[row]
				if dl == nil {
					dl = &edgeDelta{}
					delta[row] = dl
				}
				a.e = joinEdge(&a.e, &b, dl)
			} else {
				a.e = b
			}
			a.row = row
		}
	}
	for i := range robots {
		dl := delta[robots[i].Name]
		if dl == nil {
			continue
		}
		k := &robots[i].Conduct
		// Edges of an edited part may claim more joins than its row has
		// sessions: no count goes below 0.
		k.Sessions = max(k.Sessions+dl.sessions, 0)
		k.ViolatingSessions = max(k.ViolatingSessions+dl.violating, 0)
		k.UnjudgedSessions = max(k.UnjudgedSessions+dl.unjudged, 0)
		k.CrawlDelaySessions = max(k.CrawlDelaySessions+dl.delayed, 0)
		k.FastSessions = max(k.FastSessions+dl.fast, 0)
		if dl.gap != nil && (k.RobotsTxtMaxGap == nil || *dl.gap > *k.RobotsTxtMaxGap) {
			g := *dl.gap
			k.RobotsTxtMaxGap = &g
		}
		k.Finish()
	}
	out := make([]ClientEdge, 0, len(order))
	for _, k := range order {
		out = append(out, byKey[k].e)
	}
	SortEdges(out)
	return out
}

// subSat is x-y, saturated at the ends of int64.
func subSat(x, y int64) int64 {
	d := x - y
	switch {
	case y < 0 && d < x:
		return math.MaxInt64
	case y > 0 && d > x:
		return math.MinInt64
	}
	return d
}

// joinEdge is the edge of a client's day a followed by its day b, as one
// run over both makes it; dl gathers what it changes in the counts of
// the two days.
func joinEdge(a, b *ClientEdge, dl *edgeDelta) ClientEdge {
	bit := func(f uint8, m uint8) int64 {
		if f&m != 0 {
			return 1
		}
		return 0
	}
	// The parts' edges are theirs to write: the difference saturates, and
	// is compared in whole seconds and milliseconds, not as a Duration,
	// which times years apart or a huge Crawl-delay would wrap.
	pause := subSat(b.First, a.Last)
	joined := pause <= int64(SessionGap/time.Second)
	// The first request of b, one run goes on, comes after a's last: the
	// flags of the session it is in so far.
	var so uint8
	if joined {
		so = a.Tail
	}
	var fast uint8
	// Log times are whole seconds: a pause of n may be almost n+1, so it
	// is faster than the delay only if n+1 seconds are, n < (ms-1)/1000.
	if delay := b.HeadDelayMs; delay > 0 && b.Head&EdgeOpensRobots == 0 &&
		so&(EdgeRobotsTxt|EdgeFast) == 0 && pause < (delay-1)/1000 {
		fast = EdgeFast
	}
	head := b.Head &^ EdgeOpensRobots
	var combined uint8
	if joined {
		combined = (so|head|fast)&^EdgeRobotsTxt | head&EdgeRobotsTxt
		dl.sessions--
		for _, m := range []struct {
			bit uint8
			n   *int64
		}{{EdgeViolating, &dl.violating}, {EdgeDelayed, &dl.delayed}, {EdgeFast, &dl.fast}} {
			*m.n += bit(combined, m.bit) - bit(so, m.bit) - bit(head, m.bit)
		}
		unjudged := func(f uint8) int64 { return bit(f, EdgeUnreachable) * (1 - bit(f, EdgeViolating)) }
		dl.unjudged += unjudged(combined) - unjudged(so) - unjudged(head)
	} else {
		combined = head | fast
		dl.fast += bit(combined, EdgeFast) - bit(head, EdgeFast)
	}
	out := *b
	out.First, out.Head, out.HeadDelayMs = a.First, a.Head, a.HeadDelayMs
	out.Sessions = a.Sessions + b.Sessions
	if joined {
		out.Sessions--
		if a.Sessions == 1 {
			out.Head = combined | a.Head&EdgeOpensRobots
		}
	}
	if b.Sessions == 1 {
		out.Tail = combined
	}
	// The copy a's latest fetch gave served on until b's first fetch.
	if a.FetchLast != nil {
		var g int64 = -1
		switch {
		case b.FetchFirst == nil:
			g = subSat(b.Last, *a.FetchLast)
		case b.BeforeFetch != nil:
			g = subSat(*b.BeforeFetch, *a.FetchLast)
		}
		if g > 0 && (dl.gap == nil || g > *dl.gap) {
			dl.gap = &g
		}
		out.FetchFirst, out.BeforeFetch = a.FetchFirst, a.BeforeFetch
		if b.FetchLast == nil {
			out.FetchLast = a.FetchLast
		}
	} else if b.FetchFirst != nil && b.BeforeFetch == nil {
		// b's first request fetched robots.txt: a's last came before it.
		l := a.Last
		out.BeforeFetch = &l
	}
	if out.Robots == nil {
		out.Robots = a.Robots
	}
	out.Backoff = joinBackoff(a, b)
	return out
}

// joinBackoff is the pace at the end of days a and b: b's, with a's
// requests of the minute before b's last.
func joinBackoff(a, b *ClientEdge) *EdgeBackoff {
	if a.Backoff == nil {
		return b.Backoff
	}
	out := EdgeBackoff{}
	if b.Backoff != nil {
		out = *b.Backoff
	}
	out.Recent = LastMinute(append(slices.Clone(a.Backoff.Recent), out.Recent...), b.Last)
	if a.Backoff.Open && !out.Open && b.Last <= a.Backoff.Start+BackoffWindow {
		// No request of b came after a's minute: still open.
		out.Open, out.Start = true, a.Backoff.Start
	}
	if !out.Open && len(out.Recent) == 0 {
		return nil
	}
	return &out
}

// LastMinute is the [second, requests] pairs of the minute up to last,
// by second, one a second.
func LastMinute(recent [][2]int64, last int64) [][2]int64 {
	kept := recent[:0]
	for _, r := range recent {
		if last-BackoffWindow <= r[0] && r[0] <= last {
			kept = append(kept, r)
		}
	}
	return CombineBuckets(kept)
}
