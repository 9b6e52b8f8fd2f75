package findings

import (
	"slices"
	"strings"
	"time"

	"github.com/robowatch/robowatch/agents"
)

// RobotSummary is what the robot clients sharing one robot name did.
type RobotSummary struct {
	Name             string `json:"name"`
	Clients          int    `json:"clients"`
	Requests         int64  `json:"requests"`
	Bytes            int64  `json:"bytes"` // sent to its clients; stops at 9223372036854775807 (Result.BytesSaturated)
	Violations       int64  `json:"violations"`
	FetchedRobotsTxt bool   `json:"fetched_robots_txt"`
	// Cached are its requests that the robots.txt in force disallows and a
	// copy it could hold (a version of the 24 hours before, or the one its
	// last fetch got) allowed: no violations.
	Cached int64 `json:"cached,omitempty"`
	// PreferenceConflicts are the pages served to it that the site's
	// content-use preferences decline to a robot of its purpose
	// (Verdict.PreferenceConflicts): apart from Violations, since a
	// preference is no crawl rule. PreferenceRule is the first such
	// preference of its clients, in byte order.
	PreferenceConflicts int64  `json:"preference_conflicts,omitempty"`
	PreferenceRule      string `json:"preference_rule,omitempty"`
	// Discovery: its fetches of /llms.txt, /llms-full.txt and /.well-known/
	// files; nil when none.
	Discovery *Discovery `json:"discovery,omitempty"`

	FirstFetch     *time.Time `json:"first_fetch,omitempty"`     // first fetch of /robots.txt
	FirstViolation *time.Time `json:"first_violation,omitempty"` // first disallowed request
	Finding        string     `json:"finding,omitempty"`         // see the Finding constants
	LastViolation  *time.Time `json:"last_violation,omitempty"`  // last disallowed request

	// Compliance is the robot's robots.txt record in one word: obeyed
	// (read it, broke nothing), ignored (read it, then broke it),
	// unread-violated (broke it without having read it), unread (never
	// read it, broke nothing: no evidence either way), unchecked (no
	// robots.txt to check against).
	Compliance string `json:"compliance"`

	Operator string        `json:"operator,omitempty"` // who runs the robot, when its name claims an operator robowatch knows
	Identity string        `json:"identity,omitempty"` // verified, impostor or unverified (agents.Identify); one per row
	Purpose  string        `json:"purpose,omitempty"`  // what the robot is for (agents.Purpose)
	URL      string        `json:"url,omitempty"`      // its documentation, when robowatch knows it
	Prefixes []PrefixCount `json:"prefixes,omitempty"` // violations by path prefix, most first
	// AllPrefixes is the whole list when Prefixes is cut to the top ones:
	// the JSON report's state, for a merge.
	AllPrefixes []PrefixCount  `json:"-"`
	Incidents   int            `json:"incidents"`
	Reasons     map[string]int `json:"reasons"` // clients per reason
	// CrawlDelayFast: some client of it went faster than the Crawl-delay
	// its group asks for.
	CrawlDelayFast bool `json:"crawl_delay_fast,omitempty"`
	// VerifiedBy is how the clients of a verified row were verified, as
	// Verdict.VerifiedBy says it; several ways are sorted and joined with
	// commas ("dns,ip-range"). Empty unless Identity is verified.
	VerifiedBy string `json:"verified_by,omitempty"`

	// UnreachableRequests: its requests after a 5xx (or no) answer for
	// robots.txt and before the next 2xx. RFC 9309 asks for a complete
	// disallow then, unless the robot holds a copy, which it may from
	// before the log: not violations, and never obedience.
	UnreachableRequests int64   `json:"unreachable_requests"`
	RobotsTxtServed     Served  `json:"robots_txt_served"` // how robots.txt was answered to its clients
	Conduct             Conduct `json:"conduct"`           // what it did, in the measures of the studies of crawlers (conduct.go)
	// Status is the answers its clients got, TopPaths the paths they
	// asked for most (bounds: PathCount, panel.go), and TopPathsOtherMax
	// the most requests a path not in TopPaths may have had (0: none).
	Status           StatusCounts `json:"status"`
	TopPaths         []PathCount  `json:"top_paths"`
	TopPathsOtherMax int64        `json:"top_paths_other_max"`
	// AllTopPaths and TopPathsBase are the whole list TopPaths was cut
	// from and the most a path not in it had: the JSON report's state,
	// for a merge as exact as one run.
	AllTopPaths  []PathCount `json:"-"`
	TopPathsBase int64       `json:"-"`

	checked bool // some request of it was checked against a robots.txt (see Compliance)
}

// SetTopPaths sets a row's paths from their whole list.
func (s *RobotSummary) SetTopPaths(all []PathCount, base int64) {
	s.AllTopPaths, s.TopPathsBase = all, base
	s.TopPaths, s.TopPathsOtherMax = topPaths(all, base)
}

// PrefixCount is how many violations fell under one path prefix.
type PrefixCount struct {
	Prefix string `json:"prefix"`
	Count  int64  `json:"count"`
}

// maxPrefixes is how many path prefixes a RobotSummary lists.
const maxPrefixes = 10

// joinIdentities is the identity of a robots row that has identity a (by
// byA) when a client of identity b (by byB) joins it. Some verified, some
// not: the row is as good as its weakest, and says no way it was verified.
// All verified: the row names every way its clients were.
func joinIdentities(a, byA, b, byB string) (identity, verifiedBy string) {
	if a != b {
		return agents.IdentityUnverified, ""
	}
	if a != agents.IdentityVerified {
		return a, ""
	}
	if byA == byB || byB == "" {
		return a, byA
	}
	if byA == "" {
		return a, byB
	}
	ways := strings.Split(byA, ",")
	for w := range strings.SplitSeq(byB, ",") {
		if !slices.Contains(ways, w) {
			ways = append(ways, w)
		}
	}
	slices.Sort(ways)
	return a, strings.Join(ways, ",")
}

// RobotRowName is the name of the robots row a client of name and
// identity counts in. A row never mixes identities: an impostor's requests,
// violations and incidents are its own, under a name that says so.
func RobotRowName(name, identity string) string {
	if identity == agents.IdentityImpostor {
		return name + " (impostor)"
	}
	return name
}

// findingOf says what a robot did with robots.txt, in words and in one
// word. A robot that never fetched it and broke nothing did not obey it:
// nothing shows it would have.
func findingOf(s *RobotSummary) (words, compliance string) {
	switch {
	case s.Violations == 0 && s.UnreachableRequests > 0:
		return FindingUnreachable, ComplianceUnreachable
	case s.Violations == 0 && s.FirstFetch == nil:
		return FindingUnread, ComplianceUnread
	case s.Violations == 0 && s.CrawlDelayFast:
		// Compliance stays one of its documented words; the finding says
		// what the robot's own details show.
		return FindingObeyedPaths, ComplianceObeyed
	case s.Violations == 0:
		return FindingObeyed, ComplianceObeyed
	case s.FirstFetch == nil:
		return FindingNeverRead, ComplianceUnreadViolated
	case !s.FirstFetch.After(*s.FirstViolation):
		return FindingIgnored, ComplianceIgnored
	case s.LastViolation != nil && s.LastViolation.After(*s.FirstFetch):
		// It broke the rules before reading them, and again after.
		return FindingReadLate, ComplianceIgnored
	default:
		return FindingReadLate, ComplianceUnreadViolated
	}
}

// latest is the later of *cur (nil: none) and t.
func latest(cur *time.Time, t time.Time) *time.Time {
	if cur == nil || t.After(*cur) {
		return &t
	}
	return cur
}

// earliest is the earlier of *cur (nil: none) and t.
func earliest(cur *time.Time, t time.Time) *time.Time {
	if cur == nil || t.Before(*cur) {
		return &t
	}
	return cur
}

// addAI adds a client's or a part's preference conflicts and discovery
// fetches to s.
func (s *RobotSummary) addAI(conflicts int64, rule string, d *Discovery) {
	addAI(&s.PreferenceConflicts, &s.PreferenceRule, &s.Discovery, conflicts, rule, d)
}

// addAI adds conflicts, rule and d to a row's or a verdict's own. The rule
// kept is the first in byte order, so that workers and merges in any order
// agree.
func addAI(conflicts *int64, rule *string, disc **Discovery, c int64, r string, d *Discovery) {
	*conflicts += c
	if r != "" && (*rule == "" || r < *rule) {
		*rule = r
	}
	if d != nil {
		if *disc == nil {
			*disc = &Discovery{}
		}
		(*disc).Add(d)
	}
}

// Findings about a robot name and robots.txt, as RobotSummary.Finding says.
const (
	FindingIgnored     = "fetched robots.txt and then ignored it"
	FindingNeverRead   = "never fetched robots.txt"
	FindingReadLate    = "fetched robots.txt only after its first disallowed request"
	FindingObeyed      = "obeyed robots.txt"
	FindingObeyedPaths = "obeyed robots.txt's paths, not its Crawl-delay"
	FindingUnread      = "never fetched robots.txt; nothing disallowed"
	FindingNotComputed = "" // no robots.txt given
	// FindingUnreachable: it broke nothing it could be judged on, but
	// crawled while robots.txt answered 5xx or nothing.
	FindingUnreachable = "crawled while robots.txt was unreachable (5xx)"
)

// The values of RobotSummary.Compliance.
const (
	ComplianceObeyed         = "obeyed"
	ComplianceIgnored        = "ignored"
	ComplianceUnreadViolated = "unread-violated"
	ComplianceUnread         = "unread"
	ComplianceUnchecked      = "unchecked"
	// ComplianceUnreachable: no violation, but requests made while
	// robots.txt was unreachable, which nothing judges (FindingUnreachable).
	ComplianceUnreachable = "unreachable"
)

// setCompliance sets s's Compliance and Finding from its counts; checked:
// some request of it was checked against a robots.txt, else it is
// unchecked.
func (s *RobotSummary) setCompliance(checked bool) {
	s.Compliance, s.Finding = ComplianceUnchecked, FindingNotComputed
	if checked {
		s.Finding, s.Compliance = findingOf(s)
	}
}
