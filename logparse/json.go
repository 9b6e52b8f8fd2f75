package logparse

import (
	"bytes"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"
)

// JSON access logs: one object per line, as nginx writes with
// "log_format … escape=json", Caddy's structured access log and Traefik's
// JSON access log. Their field names differ (and an nginx admin chooses
// them), so a jsonLayout maps key paths to Record fields: a nested key is
// its dotted path ("request.headers.User-Agent"), matched without regard
// to case, and an array value stands for its first element (Caddy writes
// headers as arrays of strings). When two keys fill one field, the one
// earlier in jsonKeys wins, whatever the order in the line: Caddy's
// request.client_ip (after its trusted proxies) over request.remote_ip.
//
// The scanner is byte-oriented and allocation-free: keys are compared in a
// stack buffer, values are substrings of one string of the line (or views
// of it, for ParallelReader.ReuseRecord); only a value with escapes gets a
// string of its own.

// jsonKeys are the key paths the json format knows, lower case, best first
// for each field.
var jsonKeys = []struct {
	path string
	kind fieldKind
}{
	// The client: after proxies first.
	{"request.client_ip", kindClient}, {"client_ip", kindClient}, {"remote_addr", kindClient},
	{"request.remote_ip", kindClient}, {"remote_ip", kindClient}, {"clienthost", kindClient},
	{"clientip", kindClient}, {"client", kindClient}, {"ip", kindClient}, {"c-ip", kindClient},
	{"clientaddr", kindClientPort}, {"client_addr", kindClientPort},
	{"sourceip", kindClient}, {"downstream_remote_address", kindClientPort},
	// nginx's variable names in lower camel case ("remoteAddr":
	// "$remote_addr", "requestUri", "httpUserAgent", …), as JSON style
	// guides have them written.
	{"remoteaddr", kindClient},
	// Google Cloud's load balancers (httpRequest), Azure Front Door and
	// Application Gateway (properties), Cloudflare Logpush (ClientIP, above).
	{"httprequest.remoteip", kindClient}, {"properties.clientip", kindClient},
	// Akamai DataStream 2 (cliIP, reqTimeSec, reqMethod, reqPath, reqHost,
	// statusCode, UA, referer, bytes, xForwardedFor).
	{"cliip", kindClient},
	// The time: nginx $time_iso8601 or $time_local or $msec, Caddy's ts,
	// Traefik's StartUTC, logstash's @timestamp.
	{"time_iso8601", kindTimeAny}, {"time_local", kindTimeAny}, {"msec", kindTimeAny}, {"ts", kindTimeAny},
	{"startutc", kindTimeAny}, {"startlocal", kindTimeAny}, {"@timestamp", kindTimeAny}, {"timestamp", kindTimeAny},
	{"time", kindTimeAny}, {"datetime", kindTimeAny}, {"date", kindTimeAny},
	{"edgestarttimestamp", kindTimeAny}, {"receivetimestamp", kindTimeAny},
	// Kong's started_at (ms), API Gateway's requestTime, Fastly's
	// time_start, Envoy's start_time.
	{"started_at", kindTimeAny}, {"requesttime", kindTimeAny}, {"time_start", kindTimeAny}, {"start_time", kindTimeAny},
	{"reqtimesec", kindTimeAny},
	// The request.
	{"request", kindRequest}, {"request_line", kindRequest},
	{"request.method", kindMethod}, {"request_method", kindMethod}, {"requestmethod", kindMethod}, {"method", kindMethod},
	{"httpmethod", kindMethod}, {"reqmethod", kindMethod},
	{"request.uri", kindTarget}, {"request_uri", kindTarget}, {"requestpath", kindTarget}, {"uri", kindTarget},
	{"path", kindTarget}, {"url", kindTarget}, {"reqpath", kindTarget}, {"requesturi", kindTarget},
	// A query kept apart from the path (Akamai's queryStr) joins it.
	{"querystr", kindQuery},
	{"httprequest.requestmethod", kindMethod}, {"properties.httpmethod", kindMethod}, {"clientrequestmethod", kindMethod},
	// Application Gateway v2's originalRequestUriWithArgs is what the
	// client asked for; its requestUri is the path after the gateway's URL
	// rewrite, without the query (in requestQuery).
	{"httprequest.requesturl", kindTargetURL}, {"properties.originalrequesturiwithargs", kindTargetURL}, {"properties.requesturi", kindTargetURL}, {"clientrequesturi", kindTarget},
	{"httprequest.protocol", kindProtocol}, {"properties.httpversion", kindProtocol}, {"clientrequestprotocol", kindProtocol},
	{"request.proto", kindProtocol}, {"server_protocol", kindProtocol}, {"requestprotocol", kindProtocol}, {"protocol", kindProtocol},
	// The answer.
	{"status", kindStatus}, {"downstreamstatus", kindStatus}, {"status_code", kindStatus}, {"response_status", kindStatus},
	{"response.status", kindStatus}, {"response_code", kindStatus}, {"statuscode", kindStatus},
	{"httprequest.status", kindStatus}, {"properties.httpstatuscode", kindStatus}, {"properties.httpstatus", kindStatus}, {"edgeresponsestatus", kindStatus},
	// The widely copied nginx template of Elastic's examples
	// (json_logstash: "response": "$status", "agent", "referrer") names
	// the status "response"; last, and Kong's "response" object is a
	// parent (response.status), no status. Other JSON logs write a text
	// there (an API's answer): a value that is no status is ignored, not a
	// malformed line.
	{"response", kindStatusLoose},
	{"httprequest.responsesize", kindBytes}, {"properties.responsebytes", kindBytes}, {"properties.sentbytes", kindBytes}, {"edgeresponsebytes", kindBytes},
	{"body_bytes_sent", kindBytes}, {"bodybytessent", kindBytes}, {"size", kindBytes}, {"downstreamcontentsize", kindBytes}, {"bytes_sent", kindBytes}, {"bytes", kindBytes},
	// Kong's file-log (response.*), Netlify, Fastly's documented JSON,
	// API Gateway ($context.responseLength), Envoy's JSON.
	{"response.size", kindBytes}, {"response_size", kindBytes}, {"resp_body_size", kindBytes}, {"responselength", kindBytes},
	{"bytes_sent_total", kindBytes},
	// Headers.
	{"http_referer", kindReferer}, {"request.headers.referer", kindReferer}, {"request_referer", kindReferer},
	{"referer", kindReferer}, {"referrer", kindReferer}, {"http_referrer", kindReferer}, {"httpreferer", kindReferer},
	{"httprequest.referer", kindReferer}, {"properties.referer", kindReferer}, {"properties.referrer", kindReferer}, {"clientrequestreferer", kindReferer},
	{"httprequest.useragent", kindUserAgent}, {"properties.useragent", kindUserAgent}, {"clientrequestuseragent", kindUserAgent},
	{"properties.hostname", kindVHost}, {"properties.originalhost", kindVHost}, {"properties.host", kindVHost}, {"clientrequesthost", kindVHost}, // originalHost: before a header rewrite
	{"http_user_agent", kindUserAgent}, {"request.headers.user-agent", kindUserAgent}, {"request_user-agent", kindUserAgent},
	{"user_agent", kindUserAgent}, {"useragent", kindUserAgent}, {"agent", kindUserAgent}, {"request_user_agent", kindUserAgent},
	{"ua", kindUserAgent}, {"httpuseragent", kindUserAgent},
	{"host", kindVHost}, {"request.host", kindVHost}, {"requesthost", kindVHost}, {"http_host", kindVHost}, {"server_name", kindVHost},
	{"reqhost", kindVHost},
	// alp's documented layout (the access-log profiler), whose "host" is
	// $remote_addr (see hostIP) and "vhost" the server's name.
	{"vhost", kindVHost}, {"forwardedfor", kindForwarded}, {"body_bytes", kindBytes},
	{"http_x_forwarded_for", kindForwarded}, {"x_forwarded_for", kindForwarded}, {"request.headers.x-forwarded-for", kindForwarded},
	{"request_x-forwarded-for", kindForwarded}, {"x-forwarded-for", kindForwarded}, {"xforwardedfor", kindForwarded},
	// Web Bot Auth (botauth): nginx's variables, Caddy's headers.
	{"http_signature", kindSignature}, {"request.headers.signature", kindSignature},
	{"http_signature_input", kindSignatureInput}, {"request.headers.signature-input", kindSignatureInput},
	{"signature_input", kindSignatureInput}, {"signature-input", kindSignatureInput},
	{"http_signature_agent", kindSignatureAgent}, {"request.headers.signature-agent", kindSignatureAgent},
	{"signature_agent", kindSignatureAgent}, {"signature-agent", kindSignatureAgent},
	// The Content-Usage response header (draft-ietf-aipref-attach): nginx's
	// variable, Caddy's response headers.
	{"sent_http_content_usage", kindContentUsage}, {"resp_headers.content-usage", kindContentUsage},
	{"response.headers.content-usage", kindContentUsage}, {"content_usage", kindContentUsage}, {"content-usage", kindContentUsage},
}

// Field kinds only the json format has.
const (
	kindTimeAny     fieldKind = 100 + iota // a time written as ISO 8601, CLF or seconds since 1970 (a string or a number)
	kindClientPort                         // "address:port" or "[v6]:port"
	kindForwarded                          // X-Forwarded-For
	kindTargetURL                          // a balancer's absolute URL: its host is the virtual host, not a proxy probe's
	kindQuery                              // the query, without '?', of a log that writes it apart from the path
	kindStatusLoose                        // a status under a name other logs give other values: one that is no status is ignored
)

// jsonKey is one key path of a layout: the field it fills and its rank
// among the keys of that field (lower wins).
type jsonKey struct {
	kind fieldKind
	rank uint8
}

// jsonLayout is the key paths of a JSON log.
type jsonLayout struct {
	keys    map[string]jsonKey
	parents map[string]bool // the paths that have known keys under them ("request" for "request.uri")
	maxLen  int             // the longest path: longer ones cannot match
}

// maxJSONDepth bounds nesting: an access log nests two or three levels, and
// a line nested a thousand deep is an attack on the parser's stack.
const maxJSONDepth = 32

// JSONFormat reads JSON access logs with the key paths of nginx, Caddy and
// Traefik (see jsonKeys).
var JSONFormat = newJSONFormat("json", nil)

// newJSONFormat returns a json format whose extra key paths (field → path)
// come before the known ones.
func newJSONFormat(name string, extra map[fieldKind][]string) *Format {
	l := &jsonLayout{keys: make(map[string]jsonKey), parents: make(map[string]bool)}
	add := func(path string, kind fieldKind) {
		path = strings.ToLower(path)
		if _, dup := l.keys[path]; dup {
			return
		}
		rank := 0
		for _, k := range l.keys {
			if slotOf(k.kind) == slotOf(kind) {
				rank++
			}
		}
		l.keys[path] = jsonKey{kind: kind, rank: uint8(min(rank, 255))}
		l.maxLen = max(l.maxLen, len(path))
		for i := range len(path) {
			if path[i] == '.' {
				l.parents[path[:i]] = true
			}
		}
	}
	for _, kind := range []fieldKind{kindClient, kindTimeAny, kindRequest, kindMethod, kindTarget, kindTargetURL, kindQuery, kindProtocol, kindStatus, kindBytes, kindReferer, kindUserAgent, kindVHost, kindForwarded, kindSignature, kindSignatureInput, kindSignatureAgent, kindContentUsage} {
		for _, p := range extra[kind] {
			add(p, kind)
		}
	}
	for _, k := range jsonKeys {
		add(k.path, k.kind)
	}
	return &Format{name: name, spec: name, json: l}
}

// jsonFieldNames are the names --json-fields takes, and the fields they fill.
var jsonFieldNames = map[string]fieldKind{
	"ip": kindClient, "client": kindClient, "time": kindTimeAny, "request": kindRequest, "method": kindMethod,
	"uri": kindTarget, "path": kindTarget, "protocol": kindProtocol, "status": kindStatus, "bytes": kindBytes,
	"referer": kindReferer, "ua": kindUserAgent, "user_agent": kindUserAgent, "host": kindVHost, "xff": kindForwarded,
	"signature": kindSignature, "signature_input": kindSignatureInput, "signature_agent": kindSignatureAgent,
	"content_usage": kindContentUsage,
}

// ParseJSONFields returns the json format with the key paths of spec first:
// "ip=client,ua=agent,time=@timestamp" (field=path, comma-separated; a
// nested key as its dotted path). Fields: ip, time, request, method, uri,
// protocol, status, bytes, referer, ua, host, xff, signature,
// signature_input, signature_agent, content_usage.
func ParseJSONFields(spec string) (*Format, error) {
	extra := map[fieldKind][]string{}
	for item := range strings.SplitSeq(spec, ",") {
		name, path, ok := strings.Cut(strings.TrimSpace(item), "=")
		kind, known := jsonFieldNames[strings.ToLower(strings.TrimSpace(name))]
		path = strings.TrimSpace(path)
		switch {
		case !ok || path == "":
			return nil, fmt.Errorf("%q: want FIELD=KEY, e.g. ua=agent", item)
		case !known:
			return nil, fmt.Errorf("%q: unknown field %q (want ip, time, request, method, uri, protocol, status, bytes, referer, ua, host, xff, signature, signature_input, signature_agent or content_usage)", item, name)
		}
		extra[kind] = append(extra[kind], path)
	}
	return newJSONFormat("json", extra), nil
}

// jsonScan is the state of one line's scan.
type jsonScan struct {
	line   []byte
	s      string // line as a string: values without escapes are its substrings
	pos    int
	l      *jsonLayout
	rec    *Record
	ranks  [kindQuery + 1]uint8 // rank+1 of the key that filled each field; 0: none yet
	query  string               // kindQuery's value, joined to the target at the end
	hostIP string               // a top-level "host" that is an IP address: the client, or else the virtual host
	path   [256]byte
	plen   int
}

var (
	errJSONSyntax = errors.New("not a JSON object")
	errJSONDepth  = fmt.Errorf("JSON nested deeper than %d levels", maxJSONDepth)
)

// parseJSON parses one JSON object into rec.
func (l *jsonLayout) parse(line []byte, rec *Record, alias bool) error {
	file, lineNo := rec.File, rec.Line
	rec.reset(file, lineNo)
	line = TrimEOL(line)
	if len(line) == 0 {
		return newParseError(line, 0, ErrEmptyLine)
	}
	sc := jsonScan{line: line, l: l, rec: rec}
	if alias {
		sc.s = unsafe.String(unsafe.SliceData(line), len(line))
	} else {
		sc.s = string(line)
	}
	sc.space()
	if sc.pos >= len(line) || line[sc.pos] != '{' {
		return newParseError(line, sc.pos+1, fmt.Errorf("%w: %w", ErrMismatch, errJSONSyntax))
	}
	if err := sc.value(0); err != nil {
		return newParseError(line, sc.pos+1, fmt.Errorf("%w: %w", ErrMismatch, err))
	}
	if sc.space(); sc.pos < len(line) {
		return newParseError(line, sc.pos+1, fmt.Errorf("%w: text after the JSON object", ErrMismatch))
	}
	if sc.query != "" && rec.Target != "" && strings.IndexByte(rec.Target, '?') < 0 {
		rec.Target += "?" + sc.query // robots.txt rules match the path and query
	}
	if sc.hostIP != "" {
		// alp's layout names the client "host": an address there, in a
		// line that names no client otherwise, is the client. A Host
		// header is never an address of the client's, so nothing else
		// is taken for it.
		if rec.Client == "" {
			rec.Client = sc.hostIP
		} else if rec.VHost == "" {
			rec.VHost = sc.hostIP
		}
	}
	if rec.Client == "" {
		return newParseError(line, 1, fmt.Errorf("%w: no client address (give its key with --json-fields ip=KEY)", ErrMismatch))
	}
	if rec.Time.IsZero() && rec.Request == "" && rec.Method == "" && rec.Target == "" {
		// A JSON log of keys robowatch does not know: an address alone is
		// no request to judge, and reading it as one would report a log
		// with no times and no paths as all clear.
		return newParseError(line, 1, fmt.Errorf("%w: no time and no request (give their keys with --json-fields time=KEY,uri=KEY)", ErrMismatch))
	}
	return nil
}

func (sc *jsonScan) space() {
	for sc.pos < len(sc.line) {
		switch sc.line[sc.pos] {
		case ' ', '\t', '\r', '\n':
			sc.pos++
		default:
			return
		}
	}
}

// value scans the value at pos; depth is the nesting of the object or
// array it is in.
func (sc *jsonScan) value(depth int) error {
	sc.space()
	if sc.pos >= len(sc.line) {
		return errJSONSyntax
	}
	switch c := sc.line[sc.pos]; {
	case c == '{':
		if depth >= maxJSONDepth {
			return errJSONDepth
		}
		if sc.plen > 0 && sc.plen <= len(sc.path) {
			if _, known := sc.l.keys[string(sc.path[:sc.plen])]; known && !sc.l.parents[string(sc.path[:sc.plen])] {
				// A field robowatch reads holds an object: not this log's
				// field, or a corrupt line; either way not a value.
				return fmt.Errorf("%q holds an object, not a value", sc.key())
			}
		}
		return sc.object(depth + 1)
	case c == '[':
		if depth >= maxJSONDepth {
			return errJSONDepth
		}
		return sc.array(depth + 1)
	case c == '"':
		start, end, esc, err := sc.str()
		if err != nil {
			return err
		}
		return sc.store(start, end, esc)
	default:
		start := sc.pos
		for sc.pos < len(sc.line) && !isJSONDelim(sc.line[sc.pos]) {
			sc.pos++
		}
		lit := sc.line[start:sc.pos]
		switch {
		case len(lit) == 0:
			return errJSONSyntax
		case string(lit) == "null":
			return nil // no value: the field stays unset
		case string(lit) == "true" || string(lit) == "false":
			return sc.store(start, sc.pos, false)
		case lit[0] == '-' || lit[0] >= '0' && lit[0] <= '9':
			return sc.store(start, sc.pos, false)
		}
		return errJSONSyntax
	}
}

func isJSONDelim(c byte) bool {
	return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ':'
}

// object scans {...} at pos, each key's value under the key's path.
func (sc *jsonScan) object(depth int) error {
	sc.pos++ // '{'
	outer := sc.plen
	defer func() { sc.plen = outer }()
	sc.space()
	if sc.pos < len(sc.line) && sc.line[sc.pos] == '}' {
		sc.pos++
		return nil
	}
	for {
		sc.space()
		if sc.pos >= len(sc.line) || sc.line[sc.pos] != '"' {
			return errJSONSyntax
		}
		start, end, esc, err := sc.str()
		if err != nil {
			return err
		}
		sc.plen = outer
		sc.pushKey(sc.line[start:end], esc, outer > 0)
		sc.space()
		if sc.pos >= len(sc.line) || sc.line[sc.pos] != ':' {
			return errJSONSyntax
		}
		sc.pos++
		if err := sc.value(depth); err != nil {
			return err
		}
		sc.space()
		if sc.pos >= len(sc.line) {
			return errJSONSyntax
		}
		switch sc.line[sc.pos] {
		case ',':
			sc.pos++
		case '}':
			sc.pos++
			return nil
		default:
			return errJSONSyntax
		}
	}
}

// array scans [...] at pos. Its first element stands for the array (a
// header logged as a list of its values); the others are scanned past.
func (sc *jsonScan) array(depth int) error {
	sc.pos++ // '['
	sc.space()
	if sc.pos < len(sc.line) && sc.line[sc.pos] == ']' {
		sc.pos++
		return nil
	}
	outer := sc.plen
	for i := 0; ; i++ {
		if i == 1 {
			sc.plen = len(sc.path) + 1 // past the buffer: matches no key
		}
		if err := sc.value(depth); err != nil {
			sc.plen = outer
			return err
		}
		sc.space()
		if sc.pos >= len(sc.line) {
			return errJSONSyntax
		}
		switch sc.line[sc.pos] {
		case ',':
			sc.pos++
		case ']':
			sc.pos++
			sc.plen = outer
			return nil
		default:
			sc.plen = outer
			return errJSONSyntax
		}
	}
}

// pushKey appends key, lower-cased, to the path ("." before it when
// nested). A key with escapes, or a path too long for any known key,
// makes the path match nothing.
func (sc *jsonScan) pushKey(key []byte, esc, nested bool) {
	if sc.plen > len(sc.path) || esc {
		sc.plen = len(sc.path) + 1
		return
	}
	n := sc.plen
	if nested {
		n++
	}
	if n+len(key) > sc.l.maxLen {
		sc.plen = len(sc.path) + 1
		return
	}
	if nested {
		sc.path[sc.plen] = '.'
	}
	for i, c := range key {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		sc.path[n+i] = c
	}
	sc.plen = n + len(key)
}

// str scans a string at pos (its opening quote) and returns the extent of
// its contents and whether they hold escapes.
func (sc *jsonScan) str() (start, end int, esc bool, err error) {
	sc.pos++
	start = sc.pos
	q := -1
	for sc.pos < len(sc.line) {
		// memchr to the next quote; a backslash before it, found the same
		// way, escapes the byte after it (the quote itself, perhaps). The
		// quote is looked for again only once an escape passed it, so a
		// string of escapes is read in one pass (TestHostileJSONEscapes).
		if q < sc.pos {
			j := bytes.IndexByte(sc.line[sc.pos:], '"')
			if j < 0 {
				break
			}
			q = sc.pos + j
		}
		if k := bytes.IndexByte(sc.line[sc.pos:q], '\\'); k >= 0 {
			esc = true
			sc.pos += k + 2
			continue
		}
		sc.pos = q + 1
		return start, q, esc, nil
	}
	return 0, 0, false, errJSONSyntax
}

// store puts the value line[start:end] into the field the current path
// names, if any.
func (sc *jsonScan) store(start, end int, esc bool) error {
	if sc.plen == 0 || sc.plen > len(sc.path) {
		return nil
	}
	k, ok := sc.l.keys[string(sc.path[:sc.plen])]
	if !ok {
		return nil
	}
	slot := slotOf(k.kind)
	if r := sc.ranks[slot]; r != 0 && r <= k.rank+1 {
		if r == k.rank+1 {
			return fmt.Errorf("key %q appears twice", sc.key())
		}
		return nil // a better key filled it
	}
	v := sc.s[start:end]
	if esc {
		var ok bool
		if v, ok = unescapeJSON(v); !ok {
			return fmt.Errorf("bad escape in %q", sc.key())
		}
	}
	rec := sc.rec
	raw := sc.line[start:end]
	switch k.kind {
	case kindClient, kindClientPort:
		if v == "-" || v == "" {
			return nil
		}
		if k.kind == kindClientPort {
			v = hostOfHostPort(v)
		} else {
			v = addressWithoutPort(v)
		}
		rec.Client = v
	case kindTimeAny:
		t, ok := parseAnyTime(raw)
		if !ok {
			return fmt.Errorf("%w in %q", ErrTime, sc.key())
		}
		if !timeInRange(t) {
			return errYearRange(t)
		}
		rec.Time = t
	case kindRequest:
		rec.Request = v
		if rec.Method == "" {
			splitRequest(v, rec)
		}
	case kindMethod:
		rec.Method = v
	case kindTarget:
		rec.Target = v
	case kindTargetURL:
		rec.Target = v
		if rec.VHost == "" {
			rec.VHost = hostOfURL(v)
		}
	case kindProtocol:
		rec.Protocol = v
	case kindStatus:
		n, ok := parseUint(raw, 9)
		if !ok || esc {
			return fmt.Errorf("%w in %q", ErrStatus, sc.key())
		}
		rec.Status = int(max(n, 0))
	case kindStatusLoose:
		n, ok := parseUint(raw, 3)
		if !ok || esc || n < 100 {
			return nil
		}
		rec.Status = int(n)
	case kindBytes:
		n, ok := parseUint(raw, 18)
		if !ok || esc {
			return fmt.Errorf("%w in %q", ErrBytes, sc.key())
		}
		rec.Bytes = n
	case kindReferer:
		rec.Referer = dashEmpty(uriDecoded(v, "://", "%3A%2F%2F", "%3a%2f%2f"))
	case kindUserAgent:
		rec.UserAgent = dashEmpty(uriDecoded(v, "/", "%2F", "%2f"))
	case kindVHost:
		if sc.plen == len("host") && string(sc.path[:sc.plen]) == "host" {
			if a, err := netip.ParseAddr(v); err == nil && a.Zone() == "" {
				// The client's, or the server's by address: parse decides,
				// and leaves the field to a lesser key meanwhile.
				sc.hostIP = v
				return nil
			}
		}
		rec.VHost = dashEmpty(v)
	case kindForwarded:
		rec.setForwarded(dashEmpty(v))
	case kindQuery:
		sc.query = dashEmpty(v)
	default:
		rec.setHeader(k.kind, dashEmpty(v))
	}
	sc.ranks[slot] = k.rank + 1
	return nil
}

// key is the current key path, for an error message: a copy, so that the
// scan's buffer stays on the stack.
func (sc *jsonScan) key() string { return string(sc.path[:sc.plen]) }

// slotOf is the Record field a kind fills: an address with its port fills
// the client's, and ranks with its keys.
func slotOf(k fieldKind) fieldKind {
	switch k {
	case kindClientPort:
		return kindClient
	case kindTargetURL:
		return kindTarget
	case kindStatusLoose:
		return kindStatus
	}
	return k
}

// uriDecoded returns v decoded when it is written URI-encoded, as Akamai
// DataStream 2 writes its User-agent and Referer
// ("Mozilla%2F5.0+%28Macintosh%3B+Intel+Mac+OS+X+10_14_3%29",
// "https%3A%2F%2Ftest.referrer.net%2Fen-US%2Fdocs%2FWeb%2Ftest":
// https://techdocs.akamai.com/datastream2/docs/log-format): when the text
// every raw value has (a User-agent's "/", a Referer's "://") is missing
// and its encoding (in upper or lower case) is there. A User-agent's '+' is a space (but a
// crawler's own "+http", as in IIS's logs: see iisSpaces); a Referer, a
// URL, keeps its '+'.
func uriDecoded(v, raw, enc, encLower string) string {
	if strings.Contains(v, raw) || !strings.Contains(v, enc) && !strings.Contains(v, encLower) {
		return v
	}
	if raw == "/" && strings.IndexByte(v, '+') >= 0 {
		v = iisSpaces(v)
	}
	return percentDecode(v)
}

// dashEmpty is v, or "" for "-": an absent field.
func dashEmpty(v string) string {
	if v == "-" {
		return ""
	}
	return v
}

// hostOfHostPort returns the address of "1.2.3.4:80" or "[2001:db8::1]:80";
// a bare address (an IPv6 one has several colons) is returned as it is.
func hostOfHostPort(v string) string {
	if strings.HasPrefix(v, "[") {
		if i := strings.IndexByte(v, ']'); i > 0 {
			return v[1:i]
		}
		return v
	}
	if i := strings.LastIndexByte(v, ':'); i > 0 && strings.IndexByte(v, ':') == i {
		return v[:i]
	}
	return v
}

// parseAnyTime reads a time as JSON logs write it: ISO 8601 (a time with
// no zone, as Python's logging and many frameworks write it, is read as
// UTC, as robowatch reads HAProxy's and W3C's zone-less times), CLF, or
// seconds since 1970 (a number or a string of one; milliseconds,
// microseconds and nanoseconds too, told by their size: Cloudflare's
// Logpush writes nanoseconds).
func parseAnyTime(b []byte) (time.Time, bool) {
	if t, ok := parseISOTime(b); ok {
		return t, true
	}
	if len(b) >= 19 && len(b) <= 29 && b[4] == '/' && b[7] == '/' {
		// Caddy's time_format wall_milli and wall: "2024/03/10 08:00:00.123".
		var buf [32]byte
		n := copy(buf[:], b)
		buf[4], buf[7] = '-', '-'
		return parseAnyTime(buf[:n])
	}
	if n := len(b); n >= 22 && (string(b[n-3:]) == "GMT" || string(b[n-3:]) == "UTC") {
		// strftime's %Z for UTC, as Fastly's "%{begin:%Y-%m-%dT%H:%M:%S%Z}t"
		// writes it: "2024-03-10T08:00:00GMT".
		b = bytes.TrimRight(b[:n-3], " ")
	}
	if len(b) >= 19 && len(b) <= 29 && b[4] == '-' {
		// No zone: append one, in a buffer on the stack.
		var buf [32]byte
		n := copy(buf[:], b)
		buf[n] = 'Z'
		if t, ok := parseISOTime(buf[:n+1]); ok {
			return t, true
		}
	}
	if t, ok := parseCLFTime(b); ok {
		return t, true
	}
	digits := 0
	for digits < len(b) && b[digits] >= '0' && b[digits] <= '9' {
		digits++
	}
	switch {
	case digits >= 19 && digits == len(b):
		return parseEpochTime(b, unitNsec)
	case digits >= 16 && digits == len(b):
		return parseEpochTime(b, unitUsec)
	case digits >= 13 && digits == len(b):
		return parseEpochTime(b, unitMsec)
	}
	return parseEpochTime(b, unitSec)
}

// unescapeJSON decodes a JSON string's escapes; ok is false for a bad one.
func unescapeJSON(v string) (string, bool) {
	var b strings.Builder
	b.Grow(len(v))
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(v) {
			return "", false
		}
		i++
		switch v[i] {
		case '"', '\\', '/':
			b.WriteByte(v[i])
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, ok := hex4(v, i+1)
			if !ok {
				return "", false
			}
			i += 4
			if 0xd800 <= r && r < 0xdc00 && i+6 < len(v) && v[i+1] == '\\' && v[i+2] == 'u' {
				if lo, ok := hex4(v, i+3); ok && 0xdc00 <= lo && lo < 0xe000 {
					r = 0x10000 + (r-0xd800)<<10 + (lo - 0xdc00)
					i += 6
				}
			}
			if r < 0x80 {
				b.WriteByte(byte(r)) // nginx writes bytes as \u00XX
			} else {
				b.WriteRune(r)
			}
		case 'x':
			// No JSON escape: nginx's default escaping (a JSON-shaped
			// log_format without escape=json writes '"' as \x22).
			h, ok := hexByte(v, i+1)
			if !ok {
				return "", false
			}
			b.WriteByte(h)
			i += 2
		default:
			return "", false
		}
	}
	return b.String(), true
}

func hex4(v string, i int) (rune, bool) {
	if i+4 > len(v) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(v[i : i+4]) {
		d, ok := unhex(c)
		if !ok {
			return 0, false
		}
		r = r<<4 | rune(d)
	}
	if !utf8.ValidRune(r) && !(0xd800 <= r && r < 0xe000) {
		return 0, false
	}
	return r, true
}

// missingJSONKeys is the --json-fields value a JSON line still needs: the
// FIELD=KEY of each field robowatch reads that the line's known keys did not
// fill, so that the hint asks only for those.
func missingJSONKeys(line string) string {
	f := newJSONFormat("json", nil)
	var rec Record
	_ = f.json.parse([]byte(line), &rec, false) // the fields filled before the error are what counts
	var need []string
	if rec.Client == "" {
		need = append(need, "ip=KEY")
	}
	if rec.Time.IsZero() {
		need = append(need, "time=KEY")
	}
	if rec.Request == "" && rec.Target == "" {
		need = append(need, "uri=KEY")
	}
	if rec.UserAgent == "" {
		need = append(need, "ua=KEY")
	}
	if len(need) == 0 { // a line that fails for another reason: name them all
		return "ip=KEY,time=KEY,uri=KEY,ua=KEY"
	}
	return strings.Join(need, ",")
}
