package findings

import "testing"

// TestJoinEdge: the edge of two days of one client, as one run over both
// makes it, and what it changes in the days' counts.
func TestJoinEdge(t *testing.T) {
	p := func(v int64) *int64 { return &v }
	day1 := ClientEdge{Sessions: 2, First: 0, Last: 1000, Head: EdgeOpensRobots, Tail: EdgeDelayed, FetchFirst: p(0), FetchLast: p(900)}
	for _, tc := range []struct {
		name     string
		b        ClientEdge
		sessions int64
		fast     int64
		gap      *int64
		viol     int64
	}{
		{"a session across midnight counts once", ClientEdge{Sessions: 1, First: 1012, Last: 1100, Head: EdgeDelayed, Tail: EdgeDelayed, HeadDelayMs: 10000},
			-1, 0, p(200), 0},
		{"the delay broken between the days breaks it", ClientEdge{Sessions: 1, First: 1005, Last: 1100, Head: EdgeDelayed, Tail: EdgeDelayed, HeadDelayMs: 10000},
			-1, 1, p(200), 0},
		{"a violation after midnight makes the one session violating", ClientEdge{Sessions: 1, First: 1012, Last: 1012, Head: EdgeDelayed | EdgeViolating, Tail: EdgeDelayed | EdgeViolating, HeadDelayMs: 10000},
			-1, 0, p(112), 0},
		{"a pause over 5 minutes is a new session", ClientEdge{Sessions: 1, First: 1400, Last: 1500, Head: EdgeDelayed, Tail: EdgeDelayed, HeadDelayMs: 10000},
			0, 0, p(600), 0},
		{"the gap ends at the next day's first fetch", ClientEdge{Sessions: 1, First: 2000, Last: 3000, FetchFirst: p(2500), FetchLast: p(2500), BeforeFetch: p(2400)},
			0, 0, p(1500), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var dl edgeDelta
			a, b := day1, tc.b
			out := joinEdge(&a, &b, &dl)
			if dl.sessions != tc.sessions || dl.fast != tc.fast || dl.violating != tc.viol {
				t.Errorf("sessions %+d, fast %+d, violating %+d; want %+d, %+d, %+d", dl.sessions, dl.fast, dl.violating, tc.sessions, tc.fast, tc.viol)
			}
			if (dl.gap == nil) != (tc.gap == nil) || dl.gap != nil && *dl.gap != *tc.gap {
				t.Errorf("gap %v; want %v", dl.gap, *tc.gap)
			}
			if out.First != a.First || out.Last != b.Last || out.Sessions != a.Sessions+b.Sessions+tc.sessions {
				t.Errorf("joined edge %+v", out)
			}
		})
	}
}

// TestJoinEdgeOfEditedParts: the edges of a merge part are the part's to
// write; times and a Crawl-delay far past what a Duration holds must not
// wrap into a session joined across years, or a robot marked faster than
// its Crawl-delay (or not) by an overflow.
func TestJoinEdgeOfEditedParts(t *testing.T) {
	const maxInt64 = 1<<63 - 1
	for _, tc := range []struct {
		name           string
		aLast, bFirst  int64
		delayMs        int64
		sessions, fast int64
	}{
		{"a day 300 years on keeps its delay", 1000, 1000 + 1e10, 10000, 0, 0},
		{"a Crawl-delay past the largest Duration is kept slower than", 1000, 1400, 1 << 62, 0, 1},
		{"a Crawl-delay of the largest milliseconds", 1000, 1400, maxInt64, 0, 1},
		{"times at both ends of int64 are not one session", -9e18, 9e18, 10000, 0, 0},
		{"a day at the end of int64 is not faster than its delay", 0, maxInt64, maxInt64, 0, 0},
		{"a second after, under a delay of 10 s, is fast", 1000, 1001, 10000, -1, 1},
		// Log times are whole seconds: 9 s apart may be 9.9 s.
		{"8 s after, under a delay of 10 s, is fast", 1000, 1008, 10000, -1, 1},
		{"9 s after, under a delay of 10 s, is not", 1000, 1009, 10000, -1, 0},
		{"9 s after, under a delay of 10.5 s, is fast", 1000, 1009, 10500, -1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var dl edgeDelta
			a := ClientEdge{Sessions: 1, First: tc.aLast, Last: tc.aLast, Head: EdgeDelayed, Tail: EdgeDelayed}
			b := ClientEdge{Sessions: 1, First: tc.bFirst, Last: tc.bFirst, Head: EdgeDelayed, Tail: EdgeDelayed, HeadDelayMs: tc.delayMs}
			joinEdge(&a, &b, &dl)
			if dl.sessions != tc.sessions || dl.fast != tc.fast {
				t.Errorf("sessions %+d, fast %+d; want %+d, %+d", dl.sessions, dl.fast, tc.sessions, tc.fast)
			}
		})
	}
}
