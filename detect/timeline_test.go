package detect

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

func sum(xs []int64) int64 {
	var n int64
	for _, x := range xs {
		n += x
	}
	return n
}

// bucketOf is where a time falls on tl, computed from scratch.
func bucketOf(tl *findings.Timeline, at time.Time) int {
	return int(at.Sub(tl.Start) / (time.Duration(tl.BucketSeconds) * time.Second))
}

func TestTimelineBucketWidth(t *testing.T) {
	india := time.FixedZone("IST", 5*3600+1800)
	start := time.Date(2024, 3, 10, 9, 0, 0, 0, india)
	cases := []struct {
		span    time.Duration
		width   int64
		buckets int
	}{
		{0, 1, 1},
		{199 * time.Second, 1, 200},
		{200 * time.Second, 5, 41},
		{time.Hour, 30, 121},
		{24 * time.Hour, 600, 145},
		{2 * 24 * time.Hour, 1800, 97},
		{30 * 24 * time.Hour, 6 * 3600, 121},
		{3 * 365 * 24 * time.Hour, 8 * 86400, 137},
	}
	for _, tc := range cases {
		t.Run(tc.span.String(), func(t *testing.T) {
			// Run as if at the end of the span: the log reaches past today.
			d := New(Config{Now: func() time.Time { return start.Add(tc.span) }})
			// Records from both ends towards the middle: the width grows
			// and buckets merge in both directions.
			var times []time.Time
			for i := 0; i <= 20; i++ {
				times = append(times, start.Add(tc.span*time.Duration(i)/20))
			}
			for i := 0; i <= 10; i++ {
				for _, at := range []time.Time{times[i], times[20-i]} {
					d.Add(&logparse.Record{Client: "192.0.2.1", UserAgent: "curl/8.0", Time: at, Method: "GET", Target: "/"})
				}
			}
			tl := d.Result().Timeline
			if tl.BucketSeconds != tc.width || len(tl.Requests) != tc.buckets {
				t.Fatalf("width %d s, %d buckets; want %d s, %d", tl.BucketSeconds, len(tl.Requests), tc.width, tc.buckets)
			}
			if tl.Start.Location() != india {
				t.Errorf("start %v not in the log's zone", tl.Start)
			}
			// Buckets are aligned in local time: a 10 min bucket starts on
			// a multiple of 10 minutes of the local clock.
			h, m, s := tl.Start.Clock()
			if int64(h*3600+m*60+s)%min(tc.width, 86400) != 0 {
				t.Errorf("start %v is not aligned to %d s", tl.Start, tc.width)
			}
			if tl.Start.After(start) || !tl.Start.Add(time.Duration(tc.width)*time.Second).After(start) {
				t.Errorf("start %v does not hold the first record %v", tl.Start, start)
			}
			if sum(tl.Requests) != 22 || sum(tl.Robots) != 22 || sum(tl.Humans) != 0 {
				t.Errorf("requests %d, robots %d, humans %d; want 22, 22, 0", sum(tl.Requests), sum(tl.Robots), sum(tl.Humans))
			}
			if tl.Requests[0] == 0 || tl.Requests[len(tl.Requests)-1] == 0 {
				t.Errorf("first or last bucket empty: %v", tl.Requests)
			}
		})
	}
}

// TestTimelineMatchesReference replays shuffled traffic of robots and people
// (times out of order by up to several minutes, and a few by days) and
// checks every bucket against a count made from scratch with the final
// verdicts.
func TestTimelineMatchesReference(t *testing.T) {
	for _, span := range []int{600, 3 * 3600, 5 * 86400} {
		t.Run(fmt.Sprint(span), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(span)))
			var reqs []req
			for c := 0; c < 40; c++ {
				ip := fmt.Sprintf("10.0.0.%d", c)
				start := rng.IntN(span)
				switch c % 4 {
				case 0:
					reqs = append(reqs, paced(ip, curlUA, start, 15, 20)...)
				case 1:
					reqs = append(reqs, paced(ip, googleUA, start, 30, 60)...)
				default:
					reqs = append(reqs, browse(ip, chromeUA, start, 8, 45)...)
				}
			}
			// Log order, then disorder: neighbours swapped within 5
			// minutes, and a few records days late.
			slices.SortStableFunc(reqs, func(a, b req) int { return a.sec - b.sec })
			for i := range reqs {
				j := min(len(reqs)-1, i+rng.IntN(20))
				if reqs[j].sec-reqs[i].sec < 300 {
					reqs[i], reqs[j] = reqs[j], reqs[i]
				}
			}
			for i := 0; i < 5; i++ {
				k := rng.IntN(len(reqs))
				reqs = append(reqs, reqs[k])
				reqs[k].sec -= 3 * 86400
			}
			res := run(Config{}, reqs)
			tl := &res.Timeline
			robot := map[string]bool{}
			for v := range res.Clients.All() {
				robot[v.IP+v.UserAgent] = v.Robot
			}
			n := len(tl.Requests)
			if n > findings.MaxBins || n == 0 {
				t.Fatalf("%d buckets", n)
			}
			want, wantRobots := make([]int64, n), make([]int64, n)
			for _, q := range reqs {
				i := bucketOf(tl, q.record().Time)
				if i < 0 || i >= n {
					t.Fatalf("record at %v outside the timeline from %v", q.record().Time, tl.Start)
				}
				want[i]++
				if robot[q.ip+q.ua] {
					wantRobots[i]++
				}
			}
			if !slices.Equal(tl.Requests, want) || !slices.Equal(tl.Robots, wantRobots) {
				t.Errorf("requests\n got %v\nwant %v\nrobots\n got %v\nwant %v", tl.Requests, want, tl.Robots, wantRobots)
			}
			for i := range want {
				if tl.Humans[i] != want[i]-wantRobots[i] {
					t.Fatalf("bucket %d: humans %d, want %d", i, tl.Humans[i], want[i]-wantRobots[i])
				}
			}
			if tl.Estimated != 0 || tl.Other != nil {
				t.Errorf("estimated %d, other %v; want none", tl.Estimated, tl.Other)
			}
		})
	}
}

// TestTimelineLateRobot: a browser that reads pages like a person for an
// hour and then fires a burst is a robot at the end, and its quiet first
// hour counts as robot traffic too; the person beside it stays human.
func TestTimelineLateRobot(t *testing.T) {
	reqs := browse("198.51.100.7", chromeUA, 0, 20, 180)
	reqs = append(reqs, browse("198.51.100.8", firefoxUA, 0, 20, 180)...)
	reqs = append(reqs, burst("198.51.100.7", chromeUA, 3600, 200, 20)...)
	slices.SortStableFunc(reqs, func(a, b req) int { return a.sec - b.sec })
	res := run(Config{}, reqs)
	if !verdictOf(t, res, "198.51.100.7", chromeUA).Robot || verdictOf(t, res, "198.51.100.8", firefoxUA).Robot {
		t.Fatal("test setup: want the bursting Chrome a robot (unnamed: found by behaviour) and the Firefox human")
	}
	tl := &res.Timeline
	first := bucketOf(tl, t0)
	if tl.Robots[first] != 5 || tl.Humans[first] != 5 {
		t.Errorf("first bucket: robots %d, humans %d; want 5 and 5 (one page and its 4 assets each)", tl.Robots[first], tl.Humans[first])
	}
	if sum(tl.Robots) != 300 || sum(tl.Humans) != 100 {
		t.Errorf("robots %d, humans %d; want 300 and 100", sum(tl.Robots), sum(tl.Humans))
	}
	if len(tl.ByRobot) != 1 || tl.ByRobot[0].Name != "unnamed (198.51.100.0/24)" || !slices.Equal(tl.ByRobot[0].Requests, tl.Robots) {
		t.Errorf("by robot = %+v", tl.ByRobot)
	}
}

func TestTimelineTopRobots(t *testing.T) {
	var reqs []req
	for i := 0; i < findings.TopRobotTimelines+3; i++ {
		ua := fmt.Sprintf("Bot%02dbot/1.0 (+https://bot%d.example/)", i, i)
		reqs = append(reqs, paced(fmt.Sprintf("10.1.0.%d", i), ua, i, 2+i, 7)...)
	}
	res := run(Config{}, reqs)
	tl := &res.Timeline
	if len(tl.ByRobot) != findings.TopRobotTimelines {
		t.Fatalf("%d robot timelines, want %d", len(tl.ByRobot), findings.TopRobotTimelines)
	}
	for i, rt := range tl.ByRobot {
		s := res.Robots[i]
		if rt.Name != s.Name || sum(rt.Requests) != s.Requests || len(rt.Requests) != len(tl.Requests) {
			t.Errorf("timeline %d: %s with %d requests in %d buckets; robot %s has %d", i, rt.Name, sum(rt.Requests), len(rt.Requests), s.Name, s.Requests)
		}
	}
}

// TestTimelineMemoryBound: once the client histograms hold their budget,
// new buckets are estimated, and the totals still add up.
func TestTimelineMemoryBound(t *testing.T) {
	reqs := paced("10.3.0.1", curlUA, 0, 300, 30)
	reqs = append(reqs, browse("10.3.0.2", chromeUA, 0, 60, 150)...)
	slices.SortStableFunc(reqs, func(a, b req) int { return a.sec - b.sec })
	d := New(Config{})
	for i, q := range reqs {
		if i == 10 {
			d.tl.binCap = maxClientBins // the budget is spent from here on
		}
		d.Add(q.record())
	}
	res := d.Result()
	tl := &res.Timeline
	if tl.Estimated == 0 {
		t.Fatal("no request estimated: the bound did not bite")
	}
	robots := verdictOf(t, res, "10.3.0.1", curlUA).Requests
	if sum(tl.Robots) != robots || sum(tl.Requests) != int64(len(reqs)) || sum(tl.Humans)+sum(tl.Robots) != sum(tl.Requests) {
		t.Errorf("robots %d of %d, humans %d, requests %d of %d", sum(tl.Robots), robots, sum(tl.Humans), sum(tl.Requests), len(reqs))
	}
	for i := range tl.Requests {
		if tl.Robots[i] > tl.Requests[i] || tl.Humans[i] < 0 {
			t.Errorf("bucket %d: %d robots, %d humans of %d", i, tl.Robots[i], tl.Humans[i], tl.Requests[i])
		}
	}
}

// TestTimelineFoldedAndUntimed: requests of clients beyond MaxClients are
// "other", neither robot nor human; records without a time are in no
// bucket but counted.
func TestTimelineFoldedAndUntimed(t *testing.T) {
	reqs := paced("10.4.0.1", curlUA, 0, 5, 10)
	reqs = append(reqs, paced("10.4.0.2", chromeUA, 0, 5, 10)...)
	d := New(Config{MaxClients: 1})
	for _, q := range reqs {
		d.Add(q.record())
	}
	d.Add(&logparse.Record{Client: "10.4.0.2", UserAgent: chromeUA, Method: "GET", Target: "/"})
	res := d.Result()
	tl := res.Timeline
	if sum(tl.Other) == 0 || sum(tl.Other) > res.Other.Requests {
		t.Errorf("other %d on the timeline, %d folded", sum(tl.Other), res.Other.Requests)
	}
	if all := sum(tl.Other) + sum(tl.Robots) + sum(tl.Humans); all != 50 || sum(tl.Requests) != 50 || tl.Untimed != 1 {
		t.Errorf("other+robots+humans %d, requests %d, untimed %d; want 50, 50, 1", all, sum(tl.Requests), tl.Untimed)
	}
}

func TestTimelineEmpty(t *testing.T) {
	tl := New(Config{}).Result().Timeline
	if tl.Requests == nil || len(tl.Requests) != 0 || tl.ByRobot == nil || tl.BucketSeconds != 0 {
		t.Errorf("empty timeline = %+v", tl)
	}
	// Its start is null in JSON, not the year 1, and reads back as zero.
	b, err := json.Marshal(tl)
	if err != nil || !strings.HasPrefix(string(b), `{"start":null,"bucket_seconds":0,`) {
		t.Errorf("empty timeline JSON = %s, %v", b, err)
	}
	back := findings.Timeline{Start: time.Unix(1, 0)}
	if err := json.Unmarshal(b, &back); err != nil || !back.Start.IsZero() {
		t.Errorf("read back: %+v, %v", back, err)
	}
	// A timeline with buckets keeps its start, first, and reads back equal.
	full := findings.Timeline{Start: time.Date(2024, 5, 6, 7, 0, 0, 0, time.UTC), BucketSeconds: 60, Requests: []int64{3}, Robots: []int64{1}, Humans: []int64{2}, ByRobot: []findings.RobotTimeline{}}
	b, _ = json.Marshal(full)
	if !strings.HasPrefix(string(b), `{"start":"2024-05-06T07:00:00Z","bucket_seconds":60,`) {
		t.Errorf("timeline JSON = %s", b)
	}
	back = findings.Timeline{}
	if err := json.Unmarshal(b, &back); err != nil || !back.Start.Equal(full.Start) || back.BucketSeconds != 60 || len(back.Requests) != 1 {
		t.Errorf("read back: %+v, %v", back, err)
	}
}

func TestIncidentCurves(t *testing.T) {
	cases := []struct {
		name  string
		reqs  []req
		curve []int
		cut   bool
	}{
		{"steady", burst("10.6.0.1", curlUA, 100, 60, 20), []int{20, 20, 20}, false},
		{"gap second inside", append(burst("10.6.0.1", curlUA, 100, 40, 20), burst("10.6.0.1", curlUA, 103, 20, 10)...),
			[]int{20, 20, 0, 10, 10}, false},
		{"at the very start", burst("10.6.0.1", curlUA, 0, 30, 30), []int{30}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := run(Config{}, tc.reqs)
			if len(res.Incidents) != 1 {
				t.Fatalf("incidents = %+v", res.Incidents)
			}
			in := res.Incidents[0]
			if !slices.Equal(in.PerSecond, tc.curve) || in.PerSecondCut != tc.cut {
				t.Errorf("curve %v cut %v, want %v cut %v", in.PerSecond, in.PerSecondCut, tc.curve, tc.cut)
			}
			var n int64
			for _, v := range in.PerSecond {
				n += int64(v)
			}
			if n != in.Requests || int64(len(in.PerSecond)) != in.Seconds {
				t.Errorf("curve sums to %d over %d s; incident has %d requests over %d s", n, len(in.PerSecond), in.Requests, in.Seconds)
			}
		})
	}
	t.Run("longer than the cap", func(t *testing.T) {
		res := run(Config{}, burst("10.6.0.2", curlUA, 0, 2*(maxCurve+400), 2))
		in := res.Incidents[0]
		if len(in.PerSecond) != maxCurve || !in.PerSecondCut || in.Seconds != maxCurve+400 {
			t.Errorf("%d points, cut %v, over %d s; want %d, cut", len(in.PerSecond), in.PerSecondCut, in.Seconds, maxCurve)
		}
	})
}
