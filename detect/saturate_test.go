package detect

import (
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
