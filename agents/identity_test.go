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

// TestLoadRangesJAFAR: a JAFAR file (draft-illyes-webbotauth-jafar) names
// the robot of each prefix by its service: the prefix verifies that robot's
// claims, dated by the file's creationTime. A major formatVersion robowatch
// does not read, a file that does not parse and a file with no prefix are
// refused, naming the file and why.
func TestLoadRangesJAFAR(t *testing.T) {
	const good = `{"formatVersion":"1.0","creationTime":"2026-05-01T00:00:00Z","prefixes":[
		{"ipv4Prefix":"192.0.2.0/24","service":"GPTBot"},
		{"ipv6Prefix":"2001:db8:1::/48","services":["ChatGPT-User","OAI-SearchBot"]},
		{"ipv4Prefix":"198.51.100.0/24","service":"SomeUnknownBot"}]}`
	r, err := LoadRanges(fstest.MapFS{"openai.json": {Data: []byte(good)}}, "openai.json")
	if err != nil {
		t.Fatal(err)
	}
	may := time.Date(2026, 5, 10, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name, addr string
		at         time.Time
		identity   string
	}{
		{"GPTBot", "192.0.2.9", may, IdentityVerified},
		{"GPTBot", "203.0.113.9", may, IdentityImpostor},
		{"ChatGPT-User", "2001:db8:1::5", may, IdentityVerified},
		{"OAI-SearchBot", "2001:db8:1::5", may, IdentityVerified},
		// A service is for its robot alone: GPTBot's prefix is not
		// ChatGPT-User's.
		{"ChatGPT-User", "192.0.2.9", may, IdentityImpostor},
		// Before the file's day, only the earliest list known.
		{"GPTBot", "203.0.113.9", may.AddDate(-1, 0, 0), IdentityUnverified},
		{"GPTBot", "192.0.2.9", may.AddDate(-1, 0, 0), IdentityVerified},
		// Google publishes nothing in this file: no ranges, unverified.
		{"Googlebot", "66.249.66.1", may, IdentityUnverified},
	} {
		if _, id, _, _ := r.IdentifyAt(tt.name, tt.addr, tt.at, tt.at); id != tt.identity {
			t.Errorf("IdentifyAt(%q, %q, %s) = %q, want %q", tt.name, tt.addr, tt.at.Format(time.DateOnly), id, tt.identity)
		}
	}
	if len(r.Files) != 3 || r.Files[0].File != "openai.json#ChatGPT-User" || r.Files[0].Since != "2026-05-01" {
		t.Errorf("files %+v: want one a robot's service, dated", r.Files)
	}

	for _, tt := range []struct{ body, want string }{
		{`{"formatVersion":"2.0","creationTime":"2026-05-01T00:00:00Z","prefixes":[{"ipv4Prefix":"192.0.2.0/24","service":"GPTBot"}]}`,
			`range file openai.json: formatVersion "2.0": robowatch reads JAFAR (draft-illyes-webbotauth-jafar) version 1.x only`},
		{`{"formatVersion":"x","prefixes":[{"ipv4Prefix":"192.0.2.0/24","service":"GPTBot"}]}`, `formatVersion "x"`},
		{`{"formatVersion":"1.0","creationTime":"2026-05-01T00:00:00Z","prefixes":[]}`, "range file openai.json: 0 prefixes"},
		{`{"formatVersion":"1.0","prefixes":[{"ipv4Prefix":"192.0.2.0/33","service":"GPTBot"}]}`, `range file openai.json: prefix 1: "192.0.2.0/33" is not one CIDR network`},
		{`{"formatVersion":1.0,"prefixes":[`, "range file openai.json: unexpected end of JSON input"},
		{`{"formatVersion":"1.1","prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]}`, "range file openai.json: neither a service"},
	} {
		_, err := LoadRanges(fstest.MapFS{"openai.json": {Data: []byte(tt.body)}}, "openai.json")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("LoadRanges(%.60q): %v, want %q", tt.body, err, tt.want)
		}
	}
	// In a directory, a JSON file that is no range file is not read; a
	// JAFAR file of another major version is refused.
	if _, err := LoadRanges(fstest.MapFS{"googlebot.json": {Data: []byte(`{"creationTime":"2026-01-01T00:00:00","prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]}`)},
		"package.json": {Data: []byte(`{"name":"x"}`)}, "notes.json": {Data: []byte(`junk`)}}); err != nil {
		t.Errorf("a directory with other JSON files: %v", err)
	}
	if _, err := LoadRanges(fstest.MapFS{"bots.json": {Data: []byte(`{"formatVersion":"3.0","prefixes":[]}`)}}); err == nil || !strings.Contains(err.Error(), "bots.json: formatVersion") {
		t.Errorf("a directory with a JAFAR 3.0 file: %v", err)
	}
}

// TestLoadRangesHistory: a range file's history (NAME.history.tsv) dates
// its prefixes; the file's own copy, newer, is added to it; a copy that
// shrank to less than half of the latest list, or a history line that does
// not parse, is refused naming the file.
func TestLoadRangesHistory(t *testing.T) {
	const hist = "# comment\n= googlebot.json\t2025-01-01\t2025-06-01\t10\n192.0.2.0/24\t2025-01-01\t2025-06-01\n198.51.100.0/24\t2025-01-01\t2025-02-01\n"
	file := func(prefixes ...string) []byte {
		var p []string
		for _, s := range prefixes {
			p = append(p, `{"ipv4Prefix":"`+s+`"}`)
		}
		return []byte(`{"creationTime":"2025-09-01T00:00:00","prefixes":[` + strings.Join(p, ",") + `]}`)
	}
	r, err := LoadRanges(fstest.MapFS{"googlebot.json": {Data: file("192.0.2.0/24", "203.0.113.0/24")}, "googlebot.history.tsv": {Data: []byte(hist)}})
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
	for _, tt := range []struct {
		addr, at, identity string
	}{
		{"192.0.2.1", "2025-03-01", IdentityVerified},
		{"192.0.2.1", "2025-12-01", IdentityVerified}, // still published in the file's copy
		{"198.51.100.1", "2025-02-20", IdentityVerified},
		{"198.51.100.1", "2025-05-01", IdentityImpostor}, // dropped in February
		{"203.0.113.1", "2025-03-01", IdentityImpostor},  // added only by September's copy
		{"203.0.113.1", "2025-10-01", IdentityVerified},
		{"198.51.100.1", "2024-06-01", IdentityVerified}, // before the history: in its earliest list
		{"203.0.113.1", "2024-06-01", IdentityUnverified},
	} {
		if _, id, _, _ := r.IdentifyAt("Googlebot", tt.addr, at(tt.at), at(tt.at)); id != tt.identity {
			t.Errorf("%s at %s: %q, want %q", tt.addr, tt.at, id, tt.identity)
		}
	}
	for _, tt := range []struct {
		file       []byte
		hist, want string
	}{
		{file("192.0.2.0/24"), "= googlebot.json\t2025-01-01\t2025-06-01\t3\n192.0.2.0/24\t2025-01-01\t2025-06-01\n198.51.100.0/24\t2025-01-01\t2025-06-01\n203.0.113.0/24\t2025-01-01\t2025-06-01\n",
			"range file googlebot.json: 1 prefixes where its list of 2025-06-01 held 3: a partial list is not taken"},
		{file("192.0.2.0/24"), "192.0.2.0/24\t2025-01-01\t2025-06-01\n", `range history googlebot.history.tsv: line 1: "192.0.2.0/24`},
		{file("192.0.2.0/24"), "= googlebot.json\t2025-01-01\t2025-06-01\t3\n192.0.2.0/24\t2024-01-01\t2025-06-01\n", "line 2"},
		{file("192.0.2.0/24"), "= googlebot.json\tyesterday\t2025-06-01\t3\n", "line 1"},
	} {
		_, err := LoadRanges(fstest.MapFS{"googlebot.json": {Data: tt.file}, "googlebot.history.tsv": {Data: []byte(tt.hist)}})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("history %.50q: %v, want %q", tt.hist, err, tt.want)
		}
	}
}
