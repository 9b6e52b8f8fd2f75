package logparse

import "testing"

// TestForwardedListAsClient: a layout that logs X-Forwarded-For where the
// client goes (Apache's "%{X-Forwarded-For}i %l %u %t …" behind a balancer)
// reads a list of hops, ", "-joined, bare: its client is the right-most
// entry that is no private or loopback address (the site's own proxies),
// else the right-most. A combined log with such a list in %h reads it too.
func TestForwardedListAsClient(t *testing.T) {
	xffFirst, err := ParseApacheFormat(`%{X-Forwarded-For}i %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i"`)
	if err != nil {
		t.Fatal(err)
	}
	awsLayout, err := ParseApacheFormat(`%{X-Forwarded-For}i %h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i"`)
	if err != nil {
		t.Fatal(err)
	}
	const rest = ` - - [10/Mar/2024:08:00:01 +0000] "GET / HTTP/1.1" 200 5 "-" "curl/8.0"`
	tests := []struct {
		name      string
		f         *Format
		line      string
		client    string
		forwarded string
	}{
		{"one hop", xffFirst, `198.51.100.7` + rest, "198.51.100.7", "198.51.100.7"},
		{"two hops: the private one is the site's", xffFirst, `198.51.100.7, 10.0.0.5` + rest, "198.51.100.7", "198.51.100.7, 10.0.0.5"},
		{"three hops, spoofed left-most", xffFirst, `66.249.66.1, 203.0.113.50, 10.0.0.5` + rest, "203.0.113.50", "66.249.66.1, 203.0.113.50, 10.0.0.5"},
		{"all private", xffFirst, `10.1.1.1, 10.0.0.5` + rest, "10.0.0.5", "10.1.1.1, 10.0.0.5"},
		{"IPv6 hop", xffFirst, `2001:db8::7, 10.0.0.5` + rest, "2001:db8::7", "2001:db8::7, 10.0.0.5"},
		{"peer logged too: %h stays the client", awsLayout, `198.51.100.7, 10.0.0.5 10.0.1.20` + rest, "10.0.1.20", "198.51.100.7, 10.0.0.5"},
		{"combined with a list in %h", Combined, `198.51.100.7, 10.0.0.5` + rest, "198.51.100.7", "198.51.100.7, 10.0.0.5"},
		{"combined, plain", Combined, `198.51.100.7` + rest, "198.51.100.7", ""},
	}
	for _, tt := range tests {
		var rec Record
		if err := tt.f.Parse([]byte(tt.line), &rec); err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if rec.Client != tt.client || rec.Forwarded != tt.forwarded || rec.Target != "/" || rec.UserAgent != "curl/8.0" {
			t.Errorf("%s: client %q forwarded %q target %q ua %q; want client %q forwarded %q", tt.name, rec.Client, rec.Forwarded, rec.Target, rec.UserAgent, tt.client, tt.forwarded)
		}
	}
	var rec Record
	if err := xffFirst.Parse([]byte(`198.51.100.7, garbage`+rest), &rec); err == nil {
		t.Errorf("a list ending in garbage: client %q, want a malformed line", rec.Client)
	}

	// Detected: a list opening with an IPv6 address is no vhost_combined
	// line ("%v:%p %h": host "2001", port "db8::7,", the proxy for client).
	for _, first := range []string{`2001:db8::7, 10.0.0.5`, `2001:db8::7, fd00::5`, `[2001:db8::7]:443, 10.0.0.5`, `198.51.100.7:4431, 10.0.0.5`} {
		lines := [][]byte{[]byte(first + rest), []byte(first + rest)}
		f := Detect(lines)
		var rec Record
		if err := f.Parse(lines[0], &rec); err != nil || rec.VHost != "" || (rec.Client != "2001:db8::7" && rec.Client != "198.51.100.7") {
			t.Errorf("detected %s for %q: client %q, host %q, %v", f.Name(), first, rec.Client, rec.VHost, err)
		}
	}
}
