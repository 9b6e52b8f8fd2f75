package logparse

import (
	"strings"
	"testing"
)

func TestParseApacheFormat(t *testing.T) {
	tests := []struct {
		name, spec, line string
		want             want
	}{
		{
			name: "combined as written in httpd.conf",
			spec: `%h %l %u %t \"%r\" %>s %b \"%{Referer}i\" \"%{User-Agent}i\"`,
			line: `192.0.2.1 - - [20/May/2015:21:05:01 +0000] "GET / HTTP/1.1" 200 1 "http://r/" "ua"`,
			want: want{Client: "192.0.2.1", Time: "2015-05-20T21:05:01Z", Method: "GET", Target: "/", Protocol: "HTTP/1.1",
				Req: "GET / HTTP/1.1", Status: 200, Bytes: 1, Referer: "http://r/", UserAgent: "ua", Path: "/"},
		},
		{
			name: "vhost_common",
			spec: `%v %h %l %u %t "%r" %>s %b`,
			line: `www.example.com 192.0.2.1 - - [20/May/2015:21:05:01 +0000] "GET / HTTP/1.1" 200 1`,
			want: want{VHost: "www.example.com", Client: "192.0.2.1", Time: "2015-05-20T21:05:01Z", Method: "GET", Target: "/",
				Protocol: "HTTP/1.1", Req: "GET / HTTP/1.1", Status: 200, Bytes: 1, Path: "/"},
		},
		{
			name: "request pieces, %U%q, %B, %D and a header",
			spec: `%a %l %u %t "%m %U%q %H" %>s %B %D "%{Referer}i" "%{User-agent}i" "%{X-Forwarded-For}i"`,
			line: `2001:db8::1 - - [20/May/2015:21:05:01 +0000] "POST /login?next=/ HTTP/2.0" 302 0 1534 "-" "curl/8" "203.0.113.1, 10.0.0.2"`,
			want: want{Client: "2001:db8::1", Time: "2015-05-20T21:05:01Z", Method: "POST", Target: "/login?next=/", Protocol: "HTTP/2.0",
				Status: 302, Bytes: 0, UserAgent: "curl/8", Path: "/login?next=/"},
		},
		{
			name: "%T/%D, %I %O, status conditions, %{Host}i, %%",
			spec: `%h %l %u %t "%r" %!200,304>s %I %O %T/%D %{Host}i 100%%`,
			line: `192.0.2.1 - - [20/May/2015:21:05:01 +0000] "GET / HTTP/1.1" 404 312 5120 0/1534 example.net 100%`,
			want: want{Client: "192.0.2.1", Time: "2015-05-20T21:05:01Z", Method: "GET", Target: "/", Protocol: "HTTP/1.1",
				Req: "GET / HTTP/1.1", Status: 404, Bytes: 5120, VHost: "example.net", Path: "/"},
		},
		{
			name: "%{msec}t and %p, %>s %b in a different order",
			spec: `%{msec}t %v:%p %h "%r" %b %>s`,
			line: `1432155901123 example.org:8443 192.0.2.1 "GET /x HTTP/1.1" - 304`,
			want: want{Time: "2015-05-20T21:05:01.123Z", VHost: "example.org", Client: "192.0.2.1", Method: "GET", Target: "/x",
				Protocol: "HTTP/1.1", Req: "GET /x HTTP/1.1", Status: 304, Bytes: -1, Path: "/x"},
		},
		{
			name: "tab separated, with \\t",
			spec: `%h\t%t\t%r\t%>s`,
			line: "192.0.2.1\t[20/May/2015:21:05:01 +0000]\tGET / HTTP/1.1\t200",
			want: want{Client: "192.0.2.1", Time: "2015-05-20T21:05:01Z", Method: "GET", Target: "/", Protocol: "HTTP/1.1",
				Req: "GET / HTTP/1.1", Status: 200, Bytes: -1, Path: "/"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := ParseApacheFormat(tt.spec)
			if err != nil {
				t.Fatalf("ParseApacheFormat(%q): %v", tt.spec, err)
			}
			if f.Name() != tt.spec || f.Spec() != tt.spec {
				t.Errorf("Name, Spec = %q, %q; want the format string", f.Name(), f.Spec())
			}
			var rec Record
			if err := f.Parse([]byte(tt.line), &rec); err != nil {
				t.Fatalf("Parse: %v", err)
			}
			checkRecord(t, &rec, tt.want)
		})
	}
}

func TestParseApacheFormatErrors(t *testing.T) {
	tests := []struct{ spec, wantErr string }{
		{`%h %{Referer`, "unterminated"},
		{`%h %`, "no letter"},
		{`%h %>`, "no letter"},
		{`%h%l`, "nothing between them"},
		{`%h %{X}^t`, "incomplete"},
		{`%h %3`, "no letter"},
		{`%h %é`, "unknown directive"},
		{`just text`, "no fields"},
		{``, "no fields"},
	}
	for _, tt := range tests {
		_, err := ParseApacheFormat(tt.spec)
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("ParseApacheFormat(%q) = %v, want an error containing %q", tt.spec, err, tt.wantErr)
		}
	}
}

func TestParseNginxFormat(t *testing.T) {
	tests := []struct {
		name, spec, line string
		want             want
	}{
		{
			name: "nginx combined",
			spec: `$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent"`,
			line: `192.0.2.1 - alice [20/May/2015:21:05:01 +0000] "GET /a HTTP/1.1" 200 612 "-" "Wget/1.21"`,
			want: want{Client: "192.0.2.1", User: "alice", Time: "2015-05-20T21:05:01Z", Method: "GET", Target: "/a", Protocol: "HTTP/1.1",
				Req: "GET /a HTTP/1.1", Status: 200, Bytes: 612, UserAgent: "Wget/1.21", Path: "/a"},
		},
		{
			name: "nginx main with X-Forwarded-For, as written in nginx.conf",
			spec: `'$remote_addr - $remote_user [$time_local] "$request" '
                      '$status $body_bytes_sent "$http_referer" '
                      '"$http_user_agent" "$http_x_forwarded_for"';`,
			line: `192.0.2.1 - - [20/May/2015:21:05:01 +0000] "GET / HTTP/1.1" 200 612 "-" "ua" "-"`,
			want: want{Client: "192.0.2.1", Time: "2015-05-20T21:05:01Z", Method: "GET", Target: "/", Protocol: "HTTP/1.1",
				Req: "GET / HTTP/1.1", Status: 200, Bytes: 612, UserAgent: "ua", Path: "/"},
		},
		{
			name: "ISO time, host, timings, upstream",
			spec: `$host $remote_addr [$time_iso8601] "$request" $status $bytes_sent rt=$request_time uct="$upstream_connect_time" urt="${upstream_response_time}s"`,
			line: `example.com 192.0.2.1 [2024-03-10T08:00:00+01:00] "GET / HTTP/1.1" 502 157 rt=0.004 uct="-" urt="0.001, 0.002s"`,
			want: want{VHost: "example.com", Client: "192.0.2.1", Time: "2024-03-10T08:00:00+01:00", Method: "GET", Target: "/",
				Protocol: "HTTP/1.1", Req: "GET / HTTP/1.1", Status: 502, Bytes: 157, Path: "/"},
		},
		{
			name: "msec, method, uri, protocol, escape=json",
			spec: `escape=json '$msec $remote_addr $request_method $request_uri $server_protocol $status'`,
			line: `1700000000.250 192.0.2.1 GET /x?y=1 HTTP/1.0 200`,
			want: want{Time: "2023-11-14T22:13:20.25Z", Client: "192.0.2.1", Method: "GET", Target: "/x?y=1", Protocol: "HTTP/1.0",
				Status: 200, Bytes: -1, Path: "/x?y=1"},
		},
		{
			// nginx decodes \t, \n, \" in its configuration: as written in
			// nginx.conf, and raw on the command line alike.
			name: "escapes as written in nginx.conf",
			spec: `'$remote_addr\t$status\t"$http_user_agent" \'$request\'';`,
			line: "192.0.2.1\t404\t\"curl/8.0\" 'GET / HTTP/1.1'",
			want: want{Client: "192.0.2.1", Status: 404, Bytes: -1, UserAgent: "curl/8.0", Method: "GET", Target: "/", Protocol: "HTTP/1.1",
				Req: "GET / HTTP/1.1", Path: "/"},
		},
		{
			name: "escapes raw",
			spec: `$remote_addr\t$status \"$http_user_agent\"`,
			line: "192.0.2.1\t200 \"Wget/1.21\"",
			want: want{Client: "192.0.2.1", Status: 200, Bytes: -1, UserAgent: "Wget/1.21"},
		},
		{
			name: "a lone $ is literal",
			spec: `$remote_addr $ $status`,
			line: `192.0.2.1 $ 204`,
			want: want{Client: "192.0.2.1", Status: 204, Bytes: -1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := ParseNginxFormat(tt.spec)
			if err != nil {
				t.Fatalf("ParseNginxFormat: %v", err)
			}
			var rec Record
			if err := f.Parse([]byte(tt.line), &rec); err != nil {
				t.Fatalf("Parse: %v", err)
			}
			checkRecord(t, &rec, tt.want)
		})
	}
}

func TestParseNginxFormatErrors(t *testing.T) {
	tests := []struct{ spec, wantErr string }{
		{`$remote_addr ${status`, "unterminated"},
		{`$remote_addr$status`, "nothing between them"},
		{`no variables`, "no fields"},
	}
	for _, tt := range tests {
		_, err := ParseNginxFormat(tt.spec)
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("ParseNginxFormat(%q) = %v, want an error containing %q", tt.spec, err, tt.wantErr)
		}
	}
}

func TestParseFormat(t *testing.T) {
	tests := []struct {
		in       string
		wantName string // "" = nil (auto)
		wantErr  bool
	}{
		{"auto", "", false},
		{"", "", false},
		{"combined", "combined", false},
		{"COMMON", "common", false},
		{"clf", "common", false},
		{"vhost_combined", "vhost_combined", false},
		{`%h %l %u %t "%r" %>s %b`, `%h %l %u %t "%r" %>s %b`, false},
		{`$remote_addr [$time_local] "$request" $status`, `$remote_addr [$time_local] "$request" $status`, false},
		{"json", "json", false},
		{"IIS", "w3c", false},
		{"cloudfront", "cloudfront", false},
		{"xml", "", true},
		{"%h%l", "", true},
	}
	for _, tt := range tests {
		f, err := ParseFormat(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseFormat(%q) error = %v, want error %v", tt.in, err, tt.wantErr)
			continue
		}
		if err != nil {
			continue
		}
		name := ""
		if f != nil {
			name = f.Name()
		}
		if name != tt.wantName {
			t.Errorf("ParseFormat(%q) = %q, want %q", tt.in, name, tt.wantName)
		}
	}
}

// TestBuiltinsMatchTheirSpecs guards the built-in formats against drifting
// from the Apache definitions they are documented as.
func TestBuiltinsMatchTheirSpecs(t *testing.T) {
	for _, f := range []*Format{Common, Combined, VHostCombined} {
		if f.Spec() == "" || f.Name() == f.Spec() {
			t.Errorf("%s: Spec %q", f.Name(), f.Spec())
		}
		g, err := ParseApacheFormat(f.Spec())
		if err != nil {
			t.Fatal(err)
		}
		line := `h.example:80 192.0.2.1 - - [20/May/2015:21:05:01 +0000] "GET / HTTP/1.1" 200 1 "-" "ua"`
		var a, b Record
		errA, errB := f.Parse([]byte(line), &a), g.Parse([]byte(line), &b)
		if (errA == nil) != (errB == nil) || a != b {
			t.Errorf("%s parses differently from its spec", f.Name())
		}
	}
}
