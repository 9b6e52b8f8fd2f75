// Package logparse reads web-server access logs (Common Log Format, Combined,
// vhost variants and custom Apache LogFormat / nginx log_format strings) as a
// stream of Records.
package logparse

import "time"

// Record is one access-log line, parsed. Absent fields ("-" in the log) are
// empty strings, or -1 for Bytes.
type Record struct {
	Client    string    // %h / $remote_addr: an IP address or a resolved host name
	Ident     string    // %l: identd answer, "" when "-"
	User      string    // %u / $remote_user, "" when "-"
	Time      time.Time // %t / $time_local, in the zone the log wrote
	Method    string    // "GET"; "" when the request line is "-" or garbage
	Target    string    // request target as sent: "/a?b", "http://host/a", "*"
	Protocol  string    // "HTTP/1.1"; "" for HTTP/0.9 requests and garbage
	Request   string    // the whole request line as logged, unescaped
	Status    int       // %>s; 0 when the log has none
	Bytes     int64     // %b / $body_bytes_sent; -1 when "-" or absent
	Referer   string    // "" when "-" or absent
	UserAgent string    // "" when "-" or absent
	VHost     string    // %v / $host / $server_name, "" when the format has none
	File      string    // source file name ("-" or "(stdin)" for standard input)
	Line      int64     // 1-based line number in File
}
