package agents

import (
	"strings"
	"testing"
	"testing/fstest"
	"time"
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
		// From the ipverse collection (ranges/ipverse-crawlers.json).
		{"bingbot", "157.55.39.10", "Microsoft", IdentityVerified, VerifiedByRange},
		{"bingbot", "203.0.113.50", "Microsoft", IdentityImpostor, ""},
		{"BingPreview", "40.77.167.5", "Microsoft", IdentityVerified, VerifiedByRange},
		{"Applebot", "17.241.75.9", "Apple", IdentityVerified, VerifiedByRange},
		{"Applebot", "198.51.100.7", "Apple", IdentityImpostor, ""},
		{"GPTBot", "203.0.113.50", "OpenAI", IdentityImpostor, ""},
		{"OAI-SearchBot", "51.8.102.20", "OpenAI", IdentityVerified, VerifiedByRange},
		{"ClaudeBot", "203.0.113.50", "Anthropic", IdentityImpostor, ""},
		{"Kagibot", "35.212.27.76", "Kagi", IdentityVerified, VerifiedByRange},
		{"Kagibot", "203.0.113.50", "Kagi", IdentityImpostor, ""},
		{"MicrosoftPreview", "40.77.167.5", "Microsoft", IdentityVerified, VerifiedByRange},
		// Ahrefs's list names AhrefsSiteAudit beside AhrefsBot.
		{"AhrefsSiteAudit", "5.39.109.161", "Ahrefs", IdentityVerified, VerifiedByRange},
		{"AhrefsSiteAudit", "203.0.113.50", "Ahrefs", IdentityImpostor, ""},
		// Meta's fetcher is Meta's, checked against Meta's network.
		{"meta-externalfetcher", "31.13.24.1", "Meta", IdentityUnverified, ""},
		{"meta-externalfetcher", "203.0.113.50", "Meta", IdentityImpostor, ""},
		// The operator's published lists are for its other robots (Amazon's
		// is Amazonbot's, Anthropic's names ClaudeBot, Claude-User and
		// Claude-SearchBot, Bing's bingbot and its previews): outside them
		// proves nothing.
		{"AmazonBuyForMe", "203.0.113.50", "Amazon", IdentityUnverified, ""},
		{"bedrockbot", "203.0.113.50", "Amazon", IdentityUnverified, ""},
		{"Amzn-User", "203.0.113.50", "Amazon", IdentityUnverified, ""},
		{"kagi-fetcher", "203.0.113.50", "Kagi", IdentityUnverified, ""},
		{"Amazonbot", "203.0.113.50", "Amazon", IdentityImpostor, ""},
		{"anthropic-ai", "203.0.113.50", "Anthropic", IdentityUnverified, ""},
		{"msnbot", "203.0.113.50", "Microsoft", IdentityUnverified, ""},
		{"msnbot", "157.55.39.10", "Microsoft", IdentityVerified, VerifiedByRange},
		// Google's own files are for every Google robot.
		{"Google-CloudVertexBot", "203.0.113.50", "Google", IdentityImpostor, ""},
		// A purpose and no operator: nothing to check the address against.
		{"WhatsApp", "203.0.113.50", "", "", ""},
		{"StatusCake", "203.0.113.50", "", "", ""},
		// Advisory (a whole autonomous system): outside it an impostor,
		// inside it not proven.
		{"facebookexternalhit", "69.171.250.10", "Meta", IdentityUnverified, ""},
		{"facebookexternalhit", "203.0.113.50", "Meta", IdentityImpostor, ""},
		{"YandexBot", "5.255.231.70", "Yandex", IdentityUnverified, ""},
		{"YandexBot", "203.0.113.50", "Yandex", IdentityImpostor, ""},
		// No ranges held: unverified whatever the address.
		{"Baiduspider", "203.0.113.50", "Baidu", IdentityUnverified, ""},
		{"SeznamBot", "203.0.113.50", "Seznam", IdentityUnverified, ""},
		{"Yeti", "203.0.113.50", "Naver", IdentityUnverified, ""},
		{"Sogou web spider", "203.0.113.50", "Sogou", IdentityUnverified, ""},
		// A framework anyone runs claims no operator.
		{"Scrapy", "203.0.113.50", "", "", ""},
		{"Chrome", "66.249.66.1", "", "", ""},
		{"python-requests", "203.0.113.50", "", "", ""},
	}
	for _, tt := range tests {
		op, id, by := r.Identify(tt.name, tt.addr)
		if op != tt.operator || id != tt.identity || by != tt.verifiedBy {
			t.Errorf("Identify(%q, %q) = %q, %q, %q; want %q, %q, %q", tt.name, tt.addr, op, id, by, tt.operator, tt.identity, tt.verifiedBy)
		}
	}
	if len(r.Files) < 10 || r.Files[0].Created == "" {
		t.Errorf("built-in range files %+v", r.Files)
	}
	for _, f := range r.Files {
		if f.Operator == "Google" && strings.HasPrefix(f.File, "ipverse") {
			t.Errorf("%s read though Google's own files were: the operator's own list wins", f.File)
		}
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
	for _, tt := range []struct{ body, want string }{
		{`not json`, "range file ipverse-crawlers.json"},
		{`{"services":{}}`, "no services"},
		{`{"services":{"Bingbot":{"user_agent_patterns":["*bingbot*"],"ip_list_authoritative":true,"ipv4":["157.55.39.0/33"]}}}`, `service "Bingbot": prefix 1: "157.55.39.0/33"`},
		{`{"services":{"Bingbot":{"user_agent_patterns":["*bingbot*"],"ipv4":["157.55.39.0/24"]}}}`, "ip_list_authoritative <nil>"},
	} {
		_, err := LoadRanges(fstest.MapFS{"ipverse-crawlers.json": {Data: []byte(tt.body)}})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("LoadRanges(collection %.50q): %v, want %q", tt.body, err, tt.want)
		}
	}
	// A collection's services of unknown robots, and services whose upstream
	// fetch failed (empty lists), are skipped.
	r, err := LoadRanges(fstest.MapFS{"ipverse-crawlers.json": {Data: []byte(`{"services":{
		"Bingbot":{"user_agent_patterns":["*bingbot*"],"ip_list_authoritative":true,"ipv4":["192.0.2.0/24"],"last_changed_at":"2026-01-02T00:00:00Z"},
		"Applebot":{"user_agent_patterns":["*Applebot*"],"ip_list_authoritative":true,"ipv4":[]},
		"Nobody":{"user_agent_patterns":["*NobodyBot*"],"ip_list_authoritative":true,"ipv4":["bad"]}}}`)}})
	if err != nil {
		t.Fatal(err)
	}
	if _, id, _ := r.Identify("bingbot", "192.0.2.9"); id != IdentityVerified || len(r.Files) != 1 || r.Files[0].Created != "2026-01-02T00:00:00Z" {
		t.Errorf("collection: bingbot %q, files %+v", id, r.Files)
	}
	if _, id, _ := r.Identify("Applebot", "17.241.75.9"); id != IdentityUnverified {
		t.Errorf("a service with no prefixes: Applebot %q, want unverified", id)
	}
	r, err = LoadRanges(fstest.MapFS{"googlebot.json": {Data: []byte(`{"creationTime":"2026-01-01T00:00:00","prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]}`)}})
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

// TestPurposeWithoutOperator: robots named by what they are for, with no
// operator whose addresses could check them.
func TestPurposeWithoutOperator(t *testing.T) {
	for name, want := range map[string]string{"StatusCake": "monitoring", "Blackbox Exporter": "monitoring", "TelegramBot": "social-preview", "WhatsApp": "social-preview", "Feedly": "feed", "Kagibot": "search", "MicrosoftPreview": "social-preview"} {
		if got := Purpose(name); got != want {
			t.Errorf("Purpose(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestIdentifyAt: a claim is judged by the lists of the client's own
// time, within 30 days either side; before the lists' history begins, by
// the earliest lists known, and an address in none of them is unverified,
// not an impostor. The built-in histories: OpenAI's ChatGPT-User list held
// 23.98.179.16/28 from the collection's first copy (2026-04-11) until
// 2026-08-05; Google's Googlebot list held 66.249.72.96/27 from its first
// copy (2024-02-13) until 2025-06-13, and 66.249.66.128/27 until
// 2024-04-30 and again from 2025-05-21.
func TestIdentifyAt(t *testing.T) {
	r := DefaultRanges()
	day := func(s string) time.Time {
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	tests := []struct {
		name, addr, at           string // at "": now
		identity, verified, note string
	}{
		// The real-world case: a 2024 log of ChatGPT-User from the prefix
		// OpenAI has since dropped.
		{"ChatGPT-User", "23.98.179.18", "2024-11-03", IdentityVerified, VerifiedByRange, "by the earliest ranges known, 2026-04-11"},
		{"ChatGPT-User", "23.98.179.18", "2026-05-01", IdentityVerified, VerifiedByRange, ""},
		{"ChatGPT-User", "23.98.179.18", "2026-08-30", IdentityVerified, VerifiedByRange, ""}, // within 30 days of its last list
		{"ChatGPT-User", "23.98.179.18", "2026-10-01", IdentityImpostor, "", ""},
		{"ChatGPT-User", "23.98.179.18", "", IdentityImpostor, "", ""},
		// An unrelated cloud address: in no OpenAI list at any time.
		{"ChatGPT-User", "34.120.0.10", "2024-11-03", IdentityUnverified, "", "ranges only from 2026-04-11"},
		{"ChatGPT-User", "34.120.0.10", "2026-05-01", IdentityImpostor, "", ""},
		// Google's lists over two and a half years.
		{"Googlebot", "66.249.72.100", "2025-01-01", IdentityVerified, VerifiedByRange, ""},
		{"Googlebot", "66.249.72.100", "2025-07-01", IdentityVerified, VerifiedByRange, ""},
		{"Googlebot", "66.249.72.100", "2025-09-01", IdentityImpostor, "", ""},
		{"Googlebot", "66.249.66.130", "2024-12-01", IdentityImpostor, "", ""}, // between its two spans
		{"Googlebot", "66.249.66.130", "2025-06-01", IdentityVerified, VerifiedByRange, ""},
		{"Googlebot", "66.249.72.100", "2021-03-01", IdentityVerified, VerifiedByRange, "by the earliest ranges known, 2024-02-13"},
		{"Googlebot", "203.0.113.50", "2021-03-01", IdentityUnverified, "", "ranges only from 2024-02-13"},
		{"Googlebot", "203.0.113.50", "2024-03-01", IdentityImpostor, "", ""},
		// Google's user-triggered fetchers' list (34.64.6.0/27 in it since
		// its first copy, 2024-02-27) verifies the fetchers it names, at
		// any time, and never Googlebot: not by its earliest copy either.
		{"Feedfetcher-Google", "34.64.6.10", "2025-03-01", IdentityVerified, VerifiedByRange, ""},
		{"Feedfetcher-Google", "34.64.6.10", "2021-03-01", IdentityVerified, VerifiedByRange, "by the earliest ranges known, 2024-02-27"},
		{"Googlebot", "34.64.6.10", "2025-03-01", IdentityImpostor, "", ""},
		{"Googlebot", "34.64.6.10", "2021-03-01", IdentityUnverified, "", "ranges only from 2024-02-13"},
		// A fetcher outside the lists robowatch holds may be in one Google
		// publishes for it that robowatch does not: unverified.
		{"Feedfetcher-Google", "203.0.113.50", "2025-03-01", IdentityUnverified, "", ""},
		// An operator with no ranges stays unverified whenever.
		{"Baiduspider", "203.0.113.50", "2021-03-01", IdentityUnverified, "", ""},
	}
	for _, tt := range tests {
		var at time.Time
		if tt.at != "" {
			at = day(tt.at)
		}
		_, id, by, note := r.IdentifyAt(tt.name, tt.addr, at, at)
		if id != tt.identity || by != tt.verified || note != tt.note {
			t.Errorf("IdentifyAt(%q, %q, %s) = %q, %q, %q; want %q, %q, %q", tt.name, tt.addr, tt.at, id, by, note, tt.identity, tt.verified, tt.note)
		}
	}
	// A client seen across the drop: the lists held it part of the time.
	if _, id, _, _ := r.IdentifyAt("ChatGPT-User", "23.98.179.18", day("2026-07-01"), day("2026-12-01")); id != IdentityVerified {
		t.Errorf("a client seen while listed and after: %q, want verified", id)
	}
	for _, tt := range []struct {
		at   string
		want bool
	}{{"2024-11-03", true}, {"2026-04-01", true}, {"2026-08-01", false}} {
		if got := r.NewerThan(day(tt.at)); got != tt.want {
			t.Errorf("NewerThan(%s) = %v, want %v (history from %v)", tt.at, got, tt.want, r.Files)
		}
	}
}
