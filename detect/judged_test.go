package detect

import (
	"testing"
	"time"
	"unsafe"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/robots"
)

// TestJudgedTable checks that a judgement keeps its index past the scan's
// length, when the table turns to a map, and that a stored time comes back
// as it went in, zone and all.
func TestJudgedTable(t *testing.T) {
	rb := robots.ParseBytes([]byte("User-agent: *\nDisallow: /a\nDisallow: /b\n"))
	m := rb.Agent("x")
	var tab judgedTable
	zones := []*time.Location{time.UTC, time.FixedZone("", 3600), time.FixedZone("", -7200)}
	var all []violationJudgement
	for i := range 3 * judgedScan {
		j := violationJudgement{checkResult{m: m, how: uint8(i % 4)}, zones[i/4%3]}
		j.rule = &robots.Rule{Line: i}
		all = append(all, j)
	}
	for round := range 2 {
		for i, j := range all {
			k, ok := tab.index(j)
			if !ok || int(k) != i {
				t.Fatalf("round %d: index of judgement %d = %d, %v", round, i, k, ok)
			}
		}
	}
	if n := unsafe.Sizeof(storedViolation{}); n != 32 {
		t.Errorf("a stored violation is %d bytes, want 32", n)
	}
	var v clientViolations
	for _, at := range []time.Time{
		time.Date(2026, 11, 28, 6, 0, 0, 0, time.UTC),
		time.Date(2026, 11, 28, 6, 0, 0, 123456789, time.FixedZone("", 3600)),
		time.Date(1999, 1, 2, 3, 4, 5, 6, time.Local),
	} {
		if !v.store(at, checkResult{m: m}, nil, "GET", "/a", 200) {
			t.Fatal("store refused")
		}
		sv := &v.list[len(v.list)-1]
		if got := sv.time(&v.judged); got != at {
			t.Errorf("stored %v, read back %v", at, got)
		}
	}
}

// TestEvidenceStaysWithItsViolation checks that a violation judged among
// versions keeps its fetches through the sort by time, and that those
// stored before and after it without any read none.
func TestEvidenceStaysWithItsViolation(t *testing.T) {
	m := robots.ParseBytes([]byte("User-agent: *\nDisallow: /\n")).Agent("x")
	base := time.Date(2026, 11, 28, 6, 0, 0, 0, time.UTC)
	f := &robotsFetches{lastAt: base.Unix() - 60, last: 200, okAt: base.Unix() - 120}
	cl := &client{ip: "192.0.2.1", ua: &agentInfo{ua: "bot", agent: &agents.Agent{Name: "bot"}},
		x: &clientRare{viol: &clientViolations{}}}
	v := cl.x.viol
	v.store(base.Add(3*time.Second), checkResult{m: m}, nil, "GET", "/a", 200)
	v.store(base.Add(1*time.Second), checkResult{m: m, ver: &version{}, how: copyFetched}, f, "GET", "/b", 200)
	v.store(base.Add(2*time.Second), checkResult{m: m}, nil, "GET", "/c", 200)
	var sv storedViolations
	sv.add(cl, "bot")
	got := findings.NewViolationList(&sv).Head(-1)
	if len(got) != 3 || got[0].Path != "/b" || got[1].Path != "/c" || got[2].Path != "/a" {
		t.Fatalf("violations %+v, want /b, /c, /a", got)
	}
	if got[0].LastFetch == nil || got[0].LastFetch.Unix() != f.lastAt || got[0].LastFetchStatus != 200 ||
		got[0].RobotsTxtFetched == nil || got[0].RobotsTxtFetched.Unix() != f.okAt || got[0].RobotsTxtCopy != "fetched" {
		t.Errorf("/b lost its evidence: %+v", got[0])
	}
	for _, g := range got[1:] {
		if g.LastFetch != nil || g.RobotsTxtFetched != nil || g.RobotsTxtCopy != "" {
			t.Errorf("%s has evidence it never had: %+v", g.Path, g)
		}
	}
}

// TestJudgedTableFullAtItsIndex checks the table at the width of a stored
// violation's index: the 65,536th distinct judgement is the last taken, the
// next is refused rather than wrapped onto index 0, and every judgement
// taken keeps its index.
func TestJudgedTableFullAtItsIndex(t *testing.T) {
	m := robots.ParseBytes([]byte("User-agent: *\nDisallow: /\n")).Agent("x")
	judgement := func(i int) violationJudgement {
		j := violationJudgement{checkResult{m: m}, time.UTC}
		j.rule = &robots.Rule{Line: i}
		return j
	}
	const full = 1 << 16
	all := make([]violationJudgement, full)
	var tab judgedTable
	for i := range all {
		all[i] = judgement(i)
		if k, ok := tab.index(all[i]); !ok || int(k) != i {
			t.Fatalf("judgement %d: index %d, %v", i, k, ok)
		}
	}
	if k, ok := tab.index(judgement(full)); ok {
		t.Fatalf("judgement %d taken at index %d: the table is full", full, k)
	}
	for _, i := range []int{0, 1, judgedScan, full / 2, full - 1} {
		if k, ok := tab.index(all[i]); !ok || int(k) != i {
			t.Errorf("judgement %d after the refusal: index %d, %v", i, k, ok)
		}
	}
}

// TestStoredTimeKeepsTheLogsZone checks that a stored violation's time
// reads back as the log wrote it, offset, zone name and nanoseconds, for
// the offsets logs carry (half hours, west of UTC, the date line) and for
// a time before 1970.
func TestStoredTimeKeepsTheLogsZone(t *testing.T) {
	m := robots.ParseBytes([]byte("User-agent: *\nDisallow: /\n")).Agent("x")
	for _, tc := range []struct {
		name string
		at   time.Time
	}{
		{"UTC", time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC)},
		{"+0530", time.Date(2024, 3, 10, 5, 30, 0, 0, time.FixedZone("", 5*3600+1800))},
		{"-0800 named", time.Date(2024, 3, 9, 16, 0, 0, 999999999, time.FixedZone("PST", -8*3600))},
		{"+1400", time.Date(2024, 3, 10, 14, 0, 0, 1, time.FixedZone("", 14*3600))},
		{"-1200", time.Date(2024, 3, 9, 12, 0, 0, 0, time.FixedZone("", -12*3600))},
		{"local", time.Date(2024, 3, 10, 1, 2, 3, 4, time.Local)},
		{"before 1970", time.Date(1969, 12, 31, 23, 59, 59, 500, time.FixedZone("", -3600))},
		{"zero", time.Time{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v clientViolations
			// Between two others in other zones: the index, not the last
			// zone, gives each its own.
			for _, at := range []time.Time{tc.at.In(time.FixedZone("", 3600)), tc.at, tc.at.UTC()} {
				if !v.store(at, checkResult{m: m}, nil, "GET", "/a", 200) {
					t.Fatal("store refused")
				}
			}
			got := v.list[1].time(&v.judged)
			if want := tc.at.Format(time.RFC3339Nano + " MST"); got.Format(time.RFC3339Nano+" MST") != want {
				t.Errorf("stored %s, read back %s", want, got.Format(time.RFC3339Nano+" MST"))
			}
			if got.IsZero() != tc.at.IsZero() || !got.Equal(tc.at) {
				t.Errorf("stored %v, read back %v", tc.at, got)
			}
		})
	}
}
