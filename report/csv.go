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
	rows := &csvRows{out: newCSVWriter(w)}
	switch name {
	case "headline":
		rows.headline(r)
	case "summary":
		rows.summary(r)
	case "robots":
		rows.robots(r, opt)
	case "conduct":
		rows.conduct(r, opt)
	case "traffic":
		rows.traffic(r)
	case "status":
		rows.status(r, opt)
	case "paths":
		rows.paths(r, opt)
	case "refer":
		rows.refer(r)
	case "clients":
		rows.clients(r, opt)
	case "violations":
		rows.violations(r, opt)
	case "incidents":
		rows.incidents(r, opt)
	case "client":
		rows.client(r)
	case "malformed":
		rows.malformed(r)
	}
	rows.out.Flush()
	return rows.out.Error()
}

// csvRows writes the rows of a CSV section, one method a section.
type csvRows struct {
	out *csvWriter
	rec []string // the record being written, reused
}

// write writes one row. Cells keep their types up to here, so that csvCell
// can tell text, which may come from the log and is neutralised, from
// robowatch's own numbers, which are not.
func (c *csvRows) write(cells ...any) {
	c.rec = c.rec[:0]
	for _, v := range cells {
		c.rec = append(c.rec, csvCell(v))
	}
	c.out.Write(c.rec)
}

// headline writes the headline's facts, as values: what robots asked for,
// the worst incident, the worst robots.txt offender.
func (c *csvRows) headline(r *Report) {
	res := r.Result
	c.write("key", "value")
	c.write("records", r.Stats.Records-r.Outside) // as the headline's: the --since/--until window's
	c.write("robot_requests", res.RobotRequests)
	c.write("robot_bytes", res.RobotBytes)
	if len(res.Incidents) > 0 && !res.Incidents[0].Human() {
		in := res.Incidents[0]
		c.write("worst_incident_ip", in.IP)
		c.write("worst_incident_name", in.Name)
		c.write("worst_incident_start", in.Start)
		c.write("worst_incident_severity", in.Severity)
	}
	if w := worstOffender(res); w != nil {
		c.write("worst_offender", w.Name)
		c.write("worst_offender_violations", w.Violations)
	}
}

func (c *csvRows) summary(r *Report) {
	res := r.Result
	c.write("key", "value")
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
		c.write(kv.key, kv.value)
	}
	// What went wrong while reading (a corrupt gzip, a file that
	// vanished): the counts above cover only what came before it, and
	// a script reading this section alone must be able to tell.
	for _, e := range r.Errors {
		c.write("error", e)
	}
}

func (c *csvRows) robots(r *Report, opt Options) {
	res := r.Result
	c.write("name", "clients", "requests", "violations", "fetched_robots_txt", "finding", "incidents")
	for _, b := range res.Robots[:opt.top(len(res.Robots))] {
		c.write(b.Name, b.Clients, b.Requests, b.Violations, b.FetchedRobotsTxt, b.Finding, b.Incidents)
	}
}

func (c *csvRows) conduct(r *Report, opt Options) {
	res := r.Result
	c.write("name", "sessions", "robots_txt_fetches", "robots_txt_max_gap_s", "disallow_compliance", "crawl_delay_compliance",
		"error_backoff", "conditional_share", "unreachable_requests", "robots_txt_pages")
	for _, b := range res.Robots[:opt.top(len(res.Robots))] {
		k := &b.Conduct
		c.write(b.Name, k.Sessions, k.RobotsTxtFetches, orEmpty(k.RobotsTxtMaxGap), orEmpty(k.DisallowCompliance), orEmpty(k.CrawlDelayCompliance),
			k.ErrorBackoff, k.ConditionalShare, b.UnreachableRequests, b.RobotsTxtServed.Page)
	}
}

// traffic writes the timeline's buckets as they are: a script sums them to
// days.
func (c *csvRows) traffic(r *Report) {
	tl := &r.Result.Timeline
	c.write("start", "seconds", "requests", "robots", "humans")
	for i := range tl.Requests {
		c.write(tl.Start.Add(time.Duration(int64(i)*tl.BucketSeconds)*time.Second), tl.BucketSeconds, tl.Requests[i], at64(tl.Robots, i), at64(tl.Humans, i))
	}
}

func (c *csvRows) status(r *Report, opt Options) {
	res := r.Result
	c.write("name", "requests", "2xx", "3xx", "4xx", "404", "5xx", "other")
	row := func(name string, s findings.StatusCounts) {
		c.write(name, s.Total(), s.S2xx, s.S3xx, s.S4xx, s.NotFound, s.S5xx, s.Other)
	}
	// The rows of all robots and of people are named as no robot is
	// (robot names are a User-agent's product tokens: no parentheses
	// alone).
	row("(all robots)", res.Panels.RobotStatus)
	row("(people)", res.Panels.HumanStatus)
	for _, b := range res.Robots[:opt.top(len(res.Robots))] {
		row(b.Name, b.Status)
	}
}

func (c *csvRows) paths(r *Report, opt Options) {
	res := r.Result
	c.write("name", "path", "requests", "error")
	for _, pc := range res.Panels.RobotPaths {
		c.write("(all robots)", pc.Path, pc.Requests, pc.Error)
	}
	for _, b := range res.Robots[:opt.top(len(res.Robots))] {
		for _, pc := range b.TopPaths {
			c.write(b.Name, pc.Path, pc.Requests, pc.Error)
		}
	}
}

func (c *csvRows) refer(r *Report) {
	c.write("operator", "pages", "referred_views", "crawl_to_refer")
	for _, o := range r.Result.Operators {
		c.write(o.Operator, o.Pages, o.ReferredViews, orEmpty(o.CrawlToRefer))
	}
}

func (c *csvRows) clients(r *Report, opt Options) {
	res := r.Result
	c.write("ip", "user_agent", "robot", "name", "kind", "score", "reasons", "requests", "bytes",
		"robots_txt_fetches", "violations", "incidents", "first", "last", "peak_1s", "peak_10s", "peak_60s")
	left := opt.top(res.Clients.Len())
	for cl := range res.Clients.All() {
		if left--; left < 0 {
			break
		}
		c.write(cl.IP, cl.UserAgent, cl.Robot, cl.Name, cl.Kind, cl.Score,
			strings.Join(cl.Reasons, " "), cl.Requests, cl.Bytes, cl.RobotsTxtFetches, cl.Violations,
			cl.Incidents, cl.First, cl.Last, cl.Peak.Per1s, cl.Peak.Per10s, cl.Peak.Per60s)
	}
}

func (c *csvRows) violations(r *Report, opt Options) {
	res := r.Result
	c.write("time", "ip", "user_agent", "name", "method", "path", "status", "group", "rule", "line", "robots_txt_from")
	left := opt.top(res.Violations.Len())
	for v := range res.Violations.All() {
		if left--; left < 0 {
			break
		}
		c.write(v.Time, v.IP, v.UserAgent, v.Name, v.Method, v.Path, v.Status, v.Group, v.Rule, v.Line, v.RobotsTxtFrom)
	}
}

func (c *csvRows) incidents(r *Report, opt Options) {
	res := r.Result
	c.write("start", "end", "seconds", "ip", "user_agent", "name", "requests", "peak_per_second",
		"paths", "bytes", "2xx", "3xx", "4xx", "5xx", "severity", "verdict")
	for _, in := range res.Incidents[:opt.top(len(res.Incidents))] {
		st := in.Status
		c.write(in.Start, in.End, in.Seconds, in.IP, in.UserAgent, in.Name,
			in.Requests, in.PeakPerSecond, in.Paths, in.Bytes, st.S2xx, st.S3xx, st.S4xx, st.S5xx, in.Severity, cmp.Or(in.Verdict, in.Name))
	}
}

func (c *csvRows) client(r *Report) {
	c.write("ip", "user_agent", "minute", "requests")
	for _, t := range r.Result.Watched {
		for _, m := range t.Minutes {
			c.write(t.IP, t.UserAgent, m.Minute, m.Requests)
		}
	}
}

func (c *csvRows) malformed(r *Report) {
	c.write("file", "line", "column", "reason", "text")
	for _, e := range r.Stats.Samples {
		c.write(e.File, e.Line, e.Column, reason(e), e.Text)
	}
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
