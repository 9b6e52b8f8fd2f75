package report

import (
	"cmp"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/robowatch/robowatch/findings"
)

// writeCSV writes one section as CSV with exact, unformatted values (full
// counts, RFC 3339 times, strings as logged with control characters
// escaped): it is for spreadsheets and scripts. The section is the only one named in
// opt.Sections, or "clients".
func writeCSV(w io.Writer, r *Report, opt Options) error {
	name := "clients"
	switch len(opt.Sections) {
	case 0:
	case 1:
		name = opt.Sections[0]
	default:
		return fmt.Errorf("csv writes one section; choose one with --section (%s)", strings.Join(Sections, ", "))
	}
	cw := newCSVWriter(w)
	// Cells keep their types up to here, so that csvCell can tell text,
	// which may come from the log and is neutralised, from robowatch's own
	// numbers, which are not.
	var rec []string
	write := func(cells ...any) {
		rec = rec[:0]
		for _, c := range cells {
			rec = append(rec, csvCell(c))
		}
		cw.Write(rec)
	}
	res := r.Result
	switch name {
	case "headline":
		// The headline's facts, as values: what robots asked for, the
		// worst incident, the worst robots.txt offender.
		write("key", "value")
		write("records", r.Stats.Records-r.Outside) // as the headline's: the --since/--until window's
		write("robot_requests", res.RobotRequests)
		write("robot_bytes", res.RobotBytes)
		if len(res.Incidents) > 0 && !res.Incidents[0].Human() {
			in := res.Incidents[0]
			write("worst_incident_ip", in.IP)
			write("worst_incident_name", in.Name)
			write("worst_incident_start", in.Start)
			write("worst_incident_severity", in.Severity)
		}
		if w := worstOffender(res); w != nil {
			write("worst_offender", w.Name)
			write("worst_offender_violations", w.Violations)
		}
	case "summary":
		write("key", "value")
		first, last := r.span() // as JSON's: without what the window cut or a forged future date
		for _, kv := range []struct {
			key   string
			value any
		}{
			{"files", strings.Join(r.Files, " ")}, {"format", r.Stats.Format},
			{"lines", r.Stats.Lines}, {"records", r.Stats.Records}, {"malformed", r.Stats.Malformed},
			{"first", first}, {"last", last},
			{"clients", res.DistinctClients}, {"clients_estimated", res.ClientsEstimated}, {"robots", res.RobotCount},
			{"violations_checked", res.ViolationsChecked}, {"violations", res.ViolationCount},
			{"incidents", res.IncidentCount}, {"partial", r.Partial},
		} {
			write(kv.key, kv.value)
		}
		// What went wrong while reading (a corrupt gzip, a file that
		// vanished): the counts above cover only what came before it, and
		// a script reading this section alone must be able to tell.
		for _, e := range r.Errors {
			write("error", e)
		}
	case "robots":
		write("name", "clients", "requests", "violations", "fetched_robots_txt", "finding", "incidents")
		for _, b := range res.Robots[:opt.top(len(res.Robots))] {
			write(b.Name, b.Clients, b.Requests, b.Violations, b.FetchedRobotsTxt, b.Finding, b.Incidents)
		}
	case "conduct":
		write("name", "sessions", "robots_txt_fetches", "robots_txt_max_gap_s", "disallow_compliance", "crawl_delay_compliance",
			"error_backoff", "conditional_share", "unreachable_requests", "robots_txt_pages")
		for _, b := range res.Robots[:opt.top(len(res.Robots))] {
			k := &b.Conduct
			write(b.Name, k.Sessions, k.RobotsTxtFetches, orEmpty(k.RobotsTxtMaxGap), orEmpty(k.DisallowCompliance), orEmpty(k.CrawlDelayCompliance),
				k.ErrorBackoff, k.ConditionalShare, b.UnreachableRequests, b.RobotsTxtServed.Page)
		}
	case "traffic":
		// The timeline's buckets as they are: a script sums them to days.
		tl := &res.Timeline
		write("start", "seconds", "requests", "robots", "humans")
		for i := range tl.Requests {
			write(tl.Start.Add(time.Duration(int64(i)*tl.BucketSeconds)*time.Second), tl.BucketSeconds, tl.Requests[i], at64(tl.Robots, i), at64(tl.Humans, i))
		}
	case "status":
		write("name", "requests", "2xx", "3xx", "4xx", "404", "5xx", "other")
		row := func(name string, c findings.StatusCounts) {
			write(name, c.Total(), c.S2xx, c.S3xx, c.S4xx, c.NotFound, c.S5xx, c.Other)
		}
		// The rows of all robots and of people are named as no robot is
		// (robot names are a User-agent's product tokens: no parentheses
		// alone).
		row("(all robots)", res.Panels.RobotStatus)
		row("(people)", res.Panels.HumanStatus)
		for _, b := range res.Robots[:opt.top(len(res.Robots))] {
			row(b.Name, b.Status)
		}
	case "paths":
		write("name", "path", "requests", "error")
		for _, pc := range res.Panels.RobotPaths {
			write("(all robots)", pc.Path, pc.Requests, pc.Error)
		}
		for _, b := range res.Robots[:opt.top(len(res.Robots))] {
			for _, pc := range b.TopPaths {
				write(b.Name, pc.Path, pc.Requests, pc.Error)
			}
		}
	case "refer":
		write("operator", "pages", "referred_views", "crawl_to_refer")
		for _, o := range res.Operators {
			write(o.Operator, o.Pages, o.ReferredViews, orEmpty(o.CrawlToRefer))
		}
	case "clients":
		write("ip", "user_agent", "robot", "name", "kind", "score", "reasons", "requests", "bytes",
			"robots_txt_fetches", "violations", "incidents", "first", "last", "peak_1s", "peak_10s", "peak_60s")
		left := opt.top(res.Clients.Len())
		for c := range res.Clients.All() {
			if left--; left < 0 {
				break
			}
			write(c.IP, c.UserAgent, c.Robot, c.Name, c.Kind, c.Score,
				strings.Join(c.Reasons, " "), c.Requests, c.Bytes, c.RobotsTxtFetches, c.Violations,
				c.Incidents, c.First, c.Last, c.Peak.Per1s, c.Peak.Per10s, c.Peak.Per60s)
		}
	case "violations":
		write("time", "ip", "user_agent", "name", "method", "path", "status", "group", "rule", "line", "robots_txt_from")
		left := opt.top(res.Violations.Len())
		for v := range res.Violations.All() {
			if left--; left < 0 {
				break
			}
			write(v.Time, v.IP, v.UserAgent, v.Name, v.Method, v.Path, v.Status, v.Group, v.Rule, v.Line, v.RobotsTxtFrom)
		}
	case "incidents":
		write("start", "end", "seconds", "ip", "user_agent", "name", "requests", "peak_per_second",
			"paths", "bytes", "2xx", "3xx", "4xx", "5xx", "severity", "verdict")
		for _, in := range res.Incidents[:opt.top(len(res.Incidents))] {
			st := in.Status
			write(in.Start, in.End, in.Seconds, in.IP, in.UserAgent, in.Name,
				in.Requests, in.PeakPerSecond, in.Paths, in.Bytes, st.S2xx, st.S3xx, st.S4xx, st.S5xx, in.Severity, cmp.Or(in.Verdict, in.Name))
		}
	case "client":
		write("ip", "user_agent", "minute", "requests")
		for _, t := range res.Watched {
			for _, m := range t.Minutes {
				write(t.IP, t.UserAgent, m.Minute, m.Requests)
			}
		}
	case "malformed":
		write("file", "line", "column", "reason", "text")
		for _, e := range r.Stats.Samples {
			write(e.File, e.Line, e.Column, reason(e), e.Text)
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvCell writes one value as a CSV cell. A string is text, which may
// come from the log (a User-agent, a path, a file name, a robots.txt rule):
// control and invisible characters are escaped as on a terminal, since a
// CSV file is opened in terminals too, and the cell is neutralised. Numbers,
// booleans and times are values robowatch computed and are written as they
// are: a negative number stays a number.
func csvCell(v any) string {
	switch v := v.(type) {
	case string:
		return neutralise(Escape(v))
	case int:
		return strconv.Itoa(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case bool:
		return strconv.FormatBool(v)
	case time.Time:
		return rfc3339(v)
	}
	return neutralise(Escape(fmt.Sprint(v))) // no such cell; if one comes, it is text
}

// neutralise keeps a spreadsheet from running a text cell as a formula:
// text that begins with '=', '+', '-' or '@' (or a tab or a carriage
// return, which Escape has made "\t" and "\r" already) gets a leading "'",
// OWASP's rule against CSV injection. Spreadsheets take the quote as "this
// is text" and do not show it. The rule holds for text that looks like a
// number too ("-1" as a User-agent is text, and stays "-1" on screen
// instead of becoming the number -1). Leading spaces do not hide a
// formula: a spreadsheet that trims cells on import (LibreOffice's "Trim
// spaces") reads " =HYPERLINK(…)" as "=HYPERLINK(…)"; nor do Unicode
// spaces (a no-break space, an ideographic space), which a trim may take
// too and which Escape leaves as they are.
func neutralise(cell string) string {
	t := strings.TrimLeftFunc(cell, unicode.IsSpace)
	if t == "" || !strings.ContainsRune("=+-@\t\r", rune(t[0])) {
		return cell
	}
	return "'" + cell
}

func rfc3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339)
}

// orEmpty is the value p points to, or an empty cell when there is none
// (a share or time not measured).
func orEmpty[T any](p *T) any {
	if p == nil {
		return ""
	}
	return *p
}
