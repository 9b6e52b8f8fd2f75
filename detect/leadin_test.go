package detect

import (
	"testing"
	"time"

	"github.com/robowatch/robowatch/logparse"
)

// TestIncidentLeadIn: a burst whose first second is partial (17 requests in
// the second it starts, then 180 a second) starts in that first second; a
// stray request a few seconds before it does not stretch it.
func TestIncidentLeadIn(t *testing.T) {
	start := time.Date(2024, 3, 10, 1, 58, 0, 0, time.UTC)
	tests := []struct {
		name      string
		perSecond map[int]int // second -> requests
		wantStart int
		wantReqs  int64
	}{
		{"partial first second", map[int]int{31: 17, 32: 180, 33: 180}, 31, 377},
		{"stray request before", map[int]int{25: 1, 32: 180, 33: 180}, 32, 360},
		{"slow lead-in is not the burst", map[int]int{29: 2, 30: 2, 31: 2, 32: 180}, 32, 180},
		{"two fast seconds lead in", map[int]int{30: 5, 31: 9, 32: 180}, 30, 194},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := New(Config{})
			for sec := 0; sec < 60; sec++ {
				for range tt.perSecond[sec] {
					d.Add(&logparse.Record{Client: "192.0.2.9", UserAgent: "curl/8.0", Time: start.Add(time.Duration(sec) * time.Second),
						Method: "GET", Target: "/p", Status: 200})
				}
			}
			res := d.Result()
			if len(res.Incidents) != 1 {
				t.Fatalf("%d incidents, want 1", len(res.Incidents))
			}
			in := res.Incidents[0]
			if got := int(in.Start.Sub(start) / time.Second); got != tt.wantStart || in.Requests != tt.wantReqs {
				t.Errorf("incident starts at :%02d with %d requests, want :%02d with %d", got, in.Requests, tt.wantStart, tt.wantReqs)
			}
		})
	}
}
