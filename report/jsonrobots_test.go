package report

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/findings"
)

// TestRobotRowsAsEncodingJSON holds the hand-written robots rows to
// encoding/json's bytes, on random rows with every field set or not.
func TestRobotRowsAsEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 7))
	prefixes := []string{"", "  ", "    ", "      ", strings.Repeat(" ", 31), strings.Repeat(" ", 40), "\t"}
	compared := 0
	for i := range 5000 {
		s := randomRobot(r)
		prefix := prefixes[i%len(prefixes)]
		want, err := json.MarshalIndent(s, prefix, "  ")
		got, ok := appendRobot(nil, s, prefix)
		if err != nil || !ok {
			if ok {
				t.Errorf("robot %d: written by hand, encoding/json says %v:\n%s", i, err, got)
			}
			continue
		}
		if string(got) != string(want) {
			t.Fatalf("robot %d at %q:\n got %s\nwant %s", i, prefix, got, want)
		}
		compared++
	}
	if compared < 2000 {
		t.Errorf("%d rows of 5000 written by hand, want most", compared)
	}
}

// TestRobotRowsFallBack: what the hand-written path cannot write exactly
// goes to encoding/json.
func TestRobotRowsFallBack(t *testing.T) {
	late := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	tiny, huge := 1e-7, 1e21
	for i, s := range []findings.RobotSummary{
		{FirstFetch: &late},
		{LastViolation: &late},
		{FirstViolation: &late},
		{Conduct: findings.Conduct{ConditionalShare: tiny}},
		{Conduct: findings.Conduct{DisallowCompliance: &huge}},
		{Conduct: findings.Conduct{CrawlDelayCompliance: &tiny}},
		{Conduct: findings.Conduct{ConditionalShare: math.NaN()}},
	} {
		if _, ok := appendRobot(nil, &s, "    "); ok {
			t.Errorf("robot %d: written by hand", i)
		}
	}
}

// randomRobot is a row with each field set or not, at random, to hostile
// text and edge values.
func randomRobot(r *rand.Rand) *findings.RobotSummary {
	maybe := func() bool { return r.IntN(2) == 0 }
	text := func() string {
		if maybe() {
			return ""
		}
		return randomText(r)
	}
	num := func() int64 {
		switch r.IntN(5) {
		case 0:
			return 0
		case 1:
			return math.MaxInt64
		case 2:
			return -r.Int64N(1000)
		}
		return r.Int64N(1 << 40)
	}
	when := func() *time.Time {
		if maybe() {
			return nil
		}
		zones := []*time.Location{time.UTC, time.FixedZone("", -7*3600-1800), time.FixedZone("X", 5*3600)}
		t := time.Date(r.IntN(10001), time.Month(1+r.IntN(12)), 1+r.IntN(28), r.IntN(24), r.IntN(60), r.IntN(60),
			[]int{0, r.IntN(1e9), 1000}[r.IntN(3)], zones[r.IntN(len(zones))])
		if r.IntN(50) == 0 {
			t = t.AddDate(r.IntN(3)*10000, 0, 0) // past year 9999
		}
		return &t
	}
	float := func() float64 {
		switch r.IntN(8) {
		case 0:
			return 0
		case 1:
			return math.Copysign(0, -1)
		case 2:
			return 1e-7 * r.Float64()
		case 3:
			return 1e22 * (1 + r.Float64())
		case 4:
			return 1e-6
		case 5:
			return float64(r.IntN(3)) / 3
		}
		return r.Float64()
	}
	nullableFloat := func() *float64 {
		if maybe() {
			return nil
		}
		f := float()
		return &f
	}
	s := &findings.RobotSummary{
		Name: text(), Clients: int(num()), Requests: num(), Bytes: num(), Violations: num(), FetchedRobotsTxt: maybe(),
		Cached: num(), PreferenceConflicts: num(), PreferenceRule: text(),
		FirstFetch: when(), FirstViolation: when(), Finding: text(), LastViolation: when(),
		Compliance: text(), Operator: text(), Identity: text(), Purpose: text(), URL: text(),
		Incidents: int(num()), CrawlDelayFast: maybe(), VerifiedBy: text(), UnreachableRequests: num(),
		RobotsTxtServed: findings.Served{OK: num(), Redirect: num(), Unavailable: num(), Unreachable: num(), Page: num()},
		Conduct: findings.Conduct{
			Sessions: num(), RobotsTxtFetches: num(), DisallowCompliance: nullableFloat(), CrawlDelayCompliance: nullableFloat(),
			ErrorBackoff: text(), ConditionalShare: float(), Requests: num(), ViolatingSessions: num(), UnjudgedSessions: num(),
			CrawlDelaySessions: num(), FastSessions: num(), NotModified: num(), ErrorEpisodes: num(), ErrorBefore: num(), ErrorAfter: num(),
		},
		Status:           findings.StatusCounts{StatusMix: findings.StatusMix{S2xx: num(), S3xx: num(), S4xx: num(), S5xx: num(), Other: num()}, NotFound: num()},
		TopPathsOtherMax: num(),
	}
	if maybe() {
		s.Discovery = &findings.Discovery{LLMsTxt: num(), LLMsFullTxt: num(), WellKnown: num()}
	}
	if maybe() {
		g := num()
		s.Conduct.RobotsTxtMaxGap = &g
	}
	switch r.IntN(3) {
	case 0:
		s.Prefixes = []findings.PrefixCount{}
	case 1:
		for range 1 + r.IntN(4) {
			s.Prefixes = append(s.Prefixes, findings.PrefixCount{Prefix: randomText(r), Count: num()})
		}
	}
	switch r.IntN(3) {
	case 0:
		s.TopPaths = []findings.PathCount{}
	case 1:
		for range 1 + r.IntN(4) {
			s.TopPaths = append(s.TopPaths, findings.PathCount{Path: randomText(r), Requests: num(), Error: num()})
		}
	}
	s.Reasons = randomCounts[int](r, num)
	s.Conduct.Methods = randomCounts[int64](r, num)
	return s
}

// randomCounts is nil, empty, or a map of up to 12 hostile keys.
func randomCounts[V int | int64](r *rand.Rand, num func() int64) map[string]V {
	switch r.IntN(3) {
	case 0:
		return nil
	case 1:
		return map[string]V{}
	}
	m := map[string]V{}
	for range 1 + r.IntN(12) {
		m[randomText(r)] = V(num())
	}
	return m
}

// TestRobotBucketsAsEncodingJSON holds the state's by_robot rows to
// encoding/json's bytes.
func TestRobotBucketsAsEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	rows := []findings.RobotBuckets{{}, {Buckets: [][2]int64{}}, {Name: "<b>&", Buckets: [][2]int64{{math.MinInt64, math.MaxInt64}}}}
	for range 2000 {
		b := findings.RobotBuckets{Name: randomText(r)}
		if r.IntN(4) > 0 {
			b.Buckets = [][2]int64{}
			for range r.IntN(6) {
				b.Buckets = append(b.Buckets, [2]int64{r.Int64N(1 << 20), r.Int64() - 1<<62})
			}
		}
		rows = append(rows, b)
	}
	prefixes := []string{"", "  ", "    ", "      ", strings.Repeat(" ", 31), "\t"}
	for i := range rows {
		prefix := prefixes[i%len(prefixes)]
		want, err := json.MarshalIndent(&rows[i], prefix, "  ")
		if err != nil {
			t.Fatal(err)
		}
		if got := appendRobotBuckets(nil, &rows[i], prefix); string(got) != string(want) {
			t.Fatalf("row %d at %q:\n got %s\nwant %s", i, prefix, got, want)
		}
	}
}
