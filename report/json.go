package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"slices"
	"time"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

// jsonReport is the JSON contract: scripts depend on these names, so fields
// are only ever added.
type jsonReport struct {
	Version    int                        `json:"version"`
	Summary    jsonSummary                `json:"summary"`
	Clients    iter.Seq[findings.Verdict] `json:"clients"` // unless clientList is set (writeJSON sets it)
	Robots     []findings.RobotSummary    `json:"robots"`
	Violations *findings.ViolationList    `json:"violations"`
	Incidents  []findings.Incident        `json:"incidents"`
	Malformed  []jsonMalformed            `json:"malformed"`
	Errors     []string                   `json:"errors"`
	Timeline   findings.Timeline          `json:"timeline"`          // requests over time, robots and humans stacked
	Networks   findings.NetworkList       `json:"networks"`          // clients by /24 and /48, most requests first
	Operators  []findings.OperatorSummary `json:"operators"`         // verified crawlers by operator, most requests first
	Watched    []findings.ClientTimeline  `json:"watched,omitempty"` // drill-downs of the --client clients
	Panels     findings.Panels            `json:"panels"`            // answers to robots and people, robots' top paths
	State      *jsonState                 `json:"state"`             // what robowatch merge needs (merge.go)

	// clientList, if set, is the clients list, written by index: its
	// first clientsN clients.
	clientList *findings.ClientList
	clientsN   int
}

type jsonSummary struct {
	Lines            int64      `json:"lines"`
	Records          int64      `json:"records"`
	Malformed        int64      `json:"malformed"`
	Directives       int64      `json:"directives"`        // W3C directive lines (#Fields: …): lines = records + malformed + directives
	Clients          int64      `json:"clients"`           // distinct IP + User-agent pairs, exact unless clients were folded into other
	ClientsEstimated bool       `json:"clients_estimated"` // clients is an estimate (HyperLogLog, about 2% off): some were folded
	Robots           int        `json:"robots"`            // clients judged robots
	Violations       int64      `json:"violations"`
	Incidents        int        `json:"incidents"`
	First            *time.Time `json:"first"` // null for a log without records
	Last             *time.Time `json:"last"`
	Format           string     `json:"format"`

	RobotNames        int                `json:"robot_names"`           // distinct robot names
	Files             []string           `json:"files"`                 // inputs, in the order read (oldest first)
	FileFormats       []FileFormat       `json:"file_formats"`          // the format each input was read in ("" when none fitted it), in the order read
	Reordered         bool               `json:"files_reordered"`       // the files were read in time order, not as given
	RobotsTxt         []string           `json:"robots_txt"`            // robots.txt sources checked against
	RobotsTxtFailed   []string           `json:"robots_txt_failed"`     // sources that could not be fetched, with why: nothing was checked against them
	ViolationsChecked bool               `json:"violations_checked"`    // false: no robots.txt given, violations not computed
	LateRecords       int64              `json:"late_records"`          // records too far out of time order for the rate windows
	FutureRecords     int64              `json:"future_records"`        // records dated more than a day past the time robowatch ran: counted, not in rates or the span
	Other             findings.Other     `json:"other"`                 // clients beyond --max-clients, folded together
	Partial           bool               `json:"partial"`               // the run was interrupted: counts cover what was read
	Window            string             `json:"window,omitempty"`      // the --since/--until window
	Outside           int64              `json:"outside"`               // records outside the window, left out of the verdicts
	JunkConnections   int64              `json:"junk_connections"`      // requests that were no HTTP request (TLS handshakes, empty lines), of clients listed as kind junk, not robots
	JunkAddresses     int                `json:"junk_addresses"`        // the addresses they came from
	RobotRequests     int64              `json:"robot_requests"`        // requests of the robot clients (tracked ones)
	RobotBytes        int64              `json:"robot_bytes"`           // bytes sent to them
	Ranges            []agents.RangeFile `json:"ranges"`                // published crawler address ranges identities were checked against, with their dates
	RangesNewer       bool               `json:"ranges_newer_than_log"` // the log starts before the ranges' history: its earlier records are judged by the earliest lists known
	RangesEarliest    int                `json:"ranges_earliest"`       // robot clients seen before the ranges' history, judged by the earliest lists (identity_note)
	DNSChecked        int                `json:"dns_checked"`           // addresses whose claim --verify-dns checked
	// AssetsElsewhere: next to no asset requests in the whole log (a front
	// server or CDN serves them), so "pages and no assets" was set aside.
	AssetsElsewhere bool `json:"pages_without_assets_set_aside"`

	// The violations list holds every violation of a robot unless the
	// per-client or overall bounds of the detector were reached; then the
	// rest are counted in Violations but not listed.
	ViolationsListed   int   `json:"violations_listed"`
	ViolationsUnlisted int64 `json:"violations_unlisted"`
	ClientsListed      int   `json:"clients_listed"`    // clients tracked one by one (the clients list, before --top)
	UncheckedRecords   int64 `json:"unchecked_records"` // records of hosts no --robots HOST=FILE named: not checked

	// Likewise for incidents: listed + unlisted = incidents.
	IncidentsListed   int `json:"incidents_listed"`
	IncidentsUnlisted int `json:"incidents_unlisted"`

	WatchDropped   int64  `json:"watch_dropped"`   // --client pairs past the first 1,000, tracked without a drill-down
	BytesSaturated bool   `json:"bytes_saturated"` // some byte total stopped at 9223372036854775807 (hostile sizes): a lower bound
	Shard          string `json:"shard,omitempty"` // --shard I/N: the report covers the clients of this part only

	// RobotsTxtPages: answers for robots.txt that were a page (a login or
	// challenge: 2xx of a page's size, not the file's), to robots.
	RobotsTxtPages int64 `json:"robots_txt_pages"`
	// UnreachableRequests: robots' requests made while robots.txt answered
	// them 5xx or nothing, not judged (robots[].unreachable_requests).
	UnreachableRequests int64 `json:"unreachable_requests"`
	// JudgedApart: in a merge of consecutive logs, the clients seen in
	// several parts that each part judged a person on its own requests;
	// one pass over all the logs may call some of them robots.
	JudgedApart int `json:"judged_per_part,omitempty"`
	// DayEdges: a merge of days of which one was not run --state-from the
	// report of the day before: what may differ from one run over them.
	DayEdges string `json:"day_edges,omitempty"`
}

type jsonMalformed struct {
	File   string `json:"file"`
	Line   int64  `json:"line"`
	Reason string `json:"reason"`
	Column int    `json:"column,omitempty"`
	Text   string `json:"text"` // the start of the line, escaped
}

func writeJSON(w io.Writer, r *Report, opt Options) error {
	res := r.Result
	out := jsonReport{
		Version:    Version,
		Summary:    summaryOf(r),
		Robots:     nonNil(res.Robots),
		Violations: &res.Violations,
		Incidents:  nonNil(res.Incidents),
		Malformed:  malformedRows(r.Stats.Samples),
		Errors:     nonNil(r.Errors),
		Timeline:   res.Timeline,
		Networks:   res.Networks.Sub(0, opt.top(res.Networks.Len())),
		Operators:  nonNil(res.Operators),
		Watched:    res.Watched,
		Panels:     panelsOf(res),
		State:      stateOf(r),
	}
	out.clientList = &res.Clients
	if opt.wants("clients") {
		out.clientsN = opt.top(res.Clients.Len())
	}
	return streamJSON(w, &out)
}

// panelsOf is the result's panels, an empty list written as [].
func panelsOf(res *findings.Result) findings.Panels {
	p := res.Panels
	p.RobotPaths = nonNil(p.RobotPaths)
	return p
}

// summaryOf is the report's summary object, as -o json and the final
// summary event of -o jsonl write it.
func summaryOf(r *Report) jsonSummary {
	res := r.Result
	first, last := r.span()
	pages, unreachable := servedTotals(res.Robots)
	return jsonSummary{
		Lines:             r.Stats.Lines,
		Records:           r.Stats.Records,
		Malformed:         r.Stats.Malformed,
		Directives:        r.Stats.Directives,
		Clients:           res.DistinctClients,
		ClientsEstimated:  res.ClientsEstimated,
		Robots:            res.RobotCount,
		Violations:        res.ViolationCount,
		Incidents:         res.IncidentCount,
		First:             timeOrNil(first),
		Last:              timeOrNil(last),
		Format:            r.Stats.Format,
		RobotNames:        len(res.Robots),
		Files:             nonNil(r.Files),
		FileFormats:       nonNil(r.FileFormats),
		Reordered:         r.Reordered,
		RobotsTxt:         nonNil(r.Robots),
		RobotsTxtFailed:   nonNil(r.RobotsFailed),
		ViolationsChecked: res.ViolationsChecked,
		LateRecords:       res.LateRecords,
		FutureRecords:     res.FutureRecords,
		Other:             res.Other,
		Partial:           r.Partial,
		Window:            r.Window,
		Outside:           r.Outside,
		JunkConnections:   res.JunkConnections,
		JunkAddresses:     res.JunkAddresses,
		RobotRequests:     res.RobotRequests,
		RobotBytes:        res.RobotBytes,
		Ranges:            nonNil(res.Ranges),
		RangesNewer:       res.RangesNewer,
		RangesEarliest:    res.RangesEarliest,
		DNSChecked:        res.DNSChecked,
		AssetsElsewhere:   res.AssetsElsewhere,

		ViolationsListed:   res.Violations.Len(),
		ViolationsUnlisted: res.ViolationsUnlisted,
		ClientsListed:      res.Clients.Len(),
		UncheckedRecords:   res.Unchecked,
		IncidentsListed:    len(res.Incidents),
		IncidentsUnlisted:  res.IncidentsUnlisted,
		WatchDropped:       res.WatchDropped,
		BytesSaturated:     res.BytesSaturated,
		Shard:              r.Shard,

		RobotsTxtPages:      pages,
		UnreachableRequests: unreachable,
		JudgedApart:         r.JudgedApart,
		DayEdges:            r.DayEdges,
	}
}

// servedTotals sums, over the robots rows, the answers for robots.txt that
// were a page and the requests made while it was unreachable.
func servedTotals(robots []findings.RobotSummary) (pages, unreachable int64) {
	for i := range robots {
		pages += robots[i].RobotsTxtServed.Page
		unreachable += robots[i].UnreachableRequests
	}
	return pages, unreachable
}

// streamJSON writes the report as json.Encoder with a two-space indent
// would, byte for byte, but one list element at a time: a busy site's
// report has hundreds of thousands of clients, and encoding it whole would
// hold all of its text in memory at once.
func streamJSON(w io.Writer, out *jsonReport) error {
	j := &jsonStream{w: bufio.NewWriterSize(w, 64<<10)}
	j.raw("{\n")
	j.value("version", out.Version)
	j.value("summary", out.Summary)
	if out.clientList != nil {
		j.key("clients")
		closeList(j, writeElems(j, indexes(out.clientsN), "    ", verdictElem(out.clientList, out.clientsN)), "  ")
	} else {
		writeSeq(j, "clients", out.Clients)
	}
	writeSeq(j, "robots", slices.Values(out.Robots))
	writeSeq(j, "violations", out.Violations.All())
	writeSeq(j, "incidents", slices.Values(out.Incidents))
	writeSeq(j, "malformed", slices.Values(out.Malformed))
	writeSeq(j, "errors", slices.Values(out.Errors))
	j.value("timeline", out.Timeline)
	writeNetworks(j, out.Networks)
	writeSeq(j, "operators", slices.Values(out.Operators))
	if len(out.Watched) > 0 {
		writeSeq(j, "watched", slices.Values(out.Watched))
	}
	j.value("panels", out.Panels)
	if out.State != nil {
		j.state(out.State)
	}
	j.raw("\n}\n")
	if j.err != nil {
		return j.err
	}
	return j.w.Flush()
}

// jsonStream writes the members of one JSON object, keeping the first
// error.
type jsonStream struct {
	w       *bufio.Writer
	members int
	err     error
	enc     map[string]*json.Encoder // by indent prefix
	buf     []byte                   // a row written by hand (jsonrows.go)
	name    []byte                   // a network's name, for networkElem
	verdict findings.Verdict         // a client's, for verdictElem
	read    int                      // ClientList.ReadAhead's counts, read by no one
}

func (j *jsonStream) raw(s string) {
	if j.err == nil {
		_, j.err = j.w.WriteString(s)
	}
}

// key starts a member of the top-level object.
func (j *jsonStream) key(name string) {
	if j.members > 0 {
		j.raw(",\n")
	}
	j.members++
	j.raw("  \"" + name + "\": ")
}

// marshal writes v as json.MarshalIndent(v, prefix, "  ") would. An
// Encoder reuses its buffers, where MarshalIndent allocates two per value:
// hundreds of thousands of list elements would otherwise be as many
// megabytes of garbage for the collector.
func (j *jsonStream) marshal(v any, prefix string) {
	if j.err != nil {
		return
	}
	e := j.enc[prefix]
	if e == nil {
		if j.enc == nil {
			j.enc = make(map[string]*json.Encoder)
		}
		e = json.NewEncoder(chompWriter{j.w})
		e.SetIndent(prefix, "  ")
		j.enc[prefix] = e
	}
	j.err = e.Encode(v)
}

// chompWriter passes on what an Encoder writes, one whole value per Write,
// without the newline Encode ends each value with.
type chompWriter struct{ w *bufio.Writer }

func (c chompWriter) Write(b []byte) (int, error) {
	n := len(b)
	if n > 0 && b[n-1] == '\n' {
		_, err := c.w.Write(b[:n-1])
		return n, err
	}
	return c.w.Write(b)
}

// row writes the list elements jsonrows.go writes by hand; false: v is
// for encoding/json.
func (j *jsonStream) row(v any, prefix string) bool {
	if j.err != nil {
		return true
	}
	var ok bool
	switch v := v.(type) {
	case *findings.Verdict:
		j.buf, ok = appendVerdict(j.buf[:0], v, prefix)
	case *findings.NetworkSummary:
		j.buf, ok = appendNetwork(j.buf[:0], v, prefix)
	case *findings.Violation:
		j.buf, ok = appendViolation(j.buf[:0], v, prefix)
	case *findings.RobotSummary:
		j.buf, ok = appendRobot(j.buf[:0], v, prefix)
	case *findings.ClientEdge:
		j.buf, ok = appendEdge(j.buf[:0], v, prefix), true
	case *findings.RobotBuckets:
		j.buf, ok = appendRobotBuckets(j.buf[:0], v, prefix), true
	case *jsonPaths:
		j.buf, ok = appendPaths(j.buf[:0], v, prefix), true
	}
	if ok {
		_, j.err = j.w.Write(j.buf)
	}
	return ok
}

func (j *jsonStream) value(name string, v any) {
	j.key(name)
	j.marshal(v, "  ")
}

// state writes st as value would, byte for byte, but its long lists (a
// row for every robot name and every robot client: 6 MB on a botnet's log)
// a row at a time, and its paths (the whole path lists of the robots whose
// top paths are cut: 1 MB on the generated million-line log) an entry at a
// time: encoded whole, the text and the encoder's buffers, three times its
// size, came on top of everything the run still held at its end.
func (j *jsonStream) state(st *jsonState) {
	j.key("state")
	if j.err != nil {
		return
	}
	// The rest of the state, with null for the two lists and no paths, is
	// short; the nulls, and the member paths goes before, are found by
	// their indent, which no string in it can hold (a quote or newline in
	// a string is escaped).
	rest := *st
	rest.ByRobot, rest.Edges, rest.Paths = nil, nil, nil
	text, err := json.MarshalIndent(&rest, "  ", "  ")
	if err != nil {
		j.err = err
		return
	}
	next := "\n    \"operators\": " // paths' member goes before it (field order)
	if rest.RobotPaths != nil {
		next = "\n    \"robot_paths\": "
	}
	for _, l := range []struct {
		key  string
		list func()
		at   int // 0: the key's null is replaced; -1: the list goes before the key's comma
	}{
		{"\n    \"by_robot\": null", func() { writeList(j, st.ByRobot) }, 0},
		{"," + next, func() { writePaths(j, st.Paths) }, -1},
		{"\n    \"edges\": null", func() { writeList(j, st.Edges) }, 0},
	} {
		i := bytes.Index(text, []byte(l.key))
		if i < 0 {
			j.err = fmt.Errorf("writing the state: no %q", l.key)
			return
		}
		if l.at == 0 {
			i += len(l.key) - len("null")
		}
		j.raw(string(text[:i]))
		l.list()
		if l.at == 0 {
			i += len("null")
		}
		text = text[i:]
	}
	j.raw(string(text))
}

// writePaths writes the state's paths member, with its comma before it,
// as json.MarshalIndent with prefix "  " writes it there: nothing when
// there are none (omitempty), the entries in the order of their keys.
func writePaths(j *jsonStream, paths map[string]jsonPaths) {
	if len(paths) == 0 {
		return
	}
	j.raw(",\n    \"paths\": {\n")
	for i, name := range slices.Sorted(maps.Keys(paths)) {
		if i > 0 {
			j.raw(",\n")
		}
		key, err := json.Marshal(name)
		if err != nil {
			j.err = err
			return
		}
		j.raw("      " + string(key) + ": ")
		v := paths[name]
		if !j.row(&v, "      ") {
			j.marshal(&v, "      ")
		}
		if j.err != nil {
			return
		}
	}
	j.raw("\n    }")
}

// writeList writes list as a member of the state object: as
// json.MarshalIndent with prefix "  " writes it there.
func writeList[T any](j *jsonStream, list []T) {
	if list == nil {
		j.raw("null")
		return
	}
	closeList(j, writeElems(j, slices.Values(list), "      ", rowElem[T]), "    ")
}

// writeSeq writes a list member, one element at a time: on every core
// when there are more (jsonlists.go).
func writeSeq[T any](j *jsonStream, name string, items iter.Seq[T]) {
	j.key(name)
	closeList(j, writeElems(j, items, "    ", rowElem[T]), "  ")
}

// closeList ends a list of n elements that writeElems wrote, at indent:
// "[]" for none.
func closeList(j *jsonStream, n int, indent string) {
	if j.err != nil {
		return
	}
	if n == 0 {
		j.raw("[]")
		return
	}
	j.raw("\n" + indent + "]")
}

func malformedRows(samples []*logparse.ParseError) []jsonMalformed {
	rows := make([]jsonMalformed, 0, len(samples))
	for _, e := range samples {
		rows = append(rows, jsonMalformed{File: e.File, Line: e.Line, Reason: reason(e), Column: e.Column, Text: e.Text})
	}
	return rows
}

// reason is the cause of a malformed line without the file and line prefix
// that ParseError.Error adds.
func reason(e *logparse.ParseError) string {
	err := e.Err
	for {
		var pe *logparse.ParseError
		if !errors.As(err, &pe) || pe == nil {
			break
		}
		err = pe.Err
	}
	if err == nil {
		return "malformed"
	}
	return err.Error()
}

func timeOrNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// nonNil makes an empty list marshal as [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
