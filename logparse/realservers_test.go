package logparse

import (
	"strings"
	"testing"
)

// Lines written by real servers (Debian 12 packages, run on loopback with a
// known set of requests), each with what the client sent: the fields that
// robowatch must read back after the server's own escaping.

// realLine is one line a server wrote and the request it records.
type realLine struct {
	server string // server and version
	format string // "" to detect the format from lines (or line alone)
	lines  []string
	line   string // the line checked (the last of lines when empty)
	want   realFields
}

// realFields are the Record fields checked.
type realFields struct {
	client, method, target string
	status                 int
	ua, vhost              string
}

func TestRealServerLines(t *testing.T) {
	for _, tt := range realServerLines {
		t.Run(tt.server, func(t *testing.T) {
			lines := tt.lines
			if tt.line != "" {
				lines = append(lines, tt.line)
			}
			var f *Format
			var err error
			switch {
			case tt.format != "":
				if f, err = FormatByName(tt.format); err != nil {
					if f, err = ParseFormat(tt.format); err != nil {
						t.Fatal(err)
					}
				}
			default:
				var sample [][]byte
				for _, l := range lines {
					sample = append(sample, []byte(l))
				}
				f = Detect(sample)
			}
			var rec Record
			if err := f.Parse([]byte(lines[len(lines)-1]), &rec); err != nil {
				t.Fatalf("%s: %v", f.Name(), err)
			}
			got := realFields{rec.Client, rec.Method, rec.Target, rec.Status, rec.UserAgent, rec.VHost}
			if got != tt.want {
				t.Errorf("%s:\n got %#v\nwant %#v", f.Name(), got, tt.want)
			}
		})
	}
}

var realServerLines = []realLine{
	{
		// nginx 1.22.1, log_format … escape=json given to -f without its
		// escape= parameter: control bytes are \u00XX, DEL is raw.
		server: "nginx 1.22.1 escape=json with -f",
		format: `'{"time_local":"$time_local","remote_addr":"$remote_addr","remote_user":"$remote_user","request":"$request","status":"$status","body_bytes_sent":"$body_bytes_sent","request_time":"$request_time","http_referrer":"$http_referer","http_user_agent":"$http_user_agent","http_x_forwarded_for":"$http_x_forwarded_for"}'`,
		line:   "{\"time_local\":\"27/Nov/2026:03:53:32 +0000\",\"remote_addr\":\"127.0.0.1\",\"remote_user\":\"\",\"request\":\"GET /r15/ctrl HTTP/1.1\",\"status\":\"404\",\"body_bytes_sent\":\"153\",\"request_time\":\"0.000\",\"http_referrer\":\"\",\"http_user_agent\":\"Bot\\u0001\\u001B[31m\x7fEnd\\tTab\",\"http_x_forwarded_for\":\"\"}",
		want:   realFields{"127.0.0.1", "GET", "/r15/ctrl", 404, "Bot\x01\x1b[31m\x7fEnd\tTab", ""},
	},
	{
		server: "nginx 1.22.1 escape=json detected",
		line:   "{\"time_local\":\"27/Nov/2026:03:53:32 +0000\",\"remote_addr\":\"127.0.0.1\",\"remote_user\":\"\",\"request\":\"GET /r15/ctrl HTTP/1.1\",\"status\":\"404\",\"body_bytes_sent\":\"153\",\"request_time\":\"0.000\",\"http_referrer\":\"\",\"http_user_agent\":\"Bot\\u0001\\u001B[31m\x7fEnd\\tTab\",\"http_x_forwarded_for\":\"\"}",
		want:   realFields{"127.0.0.1", "GET", "/r15/ctrl", 404, "Bot\x01\x1b[31m\x7fEnd\tTab", ""},
	},
	{
		// lighttpd 1.4.69's default accesslog.format: "-" for the virtual
		// host of a request without a Host (HTTP/1.0, garbage, a TLS
		// handshake), here a third of the lines.
		server: "lighttpd 1.4.69 default, requests without Host",
		lines: []string{
			`127.0.0.1 www.example.com - [27/Nov/2026:04:00:18 +0000] "GET /lt2/1 HTTP/1.1" 404 341 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`,
			`127.0.0.1 www.example.com - [27/Nov/2026:04:00:18 +0000] "GET /lt2/2 HTTP/1.1" 404 341 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`,
			`127.0.0.1 www.example.com - [27/Nov/2026:04:00:18 +0000] "GET /lt2/3 HTTP/1.1" 404 341 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`,
			`127.0.0.1 www.example.com - [27/Nov/2026:04:00:18 +0000] "GET /lt2/4 HTTP/1.1" 404 341 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`,
			`127.0.0.1 www.example.com - [27/Nov/2026:04:00:18 +0000] "GET /lt2/5 HTTP/1.1" 404 341 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`,
			`127.0.0.1 www.example.com - [27/Nov/2026:04:00:18 +0000] "GET /lt2/6 HTTP/1.1" 404 341 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`,
			`127.0.0.1 - - [27/Nov/2026:04:00:18 +0000] "GET /lt2/old10 HTTP/1.0" 404 341 "-" "Wget/1.21"`,
			`127.0.0.1 - - [27/Nov/2026:04:00:20 +0000] "  " 400 345 "-" "-"`,
		},
		line: `127.0.0.1 www.example.com - [27/Nov/2026:04:00:18 +0000] "GET /lt2/6 HTTP/1.1" 404 341 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`,
		want: realFields{"127.0.0.1", "GET", "/lt2/6", 404, "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "www.example.com"},
	},
	{
		// HAProxy 2.6.12, option httplog with "capture request header Host
		// len 64" and "capture request header User-Agent len 512", log
		// stdout format raw: '"', '{', '|', '}', '#', control and non-ASCII
		// bytes are written '#' and two hex digits.
		server: "haproxy 2.6.12 capture quote",
		format: "haproxy",
		line:   `127.0.0.1:43489 [27/Nov/2026:03:56:21.021] capture origin/o1 0/0/0/0/0 200 155 - - ---- 1/1/0/0/0 0/0 {localhost|Mozilla/5.0 (compatible; #22Quoted#22Bot/1.0)} "GET /r12/quote HTTP/1.1"`,
		want:   realFields{"127.0.0.1", "GET", "/r12/quote", 200, `Mozilla/5.0 (compatible; "Quoted"Bot/1.0)`, ""},
	},
	{
		server: "haproxy 2.6.12 capture UTF-8",
		format: "haproxy",
		line:   `127.0.0.1:35991 [27/Nov/2026:03:56:21.153] capture origin/o1 0/0/0/0/0 200 154 - - ---- 1/1/0/0/0 0/0 {localhost|Mozilla/5.0 (compatible; #C3#9Cn#C3#AFBot/1.0; #E6#97#A5#E6#9C#AC#E8#AA#9E)} "GET /r14/utf8 HTTP/1.1"`,
		want:   realFields{"127.0.0.1", "GET", "/r14/utf8", 200, "Mozilla/5.0 (compatible; \u00dcn\u00efBot/1.0; \u65e5\u672c\u8a9e)", ""},
	},
	{
		server: "haproxy 2.6.12 quote in the request line",
		format: "haproxy",
		line:   `127.0.0.1:33823 [27/Nov/2026:03:56:21.760] capture origin/o1 0/0/0/0/0 200 153 - - ---- 1/1/0/0/0 0/0 {localhost|Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0} "GET /r26/#22x#22 HTTP/1.1"`,
		want:   realFields{"127.0.0.1", "GET", `/r26/"x"`, 200, "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", ""},
	},
	{
		// The same through rsyslog 8.2302's RSYSLOG_TraditionalFileFormat.
		server: "haproxy 2.6.12 capture braces via syslog",
		line:   `Nov 27 03:56:21 vm haproxy[8170]: 127.0.0.3:35693 [27/Nov/2026:03:56:21.598] capture origin/o1 0/0/0/0/0 200 154 - - ---- 1/1/0/0/0 0/0 {localhost|Weird/1.0 #7B#22json#22:1#7D it's} "GET /r23/json HTTP/1.1"`,
		want:   realFields{"127.0.0.3", "GET", "/r23/json", 200, `Weird/1.0 {"json":1} it's`, ""},
	},
	{
		// HAProxy 2.6.12 cuts a log line at 1024 bytes (its "log … len"),
		// in the request, which comes last: the request for /r08/ and
		// 3000 a's (log stdout format raw).
		server: "haproxy 2.6.12 long URL cut",
		format: "haproxy",
		line:   `127.0.0.1:45597 [27/Nov/2026:03:56:18.415] plain origin/o1 0/0/0/0/0 200 3152 - - ---- 1/1/0/0/0 0/0 "GET /r08/` + strings.Repeat("a", 912),
		want:   realFields{"127.0.0.1", "GET", "/r08/" + strings.Repeat("a", 912), 200, "", ""},
	},
	{
		// The same through rsyslog, with captured headers, detected.
		server: "haproxy 2.6.12 long URL cut via syslog",
		line:   `Nov 27 03:56:20 vm haproxy[8170]: 127.0.0.1:37645 [27/Nov/2026:03:56:20.803] capture origin/o1 0/0/0/0/0 200 3152 - - ---- 1/1/0/0/0 0/0 {localhost|Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0} "GET /r08/` + strings.Repeat("a", 792),
		want:   realFields{"127.0.0.1", "GET", "/r08/" + strings.Repeat("a", 792), 200, "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", ""},
	},
	{
		// Squid 5.7's built-in "combined" logformat writes the request
		// line as sent: a raw quote in the URL.
		server: "squid 5.7 combined raw quote",
		line:   `127.0.0.1 - - [27/Nov/2026:03:57:08 +0000] "GET http://127.0.0.1:8090/r26/"x" HTTP/1.1" 200 256 "-" "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0" TCP_MISS:HIER_DIRECT`,
		want:   realFields{"127.0.0.1", "GET", `http://127.0.0.1:8090/r26/"x"`, 200, "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", ""},
	},
	{
		server: "squid 5.7 combined raw quote, named",
		format: "combined",
		line:   `127.0.0.1 - - [27/Nov/2026:03:57:08 +0000] "GET http://127.0.0.1:8090/r26/"x" HTTP/1.1" 200 256 "-" "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0" TCP_MISS:HIER_DIRECT`,
		want:   realFields{"127.0.0.1", "GET", `http://127.0.0.1:8090/r26/"x"`, 200, "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", ""},
	},
}
