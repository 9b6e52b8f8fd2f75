package agents

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestIdentify: a robot name that claims Google is checked against
// Google's published ranges; one that claims an operator whose ranges
// robowatch does not hold is unverified; a name that claims nothing has no
// identity.
func TestIdentify(t *testing.T) {
	r := DefaultRanges()
	tests := []struct {
		name, addr                     string
		operator, identity, verifiedBy string
	}{
		{"Googlebot", "66.249.66.1", "Google", IdentityVerified, VerifiedByRange},
		{"Googlebot-Image", "66.249.66.1", "Google", IdentityVerified, VerifiedByRange},
		{"Googlebot", "203.0.113.50", "Google", IdentityImpostor, ""},
		{"Googlebot", "::ffff:66.249.66.1", "Google", IdentityVerified, VerifiedByRange},
		{"Googlebot", "crawl-66-249-66-1.googlebot.com", "Google", IdentityUnverified, ""},
		{"bingbot", "157.55.39.10", "Microsoft", IdentityUnverified, ""},
		{"GPTBot", "203.0.113.50", "OpenAI", IdentityUnverified, ""},
		{"Chrome", "66.249.66.1", "", "", ""},
		{"python-requests", "203.0.113.50", "", "", ""},
	}
	for _, tt := range tests {
		op, id, by := r.Identify(tt.name, tt.addr)
		if op != tt.operator || id != tt.identity || by != tt.verifiedBy {
			t.Errorf("Identify(%q, %q) = %q, %q, %q; want %q, %q, %q", tt.name, tt.addr, op, id, by, tt.operator, tt.identity, tt.verifiedBy)
		}
	}
	if len(r.Files) != 3 || r.Files[0].Created == "" {
		t.Errorf("built-in range files %+v", r.Files)
	}
}

// TestLoadRangesBad: a range file that is not Google's shape, or holds a
// prefix that does not parse, is an error naming the file; files of
// operators robowatch does not know are skipped.
func TestLoadRangesBad(t *testing.T) {
	tests := []struct {
		body, want string
	}{
		{`{"creationTime":"x","prefixes":[{"ipv4Prefix":"66.249.64.0/33"}]}`, `googlebot.json: prefix 1: "66.249.64.0/33"`},
		{`{"creationTime":"x","prefixes":[]}`, "googlebot.json: 0 prefixes"},
		{`not json`, "range file googlebot.json"},
		{`{"prefixes":[{"ipv4Prefix":"66.249.64.0/27","ipv6Prefix":"2001:4860::/32"}]}`, "is not one CIDR network"},
	}
	for _, tt := range tests {
		_, err := LoadRanges(fstest.MapFS{"googlebot.json": {Data: []byte(tt.body)}, "other.json": {Data: []byte("junk")}})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("LoadRanges(%.40q): %v, want %q", tt.body, err, tt.want)
		}
	}
	r, err := LoadRanges(fstest.MapFS{"googlebot.json": {Data: []byte(`{"creationTime":"2026-01-01T00:00:00","prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]}`)}})
	if err != nil {
		t.Fatal(err)
	}
	if _, id, _ := r.Identify("Googlebot", "192.0.2.7"); id != IdentityVerified {
		t.Errorf("a fresher file's range: %q", id)
	}
	if _, id, _ := r.Identify("Googlebot", "66.249.66.1"); id != IdentityImpostor {
		t.Errorf("an address only the built-in files hold: %q (a loaded file replaces them)", id)
	}
}
