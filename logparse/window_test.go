package logparse

import (
	"fmt"
	"testing"
	"time"
)

func TestTimeBound(t *testing.T) {
	zone := time.FixedZone("", -4*3600)
	last := time.Date(1995, 8, 1, 10, 59, 29, 0, zone)
	tests := []struct {
		in       string
		want     time.Time
		relative bool
		err      bool
	}{
		{"2h", last.Add(-2 * time.Hour), true, false},
		{"90m", last.Add(-90 * time.Minute), true, false},
		{"1d", last.Add(-24 * time.Hour), true, false},
		{"1d12h", last.Add(-36 * time.Hour), true, false},
		{"0s", last, true, false},
		{"1995-08-01", time.Date(1995, 8, 1, 0, 0, 0, 0, zone), false, false},
		{"1995-08-01 10:30", time.Date(1995, 8, 1, 10, 30, 0, 0, zone), false, false},
		{"1995-08-01T10:30:15", time.Date(1995, 8, 1, 10, 30, 15, 0, zone), false, false},
		{"1995-08-01T14:00:00Z", time.Date(1995, 8, 1, 14, 0, 0, 0, time.UTC), false, false},
		{"-2h", time.Time{}, false, true},
		{"yesterday", time.Time{}, false, true},
		{"", time.Time{}, false, true},
		{"xd", time.Time{}, false, true},
	}
	for _, tt := range tests {
		b, err := ParseTimeBound(tt.in)
		if (err != nil) != tt.err {
			t.Errorf("ParseTimeBound(%q) error = %v, want error %v", tt.in, err, tt.err)
			continue
		}
		if tt.err {
			continue
		}
		if b.Relative() != tt.relative {
			t.Errorf("%q: Relative() = %v", tt.in, b.Relative())
		}
		if got := b.Resolve(last); !got.Equal(tt.want) {
			t.Errorf("%q: Resolve = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestWindowContains(t *testing.T) {
	at := func(h int) time.Time { return time.Date(2024, 3, 10, h, 0, 0, 0, time.UTC) }
	w := Window{Since: at(10), Until: at(12)}
	tests := []struct {
		t    time.Time
		want bool
	}{
		{at(9), false}, {at(10), true}, {at(11), true}, {at(12), false}, {time.Time{}, true},
	}
	for _, tt := range tests {
		if got := w.Contains(tt.t); got != tt.want {
			t.Errorf("Contains(%v) = %v, want %v", tt.t, got, tt.want)
		}
	}
	if !(Window{}).Contains(at(1)) {
		t.Error("the zero Window must contain everything")
	}
}

// TestNotBefore: --since at or after --until is known to give an empty
// window only when both bounds are of a kind that compares without the log.
func TestNotBefore(t *testing.T) {
	tests := []struct {
		since, until string
		want         bool
	}{
		{"2024-03-10T14:00:00Z", "2024-03-10T13:00:00Z", true},
		{"2024-03-10T14:00:00Z", "2024-03-10T14:00:00Z", true}, // empty: Until is exclusive
		{"2024-03-10T13:00:00Z", "2024-03-10T14:00:00Z", false},
		{"2024-03-11", "2024-03-10", true},
		{"2024-03-10 15:00", "2024-03-10", true},
		{"2024-03-10", "2024-03-11", false},
		{"1h", "2h", true}, // an hour back from the end is after two hours back
		{"2h", "1h", false},
		{"2h", "2024-03-10", false},                   // depends on the log's end
		{"2024-03-10", "2024-03-10T00:00:00Z", false}, // depends on the log's zone
	}
	for _, tt := range tests {
		since, err1 := ParseTimeBound(tt.since)
		until, err2 := ParseTimeBound(tt.until)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if got := since.NotBefore(until); got != tt.want {
			t.Errorf("%s NotBefore %s = %v, want %v", tt.since, tt.until, got, tt.want)
		}
	}
	if (TimeBound{}).NotBefore(TimeBound{}) {
		t.Error("unset bounds compare")
	}
}

// TestClip: bounds resolve at the first record with a time (a date in the
// log's zone), records without a time are kept, the rest are counted.
func TestClip(t *testing.T) {
	since, _ := ParseTimeBound("2024-05-06 09:02")
	zone := time.FixedZone("", 2*3600)
	c := &Clip{Since: since}
	var kept []int
	for i, tm := range []time.Time{
		time.Date(2024, 5, 6, 9, 0, 0, 0, zone),
		{},
		time.Date(2024, 5, 6, 9, 2, 0, 0, zone),
		time.Date(2024, 5, 6, 9, 1, 59, 0, zone),
		time.Date(2024, 5, 6, 9, 5, 0, 0, zone),
	} {
		if c.Keep(&Record{Time: tm}) {
			kept = append(kept, i)
		}
	}
	if fmt.Sprint(kept) != "[1 2 4]" || c.Outside != 2 || c.Window.String() != "from 2024-05-06 09:02:00 +0200" {
		t.Errorf("kept %v, outside %d, window %q", kept, c.Outside, c.Window.String())
	}
}

// TestClipWallTimeAcrossDST: a date or a zoneless time is the wall clock a
// person reads in the log, each record's in its own offset. A Berlin log
// through the change to summer time (2024-03-31, +0100 to +0200 at 02:00)
// and back (2024-10-27, +0200 to +0100 at 03:00, 02:00 to 03:00 twice):
// --since 03:30 after the change keeps the lines from 03:30 +0200 on, not
// from 04:30 as the first line's +0100 put it; a time in the repeated hour
// is its first occurrence, and the window runs on (or stops) through the
// repeat, with no hole in it.
func TestClipWallTimeAcrossDST(t *testing.T) {
	winter, summer := time.FixedZone("", 3600), time.FixedZone("", 2*3600)
	spring := []time.Time{
		time.Date(2024, 3, 31, 1, 0, 0, 0, winter),
		time.Date(2024, 3, 31, 1, 59, 0, 0, winter),
		time.Date(2024, 3, 31, 3, 0, 0, 0, summer),
		time.Date(2024, 3, 31, 3, 29, 0, 0, summer),
		time.Date(2024, 3, 31, 3, 30, 0, 0, summer),
		time.Date(2024, 3, 31, 4, 0, 0, 0, summer),
		time.Date(2024, 3, 31, 4, 45, 0, 0, summer),
	}
	autumn := []time.Time{
		time.Date(2024, 10, 27, 1, 30, 0, 0, summer),
		time.Date(2024, 10, 27, 2, 15, 0, 0, summer),
		time.Date(2024, 10, 27, 2, 45, 0, 0, summer),
		time.Date(2024, 10, 27, 2, 10, 0, 0, winter), // the clock set back
		time.Date(2024, 10, 27, 2, 40, 0, 0, winter),
		time.Date(2024, 10, 27, 3, 30, 0, 0, winter),
	}
	tests := []struct {
		name         string
		log          []time.Time
		since, until string
		kept         string
		window       string
	}{
		{"since after the change", spring, "2024-03-31 03:30", "", "[4 5 6]", "from 2024-03-31 03:30:00 +0200"},
		{"since before the change", spring, "2024-03-31 01:30", "", "[1 2 3 4 5 6]", "from 2024-03-31 01:30:00 +0100"},
		{"since in the skipped hour", spring, "2024-03-31 02:30", "", "[2 3 4 5 6]", "from 2024-03-31 02:30:00 +0200"},
		{"until after the change", spring, "", "2024-03-31 04:00", "[0 1 2 3 4]", "before 2024-03-31 04:00:00 +0200"},
		{"a window across the change", spring, "2024-03-31 01:30", "2024-03-31 03:30", "[1 2 3]", "2024-03-31 01:30:00 +0100 to 2024-03-31 03:30:00 +0200"},
		{"since in the repeated hour", autumn, "2024-10-27 02:30", "", "[2 3 4 5]", "from 2024-10-27 02:30:00 +0200"},
		{"until in the repeated hour", autumn, "", "2024-10-27 02:30", "[0 1]", "before 2024-10-27 02:30:00 +0200"},
		{"since after the repeated hour", autumn, "2024-10-27 03:00", "", "[5]", "from 2024-10-27 03:00:00 +0100"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Clip{}
			for _, b := range []struct {
				s  string
				to *TimeBound
			}{{tt.since, &c.Since}, {tt.until, &c.Until}} {
				if b.s != "" {
					var err error
					if *b.to, err = ParseTimeBound(b.s); err != nil {
						t.Fatal(err)
					}
				}
			}
			var kept []int
			for i, tm := range tt.log {
				if c.Keep(&Record{Time: tm}) {
					kept = append(kept, i)
				}
			}
			if got := fmt.Sprint(kept); got != tt.kept || c.Outside != int64(len(tt.log)-len(kept)) {
				t.Errorf("kept %s (%d outside), want %s", got, c.Outside, tt.kept)
			}
			if got := c.Window.String(); got != tt.window {
				t.Errorf("window %q, want %q", got, tt.window)
			}
		})
	}
}
