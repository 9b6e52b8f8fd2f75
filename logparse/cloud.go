package logparse

import (
	"bytes"
	"fmt"
	"net/netip"
	"strings"
	"time"
	"unsafe"
)

// Load balancers, object stores and proxies write fixed layouts of
// space-separated fields, some quoted ("GET / HTTP/1.1") or bracketed
// ([06/Feb/2019:00:00:38 +0000]), with an address and its port in one
// field. Each is a tokenLayout: the line is cut into tokens once, and the
// layout picks its fields by position. Their documentation:
//
//   - alb: AWS Application Load Balancer access logs ("Access log entries",
//     Elastic Load Balancing user guide): type, time, elb, client:port, …
//   - elb: Classic Load Balancer access logs: time, elb, client:port, …
//   - s3: Amazon S3 server access log format: owner, bucket, [time],
//     remote IP, …, "request", status, …, "referer", "user agent", …
//   - haproxy: HAProxy's "option httplog" format, with or without the
//     syslog prefix ("Feb  6 12:14:14 host haproxy[14389]: "), captured
//     request headers in {…} giving the User-agent and Host where the
//     configuration captures them
//   - squid: Squid's native access.log: time (seconds since 1970),
//     elapsed, client, code/status, bytes, method, URL, …; no User-agent

// maxTokens bounds the tokens a line is cut into: the longest layout (ALB)
// has 30; more are not looked at.
const maxTokens = 40

// tokens is a line cut into fields: start and end of each, quotes and
// brackets excluded.
type tokens struct {
	n    int
	span [maxTokens][2]int
}

// cut splits line at runs of spaces; a token that starts with '"' runs to
// the next unescaped '"', one that starts with '[' to the next ']' (or,
// for "[v6]:port", to the next space, brackets kept), one that starts with
// '{' to the next '}'. With open, a quoted token with no closing quote
// runs to the end of the line.
func (t *tokens) cut(line []byte, open bool) bool {
	t.n = 0
	i := 0
	for i < len(line) && t.n < maxTokens {
		for i < len(line) && line[i] == ' ' {
			i++
		}
		if i >= len(line) {
			break
		}
		start, end := i, 0
		switch line[i] {
		case '"':
			start++
			j := start
			for {
				k := bytes.IndexByte(line[j:], '"')
				if k < 0 && open {
					end = len(line)
					break
				}
				if k < 0 {
					return false
				}
				if k > 0 && line[j+k-1] == '\\' {
					j += k + 1
					continue
				}
				end = j + k
				break
			}
			i = end + 1
		case '[', '{':
			closing := byte(']')
			if line[i] == '{' {
				closing = '}'
			}
			start++
			k := bytes.IndexByte(line[start:], closing)
			if k < 0 {
				return false
			}
			end = start + k
			i = end + 1
			if closing == ']' && i < len(line) && line[i] != ' ' && bytes.IndexByte(line[start:end], ' ') < 0 {
				// "[2001:db8::7]:443": an IPv6 client and its port, as
				// ALB, ELB and HAProxy may write one, is one token,
				// brackets and all; cut at ']' it would be two, and
				// every field after it one place off.
				start--
				k := bytes.IndexByte(line[i:], ' ')
				if k < 0 {
					k = len(line) - i
				}
				end = i + k
				i = end
			}
		default:
			k := bytes.IndexByte(line[i:], ' ')
			if k < 0 {
				k = len(line) - i
			}
			end = i + k
			i = end
		}
		t.span[t.n] = [2]int{start, end}
		t.n++
	}
	return true
}

// tokenLayout reads one fixed layout from tokens.
type tokenLayout struct {
	min  int // tokens a line must have
	read func(t *tokens, line []byte, s string, rec *Record) error
	// openLast: the layout's last field is quoted and a line cut short in
	// it is read. HAProxy cuts every log line at its "log … len" (1024
	// bytes by default) and its request comes last: a long URL (a
	// scanner's probe) would otherwise lose the whole request.
	openLast bool
}

func (l *tokenLayout) parse(line []byte, rec *Record, alias bool) error {
	file, lineNo := rec.File, rec.Line
	rec.reset(file, lineNo)
	line = TrimEOL(line)
	if len(line) == 0 {
		return newParseError(line, 0, ErrEmptyLine)
	}
	var t tokens
	if !t.cut(line, l.openLast) {
		return newParseError(line, 1, fmt.Errorf("%w in a quoted or bracketed field", ErrQuote))
	}
	if t.n < l.min {
		return newParseError(line, len(line), fmt.Errorf("%w: %d fields, want at least %d", ErrMismatch, t.n, l.min))
	}
	var s string
	if alias {
		s = unsafe.String(unsafe.SliceData(line), len(line))
	} else {
		s = string(line)
	}
	if err := l.read(&t, line, s, rec); err != nil {
		return newParseError(line, 1, err)
	}
	if rec.Client == "" {
		return newParseError(line, 1, fmt.Errorf("%w: no client address", ErrMismatch))
	}
	return nil
}

// tokenAt returns token i as a string ("" for "-") and its bytes.
func tokenAt(t *tokens, line []byte, s string, i int) (string, []byte) {
	sp := t.span[i]
	v := s[sp[0]:sp[1]]
	if v == "-" {
		return "", line[sp[0]:sp[1]]
	}
	return v, line[sp[0]:sp[1]]
}

// The token layouts, and their Formats.
var (
	ALBFormat     = &Format{name: "alb", spec: "alb", tok: &tokenLayout{min: 14, read: readALB}}
	ELBFormat     = &Format{name: "elb", spec: "elb", tok: &tokenLayout{min: 12, read: readELB}}
	S3Format      = &Format{name: "s3", spec: "s3", tok: &tokenLayout{min: 17, read: readS3}}
	HAProxyFormat = &Format{name: "haproxy", spec: "haproxy", tok: &tokenLayout{min: 12, read: readHAProxy, openLast: true}}
	SquidFormat   = &Format{name: "squid", spec: "squid", tok: &tokenLayout{min: 7, read: readSquid}}
)

// tokenFormats are tried by detection when no text format fits; CloudFront
// and IIS last, with their documented fields, for a log whose #Fields
// lines were cut off.
var tokenFormats = []*Format{ALBFormat, ELBFormat, S3Format, HAProxyFormat, SquidFormat, CloudFrontFormat, W3CFormat}

// readBalancer reads the fields ALB and Classic ELB share, from token at
// (the client:port) on: status at+5, sizes at+7, request at+8, User-agent at+9.
func readBalancer(t *tokens, line []byte, s string, rec *Record, timeAt, at int) error {
	_, tb := tokenAt(t, line, s, timeAt)
	tm, ok := parseISOTime(tb)
	if !ok {
		return fmt.Errorf("%w: want yyyy-mm-ddThh:mm:ss.ffffffZ", ErrTime)
	}
	rec.Time = tm
	client, _ := tokenAt(t, line, s, at)
	rec.Client = addressOfClientPort(client)
	if _, err := netip.ParseAddr(rec.Client); err != nil {
		// The balancers always write the client as address:port; without
		// this check other ISO-timed logs (Envoy's default) fit the token
		// layout, with a status code for the client.
		return fmt.Errorf("%w: want the client as address:port, not %q", ErrMismatch, client)
	}
	_, st := tokenAt(t, line, s, at+5)
	n, ok := parseUint(st, 9)
	if !ok {
		return ErrStatus
	}
	rec.Status = int(max(n, 0))
	_, sent := tokenAt(t, line, s, at+8)
	if b, ok := parseUint(sent, 18); ok {
		rec.Bytes = b
	}
	req, _ := tokenAt(t, line, s, at+9)
	rec.Request = req
	splitRequest(req, rec)
	rec.VHost = hostOfURL(rec.Target)
	if t.n <= at+10 {
		// A Classic Load Balancer log from before AWS added user_agent,
		// ssl_cipher and ssl_protocol (2015) ends at the request: its
		// layout has no User-agent, which is then no empty one.
		rec.NoAgentField = true
		return nil
	}
	ua, _ := tokenAt(t, line, s, at+10)
	rec.UserAgent = ua
	rec.NoRefererField = true // the balancers log the User-agent, never the Referer
	return nil
}

func readALB(t *tokens, line []byte, s string, rec *Record) error {
	typ, _ := tokenAt(t, line, s, 0)
	switch typ {
	case "http", "https", "h2", "grpcs", "ws", "wss":
	default:
		return fmt.Errorf("%w: %q is not an ALB request type", ErrMismatch, typ)
	}
	return readBalancer(t, line, s, rec, 1, 3)
}

func readELB(t *tokens, line []byte, s string, rec *Record) error {
	return readBalancer(t, line, s, rec, 0, 2)
}

func readS3(t *tokens, line []byte, s string, rec *Record) error {
	_, tb := tokenAt(t, line, s, 2)
	tm, ok := parseCLFTime(tb)
	if !ok {
		return fmt.Errorf("%w: want [dd/Mon/yyyy:hh:mm:ss +zzzz]", ErrTime)
	}
	rec.Time = tm
	rec.Client, _ = tokenAt(t, line, s, 3)
	rec.VHost, _ = tokenAt(t, line, s, 1)
	req, _ := tokenAt(t, line, s, 8)
	rec.Request = req
	splitRequest(req, rec)
	_, st := tokenAt(t, line, s, 9)
	n, ok := parseUint(st, 9)
	if !ok {
		return ErrStatus
	}
	rec.Status = int(max(n, 0))
	_, sent := tokenAt(t, line, s, 11)
	if b, ok := parseUint(sent, 18); ok {
		rec.Bytes = b
	}
	rec.Referer, _ = tokenAt(t, line, s, 15)
	rec.UserAgent, _ = tokenAt(t, line, s, 16)
	return nil
}

// readHAProxy reads httplog lines. The client:port is the token before the
// first bracketed one, the accept date, whatever header comes first: a
// syslog daemon's ("Feb  6 12:14:14 host haproxy[14389]: ", RFC 3339 or
// RFC 5424) or the one HAProxy's own "log … format" writes to stdout or a
// local server: rfc3164, local ("<134>Feb  6 12:14:14 haproxy[14389]: "),
// rfc5424, timed ("<6>2024-05-06T07:00:01.655123+00:00 "), iso (the date
// alone), raw (nothing), and short and priority ("<6>", "<134>"), which
// write the priority with no space before the client.
func readHAProxy(t *tokens, line []byte, s string, rec *Record) error {
	first := -1
	for i := 1; i < t.n && i < 10; i++ {
		if sp := t.span[i]; sp[0] > 0 && line[sp[0]-1] == '[' {
			first = i - 1
			break
		}
	}
	if first < 0 || t.n < first+12 {
		return fmt.Errorf("%w: too few fields for httplog", ErrMismatch)
	}
	client, _ := tokenAt(t, line, s, first)
	if first == 0 {
		client = withoutPriority(client)
	}
	if strings.IndexByte(client, ':') < 0 {
		return fmt.Errorf("%w: want client:port", ErrMismatch)
	}
	rec.Client = addressOfClientPort(client)
	_, tb := tokenAt(t, line, s, first+1)
	tm, ok := parseHAProxyTime(tb)
	if !ok {
		return fmt.Errorf("%w: want [dd/Mon/yyyy:hh:mm:ss.mmm]", ErrTime)
	}
	rec.Time = tm
	_, st := tokenAt(t, line, s, first+5)
	n, ok := parseUint(st, 9)
	switch {
	case string(st) == "-1":
		// HAProxy 2.5 and later: the client aborted before an answer
		// (termination state CC, CD …). A request all the same, with no
		// status, as a log without one has.
		n = 0
	case !ok:
		return ErrStatus
	}
	rec.Status = int(max(n, 0))
	_, size := tokenAt(t, line, s, first+6)
	if b, ok := parseUint(bytes.TrimPrefix(size, []byte("+")), 18); ok {
		rec.Bytes = b
	}
	// After the counters: captured headers in {…}, then the request.
	for i := first + 11; i < t.n; i++ {
		sp := t.span[i]
		if sp[0] > 0 && line[sp[0]-1] == '"' {
			rec.Request = haproxyUnescape(s[sp[0]:sp[1]])
			splitRequest(rec.Request, rec)
			break
		}
		if sp[0] > 0 && line[sp[0]-1] == '{' && rec.UserAgent == "" {
			capturedHeaders(s[sp[0]:sp[1]], rec)
		}
	}
	if rec.Request == "" {
		return fmt.Errorf("%w: no quoted request", ErrMismatch)
	}
	return nil
}

// withoutPriority is v without a syslog priority ("<134>") it starts with.
func withoutPriority(v string) string {
	if len(v) < 3 || v[0] != '<' {
		return v
	}
	for i := 1; i < len(v) && i <= 4; i++ {
		switch c := v[i]; {
		case c == '>' && i > 1:
			return v[i+1:]
		case c < '0' || c > '9':
			return v
		}
	}
	return v
}

// capturedHeaders takes the User-agent and Host from HAProxy's captured
// request headers ("{www.example.com|Mozilla/5.0 …}"), whose order the
// configuration decides: a value with a product/version is the User-agent,
// a dotted name without spaces the Host.
func capturedHeaders(v string, rec *Record) {
	for h := range strings.SplitSeq(v, "|") {
		h = haproxyUnescape(h) // after the split: a '|' in a value is #7C
		switch {
		case h == "":
		case strings.Contains(h, "/") && rec.UserAgent == "":
			rec.UserAgent = h
		case strings.Contains(h, ".") && !strings.ContainsAny(h, " /") && rec.VHost == "":
			rec.VHost = h
		}
	}
}

// haproxyUnescape decodes the escapes HAProxy writes in the request line
// and captured headers: '#' and two hex digits for a '"', '#', a control or
// non-ASCII byte (and '{', '|', '}' in a header), "#22" for '"'. A literal
// '#' is always written "#23", so one not followed by two hex digits is
// kept as written.
func haproxyUnescape(v string) string { return unescapeHex(v, '#') }

// parseHAProxyTime reads "06/Feb/2009:12:14:14.655": CLF's date without a
// zone (HAProxy logs its local time; it is read as UTC).
func parseHAProxyTime(b []byte) (time.Time, bool) {
	if len(b) < 20 {
		return time.Time{}, false
	}
	var buf [40]byte
	n := copy(buf[:], b[:20])
	n += copy(buf[n:], " +0000")
	t, ok := parseCLFTime(buf[:n])
	if ok && len(b) > 21 && b[20] == '.' {
		ms, ok2 := parseUint(b[21:], 3)
		if ok2 && ms >= 0 {
			t = t.Add(time.Duration(ms) * time.Millisecond)
		}
	}
	return t, ok
}

// readSquid reads Squid's native format, whose fields are set apart by runs
// of spaces (the elapsed time is padded).
func readSquid(t *tokens, line []byte, s string, rec *Record) error {
	_, tb := tokenAt(t, line, s, 0)
	tm, ok := parseEpochTime(tb, unitSec)
	if !ok || bytes.IndexByte(tb, '.') < 0 {
		return fmt.Errorf("%w: want seconds since 1970 with milliseconds", ErrTime)
	}
	rec.Time = tm
	rec.Client, _ = tokenAt(t, line, s, 2)
	rec.NoAgentField = true // the native format logs neither User-agent nor Referer
	code, _ := tokenAt(t, line, s, 3)
	i := strings.IndexByte(code, '/')
	if i < 0 {
		return fmt.Errorf("%w: want result code/status, e.g. TCP_MISS/200", ErrMismatch)
	}
	n, ok := parseUint([]byte(code[i+1:]), 3)
	if !ok {
		return ErrStatus
	}
	rec.Status = int(max(n, 0))
	_, size := tokenAt(t, line, s, 4)
	if b, ok := parseUint(size, 18); ok {
		rec.Bytes = b
	}
	rec.Method, _ = tokenAt(t, line, s, 5)
	rec.Target, _ = tokenAt(t, line, s, 6)
	rec.Request = rec.Method + " " + rec.Target
	if rec.Method == "CONNECT" {
		rec.VHost = hostOfHostPort(rec.Target)
	} else {
		rec.VHost = hostOfURL(rec.Target)
	}
	return nil
}

// hostOfURL is the host of an absolute URL ("http://www.example.com:80/"
// is www.example.com); "" for a path.
func hostOfURL(u string) string {
	i := strings.Index(u, "://")
	if i < 0 {
		return ""
	}
	h := u[i+3:]
	if j := strings.IndexAny(h, "/?#"); j >= 0 {
		h = h[:j]
	}
	return hostOfHostPort(h)
}

// addressOfClientPort is the address of a client:port field that always has
// its port: load balancers write an IPv6 client without brackets
// ("2001:db8::42:40000"), so the port is what follows the last colon.
func addressOfClientPort(v string) string {
	if strings.HasPrefix(v, "[") {
		return hostOfHostPort(v)
	}
	if i := strings.LastIndexByte(v, ':'); i > 0 {
		return v[:i]
	}
	return v
}
