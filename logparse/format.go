package logparse

import (
	"errors"
	"fmt"
	"strings"
)

// fieldKind says which Record field a format directive fills.
type fieldKind uint8

const (
	kindSkip       fieldKind = iota // parsed for its extent, then ignored
	kindClient                      // %h %a $remote_addr
	kindIdent                       // %l
	kindUser                        // %u $remote_user
	kindTimeCLF                     // the inside of [%t], $time_local
	kindTimeISO                     // $time_iso8601
	kindTimeEpoch                   // $msec, %{sec}t, %{msec}t, %{usec}t: seconds, milliseconds or microseconds since 1970
	kindTimeStrf                    // %{strftime format}t, %{msec_frac}t, %{usec_frac}t: parts of a time, field.strf
	kindRequest                     // %r $request
	kindMethod                      // %m $request_method
	kindTarget                      // %U, %U%q, $request_uri
	kindProtocol                    // %H $server_protocol
	kindStatus                      // %>s $status
	kindBytes                       // %b %B %O $body_bytes_sent $bytes_sent
	kindReferer                     // %{Referer}i $http_referer
	kindUserAgent                   // %{User-Agent}i $http_user_agent
	kindVHost                       // %v %V $host $server_name
	kindClientList                  // Envoy's default log: the client is X-Forwarded-For's right-most address
	kindPort                        // %p: a port number, checked but not kept
)

// Web Bot Auth's request headers, for --keys (botauth).
const (
	kindSignature      fieldKind = kindPort + 1 + iota // %{Signature}i $http_signature
	kindSignatureInput                                 // %{Signature-Input}i $http_signature_input
	kindSignatureAgent                                 // %{Signature-Agent}i $http_signature_agent
	kindContentUsage                                   // %{Content-Usage}o $sent_http_content_usage: a response header (draft-ietf-aipref-attach)
)

// epoch units for kindTimeEpoch, kept in field.unit.
const (
	unitSec  = 1
	unitMsec = 1000
	unitUsec = 1000000
	unitNsec = 1000000000
)

// field is one compiled directive: where its value ends and what follows it.
type field struct {
	kind   fieldKind
	quoted bool           // value sits between '"' and a '"' that is followed by after
	term   byte           // bare fields: the byte that ends the value; 0 = space, tab or end of line
	after  []byte         // literal text that must follow the value (closing quote excluded)
	last   bool           // no field follows; text after a space is tolerated
	unit   int            // kindTimeEpoch: units per second
	strf   strftimeFormat // kindTimeStrf: the compiled format, which also tells where the value ends
	name   string         // the directive as written, for error messages
	list   bool           // an X-Forwarded-For list: bare, its ", " between hops is no field separator
	num    bool           // quoted, and a bare status or size follows: its closing quote is followed by after and a digit or '-'
}

// Format is a compiled access-log line layout: literal separators and the
// fields between them. A Format is immutable once built and safe for
// concurrent use; Parse is a pure function of the Format and the line.
type Format struct {
	name   string
	spec   string
	prefix []byte  // literal text before the first field
	fields []field // in line order
	strf   bool    // some field is kindTimeStrf: Parse gathers timeParts
	// noAgent: the layout has no User-agent field (common): its records
	// say NoAgentField, so that an empty User-agent is not taken for one
	// the client left out when other lines of the log have them.
	noAgent bool
	// noReferer: the layout has no Referer field: its records say
	// NoRefererField.
	noReferer bool
	// richer is a format that continues this one with more fields
	// (Combined for Common): a line with a quoted field after this
	// format's last one is parsed with it when it fits.
	richer *Format
	clf    clfLayout    // Common or Combined: parseCLF reads the plain lines
	json   *jsonLayout  // a JSON log: key paths instead of fields
	w3c    *w3cLayout   // a W3C extended log: its default fields, until a #Fields line says otherwise
	tok    *tokenLayout // a load balancer's, S3's, HAProxy's or Squid's fixed layout (cloud.go)
	syslog *Format      // a text format behind a syslog header (syslog.go)
	// container is the format of the lines a container runtime stored:
	// behind CRI's prefix, or with docker, in Docker's json-file objects
	// (container.go).
	container *Format
	docker    bool
	// fallback are the formats a line that f cannot read is tried with:
	// set on a detected format (withFallbacks), never on one given by name.
	fallback []*Format
	base     *Format // the format fallback was added to, which Reader.Format returns
}

// Name returns the built-in name ("combined") or, for a custom format, its format string.
func (f *Format) Name() string { return f.name }

// Spec returns the format string the Format was compiled from.
func (f *Format) Spec() string { return f.spec }

// String returns Name, so a Format prints as its name.
func (f *Format) String() string { return f.name }

// The format strings of the built-in formats, as Apache LogFormat strings.
const (
	CommonSpec        = `%h %l %u %t "%r" %>s %b`
	CombinedSpec      = `%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i"`
	VHostCombinedSpec = `%v:%p %h %l %u %t "%r" %>s %O "%{Referer}i" "%{User-Agent}i"`
	// VHostCommonSpec is Apache's vhost_common (Debian's apache2.conf):
	// the virtual host, without a port, before Common's fields.
	VHostCommonSpec = `%v %h %l %u %t "%r" %>s %b`
	// CombinedXFFSpec is combined with the X-Forwarded-For header after the
	// User-agent: the "main" log_format nginx's packages ship.
	CombinedXFFSpec = `%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i" "%{X-Forwarded-For}i"`
	// LighttpdSpec is lighttpd's default accesslog.format: combined with
	// the Host the client sent (%V) where combined has the identd answer.
	LighttpdSpec = `%h %V %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i"`
)

// EnvoySpec is Envoy's default access log format, and IstioSpec Istio's,
// in Apache's terms; EnvoyFormat and IstioFormat give their client fields
// their meaning.
const (
	EnvoySpec = `[%{%Y-%m-%dT%H:%M:%S}t.%{msec_frac}tZ] "%r" %>s %{RESPONSE_FLAGS}e %I %O %D %{X-Envoy-Upstream-Service-Time}o "%{X-Forwarded-For}i" "%{User-Agent}i" "%{X-Request-Id}i" "%{Host}i" "%{UPSTREAM_HOST}e"`
	IstioSpec = `[%{%Y-%m-%dT%H:%M:%S}t.%{msec_frac}tZ] "%r" %>s %{RESPONSE_FLAGS}e %{RESPONSE_CODE_DETAILS}e %{CONNECTION_TERMINATION_DETAILS}e "%{UPSTREAM_TRANSPORT_FAILURE_REASON}e" %I %O %D %{X-Envoy-Upstream-Service-Time}o "%{X-Forwarded-For}i" "%{User-Agent}i" "%{X-Request-Id}i" "%{Host}i" "%{UPSTREAM_HOST}e" %{UPSTREAM_CLUSTER}e %{UPSTREAM_LOCAL_ADDRESS}e %{DOWNSTREAM_LOCAL_ADDRESS}e %a %{REQUESTED_SERVER_NAME}e %{ROUTE_NAME}e`
)

// Envoy's default log has no peer address: the client is the right-most
// X-Forwarded-For entry, which Envoy appends when it is the edge (and
// --trust-proxy may walk further left). Istio's logs the peer as
// DOWNSTREAM_REMOTE_ADDRESS, with its port.
var (
	EnvoyFormat = withKind(mustBuiltin("envoy", EnvoySpec, nil), "%{X-Forwarded-For}i", kindClientList)
	IstioFormat = withKind(mustBuiltin("istio", IstioSpec, nil), "%a", kindClientPort)
)

// withKind gives the field written name the kind k.
func withKind(f *Format, name string, k fieldKind) *Format {
	for i := range f.fields {
		if f.fields[i].name == name {
			f.fields[i].kind = k
			return f
		}
	}
	panic("logparse: built-in format " + f.name + " has no field " + name)
}

// Built-in formats. nginx's default "combined" log_format is the same layout
// as Apache's. Common also reads a line that goes on with a quoted referer
// and user agent as Combined does: a log that switched from common to
// combined, or mixes both, keeps every User-agent however detection chose.
// Combined does not fall back to Common the other way: a line that stops
// after the size is reported malformed, since cut lines look like that.
var (
	Common        = withCLF(mustBuiltin("common", CommonSpec, Combined), clfCommon)
	Combined      = withCLF(mustBuiltin("combined", CombinedSpec, nil), clfCombined)
	VHostCombined = mustBuiltin("vhost_combined", VHostCombinedSpec, nil)
	// VHostCommon hands a line with Referer and User-agent after its
	// fields (Fastly's "combined with virtual host") to the same layout
	// with them, under the same name.
	VHostCommon = mustBuiltin("vhost_common", VHostCommonSpec, mustBuiltin("vhost_common", VHostCommonSpec+` "%{Referer}i" "%{User-Agent}i"`, nil))
	CombinedXFF = mustBuiltin("combined_xff", CombinedXFFSpec, nil)
	Lighttpd    = mustBuiltin("lighttpd", LighttpdSpec, nil)
)

// builtins lists the built-in formats from the richest to the plainest, the
// order auto-detection prefers them in. combined_xff before combined: a
// combined line with one more quoted field is nginx's "main", whose last
// field --trust-proxy needs; lighttpd before combined: the same layout, whose
// second field is a host name rather than "-".
var builtins = []*Format{VHostCombined, CombinedXFF, Lighttpd, Combined, Common, VHostCommon, IstioFormat, EnvoyFormat}

// withCLF marks f as the layout l, which parseCLF reads.
func withCLF(f *Format, l clfLayout) *Format {
	f.clf = l
	return f
}

func mustBuiltin(name, spec string, richer *Format) *Format {
	f, err := ParseApacheFormat(spec)
	if err != nil {
		panic("logparse: built-in format " + name + ": " + err.Error())
	}
	f.name, f.richer = name, richer
	return f
}

// FormatNames lists the names FormatByName accepts, "auto" last.
var FormatNames = []string{"common", "combined", "combined_xff", "lighttpd", "vhost_combined", "vhost_common", "envoy", "istio", "json", "w3c", "cloudfront", "alb", "elb", "s3", "haproxy", "squid", "auto"}

// FormatByName returns the built-in format called name ("common" or "clf",
// "combined", "vhost_combined"), or nil for "auto": a nil *Format asks
// NewReader to detect the format from the first lines.
func FormatByName(name string) (*Format, error) {
	lower := strings.ToLower(name)
	for _, prefix := range []string{"cri+", "docker+"} {
		if inner, ok := strings.CutPrefix(lower, prefix); ok {
			// As the summary names a log read inside a container runtime's lines.
			f, err := FormatByName(inner)
			if err != nil || f == nil || f.w3c != nil || f.container != nil {
				return nil, fmt.Errorf("format %q: %s takes a format other than auto, w3c, cri+ and docker+", name, prefix)
			}
			return containerFormat(f, prefix == "docker+"), nil
		}
	}
	if inner, ok := strings.CutPrefix(lower, "syslog+"); ok {
		// As the summary names a log read behind syslog headers.
		f, err := FormatByName(inner)
		if err != nil || f == nil || f.w3c != nil || f.tok != nil || f.syslog != nil || f.container != nil {
			return nil, fmt.Errorf("format %q: syslog+ takes a text format (common, combined, combined_xff, lighttpd, vhost_combined, vhost_common, envoy or istio) or json", name)
		}
		return syslogFormat(f), nil
	}
	switch strings.ToLower(name) {
	case "common", "clf", "ncsa":
		return Common, nil
	case "combined", "nginx":
		return Combined, nil
	case "vhost_combined", "vcombined":
		return VHostCombined, nil
	case "vhost_common":
		return VHostCommon, nil
	case "combined_xff", "main":
		return CombinedXFF, nil
	case "lighttpd":
		return Lighttpd, nil
	case "envoy":
		return EnvoyFormat, nil
	case "istio":
		return IstioFormat, nil
	case "json", "caddy", "traefik":
		return JSONFormat, nil
	case "w3c", "iis":
		return W3CFormat, nil
	case "cloudfront":
		return CloudFrontFormat, nil
	case "alb":
		return ALBFormat, nil
	case "elb":
		return ELBFormat, nil
	case "s3":
		return S3Format, nil
	case "haproxy":
		return HAProxyFormat, nil
	case "squid":
		return SquidFormat, nil
	case "auto", "":
		return nil, nil
	}
	return nil, fmt.Errorf("unknown log format %+q (want one of %s, or an Apache LogFormat or nginx log_format string)",
		name, strings.Join(FormatNames, ", "))
}

// ParseFormat accepts what a user may pass as --format: a built-in name (see
// FormatByName; "auto" gives nil), an Apache LogFormat string (it contains
// '%') or an nginx log_format string (it contains '$').
func ParseFormat(s string) (*Format, error) {
	if f, err := FormatByName(s); err == nil {
		return f, nil
	}
	switch {
	case strings.Contains(s, "%"):
		return ParseApacheFormat(s)
	case strings.Contains(s, "$"):
		return ParseNginxFormat(s)
	}
	return FormatByName(s)
}

// part is one piece of a format string before compilation: a literal (kind
// unused, lit set) or a directive.
type part struct {
	isField bool
	lit     string
	f       field
}

// maxFormatFields bounds a format string; real ones have a few dozen fields.
const maxFormatFields = 256

// ParseApacheFormat compiles an Apache LogFormat string such as
// `%h %l %u %t \"%r\" %>s %b`. It accepts the string as written in
// httpd.conf (with \" for quotes) or already unquoted. Directives robowatch
// has no Record field for (%D, %T, %I, %p, %{X}i, ...) are parsed as opaque
// fields and ignored; a directive Apache does not have (%Q) is an error.
//
// %{format}t with a strftime(3) format (%Y %m %d %e %H %M %S %T %F %D %R
// %b %B %a %A %y %C %j %p %I %z %Z %s ..., in the C locale), with or
// without begin: or end:, fills Record.Time; so do %{sec}t, %{msec}t and
// %{usec}t. Several time fields of one line make one Time: a date, a
// %{msec_frac}t or %{usec_frac}t, a separate %{%z}t. Apache writes such
// times in the server's local zone and, without %z, the line does not say
// which: robowatch reads them as UTC. A time with no year or day (only
// %H:%M:%S) leaves Record.Time zero.
func ParseApacheFormat(spec string) (*Format, error) {
	p := apacheParser{spec: spec}
	for p.i = 0; p.i < len(spec); p.i++ {
		switch c := spec[p.i]; {
		case c == '\\' && p.escape():
		case c != '%':
			p.lit.WriteByte(c)
		default:
			if err := p.directive(); err != nil {
				return nil, err
			}
		}
	}
	p.flush()
	f, err := compile(p.parts)
	if err != nil {
		return nil, fmt.Errorf("apache format %+q: %w", spec, err)
	}
	f.name, f.spec = spec, spec
	return f, nil
}

// apacheParser is ParseApacheFormat's state: the format string, the index
// of the byte being read (each step leaves it on the last byte it took),
// the parts found so far and the literal text not yet in them.
type apacheParser struct {
	spec  string
	i     int
	parts []part
	lit   strings.Builder
}

// flush ends the pending literal text.
func (p *apacheParser) flush() {
	if p.lit.Len() > 0 {
		p.parts = append(p.parts, part{lit: p.lit.String()})
		p.lit.Reset()
	}
}

// escape reads the httpd.conf escape at p.i (\" \\ \t \n), which Apache
// itself interprets, into the literal text; false if there is none.
func (p *apacheParser) escape() bool {
	if p.i+1 >= len(p.spec) {
		return false
	}
	c := p.spec[p.i+1]
	switch c {
	case '"', '\\':
	case 't':
		c = '\t'
	case 'n':
		c = '\n'
	default:
		return false
	}
	p.lit.WriteByte(c)
	p.i++
	return true
}

// directive reads the directive whose '%' is at p.i, or the %% escape.
func (p *apacheParser) directive() error {
	spec, start := p.spec, p.i
	p.i++
	if p.i < len(spec) && spec[p.i] == '%' {
		p.lit.WriteByte('%')
		return nil
	}
	letter, arg, err := p.letterAndArg(start)
	if err != nil {
		return err
	}
	name := spec[start : p.i+1]
	if !apacheDirectives[letter] {
		// Apache refuses such a format too; parsed as opaque, it
		// would shift every field after it.
		return fmt.Errorf("apache format %+q: unknown directive %s at offset %d", spec, EscapeText([]byte(name), 64), start)
	}
	p.flush()
	if letter == "t" {
		return p.time(name, arg)
	}
	fd := field{name: name, kind: apacheKind(letter, arg)}
	if letter == "U" && strings.HasPrefix(spec[p.i+1:], "%q") {
		// %U%q is the usual way to log path and query: one field.
		p.i += 2
		fd.name = name + "%q"
	}
	p.parts = append(p.parts, part{isField: true, f: fd})
	return nil
}

// letterAndArg reads what follows a directive's '%' (at start): modifiers,
// the {argument} and the letter, leaving p.i on the letter's last byte.
func (p *apacheParser) letterAndArg(start int) (letter, arg string, err error) {
	spec := p.spec
	// Modifiers: '<' '>' and status conditions like !200,304.
	for p.i < len(spec) && strings.IndexByte("<>!,0123456789", spec[p.i]) >= 0 {
		p.i++
	}
	if p.i < len(spec) && spec[p.i] == '{' {
		end := strings.IndexByte(spec[p.i:], '}')
		if end < 0 {
			return "", "", fmt.Errorf("apache format %+q: unterminated %%{ at offset %d", spec, start)
		}
		arg = spec[p.i+1 : p.i+end]
		p.i += end + 1
		for p.i < len(spec) && (spec[p.i] == '<' || spec[p.i] == '>') {
			p.i++
		}
	}
	if p.i >= len(spec) {
		return "", "", fmt.Errorf("apache format %+q: directive at offset %d has no letter", spec, start)
	}
	if spec[p.i] == '^' { // %{X}^ti, %{X}^to: trailers
		if p.i+2 >= len(spec) {
			return "", "", fmt.Errorf("apache format %+q: incomplete %%^ directive at offset %d", spec, start)
		}
		p.i += 2
		return spec[p.i-2 : p.i+1], arg, nil
	}
	if !isLetter(spec[p.i]) {
		return "", "", fmt.Errorf("apache format %+q: unknown directive %+q at offset %d", spec, spec[start:p.i+1], start)
	}
	return spec[p.i : p.i+1], arg, nil
}

// time adds the %t directive name with its {argument} arg, as
// mod_log_config reads it: "begin" or "end", then ':' and the format.
func (p *apacheParser) time(name, arg string) error {
	a := arg
	if rest, ok := strings.CutPrefix(a, "begin"); ok {
		a = strings.TrimPrefix(rest, ":")
	} else if rest, ok := strings.CutPrefix(a, "end"); ok {
		a = strings.TrimPrefix(rest, ":")
	}
	fd := field{name: name}
	switch strings.ToLower(a) {
	case "":
		// %t writes its own brackets: [10/Oct/2000:13:55:36 -0700].
		fd.kind = kindTimeCLF
		p.parts = append(p.parts, part{lit: "["}, part{isField: true, f: fd}, part{lit: "]"})
		return nil
	case "sec":
		fd.kind, fd.unit = kindTimeEpoch, unitSec
	case "msec":
		fd.kind, fd.unit = kindTimeEpoch, unitMsec
	case "usec":
		fd.kind, fd.unit = kindTimeEpoch, unitUsec
	case "msec_frac":
		fd.kind, fd.strf = kindTimeStrf, strftimeFormat{{conv: convMsecFrac}}
	case "usec_frac":
		fd.kind, fd.strf = kindTimeStrf, strftimeFormat{{conv: convUsecFrac}}
	default:
		strf, err := compileStrftime(a)
		if err != nil {
			return fmt.Errorf("apache format %+q: %s: %w", p.spec, name, err)
		}
		fd.kind, fd.strf = kindTimeStrf, strf
	}
	p.parts = append(p.parts, part{isField: true, f: fd})
	return nil
}

// apacheKind returns the Record field the directive letter, with its
// {argument} arg, fills; %t is p.time's.
func apacheKind(letter, arg string) fieldKind {
	switch letter {
	case "h", "a":
		if arg == "" || strings.EqualFold(arg, "c") {
			return kindClient
		}
	case "l":
		return kindIdent
	case "u":
		return kindUser
	case "r":
		return kindRequest
	case "m":
		return kindMethod
	case "U":
		return kindTarget
	case "H":
		return kindProtocol
	case "s":
		return kindStatus
	case "b", "B", "O":
		return kindBytes
	case "v", "V":
		return kindVHost
	case "p":
		return kindPort
	case "i":
		return requestHeaderKind[strings.ToLower(arg)]
	case "o":
		if strings.EqualFold(arg, "content-usage") {
			return kindContentUsage
		}
	}
	return kindSkip
}

// requestHeaderKind maps the request headers %{Name}i logs, in lower case,
// to the Record fields they fill.
var requestHeaderKind = map[string]fieldKind{
	"referer":         kindReferer,
	"referrer":        kindReferer,
	"user-agent":      kindUserAgent,
	"host":            kindVHost,
	"x-forwarded-for": kindForwarded,
	"signature":       kindSignature,
	"signature-input": kindSignatureInput,
	"signature-agent": kindSignatureAgent,
}

// apacheDirectives are the letters of mod_log_config, mod_logio (%I %O %S
// %^FB) and mod_ssl (%{X}c %{X}x): those robowatch has no Record field for
// are opaque fields.
var apacheDirectives = map[string]bool{
	"a": true, "A": true, "B": true, "b": true, "C": true, "D": true, "e": true, "f": true, "h": true,
	"H": true, "i": true, "k": true, "l": true, "L": true, "m": true, "n": true, "o": true, "p": true,
	"P": true, "q": true, "r": true, "R": true, "s": true, "t": true, "T": true, "u": true, "U": true,
	"v": true, "V": true, "X": true, "I": true, "O": true, "S": true, "c": true, "x": true,
	"^ti": true, "^to": true, "^FB": true,
}

// nginxVars maps nginx variables to the Record fields they fill; any other
// variable is an opaque field.
var nginxVars = map[string]fieldKind{
	"remote_addr":             kindClient,
	"realip_remote_addr":      kindClient,
	"remote_user":             kindUser,
	"time_local":              kindTimeCLF,
	"time_iso8601":            kindTimeISO,
	"msec":                    kindTimeEpoch,
	"request":                 kindRequest,
	"request_method":          kindMethod,
	"request_uri":             kindTarget,
	"server_protocol":         kindProtocol,
	"status":                  kindStatus,
	"body_bytes_sent":         kindBytes,
	"bytes_sent":              kindBytes,
	"http_referer":            kindReferer,
	"http_x_forwarded_for":    kindForwarded,
	"http_user_agent":         kindUserAgent,
	"host":                    kindVHost,
	"http_host":               kindVHost,
	"server_name":             kindVHost,
	"http_signature":          kindSignature,
	"http_signature_input":    kindSignatureInput,
	"http_signature_agent":    kindSignatureAgent,
	"sent_http_content_usage": kindContentUsage,
}

// ParseNginxFormat compiles an nginx log_format string such as
// `$remote_addr - $remote_user [$time_local] "$request" $status ...`. It also
// accepts the format as written in nginx.conf, a run of single-quoted
// pieces ('$remote_addr - ' '"$request"'), optionally with the escape=
// parameter in front. Variables robowatch has no Record field for
// ($request_time, $upstream_*, $http_x_forwarded_for, ...) are opaque fields.
func ParseNginxFormat(spec string) (*Format, error) {
	src := nginxUnquote(spec)
	var parts []part
	var lit strings.Builder
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c != '$' {
			lit.WriteByte(c)
			continue
		}
		start := i
		var name string
		if i+1 < len(src) && src[i+1] == '{' {
			end := strings.IndexByte(src[i:], '}')
			if end < 0 {
				return nil, fmt.Errorf("nginx format %+q: unterminated ${ at offset %d", spec, start)
			}
			name = src[i+2 : i+end]
			i += end
		} else {
			j := i + 1
			for j < len(src) && (isLetter(src[j]) || src[j] == '_' || src[j] >= '0' && src[j] <= '9') {
				j++
			}
			name = src[i+1 : j]
			i = j - 1
		}
		if name == "" {
			// nginx writes a lone '$' literally.
			lit.WriteByte('$')
			continue
		}
		if lit.Len() > 0 {
			parts = append(parts, part{lit: lit.String()})
			lit.Reset()
		}
		fd := field{kind: nginxVars[strings.ToLower(name)], name: "$" + name}
		if fd.kind == kindTimeEpoch {
			fd.unit = unitSec // $msec is seconds with a millisecond fraction
		}
		parts = append(parts, part{isField: true, f: fd})
	}
	if lit.Len() > 0 {
		parts = append(parts, part{lit: lit.String()})
	}
	f, err := compile(parts)
	if err != nil {
		return nil, fmt.Errorf("nginx format %+q: %w", spec, err)
	}
	f.name, f.spec = spec, spec
	return f, nil
}

// nginxUnquote turns nginx.conf syntax ('a' 'b' or escape=json 'a') into the
// format text, with nginx's escapes decoded as nginx decodes them in any
// token, quoted or not: \t, \r and \n are a tab, CR and LF, \", \' and \\
// the character itself. Text that is not nginx.conf syntax is the format
// itself and has its escapes decoded alike: -f '$remote_addr\t$status'.
func nginxUnquote(s string) string {
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "escape=") {
		if sp := strings.IndexAny(t, " \t"); sp > 0 {
			t = strings.TrimSpace(t[sp:])
		}
	}
	t = strings.TrimSuffix(t, ";")
	// Only single quotes: a format given raw often starts with a '"' of its
	// own ("$request" "$http_user_agent"), which is no nginx.conf quoting.
	if len(t) < 2 || t[0] != '\'' {
		return nginxUnescape(s)
	}
	var b strings.Builder
	for len(t) > 0 {
		t = strings.TrimLeft(t, " \t\r\n")
		if t == "" {
			break
		}
		if t[0] != '\'' {
			return nginxUnescape(s)
		}
		end := 1
		for end < len(t) && t[end] != '\'' {
			if t[end] == '\\' {
				end++ // an escaped quote does not end the piece
			}
			end++
		}
		if end >= len(t) {
			return nginxUnescape(s)
		}
		b.WriteString(nginxUnescape(t[1:end]))
		t = t[end+1:]
	}
	return b.String()
}

// nginxUnescape decodes the backslash escapes nginx's configuration reader
// knows; any other backslash stays as written.
func nginxUnescape(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '"', '\'', '\\':
				c = s[i+1]
				i++
			case 't':
				c = '\t'
				i++
			case 'r':
				c = '\r'
				i++
			case 'n':
				c = '\n'
				i++
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

var errNoFields = errors.New("no fields")

// compile turns the parts of a format string into a Format: it decides which
// fields are quoted and how each field's value ends.
func compile(parts []part) (*Format, error) {
	f := &Format{}
	nfields := 0
	for _, p := range parts {
		if p.isField {
			nfields++
		}
	}
	if nfields == 0 {
		return nil, errNoFields
	}
	if nfields > maxFormatFields {
		return nil, fmt.Errorf("%d fields, more than the %d supported", nfields, maxFormatFields)
	}
	// Merge adjacent literals (Apache's %t expands into "[" field "]").
	var merged []part
	for _, p := range parts {
		if !p.isField && len(merged) > 0 && !merged[len(merged)-1].isField {
			merged[len(merged)-1].lit += p.lit
			continue
		}
		merged = append(merged, p)
	}
	// lits[i] is the literal before field i; lits[nfields] the one after the last.
	lits := make([]string, 0, nfields+1)
	fields := make([]field, 0, nfields)
	pending := ""
	for _, p := range merged {
		if p.isField {
			lits = append(lits, pending)
			pending = ""
			fields = append(fields, p.f)
		} else {
			pending = p.lit
		}
	}
	lits = append(lits, pending)
	// A field is quoted when a '"' opens right before it and one closes right
	// after it; the quotes then belong to the field, not to the literals.
	for i := range fields {
		before, after := lits[i], lits[i+1]
		if strings.HasSuffix(before, `"`) && strings.HasPrefix(after, `"`) {
			fields[i].quoted = true
			lits[i] = before[:len(before)-1]
			lits[i+1] = after[1:]
		}
	}
	for i := range fields {
		// Names go into error messages printed on terminals.
		fields[i].name = EscapeText([]byte(fields[i].name), 64)
	}
	f.prefix = []byte(lits[0])
	f.noAgent, f.noReferer = true, true
	// A layout whose only client is X-Forwarded-For (Apache's
	// "%{X-Forwarded-For}i %l %u %t …", recommended behind a balancer that
	// is the only peer) takes its client from the list.
	hasClient, xff := false, -1
	for i := range fields {
		switch fields[i].kind {
		case kindClient, kindClientPort, kindClientList:
			hasClient = true
		case kindForwarded:
			xff = i
		}
	}
	if !hasClient && xff >= 0 {
		fields[xff].kind = kindClientList
	}
	for i := range fields {
		// A client field too: a layout that writes X-Forwarded-For where
		// %h goes ("198.51.100.7, 10.0.0.5 - - [" in a combined log) is
		// read as the list it is.
		fields[i].list = fields[i].kind == kindForwarded || fields[i].kind == kindClientList || fields[i].kind == kindClient
	}
	for i := range fields {
		fd := &fields[i]
		if fd.kind == kindUserAgent {
			f.noAgent = false
		}
		if fd.kind == kindReferer {
			f.noReferer = false
		}
		fd.after = []byte(lits[i+1])
		fd.last = i+1 == len(fields)
		fd.num = fd.quoted && !fd.last && !fields[i+1].quoted && (fields[i+1].kind == kindStatus || fields[i+1].kind == kindBytes)
		if fd.kind == kindTimeStrf {
			f.strf = true
		}
		if fd.quoted {
			continue
		}
		switch {
		case fd.kind == kindTimeStrf:
			// The strftime format tells where the value ends.
		case len(fd.after) > 0:
			fd.term = fd.after[0]
		case fd.last:
			fd.term = 0
		case fields[i+1].quoted:
			fd.term = '"'
		default:
			return nil, fmt.Errorf("%s and %s have nothing between them to tell where one ends", fd.name, fields[i+1].name)
		}
	}
	f.fields = fields
	return f, nil
}

// withFallbacks returns the detected format f, reading a line it cannot
// read with the other built-in text formats and JSON: a log whose format
// changed after the lines detection saw (a LogFormat change and a reload:
// combined to vhost_combined, nginx to escape=json), or two servers' logs
// concatenated, loses no line that a known format reads. Common is no
// fallback: a combined line cut short reads as Common, and a cut line is
// malformed. Structured layouts (W3C, the balancers') keep their own.
func withFallbacks(f *Format) *Format {
	if f == nil || f.w3c != nil || f.tok != nil || f.syslog != nil || f.container != nil {
		return f
	}
	g := *f
	g.base = f
	for _, alt := range []*Format{VHostCombined, CombinedXFF, Combined, JSONFormat} {
		if alt != f {
			g.fallback = append(g.fallback, alt)
		}
	}
	return &g
}

// own returns the format itself, without the fallbacks detection added.
func (f *Format) own() *Format {
	if f != nil && f.base != nil {
		return f.base
	}
	return f
}
