// Package logparse reads web-server access logs (Common Log Format, Combined,
// vhost variants and custom Apache LogFormat / nginx log_format strings) as a
// stream of Records.
package logparse

import (
	"net/netip"
	"strings"
	"time"
)

// Record is one access-log line, parsed. Absent fields ("-" in the log) are
// empty strings, or -1 for Bytes. The strings of one Record share one
// allocation, a copy of its line: keeping any of them keeps the whole line
// alive, so strings.Clone a field kept long-term for many clients.
type Record struct {
	Client    string    // %h / $remote_addr: an IP address (IPv6 in RFC 5952 form without a zone, IPv4-mapped as IPv4) or a resolved host name
	Ident     string    // %l: identd answer, "" when "-"
	User      string    // %u / $remote_user, "" when "-"
	Time      time.Time // %t / $time_local, in the zone the log wrote; UTC for a %{strftime}t time with no %z (see ParseApacheFormat)
	Method    string    // "GET"; "" when the request line is "-" or garbage
	Target    string    // request target as sent: "/a?b", "http://host/a", "*"
	Protocol  string    // "HTTP/1.1"; "" for HTTP/0.9 requests and garbage
	Request   string    // the whole request line as logged, unescaped
	Status    int       // %>s; 0 when the log has none
	Bytes     int64     // %b / $body_bytes_sent; -1 when "-" or absent
	Referer   string    // "" when "-" or absent
	UserAgent string    // "" when "-" or absent
	VHost     string    // %v / $host / $server_name, "" when the format has none
	// Headers are the headers few logs carry; nil when the line has none
	// of them. Apart, they are 8 bytes of a Record instead of 80 (of 312):
	// a few thousand Records are in flight on a ParallelReader.
	Headers *Headers
	// NoAgentField: the line's layout logs no User-agent and no Referer (a
	// Common Log Format line), so their absence says nothing of the client.
	NoAgentField bool
	// NoRefererField: the layout logs a User-agent but no Referer (IIS
	// 7 and 7.5 by default, whose #Fields lack cs(Referer); a format
	// string without one), so a Referer's absence says nothing either.
	NoRefererField bool
	// TraefikNoAgent: a Common Log Format line with Traefik's fields after
	// it (requests served, router, server URL, duration) and no
	// User-agent: Traefik drops request headers unless told to keep them.
	TraefikNoAgent bool
	File           string // source file name ("-" or "(stdin)" for standard input)
	Line           int64  // 1-based line number in File
}

// Headers are the headers of a Record that few logs carry.
type Headers struct {
	Forwarded string // X-Forwarded-For, where the format carries it (JSON, CloudFront): for --trust-proxy
	// Web Bot Auth's request headers, where the format logs them
	// (%{Signature}i, $http_signature_input, a JSON log's keys): for
	// --keys (package botauth), which bounds what it reads of them.
	Signature, SignatureInput, SignatureAgent string
	// ContentUsage is the Content-Usage response header
	// (draft-ietf-aipref-attach), where the format logs it
	// (%{Content-Usage}o, $sent_http_content_usage, a JSON log's key): the
	// site's preferences for that response's content.
	ContentUsage string
}

// Forwarded is r's X-Forwarded-For (Headers.Forwarded), "" when none.
func (r *Record) Forwarded() string {
	if r.Headers == nil {
		return ""
	}
	return r.Headers.Forwarded
}

// reset empties r for line lineNo of file. Its Headers, if any, are kept
// for the line's, emptied: a ParallelReader's records are in blocks that
// it parses again and again, and a log that has X-Forwarded-For on every
// line would otherwise cost an allocation a line. The entry points whose
// caller owns the Record (Format.Parse, Reader.Read, ParallelReader.Read)
// let go of its Headers first: the caller may hold copies of it.
func (r *Record) reset(file string, lineNo int64) {
	h := r.Headers
	*r = Record{Bytes: -1, File: file, Line: lineNo}
	if h != nil {
		*h = Headers{}
		r.Headers = h
	}
}

// headers is r's Headers, made when nil: a line's first header makes
// them, so a line without any allocates nothing.
func (r *Record) headers() *Headers {
	if r.Headers == nil {
		r.Headers = new(Headers)
	}
	return r.Headers
}

// setForwarded stores v as r's X-Forwarded-For.
func (r *Record) setForwarded(v string) {
	if v != "" || r.Headers != nil {
		r.headers().Forwarded = v
	}
}

// Path returns the request target as a path and query for matching against
// robots.txt: an absolute-URI target ("http://host/a?b") loses its scheme
// and host ("/a?b", and "/" when it has no path); any other target is
// returned as sent ("" when the request had none).
func (r *Record) Path() string {
	t := r.Target
	if t == "" || t[0] == '/' {
		return t
	}
	i := strings.Index(t, "://")
	if i <= 0 || !isScheme(t[:i]) {
		return t
	}
	rest := t[i+3:]
	j := strings.IndexAny(rest, "/?")
	if j < 0 {
		return "/"
	}
	if rest[j] == '?' {
		return "/" + rest[j:]
	}
	return rest[j:]
}

// isScheme reports whether s is a URI scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
func isScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isLetter(c) && (i == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

// canonicalClient writes an IPv6 client address one way (RFC 5952: lower
// case, zeros compressed; an IPv4-mapped address as the IPv4 address), so
// that one host is one client however its server spelt it: Java servers
// write "2001:db8:0:0:0:0:0:99", nginx "2001:db8::99", Node on a
// dual-stack socket "::ffff:203.0.113.9". A link-local peer's zone, which
// Java and IIS append ("fe80::1%eth0", "fe80::1%2"), is dropped: it names
// the server's own interface, not the client, and a zoned address is in no
// netip.Prefix, so --client and --trust-proxy networks would never match
// it. IPv4 text and host names are kept as they are; an address already
// canonical costs no allocation.
func canonicalClient(s string) string {
	if strings.IndexByte(s, ':') < 0 {
		return s
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return s
	}
	return canonicalAddr(s, a)
}

// canonicalAddr is s, the text of a, written canonically (see
// canonicalClient).
func canonicalAddr(s string, a netip.Addr) string {
	var buf [64]byte
	b := a.Unmap().WithZone("").AppendTo(buf[:0])
	if string(b) == s {
		return s
	}
	return string(b)
}

// addressWithoutPort is v without the port of an "address:port" or
// "[v6]:port" (a key named with --json-fields ip=, as Caddy before 2.5 and
// Envoy's JSON write their peers): each connection would otherwise be a
// client of its own. Anything that is no address with a port is kept.
func addressWithoutPort(v string) string {
	if strings.IndexByte(v, ':') < 0 {
		return v
	}
	if addr, _, ok := hopAddress(v); ok {
		return addr // an IPv6 address without brackets is kept whole: its colons are no port
	}
	return v
}
