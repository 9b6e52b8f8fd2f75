package report

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/robowatch/robowatch/findings"
)

// servedRows says in the summary how robots.txt failed robots: answered
// with a page (a login or challenge), or unreachable while they crawled.
func servedRows(robots []findings.RobotSummary, pages, unreachable int64, add func(k, v string)) {
	names := func(has func(*findings.RobotSummary) bool) string {
		var out []string
		for i := range robots {
			if has(&robots[i]) {
				out = append(out, robots[i].Name)
			}
		}
		if len(out) > 3 {
			out = append(out[:3], fmt.Sprintf("%s more", Exact(int64(len(out)-3))))
		}
		return Escape(strings.Join(out, ", "))
	}
	if pages > 0 {
		add("robots.txt", "robots.txt served as a page: "+Exact(pages)+noun(pages, " answer", " answers")+
			" of a page's size, not the file's (a login or challenge?), to "+
			names(func(s *findings.RobotSummary) bool { return s.RobotsTxtServed.Page > 0 })+"; still judged against the file given")
	}
	if unreachable > 0 {
		add("Unreachable", Exact(unreachable)+noun(unreachable, " request", " requests")+" while robots.txt answered 5xx or nothing, by "+
			names(func(s *findings.RobotSummary) bool { return s.UnreachableRequests > 0 })+
			": not judged (RFC 9309 asks for a complete disallow unless a robot holds a copy), not obeyed either")
	}
}

// conductSection is each robot's conduct in the studies' measures: its
// sessions, how often it read robots.txt and how long it crawled on one
// copy, the share of its sessions that kept the rules and the Crawl-delay,
// whether it slowed after 429 and 503 answers, its 304 share and methods.
func conductSection(r *Report, opt Options) *section {
	s := &section{
		name: "conduct", title: "Conduct (by robot name)",
		header: []string{"Robot", "Sessions", "robots.txt reads", "Longest on one copy", "Disallow kept", "Crawl-delay kept", "After 429/503", "304 share", "Methods"},
		right:  []bool{false, true, true, true, true, true, false, true, false},
		flex:   []bool{true, false, false, false, false, false, false, false, true},
		keep:   []bool{true, false, false, false, false, false, false, false, false},
		drop:   []int{0, 8, 4, 3, 7, 5, 6, 2, 1},
	}
	robots := r.Result.Robots
	n := opt.top(len(robots))
	for _, b := range robots[:n] {
		k := &b.Conduct
		gap := "-"
		if k.RobotsTxtMaxGap != nil {
			gap = conductDuration(*k.RobotsTxtMaxGap)
		}
		s.rows = append(s.rows, []string{Escape(b.Name), Count(k.Sessions), Count(k.RobotsTxtFetches), gap,
			shareCell(k.DisallowCompliance, k.Sessions-k.UnjudgedSessions), shareCell(k.CrawlDelayCompliance, k.CrawlDelaySessions),
			k.ErrorBackoff, fmt.Sprintf("%.0f%%", 100*k.ConditionalShare), methodsCell(k.Methods)})
		if k.DisallowCompliance != nil && *k.DisallowCompliance < 1 {
			s.paint(len(s.rows)-1, 4, toneViolation)
		}
	}
	s.notes = cutNote(n, len(robots), "robot name", "robot names")
	if len(robots) > 0 {
		s.notes = append(s.notes, "A session ends after 5 minutes without a request. Kept: the share of its sessions with no violation, "+
			"and of those under a Crawl-delay with no two requests closer than it; \"-\" when not measured.")
	}
	return s
}

// shareCell writes a share of n sessions as a percentage with its count.
func shareCell(share *float64, n int64) string {
	if share == nil {
		return "-"
	}
	return fmt.Sprintf("%.0f%% of %s", 100**share, Count(n))
}

// conductDuration writes seconds as Duration does.
func conductDuration(sec int64) string { return Duration(time.Duration(sec) * time.Second) }

// methodsCell writes requests by method, most first: "GET 10, HEAD 1".
func methodsCell(m map[string]int64) string {
	type mc struct {
		m string
		n int64
	}
	var all []mc
	for k, n := range m {
		all = append(all, mc{k, n})
	}
	slices.SortFunc(all, func(a, b mc) int {
		if a.n != b.n {
			if a.n > b.n {
				return -1
			}
			return 1
		}
		return strings.Compare(a.m, b.m)
	})
	var out []string
	for _, e := range all {
		out = append(out, Escape(e.m)+" "+Count(e.n))
	}
	return strings.Join(out, ", ")
}
