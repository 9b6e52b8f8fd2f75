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
