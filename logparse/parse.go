package logparse

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"time"
	"unsafe"
)

// Reasons a line is malformed, found in ParseError.Err (test with errors.Is).
var (
	ErrEmptyLine   = errors.New("empty line")
	ErrLineTooLong = errors.New("line too long")
	ErrQuote       = errors.New("missing closing quote")
	ErrMismatch    = errors.New("line does not match the format")
	ErrTime        = errors.New("invalid time")
	ErrStatus      = errors.New("invalid status")
	ErrBytes       = errors.New("invalid size")
)

// ParseError is a malformed line: the reader counts it and goes on. It is
// modelled on encoding/csv.ParseError.
type ParseError struct {
	File   string // source name, as given to NewReader
	Line   int64  // 1-based line number
	Column int    // 1-based byte offset where the problem was seen; 0 if none
	Err    error  // the reason, wrapping one of the Err* values above
	Text   string // the start of the line, cut to MaxTextBytes, with bytes outside printable ASCII written \xHH (see LineText)
}

// MaxTextBytes is how many bytes of a malformed line ParseError.Text keeps.
const MaxTextBytes = 160

// Error returns "file:line:column: reason: text", the text between
// quotes; it is the message's last part, so quotes in it end nothing.
func (e *ParseError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteByte(':')
	}
	b.WriteString(strconv.FormatInt(e.Line, 10))
	if e.Column > 0 {
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(e.Column))
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	if e.Text != "" {
		b.WriteString(": \"")
		b.WriteString(e.Text)
		b.WriteByte('"')
	}
	return b.String()
}

// Unwrap returns the reason, so errors.Is(err, ErrQuote) works.
func (e *ParseError) Unwrap() error { return e.Err }

func newParseError(line []byte, col int, err error) *ParseError {
	return &ParseError{Column: col, Err: err, Text: LineText(line, MaxTextBytes)}
}

// LineText returns the first max bytes of a log line as a person reads it
// in the file: every byte outside printable ASCII written as \xHH, which
// Apache and nginx write too, and the rest, quotes and backslashes
// included, as it is. A cut is marked with "...". Unlike EscapeText it
// is not made to sit between quotes: a malformed line is shown in a cell
// of its own, where EscapeText's form was escaped twice to the eye (a
// line's "GET read \"GET, and a User-agent Apache logged as \"x\" read
// \\\"x\\\").
func LineText(b []byte, max int) string {
	return escapeText(b, max, false)
}

// EscapeText returns the first max bytes of b with every byte outside
// printable ASCII written as \xHH, and '\\' and '"' as \\ and \", so that
// log text cannot drive a terminal and reads unambiguously between quotes.
// A cut is marked with "...".
func EscapeText(b []byte, max int) string {
	return escapeText(b, max, true)
}

func escapeText(b []byte, max int, quoted bool) string {
	cut := len(b) > max
	if cut {
		b = b[:max]
	}
	const hex = "0123456789abcdef"
	out := make([]byte, 0, len(b)+16)
	for _, c := range b {
		switch {
		case quoted && (c == '\\' || c == '"'):
			out = append(out, '\\', c)
		case c >= 0x20 && c < 0x7f:
			out = append(out, c)
		default:
			out = append(out, '\\', 'x', hex[c>>4], hex[c&15])
		}
	}
	if cut {
		out = append(out, "..."...)
	}
	return string(out)
}

// TrimEOL removes a trailing "\n" or "\r\n" (and any further trailing '\r').
func TrimEOL(line []byte) []byte {
	n := len(line)
	if n > 0 && line[n-1] == '\n' {
		n--
	}
	for n > 0 && line[n-1] == '\r' {
		n--
	}
	return line[:n]
}

// Parse parses one log line (with or without its line end) into rec,
// overwriting every field but File and Line. It is a pure function of f and
// line, safe to call from many goroutines. The strings it stores share one
// allocation, a copy of line; only fields with escapes get their own. A
// malformed line gives a *ParseError with Column and Text set (File and Line
// are the caller's to fill).
//
// Escapes are decoded: \" and \\ into the character, Apache's \n \r \t \b \v
// into the control byte, \xHH (Apache for control and non-ASCII bytes,
// nginx for those and '"') into the byte itself, as are nginx escape=json's
// \f and \u00XX. Record strings hold the bytes the client sent, which may
// be invalid UTF-8 or control characters: escaping them for display is the
// output's job.
func (f *Format) Parse(line []byte, rec *Record) error {
	rec.Headers = nil // the caller's: see reset
	return f.parse(line, rec, false)
}

// parse is Parse; with alias, the record's strings are views of line
// rather than of a copy (ParallelReader.ReuseRecord), so that a line costs
// no allocation and the caller must not change line while they are in use.
func (f *Format) parse(line []byte, rec *Record, alias bool) error {
	err := f.parseOwn(line, rec, alias)
	if err == nil {
		rec.Client = canonicalClient(rec.Client)
		return nil
	}
	for _, alt := range f.fallback {
		if alt.parseOwn(line, rec, alias) == nil {
			rec.Client = canonicalClient(rec.Client)
			return nil
		}
	}
	return err
}

// parseOwn parses line with f's own layout.
func (f *Format) parseOwn(line []byte, rec *Record, alias bool) error {
	switch {
	case f.json != nil:
		return f.json.parse(line, rec, alias)
	case f.w3c != nil:
		return f.w3c.parse(line, rec, alias)
	case f.tok != nil:
		return f.tok.parse(line, rec, alias)
	case f.syslog != nil:
		return f.parseSyslog(line, rec, alias)
	case f.container != nil:
		return f.parseContainer(line, rec, alias)
	case f.clf != clfNone && f.parseCLF(line, rec, alias, nil):
		return nil
	}
	return f.parseFields(line, rec, alias)
}

// parseFields parses line with a text layout: the prefix, then each field
// and the literal that follows it.
func (f *Format) parseFields(line []byte, rec *Record, alias bool) error {
	file, lineNo := rec.File, rec.Line
	rec.reset(file, lineNo)
	line = TrimEOL(line)
	if len(line) == 0 {
		return newParseError(line, 0, ErrEmptyLine)
	}
	if !bytes.HasPrefix(line, f.prefix) {
		return newParseError(line, 1, fmt.Errorf("%w: expected %+q at the start", ErrMismatch, f.prefix))
	}
	// One string for the whole line; fields are substrings of it.
	var s string
	if alias {
		s = unsafe.String(unsafe.SliceData(line), len(line))
	} else {
		s = string(line)
	}
	hasEsc := bytes.IndexByte(line, '\\') >= 0
	pos := len(f.prefix)
	var tp *timeParts // the parts of a strftime time: zeroing them is a cost every line would pay
	if f.strf {
		tp = new(timeParts)
	}
	fields := f.fields
	// Each field's extent is found inline, not by a call per field, and
	// the errors are made out of line (fieldError): this loop is every
	// line's cost, and with them inline it spilled most of its registers.
	for i := range fields {
		fd := &fields[i]
		start, end := pos, pos
		switch {
		case fd.quoted:
			if pos >= len(line) || line[pos] != '"' {
				return fd.fieldError(line, pos, failOpenQuote)
			}
			start = pos + 1
			end = closingQuote(line, start, fd.after, fd.last, hasEsc)
			if fd.num && end >= 0 && !numberAt(line, end+1+len(fd.after)) {
				end = fd.rawQuoteEnd(line, end, hasEsc)
			}
			if end < 0 {
				return fd.fieldError(line, pos, failQuote)
			}
			pos = end + 1
		case fd.strf != nil:
			n, ok := fd.strf.scan(line[pos:], tp)
			if !ok {
				return fd.fieldError(line, pos, failTime)
			}
			end = pos + n
			pos = end
		case fd.term == 0:
			for end < len(line) && line[end] != ' ' && line[end] != '\t' {
				end++
			}
			pos = end
		default:
			if end = indexByteFrom(line, pos, fd.term); end < 0 {
				return fd.fieldError(line, pos, failLineEnds)
			}
			if fd.list && fd.term == ' ' && end > pos && line[end-1] == ',' {
				end = listEnd(line, pos, end)
			}
			pos = end
		}
		if a := fd.after; len(a) > 0 {
			if pos >= len(line) || line[pos] != a[0] || len(a) > 1 && !hasAt(line, pos+1, a[1:]) {
				return fd.fieldError(line, pos, failAfter)
			}
			pos += len(a)
		}
		switch {
		case fd.kind == kindSkip:
		case textKind[fd.kind]:
			v := s[start:end]
			if hasEsc && strings.IndexByte(v, '\\') >= 0 {
				v = Unescape(v)
			}
			if len(v) == 1 && v[0] == '-' {
				v = ""
			}
			if err := fd.storeText(v, rec); err != nil {
				return newParseError(line, start+1, err)
			}
		case fd.strf != nil:
			if fd.quoted {
				if n, ok := fd.strf.scan(line[start:end], tp); !ok || n != end-start {
					return fd.fieldError(line, start, failTime)
				}
			}
		default:
			if err := fd.store(line[start:end], rec); err != nil {
				return newParseError(line, start+1, err)
			}
		}
	}
	// Servers append fields to standard formats (combined plus
	// "$http_x_forwarded_for", a response time, ...): text after the last
	// field is tolerated when a space or tab sets it apart.
	if pos < len(line) && line[pos] != ' ' && line[pos] != '\t' {
		return newParseError(line, pos+1, fmt.Errorf("%w: unexpected text after the last field", ErrMismatch))
	}
	return f.finish(line, pos, tp, rec, alias)
}

// indexByteFrom returns the index of the first c in line at or after i,
// or -1. Most bare values are a few bytes ("-", a status, a size, an IPv4
// address): eight bytes at a time, a word finds their end sooner than a
// call to IndexByte, which it makes past 32 bytes.
func indexByteFrom(line []byte, i int, c byte) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	pat := ones * uint64(c)
	for k := 0; k < 4 && i+8 <= len(line); k++ {
		x := binary.LittleEndian.Uint64(line[i:]) ^ pat // a zero byte where c is
		// Nonzero if some byte of x is zero; its lowest bit is at the
		// first such byte (a borrow only marks bytes above a zero).
		if m := (x - ones) &^ x & highs; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
		i += 8
	}
	j := bytes.IndexByte(line[i:], c)
	if j < 0 {
		return -1
	}
	return i + j
}

// hasAt reports whether line has lit at i: a field's literal, a byte or
// two, which a loop compares sooner than a call to memequal.
func hasAt(line []byte, i int, lit []byte) bool {
	if len(line)-i < len(lit) {
		return false
	}
	for k, c := range lit {
		if line[i+k] != c {
			return false
		}
	}
	return true
}

// fieldFailure is why a line's field did not read, for fieldError.
type fieldFailure uint8

const (
	failOpenQuote fieldFailure = iota // no '"' where a quoted field opens
	failQuote                         // no closing quote
	failTime                          // a strftime time that does not read
	failLineEnds                      // the line ends before the byte that ends a bare field
	failAfter                         // the literal after the field is not there
)

// fieldError is the ParseError of fd's failure at pos (0-based) in line.
func (fd *field) fieldError(line []byte, pos int, why fieldFailure) error {
	var err error
	switch why {
	case failOpenQuote:
		err = fmt.Errorf("%w: expected '\"' before %s", ErrMismatch, fd.name)
	case failQuote:
		err = fmt.Errorf("%w in %s", ErrQuote, fd.name)
	case failTime:
		err = fmt.Errorf("%w in %s", ErrTime, fd.name)
	case failLineEnds:
		err = fmt.Errorf("%w: line ends in %s", ErrMismatch, fd.name)
	default:
		err = fmt.Errorf("%w: expected %+q after %s", ErrMismatch, fd.after, fd.name)
	}
	return newParseError(line, pos+1, err)
}

// rawQuoteEnd returns the closing quote of a quoted value followed by a
// status or size when the first quote that may close it, end, is not: a
// raw quote inside the value (a request line logged as sent) is skipped
// for a later quote followed by the number. Without one, end stands.
func (fd *field) rawQuoteEnd(line []byte, end int, hasEsc bool) int {
	for e := end; e >= 0; {
		e = closingQuote(line, e+1, fd.after, fd.last, hasEsc)
		if e >= 0 && numberAt(line, e+1+len(fd.after)) {
			return e
		}
	}
	return end
}

// listEnd returns where an X-Forwarded-For list that starts at pos ends,
// its first hop ending with a ',' at end-1: proxies join hops with ", "
// ("198.51.100.7, 10.0.0.5"), which is no field separator.
func listEnd(line []byte, pos, end int) int {
	for end > pos && line[end-1] == ',' {
		k := bytes.IndexByte(line[end+1:], ' ')
		if k < 0 {
			break
		}
		end += 1 + k
	}
	return end
}

// finish completes rec once every field of line is read, pos past the
// last: the time from its parts, what the layout lacks, and a richer
// layout's reading when more fields follow.
func (f *Format) finish(line []byte, pos int, tp *timeParts, rec *Record, alias bool) error {
	if f.strf && !tp.apply(rec) {
		return newParseError(line, 0, fmt.Errorf("%w: no such date", ErrTime))
	}
	if f.strf && !rec.Time.IsZero() && !timeInRange(rec.Time) { // zero: a layout without a date
		return newParseError(line, 0, errYearRange(rec.Time))
	}
	rec.NoAgentField, rec.NoRefererField = f.noAgent, f.noReferer
	rec.TraefikNoAgent = !f.noAgent && rec.UserAgent == "" && traefikTail(line[pos:])
	if f.richer != nil && pos+1 < len(line) && line[pos+1] == '"' {
		// Fields after the last one were about to be dropped: a richer
		// layout that reads them (combined after common) takes the line.
		saved := *rec
		if f.richer.parse(line, rec, alias) == nil {
			return nil
		}
		*rec = saved
	}
	return nil
}

// traefikTail reports whether b, what follows a line's last field, is what
// Traefik writes after its Common Log Format: ` 12 "router@docker"
// "http://10.0.0.5:80" 3ms` (the server URL may be a bare -).
func traefikTail(b []byte) bool {
	field := func(quoted bool) bool { // one space-led field, consumed from b
		if len(b) < 2 || b[0] != ' ' {
			return false
		}
		b = b[1:]
		if quoted && b[0] == '"' {
			i := bytes.IndexByte(b[1:], '"')
			if i < 0 {
				return false
			}
			b = b[i+2:]
			return true
		}
		i := 0
		for i < len(b) && b[i] != ' ' {
			i++
		}
		word := b[:i]
		b = b[i:]
		return quoted && string(word) == "-" || !quoted && len(word) > 0
	}
	if !field(false) || !field(true) || !field(true) {
		return false
	}
	b = bytes.TrimRight(b, " ")
	d, ok := bytes.CutSuffix(b, []byte("ms"))
	if !ok || len(d) < 2 || d[0] != ' ' {
		return false
	}
	for _, c := range d[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// closingQuote finds the '"' that ends a quoted value starting at start: the
// first one not escaped by a backslash and followed by after (or, for the
// last field with nothing after it, by the end of the line or a space).
// Requiring what follows lets an unescaped quote inside a value (old
// servers wrote them raw) be skipped. It returns -1 if there is none.
func closingQuote(line []byte, start int, after []byte, last, hasEsc bool) int {
	i := start
	for {
		j := bytes.IndexByte(line[i:], '"')
		if j < 0 {
			return -1
		}
		q := i + j
		i = q + 1
		if hasEsc {
			n := 0
			for k := q - 1; k >= start && line[k] == '\\'; k-- {
				n++
			}
			if n%2 == 1 {
				continue
			}
		}
		switch {
		case len(after) > 0:
			if hasAt(line, q+1, after) {
				return q
			}
		case !last:
			return q
		case q+1 == len(line) || line[q+1] == ' ' || line[q+1] == '\t':
			return q
		}
	}
}

// numberAt reports whether line has a digit or '-' (a status or size, or
// its absence) at i.
func numberAt(line []byte, i int) bool {
	return i < len(line) && (line[i] >= '0' && line[i] <= '9' || line[i] == '-')
}

// Times a record may carry: the years 1000 to 9998. A log's times are
// clock readings of this era; a year outside them is a broken clock or a
// forged line, and every time derived from it (in another zone, or the
// start of a timeline bucket years wide) must still be a year 0 to 9999,
// the range RFC 3339 and JSON reports can write.
const (
	minYear = 1000
	maxYear = 9998
)

func timeInRange(t time.Time) bool {
	// As t.UTC().Year() in range, without the calendar: every line's time
	// comes here.
	sec := t.Unix()
	return minYearUnix <= sec && sec < afterMaxYearUnix
}

// The first second of minYear and the first after maxYear, in UTC.
var (
	minYearUnix      = time.Date(minYear, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	afterMaxYearUnix = time.Date(maxYear+1, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
)

func errYearRange(t time.Time) error {
	return fmt.Errorf("%w: year %d is outside %d-%d", ErrTime, t.UTC().Year(), minYear, maxYear)
}

// setTime stores t, a time fd read, if it is in range.
func (fd *field) setTime(rec *Record, t time.Time) error {
	if !timeInRange(t) {
		return fmt.Errorf("%w in %s", errYearRange(t), fd.name)
	}
	rec.Time = t
	return nil
}

// textKind tells the kinds whose value is text (storeText's) from those
// parsed from their bytes (store's).
var textKind = func() (t [256]bool) {
	for _, k := range []fieldKind{kindClient, kindIdent, kindUser, kindRequest, kindMethod, kindTarget,
		kindProtocol, kindReferer, kindUserAgent, kindVHost, kindForwarded, kindClientPort, kindClientList,
		kindSignature, kindSignatureInput, kindSignatureAgent, kindContentUsage} {
		t[k] = true
	}
	return t
}()

// store converts the value b, of a kind textKind says is no text, into
// the Record field fd fills.
func (fd *field) store(b []byte, rec *Record) error {
	switch fd.kind {
	case kindPort:
		// Checked, so that vhost_combined's "%v:%p %h" does not read a
		// line whose client is an X-Forwarded-For list opening with an
		// IPv6 address ("2001:db8::7, 10.0.0.5 - - [...") as the virtual
		// host "2001" on port "db8::7," with the proxy for its client.
		if _, ok := parseUint(b, 5); !ok {
			return fmt.Errorf("%w in %s: want a port number", ErrMismatch, fd.name)
		}
	case kindTimeCLF:
		t, ok := parseCLFTime(b)
		if !ok {
			t, ok = parseBracketTime(b)
		}
		if !ok {
			return fmt.Errorf("%w in %s: want dd/Mon/yyyy:hh:mm:ss +zzzz", ErrTime, fd.name)
		}
		return fd.setTime(rec, t)
	case kindTimeISO:
		t, ok := parseISOTime(b)
		if !ok {
			return fmt.Errorf("%w in %s: want yyyy-mm-ddThh:mm:ss+zz:zz", ErrTime, fd.name)
		}
		return fd.setTime(rec, t)
	case kindTimeEpoch:
		t, ok := parseEpochTime(b, fd.unit)
		if !ok {
			return fmt.Errorf("%w in %s: want seconds since 1970", ErrTime, fd.name)
		}
		return fd.setTime(rec, t)
	case kindStatus:
		n, ok := parseUint(b, 9)
		if !ok {
			return fmt.Errorf("%w in %s", ErrStatus, fd.name)
		}
		rec.Status = int(max(n, 0)) // "-": no status
	case kindBytes:
		if rec.Bytes >= 0 {
			return nil // the first size field in the format wins
		}
		n, ok := parseUint(b, 18)
		if !ok {
			return fmt.Errorf("%w in %s", ErrBytes, fd.name)
		}
		rec.Bytes = n
	}
	return nil
}

// storeText stores v, a text value unescaped and "" for "-", in the
// Record field fd fills.
func (fd *field) storeText(v string, rec *Record) error {
	switch fd.kind {
	case kindClient:
		if fd.list && strings.IndexByte(v, ',') >= 0 {
			// An X-Forwarded-For list where the address goes.
			client, ok := publicHop(v)
			if !ok {
				return fmt.Errorf("%w: no client address in \"%s\"", ErrMismatch, EscapeText([]byte(v), MaxTextBytes))
			}
			if rec.Forwarded() == "" {
				rec.setForwarded(v)
			}
			v = client
		}
		setFirst(&rec.Client, v)
	case kindIdent:
		rec.Ident = v
	case kindUser:
		rec.User = v
	case kindRequest:
		if rec.Request == "" { // the first of two %r wins, as for setFirst
			rec.Request = v
			splitRequest(v, rec)
		}
	case kindMethod:
		rec.Method = v
	case kindTarget:
		rec.Target = v
	case kindProtocol:
		rec.Protocol = v
	case kindReferer:
		rec.Referer = v
	case kindUserAgent:
		rec.UserAgent = v
	case kindVHost:
		setFirst(&rec.VHost, v)
	case kindForwarded:
		rec.setForwarded(v)
	case kindClientPort:
		setFirst(&rec.Client, hostOfHostPort(v))
	case kindClientList:
		rec.setForwarded(v)
		client, ok := publicHop(v)
		if !ok {
			// Empty, "unknown", or text a client wrote: no address to
			// credit (Proxies.Resolve trusts nothing such either).
			return fmt.Errorf("%w: no client address (this format names it only in X-Forwarded-For, whose last entry is \"%s\")", ErrMismatch, EscapeText([]byte(strings.TrimSpace(v[strings.LastIndexByte(v, ',')+1:])), MaxTextBytes))
		}
		setFirst(&rec.Client, client)
	default:
		rec.setHeader(fd.kind, v)
	}
	return nil
}

// setHeader stores v, a header logged for another package to read (Web
// Bot Auth's, Content-Usage) as logged, in rec's Headers field of kind k,
// so that every format stores them alike; other kinds are left alone.
func (rec *Record) setHeader(k fieldKind, v string) {
	if v == "" && rec.Headers == nil {
		return // as stored: no Headers is every header ""
	}
	switch k {
	case kindSignature:
		rec.headers().Signature = v
	case kindSignatureInput:
		rec.headers().SignatureInput = v
	case kindSignatureAgent:
		rec.headers().SignatureAgent = v
	case kindContentUsage:
		rec.headers().ContentUsage = v
	}
}

// setFirst keeps the first non-empty value when a format has two fields for
// one Record field (%h and %a, $host and $server_name).
func setFirst(dst *string, v string) {
	if *dst == "" {
		*dst = v
	}
}

// parseUint parses a decimal of at most maxDigits digits; "-" is -1.
func parseUint(b []byte, maxDigits int) (int64, bool) {
	if len(b) == 1 && b[0] == '-' {
		return -1, true
	}
	if len(b) == 0 || len(b) > maxDigits {
		return 0, false
	}
	var n int64
	for _, c := range b {
		c -= '0'
		if c > 9 {
			return 0, false
		}
		n = n*10 + int64(c)
	}
	return n, true
}

// splitRequest fills Method, Target and Protocol from a request line. A line
// that does not start with a method token (a TLS handshake sent to the HTTP
// port, other garbage, "-", "") leaves them empty: the record stays, with
// the raw Request, since the server did receive and log it.
func splitRequest(req string, rec *Record) {
	// By hand, not with IndexByte, TrimLeft and TrimRight: every line's
	// request comes here, and its parts are a few bytes each.
	sp := 0
	for sp < len(req) && tokenChar[req[sp]] {
		sp++
	}
	if sp == 0 || sp == len(req) || req[sp] != ' ' || req[:sp] == "-" {
		// "- - - " is how AWS's load balancers write a TCP connection or a
		// request they could not read: no method, no request.
		return
	}
	i := sp + 1
	for i < len(req) && req[i] == ' ' {
		i++
	}
	rest := req[i:]
	if rest == "" {
		return
	}
	target, proto := rest, ""
	j := len(rest) - 9 // the last space, most often before "HTTP/1.1"
	if j < 0 || rest[j] != ' ' || rest[j+1:j+6] != "HTTP/" || rest[j+6] == ' ' || rest[j+7] == ' ' || rest[j+8] == ' ' {
		for j = len(rest) - 1; j >= 0 && rest[j] != ' '; {
			j--
		}
	}
	if j >= 0 && len(rest)-j > 5 && rest[j+1:j+6] == "HTTP/" {
		k := j
		for k > 0 && rest[k-1] == ' ' {
			k--
		}
		target, proto = rest[:k], rest[j+1:]
	}
	rec.Method, rec.Target, rec.Protocol = req[:sp], target, proto
}

// isToken reports whether s is an RFC 9110 token (the syntax of a method).
func isToken(s string) bool {
	for i := 0; i < len(s); i++ {
		if !tokenChar[s[i]] {
			return false
		}
	}
	return true
}

var tokenChar = func() (t [256]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
		t[c-'a'+'A'] = true
	}
	for _, c := range "!#$%&'*+-.^_`|~" {
		t[c] = true
	}
	return t
}()

// Unescape decodes the escapes Apache and nginx write in log fields (see
// Format.Parse); an unknown or incomplete escape is kept as written.
func Unescape(v string) string {
	b := make([]byte, 0, len(v))
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c != '\\' || i+1 == len(v) {
			b = append(b, c)
			continue
		}
		switch n := v[i+1]; n {
		case '"', '\\':
			b = append(b, n)
			i++
		case 'n':
			b = append(b, '\n')
			i++
		case 'r':
			b = append(b, '\r')
			i++
		case 't':
			b = append(b, '\t')
			i++
		case 'b':
			b = append(b, '\b')
			i++
		case 'v':
			b = append(b, '\v')
			i++
		case 'f':
			b = append(b, '\f')
			i++
		case 'u':
			// nginx's escape=json writes a control byte as \u00XX (and
			// \f): a JSON-shaped log_format given with -f is read as a
			// text format, whose values come here. Neither server writes
			// "\u" otherwise (nginx a backslash as \x5C, Apache as \\).
			if r, ok := hex4(v, i+2); ok && r < 0x80 {
				b = append(b, byte(r))
				i += 5
				continue
			}
			b = append(b, c)
		case 'x', 'X':
			if h, ok := hexByte(v, i+2); ok {
				b = append(b, h)
				i += 3
				continue
			}
			b = append(b, c)
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// hexByte returns the byte the two hex digits at s[i] and s[i+1] write.
func hexByte(s string, i int) (byte, bool) {
	if i < 0 || i+1 >= len(s) {
		return 0, false
	}
	hi, ok1 := unhex(s[i])
	lo, ok2 := unhex(s[i+1])
	return hi<<4 | lo, ok1 && ok2
}

// unescapeHex decodes esc and two hex digits into the byte they write:
// '%' for percent-encoding, '#' for HAProxy's escapes. An esc not followed
// by two hex digits stays as written.
func unescapeHex(v string, esc byte) string {
	i := strings.IndexByte(v, esc)
	if i < 0 {
		return v
	}
	b := make([]byte, 0, len(v))
	b = append(b, v[:i]...)
	for ; i < len(v); i++ {
		if v[i] == esc {
			if c, ok := hexByte(v, i+1); ok {
				b = append(b, c)
				i += 2
				continue
			}
		}
		b = append(b, v[i])
	}
	return string(b)
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
