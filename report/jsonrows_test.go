package report

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/findings"
)

// TestRowsAsEncodingJSON holds the hand-written rows to encoding/json's
// bytes: the JSON contract's clients and networks lists must not change
// with the writer behind them.
func TestRowsAsEncodingJSON(t *testing.T) {
	at := time.Date(2024, 3, 10, 4, 29, 8, 0, time.UTC)
	zoned := time.Date(2024, 3, 10, 4, 29, 8, 123456789, time.FixedZone("", -7*3600-1800))
	hostile := []string{
		"", "plain", `quote " and \ backslash`, "<script>&amp;</script>", "tab\tnl\ncr\rbs\bff\f",
		"\x00\x01\x1f\x7f", "bad utf-8 \xff\xfe \xc3", "line sep \u2028 para \u2029", "émoji 🤖 日本",
		"\x1b[31mred\x1b[0m", "trailing \xe2\x80",
	}
	verdicts := []findings.Verdict{
		{},
		{IP: "203.0.113.9", UserAgent: "Mozilla/5.0", Name: "Chrome", Kind: "browser", Reasons: []string{}, Details: []string{},
			Requests: 6, Bytes: 221582, Pages: 5, Assets: 1, First: at, Last: at.Add(6 * time.Second),
			Peak: findings.Peak{Per1s: 2, Per10s: 6, Per60s: 6, At1s: at, At10s: at, At60s: at}, Network: "203.0.113.0/24"},
		{IP: "66.249.66.1", UserAgent: "Googlebot/2.1", Robot: true, Name: "Googlebot", Kind: "crawler", Score: 120,
			Reasons: []string{"robots-txt", "user-agent"}, Details: []string{"fetched /robots.txt 3 times", "a"},
			Violations: 4, Incidents: 2, RobotsTxtFetches: 3, Errors: 7, First: zoned, Last: zoned,
			Peak: findings.Peak{Per1s: 1, At10s: zoned}, CrawlDelay: 2.5, CrawlDelayFast: true,
			Operator: "Google", Identity: "verified", VerifiedBy: "ip-range", Purpose: "search", IdentityNote: "by the earliest ranges known, 2024-02-13"},
		{CrawlDelay: 1e-6, Bytes: -1, Requests: 1<<63 - 1},
		// The same instant in other zones, and times taking turns.
		{First: at, Last: at.In(zoned.Location()), Peak: findings.Peak{At1s: at, At10s: at.In(time.UTC), At60s: zoned}},
		{First: zoned, Last: at, Peak: findings.Peak{At1s: zoned, At10s: at, At60s: zoned.Add(time.Nanosecond)}},
		{CrawlDelay: 123456789012345678},
	}
	for i, s := range hostile {
		verdicts = append(verdicts, findings.Verdict{IP: s, UserAgent: s, Name: s, Kind: s, Reasons: []string{s, s}, Details: []string{s},
			Operator: s, Identity: s, VerifiedBy: s, Purpose: s, Network: s, IdentityNote: s, Score: -i})
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		verdicts = append(verdicts, findings.Verdict{UserAgent: randomText(r), Name: randomText(r), Details: []string{randomText(r)}})
	}
	for i := range verdicts {
		v := &verdicts[i]
		want, err := json.MarshalIndent(v, "    ", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got, ok := appendVerdict(nil, v, "    ")
		if !ok {
			t.Errorf("verdict %d: not written by hand", i)
			continue
		}
		if string(got) != string(want) {
			t.Errorf("verdict %d:\n got %s\nwant %s", i, got, want)
		}
	}

	for i, s := range append(hostile, "Disallow: /admin/") {
		v := findings.Violation{IP: s, UserAgent: s, Name: s, Time: zoned.Add(time.Duration(i) * time.Millisecond), Method: s, Path: s,
			Status: 404 + i, Group: s, Rule: s, Line: i}
		want, _ := json.MarshalIndent(&v, "    ", "  ")
		got, ok := appendViolation(nil, &v, "    ")
		if !ok || string(got) != string(want) {
			t.Errorf("violation %d:\n got %s\nwant %s", i, got, want)
		}
	}
	for i, n := range []findings.NetworkSummary{
		{},
		{Network: "203.0.0.0/24", Clients: 13844, Robots: 2313, Requests: 16234, UserAgents: 10000},
		{Network: "2001:db8::/48", Operator: "Google <LLC> & \u2028", Violations: 3, Incidents: 1},
	} {
		want, _ := json.MarshalIndent(&n, "    ", "  ")
		got, _ := appendNetwork(nil, &n, "    ")
		if string(got) != string(want) {
			t.Errorf("network %d:\n got %s\nwant %s", i, got, want)
		}
	}
}

// TestRowsLeaveOddValuesToEncodingJSON: what the hand-written path cannot
// write exactly is refused, so encoding/json writes (or rejects) it.
func TestRowsLeaveOddValuesToEncodingJSON(t *testing.T) {
	for _, v := range []findings.Verdict{
		{First: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)},
		{Peak: findings.Peak{At60s: time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)}},
		{CrawlDelay: 1e21},
		{CrawlDelay: 1e-7},
	} {
		if _, ok := appendVerdict(nil, &v, ""); ok {
			t.Errorf("%+v written by hand", v)
		}
	}
}

// randomText is a short string of bytes biased towards the ones JSON
// escapes.
func randomText(r *rand.Rand) string {
	const special = "\"\\<>&\x00\x1f\t\n\r\b\f\x7f\xff\xc3\xe2\x80\xa8\xa9 aZ9é"
	b := make([]byte, r.IntN(24))
	for i := range b {
		if r.IntN(2) == 0 {
			b[i] = special[r.IntN(len(special))]
		} else {
			b[i] = byte(r.IntN(256))
		}
	}
	return string(b)
}

// TestDeeper: a row's indent is its prefix and two spaces, cut from a
// constant when it can be, made when it cannot.
func TestDeeper(t *testing.T) {
	for _, in := range []string{"", "  ", "    ", "      ", strings.Repeat(" ", 30), strings.Repeat(" ", 31), strings.Repeat(" ", 40), "\t", " x"} {
		if got, want := deeper(in), in+"  "; got != want {
			t.Errorf("deeper(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestAppendJSONString holds appendJSONString to encoding/json's quoting
// (HTML escaping on), with a special byte at every offset of plain runs
// longer than its eight-byte steps.
func TestAppendJSONString(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 13))
	var in []string
	for range 3000 {
		in = append(in, randomText(r))
	}
	plain := "Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101"
	for _, special := range []string{"\"", "\\", "<", ">", "&", "\x00", "\x1f", "\x7f", "\xff", "é", "\u2028", "\xe2\x80"} {
		for i := 0; i <= len(plain); i++ {
			in = append(in, plain[:i]+special+plain[i:])
		}
	}
	for _, s := range in {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Fatalf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
	}
}
