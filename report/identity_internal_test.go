package report

import (
	"bytes"
	"html"
	"slices"
	"strings"
	"testing"

	"github.com/robowatch/robowatch/findings"
)

// identityReport has a robot of each identity: verified by ranges, by
// DNS and ranges, by a way robowatch has no word for (a name as an
// attacker could make it, with a terminal escape), an impostor, an
// unverified one and a robot that claims no operator.
func identityReport() *Report {
	return &Report{Files: []string{"a.log"}, Result: &findings.Result{Totals: findings.Totals{RobotCount: 6}, ViolationsChecked: true, Robots: []findings.RobotSummary{
		{Name: "Googlebot", Operator: "Google", Purpose: "search", Identity: "verified", VerifiedBy: "ip-range", Clients: 5, Requests: 209, Bytes: 6_200_000},
		{Name: "bingbot", Operator: "Microsoft", Purpose: "search", Identity: "verified", VerifiedBy: "dns,ip-range", Clients: 2, Requests: 150, Bytes: 1_500},
		{Name: "GPTBot", Operator: "OpenAI", Purpose: "ai-training", Identity: "verified", VerifiedBy: "x\x1b]8;;https://evil.example\x07", Clients: 1, Requests: 120, Bytes: 12_000},
		{Name: "Googlebot (impostor)", Operator: "Google", Purpose: "search", Identity: "impostor", Clients: 1, Requests: 21, Bytes: 241_000, Violations: 20},
		{Name: "UptimeRobot", Operator: "UptimeRobot", Purpose: "monitoring", Identity: "unverified", Clients: 1, Requests: 13, Bytes: 0},
		{Name: "unnamed (192.0.2.0/24)", Clients: 1, Requests: 10, Bytes: 900},
	}}}
}

// tableRows reads the rows of the terminal table titled title: the header
// and each row's cells, trimmed. A row of several lines is not read whole.
func tableRows(t *testing.T, out, title string) (header []string, rows map[string][]string, note string) {
	t.Helper()
	i := strings.Index(out, title+"\n")
	if i < 0 {
		t.Fatalf("no section %q in\n%s", title, out)
	}
	rows = map[string][]string{}
	for line := range strings.Lines(out[i+len(title)+1:]) {
		line = strings.TrimSuffix(line, "\n")
		if line == "" {
			break
		}
		if !strings.HasPrefix(line, "│") {
			note += line + " "
			continue
		}
		cells := strings.Split(strings.Trim(line, "│"), "│")
		for j := range cells {
			cells[j] = strings.TrimSpace(cells[j])
		}
		if header == nil {
			header = cells
			continue
		}
		rows[cells[0]] = cells
	}
	return header, rows, note
}

// TestRobotsTableSaysWhoEachRobotIs: the robots table names each robot's
// operator, purpose, identity (and how it was verified) and the bytes it
// was sent, in the terminal table, Markdown and HTML; a way of verifying
// robowatch has no word for is written escaped, never as a terminal
// escape.
func TestRobotsTableSaysWhoEachRobotIs(t *testing.T) {
	want := map[string][]string{ // Operator, Purpose, Identity, Bytes
		"Googlebot":              {"Google", "search", "verified (ranges)", "6.2 MB"},
		"bingbot":                {"Microsoft", "search", "verified (DNS, ranges)", "1.5 kB"},
		"GPTBot":                 {"OpenAI", "ai-training", `verified (x\x1b]8;;https://evil.example\x07)`, "12.0 kB"},
		"Googlebot (impostor)":   {"Google", "search", "impostor", "241 kB"},
		"UptimeRobot":            {"UptimeRobot", "monitoring", "unverified", "0 B"},
		"unnamed (192.0.2.0/24)": {"", "", "", "900 B"},
	}
	columns := []string{"Operator", "Purpose", "Identity", "Bytes"}
	for _, format := range []string{"table", "markdown", "html"} {
		t.Run(format, func(t *testing.T) {
			var b bytes.Buffer
			if err := Write(&b, format, identityReport(), Options{Width: 250, Sections: []string{"robots"}}); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			if strings.Contains(out, "\x1b") {
				t.Errorf("a raw escape in the %s report:\n%q", format, out)
			}
			var header []string
			rows := map[string][]string{}
			switch format {
			case "table":
				header, rows, _ = tableRows(t, out, "Robots (by name)")
			case "markdown":
				for line := range strings.Lines(out) {
					if !strings.HasPrefix(line, "| ") {
						continue
					}
					cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), " | ")
					for j := range cells {
						cells[j] = strings.ReplaceAll(strings.TrimSpace(cells[j]), `\`, "")
					}
					if header == nil {
						header = cells
					} else {
						rows[cells[0]] = cells
					}
				}

			case "html":
				header, rows = htmlRows(out)
			}
			for name, w := range want {
				row := rows[name]
				if row == nil {
					t.Errorf("no row %q; rows %q", name, rows)
					continue
				}
				if format == "markdown" { // Markdown escapes what it would read as markup
					w = []string{w[0], w[1], strings.ReplaceAll(w[2], `\`, ""), w[3]}
				}
				for k, col := range columns {
					j := slices.Index(header, col)
					if j < 0 || j >= len(row) {
						t.Errorf("no column %s in %q", col, header)
						continue
					}
					if row[j] != w[k] {
						t.Errorf("%s: %s %q, want %q", name, col, row[j], w[k])
					}
				}
			}
		})
	}
}

// htmlRows reads the header and rows of the page's robots table, its
// cells unescaped.
func htmlRows(page string) (header []string, rows map[string][]string) {
	i := strings.Index(page, `<section id="robots">`)
	page = page[i:]
	page = page[:strings.Index(page, "</section>")]
	rows = map[string][]string{}
	cells := func(tr, tag string) []string {
		var out []string
		for _, c := range strings.Split(tr, "<"+tag)[1:] {
			c = c[strings.Index(c, ">")+1:]
			c = c[:strings.Index(c, "</"+tag+">")]
			out = append(out, html.UnescapeString(c))
		}
		return out
	}
	for _, tr := range strings.Split(page, "<tr>")[1:] {
		if header == nil {
			header = cells(tr, "th")
			continue
		}
		if c := cells(tr, "td"); len(c) > 0 {
			rows[c[0]] = c
		}
	}
	return header, rows
}

// TestRobotsTableNarrowKeepsIdentity: on a narrow screen the identity and
// operator stay while purpose and bytes are left out; the robot's name,
// requests and violations stay longest.
func TestRobotsTableNarrowKeepsIdentity(t *testing.T) {
	sawIdentityAlone := false
	for width := 60; width <= 200; width += 5 {
		var b bytes.Buffer
		if err := Write(&b, "table", identityReport(), Options{Width: width, Sections: []string{"robots"}}); err != nil {
			t.Fatal(err)
		}
		header, _, note := tableRows(t, b.String(), "Robots (by name)")
		has := func(col string) bool { return slices.Contains(header, col) }
		for _, col := range []string{"Robot", "Requests", "Violations"} {
			if !has(col) {
				t.Errorf("%d columns: no %s in %q", width, col, header)
			}
		}
		if (has("Purpose") || has("Bytes")) && !(has("Identity") && has("Operator")) {
			t.Errorf("%d columns: %q: purpose or bytes kept before identity and operator", width, header)
		}
		if has("Identity") && !has("Purpose") && !has("Bytes") {
			sawIdentityAlone = true
			if !strings.Contains(note, "Purpose") || !strings.Contains(note, "Bytes") {
				t.Errorf("%d columns: the note %q does not name Purpose and Bytes", width, note)
			}
		}
	}
	if !sawIdentityAlone {
		t.Error("at no width was the identity kept and purpose and bytes left out")
	}
}

// TestRobotsTableLeavesOutEmptyClaims: when no robot claims an operator
// robowatch knows, the operator, purpose and identity columns are left
// out in every format; the bytes stay.
func TestRobotsTableLeavesOutEmptyClaims(t *testing.T) {
	r := &Report{Files: []string{"a.log"}, Result: &findings.Result{Totals: findings.Totals{RobotCount: 1}, Robots: []findings.RobotSummary{
		{Name: "unnamed (192.0.2.0/24)", Clients: 1, Requests: 10, Bytes: 900},
	}}}
	for _, format := range []string{"table", "markdown", "html"} {
		var b bytes.Buffer
		if err := Write(&b, format, r, Options{Width: 250, Sections: []string{"robots"}}); err != nil {
			t.Fatal(err)
		}
		for _, col := range []string{"Operator", "Purpose", "Identity"} {
			if strings.Contains(b.String(), col) {
				t.Errorf("%s: an empty column %s:\n%s", format, col, b.String())
			}
		}
		if !strings.Contains(b.String(), "Bytes") || !strings.Contains(b.String(), "900 B") {
			t.Errorf("%s: no bytes:\n%s", format, b.String())
		}
	}
}

// TestIdentitySentence: the drill-down's identity line says what verified
// the claim, in words where robowatch has them and as the JSON spells it
// always, and never passes a terminal escape on.
func TestIdentitySentence(t *testing.T) {
	tests := []struct{ operator, identity, by, want string }{
		{"Google", "verified", "ip-range", "verified (ip-range): the address is in Google's published ranges"},
		{"Microsoft", "verified", "dns", "verified (dns): the address's reverse DNS name is Microsoft's and resolves back to it"},
		{"Cloudflare", "verified", "signature", "verified (signature): the request is signed with a key of Cloudflare's"},
		{"Microsoft", "verified", "dns,ip-range", "verified (dns,ip-range): the address's reverse DNS name is Microsoft's and resolves back to it; the address is in Microsoft's published ranges"},
		{"OpenAI", "verified", "x\x1b[2J", `verified (x\x1b[2J) as OpenAI's`},
		{"Google", "impostor", "", "impostor: Google's published ranges or DNS rule the address out"},
		{"UptimeRobot", "unverified", "", "unverified: nothing robowatch holds proves or rules out that the address is UptimeRobot's"},
	}
	for _, tt := range tests {
		if got := identitySentence(tt.operator, tt.identity, tt.by); got != tt.want {
			t.Errorf("identitySentence(%q, %q, %q) = %q, want %q", tt.operator, tt.identity, tt.by, got, tt.want)
		}
	}
}
