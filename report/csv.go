package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
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
	cw := csv.NewWriter(w)
	// Log-derived strings are written as logged except for control and
	// invisible characters, which are escaped as on a terminal: a CSV file
	// is opened in terminals and spreadsheets too.
	write := func(rec []string) {
		for i := range rec {
			rec[i] = neutralise(Escape(rec[i]))
		}
		cw.Write(rec)
	}
	res := r.Result
	i64 := func(n int64) string { return strconv.FormatInt(n, 10) }
	itoa := strconv.Itoa
	switch name {
	case "summary":
		write([]string{"key", "value"})
		for _, kv := range [][2]string{
			{"files", strings.Join(r.Files, " ")}, {"format", r.Stats.Format},
			{"lines", i64(r.Stats.Lines)}, {"records", i64(r.Stats.Records)}, {"malformed", i64(r.Stats.Malformed)},
			{"first", rfc3339(r.Stats.First)}, {"last", rfc3339(r.Stats.Last)},
			{"clients", i64(res.DistinctClients)}, {"clients_estimated", strconv.FormatBool(res.ClientsEstimated)}, {"robots", itoa(res.RobotCount)},
			{"violations_checked", strconv.FormatBool(res.ViolationsChecked)}, {"violations", i64(res.ViolationCount)},
			{"incidents", itoa(res.IncidentCount)}, {"partial", strconv.FormatBool(r.Partial)},
		} {
			write(kv[:])
		}
	case "robots":
		write([]string{"name", "clients", "requests", "violations", "fetched_robots_txt", "finding", "incidents"})
		for _, b := range res.Robots[:opt.top(len(res.Robots))] {
			write([]string{b.Name, itoa(b.Clients), i64(b.Requests), i64(b.Violations),
				strconv.FormatBool(b.FetchedRobotsTxt), b.Finding, itoa(b.Incidents)})
		}
	case "clients":
		write([]string{"ip", "user_agent", "robot", "name", "kind", "score", "reasons", "requests", "bytes",
			"robots_txt_fetches", "violations", "incidents", "first", "last", "peak_1s", "peak_10s", "peak_60s"})
		left := opt.top(res.Clients.Len())
		for c := range res.Clients.All() {
			if left--; left < 0 {
				break
			}
			write([]string{c.IP, c.UserAgent, strconv.FormatBool(c.Robot), c.Name, c.Kind, itoa(c.Score),
				strings.Join(c.Reasons, " "), i64(c.Requests), i64(c.Bytes), i64(c.RobotsTxtFetches), i64(c.Violations),
				itoa(c.Incidents), rfc3339(c.First), rfc3339(c.Last), itoa(c.Peak.Per1s), itoa(c.Peak.Per10s), itoa(c.Peak.Per60s)})
		}
	case "violations":
		write([]string{"time", "ip", "user_agent", "name", "method", "path", "status", "group", "rule", "line"})
		left := opt.top(res.Violations.Len())
		for v := range res.Violations.All() {
			if left--; left < 0 {
				break
			}
			write([]string{rfc3339(v.Time), v.IP, v.UserAgent, v.Name, v.Method, v.Path, itoa(v.Status),
				v.Group, v.Rule, itoa(v.Line)})
		}
	case "incidents":
		write([]string{"start", "end", "seconds", "ip", "user_agent", "name", "requests", "peak_per_second",
			"paths", "bytes", "2xx", "3xx", "4xx", "5xx"})
		for _, in := range res.Incidents[:opt.top(len(res.Incidents))] {
			st := in.Status
			write([]string{rfc3339(in.Start), rfc3339(in.End), i64(in.Seconds), in.IP, in.UserAgent, in.Name,
				i64(in.Requests), itoa(in.PeakPerSecond), itoa(in.Paths), i64(in.Bytes),
				i64(st.S2xx), i64(st.S3xx), i64(st.S4xx), i64(st.S5xx)})
		}
	case "client":
		write([]string{"ip", "user_agent", "minute", "requests"})
		for _, t := range res.Watched {
			for _, m := range t.Minutes {
				write([]string{t.IP, t.UserAgent, rfc3339(m.Minute), itoa(m.Requests)})
			}
		}
	case "malformed":
		write([]string{"file", "line", "column", "reason", "text"})
		for _, e := range r.Stats.Samples {
			write([]string{e.File, i64(e.Line), itoa(e.Column), reason(e), e.Text})
		}
	}
	cw.Flush()
	return cw.Error()
}

// neutralise keeps a spreadsheet from running a cell as a formula: text that
// begins with '=', '+', '-', '@', a tab or a carriage return (OWASP's list
// for CSV injection) gets a leading "'", which spreadsheets take as "this is
// text" and do not show. A log's User-agent or path can begin that way;
// robowatch's own numbers never need it, and a cell that is a number stays
// a number.
func neutralise(cell string) string {
	if cell == "" || !strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
		return cell
	}
	if isNumber(cell) {
		return cell
	}
	return "'" + cell
}

// isNumber reports whether s is a plain decimal number: a sign, digits, and
// at most one point among them.
func isNumber(s string) bool {
	if s[0] == '-' || s[0] == '+' {
		s = s[1:]
	}
	digits, point := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !point:
			point = true
		default:
			return false
		}
	}
	return digits > 0
}

func rfc3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339)
}
