package robots

import "testing"

// TestHostKey: the spellings of one host that a log, a URL or --robots
// may write all come to one key; other hosts stay apart.
func TestHostKey(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"www.example.com", "www.example.com"},
		{"WWW.Example.COM", "www.example.com"},
		{"www.example.com:443", "www.example.com"},
		// The fully qualified name, as nginx and Apache serve it.
		{"www.example.com.", "www.example.com"},
		{"WWW.EXAMPLE.COM.:8080", "www.example.com"},
		{"localhost.", "localhost"},
		{"www.example.com..", "www.example.com."}, // no host name: nginx answers 400
		{".", "."},
		{"", ""},
		// IPv6, however written.
		{"[2001:DB8::1]:8080", "2001:db8::1"},
		{"[2001:db8::1]", "2001:db8::1"},
		{"2001:0db8:0:0:0:0:0:1", "2001:db8::1"},
		{"[::1]", "::1"},
		{"::1", "::1"},
		{"192.0.2.1:80", "192.0.2.1"},
	} {
		if got := HostKey(tt.in); got != tt.want {
			t.Errorf("HostKey(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
