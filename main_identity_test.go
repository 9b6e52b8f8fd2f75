package main

import (
	"maps"
	"net"
	"strings"
	"testing"

	"github.com/miekg/dns"

	"github.com/robowatch/robowatch/cli"
)

// TestAppleMessagesPreview: someone pastes a link into Messages on an
// iPhone; the phone fetches the page and its image for the preview under
// Safari's string ending in "facebookexternalhit/1.1 Facebot
// Twitterbot/1.0", from the carrier's address the person browses from. It
// is Apple's link preview sent on a person's behalf, not an impostor of
// Meta, and the address stays out of the block list; a facebookexternalhit
// of Meta's own shape from a hosting address is still an impostor there
// (the log is of a day Meta's lists of its time are known).
func TestAppleMessagesPreview(t *testing.T) {
	const messages = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1 facebookexternalhit/1.1 Facebot Twitterbot/1.0"
	const safari = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
	const meta = "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)"
	log := "172.58.10.20 - - [06/May/2026:09:00:00 +0000] \"GET /post/1 HTTP/1.1\" 200 5120 \"-\" \"" + messages + "\"\n" +
		"172.58.10.20 - - [06/May/2026:09:00:01 +0000] \"GET /img/hero.jpg HTTP/1.1\" 200 90000 \"-\" \"" + messages + "\"\n" +
		"172.58.10.20 - - [06/May/2026:09:02:00 +0000] \"GET /post/1 HTTP/1.1\" 200 5120 \"https://t.co/x\" \"" + safari + "\"\n" +
		"172.58.10.20 - - [06/May/2026:09:02:01 +0000] \"GET /style.css HTTP/1.1\" 200 900 \"https://example.org/post/1\" \"" + safari + "\"\n" +
		"203.0.113.50 - - [06/May/2026:09:03:00 +0000] \"GET /post/2 HTTP/1.1\" 200 5120 \"-\" \"" + meta + "\"\n"
	var rep struct {
		Clients []struct {
			IP, Name, Operator, Identity, Purpose string
			UserAgent                             string `json:"user_agent"`
		} `json:"clients"`
	}
	out, errOut := runJSON(t, []byte(log), &rep, "-o", "json")
	got := map[string]string{}
	for _, c := range rep.Clients {
		if c.UserAgent == safari {
			continue // the person, browsing
		}
		got[c.IP] = c.Name + " | " + c.Operator + " | " + c.Purpose + " | " + c.Identity
	}
	want := map[string]string{
		"172.58.10.20": "Apple Messages link preview | Apple | social-preview | unverified",
		"203.0.113.50": "facebookexternalhit | Meta | social-preview | impostor",
	}
	if !maps.Equal(got, want) {
		t.Errorf("clients %q, want %q", got, want)
	}
	code, out, errOut := runCLI(t, []byte(log), "-o", "nginx")
	if code != cli.ExitOK {
		t.Fatalf("-o nginx: exit %d: %s", code, errOut)
	}
	if strings.Contains(out, "172.58.10.20") || !strings.Contains(out, "deny 203.0.113.50;") {
		t.Errorf("-o nginx: the phone must stay out and the impostor in:\n%s", out)
	}
}

// TestGoogleusercontentNeverGooglebot runs --verify-dns against a DNS
// server on 127.0.0.1: a Googlebot claim from a Google Cloud customer's
// machine, whose reverse name is under googleusercontent.com and resolves
// back, is an impostor, not verified by DNS; Google's user-triggered
// fetcher from such a name is verified; Googlebot under googlebot.com is.
func TestGoogleusercontentNeverGooglebot(t *testing.T) {
	server := localDNS(t, map[string]string{
		"10.113.0.203.in-addr.arpa.":              "10.113.0.203.in-addr.arpa. 60 IN PTR 10.113.0.203.bc.googleusercontent.com.",
		"10.113.0.203.bc.googleusercontent.com.":  "10.113.0.203.bc.googleusercontent.com. 60 IN A 203.0.113.10",
		"11.113.0.203.in-addr.arpa.":              "11.113.0.203.in-addr.arpa. 60 IN PTR 203-0-113-11.gae.googleusercontent.com.",
		"203-0-113-11.gae.googleusercontent.com.": "203-0-113-11.gae.googleusercontent.com. 60 IN A 203.0.113.11",
		"12.113.0.203.in-addr.arpa.":              "12.113.0.203.in-addr.arpa. 60 IN PTR crawl-203-0-113-12.googlebot.com.",
		"crawl-203-0-113-12.googlebot.com.":       "crawl-203-0-113-12.googlebot.com. 60 IN A 203.0.113.12",
	})
	const googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	const readAloud = "Mozilla/5.0 (Linux; Android 7.0; SM-G930V Build/NRD90M) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/59.0.3071.125 Mobile Safari/537.36 (compatible; Google-Read-Aloud; +https://support.google.com/webmasters/answer/1061943)"
	log := "203.0.113.10 - - [06/May/2026:09:00:00 +0000] \"GET /a HTTP/1.1\" 200 80 \"-\" \"" + googlebot + "\"\n" +
		"203.0.113.11 - - [06/May/2026:09:00:01 +0000] \"GET /b HTTP/1.1\" 200 80 \"-\" \"" + readAloud + "\"\n" +
		"203.0.113.12 - - [06/May/2026:09:00:02 +0000] \"GET /c HTTP/1.1\" 200 80 \"-\" \"" + googlebot + "\"\n"
	var rep struct {
		Clients []struct {
			IP, Name, Identity string
			VerifiedBy         string `json:"verified_by"`
		} `json:"clients"`
	}
	runJSON(t, []byte(log), &rep, "-o", "json", "--verify-dns", "--dns-server", server)
	got := map[string]string{}
	for _, c := range rep.Clients {
		got[c.IP] = c.Name + " " + c.Identity + " " + c.VerifiedBy
	}
	want := map[string]string{
		"203.0.113.10": "Googlebot impostor ",
		"203.0.113.11": "Google-Read-Aloud verified dns",
		"203.0.113.12": "Googlebot verified dns",
	}
	if !maps.Equal(got, want) {
		t.Errorf("identities %q, want %q", got, want)
	}
}

// localDNS serves zone (a record for each lower-case question name) on
// 127.0.0.1, never the network, and returns its HOST:PORT.
func localDNS(t *testing.T, zone map[string]string) string {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
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
	t.Cleanup(func() { srv.Shutdown() })
	return pc.LocalAddr().String()
}
