package report

import (
	"testing"
	"time"
)

// TestCSVCell: text gets OWASP's leading quote when it begins as a
// formula, even when it looks like a number (it may come from the log);
// numbers robowatch computed are written as numbers, negative ones too.
func TestCSVCell(t *testing.T) {
	at := time.Date(2024, 5, 6, 9, 0, 0, 0, time.FixedZone("", 2*3600))
	tests := []struct {
		in   any
		want string
	}{
		{`=HYPERLINK("http://x")`, `'=HYPERLINK("http://x")`},
		{"+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"},
		{"-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"},
		{"@SUM(1+1)", "'@SUM(1+1)"},
		{` =HYPERLINK("http://x")`, `' =HYPERLINK("http://x")`}, // a trimming import would run it
		{"   -2+3", "'   -2+3"},
		{"\u00a0=1+1", "'\u00a0=1+1"},       // a no-break space
		{"\u3000@SUM(1)", "'\u3000@SUM(1)"}, // an ideographic space
		{"\u00a0a=1", "\u00a0a=1"},
		{" \t=1", ` \t=1`},
		{"  ", "  "},
		{" a=1", " a=1"},
		{"\t=1", `\t=1`}, // escaped: no longer a tab
		{"\r=1", `\r=1`},
		{"-", "'-"},
		{"-12", "'-12"}, // text that looks like a number is still text
		{"+3.5", "'+3.5"},
		{"42", "42"},
		{"Mozilla/5.0", "Mozilla/5.0"},
		{"", ""},
		{"1-2", "1-2"},
		{-12, "-12"}, // numbers stay numbers
		{int64(-9), "-9"},
		{int64(42), "42"},
		{true, "true"},
		{at, "2024-05-06T09:00:00+02:00"},
		{time.Time{}, ""},
	}
	for _, tt := range tests {
		if got := csvCell(tt.in); got != tt.want {
			t.Errorf("csvCell(%#v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
