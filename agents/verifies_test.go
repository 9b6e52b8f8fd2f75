package agents

import (
	"context"
	"testing"
	"testing/fstest"
	"time"

	"github.com/miekg/dns"
)

// TestVerifies: which robots each published list and each reverse-DNS
// domain may verify. Google's user-triggered-fetchers list
// (googleutf.json) and googleusercontent.com hold Google Cloud customers'
// machines: they verify the fetchers Google names for them, never
// Googlebot; Google's own crawlers' lists and domains verify any Google
// robot.
func TestVerifies(t *testing.T) {
	tests := []struct {
		source, robot string
		want          bool
	}{
		{"googlebot.json", "Googlebot", true},
		{"googlebot.json", "FeedFetcher-Google", true},
		{"googlesc.json", "AdsBot-Google", true},
		{"googleutf.json", "Googlebot", false},
		{"googleutf.json", "Googlebot-Image", false},
		{"googleutf.json", "AdsBot-Google", false},
		{"googleutf.json", "GoogleOther", false},
		{"googleutf.json", "Google-Extended", false},
		{"googleutf.json", "FeedFetcher-Google", true},
		{"googleutf.json", "Google-Read-Aloud", true},
		{"googleutf.json", "Google-Site-Verification", true},
		{"googleutf.json", "GoogleProducer", true},
		{"googleutf.json", "Google-NotebookLM", true},
		{"user-triggered-fetchers.json", "Googlebot", false},
		{".googlebot.com", "Googlebot", true},
		{".google.com", "AdsBot-Google", true},
		{".google.com", "Google-Read-Aloud", true},
		{".googleusercontent.com", "Googlebot", false},
		{".googleusercontent.com", "GoogleOther", false},
		{".googleusercontent.com", "Google-Read-Aloud", true},
		{".search.msn.com", "bingbot", true},
		{".crawl.amazonbot.amazon", "Amazonbot", true},
		{".crawl.amazonbot.amazon", "AmazonBuyForMe", false},
		{".applebot.apple.com", "Applebot", true},
		{".applebot.apple.com", "Apple Messages link preview", false},
		{".googlebot.com", "bingbot", false}, // another operator's robot
		{"unknown.json", "Googlebot", false},
	}
	for _, tt := range tests {
		if got := Verifies(tt.source, tt.robot); got != tt.want {
			t.Errorf("Verifies(%q, %q) = %v, want %v", tt.source, tt.robot, got, tt.want)
		}
	}
}

// TestIdentifyUserFetchers: an address only Google's user-triggered-fetchers
// list holds (a Google Cloud customer's machine) verifies Google's
// user-triggered fetchers and not Googlebot, which Google's lists for it
// rule out there. Google publishes two more lists for its user-triggered
// fetchers that robowatch does not hold: outside the held ones such a
// fetcher is unverified, never an impostor.
func TestIdentifyUserFetchers(t *testing.T) {
	const utfOnly = "107.178.192.1" // 107.178.192.0/27, in googleutf.json only
	r := DefaultRanges()
	tests := []struct {
		name, addr         string
		identity, verified string
	}{
		{"Googlebot", utfOnly, IdentityImpostor, ""},
		{"Googlebot-Image", utfOnly, IdentityImpostor, ""},
		{"AdsBot-Google", utfOnly, IdentityImpostor, ""},
		{"GoogleOther", utfOnly, IdentityImpostor, ""},
		{"FeedFetcher-Google", utfOnly, IdentityVerified, VerifiedByRange},
		{"Google-Read-Aloud", utfOnly, IdentityVerified, VerifiedByRange},
		{"Google-Site-Verification", utfOnly, IdentityVerified, VerifiedByRange},
		{"Googlebot", "66.249.66.1", IdentityVerified, VerifiedByRange},
		{"FeedFetcher-Google", "66.249.66.1", IdentityVerified, VerifiedByRange},
		{"FeedFetcher-Google", "203.0.113.50", IdentityUnverified, ""},
		{"Google-Read-Aloud", "203.0.113.50", IdentityUnverified, ""},
		{"Googlebot", "203.0.113.50", IdentityImpostor, ""},
	}
	for _, tt := range tests {
		op, id, by := r.Identify(tt.name, tt.addr)
		if op != "Google" || id != tt.identity || by != tt.verified {
			t.Errorf("Identify(%q, %q) = %q, %q, %q; want Google, %q, %q", tt.name, tt.addr, op, id, by, tt.identity, tt.verified)
		}
	}
}

// TestVerifyDNSGoogleusercontent: a reverse name under googleusercontent.com
// that resolves back (any Google Cloud customer's machine can have one)
// never verifies Googlebot, served by a DNS server on 127.0.0.1; it
// verifies a Google user-triggered fetcher, and crawl-….googlebot.com
// verifies Googlebot.
func TestVerifyDNSGoogleusercontent(t *testing.T) {
	zone := map[string][]dns.RR{
		"10.113.0.203.in-addr.arpa.":                  {rr(t, "10.113.0.203.in-addr.arpa. 60 IN PTR 10.113.0.203.bc.googleusercontent.com.")},
		"10.113.0.203.bc.googleusercontent.com.":      {rr(t, "10.113.0.203.bc.googleusercontent.com. 60 IN A 203.0.113.10")},
		"11.113.0.203.in-addr.arpa.":                  {rr(t, "11.113.0.203.in-addr.arpa. 60 IN PTR 203-0-113-11.gae.googleusercontent.com.")},
		"203-0-113-11.gae.googleusercontent.com.":     {rr(t, "203-0-113-11.gae.googleusercontent.com. 60 IN A 203.0.113.11")},
		"12.113.0.203.in-addr.arpa.":                  {rr(t, "12.113.0.203.in-addr.arpa. 60 IN PTR crawl-203-0-113-12.googlebot.com.")},
		"crawl-203-0-113-12.googlebot.com.":           {rr(t, "crawl-203-0-113-12.googlebot.com. 60 IN A 203.0.113.12")},
		"13.113.0.203.in-addr.arpa.":                  {rr(t, "13.113.0.203.in-addr.arpa. 60 IN PTR rate-limited-proxy-203-0-113-13.google.com.")},
		"rate-limited-proxy-203-0-113-13.google.com.": {rr(t, "rate-limited-proxy-203-0-113-13.google.com. 60 IN A 203.0.113.13")},
		"14.113.0.203.in-addr.arpa.":                  {rr(t, "14.113.0.203.in-addr.arpa. 60 IN PTR 203-0-113-14.gae.googleusercontent.com.")},
		"203-0-113-14.gae.googleusercontent.com.":     {rr(t, "203-0-113-14.gae.googleusercontent.com. 60 IN A 203.0.113.14")},
	}
	v := &Verifier{Resolver: dnsServer(t, zone, nil), Timeout: time.Second, Budget: 5 * time.Second}
	got := v.VerifyAll(context.Background(), map[string]string{
		"203.0.113.10": "Google", "203.0.113.11": "Google", "203.0.113.12": "Google",
		"203.0.113.13": "Google", "203.0.113.14": "Google",
	})
	tests := []struct {
		addr, robot, identity string
	}{
		{"203.0.113.10", "Googlebot", IdentityImpostor},
		{"203.0.113.11", "Googlebot", IdentityImpostor},
		{"203.0.113.11", "GoogleOther", IdentityImpostor},
		{"203.0.113.14", "Google-Read-Aloud", IdentityVerified},
		{"203.0.113.14", "FeedFetcher-Google", IdentityVerified},
		{"203.0.113.12", "Googlebot", IdentityVerified},
		{"203.0.113.13", "AdsBot-Google", IdentityVerified},
	}
	for _, tt := range tests {
		r := got[tt.addr].For(tt.robot)
		if r.Identity != tt.identity {
			t.Errorf("%s claiming %s: %+v, want %s", tt.addr, tt.robot, r, tt.identity)
		}
		if r.Name == "" {
			t.Errorf("%s claiming %s: no reverse name kept", tt.addr, tt.robot)
		}
	}
}

// TestCollectionUserFetchers: read from a collection alone (--ranges DIR
// without Google's own files), Google's user-triggered-fetchers list still
// verifies only the fetchers Google names for it: its source_url says
// which list it is.
func TestCollectionUserFetchers(t *testing.T) {
	r, err := LoadRanges(fstest.MapFS{"ipverse-crawlers.json": {Data: []byte(`{"services":{
		"Google (user-triggered)":{"source_url":"https://developers.google.com/static/crawling/ipranges/user-triggered-fetchers.json",
			"user_agent_patterns":["*Google-Site-Verification*"],"ip_list_authoritative":true,"ipv4":["192.0.2.0/24"]}}}`)}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, identity string }{
		{"Googlebot", IdentityUnverified}, // no list held for Googlebot
		{"Google-Site-Verification", IdentityVerified},
		{"FeedFetcher-Google", IdentityVerified},
	}
	for _, tt := range tests {
		if _, id, _ := r.Identify(tt.name, "192.0.2.7"); id != tt.identity {
			t.Errorf("Identify(%q) from the collection's user-triggered list: %q, want %q", tt.name, id, tt.identity)
		}
	}
}
