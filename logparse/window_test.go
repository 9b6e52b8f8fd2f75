package logparse

import (
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
