package detect

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/robots"
)

// TestViolationListOrder checks that reading the clients' own lists merged
// gives what a stable sort by time of all of them, in verdict order, gives:
// the order the report has always printed. Times repeat and clients'
// lists are out of order, as in logs written by several workers, and
// some times differ in their fraction of a second only.
func TestViolationListOrder(t *testing.T) {
	m := robots.ParseBytes([]byte("User-agent: *\nDisallow: /\n")).Agent("x")
	base := time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)
	for _, tc := range []struct{ clients, per, spread int }{
		{0, 0, 1}, {1, 1, 1}, {1, 50, 5}, {3, 20, 3}, {40, 30, 10}, {7, 100, 1000},
	} {
		rng := rand.New(rand.NewPCG(uint64(tc.clients), uint64(tc.per)))
		var sv storedViolations // no index: Of scans
		l := findings.NewViolationList(&sv)
		var want []findings.Violation
		for c := range tc.clients {
			cl := &client{ip: fmt.Sprintf("192.0.2.%d", c), ua: &agentInfo{ua: "bot", agent: &agents.Agent{Name: "bot"}},
				x: &clientRare{viol: &clientViolations{}}}
			n := rng.IntN(tc.per + 1)
			for i := range n {
				at := base.Add(time.Duration(rng.IntN(tc.spread))*time.Second + time.Duration(rng.IntN(3))*250*time.Millisecond)
				cl.x.viol.store(at, checkResult{m: m}, nil, "GET", fmt.Sprintf("/p%d", i), 200)
				want = append(want, findings.Violation{IP: cl.ip, UserAgent: "bot", Name: "bot", Time: at, Method: "GET",
					Path: fmt.Sprintf("/p%d", i), Status: 200, Group: m.Group()})
			}
			sv.add(cl, "bot")
		}
		slices.SortStableFunc(want, func(a, b findings.Violation) int { return a.Time.Compare(b.Time) })
		got := l.Head(-1)
		if l.Len() != len(want) || !reflect.DeepEqual(got, nonNil(want)) && len(want) > 0 {
			t.Errorf("%+v: merged order differs from a stable sort (%d of %d)", tc, len(got), len(want))
		}
		if len(want) > 3 && !reflect.DeepEqual(l.Head(3), want[:3]) {
			t.Errorf("%+v: Head(3) = %v", tc, l.Head(3))
		}
		for _, indexed := range []bool{false, true} {
			if indexed {
				sv.index = new(findings.Index)
			}
			for c := range tc.clients + 1 { // and one client without violations
				ip := fmt.Sprintf("192.0.2.%d", c)
				var mine []findings.Violation
				for _, v := range want {
					if v.IP == ip && len(mine) < 5 {
						mine = append(mine, v)
					}
				}
				if got := l.Of(ip, "bot", 5); len(got) != len(mine) || len(mine) > 0 && !reflect.DeepEqual(got, mine) {
					t.Errorf("%+v: Of(%s) (index %v) = %d violations, want %d", tc, ip, indexed, len(got), len(mine))
				}
			}
		}
		b, err := json.Marshal(l) // by value too: a copied Result still marshals its lists
		if err != nil {
			t.Fatal(err)
		}
		wb, _ := json.Marshal(nonNil(want))
		if string(b) != string(wb) {
			t.Errorf("%+v: MarshalJSON = %.200s, want %.200s", tc, b, wb)
		}
	}
}
