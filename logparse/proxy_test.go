package logparse

import (
	"net/netip"
	"testing"
)

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
		{"two hops: a balancer in 100.64.0.0/10 is the site's", xffFirst, `198.51.100.7, 100.100.3.4` + rest, "198.51.100.7", "198.51.100.7, 100.100.3.4"},
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
		if rec.Client != tt.client || rec.Forwarded() != tt.forwarded || rec.Target != "/" || rec.UserAgent != "curl/8.0" {
			t.Errorf("%s: client %q forwarded %q target %q ua %q; want client %q forwarded %q", tt.name, rec.Client, rec.Forwarded(), rec.Target, rec.UserAgent, tt.client, tt.forwarded)
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

// TestInternalAddress: the addresses no request from the internet comes
// from, which no block list denies and an X-Forwarded-For list skips as
// the site's own proxies. RFC 6598's shared space, 100.64.0.0/10, is a
// carrier's NAT or a cloud's balancer (Alibaba's SLB, Tailscale): inside,
// as RFC 1918's ranges are, to its last address and not one past it.
func TestInternalAddress(t *testing.T) {
	tests := []struct {
		addr     string
		internal bool
	}{
		{"10.0.0.5", true},
		{"172.16.0.1", true},
		{"192.168.1.20", true},
		{"127.0.0.1", true},
		{"169.254.1.1", true},
		{"0.1.2.3", true},
		{"240.0.0.1", true},
		{"255.255.255.255", true},
		{"224.0.0.1", true},
		{"100.63.255.255", false}, // one before the shared space
		{"100.64.0.0", true},      // its first address
		{"100.64.7.10", true},
		{"100.100.100.200", true},   // Alibaba Cloud's metadata and balancers
		{"100.127.255.255", true},   // its last
		{"100.128.0.0", false},      // one past it
		{"::ffff:100.64.0.1", true}, // IPv4-mapped, as a dual-stack server logs it
		{"::ffff:100.128.0.1", false},
		{"::1", true},
		{"fe80::1", true},
		{"fd00::5", true},
		{"ff02::1", true},
		{"::", true},
		{"198.51.100.7", false},
		{"203.0.113.9", false},
		{"2001:db8::1", false},
	}
	for _, tt := range tests {
		if got := InternalAddress(netip.MustParseAddr(tt.addr)); got != tt.internal {
			t.Errorf("InternalAddress(%s) = %v, want %v", tt.addr, got, tt.internal)
		}
	}
}
