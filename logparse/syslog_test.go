package logparse

import (
	"strings"
	"testing"
)

// TestSyslogHeader: the headers syslog daemons put before a line, and
// lines that only look like one.
func TestSyslogHeader(t *testing.T) {
	const msg = `192.0.2.1 - - [10/Mar/2024:08:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "curl/8.5.0"`
	tests := []struct {
		header string
		ok     bool
	}{
		{"Mar 10 08:00:00 web1 nginx: ", true},
		{"Mar  1 08:00:00 web1 nginx[1234]: ", true},
		{"2024-03-10T08:00:00.000000+00:00 web1 nginx: ", true},
		{"<190>Mar 10 08:00:00 web1 nginx: ", true},
		{"<190>1 2024-03-10T08:00:00.000Z web1 nginx 1234 - - ", true},
		{"<190>1 2024-03-10T08:00:00.000Z web1 nginx 1234 - [meta x=\"1\"] ", false}, // structured data: not read
		{"Mar 10 08:00:00 web1 nginx ", false},                                       // no tag
		{"<x>Mar 10 08:00:00 web1 nginx: ", false},
		{"", false},
	}
	for _, tt := range tests {
		line := []byte(tt.header + msg)
		n := syslogHeaderLen(line)
		if tt.ok && n != len(tt.header) || !tt.ok && n != 0 {
			t.Errorf("%q: header length %d, want %v", tt.header, n, tt.ok)
		}
	}
	if n := syslogHeaderLen([]byte(msg)); n != 0 {
		t.Errorf("a combined line has a syslog header of %d bytes", n)
	}
}

// TestDetectSyslog: nginx and Apache logging through syslog are read
// behind the header, each in its own format (JSON too); the record is the
// line's.
func TestDetectSyslog(t *testing.T) {
	const combined = `66.249.66.1 - - [10/Mar/2024:08:00:00 +0000] "GET /robots.txt HTTP/1.1" 200 312 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`
	tests := []struct {
		name, header, line, format string
	}{
		{"bsd", "Mar 10 08:00:00 web1 nginx: ", combined, "syslog+combined"},
		{"rfc3339", "2024-03-10T08:00:00.000000+00:00 web1 apache2: ", combined, "syslog+combined"},
		{"pri", "<190>Mar 10 08:00:00 web1 nginx: ", combined, "syslog+combined"},
		{"rfc5424", "<190>1 2024-03-10T08:00:00Z web1 nginx 12 - - ", combined, "syslog+combined"},
		{"main", "Mar 10 08:00:00 web1 nginx: ", combined + ` "203.0.113.9"`, "syslog+combined_xff"},
		{"common", "Mar 10 08:00:00 web1 httpd: ", `192.0.2.1 - - [10/Mar/2024:08:00:00 +0000] "GET / HTTP/1.1" 200 5`, "syslog+common"},
		// nginx's access_log syslog:… with an escape=json log_format, as
		// a blog post of bithole.dev shows one received (written after it).
		{"json", "<190>Aug 21 11:11:16 www.example.com nginx: ", `{"timestamp": 1661105476.291,"status": 200,"remoteAddr": "203.0.113.9","requestMethod": "GET","requestUri": "/","protocol": "HTTP/2.0","referrer": "","userAgent": "curl/7.68.0","host": "www.example.com"}`, "syslog+json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := strings.Repeat(tt.header+tt.line+"\n", 5)
			recs, st := readText(t, text, nil)
			if st.Format != tt.format || len(recs) != 5 || st.Malformed != 0 {
				t.Fatalf("format %q, %d records, %d malformed (%v); want %s", st.Format, len(recs), st.Malformed, st.Samples, tt.format)
			}
			if r := recs[0]; r.Client == "" || r.Time.IsZero() || r.Method != "GET" {
				t.Errorf("record %+v", r)
			}
			f, err := FormatByName(tt.format)
			if err != nil || f.Name() != tt.format {
				t.Errorf("FormatByName(%q) = %v, %v", tt.format, f, err)
			}
		})
	}
	if _, err := FormatByName("syslog+w3c"); err == nil {
		t.Error("syslog+w3c: no error")
	}
}
