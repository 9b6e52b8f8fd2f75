package detect

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

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
// same whether its User-agents are 100 bytes or 100 KB long.
func TestMemoryFollowsClients(t *testing.T) {
	held := func(uaLen int) uint64 {
		pad := strings.Repeat("x", uaLen)
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		d := New(Config{})
		for i := 0; i < 2000; i++ {
			d.Add(&logparse.Record{Client: fmt.Sprintf("10.0.%d.%d", i/250, i%250), UserAgent: fmt.Sprintf("Bot/%d %s", i, pad),
				Time: t0.Add(time.Duration(i) * time.Second), Method: "GET", Target: "/", Status: 200})
		}
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(d)
		return after.HeapAlloc - min(after.HeapAlloc, before.HeapAlloc)
	}
	short, long := held(100), held(100_000)
	t.Logf("held for 2,000 clients: %d KiB with 100-byte User-agents, %d KiB with 100 KB ones", short>>10, long>>10)
	if long > 3*short+2<<20 {
		t.Errorf("held %d KiB with 100 KB User-agents against %d KiB with short ones: memory follows the log's bytes", long>>10, short>>10)
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
