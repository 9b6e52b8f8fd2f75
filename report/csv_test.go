package report_test

import (
	"bytes"
	"encoding/csv"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/detect"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/report"
	"github.com/robowatch/robowatch/robots"
)

// formulaStart reports whether a spreadsheet would run cell as a formula
// (OWASP's list for CSV injection).
func formulaStart(cell string) bool {
	cell = strings.TrimLeft(cell, " ") // as a spreadsheet that trims cells reads it
	return cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0]))
}

// csvReport is a report of a log whose every field a client chooses (address
// as logged, method, path, User-agent, referer), a robots.txt group name, a
// file name and a malformed line's text begin as spreadsheet formulas, or
// as text that looks like a number.
func csvReport(t *testing.T) *report.Report {
	t.Helper()
	rob := robots.ParseBytes([]byte("User-agent: -evil\nDisallow: /\n\nUser-agent: *\nDisallow: /\n"))
	d := detect.New(detect.Config{Robots: rob, Watch: func(string) bool { return true }})
	start := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	attacks := []string{`=HYPERLINK("http://evil","x")`, `+cmd|'/C calc'!A0`, `-2+3+cmd|'/C calc'!A0`,
		`@SUM(A1)`, "\t=1", "\r=1", "-1", "+1", "-evil/1.0", ` =HYPERLINK("http://evil","x")`}
	var n int64
	for i := range 30 {
		for j, a := range attacks {
			n++
			d.Add(&logparse.Record{Client: a, UserAgent: a, Referer: a, Time: start.Add(time.Duration(i) * 200 * time.Millisecond),
				Method: a, Target: a, Status: 200, Bytes: int64(10 + j), Line: n})
		}
	}
	return &report.Report{Files: []string{"=evil.log", "-1"}, Stats: logparse.Stats{Lines: n, Records: n, Format: "combined", First: start, Last: start.Add(6 * time.Second),
		Samples: []*logparse.ParseError{{File: "=evil.log", Line: 1, Text: "=1+1"}, {File: "-1", Line: 2, Text: "-1"}}},
		Result: d.Result(), Robots: []string{"robots.txt"}}
}

// TestCSVInjection writes every CSV section of that report: no cell read
// back begins as a formula, and the log's text is all there, behind a quote.
func TestCSVInjection(t *testing.T) {
	r := csvReport(t)
	for _, section := range report.Sections {
		var out bytes.Buffer
		if err := report.WriteCSV(&out, r, report.Options{Sections: []string{section}}); err != nil {
			t.Fatalf("%s: %v", section, err)
		}
		recs, err := csv.NewReader(&out).ReadAll()
		if err != nil {
			t.Fatalf("%s: the CSV does not read back: %v", section, err)
		}
		// The refer section's rows are operators robowatch names (its
		// tables, not the log's text), and no operator's robot or product
		// is in this log: a header alone.
		if len(recs) < 2 && section != "refer" {
			t.Errorf("%s: %d rows: the log should fill it", section, len(recs))
		}
		quoted := 0
		for _, rec := range recs {
			for _, cell := range rec {
				if formulaStart(cell) {
					t.Errorf("%s: cell %q would run as a formula", section, cell)
				}
				if strings.HasPrefix(cell, "'") {
					quoted++
				}
			}
		}
		// The headline holds two values from the log (the worst incident's
		// address and robot), which here are a tab and a name: escaped, and
		// no formula; the other sections hold all of the log's text.
		// traffic holds times and counts only; refer robowatch's operator
		// names and counts.
		if quoted == 0 && section != "headline" && section != "traffic" && section != "refer" {
			t.Errorf("%s: no cell neutralised: the log's text is missing from it", section)
		}
	}
}

// TestCSVOutsideText: what a spreadsheet user sees in the cells that come
// from outside, column by column: the text as logged behind OWASP's quote,
// including text that looks like a number, while robowatch's own numbers
// stay numbers.
func TestCSVOutsideText(t *testing.T) {
	r := csvReport(t)
	tests := []struct {
		section, column string
		row             string // the first row with a cell that is this text as logged, quoted or not ("": the first row)
		want            string
	}{
		{"clients", "user_agent", "-1", "'-1"},
		{"clients", "ip", "-1", "'-1"},
		{"clients", "user_agent", "+1", "'+1"},
		{"clients", "user_agent", `=HYPERLINK("http://evil","x")`, `'=HYPERLINK("http://evil","x")`},
		{"clients", "user_agent", `\t=1`, `\t=1`},
		{"clients", "requests", "-1", "30"},
		{"clients", "bytes", "-1", "480"},
		{"violations", "path", "-1", "'-1"},
		{"violations", "method", "+1", "'+1"},
		{"violations", "group", "-evil/1.0", "'-evil"},
		{"violations", "status", "-1", "200"},
		{"incidents", "user_agent", "-1", "'-1"},
		{"client", "ip", "-1", "'-1"},
		{"malformed", "file", "", "'=evil.log"},
		{"malformed", "text", "", "'=1+1"},
		{"malformed", "text", "-1", "'-1"},
		{"malformed", "line", "-1", "2"},
		{"summary", "value", "", "'=evil.log -1"},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		if err := report.WriteCSV(&out, r, report.Options{Sections: []string{tt.section}}); err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(&out).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		col := slices.Index(recs[0], tt.column)
		if col < 0 {
			t.Fatalf("%s: no column %q in %q", tt.section, tt.column, recs[0])
		}
		var row []string
		for _, rec := range recs[1:] {
			if tt.row == "" || slices.ContainsFunc(rec, func(c string) bool { return strings.TrimPrefix(c, "'") == tt.row }) {
				row = rec
				break
			}
		}
		if row == nil {
			t.Errorf("%s: no row with %q", tt.section, tt.row)
			continue
		}
		if row[col] != tt.want {
			t.Errorf("%s %s (row of %q): %q, want %q", tt.section, tt.column, tt.row, row[col], tt.want)
		}
	}
}

// TestCheckCSVInjection: `robowatch check -o csv` and `--lint -o csv` write
// what a robots.txt says (which may be anyone's, fetched by URL) as text
// behind OWASP's quote; line numbers stay numbers.
func TestCheckCSVInjection(t *testing.T) {
	const hostile = "User-agent: -evil\nDisallow: /x\n\nUser-agent: *\nDisallow: /\n"
	rob := robots.ParseBytes([]byte(hostile))
	tests := []struct {
		agent, path string
		want        []string
	}{
		{"-evil/1.0", "-1", []string{"'-1", "true", "'-evil", "", "0", ""}},
		{"-evil/1.0", "/x", []string{"/x", "false", "'-evil", "Disallow: /x", "2", "/x"}},
		{"Examplo/1.0", "=1+1", []string{"'=1+1", "false", "*", "Disallow: /", "5", "/"}},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		if err := report.WriteCheck(&out, "csv", rob.Check(tt.agent, tt.path)); err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(&out).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != 2 || !slices.Equal(recs[1], tt.want) {
			t.Errorf("check %s %s: %q, want %q", tt.agent, tt.path, recs[1:], tt.want)
		}
	}
	var out bytes.Buffer
	if err := report.WriteLint(&out, "csv", "robots.txt", robots.Lint(rob)); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		for _, cell := range rec {
			if formulaStart(cell) {
				t.Errorf("lint: cell %q would run as a formula", cell)
			}
		}
	}
}
