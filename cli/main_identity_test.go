package cli_test

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"

	"github.com/robowatch/robowatch/botauth"
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
	runJSON(t, []byte(log), &rep, "-o", "json")
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

// TestVerifyDNSCLI runs robowatch --verify-dns against a DNS server on
// 127.0.0.1 (never the network): the bingbot whose reverse name is under
// search.msn.com and resolves back is verified by dns; the one from an
// address whose reverse name is not is an impostor, in a row of its own.
func TestVerifyDNSCLI(t *testing.T) {
	zone := map[string]string{
		"20.10.233.52.in-addr.arpa.":          "20.10.233.52.in-addr.arpa. 60 IN PTR msnbot-52-233-10-20.search.msn.com.",
		"msnbot-52-233-10-20.search.msn.com.": "msnbot-52-233-10-20.search.msn.com. 60 IN A 52.233.10.20",
		"50.113.0.203.in-addr.arpa.":          "50.113.0.203.in-addr.arpa. 60 IN PTR host-50.hosting.example.",
		"70.231.255.5.in-addr.arpa.":          "70.231.255.5.in-addr.arpa. 60 IN PTR 5-255-231-70.spider.yandex.com.",
		"5-255-231-70.spider.yandex.com.":     "5-255-231-70.spider.yandex.com. 60 IN A 5.255.231.70",
		"51.113.0.203.in-addr.arpa.":          "51.113.0.203.in-addr.arpa. 60 IN PTR host-51.hosting.example.",
	}
	server := localDNS(t, zone)

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
	runJSON(t, []byte(log), &rep, "-o", "json", "--verify-dns", "--dns-server", server)
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
	code, out, errOut := runCLI(t, []byte(log), "--width", "200", "--section", "robots", "--verify-dns", "--dns-server", server)
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

// signedLine is a JSON log line (nginx's escape=json keys) of a request
// from ip with ua to www.example.org at at, carrying the Web Bot Auth
// headers priv signs, naming agent, valid from created to expires.
func signedLine(t *testing.T, priv ed25519.PrivateKey, ip, ua, agent string, at, created, expires time.Time) string {
	t.Helper()
	pub := priv.Public().(ed25519.PublicKey)
	params := fmt.Sprintf(`("@authority" "signature-agent";key="sig1");created=%d;expires=%d;keyid="%s";tag="web-bot-auth"`,
		created.Unix(), expires.Unix(), botauth.Thumbprint(pub))
	base := "\"@authority\": www.example.org\n\"signature-agent\";key=\"sig1\": \"" + agent + "\"\n\"@signature-params\": " + params
	sig := "sig1=:" + base64.StdEncoding.EncodeToString(ed25519.Sign(priv, []byte(base))) + ":"
	line, err := json.Marshal(map[string]any{
		"remote_addr": ip, "time_iso8601": at.Format(time.RFC3339), "request": "GET /page HTTP/1.1", "status": 200,
		"body_bytes_sent": 512, "http_user_agent": ua, "host": "www.example.org",
		"http_signature": sig, "http_signature_input": "sig1=" + params, "http_signature_agent": `sig1="` + agent + `"`,
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(line) + "\n"
}

// TestWebBotAuthKeys: a 2024 log of ChatGPT's signed requests, read with
// OpenAI's key directory stored in --keys. The genuine agent, from an
// address in no list, is verified by its signature; a request signed with
// another key, one whose signature had expired when it came (judged by the
// record's time, not today's), and one signed for another site are not.
// The agent under a browser's User-agent is OpenAI's too.
func TestWebBotAuthKeys(t *testing.T) {
	seed := func(b byte) ed25519.PrivateKey {
		return ed25519.NewKeyFromSeed([]byte(strings.Repeat(string(rune('a'+b)), ed25519.SeedSize)))
	}
	openai, forger := seed(0), seed(1)
	dir := t.TempDir()
	jwks := `{"keys":[{"kty":"OKP","crv":"Ed25519","x":"` + base64.RawURLEncoding.EncodeToString(openai.Public().(ed25519.PublicKey)) + `"}]}`
	if err := os.WriteFile(filepath.Join(dir, "chatgpt.com.json"), []byte(jwks), 0o644); err != nil {
		t.Fatal(err)
	}
	// A day OpenAI's lists of that time are known (from 2026-04-11): an
	// address outside them is then an impostor, not unverified.
	at := time.Date(2026, 5, 10, 8, 0, 0, 0, time.UTC)
	const agent = "https://chatgpt.com"
	const ua = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ChatGPT-User/1.0; +https://openai.com/bot)"
	var log strings.Builder
	log.WriteString(signedLine(t, openai, "198.51.100.7", ua, agent, at, at.Add(-time.Minute), at.Add(time.Hour)))
	log.WriteString(signedLine(t, forger, "203.0.113.8", ua, agent, at, at.Add(-time.Minute), at.Add(time.Hour)))
	log.WriteString(signedLine(t, openai, "203.0.113.9", ua, agent, at, at.Add(-2*time.Hour), at.Add(-time.Hour)))
	// ChatGPT agent browses under Chrome's User-agent, signed.
	log.WriteString(signedLine(t, openai, "198.51.100.20", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Safari/537.36", agent, at, at.Add(-time.Minute), at.Add(time.Hour)))
	other := strings.Replace(signedLine(t, openai, "203.0.113.10", ua, agent, at, at.Add(-time.Minute), at.Add(time.Hour)), `"host":"www.example.org"`, `"host":"shop.example.org"`, 1)
	log.WriteString(other)
	logFile := filepath.Join(t.TempDir(), "access.json")
	if err := os.WriteFile(logFile, []byte(log.String()), 0o644); err != nil {
		t.Fatal(err)
	}

	var doc struct {
		Clients []struct {
			IP         string   `json:"ip"`
			Operator   string   `json:"operator"`
			Identity   string   `json:"identity"`
			VerifiedBy string   `json:"verified_by"`
			Details    []string `json:"details"`
		} `json:"clients"`
	}
	runJSON(t, nil, &doc, "-o", "json", "--keys", dir, logFile)
	want := map[string]string{"198.51.100.7": "signature", "198.51.100.20": "signature", "203.0.113.8": "", "203.0.113.9": "", "203.0.113.10": ""}
	why := map[string]string{"203.0.113.8": "no stored key directory holds", "203.0.113.9": "expired", "203.0.113.10": "does not verify"}
	seen := 0
	for _, c := range doc.Clients {
		by, ok := want[c.IP]
		if !ok {
			continue
		}
		seen++
		if c.VerifiedBy != by || c.Operator != "OpenAI" {
			t.Errorf("%s: operator %q, identity %q, verified_by %q; want OpenAI, verified_by %q", c.IP, c.Operator, c.Identity, c.VerifiedBy, by)
		}
		if by != "" && c.Identity != "verified" {
			t.Errorf("%s: identity %q, want verified", c.IP, c.Identity)
		}
		if by == "" && c.Identity == "verified" {
			t.Errorf("%s: verified (by %q) with a bad signature", c.IP, c.VerifiedBy)
		}
		if w := why[c.IP]; w != "" && !strings.Contains(strings.Join(c.Details, "\n"), w) {
			t.Errorf("%s: details %q do not say %q", c.IP, c.Details, w)
		}
	}
	if seen != len(want) {
		t.Errorf("%d of the %d clients in the report", seen, len(want))
	}

	// Without --keys nothing is checked: the genuine agent, from an
	// address in none of OpenAI's lists, is not verified.
	_, out, _ := runCLI(t, nil, "-o", "json", logFile)
	if strings.Contains(out, `"verified_by": "signature"`) || !strings.Contains(out, `"identity": "impostor"`) {
		t.Error("verified by signature without --keys")
	}
}

// TestWebBotAuthBadKeyFile: a key file that does not parse is refused,
// named, with the reason.
func TestWebBotAuthBadKeyFile(t *testing.T) {
	tests := []struct {
		name, file, body, want string
	}{
		{"not JSON", "chatgpt.com.json", "<html>", "key file chatgpt.com.json: not a JSON Web Key Set"},
		{"a short key", "chatgpt.com.json", `{"keys":[{"kty":"OKP","crv":"Ed25519","x":"AAAA"}]}`, `key file chatgpt.com.json: key 1: "x" is not a 32-byte Ed25519 public key`},
		{"no key file", "README.txt", "keys go here", "no key directory file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, tt.file), []byte(tt.body), 0o644); err != nil {
				t.Fatal(err)
			}
			code, _, errOut := runCLI(t, nil, "--keys", dir, "../testdata/scenarios/site/site.log")
			if code == cli.ExitOK || !strings.Contains(errOut, "--keys "+dir+": "+tt.want) {
				t.Errorf("exit %d, stderr %q; want an error naming %q", code, errOut, tt.want)
			}
		})
	}
}

// chatGPTUserLog is a log of ChatGPT-User fetches on the day given: one a
// client from each address of 23.98.179.16/28 (in OpenAI's ChatGPT-User
// list from the first copy known, 2026-04-11, until 2026-08-05, dropped
// since), and one from 34.120.0.10, a Google Cloud address no OpenAI list
// ever held.
func chatGPTUserLog(day string) []byte {
	const ua = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot"
	var b strings.Builder
	for i := range 17 {
		ip := fmt.Sprintf("23.98.179.%d", 16+i)
		if i == 16 {
			ip = "34.120.0.10"
		}
		fmt.Fprintf(&b, "%s - - [%s:10:%02d:00 +0000] \"GET /article/%d HTTP/1.1\" 200 5120 \"-\" \"%s\"\n", ip, day, i, i, ua)
	}
	return []byte(b.String())
}

// clientsOf reads the JSON report's clients and summary.
func clientsOf(t *testing.T, out string) (map[string]map[string]any, map[string]any) {
	t.Helper()
	var doc struct {
		Summary map[string]any   `json:"summary"`
		Clients []map[string]any `json:"clients"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	byIP := map[string]map[string]any{}
	for _, c := range doc.Clients {
		byIP[c["ip"].(string)] = c
	}
	return byIP, doc.Summary
}

// TestChatGPTUserDroppedPrefix2024Log: the real-world case of a 2024-25
// log from a published study of AI crawlers. OpenAI's ChatGPT-User list
// held 23.98.179.16/28 and has since dropped it; read with today's list
// alone, its 16 genuine clients were impostors and
// summary.ranges_newer_than_log said false. Judged by the lists of the
// log's own time, a 2024 log predates the history of OpenAI's lists
// (2026-04-11): the earliest list held the prefix, so they are verified
// "by the earliest ranges known", and a claim from an unrelated cloud
// address is unverified, not an impostor, and not verified. A log of
// October 2026, after the drop, makes them impostors: the lists of that
// time rule them out.
func TestChatGPTUserDroppedPrefix2024Log(t *testing.T) {
	tests := []struct {
		day                string
		listed, listedNote string // the 16 clients from 23.98.179.16/28
		cloud, cloudNote   string // the one from 34.120.0.10
		newer              bool
	}{
		{"03/Nov/2024", "verified", "by the earliest ranges known, 2026-04-11", "unverified", "ranges only from 2026-04-11", true},
		{"01/Jun/2026", "verified", "", "impostor", "", false},
		{"01/Oct/2026", "impostor", "", "impostor", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.day, func(t *testing.T) {
			code, out, errOut := runCLI(t, chatGPTUserLog(tt.day), "-o", "json", "-")
			if code != cli.ExitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			clients, summary := clientsOf(t, out)
			if len(clients) != 17 {
				t.Fatalf("%d clients, want 17", len(clients))
			}
			for ip, c := range clients {
				want, note := tt.listed, tt.listedNote
				if ip == "34.120.0.10" {
					want, note = tt.cloud, tt.cloudNote
				}
				got, _ := c["identity_note"].(string)
				if c["operator"] != "OpenAI" || c["identity"] != want || got != note {
					t.Errorf("%s: operator %v, identity %v (%q), want OpenAI, %s (%q)", ip, c["operator"], c["identity"], got, want, note)
				}
			}
			if summary["ranges_newer_than_log"] != tt.newer {
				t.Errorf("summary.ranges_newer_than_log = %v, want %v", summary["ranges_newer_than_log"], tt.newer)
			}
			said := strings.Contains(errOut, "before the address ranges' history")
			if said != tt.newer {
				t.Errorf("stderr says the log is before the ranges' history: %v, want %v:\n%s", said, tt.newer, errOut)
			}
		})
	}
}

// TestRangesJAFARFile: --ranges FILE reads a JAFAR file
// (draft-illyes-webbotauth-jafar), whose service names the robot of each
// prefix: an operator publishing its fetchers' addresses in that shape
// verifies them. A file of a major version robowatch does not read, one
// that does not parse, and one with no prefix (a source that answered
// with nothing) are refused with the file's name and the reason, and
// nothing is read.
func TestRangesJAFARFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("chatgpt-user.json", `{"formatVersion":"1.0","creationTime":"2024-10-01T00:00:00Z",
		"prefixes":[{"ipv4Prefix":"34.120.0.0/24","service":"ChatGPT-User"}]}`)
	code, out, errOut := runCLI(t, chatGPTUserLog("03/Nov/2024"), "-o", "json", "--ranges", good, "-")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	clients, summary := clientsOf(t, out)
	if c := clients["34.120.0.10"]; c["identity"] != "verified" || c["verified_by"] != "ip-range" {
		t.Errorf("34.120.0.10 by the JAFAR file: %v %v, want verified by ip-range", c["identity"], c["verified_by"])
	}
	if c := clients["23.98.179.16"]; c["identity"] != "impostor" {
		t.Errorf("23.98.179.16, outside the JAFAR file's list of its time: %v, want impostor", c["identity"])
	}
	if r, _ := summary["ranges"].([]any); len(r) != 1 || r[0].(map[string]any)["file"] != "chatgpt-user.json#ChatGPT-User" {
		t.Errorf("summary.ranges = %v", summary["ranges"])
	}

	for _, tt := range []struct{ name, body, want string }{
		{"v2.json", `{"formatVersion":"2.0","creationTime":"2026-05-01T00:00:00Z","prefixes":[{"ipv4Prefix":"34.120.0.0/24","service":"ChatGPT-User"}]}`,
			`range file v2.json: formatVersion "2.0": robowatch reads JAFAR (draft-illyes-webbotauth-jafar) version 1.x only`},
		{"broken.json", `{"formatVersion":"1.0","prefixes":[`, "range file broken.json: unexpected end of JSON input"},
		{"empty.json", `{"formatVersion":"1.0","creationTime":"2026-05-01T00:00:00Z","prefixes":[]}`, "range file empty.json: 0 prefixes"},
	} {
		code, out, errOut := runCLI(t, chatGPTUserLog("03/Nov/2024"), "--ranges", write(tt.name, tt.body), "-")
		if code != cli.ExitError || out != "" || !strings.Contains(errOut, tt.want) {
			t.Errorf("--ranges %s: exit %d, stdout %d bytes, stderr %q; want %d, nothing, %q", tt.name, code, len(out), errOut, cli.ExitError, tt.want)
		}
	}
}
