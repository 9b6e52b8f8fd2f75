package report

import (
	"slices"
	"strconv"
	"time"

	"github.com/robowatch/robowatch/findings"
)

// The robots list is written by hand too, byte for byte as encoding/json
// writes it (TestRobotRowsAsEncodingJSON): on the churn log (9,325 robot
// names, 4 MB of the report) encoding/json spent about 45 ms of CPU a run
// on it, most of it reflection and re-indenting what it wrote.

// appendRobot appends r as a robots row at prefix, or reports false when
// encoding/json must (a time past year 9999, a float it writes with an
// exponent).
func appendRobot(b []byte, r *findings.RobotSummary, prefix string) ([]byte, bool) {
	k := &r.Conduct
	for _, t := range [...]*time.Time{r.FirstFetch, r.FirstViolation, r.LastViolation} {
		if t != nil && !exactTime(*t) {
			return b, false
		}
	}
	if !exactFloat(k.ConditionalShare) || k.DisallowCompliance != nil && !exactFloat(*k.DisallowCompliance) ||
		k.CrawlDelayCompliance != nil && !exactFloat(*k.CrawlDelayCompliance) {
		return b, false
	}
	in := deeper(prefix)
	w := rowWriter{b: append(b, '{'), indent: in}
	w.str("name", r.Name)
	w.int("clients", int64(r.Clients))
	w.int("requests", r.Requests)
	w.int("bytes", r.Bytes)
	w.int("violations", r.Violations)
	w.bool("fetched_robots_txt", r.FetchedRobotsTxt)
	if r.Cached != 0 {
		w.int("cached", r.Cached)
	}
	if r.PreferenceConflicts != 0 {
		w.int("preference_conflicts", r.PreferenceConflicts)
	}
	if r.PreferenceRule != "" {
		w.str("preference_rule", r.PreferenceRule)
	}
	if d := r.Discovery; d != nil {
		o := w.object("discovery")
		o.int("llms_txt", d.LLMsTxt)
		o.int("llms_full_txt", d.LLMsFullTxt)
		o.int("well_known", d.WellKnown)
		w.end(&o)
	}
	if r.FirstFetch != nil {
		w.time("first_fetch", *r.FirstFetch)
	}
	if r.FirstViolation != nil {
		w.time("first_violation", *r.FirstViolation)
	}
	if r.Finding != "" {
		w.str("finding", r.Finding)
	}
	if r.LastViolation != nil {
		w.time("last_violation", *r.LastViolation)
	}
	w.str("compliance", r.Compliance)
	for _, m := range [...]struct{ key, val string }{
		{"operator", r.Operator}, {"identity", r.Identity}, {"purpose", r.Purpose}, {"url", r.URL},
	} {
		if m.val != "" {
			w.str(m.key, m.val)
		}
	}
	if len(r.Prefixes) > 0 {
		w.open("prefixes")
		w.prefixes(r.Prefixes)
	}
	w.int("incidents", int64(r.Incidents))
	countMap(&w, "reasons", r.Reasons)
	if r.CrawlDelayFast {
		w.bool("crawl_delay_fast", true)
	}
	if r.VerifiedBy != "" {
		w.str("verified_by", r.VerifiedBy)
	}
	w.int("unreachable_requests", r.UnreachableRequests)
	s := &r.RobotsTxtServed
	o := w.object("robots_txt_served")
	o.int("2xx", s.OK)
	o.int("3xx", s.Redirect)
	o.int("4xx", s.Unavailable)
	o.int("5xx", s.Unreachable)
	o.int("page", s.Page)
	w.end(&o)
	w.open("conduct")
	w.b = appendConduct(w.b, k, in)
	st := &r.Status
	o = w.object("status")
	o.int("2xx", st.S2xx)
	o.int("3xx", st.S3xx)
	o.int("4xx", st.S4xx)
	o.int("5xx", st.S5xx)
	o.int("other", st.Other)
	o.int("404", st.NotFound)
	w.end(&o)
	w.open("top_paths")
	w.pathCounts(r.TopPaths)
	w.int("top_paths_other_max", r.TopPathsOtherMax)
	w.close(prefix)
	return w.b, true
}

// appendConduct appends k as encoding/json writes it at prefix; its
// floats are exactFloat's.
func appendConduct(b []byte, k *findings.Conduct, prefix string) []byte {
	w := rowWriter{b: append(b, '{'), indent: deeper(prefix)}
	w.int("sessions", k.Sessions)
	w.int("robots_txt_fetches", k.RobotsTxtFetches)
	w.nullable("robots_txt_max_gap_s", k.RobotsTxtMaxGap)
	w.nullableFloat("disallow_compliance", k.DisallowCompliance)
	w.nullableFloat("crawl_delay_compliance", k.CrawlDelayCompliance)
	w.str("error_backoff", k.ErrorBackoff)
	w.float("conditional_share", k.ConditionalShare)
	countMap(&w, "methods", k.Methods)
	w.int("requests", k.Requests)
	w.int("violating_sessions", k.ViolatingSessions)
	w.int("unjudged_sessions", k.UnjudgedSessions)
	w.int("crawl_delay_sessions", k.CrawlDelaySessions)
	w.int("crawl_delay_fast_sessions", k.FastSessions)
	w.int("not_modified", k.NotModified)
	w.int("error_episodes", k.ErrorEpisodes)
	w.int("error_before", k.ErrorBefore)
	w.int("error_after", k.ErrorAfter)
	w.close(prefix)
	return w.b
}

// float writes v, which exactFloat allows, as encoding/json does.
func (w *rowWriter) float(key string, v float64) {
	w.open(key)
	w.b = strconv.AppendFloat(w.b, v, 'f', -1, 64)
}

// nullableFloat writes v, or null for nil.
func (w *rowWriter) nullableFloat(key string, v *float64) {
	if v == nil {
		w.open(key)
		w.b = append(w.b, "null"...)
		return
	}
	w.float(key, *v)
}

// countMap writes m as encoding/json writes a map: null for nil, its keys
// sorted.
func countMap[V int | int64](w *rowWriter, key string, m map[string]V) {
	if len(m) == 0 {
		w.open(key)
		if m == nil {
			w.b = append(w.b, "null"...)
		} else {
			w.b = append(w.b, "{}"...)
		}
		return
	}
	// A row's maps have a few keys (reasons, methods): sorted on the stack.
	var buf [8]string
	keys := buf[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	o := w.object(key)
	for _, k := range keys {
		if o.members > 0 {
			o.b = append(o.b, ',')
		}
		o.members++
		o.b = append(o.b, '\n')
		o.b = append(o.b, o.indent...)
		o.b = appendJSONString(o.b, k)
		o.b = append(o.b, ": "...)
		o.b = strconv.AppendInt(o.b, int64(m[k]), 10)
	}
	w.end(&o)
}

// prefixes writes v as encoding/json writes it.
func (w *rowWriter) prefixes(v []findings.PrefixCount) {
	w.b = appendList(w.b, w.indent, v == nil, len(v), func(b []byte, i int, row string) []byte {
		o := rowWriter{b: append(b, '{'), indent: deeper(row)}
		o.str("prefix", v[i].Prefix)
		o.int("count", v[i].Count)
		o.close(row)
		return o.b
	})
}

// pathCounts writes v as encoding/json writes it: null for nil.
func (w *rowWriter) pathCounts(v []findings.PathCount) {
	w.b = appendList(w.b, w.indent, v == nil, len(v), func(b []byte, i int, row string) []byte {
		return appendPathCount(b, &v[i], row)
	})
}
