package report_test

import (
	"bytes"
	"html"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/detect"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/report"
)

// TestDrillDownSaysWhoTheClientIs: a client's drill-down names its
// operator, the robot's purpose, and whether its claim is verified and
// by what, in every format; a client that claims no operator has none of
// these lines.
func TestDrillDownSaysWhoTheClientIs(t *testing.T) {
	const gb = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	const curl = "curl/8.5.0"
	watched := []string{"66.249.66.1", "203.0.113.5", "198.51.100.7"}
	d := detect.New(detect.Config{Watch: func(ip string) bool { return slices.Contains(watched, ip) }})
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	for i, q := range []struct{ ip, ua string }{{"66.249.66.1", gb}, {"203.0.113.5", gb}, {"198.51.100.7", curl}} {
		d.Add(&logparse.Record{Client: q.ip, UserAgent: q.ua, Method: "GET", Target: "/", Status: 200, Bytes: 512, Time: t0.Add(time.Duration(i) * time.Second)})
	}
	r := &report.Report{Files: []string{"a.log"}, Result: d.Result()}
	want := map[string][]string{
		"66.249.66.1":  {"Operator: Google", "Purpose: search", "Identity: verified (ip-range): the address is in Google's published ranges"},
		"203.0.113.5":  {"Operator: Google", "Purpose: search", "Identity: impostor: Google's published ranges or DNS rule the address out"},
		"198.51.100.7": nil,
	}
	for _, format := range []string{"table", "markdown", "html"} {
		t.Run(format, func(t *testing.T) {
			var b bytes.Buffer
			if err := report.Write(&b, format, r, report.Options{Width: 250, Sections: []string{"client"}}); err != nil {
				t.Fatal(err)
			}
			for ip, lines := range want {
				facts := drillDownFacts(t, b.String(), format, ip)
				var got []string
				for _, f := range facts {
					if k, _, _ := strings.Cut(f, ": "); k == "Operator" || k == "Purpose" || k == "Identity" {
						got = append(got, f)
					}
				}
				if !slices.Equal(got, lines) {
					t.Errorf("client %s: %q, want %q", ip, got, lines)
				}
			}
		})
	}
}

// drillDownFacts reads the key-value rows of ip's drill-down as "Key:
// value", whatever the format.
func drillDownFacts(t *testing.T, out, format, ip string) []string {
	t.Helper()
	title := "Client " + ip
	switch format {
	case "markdown":
		title = "## " + title
	case "html":
		title = "<h2>" + title + "</h2>"
	}
	i := strings.Index(out, title+"\n")
	if i < 0 {
		t.Fatalf("no drill-down of %s in\n%s", ip, out)
	}
	out = out[i+len(title)+1:]
	var facts []string
	switch format {
	case "table":
		for line := range strings.Lines(out) {
			if !strings.HasPrefix(line, "│") {
				if len(facts) > 0 {
					break
				}
				continue
			}
			cells := strings.Split(strings.Trim(strings.TrimSpace(line), "│"), "│")
			facts = append(facts, strings.TrimSpace(cells[0])+": "+strings.TrimSpace(cells[1]))
		}
	case "markdown":
		for line := range strings.Lines(out) {
			if !strings.HasPrefix(line, "|") {
				if len(facts) > 0 {
					break
				}
				continue
			}
			cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), " | ")
			if len(cells) == 2 {
				facts = append(facts, strings.TrimSpace(cells[0])+": "+strings.ReplaceAll(strings.TrimSpace(cells[1]), `\`, ""))
			}
		}
	case "html":
		out = out[:strings.Index(out, "</section>")]
		for _, tr := range strings.Split(out, "<tr>")[1:] {
			var cells []string
			for _, c := range strings.Split(tr, "<td")[1:] {
				c = c[strings.Index(c, ">")+1:]
				cells = append(cells, html.UnescapeString(c[:strings.Index(c, "</td>")]))
			}
			if len(cells) == 2 {
				facts = append(facts, cells[0]+": "+cells[1])
			}
		}
	}
	return facts
}
