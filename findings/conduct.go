package findings

import (
	"math"
	"time"
)

// SessionGap is the pause that ends a session: the next request starts
// another.
const SessionGap = 5 * time.Minute

// BackoffWindow is the minute before and after a 429 or 503 answer whose
// requests error_backoff compares.
const BackoffWindow = 60

// Conduct is what one robot name's clients did, in the studies' measures.
// The shares are made of the counts beside them.
type Conduct struct {
	Sessions         int64 `json:"sessions"`
	RobotsTxtFetches int64 `json:"robots_txt_fetches"`
	// RobotsTxtMaxGap is the longest time, in seconds, one of its clients
	// crawled on one copy: from a fetch to its last request before the
	// next; null when no client fetched robots.txt.
	RobotsTxtMaxGap *int64 `json:"robots_txt_max_gap_s"`
	// DisallowCompliance is the share of its sessions with no violation,
	// of those judged: a session whose only requests not judged were made
	// while robots.txt was unreachable is left out. Null when no robots.txt
	// was checked, or no session could be judged.
	DisallowCompliance *float64 `json:"disallow_compliance"`
	// CrawlDelayCompliance is the share of its sessions under a Crawl-delay
	// in which no two requests came closer than it; null without one.
	CrawlDelayCompliance *float64 `json:"crawl_delay_compliance"`
	// ErrorBackoff: slowed, kept-pace or none-seen (the Backoff constants).
	ErrorBackoff     string           `json:"error_backoff"`
	ConditionalShare float64          `json:"conditional_share"` // share of its requests answered 304
	Methods          map[string]int64 `json:"methods"`           // requests by method: GET, HEAD, POST, other

	// The counts the shares are made of, for a merge.
	Requests           int64 `json:"requests"`
	ViolatingSessions  int64 `json:"violating_sessions"`
	UnjudgedSessions   int64 `json:"unjudged_sessions"` // sessions with requests while robots.txt was unreachable, and no violation
	CrawlDelaySessions int64 `json:"crawl_delay_sessions"`
	FastSessions       int64 `json:"crawl_delay_fast_sessions"` // sessions under a Crawl-delay that broke it
	NotModified        int64 `json:"not_modified"`
	ErrorEpisodes      int64 `json:"error_episodes"` // 429 or 503 answers that opened a minute of watching
	ErrorBefore        int64 `json:"error_before"`   // requests in the minute before each
	ErrorAfter         int64 `json:"error_after"`    // requests in the minute after each

	checked bool // disallow_compliance is known
}

// The values of Conduct.ErrorBackoff.
const (
	BackoffSlowed   = "slowed"
	BackoffKeptPace = "kept-pace"
	BackoffNoneSeen = "none-seen"
)

// Served counts the answers a robot got for robots.txt, by what RFC 9309
// makes of them.
type Served struct {
	OK          int64 `json:"2xx"`  // the file (a page excepted)
	Redirect    int64 `json:"3xx"`  // redirects, followed up to five hops
	Unavailable int64 `json:"4xx"`  // 401, 403, 404, 410: no file, allow all
	Unreachable int64 `json:"5xx"`  // 5xx or no answer (444, 499): complete disallow unless it holds a copy
	Page        int64 `json:"page"` // 2xx with an HTML page's size, not the file's: a login or challenge page
}

// Add adds o to s.
func (s *Served) Add(o *Served) {
	s.OK += o.OK
	s.Redirect += o.Redirect
	s.Unavailable += o.Unavailable
	s.Unreachable += o.Unreachable
	s.Page += o.Page
}

// Add adds o, another client's or part's conduct, to k.
func (k *Conduct) Add(o *Conduct) {
	// Saturating: the ledgers of other sites are theirs to write, and
	// their counts are only known to be 0 or more (see MergeLedgers).
	for _, p := range [...][2]*int64{{&k.Sessions, &o.Sessions}, {&k.RobotsTxtFetches, &o.RobotsTxtFetches},
		{&k.Requests, &o.Requests}, {&k.ViolatingSessions, &o.ViolatingSessions}, {&k.UnjudgedSessions, &o.UnjudgedSessions},
		{&k.CrawlDelaySessions, &o.CrawlDelaySessions}, {&k.FastSessions, &o.FastSessions}, {&k.NotModified, &o.NotModified},
		{&k.ErrorEpisodes, &o.ErrorEpisodes}, {&k.ErrorBefore, &o.ErrorBefore}, {&k.ErrorAfter, &o.ErrorAfter}} {
		*p[0] = AddBytes(*p[0], *p[1])
	}
	if o.RobotsTxtMaxGap != nil && (k.RobotsTxtMaxGap == nil || *o.RobotsTxtMaxGap > *k.RobotsTxtMaxGap) {
		g := *o.RobotsTxtMaxGap
		k.RobotsTxtMaxGap = &g
	}
	if k.Methods == nil {
		k.Methods = map[string]int64{}
	}
	for m, n := range o.Methods {
		k.Methods[m] = AddBytes(k.Methods[m], n)
	}
	k.checked = k.checked || o.checked || o.DisallowCompliance != nil
}

// Negative reports whether a count of k is below 0: none is in a report
// or ledger robowatch wrote.
func (k *Conduct) Negative() bool {
	for _, n := range k.Methods {
		if n < 0 {
			return true
		}
	}
	return min(k.Sessions, k.RobotsTxtFetches, k.Requests, k.ViolatingSessions, k.UnjudgedSessions, k.CrawlDelaySessions,
		k.FastSessions, k.NotModified, k.ErrorEpisodes, k.ErrorBefore, k.ErrorAfter) < 0
}

// Finish works out the shares from the counts.
func (k *Conduct) Finish() {
	share := func(n, of int64) float64 { return math.Round(float64(n)/float64(of)*1000) / 1000 }
	// A part read back from JSON says it was checked by its share.
	k.checked = k.checked || k.DisallowCompliance != nil
	k.DisallowCompliance, k.CrawlDelayCompliance = nil, nil
	if judged := k.Sessions - k.UnjudgedSessions; k.checked && judged > 0 {
		v := share(judged-k.ViolatingSessions, judged)
		k.DisallowCompliance = &v
	}
	if k.CrawlDelaySessions > 0 {
		v := share(k.CrawlDelaySessions-k.FastSessions, k.CrawlDelaySessions)
		k.CrawlDelayCompliance = &v
	}
	k.ConditionalShare = 0
	if k.Requests > 0 {
		k.ConditionalShare = share(k.NotModified, k.Requests)
	}
	// Summed over its episodes: a robot that halves its pace after most
	// answers but not after a busy one is judged by what it sent.
	switch {
	case k.ErrorEpisodes == 0:
		k.ErrorBackoff = BackoffNoneSeen
	case k.ErrorAfter < k.ErrorBefore-k.ErrorAfter: // under half, without 2*ErrorAfter wrapping
		k.ErrorBackoff = BackoffSlowed
	default:
		k.ErrorBackoff = BackoffKeptPace
	}
	if k.Methods == nil {
		k.Methods = map[string]int64{}
	}
}

// MarkChecked says that the requests k counts were checked against a
// robots.txt: Finish works out DisallowCompliance.
func (k *Conduct) MarkChecked() { k.checked = true }
