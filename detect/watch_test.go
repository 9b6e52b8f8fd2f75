package detect

import (
	"fmt"
	"testing"
	"time"

	"github.com/robowatch/robowatch/logparse"
)

func TestWatch(t *testing.T) {
	start := time.Date(2024, 3, 10, 12, 0, 0, 0, time.FixedZone("", 3600))
	watched := func(ip string) bool { return ip == "192.0.2.1" }
	d := New(Config{Watch: watched})
	add := func(ip string, sec int, path string, status int) {
		d.Add(&logparse.Record{Client: ip, UserAgent: "curl/8.5.0", Time: start.Add(time.Duration(sec) * time.Second),
			Method: "GET", Target: path, Protocol: "HTTP/1.1", Status: status, Bytes: 100})
	}
	add("192.0.2.1", 0, "/robots.txt", 404)
	for i := range 50 { // 50 requests over 5 minutes: 10 a minute
		add("192.0.2.1", 1+i*6, fmt.Sprintf("/p/%d", i), 200)
		add("192.0.2.2", 1+i*6, "/other", 200) // not watched
	}
	res := d.Result()
	if len(res.Watched) != 1 {
		t.Fatalf("watched %d clients, want 1", len(res.Watched))
	}
	w := res.Watched[0]
	if w.IP != "192.0.2.1" || w.UserAgent != "curl/8.5.0" {
		t.Errorf("watched %s %q", w.IP, w.UserAgent)
	}
	var total int
	for _, m := range w.Minutes {
		total += m.Requests
		if m.Minute.Location().String() != start.Location().String() {
			t.Errorf("minute %v is not in the log's zone", m.Minute)
		}
	}
	if total != 51 || len(w.Minutes) != 5 {
		t.Errorf("per-minute counts: %d minutes, %d requests, want 5 and 51: %v", len(w.Minutes), total, w.Minutes)
	}
	if len(w.RobotsTxt) != 1 || w.RobotsTxt[0].Status != 404 {
		t.Errorf("robots.txt fetches = %v", w.RobotsTxt)
	}
	if len(w.First) != WatchRequests || w.First[0].Path != "/robots.txt" || w.First[1].Path != "/p/0" {
		t.Errorf("first requests start %v", w.First[:2])
	}
	if len(w.Last) != WatchRequests || w.Last[WatchRequests-1].Path != "/p/49" || w.Last[0].Path != "/p/30" {
		t.Errorf("last requests run %s..%s, want /p/30../p/49", w.Last[0].Path, w.Last[len(w.Last)-1].Path)
	}
	if w.Skipped != 51-2*WatchRequests {
		t.Errorf("skipped = %d", w.Skipped)
	}

	// A client with fewer requests than fit in First has no Last.
	d = New(Config{Watch: watched})
	d.Add(&logparse.Record{Client: "192.0.2.1", Time: start, Method: "GET", Target: "/", Status: 200})
	if w := d.Result().Watched[0]; len(w.First) != 1 || len(w.Last) != 0 || w.Skipped != 0 {
		t.Errorf("one request: first %d last %d skipped %d", len(w.First), len(w.Last), w.Skipped)
	}
	if New(Config{}).Result().Watched != nil {
		t.Error("no Watch: Watched must be empty")
	}
}

func TestWatchList(t *testing.T) {
	watch, err := WatchList([]string{"66.249.64.0/19", "2001:db8::1", "Lycosidae.Lycos.com", "192.0.2.7"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		ip   string
		want bool
	}{
		{"66.249.66.1", true}, {"66.249.95.255", true}, {"66.249.96.0", false},
		{"2001:db8::1", true}, {"2001:db8::2", false}, {"::ffff:192.0.2.7", true}, {"192.0.2.7", true},
		{"lycosidae.lycos.com", true}, {"lycos.com", false}, {"", false},
	}
	for _, tt := range tests {
		if got := watch(tt.ip); got != tt.want {
			t.Errorf("watch(%q) = %v, want %v", tt.ip, got, tt.want)
		}
	}
	// An IPv6 address however a log or a tool spells it; the clients'
	// addresses are canonical (logparse.Record.Client).
	for _, tt := range []struct{ spec, ip string }{
		{"2001:DB8:0:0:0:0:0:99", "2001:db8::99"},
		{"[2001:db8::99]", "2001:db8::99"},
		{"[2001:db8::99]:443", "2001:db8::99"},
		{"fe80::1%eth0", "fe80::1"},
		{"[fe80::1%eth0]:8080", "fe80::1"},
		{"::ffff:192.0.2.9", "192.0.2.9"},
		{"::ffff:192.0.2.0/120", "192.0.2.9"},
		{"2001:DB8:0::/48", "2001:db8::99"},
	} {
		watch, err := WatchList([]string{tt.spec})
		if err != nil {
			t.Errorf("WatchList(%q): %v", tt.spec, err)
		} else if !watch(tt.ip) {
			t.Errorf("WatchList(%q) does not match %s", tt.spec, tt.ip)
		}
	}
	for _, bad := range []string{"10.0.0.0/33", "", "1.2.3.4/x", "1.2.3", "300.1.2.3", "2001:db8:::1", "host name", "a..b", "x;rm",
		"[example.com]", "[192.0.2.1]", "[2001:db8::1]:x", "[2001:db8::1", "fe80::1%"} {
		if _, err := WatchList([]string{bad}); err == nil {
			t.Errorf("WatchList(%q) gave no error", bad)
		}
	}
}
