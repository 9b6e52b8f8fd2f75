package report

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/robowatch/robowatch/findings"
)

// referSection is crawl-to-refer by operator: the pages its verified
// crawlers took and the people its search engine or assistant sent back
// (operators[].pages, referred_views, crawl_to_refer). Nil when no
// operator did either: a log without verified crawlers or Referers.
func referSection(r *Report, opt Options) *section {
	var rows []findings.OperatorSummary
	for _, o := range r.Result.Operators {
		if o.Pages > 0 || o.ReferredViews > 0 {
			rows = append(rows, o)
		}
	}
	if len(rows) == 0 {
		return nil
	}
	slices.SortStableFunc(rows, func(a, b findings.OperatorSummary) int {
		return cmp.Or(cmp.Compare(b.Pages, a.Pages), cmp.Compare(b.ReferredViews, a.ReferredViews), cmp.Compare(a.Operator, b.Operator))
	})
	s := &section{
		name: "refer", title: "What robots take and send back",
		header: []string{"Operator", "Pages taken", "People sent", "Pages per person", "Verified robots"},
		right:  []bool{false, true, true, true, false},
		flex:   []bool{false, false, false, false, true},
		keep:   []bool{true, false, false, false, false},
		drop:   []int{0, 3, 2, 0, 1},
	}
	n := opt.top(len(rows))
	for _, o := range rows[:n] {
		s.rows = append(s.rows, []string{Escape(o.Operator), Count(o.Pages), Count(o.ReferredViews),
			referRatio(o.CrawlToRefer, o.Pages), Escape(strings.Join(verifiedRobots(r.Result.Robots, o.Operator), ", "))})
	}
	s.notes = append(cutNote(n, len(rows), "operator", "operators"),
		"Pages taken: page requests of the operator's verified crawlers (an impostor's are no one's). People sent: page views of "+
			"clients judged human arriving with a Referer of the operator's search engine or assistant (google.*, bing.com, "+
			"chatgpt.com, perplexity.ai, claude.ai, ...) or ChatGPT's utm_source=chatgpt.com; a redirect is no view. "+
			"A log without the Referer field sends no one back.")
	return s
}

// referRatio writes pages per person sent as "14 : 1": one decimal under
// 10, whole numbers above; "none sent back" when the operator's robots
// took pages and its products sent no one.
func referRatio(ratio *float64, pages int64) string {
	switch {
	case ratio == nil && pages > 0:
		return "none sent back"
	case ratio == nil:
		return "-"
	case *ratio < 10:
		return strconv.FormatFloat(float64(int64(*ratio*10+0.5))/10, 'f', -1, 64) + " : 1"
	}
	return Exact(int64(*ratio+0.5)) + " : 1"
}

// verifiedRobots names the robots rows of op's verified crawlers.
func verifiedRobots(robots []findings.RobotSummary, op string) []string {
	var out []string
	for i := range robots {
		if robots[i].Operator == op && robots[i].Identity == findings.IdentityVerified {
			out = append(out, robots[i].Name)
		}
	}
	return out
}
