package detect

import (
	"fmt"
	"testing"
	"time"

	"github.com/robowatch/robowatch/logparse"
)

// TestRangesOfOneFile: a media player buffering a podcast asks for dozens
// of byte ranges of one file within seconds (206 answers): one download,
// no rapid-fire incident (six listeners were in the default block list).
// Ranges of many files, or pages, at that pace still are one.
func TestRangesOfOneFile(t *testing.T) {
	const player = "AppleCoreMedia/1.0.0.22B83 (iPhone; U; CPU OS 18_1 like Mac OS X; de_de)"
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		path     func(i int) string
		status   int
		incident bool
	}{
		{"45 ranges of one episode in 9 s", func(int) string { return "/podcast/episode-42.mp3" }, 206, false},
		{"45 ranges of 45 files in 9 s", func(i int) string { return fmt.Sprintf("/podcast/episode-%d.mp3", i) }, 206, true},
		{"45 whole fetches of one file in 9 s", func(int) string { return "/podcast/episode-42.mp3" }, 200, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := New(Config{})
			for i := range 45 {
				d.Add(&logparse.Record{Client: "84.163.132.57", UserAgent: player, Method: "GET", Target: tt.path(i), Status: tt.status, Bytes: 400_000, Time: t0.Add(time.Duration(i*200) * time.Millisecond)})
			}
			res := d.Result()
			v := verdictOf(t, res, "84.163.132.57", player)
			if got := res.IncidentCount > 0; got != tt.incident || v.Requests != 45 {
				t.Errorf("incidents %d, requests %d; want incident %v, 45 requests", res.IncidentCount, v.Requests, tt.incident)
			}
		})
	}
}
