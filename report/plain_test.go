package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"

	"github.com/robowatch/robowatch/report"
)

// TestPlainTextForMail renders the narrow-terminal report (600-character
// User-agents, IPv6 crawlers, a robots.txt URL in a User-agent) as -o text,
// the report a cron job mails: no box drawing and no escape of any kind,
// neither a terminal's (colour asked for or not) nor Markdown's
// ("http\://www\.google.com"), every line within the width, and the
// columns the table shows at that width.
func TestPlainTextForMail(t *testing.T) {
	r := narrowReport(t)
	for _, tt := range []struct {
		width int
		color bool
	}{{80, false}, {100, true}, {0, false}, {160, false}} {
		var out bytes.Buffer
		if err := report.Write(&out, "text", r, report.Options{Width: tt.width, Color: tt.color}); err != nil {
			t.Fatal(err)
		}
		text := out.String()
		limit := cmpOr(tt.width, report.DefaultWidth)
		for n, line := range strings.Split(text, "\n") {
			if w := runewidth.StringWidth(line); w > limit {
				t.Errorf("width %d: line %d is %d columns:\n%s", tt.width, n+1, w, line)
			}
			for _, r := range line {
				if r >= 0x2500 && r <= 0x257f || r == 0x1b {
					t.Fatalf("width %d: line %d has %U:\n%s", tt.width, n+1, r, line)
				}
			}
			if strings.Contains(line, `\:`) || strings.Contains(line, `\.`) || strings.HasPrefix(line, "| ") {
				t.Errorf("width %d: line %d is Markdown:\n%s", tt.width, n+1, line)
			}
		}
		var table bytes.Buffer
		if err := report.Write(&table, "table", r, report.Options{Width: tt.width}); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"Clients (by requests)", "Not shown at", "66.249.66.1", "MegaCrawler", "Googlebot"} {
			if strings.Contains(table.String(), want) && !strings.Contains(text, want) {
				t.Errorf("width %d: %q is in the table, not in the text:\n%s", tt.width, want, text)
			}
		}
	}
}
