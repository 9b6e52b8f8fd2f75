package main

import (
	"fmt"
	"maps"
	"net"
	"strings"
	"testing"

	"github.com/miekg/dns"

	"github.com/robowatch/robowatch/cli"
)

// TestVerifyDNSCLI runs robowatch --verify-dns against a DNS server on
// 127.0.0.1 (never the network): the bingbot whose reverse name is under
// search.msn.com and resolves back is verified by dns; the one from an
// address whose reverse name is not is an impostor, in a row of its own.
func TestVerifyDNSCLI(t *testing.T) {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	zone := map[string]string{
		"20.10.233.52.in-addr.arpa.":          "20.10.233.52.in-addr.arpa. 60 IN PTR msnbot-52-233-10-20.search.msn.com.",
		"msnbot-52-233-10-20.search.msn.com.": "msnbot-52-233-10-20.search.msn.com. 60 IN A 52.233.10.20",
		"50.113.0.203.in-addr.arpa.":          "50.113.0.203.in-addr.arpa. 60 IN PTR host-50.hosting.example.",
		"70.231.255.5.in-addr.arpa.":          "70.231.255.5.in-addr.arpa. 60 IN PTR 5-255-231-70.spider.yandex.com.",
		"5-255-231-70.spider.yandex.com.":     "5-255-231-70.spider.yandex.com. 60 IN A 5.255.231.70",
		"51.113.0.203.in-addr.arpa.":          "51.113.0.203.in-addr.arpa. 60 IN PTR host-51.hosting.example.",
	}
	srv := &dns.Server{PacketConn: pc, Handler: dns.HandlerFunc(func(w dns.ResponseWriter, req *dns.Msg) {
		m := new(dns.Msg)
		m.SetReply(req)
		if s, ok := zone[strings.ToLower(req.Question[0].Name)]; ok {
			if r, err := dns.NewRR(s); err == nil && r.Header().Rrtype == req.Question[0].Qtype {
				m.Answer = append(m.Answer, r)
			}
		}
		if len(m.Answer) == 0 {
			m.Rcode = dns.RcodeNameError
		}
		w.WriteMsg(m)
	})}
	go srv.ActivateAndServe()
	defer srv.Shutdown()

	// bingbot from its published range (no lookup), from an address the
	// built-in copy of Bing's list does not hold but Bing's DNS confirms (a
	// range newer than the copy: DNS overrules it), and from a hosting
	// address (an impostor); YandexBot from Yandex's network (advisory:
	// DNS decides); AmazonBuyForMe from a hosting address: Amazon's DNS
	// names are Amazonbot's, so DNS proves nothing of it either way.
	const bing = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"
	const yandex = "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)"
	log := "157.55.39.10 - - [06/May/2024:09:00:00 +0000] \"GET /robots.txt HTTP/1.1\" 200 80 \"-\" \"" + bing + "\"\n" +
		"52.233.10.20 - - [06/May/2024:09:00:01 +0000] \"GET /a HTTP/1.1\" 200 80 \"-\" \"" + bing + "\"\n" +
		"203.0.113.50 - - [06/May/2024:09:00:02 +0000] \"GET /x HTTP/1.1\" 200 80 \"-\" \"" + bing + "\"\n" +
		"5.255.231.70 - - [06/May/2024:09:00:03 +0000] \"GET /y HTTP/1.1\" 200 80 \"-\" \"" + yandex + "\"\n" +
		"203.0.113.51 - - [06/May/2024:09:00:04 +0000] \"GET /z HTTP/1.1\" 200 80 \"-\" \"Mozilla/5.0 (compatible; AmazonBuyForMe/1.0)\"\n"
	var rep struct {
		Summary struct {
			DNSChecked int `json:"dns_checked"`
		} `json:"summary"`
		Clients []struct {
			IP, Identity, Operator string
			VerifiedBy             string `json:"verified_by"`
		} `json:"clients"`
		Robots []struct {
			Name, Identity string
			VerifiedBy     string `json:"verified_by"`
			Bytes          int64
		} `json:"robots"`
	}
	out, errOut := runJSON(t, []byte(log), &rep, "-o", "json", "--verify-dns", "--dns-server", pc.LocalAddr().String())
	got := map[string]string{}
	for _, c := range rep.Clients {
		got[c.IP] = c.Operator + " " + c.Identity + " " + c.VerifiedBy
	}
	want := map[string]string{
		"157.55.39.10": "Microsoft verified ip-range", "52.233.10.20": "Microsoft verified dns",
		"203.0.113.50": "Microsoft impostor ", "5.255.231.70": "Yandex verified dns",
		"203.0.113.51": "Amazon unverified ",
	}
	if !maps.Equal(got, want) || rep.Summary.DNSChecked != 3 {
		t.Errorf("identities %q, %d checked; want %q, 3 checked", got, rep.Summary.DNSChecked, want)
	}
	if len(rep.Robots) != 4 {
		t.Errorf("robots %+v: the impostor must have a row of its own", rep.Robots)
	}
	// bingbot's row: one client verified by its range, one by DNS, 80
	// bytes each; the impostor's bytes are its own.
	rows := map[string]string{}
	for _, r := range rep.Robots {
		rows[r.Name] = fmt.Sprintf("%s %s %d", r.Identity, r.VerifiedBy, r.Bytes)
	}
	if rows["bingbot"] != "verified dns,ip-range 160" || rows["bingbot (impostor)"] != "impostor  80" {
		t.Errorf("robots rows %q, want bingbot verified dns,ip-range 160 and bingbot (impostor) impostor 80", rows)
	}
	// The terminal table says the same in words.
	code, out, errOut := runCLI(t, []byte(log), "--width", "200", "--section", "robots", "--verify-dns", "--dns-server", pc.LocalAddr().String())
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	line := ""
	for l := range strings.Lines(out) {
		if name, _, _ := strings.Cut(strings.TrimPrefix(l, "│"), "│"); strings.TrimSpace(name) == "bingbot" {
			line = l
		}
	}
	for _, want := range []string{"│ Microsoft ", "│ verified (DNS, ranges) ", "│ 160 B "} {
		if !strings.Contains(line, want) {
			t.Errorf("bingbot's row %q lacks %q:\n%s", line, want, out)
		}
	}
}
