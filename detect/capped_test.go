package detect

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/robots"
)

// TestLongValuesCapped: 1 MB User-agents and paths are kept as a prefix,
// "…" and a hash: two that differ only at the end stay two clients, and
// what the report shows is bounded.
func TestLongValuesCapped(t *testing.T) {
	rob := robots.ParseBytes([]byte("User-agent: *\nDisallow: /private/\n"))
	d := New(Config{Robots: rob, Watch: func(ip string) bool { return ip == "192.0.2.1" }})
	long := "LongBot/1.0 " + strings.Repeat("é", 1<<19) // 1 MiB, multi-byte: the cut must fall between characters
	path := "/private/" + strings.Repeat("p", 1<<20)
	for i, ua := range []string{long + "A", long + "B"} {
		for j := 0; j < 3; j++ {
			d.Add(&logparse.Record{Client: "192.0.2.1", UserAgent: ua, Time: t0.Add(time.Duration(i*10+j) * time.Second),
				Method: "GET" + strings.Repeat("X", 100), Target: path + fmt.Sprint(j), Referer: path, Status: 200})
		}
	}
	res := d.Result()
	if res.Clients.Len() != 2 {
		t.Fatalf("%d clients, want 2: User-agents that differ at the end are two", res.Clients.Len())
	}
	for v := range res.Clients.All() {
		if len(v.UserAgent) > MaxStoredAgent || !strings.Contains(v.UserAgent, "…") || !utf8.ValidString(v.UserAgent) || v.Name != "LongBot" {
			t.Errorf("client User-agent %d bytes (valid UTF-8 %v), name %q: want at most %d, marked cut, named as the whole value", len(v.UserAgent), utf8.ValidString(v.UserAgent), v.Name, MaxStoredAgent)
		}
	}
	if res.ViolationCount != 6 {
		t.Errorf("%d violations, want 6", res.ViolationCount)
	}
	for v := range res.Violations.All() {
		if len(v.Path) > MaxStoredPath || len(v.Method) > MaxStoredMethod || len(v.UserAgent) > MaxStoredAgent {
			t.Errorf("violation keeps %d bytes of path, %d of method, %d of User-agent", len(v.Path), len(v.Method), len(v.UserAgent))
		}
	}
	for _, w := range res.Watched {
		for _, r := range append(w.First, w.Last...) {
			if len(r.Path) > MaxStoredPath || len(r.Referer) > MaxStoredPath || len(r.Method) > MaxStoredMethod {
				t.Errorf("drill-down keeps %d bytes of path, %d of referer", len(r.Path), len(r.Referer))
			}
		}
	}
}

// TestMemoryFollowsClients: the heap a detector holds per client is the
// same whether its lines carry User-agents and paths of 100 bytes, 4 KB or
// 1 MB, handed over as the CLI does (views of one reused buffer, logparse's
// ReuseRecord): it keeps a capped copy of each (MaxStoredAgent,
// MaxStoredPath), so the cost per client is a constant. The values differ
// only in their last bytes, and from one address: every one stays a client.
func TestMemoryFollowsClients(t *testing.T) {
	n := 200
	if raceEnabled || testing.Short() {
		n = 100
	}
	// Every path is a violation whose path prefix is the whole path (no
	// second '/'): stored violations and prefixes are capped too.
	rob := robots.ParseBytes([]byte("User-agent: *\nDisallow: /p\n"))
	held := func(t *testing.T, size int) float64 {
		ua := []byte("LongBot/1.0 (" + strings.Repeat("u", size) + ")")
		path := []byte("/p" + strings.Repeat("q", size))
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		d := New(Config{Robots: rob})
		for i := range n {
			id := fmt.Sprintf("%08d", i)
			copy(ua[len(ua)-9:], id)
			copy(path[len(path)-8:], id)
			d.Add(&logparse.Record{Client: "192.0.2.1", UserAgent: unsafe.String(&ua[0], len(ua)),
				Time: t0.Add(time.Duration(i) * time.Second), Method: "GET", Target: unsafe.String(&path[0], len(path)), Status: 200})
		}
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		if d.clients.len() != n {
			t.Errorf("%d-byte User-agents: %d clients, want %d: values that differ at the end were merged", size, d.clients.len(), n)
		}
		runtime.KeepAlive(d)
		runtime.KeepAlive(ua)
		runtime.KeepAlive(path)
		return float64(int64(after.HeapInuse)-int64(before.HeapInuse)) / float64(n)
	}
	per := map[int]float64{}
	for _, size := range []int{100, 4 << 10, 1 << 20} {
		per[size] = held(t, size)
		t.Logf("%7d-byte User-agents and paths: %6.0f bytes held per client", size, per[size])
	}
	// Past the caps the length of the values makes no difference, and the
	// capped copies cost a few KB over short values: the User-agent (512
	// bytes), the violation's path and its prefix (256 each), and the
	// classifier's copy of the first 1 KiB, cached (agents.MaxLen; its
	// cache is bounded on its own).
	if long, capped := per[1<<20], per[4<<10]; long > 1.25*capped+1024 {
		t.Errorf("%.0f bytes per client with 1 MB values against %.0f with 4 KB ones: memory follows the lines' length", long, capped)
	}
	if long, short := per[1<<20], per[100]; long > short+8192 {
		t.Errorf("%.0f bytes per client with 1 MB values against %.0f with 100-byte ones: more than the caps allow", long, short)
	}
}

// TestViolationPrefixesCapped: the path prefixes a robot's violations are
// counted under (RobotSummary.Prefixes) are capped as paths are, and two
// long ones that differ only at the end stay two.
func TestViolationPrefixesCapped(t *testing.T) {
	rob := robots.ParseBytes([]byte("User-agent: *\nDisallow: /p\nDisallow: /private/\n"))
	long := "/p" + strings.Repeat("q", 1<<20)
	tests := []struct {
		name  string
		paths []string
		want  int // distinct prefixes
	}{
		{"short", []string{"/private/a", "/private/b", "/px"}, 2},
		{"1 MB, differing at the end", []string{long + "1", long + "2", long + "3", long + "1"}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := New(Config{Robots: rob})
			for i, p := range tt.paths {
				d.Add(&logparse.Record{Client: "192.0.2.1", UserAgent: scraperUA, Time: t0.Add(time.Duration(i) * time.Second), Method: "GET", Target: p, Status: 200})
			}
			res := d.Result()
			if len(res.Robots) != 1 || res.ViolationCount != int64(len(tt.paths)) {
				t.Fatalf("%d robots, %d violations; the fixture should have 1 robot and %d", len(res.Robots), res.ViolationCount, len(tt.paths))
			}
			var sum int64
			for _, p := range res.Robots[0].Prefixes {
				sum += p.Count
				if len(p.Prefix) > MaxStoredPath || !utf8.ValidString(p.Prefix) {
					t.Errorf("prefix of %d bytes kept, at most %d", len(p.Prefix), MaxStoredPath)
				}
				if len(p.Prefix) > 100 && !strings.Contains(p.Prefix, "…") {
					t.Errorf("prefix %.40q… (%d bytes) has no mark that it was cut", p.Prefix, len(p.Prefix))
				}
			}
			if len(res.Robots[0].Prefixes) != tt.want || sum != int64(len(tt.paths)) {
				t.Errorf("%d prefixes counting %d violations, want %d counting %d", len(res.Robots[0].Prefixes), sum, tt.want, len(tt.paths))
			}
		})
	}
}

// TestWatchBounded: --client on an address that sends a fresh User-agent
// with every request drills into at most maxWatched of its pairs; the rest
// are tracked as other clients, under the cap, and counted.
func TestWatchBounded(t *testing.T) {
	const pairs = 3000
	d := New(Config{MaxClients: 500, Watch: func(ip string) bool { return ip == "198.51.100.7" }})
	for i := 0; i < pairs; i++ {
		d.Add(&logparse.Record{Client: "198.51.100.7", UserAgent: fmt.Sprintf("Mozilla/5.0 (rotating %d)", i),
			Time: t0.Add(time.Duration(i) * 100 * time.Millisecond), Method: "GET", Target: "/", Status: 200})
	}
	res := d.Result()
	if len(res.Watched) != maxWatched || res.WatchDropped != pairs-maxWatched {
		t.Errorf("%d drill-downs, %d dropped; want %d and %d", len(res.Watched), res.WatchDropped, maxWatched, pairs-maxWatched)
	}
	if n := res.Clients.Len(); n > maxWatched+500 {
		t.Errorf("%d clients tracked: more than the cap and the drill-downs", n)
	}
}

// TestWatchMinutesBounded: the per-minute counts of all drill-downs together
// are bounded (maxWatchMinutesAll, lowered here to 100): past it a watched
// client's new minutes are not drawn, its drill-down says it was cut, and
// its requests still count.
func TestWatchMinutesBounded(t *testing.T) {
	ips := []string{"198.51.100.1", "198.51.100.2", "198.51.100.3"}
	d := New(Config{Watch: func(string) bool { return true }})
	d.watchMinutes = 100
	for m := range 60 { // each client one request a minute: 180 minutes in all
		for _, ip := range ips {
			d.Add(&logparse.Record{Client: ip, UserAgent: firefoxUA, Time: t0.Add(time.Duration(m) * time.Minute), Method: "GET", Target: "/", Status: 200})
		}
	}
	res := d.Result()
	minutes, cut := 0, 0
	for _, w := range res.Watched {
		minutes += len(w.Minutes)
		if w.Cut {
			cut++
		}
	}
	if minutes != 100 || cut != len(ips) {
		t.Errorf("%d minutes drawn, %d drill-downs marked cut; want 100 and %d", minutes, cut, len(ips))
	}
	for _, ip := range ips {
		if v := verdictOf(t, res, ip, firefoxUA); v.Requests != 60 {
			t.Errorf("%s: %d requests, want 60", ip, v.Requests)
		}
	}
}
