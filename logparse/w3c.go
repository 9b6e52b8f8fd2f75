package logparse

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"
	"unsafe"
)

// W3C extended logs (IIS, CloudFront and anything else with a "#Fields:"
// line) name their fields in a directive, and may name them again further
// down: IIS writes a new header after each restart, with the fields the
// admin has chosen since. So the layout is the Reader's state, not the
// Format's: the Format holds the layout to start with (the #Fields line
// detection saw, or IIS's default), and each #Fields line replaces it from
// there on. Directives are neither records nor malformed lines: Stats counts
// them apart.

// w3cField is what one W3C field fills.
type w3cField uint8

const (
	w3cSkip w3cField = iota
	w3cDate
	w3cTime
	w3cClient
	w3cMethod
	w3cStem
	w3cQuery
	w3cStatus
	w3cBytes
	w3cUserAgent
	w3cReferer
	w3cHost
	w3cHostHeader
	w3cVersion
	w3cForwarded
)

// w3cNames are the field names robowatch reads, lower case.
var w3cNames = map[string]w3cField{
	"date": w3cDate, "time": w3cTime, "c-ip": w3cClient, "cs-method": w3cMethod,
	"cs-uri-stem": w3cStem, "cs-uri-query": w3cQuery, "sc-status": w3cStatus, "sc-bytes": w3cBytes,
	"cs(user-agent)": w3cUserAgent, "cs(referer)": w3cReferer, "cs(referrer)": w3cReferer,
	"cs-host": w3cHost, "cs(host)": w3cHost, "x-host-header": w3cHostHeader, "cs-version": w3cVersion, "cs-protocol-version": w3cVersion,
	"x-forwarded-for": w3cForwarded, "cs(x-forwarded-for)": w3cForwarded,
}

// iisDefaultFields are the fields IIS logs unless told otherwise, for a log
// whose #Fields line was cut off.
const iisDefaultFields = "date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status time-taken"

// w3cLayout is one #Fields line, compiled.
type w3cLayout struct {
	fields []w3cField
	names  string // the #Fields value, for messages
	// percent: values are percent-encoded (CloudFront), and the
	// User-agent, which CloudFront encodes twice, is decoded twice.
	percent bool
	// minFields > 0: a default layout (no #Fields line seen) of a log that
	// only ever appends fields, so a line may stop after any of them from
	// the minFields-th on: CloudFront wrote 24 fields, later 26, now 33.
	minFields int
	// noReferer: no cs(Referer) field (IIS before 8.5 by default): its
	// records say NoRefererField.
	noReferer bool
}

func compileW3C(fields string, percent bool) *w3cLayout {
	l := &w3cLayout{names: strings.TrimSpace(fields), percent: percent, noReferer: true}
	for _, f := range strings.Fields(fields) {
		l.fields = append(l.fields, w3cNames[strings.ToLower(f)])
		if l.fields[len(l.fields)-1] == w3cReferer {
			l.noReferer = false
		}
	}
	return l
}

// W3CFormat reads W3C extended logs as IIS writes them; CloudFrontFormat as
// CloudFront does (tab-separated, percent-encoded). Both follow the log's
// own #Fields lines.
var (
	W3CFormat        = newW3CFormat("w3c", iisDefaultFields, false)
	CloudFrontFormat = newW3CFormat("cloudfront", cloudFrontFields, true)
)

// cloudFrontFields are the fields of CloudFront's standard logs, in order,
// for a log whose #Fields lines were cut off (a file split or concatenated):
// the 33 of today; older logs end after the 24th or the 26th.
const cloudFrontFields = "date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken x-forwarded-for ssl-protocol ssl-cipher x-edge-response-result-type cs-protocol-version fle-status fle-encrypted-fields c-port time-to-first-byte x-edge-detailed-result-type sc-content-type sc-content-len sc-range-start sc-range-end"

func init() {
	CloudFrontFormat.w3c.minFields = 24
}

func newW3CFormat(name, fields string, percent bool) *Format {
	return &Format{name: name, spec: name, w3c: compileW3C(fields, percent)}
}

// errDirective marks a "#" line handed to Format.Parse: a Reader reads
// directives itself and never passes one.
var errDirective = errors.New("a W3C directive, not a record")

// isDirective reports whether line is a W3C directive ("#Fields: …").
func isDirective(line []byte) bool { return len(line) > 0 && line[0] == '#' }

// directiveFields returns the value of a "#Fields:" directive.
func directiveFields(line []byte) (string, bool) {
	line = TrimEOL(line)
	const key = "#fields:"
	if len(line) < len(key) || !strings.EqualFold(string(line[:len(key)]), key) {
		return "", false
	}
	return string(line[len(key):]), true
}

// parse reads one W3C record into rec.
func (l *w3cLayout) parse(line []byte, rec *Record, alias bool) error {
	file, lineNo := rec.File, rec.Line
	rec.reset(file, lineNo)
	rec.NoRefererField = l.noReferer
	line = TrimEOL(line)
	if len(line) == 0 {
		return newParseError(line, 0, ErrEmptyLine)
	}
	if isDirective(line) {
		return newParseError(line, 1, fmt.Errorf("%w: %w", ErrMismatch, errDirective))
	}
	var s string
	if alias {
		s = unsafe.String(unsafe.SliceData(line), len(line))
	} else {
		s = string(line)
	}
	// CloudFront separates with tabs, IIS with spaces (and writes no space
	// inside a value: it turns them into '+').
	sep := byte(' ')
	if bytes.IndexByte(line, '\t') >= 0 {
		sep = '\t'
	}
	var (
		date, clock []byte
		query       string
		pos, n      int
	)
	for pos <= len(line) {
		end := bytes.IndexByte(line[pos:], sep)
		if end < 0 {
			end = len(line)
		} else {
			end += pos
		}
		if n >= len(l.fields) {
			return newParseError(line, pos+1, fmt.Errorf("%w: more fields than #Fields names (%d)", ErrMismatch, len(l.fields)))
		}
		raw := line[pos:end]
		v := s[pos:end]
		if v == "-" {
			v = ""
		}
		switch l.fields[n] {
		case w3cDate:
			date = raw
		case w3cTime:
			clock = raw
		case w3cClient:
			rec.Client = v
		case w3cMethod:
			rec.Method = v
		case w3cStem:
			rec.Target = l.decode(v, 1)
		case w3cQuery:
			query = v
		case w3cStatus:
			st, ok := parseUint(raw, 9)
			if !ok {
				return newParseError(line, pos+1, fmt.Errorf("%w in sc-status", ErrStatus))
			}
			rec.Status = int(max(st, 0))
		case w3cBytes:
			b, ok := parseUint(raw, 18)
			if !ok {
				return newParseError(line, pos+1, fmt.Errorf("%w in sc-bytes", ErrBytes))
			}
			rec.Bytes = b
		case w3cUserAgent:
			rec.UserAgent = l.text(v, 2)
		case w3cReferer:
			rec.Referer = l.text(v, 1)
		case w3cHost:
			if rec.VHost == "" {
				rec.VHost = v
			}
		case w3cHostHeader:
			// CloudFront's cs(Host) is the distribution's own name
			// (d111111abcdef8.cloudfront.net); x-host-header is the Host
			// the viewer sent, the site's alternate domain name, whose
			// robots.txt the robot asked for.
			if v != "" {
				rec.VHost = v
			}
		case w3cVersion:
			rec.Protocol = v
		case w3cForwarded:
			rec.setForwarded(l.text(v, 1)) // IIS: "198.51.100.9,+10.0.0.5"
		}
		n++
		pos = end + 1
	}
	if n != len(l.fields) && (l.minFields == 0 || n < l.minFields) {
		return newParseError(line, len(line), fmt.Errorf("%w: %d fields where #Fields names %d", ErrMismatch, n, len(l.fields)))
	}
	if rec.Client == "" {
		return newParseError(line, 1, fmt.Errorf("%w: no c-ip field", ErrMismatch))
	}
	if query != "" {
		rec.Target += "?" + l.decode(query, 1)
	}
	if rec.Method != "" && rec.Target != "" {
		rec.Request = rec.Method + " " + rec.Target
		if rec.Protocol != "" {
			rec.Request += " " + rec.Protocol
		}
	}
	if date != nil || clock != nil {
		t, ok := w3cDateTime(date, clock)
		if !ok {
			return newParseError(line, 1, fmt.Errorf("%w: want date yyyy-mm-dd and time hh:mm:ss (UTC)", ErrTime))
		}
		if !timeInRange(t) {
			return newParseError(line, 1, errYearRange(t))
		}
		rec.Time = t
	}
	return nil
}

// text is a free-text value (User-agent, Referer): IIS writes its spaces as
// '+'; CloudFront percent-encodes it, the User-agent twice (times).
func (l *w3cLayout) text(v string, times int) string {
	if l.percent {
		return l.decode(v, times)
	}
	if strings.IndexByte(v, '+') >= 0 {
		return iisSpaces(v)
	}
	return v
}

// iisSpaces turns IIS's '+' back into spaces. IIS writes a literal '+' as
// '+' too, so the two cannot be told apart; a '+' before "http" after
// another '+' or a '(' is taken for a literal one, as crawlers write their
// URL ("Googlebot/2.1; +http://…", logged ";++http://…"; "(+http://…"), so
// that their User-agent reads as other logs have it. MJ12bot's
// "; http://…" (";+http://…") keeps its space.
func iisSpaces(v string) string {
	b := []byte(v)
	for i, c := range b {
		if c == '+' && !(i > 0 && (v[i-1] == '+' || v[i-1] == '(') && strings.HasPrefix(v[i+1:], "http")) {
			b[i] = ' '
		}
	}
	return string(b)
}

// decode percent-decodes v up to times times, when the layout is
// percent-encoded; a second pass only where the first left %XX.
func (l *w3cLayout) decode(v string, times int) string {
	if !l.percent {
		return v
	}
	for range times {
		if strings.IndexByte(v, '%') < 0 {
			break
		}
		v = percentDecode(v)
	}
	return v
}

// percentDecode decodes %XX; a '%' not followed by two hex digits stays.
func percentDecode(v string) string { return unescapeHex(v, '%') }

// w3cDateTime reads W3C's date (yyyy-mm-dd) and time (hh:mm:ss, maybe with a
// fraction), which are in UTC.
func w3cDateTime(date, clock []byte) (t time.Time, ok bool) {
	if len(date) != 10 || date[4] != '-' || date[7] != '-' || len(clock) < 8 || clock[2] != ':' || clock[5] != ':' {
		return t, false
	}
	iso := make([]byte, 0, 32)
	iso = append(iso, date...)
	iso = append(iso, 'T')
	iso = append(iso, clock...)
	iso = append(iso, 'Z')
	return parseISOTime(iso)
}
