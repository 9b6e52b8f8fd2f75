package report

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/detect"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/robots"
)

// TestNeutralise: OWASP's CSV-injection rule, and numbers left alone.
func TestNeutralise(t *testing.T) {
	tests := []struct{ in, want string }{
		{"=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"},
		{"+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"},
		{"-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"},
		{"@SUM(1+1)", "'@SUM(1+1)"},
		{"\t=1", "'\t=1"},
		{"\r=1", "'\r=1"},
		{"-", "'-"}, // a lone dash is text too
		{"-12", "-12"},
		{"+3.5", "+3.5"},
		{"42", "42"},
		{"Mozilla/5.0", "Mozilla/5.0"},
		{"", ""},
		{"-Inf", "'-Inf"},
		{"1-2", "1-2"},
	}
	for _, tt := range tests {
		if got := neutralise(tt.in); got != tt.want {
			t.Errorf("neutralise(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestCSVInjection writes every CSV section of a log whose User-agents,
// paths and robot names start as spreadsheet formulas: no cell read back
// from the CSV starts with a formula character unless it is a number.
func TestCSVInjection(t *testing.T) {
	rob := robots.ParseBytes([]byte("User-agent: *\nDisallow: /\n"))
	d := detect.New(detect.Config{Robots: rob, Watch: func(string) bool { return true }})
	start := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	attacks := []string{`=HYPERLINK("http://evil","x")`, `+cmd|'/C calc'!A0`, `-2+3+cmd|'/C calc'!A0`, `@SUM(A1)`, "\t=1", "\r=1"}
	var n int64
	for i := 0; i < 30; i++ {
		for j, a := range attacks {
			n++
			d.Add(&logparse.Record{Client: "198.51.100." + string(rune('1'+j)), UserAgent: a, Referer: a, Time: start.Add(time.Duration(i) * 200 * time.Millisecond),
				Method: "GET", Target: "/" + a, Status: 200, Bytes: 10, Line: n})
		}
	}
	r := &Report{Files: []string{"=evil.log"}, Stats: logparse.Stats{Lines: n, Records: n, Format: "combined", First: start, Last: start.Add(6 * time.Second),
		Samples: []*logparse.ParseError{{File: "=evil.log", Line: 1, Text: "=1+1"}}}, Result: d.Result(), Robots: []string{"robots.txt"}}
	for _, section := range Sections {
		var out bytes.Buffer
		if err := writeCSV(&out, r, Options{Sections: []string{section}}); err != nil {
			t.Fatalf("%s: %v", section, err)
		}
		recs, err := csv.NewReader(&out).ReadAll()
		if err != nil {
			t.Fatalf("%s: the CSV does not read back: %v", section, err)
		}
		if len(recs) < 2 {
			t.Errorf("%s: %d rows: the log should fill it", section, len(recs))
		}
		for _, rec := range recs {
			for _, cell := range rec {
				if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) && !isNumber(cell) {
					t.Errorf("%s: cell %q would run as a formula", section, cell)
				}
			}
		}
	}
}
