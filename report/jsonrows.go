package report

import (
	"math"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/robowatch/robowatch/findings"
)

// The clients, violations and networks lists are most of a busy site's JSON report
// (hundreds of thousands of rows), and encoding/json spends most of its
// time there on reflection and on re-indenting what it wrote. Their rows
// are appended here by hand, byte for byte as json.Encoder with a two-space
// indent writes them (TestRowsAsEncodingJSON holds them to that); a row
// with something the hand-written path does not do exactly (a time past
// year 9999) goes to encoding/json.

// rowWriter appends one list element at the indent of a top-level list.
type rowWriter struct {
	b       []byte
	indent  string // of the row's members
	members int
	times   timeMemo // the last time the row wrote (a clients row's)
}

// timeMemo is the last time a row wrote and where its text is in the
// row's buffer. A clients row has five times (first, last, the peaks'),
// which for a client of one request are one time (248,381 of the churn
// log's 250,000 rows): its text is copied, not formatted again (RFC 3339
// formatting was a quarter of appendVerdict's CPU there).
type timeMemo struct {
	t      time.Time
	lo, hi int // hi == 0: none yet
}

// open starts the member key. Keys are the report's own field names,
// lower-case ASCII with underscores, which JSON writes as they are: escaping
// them was a tenth of writing a row.
func (w *rowWriter) open(key string) {
	// In a local, not through w at every append, and with fewer appends:
	// a fifth fewer instructions for a clients row (BenchmarkAppendVerdict).
	b := w.b
	if w.members > 0 {
		b = append(b, ',', '\n')
	} else {
		b = append(b, '\n')
	}
	w.members++
	b = append(b, w.indent...)
	b = append(b, '"')
	b = append(b, key...)
	w.b = append(b, '"', ':', ' ')
}

func (w *rowWriter) str(key, v string) {
	w.open(key)
	w.b = appendJSONString(w.b, v)
}

func (w *rowWriter) int(key string, v int64) {
	w.open(key)
	w.b = strconv.AppendInt(w.b, v, 10)
}

func (w *rowWriter) bool(key string, v bool) {
	w.open(key)
	w.b = strconv.AppendBool(w.b, v)
}

func (w *rowWriter) time(key string, t time.Time) {
	w.open(key)
	m := &w.times
	// The same value, location and all, is written the same: an
	// equal instant in another zone is not.
	if m.hi > 0 && t == m.t {
		w.b = append(w.b, w.b[m.lo:m.hi]...)
		return
	}
	lo := len(w.b)
	w.b = appendJSONTime(w.b, t)
	m.t, m.lo, m.hi = t, lo, len(w.b)
}

// strings writes v as appendList would, written out: a clients row has
// two such lists, and through appendList's call of elem a row took 314 ns
// against 288 (BenchmarkAppendVerdict, 5 runs each).
func (w *rowWriter) strings(key string, v []string) {
	w.open(key)
	switch {
	case v == nil:
		w.b = append(w.b, "null"...)
		return
	case len(v) == 0:
		w.b = append(w.b, "[]"...)
		return
	}
	w.b = append(w.b, '[')
	for i, s := range v {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = append(w.b, '\n')
		w.b = append(w.b, w.indent...)
		w.b = append(w.b, "  "...)
		w.b = appendJSONString(w.b, s)
	}
	w.b = append(w.b, '\n')
	w.b = append(w.b, w.indent...)
	w.b = append(w.b, ']')
}

// appendList appends a list of n elements as encoding/json writes one at
// indent: null for a nil list, [] for none, else each element on a line
// of its own, one level deeper (row), which elem appends.
func appendList(b []byte, indent string, null bool, n int, elem func(b []byte, i int, row string) []byte) []byte {
	switch {
	case null:
		return append(b, "null"...)
	case n == 0:
		return append(b, "[]"...)
	}
	row := deeper(indent)
	b = append(b, '[')
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '\n')
		b = append(b, row...)
		b = elem(b, i, row)
	}
	b = append(b, '\n')
	b = append(b, indent...)
	return append(b, ']')
}

// object starts member key, an object: its members go to the writer it
// returns, which end closes and takes back.
func (w *rowWriter) object(key string) rowWriter {
	w.open(key)
	return rowWriter{b: append(w.b, '{'), indent: deeper(w.indent)}
}

// end closes o, an object that object started, and takes its bytes back.
func (w *rowWriter) end(o *rowWriter) {
	o.close(w.indent)
	w.b = o.b
}

// spaces holds the indents of the rows' members.
const spaces = "                                "

// deeper is indent and one more level (two spaces). An indent is spaces:
// it is cut from a constant, as concatenating it was two allocations for
// every clients row (4 MB on the churn log's report).
func deeper(indent string) string {
	if n := len(indent) + 2; n <= len(spaces) && indent == spaces[:len(indent)] {
		return spaces[:n]
	}
	return indent + "  "
}

// exactTime reports whether t is written as encoding/json writes it
// (time.Time.MarshalJSON refuses years outside 0-9999).
func exactTime(t time.Time) bool {
	y := t.Year()
	return 0 <= y && y <= 9999
}

// exactFloat reports whether f is written with 'f' formatting, as
// encoding/json writes every float from 1e-6 up to 1e21.
func exactFloat(f float64) bool {
	a := math.Abs(f)
	return a == 0 || 1e-6 <= a && a < 1e21
}

// appendVerdict appends v as the members of a clients row at prefix
// (the row's own indent), or reports false when encoding/json must.
func appendVerdict(b []byte, v *findings.Verdict, prefix string) ([]byte, bool) {
	p := &v.Peak
	if !exactTime(v.First) || !exactTime(v.Last) || !exactTime(p.At1s) || !exactTime(p.At10s) ||
		!exactTime(p.At60s) || !exactFloat(v.CrawlDelay) ||
		// Few clients have these: encoding/json writes them.
		v.PreferenceConflicts != 0 || v.PreferenceRule != "" || v.Discovery != nil {
		return b, false
	}
	w := rowWriter{b: append(b, '{'), indent: deeper(prefix)}
	w.str("ip", v.IP)
	w.str("user_agent", v.UserAgent)
	w.bool("robot", v.Robot)
	w.str("name", v.Name)
	w.str("kind", v.Kind)
	w.int("score", int64(v.Score))
	w.strings("reasons", v.Reasons)
	w.strings("details", v.Details)
	w.int("requests", v.Requests)
	w.int("bytes", v.Bytes)
	w.int("pages", v.Pages)
	w.int("assets", v.Assets)
	w.int("errors", v.Errors)
	w.int("robots_txt_fetches", v.RobotsTxtFetches)
	w.int("violations", v.Violations)
	if v.Cached != 0 {
		w.int("cached", v.Cached)
	}
	w.int("incidents", int64(v.Incidents))
	w.time("first", v.First)
	w.time("last", v.Last)
	w.open("peak")
	pw := rowWriter{b: append(w.b, '{'), indent: deeper(w.indent), times: w.times} // w's buffer, grown
	pw.int("per_1s", int64(p.Per1s))
	pw.int("per_10s", int64(p.Per10s))
	pw.int("per_60s", int64(p.Per60s))
	if !p.At1s.IsZero() {
		pw.time("at_1s", p.At1s)
	}
	if !p.At10s.IsZero() {
		pw.time("at_10s", p.At10s)
	}
	if !p.At60s.IsZero() {
		pw.time("at_60s", p.At60s)
	}
	pw.b = append(pw.b, '\n')
	pw.b = append(pw.b, w.indent...)
	w.b = append(pw.b, '}')
	if v.CrawlDelay != 0 {
		w.open("crawl_delay")
		w.b = strconv.AppendFloat(w.b, v.CrawlDelay, 'f', -1, 64)
	}
	if v.CrawlDelayFast {
		w.bool("crawl_delay_exceeded", true)
	}
	for _, m := range [...]struct{ key, val string }{
		{"operator", v.Operator}, {"identity", v.Identity}, {"verified_by", v.VerifiedBy},
		{"purpose", v.Purpose}, {"network", v.Network}, {"identity_note", v.IdentityNote},
	} {
		if m.val != "" {
			w.str(m.key, m.val)
		}
	}
	w.b = append(w.b, '\n')
	w.b = append(w.b, prefix...)
	return append(w.b, '}'), true
}

// appendViolation appends v as a violations row at prefix.
func appendViolation(b []byte, v *findings.Violation, prefix string) ([]byte, bool) {
	if !exactTime(v.Time) || v.RobotsTxtFetched != nil && !exactTime(*v.RobotsTxtFetched) ||
		v.LastFetch != nil && !exactTime(*v.LastFetch) {
		return b, false
	}
	w := rowWriter{b: append(b, '{'), indent: deeper(prefix)}
	w.str("ip", v.IP)
	w.str("user_agent", v.UserAgent)
	w.str("name", v.Name)
	w.time("time", v.Time)
	w.str("method", v.Method)
	w.str("path", v.Path)
	w.int("status", int64(v.Status))
	w.str("group", v.Group)
	w.str("rule", v.Rule)
	w.int("line", int64(v.Line))
	w.str("robots_txt_from", v.RobotsTxtFrom)
	if v.RobotsTxtCopy != "" {
		w.str("robots_txt_copy", v.RobotsTxtCopy)
	}
	if v.RobotsTxtFetched != nil {
		w.time("robots_txt_fetched", *v.RobotsTxtFetched)
	}
	if v.LastFetch != nil {
		w.time("last_robots_txt_fetch", *v.LastFetch)
	}
	if v.LastFetchStatus != 0 {
		w.int("last_robots_txt_status", int64(v.LastFetchStatus))
	}
	w.b = append(w.b, '\n')
	w.b = append(w.b, prefix...)
	return append(w.b, '}'), true
}

// appendNetwork appends n as a networks row at prefix.
func appendNetwork(b []byte, n *findings.NetworkSummary, prefix string) ([]byte, bool) {
	w := rowWriter{b: append(b, '{'), indent: deeper(prefix)}
	w.str("network", n.Network)
	return w.network(n, prefix), true
}

// appendNetworkNamed is appendNetwork for the summary of a pass's network
// without its name (findings.NetworkList.Row), whose name is the text of
// a prefix, which JSON writes as it is.
func appendNetworkNamed(b []byte, n *findings.NetworkSummary, name []byte, prefix string) []byte {
	w := rowWriter{b: append(b, '{'), indent: deeper(prefix)}
	w.open("network")
	w.b = append(w.b, '"')
	w.b = append(w.b, name...)
	w.b = append(w.b, '"')
	return w.network(n, prefix)
}

// network appends the members of a networks row after its name.
func (w *rowWriter) network(n *findings.NetworkSummary, prefix string) []byte {
	if n.Operator != "" {
		w.str("operator", n.Operator)
	}
	w.int("clients", int64(n.Clients))
	w.int("robots", int64(n.Robots))
	w.int("requests", n.Requests)
	w.int("user_agents", int64(n.UserAgents))
	w.int("violations", n.Violations)
	w.int("incidents", int64(n.Incidents))
	w.b = append(w.b, '\n')
	w.b = append(w.b, prefix...)
	return append(w.b, '}')
}

// appendJSONTime appends t as time.Time.MarshalJSON does, for years 0-9999.
func appendJSONTime(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"

// jsonPlain marks the bytes appendJSONString copies as they are.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// appendJSONString appends s quoted as encoding/json quotes a string with
// HTML escaping on (json.Encoder's default): <, > and & as \u003c …,
// invalid UTF-8 as \ufffd, U+2028 and U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	// Nearly every byte of a report's strings is plain ASCII: one table
	// lookup a byte, not six comparisons.
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		// Eight plain bytes a step: a byte a step was 13 instructions a
		// byte, a quarter of the churn log's hand-written rows (cachegrind).
		if i+8 <= len(s) {
			if q := s[i : i+8]; jsonPlain[q[0]] && jsonPlain[q[1]] && jsonPlain[q[2]] && jsonPlain[q[3]] &&
				jsonPlain[q[4]] && jsonPlain[q[5]] && jsonPlain[q[6]] && jsonPlain[q[7]] {
				i += 8
				continue
			}
		}
		c := s[i]
		if jsonPlain[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
