package detect

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

// TestBytesSaturate: hostile sizes (MaxInt64 twice, in one second, from a
// client tracked or folded into "other") never make a negative total: the
// client's, its incident's and Other's bytes stop at MaxInt64, and the
// Result says that a total stopped there (BytesSaturated), which ordinary
// sizes never set.
func TestBytesSaturate(t *testing.T) {
	tests := []struct {
		name       string
		maxClients int
		ips        []string
		size       int64
		saturated  bool
		incident   bool // the fixture makes a rapid-fire incident
	}{
		{"ordinary sizes", 1, []string{"203.0.113.1"}, 5120, false, true},
		{"one client, MaxInt64 thirty times", 1, []string{"203.0.113.1"}, math.MaxInt64, true, true},
		// Each new client takes the only place: the others are folded into
		// Other, over and over.
		{"folded clients", 1, []string{"198.51.100.1", "198.51.100.2", "198.51.100.3"}, math.MaxInt64, true, false},
		{"nothing folded", 0, []string{"198.51.100.1", "198.51.100.2", "198.51.100.3"}, math.MaxInt64, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := New(Config{MaxClients: tt.maxClients})
			for i := range 30 {
				for _, ip := range tt.ips {
					d.Add(&logparse.Record{Client: ip, UserAgent: "big", Time: t0.Add(time.Duration(i) * 100 * time.Millisecond),
						Method: "GET", Target: "/x", Status: 200, Bytes: tt.size})
				}
			}
			res := d.Result()
			if res.BytesSaturated != tt.saturated {
				t.Errorf("BytesSaturated = %v, want %v", res.BytesSaturated, tt.saturated)
			}
			if res.Other.Bytes < 0 {
				t.Errorf("other bytes %d", res.Other.Bytes)
			}
			if tt.saturated && res.Other.Requests > 0 && res.Other.Bytes != math.MaxInt64 {
				t.Errorf("other bytes %d, want %d (saturated)", res.Other.Bytes, int64(math.MaxInt64))
			}
			want := int64(math.MaxInt64)
			if !tt.saturated {
				want = 30 * tt.size
			}
			for v := range res.Clients.All() {
				if v.Bytes != want && res.Other.Requests == 0 {
					t.Errorf("client %s: %d bytes, want %d", v.IP, v.Bytes, want)
				}
			}
			if tt.incident && len(res.Incidents) == 0 {
				t.Fatal("no incident: the fixture should have one")
			}
			for _, in := range res.Incidents {
				if in.Bytes < 0 {
					t.Errorf("incident bytes %d", in.Bytes)
				}
			}
		})
	}
}

// TestFutureRecords: one line dated 9998 in the middle of a log is set
// aside as dated in the future (counted for its client and in
// FutureRecords) instead of moving the log's clock: the rapid-fire client
// after it still has its incident, the time span stays the log's.
func TestFutureRecords(t *testing.T) {
	feed := func(forged bool) *findings.Result {
		d := New(Config{Now: func() time.Time { return t0.Add(time.Hour) }})
		d.Add(&logparse.Record{Client: "192.0.2.1", UserAgent: "curl/8.0", Time: t0, Method: "GET", Target: "/"})
		if forged {
			d.Add(&logparse.Record{Client: "192.0.2.66", UserAgent: "x", Time: time.Date(9998, 1, 1, 0, 0, 0, 0, time.UTC), Method: "GET", Target: "/"})
		}
		for i := 0; i < 60; i++ {
			d.Add(&logparse.Record{Client: "192.0.2.99", UserAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
				Time: t0.Add(time.Minute + time.Duration(i)*100*time.Millisecond), Method: "GET", Target: fmt.Sprintf("/p%d", i)})
		}
		return d.Result()
	}
	clean, forged := feed(false), feed(true)
	if clean.IncidentCount != 1 || clean.FutureRecords != 0 {
		t.Fatalf("clean log: %d incidents, %d future; the fixture should have 1, 0", clean.IncidentCount, clean.FutureRecords)
	}
	if forged.IncidentCount != 1 || forged.LateRecords != 0 || forged.FutureRecords != 1 {
		t.Errorf("with a line dated 9998: %d incidents, %d late, %d future; want 1, 0, 1", forged.IncidentCount, forged.LateRecords, forged.FutureRecords)
	}
	if !forged.Last.Equal(clean.Last) {
		t.Errorf("last %v, want the log's %v", forged.Last, clean.Last)
	}
}
