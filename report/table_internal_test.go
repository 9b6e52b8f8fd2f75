package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"
	"github.com/olekukonko/tablewriter/pkg/twwidth"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

// TestCountsInWords: one of a thing is "1 thing", in every count the
// table and Markdown write in words.
func TestCountsInWords(t *testing.T) {
	r := &Report{Files: []string{"a.log"}, Window: "since 2024-05-06 09:00", Outside: 1,
		Result: &findings.Result{Totals: findings.Totals{RobotCount: 1, Unchecked: 1, ViolationsUnlisted: 1, ViolationCount: 1},
			Robots: []findings.RobotSummary{{Name: "Bot", Clients: 1, Requests: 1}}, ViolationsChecked: true,
			Other: findings.Other{Clients: 1, Requests: 1}},
		Stats: logparse.Stats{Malformed: 2, Samples: []*logparse.ParseError{{File: "a.log", Line: 1, Text: "x"}}}}
	var out bytes.Buffer
	if err := Write(&out, "markdown", r, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"(1 record outside it left out)", "| Robots | 1 client, 1 name |",
		"| Not checked | 1 record of hosts", "about 1 of the lightest client folded together (--max-clients): 1 request |",
		"1 more violation was counted but not listed", "2 malformed lines in all; the first is shown."} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("lacks %q:\n%s", want, out.String())
		}
	}
	for _, bad := range []string{"1 clients", "1 names", "1 records", "1 requests", "1 more violations", "first 1 are"} {
		if strings.Contains(out.String(), bad) {
			t.Errorf("says %q", bad)
		}
	}
}

// TestWrapText: lines at most width columns, broken at spaces where there
// are some and inside a word wider than a line, spaces inside a line kept.
func TestWrapText(t *testing.T) {
	tests := []struct {
		text  string
		width int
		want  string
	}{
		{"short", 10, "short"},
		{"one two three", 7, "one two\nthree"},
		{"May  6 09:00:00 to May  6 09:01:00", 16, "May  6 09:00:00\nto May  6\n09:01:00"},
		{"2001:db8:85a3:8d3:1319:8a2e:370:7348", 20, "2001:db8:85a3:8d3:13\n19:8a2e:370:7348"},
		{"GET /a-very-long-path", 8, "GET\n/a-very-\nlong-pat\nh"},
		{"日本語のテキスト", 6, "日本語\nのテキ\nスト"},
		{"anything", 0, "anything"},
	}
	for _, tt := range tests {
		got := wrapText(tt.text, tt.width)
		if got != tt.want {
			t.Errorf("wrapText(%q, %d) = %q, want %q", tt.text, tt.width, got, tt.want)
		}
		for line := range strings.SplitSeq(got, "\n") {
			if tt.width > 0 && runewidth.StringWidth(line) > tt.width {
				t.Errorf("wrapText(%q, %d): line %q too wide", tt.text, tt.width, line)
			}
		}
	}
}

// TestRobotsTxtFailed: a robots.txt that could not be fetched is named, with
// why, where the violations would be, never "0 violations" or "give
// --robots"; with other sources checked, the summary still names it.
func TestRobotsTxtFailed(t *testing.T) {
	failed := []string{"https://example.com/robots.txt: HTTP 503: robots.txt unreachable: violations not checked against it"}
	tests := []struct {
		name    string
		checked bool
		want    []string
		bad     []string
	}{
		{"nothing checked", false, []string{"| Violations | not checked: robots.txt https\\://example.com/robots.txt: HTTP 503", "Not checked: robots.txt https\\://example.com/robots.txt: HTTP 503"},
			[]string{"give the site's robots.txt", "| Violations | 0"}},
		{"another source checked", true, []string{"| Violations | 0 (robots.txt:", "| Not checked | robots.txt https\\://example.com/robots.txt: HTTP 503"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Report{Files: []string{"a.log"}, Robots: []string{"https://example.com/robots.txt"}, RobotsFailed: failed,
				Result: &findings.Result{ViolationsChecked: tt.checked}}
			var out bytes.Buffer
			if err := Write(&out, "markdown", r, Options{}); err != nil {
				t.Fatal(err)
			}
			for _, want := range tt.want {
				if !strings.Contains(out.String(), want) {
					t.Errorf("lacks %q:\n%s", want, out.String())
				}
			}
			for _, bad := range tt.bad {
				if strings.Contains(out.String(), bad) {
					t.Errorf("says %q:\n%s", bad, out.String())
				}
			}
		})
	}
}

// TestWrapAddress: an address too wide for its column breaks after a ':' or
// '.', so that no piece reads as an address of its own; other text wraps as
// wrapText does.
func TestWrapAddress(t *testing.T) {
	for _, tt := range []struct {
		text  string
		width int
		want  string
	}{
		{"2001:db8:1234:5678:9abc:def0:1234:5678", 37, "2001:db8:1234:5678:9abc:def0:1234:\n5678"},
		{"2001:db8:1234:5678:9abc:def0:1234:5678", 15, "2001:db8:1234:\n5678:9abc:def0:\n1234:5678"},
		{"203.0.113.200", 8, "203.0.\n113.200"},
		{"203.0.113.200", 13, "203.0.113.200"},
		{"Googlebot-Image", 8, "Googlebo\nt-Image"},
	} {
		if got := wrapAddress(tt.text, tt.width); got != tt.want {
			t.Errorf("wrapAddress(%q, %d) = %q, want %q", tt.text, tt.width, got, tt.want)
		}
	}
}

// TestNotesCountExactly: the notes under the lists write counts as the
// summary does, every digit grouped: the summary's "1,861" clients were
// "1861" in "5 of 1861 clients shown", and 12,345 malformed lines "12.3k".
func TestNotesCountExactly(t *testing.T) {
	robots := make([]findings.RobotSummary, 1234)
	for i := range robots {
		robots[i] = findings.RobotSummary{Name: fmt.Sprintf("Bot%d", i), Clients: 1, Requests: 1}
	}
	r := &Report{Files: []string{"a.log"},
		Result: &findings.Result{Totals: findings.Totals{RobotCount: 1234, ViolationsUnlisted: 23456, ViolationCount: 23456,
			LateRecords: 45678}, Robots: robots, ViolationsChecked: true},
		Stats: logparse.Stats{Lines: 99999, Records: 99999, Malformed: 12345, Samples: []*logparse.ParseError{{File: "a.log", Line: 1, Text: "x"}}}}
	var out bytes.Buffer
	if err := Write(&out, "markdown", r, Options{Top: 5}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"5 of 1,234 robot names shown (--top).", "23,456 more violations were counted but not listed",
		"12,345 malformed lines in all", "| Late records | 45,678 too far"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("lacks %q:\n%s", want, out.String())
		}
	}
}

// TestWidthCacheMadeByFirstTable: tablewriter's width cache, dropped at
// init, is there again once a table is drawn, at tablewriter's own size.
func TestWidthCacheMadeByFirstTable(t *testing.T) {
	s := &section{title: "T", header: []string{"Key", "Value"}, rows: [][]string{{"a", "b"}}}
	var out bytes.Buffer
	if err := new(tableStyle).render(&out, s, Options{Width: 80}); err != nil {
		t.Fatal(err)
	}
	if _, capacity, _ := twwidth.GetCacheStats(); capacity != widthCacheSize {
		t.Errorf("width cache of %d entries after a table, want %d", capacity, widthCacheSize)
	}
	if !strings.Contains(out.String(), "│ a ") {
		t.Errorf("table:\n%s", out.String())
	}
}
