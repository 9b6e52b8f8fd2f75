package report

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/robowatch/robowatch/findings"
)

// The ledger (-o ledger --site NAME) is what a site can share of its
// robots: per robot name its counts and conduct, per operator its
// requests, and the site's period and robots.txt files by digest. It holds
// no client address, User-agent, request path, referrer or file name, so
// that sites can pool theirs (robowatch merge LEDGER...) into a table of
// how each robot behaves across the web, which no one site can measure.
//
// Fields are only ever added; a reader ignores those it does not know, and
// a field not known for a site (the run did not measure it) is left out,
// not written as 0: a merge then sums only what every site knows.

// LedgerKind is the kind field of every ledger, which tells it from a
// JSON report.
const LedgerKind = "robowatch-ledger"

// LedgerVersion is the version of the ledger's layout.
const LedgerVersion = 1

// Ledger is a ledger document: one site's, or the merge of several.
type Ledger struct {
	Kind      string           `json:"kind"` // LedgerKind; written first, which IsLedger reads
	Version   int              `json:"version"`
	Sites     []LedgerSite     `json:"sites"`     // by name, then period
	Robots    []LedgerRobot    `json:"robots"`    // most requests first
	Operators []LedgerOperator `json:"operators"` // verified crawlers by operator, most requests first
}

// LedgerSite is one site and the period its log covered.
type LedgerSite struct {
	Name              string     `json:"name"`
	First             *time.Time `json:"first"` // null for a log without records
	Last              *time.Time `json:"last"`
	Records           int64      `json:"records"`
	RobotRequests     int64      `json:"robot_requests"`
	ViolationsChecked bool       `json:"violations_checked"`
	// RobotsTxt are the robots.txt versions checked against, by the first
	// 16 hex digits of their SHA-256 (RunOptions.RobotsTxt); absent when
	// not known.
	RobotsTxt []string `json:"robots_txt,omitempty"`
	Partial   bool     `json:"partial,omitempty"` // the run was interrupted: counts cover what was read
}

// LedgerRobot is one robots row summed over the sites that saw it.
type LedgerRobot struct {
	Name      string   `json:"name"` // "Name (impostor)" for the clients whose claim their address belies
	Operator  string   `json:"operator,omitempty"`
	Purpose   string   `json:"purpose,omitempty"`
	Identity  string   `json:"identity,omitempty"` // verified, impostor or unverified; unverified where sites disagree
	Sites     int      `json:"sites"`              // distinct site names
	SiteNames []string `json:"site_names"`

	Requests int64 `json:"requests"`
	// Pages: its requests for HTML pages; absent when some site folded
	// robot clients into "other" (--max-clients), which keeps no pages.
	Pages               *int64 `json:"pages,omitempty"`
	Bytes               int64  `json:"bytes"`
	Violations          int64  `json:"violations"`
	Cached              int64  `json:"cached"`
	UnreachableRequests int64  `json:"unreachable_requests"`
	// ViolatedOn are the sites where it made a violation.
	ViolatedOn []string `json:"violated_on"`
	// Compliance counts the sites (each site and period) by the robot's
	// robots.txt record there (obeyed, ignored, …: robots[].compliance).
	Compliance map[string]int `json:"compliance"`
	// Rules are its violations by the robots.txt rule line broken;
	// absent when it broke none, or not every violation was listed.
	Rules []LedgerRule `json:"rules,omitempty"`
	// PreferenceConflicts: pages it fetched that a content-use preference
	// of the site declines for its purpose; absent where not measured.
	PreferenceConflicts *int64           `json:"preference_conflicts,omitempty"`
	Conduct             findings.Conduct `json:"conduct"` // shares recomputed from the summed counts
}

// LedgerRule is how many violations broke one robots.txt rule line.
type LedgerRule struct {
	Rule       string `json:"rule"` // as written: "Disallow: /admin/"
	Violations int64  `json:"violations"`
}

// LedgerOperator is one operator's verified crawlers over the sites.
type LedgerOperator struct {
	Operator  string   `json:"operator"`
	Sites     int      `json:"sites"`
	SiteNames []string `json:"site_names"`
	Requests  int64    `json:"requests"`
	// Pages and ReferredViews are the inputs of the crawl-to-refer ratio:
	// pages its robots took, page views of people its products sent.
	// Absent where not measured; CrawlToRefer, pages per referred view,
	// is worked out from the sums, and absent without referrals.
	Pages         *int64   `json:"pages,omitempty"`
	ReferredViews *int64   `json:"referred_views,omitempty"`
	CrawlToRefer  *float64 `json:"crawl_to_refer,omitempty"`
}

// CheckSite says whether name can name a site in a ledger: a name its
// admins choose (a host name, an organisation), printable, on one line.
func CheckSite(name string) error {
	switch {
	case name == "":
		return errors.New("empty: give the site's name, e.g. --site example.org")
	case len(name) > 200:
		return errors.New("longer than 200 bytes")
	case strings.TrimSpace(name) != name:
		return errors.New("begins or ends with a space")
	case strings.ContainsFunc(name, func(r rune) bool { return !unicode.IsPrint(r) }):
		return errors.New("holds a control character")
	}
	return nil
}

func writeLedger(w io.Writer, r *Report, opt Options) error {
	if err := CheckSite(opt.Site); err != nil {
		return fmt.Errorf("-o ledger: --site %q: %w", opt.Site, err)
	}
	return encodeLedger(w, ledgerOf(r, opt.Site))
}

// WriteLedger writes l as -o ledger does.
func WriteLedger(w io.Writer, l *Ledger) error { return encodeLedger(w, l) }

func encodeLedger(w io.Writer, l *Ledger) error {
	b, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// ledgerOf is the ledger of one site's report.
func ledgerOf(r *Report, site string) *Ledger {
	res := r.Result
	first, last := r.span()
	s := LedgerSite{Name: site, First: timeOrNil(first), Last: timeOrNil(last), Records: res.Records,
		RobotRequests: res.RobotRequests, ViolationsChecked: res.ViolationsChecked, Partial: r.Partial}
	if r.Options != nil {
		s.RobotsTxt = slices.Clone(r.Options.RobotsTxt)
	}
	l := &Ledger{Kind: LedgerKind, Version: LedgerVersion, Sites: []LedgerSite{s}, Robots: []LedgerRobot{}, Operators: []LedgerOperator{}}

	// Pages and rules are the clients' and violations' own, summed by the
	// row each client counts in; a robot folded into "other" kept neither.
	pagesKnown := res.Other.Robots == 0
	pages := map[string]int64{}
	row := map[clientKey]string{}
	for v := range res.Clients.All() {
		if v.Robot {
			name := findings.RobotRowName(v.Name, v.Identity)
			pages[name] += v.Pages
			row[clientKey{v.IP, v.UserAgent}] = name
		}
	}
	rulesKnown := res.ViolationsUnlisted == 0
	rules := map[string]map[string]int64{}
	if rulesKnown {
		for v := range res.Violations.All() {
			name, ok := row[clientKey{v.IP, v.UserAgent}]
			if !ok || v.Rule == "" {
				rulesKnown = false
				break
			}
			if rules[name] == nil {
				rules[name] = map[string]int64{}
			}
			rules[name][v.Rule]++
		}
	}
	for i := range res.Robots {
		rs := &res.Robots[i]
		lr := LedgerRobot{Name: rs.Name, Operator: rs.Operator, Purpose: rs.Purpose, Identity: rs.Identity,
			Sites: 1, SiteNames: []string{site}, Requests: rs.Requests, Bytes: rs.Bytes, Violations: rs.Violations,
			Cached: rs.Cached, UnreachableRequests: rs.UnreachableRequests, ViolatedOn: []string{},
			Compliance: map[string]int{rs.Compliance: 1}, Conduct: findings.SumConduct([]findings.Conduct{rs.Conduct})}
		if pagesKnown {
			n := pages[rs.Name]
			lr.Pages = &n
		}
		// Preferences are known where a robots.txt was read or a response
		// carried Content-Usage (then a conflict shows).
		if res.ViolationsChecked || rs.PreferenceConflicts > 0 {
			n := rs.PreferenceConflicts
			lr.PreferenceConflicts = &n
		}
		if rs.Violations > 0 {
			lr.ViolatedOn = []string{site}
			if rulesKnown {
				lr.Rules = ruleList(rules[rs.Name])
			}
		}
		l.Robots = append(l.Robots, lr)
	}
	for _, o := range res.Operators {
		lo := LedgerOperator{Operator: o.Operator, Sites: 1, SiteNames: []string{site}, Requests: o.Requests}
		// The inputs of crawl-to-refer: people folded into "other" keep
		// their referred views, robots folded there lose their pages.
		views := o.ReferredViews
		lo.ReferredViews = &views
		if pagesKnown {
			n := o.Pages
			lo.Pages = &n
			if o.CrawlToRefer != nil {
				ratio := *o.CrawlToRefer
				lo.CrawlToRefer = &ratio
			}
		}
		l.Operators = append(l.Operators, lo)
	}
	sortLedger(l)
	return l
}

// ruleList is a robot's violations by rule, most first.
func ruleList(m map[string]int64) []LedgerRule {
	out := make([]LedgerRule, 0, len(m))
	for rule, n := range m {
		out = append(out, LedgerRule{rule, n})
	}
	slices.SortFunc(out, func(a, b LedgerRule) int {
		return cmp.Or(cmp.Compare(b.Violations, a.Violations), cmp.Compare(a.Rule, b.Rule))
	})
	return out
}

func sortLedger(l *Ledger) {
	slices.SortFunc(l.Sites, func(a, b LedgerSite) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), timeOf(a.First).Compare(timeOf(b.First)))
	})
	slices.SortFunc(l.Robots, func(a, b LedgerRobot) int {
		return cmp.Or(cmp.Compare(b.Requests, a.Requests), cmp.Compare(a.Name, b.Name))
	})
	slices.SortFunc(l.Operators, func(a, b LedgerOperator) int {
		return cmp.Or(cmp.Compare(b.Requests, a.Requests), cmp.Compare(a.Operator, b.Operator))
	})
}

func timeOf(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return *t
}

// IsLedger reports whether the document r starts with is a ledger (its
// first member is "kind": LedgerKind), without consuming r. A ledger of
// robowatch always begins so; a JSON report begins with its version.
func IsLedger(r *bufio.Reader) bool {
	head, _ := r.Peek(512)
	dec := json.NewDecoder(bytes.NewReader(head))
	var toks [3]json.Token
	for i := range toks {
		t, err := dec.Token()
		if err != nil {
			return false
		}
		toks[i] = t
	}
	return toks[0] == json.Delim('{') && toks[1] == "kind" && toks[2] == LedgerKind
}

// ledgerPart is a ledger read back, and the name it was given by.
type ledgerPart struct {
	Ledger
	name string
}

// readLedger reads one ledger and checks what a merge relies on: its kind
// and version, no count negative, and each row's sites among the ledger's.
func readLedger(name string, r io.Reader) (*ledgerPart, error) {
	p := &ledgerPart{name: name}
	dec := json.NewDecoder(r)
	if err := dec.Decode(&p.Ledger); err != nil {
		return nil, fmt.Errorf("%s: not a robowatch ledger: %w", name, err)
	}
	if err := dec.Decode(new(json.RawMessage)); err != io.EOF {
		return nil, fmt.Errorf("%s: more than one ledger, or something after it: merge takes one ledger a file", name)
	}
	l := &p.Ledger
	switch {
	case l.Kind != LedgerKind:
		return nil, fmt.Errorf("%s: kind %q, not a robowatch ledger (%q)", name, l.Kind, LedgerKind)
	case l.Version < 1 || l.Version > LedgerVersion:
		return nil, fmt.Errorf("%s: ledger version %d; this robowatch merges versions up to %d", name, l.Version, LedgerVersion)
	case len(l.Sites) == 0:
		return nil, fmt.Errorf("%s: a ledger of no site", name)
	}
	sites := map[string]bool{}
	for _, s := range l.Sites {
		if err := CheckSite(s.Name); err != nil {
			return nil, fmt.Errorf("%s: site %q: %w", name, s.Name, err)
		}
		if s.Records < 0 || s.RobotRequests < 0 || s.RobotRequests > s.Records {
			return nil, fmt.Errorf("%s: site %s: records %d and robot requests %d: not a ledger robowatch wrote", name, s.Name, s.Records, s.RobotRequests)
		}
		sites[s.Name] = true
	}
	inSites := func(names []string) bool {
		return !slices.ContainsFunc(names, func(n string) bool { return !sites[n] })
	}
	for _, rb := range l.Robots {
		neg := rb.Requests < 0 || rb.Bytes < 0 || rb.Violations < 0 || rb.Cached < 0 || rb.UnreachableRequests < 0 ||
			rb.Pages != nil && *rb.Pages < 0 || rb.PreferenceConflicts != nil && *rb.PreferenceConflicts < 0 || rb.Conduct.Negative()
		if neg || rb.Name == "" || len(rb.SiteNames) == 0 || rb.Sites != len(rb.SiteNames) || !inSites(rb.SiteNames) || !inSites(rb.ViolatedOn) {
			return nil, fmt.Errorf("%s: robot %q: a negative count, or sites not among the ledger's: not a ledger robowatch wrote", name, rb.Name)
		}
	}
	for _, o := range l.Operators {
		neg := o.Requests < 0 || o.Pages != nil && *o.Pages < 0 || o.ReferredViews != nil && *o.ReferredViews < 0
		if neg || o.Operator == "" || len(o.SiteNames) == 0 || o.Sites != len(o.SiteNames) || !inSites(o.SiteNames) {
			return nil, fmt.Errorf("%s: operator %q: a negative count, or sites not among the ledger's: not a ledger robowatch wrote", name, o.Operator)
		}
	}
	return p, nil
}

// siteOverlap says why two entries of one site may not merge: they cover
// the same time (more than the reordering a rotation leaves), or one of
// them says no time at all, so that it cannot be told apart. "" when they
// are two periods of the site.
func siteOverlap(a, b *LedgerSite) string {
	if a.First == nil || a.Last == nil || b.First == nil || b.Last == nil {
		return "a period without records cannot be told apart from the other"
	}
	from, to := *a.First, *a.Last
	if b.First.After(from) {
		from = *b.First
	}
	if b.Last.Before(to) {
		to = *b.Last
	}
	if to.Sub(from) <= findings.DefaultReorderTolerance {
		return ""
	}
	return fmt.Sprintf("both cover %s to %s", from.UTC().Format(time.RFC3339), to.UTC().Format(time.RFC3339))
}

// MergeLedgers reads the ledgers of several sites (or of one site's
// consecutive periods, or earlier merges) and returns their ledger: per
// robot and operator the sums, the sites that saw it, and the shares
// recomputed from the summed counts. It refuses two ledgers holding one
// site over the same period, whose robots would count twice. names name
// the readers in errors.
func MergeLedgers(names []string, readers []io.Reader) (*Ledger, error) {
	if len(readers) == 0 {
		return nil, errors.New("no ledgers to merge")
	}
	parts := make([]*ledgerPart, len(readers))
	for i, r := range readers {
		p, err := readLedger(names[i], r)
		if err != nil {
			return nil, err
		}
		parts[i] = p
	}
	type entry struct {
		site *LedgerSite
		part int
	}
	var entries []entry
	for k, p := range parts {
		for i := range p.Sites {
			s := &p.Sites[i]
			for _, e := range entries {
				if e.site.Name != s.Name {
					continue
				}
				if why := siteOverlap(e.site, s); why != "" {
					if e.part == k {
						return nil, fmt.Errorf("%s holds site %s twice (%s): not a ledger robowatch wrote", p.name, s.Name, why)
					}
					return nil, fmt.Errorf("%s and %s are both ledgers of site %s over the same period (%s): merged, its robots would count twice; merge one site's ledgers of different periods, or the ledgers of different sites",
						parts[e.part].name, p.name, s.Name, why)
				}
			}
			entries = append(entries, entry{s, k})
		}
	}
	out := &Ledger{Kind: LedgerKind, Version: LedgerVersion, Sites: []LedgerSite{}, Robots: []LedgerRobot{}, Operators: []LedgerOperator{}}
	robots := map[string]*robotSum{}
	operators := map[string]*operatorSum{}
	var robotOrder, operatorOrder []string
	for _, p := range parts {
		out.Sites = append(out.Sites, p.Sites...)
		for _, rb := range p.Robots {
			s := robots[rb.Name]
			if s == nil {
				s = &robotSum{pagesKnown: true, rulesKnown: true, rules: map[string]int64{}, sites: map[string]bool{}, violated: map[string]bool{}}
				s.row = LedgerRobot{Name: rb.Name, Operator: rb.Operator, Purpose: rb.Purpose, Identity: rb.Identity, Compliance: map[string]int{}}
				robots[rb.Name] = s
				robotOrder = append(robotOrder, rb.Name)
			}
			s.add(&rb)
		}
		for _, o := range p.Operators {
			s := operators[o.Operator]
			if s == nil {
				s = &operatorSum{pagesKnown: true, referredKnown: true, sites: map[string]bool{}}
				s.row.Operator = o.Operator
				operators[o.Operator] = s
				operatorOrder = append(operatorOrder, o.Operator)
			}
			s.add(&o)
		}
	}
	for _, name := range robotOrder {
		out.Robots = append(out.Robots, robots[name].result())
	}
	for _, name := range operatorOrder {
		out.Operators = append(out.Operators, operators[name].result())
	}
	sortLedger(out)
	return out, nil
}

// robotSum is one robot's row being summed over the ledgers.
type robotSum struct {
	row                    LedgerRobot
	pages, conflicts       int64
	pagesKnown, rulesKnown bool
	conflictsKnown         bool
	rules                  map[string]int64
	sites, violated        map[string]bool
	conducts               []findings.Conduct
}

func (s *robotSum) add(rb *LedgerRobot) {
	r := &s.row
	r.Operator, r.Purpose = cmp.Or(r.Operator, rb.Operator), cmp.Or(r.Purpose, rb.Purpose)
	if len(s.sites) > 0 {
		r.Identity = findings.JoinIdentity(r.Identity, rb.Identity)
	}
	for _, n := range rb.SiteNames {
		s.sites[n] = true
	}
	for _, n := range rb.ViolatedOn {
		s.violated[n] = true
	}
	r.Requests = findings.SaturatingAdd(r.Requests, rb.Requests)
	r.Bytes = findings.SaturatingAdd(r.Bytes, rb.Bytes)
	r.Violations = findings.SaturatingAdd(r.Violations, rb.Violations)
	r.Cached = findings.SaturatingAdd(r.Cached, rb.Cached)
	r.UnreachableRequests = findings.SaturatingAdd(r.UnreachableRequests, rb.UnreachableRequests)
	if rb.Pages == nil {
		s.pagesKnown = false
	} else {
		s.pages = findings.SaturatingAdd(s.pages, *rb.Pages)
	}
	if rb.PreferenceConflicts != nil {
		// Counted on the sites that measured it: a site without a
		// preference has none to conflict with.
		s.conflictsKnown = true
		s.conflicts = findings.SaturatingAdd(s.conflicts, *rb.PreferenceConflicts)
	}
	if rb.Violations > 0 && rb.Rules == nil {
		s.rulesKnown = false
	}
	for _, rule := range rb.Rules {
		s.rules[rule.Rule] = findings.SaturatingAdd(s.rules[rule.Rule], max(rule.Violations, 0))
	}
	for word, n := range rb.Compliance {
		// Other sites' ledgers are theirs to write: their counts may add
		// past the largest int, and saturate there.
		if n = max(n, 0); n > math.MaxInt-r.Compliance[word] {
			r.Compliance[word] = math.MaxInt
		} else {
			r.Compliance[word] += n
		}
	}
	s.conducts = append(s.conducts, rb.Conduct)
}

func (s *robotSum) result() LedgerRobot {
	r := s.row
	r.SiteNames = slices.Sorted(maps.Keys(s.sites))
	r.Sites = len(r.SiteNames)
	r.ViolatedOn = slices.Sorted(maps.Keys(s.violated))
	if s.pagesKnown {
		r.Pages = &s.pages
	}
	if s.conflictsKnown {
		r.PreferenceConflicts = &s.conflicts
	}
	if s.rulesKnown && r.Violations > 0 {
		r.Rules = ruleList(s.rules)
	}
	r.Conduct = findings.SumConduct(s.conducts)
	return r
}

// operatorSum is one operator's row being summed over the ledgers.
type operatorSum struct {
	row                       LedgerOperator
	pages, referred           int64
	pagesKnown, referredKnown bool
	sites                     map[string]bool
}

func (s *operatorSum) add(o *LedgerOperator) {
	for _, n := range o.SiteNames {
		s.sites[n] = true
	}
	s.row.Requests = findings.SaturatingAdd(s.row.Requests, o.Requests)
	if o.Pages == nil {
		s.pagesKnown = false
	} else {
		s.pages = findings.SaturatingAdd(s.pages, *o.Pages)
	}
	if o.ReferredViews == nil {
		s.referredKnown = false
	} else {
		s.referred = findings.SaturatingAdd(s.referred, *o.ReferredViews)
	}
}

func (s *operatorSum) result() LedgerOperator {
	o := s.row
	o.SiteNames = slices.Sorted(maps.Keys(s.sites))
	o.Sites = len(o.SiteNames)
	if s.pagesKnown {
		o.Pages = &s.pages
	}
	if s.referredKnown {
		o.ReferredViews = &s.referred
	}
	if s.pagesKnown && s.referredKnown {
		// From the sums: a site of a million pages and ten referrals
		// weighs as much as it took.
		o.CrawlToRefer = findings.CrawlToRefer(s.pages, s.referred)
	}
	return o
}
