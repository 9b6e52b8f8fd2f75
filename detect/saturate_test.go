package detect

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/robowatch/robowatch/logparse"
)

// TestBytesSaturate: hostile sizes (MaxInt64 twice, in one second, from one
// client that is then folded into "other") never make a negative total: the
// client's, its incident's and Other's bytes stop at MaxInt64.
func TestBytesSaturate(t *testing.T) {
	d := New(Config{MaxClients: 1})
	for i := 0; i < 30; i++ {
		d.Add(&logparse.Record{Client: "203.0.113.1", UserAgent: "big", Time: t0.Add(time.Duration(i) * 100 * time.Millisecond),
			Method: "GET", Target: "/x", Status: 200, Bytes: math.MaxInt64})
	}
	v := verdictOfResult(t, d, "203.0.113.1")
	if v.Bytes != math.MaxInt64 {
		t.Errorf("client bytes %d, want %d (saturated)", v.Bytes, int64(math.MaxInt64))
	}
	res := d.Result()
	for _, in := range res.Incidents {
		if in.Bytes < 0 {
			t.Errorf("incident bytes %d", in.Bytes)
		}
	}
	// A second client takes the only place: the first is folded into Other,
	// twice over.
	for i := 0; i < 2; i++ {
		d2 := New(Config{MaxClients: 1})
		for j := 0; j < 3; j++ {
			for _, ip := range []string{"198.51.100.1", "198.51.100.2", "198.51.100.3"} {
				d2.Add(&logparse.Record{Client: ip, UserAgent: "big", Time: t0.Add(time.Duration(j) * time.Second),
					Method: "GET", Target: "/", Status: 200, Bytes: math.MaxInt64})
			}
		}
		if o := d2.Result().Other; o.Bytes < 0 {
			t.Errorf("other bytes %d", o.Bytes)
		}
	}
}

func verdictOfResult(t *testing.T, d *Detector, ip string) Verdict {
	t.Helper()
	for v := range d.Result().Clients.All() {
		if v.IP == ip {
			return v
		}
	}
	t.Fatalf("no client %s", ip)
	return Verdict{}
}

// TestFutureRecords: one line dated 9998 in the middle of a log is set
// aside as dated in the future (counted for its client and in
// FutureRecords) instead of moving the log's clock: the rapid-fire client
// after it still has its incident, the time span stays the log's.
func TestFutureRecords(t *testing.T) {
	feed := func(forged bool) *Result {
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
