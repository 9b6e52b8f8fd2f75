package logparse

import (
	"bytes"
	"errors"
	"io"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fuzzFormats are the formats FuzzParseLine picks from.
var fuzzFormats = []*Format{
	Combined, Common, VHostCombined, CombinedXFF, syslogFormat(Combined), HAProxyFormat,
	containerFormat(Combined, false), containerFormat(JSONFormat, true),
	containerFormat(Combined, true), containerFormat(JSONFormat, false), ALBFormat, ELBFormat,
	mustFormat(`$host $remote_addr [$time_iso8601] "$request" $status $bytes_sent "$http_user_agent" rt=$request_time`),
	mustFormat(`%a %l %u %t "%m %U%q %H" %>s %B %D "%{Referer}i" "%{User-Agent}i"`),
	mustFormat(`$msec $remote_addr "$request" $status`),
}

func mustFormat(spec string) *Format {
	f, err := ParseFormat(spec)
	if err != nil {
		panic(err)
	}
	return f
}

// realSeedLines returns some lines of each excerpt in testdata/logs.
func realSeedLines(f *testing.F) [][]byte {
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "logs", "*.log"))
	var out [][]byte
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for i, l := range bytes.SplitAfter(data, []byte("\n")) {
			if i%25 == 0 || bytes.Contains(l, []byte(`\`)) || !bytes.HasSuffix(bytes.TrimSpace(l), []byte(`"`)) {
				out = append(out, l)
			}
		}
	}
	return out
}

var edgeSeedLines = []string{
	`192.0.2.1 - - [20/May/2015:21:05:01 +0000] "\x16\x03\x01\x00\xa5" 400 157 "-" "-"`,
	`192.0.2.1 - - [20/May/2015:21:05:01 +0000] "GET /a\"b\\c HTTP/1.1" 404 9 "x\"" "say \"hi\""`,
	`2001:db8::1 - - [20/May/2015:21:05:01 +0000] "GET http://h/a b HTTP/1.1" 200 - "" ""` + "\r\n",
	`www.example.org:443 198.51.100.7 - - [17/May/2015:10:05:03 +0000] "HEAD / HTTP/2.0" 301 0 "-" "curl/8.5.0"`,
	`example.com 192.0.2.1 [2024-03-10T08:00:00+01:00] "GET / HTTP/1.1" 502 157 "ua" rt=0.004`,
	`1700000000.250 192.0.2.1 "GET /x" 200`,
	"\x00\xff\xfe\n\n",
	`192.0.2.1 - - [20/May/2015:21:05:01 +0000] "GET / HTTP/1.1" 200 1 "-" "x" "203.0.113.1"`,
	`2024-05-06T07:00:01.123456789Z stdout F 192.0.2.1 - - [20/May/2015:21:05:01 +0000] "GET / HTTP/1.1" 200 1 "-" "x"`,
	`{"log":"{"remote_addr":"192.0.2.1","request":"GET / HTTP/1.1","status":200}
","stream":"stdout","time":"2024-05-06T07:00:01Z"}`,
	`{"log":"{\"remote_addr\":\"fe80::1%eth0\",\"request\":\"GET / HTTP/1.1\",\"status\":200,\"ua\":\"a\\u0000\"}\n","stream":"stdout","time":"2024-05-06T07:00:01Z"}`,
	`{"log":"192.0.2.1 - - [20/May/2015:21:05:01 +0000] \"GET / HTTP/1.1\" 200 1 \"-\" \"x\\\\\"","stream":"stderr","time":"2024-05-06T07:00:01Z"}`,
	`2024-05-06T07:00:01.123456789Z stderr P:x {"cliIP":"[2001:db8::7]:443","reqTimeSec":"1573840000","reqPath":"/a","queryStr":"b=1","UA":"Mozilla%2F5.0+%0A%1B%5B31m","referer":"https%3A%2F%2Fe%00"}`,
	`2024-05-06T07:00:01.123456789Z stdout F {"cliIP":"[2001:db8::7]:443","reqTimeSec":"1573840000","reqPath":"/a?c","queryStr":"b=1","UA":"Mozilla%2F5.0+%0A%1B%5B31m","referer":"https%3A%2F%2Fe%00"}`,
	`2024-05-06T07:00:01Z stdout F:x `,
	`http 2024-05-06T07:00:01.186641Z app/lb/50dc [2001:db8::7]:2817 [fe80::1%eth0]:80 0.000 0.001 0.000 200 200 34 5120 "GET http://[::1]:80/ HTTP/1.1" "ua" - -`,
	`2024-05-06T07:00:01.945958Z lb [2001:db8::7 x]:2817 10.0.0.1:80 0.1 0.1 0.1 200 200 0 5 "GET http://h/ HTTP/1.1" "ua" - -`,
}

// checkParsed asserts what holds for every line, parsed or not.
func checkParsed(t *testing.T, line []byte, rec *Record, err error) {
	if err != nil {
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("Parse returned %T %v, want *ParseError", err, err)
		}
		if pe.Column < 0 || pe.Column > len(line)+1 {
			t.Fatalf("Column %d outside a %d-byte line", pe.Column, len(line))
		}
		for _, c := range []byte(pe.Text + pe.Error()) {
			if c < 0x20 || c >= 0x7f {
				t.Fatalf("error text holds byte %#x: %q", c, pe.Error())
			}
		}
		return
	}
	if a, err := netip.ParseAddr(rec.Client); err == nil && a.Unmap().WithZone("").String() != rec.Client {
		t.Fatalf("client %q is not written canonically", rec.Client)
	}
	if rec.Status < 0 || rec.Bytes < -1 {
		t.Fatalf("Status %d, Bytes %d", rec.Status, rec.Bytes)
	}
	if rec.Method != "" && rec.Request != "" { // formats with %m %U %H have no Request
		if !strings.HasPrefix(rec.Request, rec.Method+" ") || !strings.Contains(rec.Request, rec.Target) ||
			!strings.HasSuffix(rec.Request, rec.Protocol) || rec.Target == "" {
			t.Fatalf("request %q split into %q %q %q", rec.Request, rec.Method, rec.Target, rec.Protocol)
		}
	}
	if p := rec.Path(); !strings.HasSuffix(rec.Target, strings.TrimPrefix(p, "/")) {
		t.Fatalf("Path() %q is not the end of target %q", p, rec.Target)
	}
}

func FuzzParseLine(f *testing.F) {
	for i, l := range realSeedLines(f) {
		f.Add(uint8(i), l)
	}
	for i, l := range edgeSeedLines {
		f.Add(uint8(i), []byte(l))
	}
	f.Fuzz(func(t *testing.T, which uint8, line []byte) {
		format := fuzzFormats[int(which)%len(fuzzFormats)]
		var rec, again Record
		err := format.Parse(line, &rec)
		checkParsed(t, line, &rec, err)
		err2 := format.Parse(line, &again)
		if (err == nil) != (err2 == nil) || !sameRecord(rec, again) {
			t.Fatalf("Parse is not deterministic")
		}

		// The Reader gives one record or one ParseError per line, and the
		// same result as Parse for each.
		r := NewReader(bytes.NewReader(line), "fuzz", format)
		r.MaxLineBytes = 512
		// CR, LF, CRLF and CR CR LF end lines (see lineEnds).
		lines := bytes.SplitAfter([]byte(refLineEnds(string(line))), []byte("\n"))
		if len(lines[len(lines)-1]) == 0 {
			lines = lines[:len(lines)-1]
		}
		for i, l := range lines {
			var got, want Record
			gotErr := r.Read(&got)
			if len(TrimEOL(l)) > 512 {
				if !errors.Is(gotErr, ErrLineTooLong) {
					t.Fatalf("line %d: %v, want line too long", i+1, gotErr)
				}
				continue
			}
			if i == 0 {
				l = bytes.TrimPrefix(l, []byte("\xef\xbb\xbf"))
			}
			wantErr := format.Parse(l, &want)
			want.File, want.Line = "fuzz", int64(i+1)
			if (gotErr == nil) != (wantErr == nil) || !sameRecord(got, want) {
				t.Fatalf("line %d: Reader gave %+v, %v; Parse gave %+v, %v", i+1, got, gotErr, want, wantErr)
			}
		}
		if err := r.Read(&rec); err != io.EOF {
			t.Fatalf("after %d lines: %v, want EOF", len(lines), err)
		}
		st := r.Stats()
		if st.Lines != int64(len(lines)) || st.Records+st.Malformed != st.Lines {
			t.Fatalf("Stats %+v for %d lines", st, len(lines))
		}
	})
}

// fuzzFormatString checks a format-string parser: it never panics, and a
// Format it accepts parses any line without panicking.
func fuzzFormatString(t *testing.T, parse func(string) (*Format, error), spec string, line []byte) {
	f, err := parse(spec)
	if err != nil {
		if f != nil {
			t.Fatalf("Format and error both returned")
		}
		return
	}
	if f.Spec() != spec || len(f.fields) == 0 {
		t.Fatalf("Spec %q, %d fields", f.Spec(), len(f.fields))
	}
	var rec Record
	err = f.Parse(line, &rec)
	for _, fd := range f.fields {
		if fd.kind == kindMethod || fd.kind == kindTarget || fd.kind == kindProtocol {
			// %m %U %H (or $request_method...) beside %r set their fields
			// themselves: the split of %r need not agree with them.
			rec.Request = ""
		}
	}
	checkParsed(t, line, &rec, err)
}

func FuzzParseApacheFormat(f *testing.F) {
	specs := []string{CommonSpec, CombinedSpec, VHostCombinedSpec,
		`%h %l %u %t \"%r\" %>s %b \"%{Referer}i\" \"%{User-Agent}i\"`,
		`%a %l %u %t "%m %U%q %H" %>s %B %D "%{Referer}i" "%{User-agent}i" "%{X-Forwarded-For}i"`,
		`%h %l %u %t "%r" %!200,304>s %I %O %T/%D %{Host}i 100%%`,
		`%{msec}t %v:%p %h "%r" %b %>s`, `%h\t%t\t%r\t%>s`, `%{X}^ti %h`,
		`[%{%d/%b/%Y %T}t.%{msec_frac}t %{%z}t] %h "%r"`, `%{%Y-%m-%d %I:%M:%S %p %Z}t %h %{%j%s}t`}
	for i, s := range specs {
		f.Add(s, []byte(edgeSeedLines[i%len(edgeSeedLines)]))
	}
	f.Fuzz(func(t *testing.T, spec string, line []byte) {
		fuzzFormatString(t, ParseApacheFormat, spec, line)
	})
}

func FuzzParseNginxFormat(f *testing.F) {
	specs := []string{
		`$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent"`,
		`'$remote_addr - $remote_user [$time_local] "$request" ' '$status $body_bytes_sent "$http_referer" ' '"$http_user_agent" "$http_x_forwarded_for"';`,
		`$host $remote_addr [$time_iso8601] "$request" $status $bytes_sent rt=$request_time uct="$upstream_connect_time" urt="${upstream_response_time}s"`,
		`escape=json '$msec $remote_addr $request_method $request_uri $server_protocol $status'`,
		`$remote_addr $ $status`}
	for i, s := range specs {
		f.Add(s, []byte(edgeSeedLines[i%len(edgeSeedLines)]))
	}
	f.Fuzz(func(t *testing.T, spec string, line []byte) {
		fuzzFormatString(t, ParseNginxFormat, spec, line)
	})
}
