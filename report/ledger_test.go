package report

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"
)

// ledgerText is a one-site ledger as hand-written JSON; robot and operator
// are the rows' members beyond the ones every row has.
func ledgerText(site, first, last, robot, operator string) string {
	return `{"kind": "robowatch-ledger", "version": 1,
  "sites": [{"name": "` + site + `", "first": "` + first + `", "last": "` + last + `", "records": 100, "robot_requests": 50, "violations_checked": true}],
  "robots": [{"name": "ExampleBot", "sites": 1, "site_names": ["` + site + `"], "requests": 50, "bytes": 1000, "violations": 0, "cached": 0,
    "unreachable_requests": 0, "violated_on": [], "compliance": {"obeyed": 1},
    "conduct": {"sessions": 2, "requests": 50, "methods": {"GET": 50}, "disallow_compliance": 1}` + robot + `}],
  "operators": [{"operator": "Example", "sites": 1, "site_names": ["` + site + `"], "requests": 50` + operator + `}]}`
}

func mergeTexts(texts ...string) (*Ledger, error) {
	names := make([]string, len(texts))
	readers := make([]io.Reader, len(texts))
	for i, t := range texts {
		names[i], readers[i] = "part"+string(rune('1'+i)), strings.NewReader(t)
	}
	return MergeLedgers(names, readers)
}

// TestMergeLedgersUnknownFields: what a site did not measure is absent
// from the merge, not summed as 0; the inputs of crawl-to-refer and
// preference conflicts, which other runs may carry, are summed and the
// ratio worked out from the sums.
func TestMergeLedgersUnknownFields(t *testing.T) {
	const day1, day1End, day2, day2End = "2025-07-01T00:00:00Z", "2025-07-01T23:59:00Z", "2025-07-02T00:00:00Z", "2025-07-02T23:59:00Z"
	for _, tc := range []struct {
		name                    string
		robotA, robotB          string
		operatorA, operatorB    string
		pages, conflicts        string // "" absent
		opPages, referred, ctor string
	}{
		{"both measured", `, "pages": 40, "preference_conflicts": 3`, `, "pages": 10, "preference_conflicts": 2`,
			`, "pages": 40, "referred_views": 1`, `, "pages": 10000, "referred_views": 9`, "50", "5", "10040", "10", "1004"},
		{"pages on one site only", `, "pages": 40`, ``, `, "pages": 40, "referred_views": 0`, `, "referred_views": 4`, "", "", "", "4", ""},
		{"preference counted where measured", `, "preference_conflicts": 3`, ``, ``, ``, "", "3", "", "", ""},
		{"ratio to two decimals, as one site's", ``, ``, `, "pages": 40, "referred_views": 1`, `, "pages": 10000, "referred_views": 2`, "", "", "10040", "3", "3346.67"},
		{"no referrals: no ratio", ``, ``, `, "pages": 40, "referred_views": 0`, `, "pages": 10, "referred_views": 0`, "", "", "50", "0", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := mergeTexts(ledgerText("a.example", day1, day1End, tc.robotA, tc.operatorA), ledgerText("b.example", day2, day2End, tc.robotB, tc.operatorB))
			if err != nil {
				t.Fatal(err)
			}
			r, o := l.Robots[0], l.Operators[0]
			if r.Sites != 2 || r.Requests != 100 || o.Sites != 2 || o.Requests != 100 {
				t.Errorf("robot %d sites %d requests, operator %d sites %d requests; want 2 and 100 each", r.Sites, r.Requests, o.Sites, o.Requests)
			}
			for _, f := range []struct {
				field string
				got   string
				want  string
			}{
				{"pages", show(r.Pages), tc.pages},
				{"preference_conflicts", show(r.PreferenceConflicts), tc.conflicts},
				{"operators[].pages", show(o.Pages), tc.opPages},
				{"referred_views", show(o.ReferredViews), tc.referred},
				{"crawl_to_refer", show(o.CrawlToRefer), tc.ctor},
			} {
				if f.got != f.want {
					t.Errorf("%s = %q, want %q", f.field, f.got, f.want)
				}
			}
		})
	}
}

// show is *p as %v writes it, "" for nil.
func show[T int64 | float64](p *T) string {
	if p == nil {
		return ""
	}
	return fmt.Sprint(*p)
}

// TestMergeLedgersRefusesHandEdited: a ledger merge trusts no count it
// would add: negative counts, rows of sites the ledger does not hold,
// another kind or a later version are refused, naming the file.
func TestMergeLedgersRefusesHandEdited(t *testing.T) {
	const first, last = "2025-07-01T00:00:00Z", "2025-07-01T23:59:00Z"
	good := ledgerText("a.example", first, last, "", "")
	for _, tc := range []struct {
		name, text, want string
	}{
		{"negative requests", strings.Replace(good, `"requests": 50, "bytes"`, `"requests": -50, "bytes"`, 1), "negative count"},
		{"a row of another site", strings.Replace(good, `"site_names": ["a.example"], "requests": 50, "bytes"`, `"site_names": ["z.example"], "requests": 50, "bytes"`, 1), "not among the ledger's"},
		{"sites not its names", strings.Replace(good, `"sites": 1, "site_names": ["a.example"], "requests": 50, "bytes"`, `"sites": 7, "site_names": ["a.example"], "requests": 50, "bytes"`, 1), "not among the ledger's"},
		{"a later version", strings.Replace(good, `"version": 1`, `"version": 2`, 1), "ledger version 2"},
		{"another kind", strings.Replace(good, `robowatch-ledger`, `robowatch-report`, 1), "not a robowatch ledger"},
		{"no site", `{"kind": "robowatch-ledger", "version": 1, "sites": [], "robots": [], "operators": []}`, "a ledger of no site"},
		{"two ledgers in one file", good + good, "more than one ledger"},
		{"one site twice in it", strings.Replace(good, `"sites": [{`, `"sites": [{"name": "a.example", "first": "`+first+`", "last": "`+last+`", "records": 1, "robot_requests": 0}, {`, 1), "holds site a.example twice"},
		{"negative conduct sessions", strings.Replace(good, `"conduct": {"sessions": 2`, `"conduct": {"sessions": -2`, 1), "negative count"},
		{"negative GETs", strings.Replace(good, `"methods": {"GET": 50}`, `"methods": {"GET": -50}`, 1), "negative count"},
		{"negative requests after a 429", strings.Replace(good, `"conduct": {"sessions": 2`, `"conduct": {"error_after": -1, "sessions": 2`, 1), "negative count"},
		{"robot requests past the records", strings.Replace(good, `"robot_requests": 50`, `"robot_requests": 500`, 1), "not a ledger robowatch wrote"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := mergeTexts(tc.text)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "part1") {
				t.Errorf("error %v, want part1: … %q", err, tc.want)
			}
		})
	}
}

// TestIsLedger: merge tells a ledger from a JSON report by its first
// member, without reading past it.
func TestIsLedger(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{ledgerText("a.example", "2025-07-01T00:00:00Z", "2025-07-01T23:59:00Z", "", ""), true},
		{"{\n  \"version\": 1,\n  \"summary\": {}}", false},
		{`{"kind": "other"}`, false},
		{``, false},
		{`not json`, false},
	} {
		br := bufio.NewReader(strings.NewReader(tc.text))
		if got := IsLedger(br); got != tc.want {
			t.Errorf("IsLedger(%.30q) = %v, want %v", tc.text, got, tc.want)
		}
		if rest, _ := io.ReadAll(br); string(rest) != tc.text {
			t.Errorf("IsLedger(%.30q) consumed the input", tc.text)
		}
	}
}

// TestMergeLedgersConductSaturates: the ledgers of other sites are theirs
// to write; two that each claim 9e18 sessions of a robot merged to a
// negative count. Conduct saturates as the rows' other counts do, and
// its shares stay within 0 and 1.
func TestMergeLedgersConductSaturates(t *testing.T) {
	const huge = `9000000000000000000`
	robot := func(site, first, last string) string {
		return strings.Replace(ledgerText(site, first, last, "", ""), `"conduct": {"sessions": 2, "requests": 50, "methods": {"GET": 50}`,
			`"conduct": {"sessions": `+huge+`, "requests": `+huge+`, "not_modified": `+huge+`, "error_episodes": 1, "error_before": `+huge+`, "error_after": `+huge+`, "methods": {"GET": `+huge+`}`, 1)
	}
	l, err := mergeTexts(robot("a.example", "2025-07-01T00:00:00Z", "2025-07-01T23:59:00Z"), robot("b.example", "2025-07-02T00:00:00Z", "2025-07-02T23:59:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	k := l.Robots[0].Conduct
	if k.Sessions < 0 || k.Requests < 0 || k.NotModified < 0 || k.ErrorBefore < 0 || k.ErrorAfter < 0 || k.Methods["GET"] < 0 {
		t.Errorf("a count wrapped: %+v", k)
	}
	if k.ConditionalShare < 0 || k.ConditionalShare > 1 {
		t.Errorf("conditional_share %v, want within 0 and 1", k.ConditionalShare)
	}
	if k.ErrorBackoff != "kept-pace" {
		t.Errorf("error_backoff %q, want kept-pace (as many requests after as before)", k.ErrorBackoff)
	}
}

// TestMergeLedgersComplianceSaturates: each site's compliance count was
// kept at 0 or more, but the sum over sites was not bounded: two ledgers
// each claiming 9e18 obeyed sites merged to a negative count. The sum
// saturates as the rows' other counts do.
func TestMergeLedgersComplianceSaturates(t *testing.T) {
	const huge = `9000000000000000000`
	for _, tc := range []struct {
		name  string
		count string
		want  int
	}{
		{"counts that add up", `1`, 2},
		{"counts past the largest", huge, math.MaxInt},
		{"negative counts", `-5`, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			robot := func(site, first, last string) string {
				return strings.Replace(ledgerText(site, first, last, "", ""), `"compliance": {"obeyed": 1}`, `"compliance": {"obeyed": `+tc.count+`}`, 1)
			}
			l, err := mergeTexts(robot("a.example", "2025-07-01T00:00:00Z", "2025-07-01T23:59:00Z"), robot("b.example", "2025-07-02T00:00:00Z", "2025-07-02T23:59:00Z"))
			if err != nil {
				t.Fatal(err)
			}
			if got := l.Robots[0].Compliance["obeyed"]; got != tc.want {
				t.Errorf("compliance obeyed %d; want %d", got, tc.want)
			}
		})
	}
}
