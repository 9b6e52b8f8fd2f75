package report

import "testing"

// TestPercentMostlyMalformed: the share of malformed lines of a file that is
// mostly not a log reads as a percentage (it read "1e+02%"), and "100%"
// only when every line is malformed.
func TestPercentMostlyMalformed(t *testing.T) {
	tests := []struct {
		n, of int64
		want  string
	}{
		{0, 10, ""},
		{1, 95, " (1.1%)"},
		{5, 1000, " (0.5%)"},
		{90, 100, " (90%)"},
		{817, 819, " (99%)"},
		{999999, 1000000, " (99%)"},
		{44, 44, " (100%)"},
	}
	for _, tt := range tests {
		if got := percent(tt.n, tt.of); got != tt.want {
			t.Errorf("percent(%d, %d) = %q, want %q", tt.n, tt.of, got, tt.want)
		}
	}
}
