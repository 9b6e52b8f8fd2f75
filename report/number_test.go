package report

import (
	"testing"
	"time"
)

func TestCount(t *testing.T) {
	tests := []struct {
		in   int64
		want string
	}{
		{0, "0"}, {7, "7"}, {999, "999"}, {1830, "1,830"}, {9999, "9,999"}, {10000, "10.0k"}, {12345, "12.3k"},
		{99949, "99.9k"}, {99960, "100k"}, {999949, "1.0M"}, {999999, "1.0M"}, {4500000, "4.5M"}, {123456789, "123M"}, {-12345, "-12.3k"}, {-1830, "-1,830"},
	}
	for _, tt := range tests {
		if got := Count(tt.in); got != tt.want {
			t.Errorf("Count(%d) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestExact(t *testing.T) {
	tests := []struct {
		in   int64
		want string
	}{
		{0, "0"}, {999, "999"}, {1000, "1,000"}, {10000, "10,000"}, {123456, "123,456"}, {1234567, "1,234,567"}, {-1234, "-1,234"},
	}
	for _, tt := range tests {
		if got := Exact(tt.in); got != tt.want {
			t.Errorf("Exact(%d) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestBytes(t *testing.T) {
	tests := []struct {
		in   int64
		want string
	}{
		{-1, "-"}, {0, "0 B"}, {999, "999 B"}, {1000, "1.0 kB"}, {4500000, "4.5 MB"}, {2370789, "2.4 MB"}, {1 << 40, "1.1 TB"},
	}
	for _, tt := range tests {
		if got := Bytes(tt.in); got != tt.want {
			t.Errorf("Bytes(%d) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDuration(t *testing.T) {
	tests := []struct {
		in   time.Duration
		want string
	}{
		{0, "0s"}, {45 * time.Second, "45s"}, {12*time.Minute + 3*time.Second, "12m03s"},
		{3*time.Hour + 4*time.Minute, "3h04m"}, {51*time.Hour + 30*time.Minute, "2d03h"},
	}
	for _, tt := range tests {
		if got := Duration(tt.in); got != tt.want {
			t.Errorf("Duration(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
