package logparse

import (
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// want lists the Record fields a test checks; Time is checked as an instant
// and a zone offset.
type want struct {
	Client, Ident, User             string
	Time                            string // RFC 3339, "" for a zero time
	Method, Target, Protocol, Req   string
	Status                          int
	Bytes                           int64
	Referer, UserAgent, VHost, Path string
}

func checkRecord(t *testing.T, got *Record, w want) {
	t.Helper()
	gotTime := ""
	if !got.Time.IsZero() {
		gotTime = got.Time.Format(time.RFC3339Nano)
	}
	fields := []struct {
		name      string
		got, want any
	}{
		{"Client", got.Client, w.Client},
		{"Ident", got.Ident, w.Ident},
		{"User", got.User, w.User},
		{"Time", gotTime, w.Time},
		{"Method", got.Method, w.Method},
		{"Target", got.Target, w.Target},
		{"Protocol", got.Protocol, w.Protocol},
		{"Request", got.Request, w.Req},
		{"Status", got.Status, w.Status},
		{"Bytes", got.Bytes, w.Bytes},
		{"Referer", got.Referer, w.Referer},
		{"UserAgent", got.UserAgent, w.UserAgent},
		{"VHost", got.VHost, w.VHost},
		{"Path()", got.Path(), w.Path},
	}
	for _, f := range fields {
		if f.got != f.want {
			t.Errorf("%s = %#v, want %#v", f.name, f.got, f.want)
		}
	}
}

const ua = "Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0"

func TestParseBuiltinFormats(t *testing.T) {
	tests := []struct {
		name   string
		format *Format
		line   string
		want   want
	}{
		{
			name:   "combined",
			format: Combined,
			line:   `203.0.113.9 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif?x=1 HTTP/1.0" 200 2326 "http://www.example.com/start.html" "` + ua + `"` + "\n",
			want: want{Client: "203.0.113.9", User: "frank", Time: "2000-10-10T13:55:36-07:00", Method: "GET", Target: "/apache_pb.gif?x=1",
				Protocol: "HTTP/1.0", Req: "GET /apache_pb.gif?x=1 HTTP/1.0", Status: 200, Bytes: 2326,
				Referer: "http://www.example.com/start.html", UserAgent: ua, Path: "/apache_pb.gif?x=1"},
		},
		{
			name:   "common with a host name as client (NASA)",
			format: Common,
			line:   `in24.inetnebr.com - - [01/Aug/1995:00:00:01 -0400] "GET /shuttle/missions/sts-68/news/sts-68-mcc-05.txt HTTP/1.0" 200 1839`,
			want: want{Client: "in24.inetnebr.com", Time: "1995-08-01T00:00:01-04:00", Method: "GET", Target: "/shuttle/missions/sts-68/news/sts-68-mcc-05.txt",
				Protocol: "HTTP/1.0", Req: "GET /shuttle/missions/sts-68/news/sts-68-mcc-05.txt HTTP/1.0", Status: 200, Bytes: 1839,
				Path: "/shuttle/missions/sts-68/news/sts-68-mcc-05.txt"},
		},
		{
			name:   "vhost_combined",
			format: VHostCombined,
			line:   `www.example.org:443 198.51.100.7 - - [17/May/2015:10:05:03 +0000] "HEAD / HTTP/2.0" 301 0 "-" "curl/8.5.0"`,
			want: want{VHost: "www.example.org", Client: "198.51.100.7", Time: "2015-05-17T10:05:03Z", Method: "HEAD", Target: "/",
				Protocol: "HTTP/2.0", Req: "HEAD / HTTP/2.0", Status: 301, Bytes: 0, UserAgent: "curl/8.5.0", Path: "/"},
		},
		{
			name:   "IPv6 client",
			format: Combined,
			line:   `2001:db8:85a3::8a2e:370:7334 - - [01/Mar/2024:00:00:00 +0530] "GET /robots.txt HTTP/1.1" 200 120 "-" "Googlebot/2.1"`,
			want: want{Client: "2001:db8:85a3::8a2e:370:7334", Time: "2024-03-01T00:00:00+05:30", Method: "GET", Target: "/robots.txt",
				Protocol: "HTTP/1.1", Req: "GET /robots.txt HTTP/1.1", Status: 200, Bytes: 120, UserAgent: "Googlebot/2.1", Path: "/robots.txt"},
		},
		{
			name:   "dash request, referer, user agent and size",
			format: Combined,
			line:   `192.0.2.1 - - [20/May/2015:21:05:01 +0000] "-" 408 - "-" "-"`,
			want:   want{Client: "192.0.2.1", Time: "2015-05-20T21:05:01Z", Status: 408, Bytes: -1},
		},
		{
			name:   "status logged as dash",
			format: Common,
			line:   `192.0.2.1 - - [20/May/2015:21:05:01 +0000] "GET / HTTP/1.1" - -`,
			want: want{Client: "192.0.2.1", Time: "2015-05-20T21:05:01Z", Method: "GET", Target: "/", Protocol: "HTTP/1.1",
				Req: "GET / HTTP/1.1", Status: 0, Bytes: -1, Path: "/"},
		},
		{
			name:   "empty request",
			format: Combined,
			line:   `192.0.2.1 - - [20/May/2015:21:05:01 +0000] "" 400 0 "-" "-"`,
			want:   want{Client: "192.0.2.1", Time: "2015-05-20T21:05:01Z", Status: 400, Bytes: 0},
		},
		{
			name:   "TLS handshake sent to the HTTP port, nginx escaping",
			format: Combined,
			line:   `192.0.2.1 - - [20/May/2015:21:05:01 +0000] "\x16\x03\x01\x00\xA5\x01\x00\x00\xA1\x03\x03" 400 157 "-" "-"`,
			want:   want{Client: "192.0.2.1", Time: "2015-05-20T21:05:01Z", Req: "\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03", Status: 400, Bytes: 157},
		},
		{
			name:   "garbage with spaces is kept as the request",
			format: Combined,
			line:   `192.0.2.1 - - [20/May/2015:21:05:01 +0000] "\x05\x01 \x00 junk" 400 0 "-" "-"`,
			want:   want{Client: "192.0.2.1", Time: "2015-05-20T21:05:01Z", Req: "\x05\x01 \x00 junk", Status: 400, Bytes: 0},
		},
		{
			name:   "escaped quotes and backslashes (Apache)",
			format: Combined,
			line:   `192.0.2.1 - - [20/May/2015:21:05:01 +0000] "GET /a\"b\\c HTTP/1.1" 404 9 "http://x/\"q\"" "say \"hi\" \\o/"`,
			want: want{Client: "192.0.2.1", Time: "2015-05-20T21:05:01Z", Method: "GET", Target: `/a"b\c`, Protocol: "HTTP/1.1",
				Req: `GET /a"b\c HTTP/1.1`, Status: 404, Bytes: 9, Referer: `http://x/"q"`, UserAgent: `say "hi" \o/`, Path: `/a"b\c`},
		},
		{
			name:   "escaped backslash in the target (NASA line 11515)",
			format: Common,
			line:   `edams.ksc.nasa.gov - - [01/Aug/1995:08:32:09 -0400] "GET /\\yahoo.com HTTP/1.0" 404 -`,
			want: want{Client: "edams.ksc.nasa.gov", Time: "1995-08-01T08:32:09-04:00", Method: "GET", Target: `/\yahoo.com`,
				Protocol: "HTTP/1.0", Req: `GET /\yahoo.com HTTP/1.0`, Status: 404, Bytes: -1, Path: `/\yahoo.com`},
		},
		{
			name:   "nginx \\x22 for a quote, Apache \\xHH for non-ASCII bytes",
			format: Combined,
			line:   `192.0.2.1 - - [19/May/2015:11:05:10 +0000] "GET /files/ HTTP/1.0" 200 13316 "http://\xe4\xe5.\xf0\xf4/" "a\x22b\x1b[31m"`,
			want: want{Client: "192.0.2.1", Time: "2015-05-19T11:05:10Z", Method: "GET", Target: "/files/", Protocol: "HTTP/1.0",
				Req: "GET /files/ HTTP/1.0", Status: 200, Bytes: 13316, Referer: "http://\xe4\xe5.\xf0\xf4/", UserAgent: "a\"b\x1b[31m", Path: "/files/"},
		},
		{
			name:   "target with spaces",
			format: Combined,
			line:   `192.0.2.1 - - [20/May/2015:21:05:01 +0000] "GET /a b  c HTTP/1.1" 404 0 "-" "-"`,
			want: want{Client: "192.0.2.1", Time: "2015-05-20T21:05:01Z", Method: "GET", Target: "/a b  c", Protocol: "HTTP/1.1",
				Req: "GET /a b  c HTTP/1.1", Status: 404, Bytes: 0, Path: "/a b  c"},
		},
		{
			name:   "HTTP/0.9: no protocol",
			format: Common,
			line:   `columbia.acc.brad.ac.uk - - [01/Aug/1995:00:34:55 -0400] "GET /ksc.html" 200 7280`,
			want: want{Client: "columbia.acc.brad.ac.uk", Time: "1995-08-01T00:34:55-04:00", Method: "GET", Target: "/ksc.html",
				Req: "GET /ksc.html", Status: 200, Bytes: 7280, Path: "/ksc.html"},
		},
		{
			name:   "absolute-URI target (proxy request)",
			format: Combined,
			line:   `192.0.2.1 - - [20/May/2015:21:05:01 +0000] "GET http://example.com:8080/a/b?c=d HTTP/1.1" 200 1 "-" "-"`,
			want: want{Client: "192.0.2.1", Time: "2015-05-20T21:05:01Z", Method: "GET", Target: "http://example.com:8080/a/b?c=d",
				Protocol: "HTTP/1.1", Req: "GET http://example.com:8080/a/b?c=d HTTP/1.1", Status: 200, Bytes: 1, Path: "/a/b?c=d"},
		},
		{
			name:   "CONNECT with an authority target",
			format: Combined,
			line:   `192.0.2.1 - - [20/May/2015:21:05:01 +0000] "CONNECT example.com:443 HTTP/1.1" 405 0 "-" "-"`,
			want: want{Client: "192.0.2.1", Time: "2015-05-20T21:05:01Z", Method: "CONNECT", Target: "example.com:443",
				Protocol: "HTTP/1.1", Req: "CONNECT example.com:443 HTTP/1.1", Status: 405, Bytes: 0, Path: "example.com:443"},
		},
		{
			name:   "CRLF line end",
			format: Combined,
			line:   "192.0.2.1 - - [20/May/2015:21:05:01 +0000] \"GET / HTTP/1.1\" 200 1 \"-\" \"x\"\r\n",
			want: want{Client: "192.0.2.1", Time: "2015-05-20T21:05:01Z", Method: "GET", Target: "/", Protocol: "HTTP/1.1",
				Req: "GET / HTTP/1.1", Status: 200, Bytes: 1, UserAgent: "x", Path: "/"},
		},
		{
			name:   "invalid UTF-8 and NUL bytes written raw",
			format: Combined,
			line:   "192.0.2.1 - - [20/May/2015:21:05:01 +0000] \"GET /\xff\xfe HTTP/1.1\" 200 1 \"-\" \"bad\x00ua\xc3\x28\"",
			want: want{Client: "192.0.2.1", Time: "2015-05-20T21:05:01Z", Method: "GET", Target: "/\xff\xfe", Protocol: "HTTP/1.1",
				Req: "GET /\xff\xfe HTTP/1.1", Status: 200, Bytes: 1, UserAgent: "bad\x00ua\xc3\x28", Path: "/\xff\xfe"},
		},
		{
			name:   "fields appended after combined are tolerated",
			format: Combined,
			line:   `192.0.2.1 - - [20/May/2015:21:05:01 +0000] "GET / HTTP/1.1" 200 1 "-" "x" "203.0.113.5, 10.0.0.1" rt=0.003`,
			want: want{Client: "192.0.2.1", Time: "2015-05-20T21:05:01Z", Method: "GET", Target: "/", Protocol: "HTTP/1.1",
				Req: "GET / HTTP/1.1", Status: 200, Bytes: 1, UserAgent: "x", Path: "/"},
		},
		{
			name:   "unescaped quote inside the request (old Apache)",
			format: Combined,
			line:   `192.0.2.1 - - [20/May/2015:21:05:01 +0000] "GET /a"b HTTP/1.0" 404 0 "-" "x"`,
			want: want{Client: "192.0.2.1", Time: "2015-05-20T21:05:01Z", Method: "GET", Target: `/a"b`, Protocol: "HTTP/1.0",
				Req: `GET /a"b HTTP/1.0`, Status: 404, Bytes: 0, UserAgent: "x", Path: `/a"b`},
		},
		{
			name:   "identd and user, escaped",
			format: Common,
			line:   `192.0.2.1 ident al\x20ice [20/May/2015:21:05:01 +0000] "OPTIONS * HTTP/1.1" 200 0`,
			want: want{Client: "192.0.2.1", Ident: "ident", User: "al ice", Time: "2015-05-20T21:05:01Z", Method: "OPTIONS", Target: "*",
				Protocol: "HTTP/1.1", Req: "OPTIONS * HTTP/1.1", Status: 200, Bytes: 0, Path: "*"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rec Record
			if err := tt.format.Parse([]byte(tt.line), &rec); err != nil {
				t.Fatalf("Parse: %v", err)
			}
			checkRecord(t, &rec, tt.want)
		})
	}
}

func TestParseMalformed(t *testing.T) {
	const head = `192.0.2.1 - - [20/May/2015:21:05:01 +0000] `
	tests := []struct {
		name   string
		format *Format
		line   string
		err    error
		column int
	}{
		{"empty line", Combined, "\n", ErrEmptyLine, 0},
		{"CR only", Combined, "\r\n", ErrEmptyLine, 0},
		{"user agent without closing quote (elastic line 8899)", Combined,
			`46.118.127.106 - - [20/May/2015:12:05:17 +0000] "GET /x HTTP/1.1" 200 235 "-" "Mozilla/5.0 (compatible; Googlebot/2.1`, ErrQuote, 79},
		// The request closes at the first quote followed by a space; what follows then fails.
		{"request without closing quote", Combined, head + `"GET / HTTP/1.1 200 1 "-" "x`, ErrMismatch, 70},
		{"escaped quote does not close", Combined, head + `"GET / HTTP/1.1" 200 1 "-" "x\"`, ErrQuote, 71},
		{"bad month", Combined, `192.0.2.1 - - [20/Mai/2015:21:05:01 +0000] "GET / HTTP/1.1" 200 1 "-" "x"`, ErrTime, 16},
		{"bad day", Combined, `192.0.2.1 - - [31/Apr/2015:21:05:01 +0000] "GET / HTTP/1.1" 200 1 "-" "x"`, ErrTime, 16},
		{"no zone", Combined, `192.0.2.1 - - [20/May/2015:21:05:01] "GET / HTTP/1.1" 200 1 "-" "x"`, ErrTime, 16},
		{"status not a number", Combined, head + `"GET / HTTP/1.1" OK 1 "-" "x"`, ErrStatus, 61},
		{"size not a number", Combined, head + `"GET / HTTP/1.1" 200 1k "-" "x"`, ErrBytes, 65},
		{"common line for combined", Combined, head + `"GET / HTTP/1.1" 200 1`, ErrMismatch, 65},
		{"no brackets", Common, `192.0.2.1 - - 20/May/2015:21:05:01 +0000 "GET / HTTP/1.1" 200 1`, ErrMismatch, 14},
		{"text glued to the last field", Combined, head + `"GET / HTTP/1.1" 200 1 "-" "x"y`, ErrQuote, 71},
		{"binary garbage", Combined, "\x00\x01\x02\xff\xfe", ErrMismatch, 1},
		{"vhost line for combined", Combined, `example.com:80 192.0.2.1 - - [20/May/2015:21:05:01 +0000] "GET / HTTP/1.1" 200 1 "-" "x"`, ErrMismatch, 27},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rec Record
			err := tt.format.Parse([]byte(tt.line), &rec)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse = %v, want a *ParseError", err)
			}
			if !errors.Is(err, tt.err) {
				t.Errorf("Parse = %v, want %v", err, tt.err)
			}
			if pe.Column != tt.column {
				t.Errorf("Column = %d, want %d (%v)", pe.Column, tt.column, err)
			}
			for _, c := range []byte(pe.Text) {
				if c < 0x20 || c >= 0x7f {
					t.Fatalf("Text %q holds a byte that is not printable ASCII", pe.Text)
				}
			}
		})
	}
}

func TestParseErrorText(t *testing.T) {
	line := "\x1b]0;owned\x07" + strings.Repeat("x", 300)
	var rec Record
	err := Combined.Parse([]byte(line), &rec)
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("Parse = %v, want a *ParseError", err)
	}
	pe.File, pe.Line = "access.log", 7
	wantText := `\x1b]0;owned\x07` + strings.Repeat("x", MaxTextBytes-len("\x1b]0;owned\x07")) + "..."
	if pe.Text != wantText {
		t.Errorf("Text = %q, want %q", pe.Text, wantText)
	}
	if got := pe.Error(); !strings.HasPrefix(got, "access.log:7:1: line does not match the format") || strings.ContainsAny(got, "\x1b\x07") {
		t.Errorf("Error() = %q", got)
	}
}

// TestLineText: a malformed line is shown as the file shows it, escaped
// once: its control and non-ASCII bytes as \xHH, its quotes and
// backslashes (an Apache line's \" and \xHH escapes) as they are, where
// EscapeText, made for text between quotes, escapes them again.
func TestLineText(t *testing.T) {
	tests := []struct{ in, line, quoted string }{
		{`GET / HTTP/1.1`, `GET / HTTP/1.1`, `GET / HTTP/1.1`},
		{`"GET /x HTTP/1.1" 200 1 "-" "no end`, `"GET /x HTTP/1.1" 200 1 "-" "no end`, `\"GET /x HTTP/1.1\" 200 1 \"-\" \"no end`},
		{`"a \"quoted\" UA \x1b"`, `"a \"quoted\" UA \x1b"`, `\"a \\\"quoted\\\" UA \\x1b\"`},
		{"\x1b[2J\r\n\t\x00\x7f caf\xc3\xa9", `\x1b[2J\x0d\x0a\x09\x00\x7f caf\xc3\xa9`, `\x1b[2J\x0d\x0a\x09\x00\x7f caf\xc3\xa9`},
	}
	for _, tt := range tests {
		if got := LineText([]byte(tt.in), MaxTextBytes); got != tt.line {
			t.Errorf("LineText(%q) = %q, want %q", tt.in, got, tt.line)
		}
		if got := EscapeText([]byte(tt.in), MaxTextBytes); got != tt.quoted {
			t.Errorf("EscapeText(%q) = %q, want %q", tt.in, got, tt.quoted)
		}
	}
	if got := LineText([]byte(`"`+strings.Repeat("x", 200)), 8); got != `"xxxxxxx...` {
		t.Errorf("LineText cut = %q", got)
	}
	// The reader's sample of a malformed Apache line.
	line := `192.0.2.1 - - [20/May/2015:21:05:01 +0000] "GET / HTTP/1.1" 200 1 "-" "say \"hi\" \x1b`
	_, st := readText(t, line+"\n", Combined)
	if len(st.Samples) != 1 || st.Samples[0].Text != line {
		t.Errorf("samples %v, want one with Text %q", st.Samples, line)
	}
}

func TestParseReusesRecord(t *testing.T) {
	var rec Record
	full := `192.0.2.1 ident bob [20/May/2015:21:05:01 +0000] "GET / HTTP/1.1" 200 1 "http://r/" "x"`
	if err := Combined.Parse([]byte(full), &rec); err != nil {
		t.Fatal(err)
	}
	rec.File, rec.Line = "f", 3
	if err := Common.Parse([]byte(`192.0.2.2 - - [20/May/2015:21:05:01 +0000] "-" 400 -`), &rec); err != nil {
		t.Fatal(err)
	}
	checkRecord(t, &rec, want{Client: "192.0.2.2", Time: "2015-05-20T21:05:01Z", Status: 400, Bytes: -1})
	if rec.File != "f" || rec.Line != 3 {
		t.Errorf("File, Line = %q, %d; Parse must leave them to the caller", rec.File, rec.Line)
	}
}

func TestParseStringsDoNotAliasInput(t *testing.T) {
	line := []byte(`192.0.2.1 - - [20/May/2015:21:05:01 +0000] "GET /a HTTP/1.1" 200 1 "-" "agent"`)
	var rec Record
	if err := Combined.Parse(line, &rec); err != nil {
		t.Fatal(err)
	}
	for i := range line {
		line[i] = 'z'
	}
	if rec.UserAgent != "agent" || rec.Target != "/a" {
		t.Errorf("record changed with its input buffer: %+v", rec)
	}
}

func TestPath(t *testing.T) {
	tests := []struct{ target, want string }{
		{"", ""},
		{"/", "/"},
		{"/a?b", "/a?b"},
		{"http://host/a?b", "/a?b"},
		{"HTTPS://host:443/x/y", "/x/y"},
		{"http://host", "/"},
		{"http://host?q=1", "/?q=1"},
		{"http://user@host/p", "/p"},
		{"*", "*"},
		{"example.com:443", "example.com:443"},
		{"//host/a", "//host/a"},
		{"1http://x/a", "1http://x/a"},
	}
	for _, tt := range tests {
		r := Record{Target: tt.target}
		if got := r.Path(); got != tt.want {
			t.Errorf("Path() of %q = %q, want %q", tt.target, got, tt.want)
		}
	}
}

func TestUnescape(t *testing.T) {
	tests := []struct{ in, want string }{
		{`plain`, "plain"},
		{`\"q\"`, `"q"`},
		{`a\\b`, `a\b`},
		{`\x16\x03\x01`, "\x16\x03\x01"},
		{`\xE4\xe5`, "\xe4\xe5"},
		{`\n\r\t\b\v`, "\n\r\t\b\v"},
		{`\q`, `\q`},
		{`\x4`, `\x4`},
		{`\xzz`, `\xzz`},
		{`end\`, `end\`},
	}
	for _, tt := range tests {
		if got := Unescape(tt.in); got != tt.want {
			t.Errorf("Unescape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseTimes(t *testing.T) {
	tests := []struct {
		layout, in string
		want       string // RFC 3339 with zone; "" = invalid
		zone       string
	}{
		{"clf", "10/Oct/2000:13:55:36 -0700", "2000-10-10T13:55:36-07:00", "-0700"},
		{"clf", "29/Feb/2024:23:59:59 +0000", "2024-02-29T23:59:59Z", "UTC"},
		{"clf", "01/jan/1970:00:00:00 +1345", "1970-01-01T00:00:00+13:45", "+1345"},
		{"clf", "29/Feb/2023:00:00:00 +0000", "", ""},
		{"clf", "10/Oct/2000:24:00:00 -0700", "", ""},
		{"clf", "10/Oct/2000:13:55:36 -07:00", "", ""},
		{"clf", "1/Oct/2000:13:55:36 -0700", "", ""},
		{"clf", "10/Oct/2000:13:55:36 +0060", "", ""},
		{"iso", "2000-10-10T13:55:36+02:00", "2000-10-10T13:55:36+02:00", "+0200"},
		{"iso", "2000-10-10T13:55:36Z", "2000-10-10T13:55:36Z", "UTC"},
		{"iso", "2000-10-10T13:55:36.250-0330", "2000-10-10T13:55:36.25-03:30", "-0330"},
		{"iso", "2000-13-10T13:55:36Z", "", ""},
		{"iso", "2000-10-10T13:55:36", "", ""},
		{"iso", "2000-10-10T13:55:36.Z", "", ""},
	}
	for _, tt := range tests {
		var got time.Time
		var ok bool
		if tt.layout == "clf" {
			got, ok = parseCLFTime([]byte(tt.in))
		} else {
			got, ok = parseISOTime([]byte(tt.in))
		}
		if tt.want == "" {
			if ok {
				t.Errorf("%s %q = %v, want invalid", tt.layout, tt.in, got)
			}
			continue
		}
		if !ok {
			t.Errorf("%s %q: invalid, want %s", tt.layout, tt.in, tt.want)
			continue
		}
		if s := got.Format(time.RFC3339Nano); s != tt.want {
			t.Errorf("%s %q = %s, want %s", tt.layout, tt.in, s, tt.want)
		}
		if name, _ := got.Zone(); name != tt.zone {
			t.Errorf("%s %q: zone %q, want %q", tt.layout, tt.in, name, tt.zone)
		}
	}
}

// TestCLFTimeMatchesTimeParse checks the hand-written parser against
// time.Parse on random valid timestamps.
func TestCLFTimeMatchesTimeParse(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	const layout = "02/Jan/2006:15:04:05 -0700"
	for range 5000 {
		sec := rng.Int64N(4102444800) // 1970..2100
		off := (rng.IntN(28*60+1) - 14*60) * 60
		want := time.Unix(sec, 0).In(time.FixedZone("", off))
		s := want.Format(layout)
		got, ok := parseCLFTime([]byte(s))
		if !ok || !got.Equal(want) {
			t.Fatalf("parseCLFTime(%q) = %v, %v; want %v", s, got, ok, want)
		}
		if _, o := got.Zone(); o != off {
			t.Fatalf("parseCLFTime(%q): offset %d, want %d", s, o, off)
		}
	}
}

func TestParseEpochTime(t *testing.T) {
	tests := []struct {
		in   string
		unit int
		want time.Time
		ok   bool
	}{
		{"1700000000.123", unitSec, time.Unix(1700000000, 123e6).UTC(), true},
		{"1700000000", unitSec, time.Unix(1700000000, 0).UTC(), true},
		{"1700000000123", unitMsec, time.Unix(1700000000, 123e6).UTC(), true},
		{"1700000000123456", unitUsec, time.Unix(1700000000, 123456e3).UTC(), true},
		{"17000.0000.1", unitSec, time.Time{}, false},
		{"", unitSec, time.Time{}, false},
		{"12345678901234567890", unitSec, time.Time{}, false},
	}
	for _, tt := range tests {
		got, ok := parseEpochTime([]byte(tt.in), tt.unit)
		if ok != tt.ok || !got.Equal(tt.want) {
			t.Errorf("parseEpochTime(%q, %d) = %v, %v; want %v, %v", tt.in, tt.unit, got, ok, tt.want, tt.ok)
		}
	}
}

// TestClientAddressCanonical: one host is one client however the server
// wrote its address (RFC 5952), in every format.
func TestClientAddressCanonical(t *testing.T) {
	tests := []struct{ in, want string }{
		{"2001:db8::99", "2001:db8::99"},
		{"2001:db8:0:0:0:0:0:99", "2001:db8::99"},
		{"2001:DB8::99", "2001:db8::99"},
		{"2001:0db8:0000:0000:0000:0000:0000:0099", "2001:db8::99"},
		{"0:0:0:0:0:0:0:1", "::1"},
		{"::ffff:203.0.113.9", "203.0.113.9"},
		{"fe80::1%eth0", "fe80::1"},
		{"FE80::1%eth0", "fe80::1"},
		{"fe80:0:0:0:0:0:0:1%2", "fe80::1"},
		{"203.0.113.9", "203.0.113.9"},
		{"crawl-66-249-66-1.googlebot.com", "crawl-66-249-66-1.googlebot.com"},
		{"not:an:address", "not:an:address"},
		{"", ""},
	}
	for _, tt := range tests {
		line := tt.in + ` - - [10/Mar/2024:08:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "curl/8.0"`
		if tt.in == "" {
			line = `- - - [10/Mar/2024:08:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "curl/8.0"`
		}
		var rec Record
		if err := Combined.Parse([]byte(line), &rec); err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if rec.Client != tt.want {
			t.Errorf("combined %q: client %q, want %q", tt.in, rec.Client, tt.want)
		}
	}
	// JSON and W3C too.
	var rec Record
	if err := Detect([][]byte{[]byte(`{"remote_addr":"2001:DB8:0:0::7","time_local":"10/Mar/2024:08:00:00 +0000","request":"GET / HTTP/1.1","status":200}`)}).Parse(
		[]byte(`{"remote_addr":"2001:DB8:0:0::7","time_local":"10/Mar/2024:08:00:00 +0000","request":"GET / HTTP/1.1","status":200}`), &rec); err != nil || rec.Client != "2001:db8::7" {
		t.Errorf("json: client %q, err %v", rec.Client, err)
	}
	r := NewReader(strings.NewReader("#Fields: date time c-ip cs-method cs-uri-stem sc-status\n2024-03-10 08:00:00 2001:db8:0:0:0:0:0:5 GET / 200\n"), "iis.log", nil)
	for {
		var rec Record
		err := r.Read(&rec)
		if err == io.EOF {
			break
		}
		if err == nil && rec.Client != "2001:db8::5" {
			t.Errorf("w3c: client %q", rec.Client)
		}
	}
}

// TestBracketTimes: where %t goes, servers also write CLF with a fraction
// of a second (Apache's msec_frac example), ISO 8601 (nginx's
// [$time_iso8601]), CLF without a zone (Python's http.server) and RFC 1123
// (Node morgan's default): all read as the combined format, detected.
func TestBracketTimes(t *testing.T) {
	tests := []struct{ in, want string }{
		{"10/Mar/2024:08:00:00 +0100", "2024-03-10T08:00:00+01:00"},
		{"10/Mar/2024:08:00:00.123 +0100", "2024-03-10T08:00:00.123+01:00"},
		{"10/Mar/2024:08:00:00.123456789 -0500", "2024-03-10T08:00:00.123456789-05:00"},
		{"2024-03-10T08:00:01+01:00", "2024-03-10T08:00:01+01:00"},
		{"2024-03-10T08:00:01.5Z", "2024-03-10T08:00:01.5Z"},
		{"10/Mar/2024 08:00:00", "2024-03-10T08:00:00Z"},          // Python's http.server
		{"Sun, 10 Mar 2024 08:00:00 GMT", "2024-03-10T08:00:00Z"}, // Node morgan's default
		{"10/Mar/2024 25:00:00", ""},
		{"Sun, 10 Mar 2024 08:00:00", ""},
		{"10/Mar/2024:08:00:00. +0100", ""},
		{"10/Mar/2024:08:00:00.1234567890 +0100", ""},
		{"10/Mar/2024:08:00:00.12 +01", ""},
		{"yesterday", ""},
	}
	for _, tt := range tests {
		line := `203.0.113.9 - - [` + tt.in + `] "GET / HTTP/1.1" 200 5 "-" "curl/8.0"`
		var rec Record
		err := Combined.Parse([]byte(line), &rec)
		switch {
		case tt.want == "" && err == nil:
			t.Errorf("%q: read as %v, want a malformed line", tt.in, rec.Time)
		case tt.want != "" && (err != nil || rec.Time.Format(time.RFC3339Nano) != tt.want):
			t.Errorf("%q: %v, %v; want %s", tt.in, rec.Time.Format(time.RFC3339Nano), err, tt.want)
		}
	}
	if f := Detect([][]byte{[]byte(`203.0.113.9 - - [2024-03-10T08:00:01+01:00] "GET / HTTP/1.1" 200 5 "-" "curl/8.0"`)}); f == nil || f.Name() != "combined" {
		t.Errorf("[$time_iso8601] layout detected as %v, want combined", f)
	}
}

// TestJSONWallTime: Caddy's time_format wall and wall_milli
// ("2024/03/10 08:00:00.123", no zone: UTC) are read.
func TestJSONWallTime(t *testing.T) {
	for in, want := range map[string]string{
		"2024/03/10 08:00:00.123": "2024-03-10T08:00:00.123Z",
		"2024/03/10 08:00:00":     "2024-03-10T08:00:00Z",
	} {
		got, ok := parseAnyTime([]byte(in))
		if !ok || got.Format(time.RFC3339Nano) != want {
			t.Errorf("parseAnyTime(%q) = %v, %v; want %s", in, got, ok, want)
		}
	}
	if _, ok := parseAnyTime([]byte("2024/13/10 08:00:00")); ok {
		t.Errorf("month 13 read as a time")
	}
}
