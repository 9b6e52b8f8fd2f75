package report_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/detect"
	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/report"
	"github.com/robowatch/robowatch/robots"
)

// TestBlockListHostileNames: a robot's name comes from its User-agent, a
// file name from the command line, and both go into comments of the
// admin's nginx or firewall configuration. A newline, a quote or a shell
// character in them must not end the comment: every line of the file is a
// comment or a directive robowatch wrote.
func TestBlockListHostileNames(t *testing.T) {
	rb, err := robots.Parse(strings.NewReader("User-agent: *\nDisallow: /\n"))
	if err != nil {
		t.Fatal(err)
	}
	d := detect.New(detect.Config{Robots: rb})
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	for i, ua := range []string{"evil\ndeny all;\n#bot/1.0", "quote\"bot\r\n}/1.0", "$(reboot)`id`bot/2.0", "\u202eeliforp\u2028bot/1.0"} {
		d.Add(&logparse.Record{Client: "198.51.100." + string(rune('1'+i)), UserAgent: ua, Method: "GET", Target: "/x", Status: 200, Time: t0})
	}
	r := &report.Report{Files: []string{"evil\nlog"}, Result: d.Result()}
	for _, format := range report.BlockFormats {
		var out bytes.Buffer
		if _, err := report.WriteBlock(&out, format, r, report.BlockOptions{BlockOptions: findings.BlockOptions{Select: findings.DefaultSelection}}); err != nil {
			t.Fatal(err)
		}
		entries := 0
		for line := range strings.Lines(out.String()) {
			line = strings.TrimRight(line, "\n")
			trimmed := strings.TrimSpace(line)
			switch {
			case strings.ContainsAny(line, "\r\"`$\\") || strings.ContainsFunc(line, func(r rune) bool { return r > 0x7e || r < 0x20 }):
				t.Errorf("%s: line %q holds a character from a User-agent", format, line)
			case trimmed == "" || strings.HasPrefix(trimmed, "#"):
			case strings.HasPrefix(trimmed, "198.51.100."), strings.HasPrefix(trimmed, "deny 198.51.100."), strings.HasPrefix(trimmed, "Require not ip 198.51.100."):
				entries++
			case format == "nftables":
			default:
				t.Errorf("%s: line %q is not robowatch's", format, line)
			}
		}
		if entries != 4 && format != "nftables" {
			t.Errorf("%s: %d entries, want 4:\n%s", format, entries, out.String())
		}
		if strings.Contains(out.String(), "\ndeny all;") {
			t.Errorf("%s: a User-agent wrote a directive:\n%s", format, out.String())
		}
	}
}
