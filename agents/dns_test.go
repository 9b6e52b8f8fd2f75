package agents

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"
)

// dnsServer answers on 127.0.0.1 from zone (reverse and forward records),
// never the network; addresses in silent get no answer at all.
func dnsServer(t *testing.T, zone map[string][]dns.RR, silent map[string]bool) *net.Resolver {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &dns.Server{PacketConn: pc, Handler: dns.HandlerFunc(func(w dns.ResponseWriter, req *dns.Msg) {
		q := req.Question[0]
		if silent[strings.ToLower(q.Name)] {
			return // a server that never answers: the lookup times out
		}
		m := new(dns.Msg)
		m.SetReply(req)
		for _, rr := range zone[strings.ToLower(q.Name)] {
			if rr.Header().Rrtype == q.Qtype {
				m.Answer = append(m.Answer, rr)
			}
		}
		if len(m.Answer) == 0 {
			m.Rcode = dns.RcodeNameError
		}
		w.WriteMsg(m)
	})}
	go srv.ActivateAndServe()
	t.Cleanup(func() { srv.Shutdown() })
	addr := pc.LocalAddr().String()
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", addr)
	}}
}

func rr(t *testing.T, s string) dns.RR {
	t.Helper()
	r, err := dns.NewRR(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestVerifyDNS: reverse, then forward confirmation, against the
// operator's documented domains, with a real DNS server on 127.0.0.1: a
// real bingbot is verified; a reverse name outside Microsoft's domains, or
// one inside them that does not resolve back (a reverse zone its owner
// filled in), is an impostor, as is an address with no reverse name; a
// server that does not answer leaves the claim unverified within the
// budget.
func TestVerifyDNS(t *testing.T) {
	zone := map[string][]dns.RR{
		"10.39.55.157.in-addr.arpa.":          {rr(t, "10.39.55.157.in-addr.arpa. 60 IN PTR msnbot-157-55-39-10.search.msn.com.")},
		"msnbot-157-55-39-10.search.msn.com.": {rr(t, "msnbot-157-55-39-10.search.msn.com. 60 IN A 157.55.39.10")},
		"50.113.0.203.in-addr.arpa.":          {rr(t, "50.113.0.203.in-addr.arpa. 60 IN PTR crawler.evil.example.")},
		"51.113.0.203.in-addr.arpa.":          {rr(t, "51.113.0.203.in-addr.arpa. 60 IN PTR fake.search.msn.com.")},
		"fake.search.msn.com.":                {rr(t, "fake.search.msn.com. 60 IN A 157.55.39.99")},
	}
	silent := map[string]bool{"53.113.0.203.in-addr.arpa.": true}
	v := &Verifier{Resolver: dnsServer(t, zone, silent), Timeout: 300 * time.Millisecond, Budget: 3 * time.Second}
	claims := map[string]string{
		"157.55.39.10": "Microsoft",
		"203.0.113.50": "Microsoft",
		"203.0.113.51": "Microsoft",
		"203.0.113.52": "Microsoft", // no reverse name
		"203.0.113.53": "Microsoft", // no answer
		"198.51.100.1": "OpenAI",    // publishes no DNS names: not asked
	}
	start := time.Now()
	got := v.VerifyAll(context.Background(), claims)
	took := time.Since(start)
	want := map[string]string{
		"157.55.39.10": IdentityVerified,
		"203.0.113.50": IdentityImpostor,
		"203.0.113.51": IdentityImpostor,
		"203.0.113.52": IdentityImpostor,
		"203.0.113.53": IdentityUnverified,
	}
	for addr, id := range want {
		if got[addr].Identity != id {
			t.Errorf("%s: %+v, want %s", addr, got[addr], id)
		}
	}
	if _, asked := got["198.51.100.1"]; asked {
		t.Error("an operator without DNS names was asked")
	}
	if got["157.55.39.10"].Name != "msnbot-157-55-39-10.search.msn.com" {
		t.Errorf("verified name %q", got["157.55.39.10"].Name)
	}
	if took > 3*time.Second {
		t.Errorf("took %v: the budget is 3 s", took)
	}
	t.Logf("%d lookups answered in %v", len(got), took)
}

func TestHasDNS(t *testing.T) {
	tests := []struct {
		operator, name string
		want           bool
	}{
		{"Google", "Googlebot", true},
		{"Google", "GoogleOther", true},
		{"Microsoft", "bingbot", true},
		{"Amazon", "Amazonbot", true},
		{"Amazon", "AmazonBuyForMe", false}, // crawl.amazonbot.amazon is Amazonbot's
		{"Amazon", "bedrockbot", false},
		{"Apple", "Applebot", true},
		// Sent from a person's phone: applebot.apple.com is Applebot's.
		{"Apple", "Apple Messages link preview", false},
		{"Google", "FeedFetcher-Google", true},
		{"Anthropic", "ClaudeBot", false}, // no DNS names documented
		{"", "curl", false},
	}
	for _, tt := range tests {
		if got := HasDNS(tt.operator, tt.name); got != tt.want {
			t.Errorf("HasDNS(%q, %q) = %v, want %v", tt.operator, tt.name, got, tt.want)
		}
	}
}
