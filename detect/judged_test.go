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
