package report

import (
	"testing"
	"time"

	"github.com/robowatch/robowatch/findings"
)

func TestSparkline(t *testing.T) {
	at := func(m int) time.Time { return time.Date(2024, 1, 1, 0, m, 0, 0, time.UTC) }
	tests := []struct {
		minutes []findings.MinuteCount
		width   int
		want    string
		per     int
	}{
		{nil, 10, "", 0},
		{[]findings.MinuteCount{{Minute: at(0), Requests: 5}}, 10, "█", 1},
		{[]findings.MinuteCount{{Minute: at(0), Requests: 8}, {Minute: at(1), Requests: 1}, {Minute: at(3), Requests: 4}}, 10, "█▁ ▄", 1},
		{[]findings.MinuteCount{{Minute: at(0), Requests: 1}, {Minute: at(1), Requests: 1}, {Minute: at(2), Requests: 3}, {Minute: at(3), Requests: 1}}, 2, "▄█", 2},
	}
	for _, tt := range tests {
		got, per := Sparkline(tt.minutes, tt.width)
		if got != tt.want || per != tt.per {
			t.Errorf("Sparkline(%v, %d) = %q, %d; want %q, %d", tt.minutes, tt.width, got, per, tt.want, tt.per)
		}
	}
}
