package report_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mattn/go-runewidth"

	"github.com/robowatch/robowatch/detect"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/report"
	"github.com/robowatch/robowatch/robots"
)

// narrowCrawler is the crawler of the narrow-terminal scenario: a full-length
// IPv6 address, a 600-character User-agent, the same rule broken 24 times.
const narrowCrawler = "2001:db8:85a3:8d3:1319:8a2e:370:7348"

// narrowReport is testdata/scenarios/narrow-terminal as robowatch reads it,
// with the crawler's drill-down.
func narrowReport(t *testing.T) *report.Report {
	t.Helper()
	const dir = "../testdata/scenarios/narrow-terminal/"
	rf, err := os.ReadFile(dir + "robots.txt")
	if err != nil {
		t.Fatal(err)
	}
	d := detect.New(detect.Config{Robots: robots.ParseBytes(rf), Watch: func(ip string) bool { return ip == narrowCrawler }})
	f, err := os.Open(dir + "access.log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	format, err := logparse.ParseFormat("auto")
	if err != nil {
		t.Fatal(err)
	}
	rd := logparse.NewReader(f, "access.log", format)
	var rec logparse.Record
	for {
		err := rd.Read(&rec)
		if errors.Is(err, io.EOF) {
			break
		}
		var pe *logparse.ParseError
		if err != nil && !errors.As(err, &pe) {
			t.Fatal(err)
		}
		if err == nil {
			d.Add(&rec)
		}
	}
	return &report.Report{Files: []string{"access.log"}, Stats: rd.Stats(), Result: d.Result(), Robots: []string{"robots.txt"}}
}

// ansi matches the colour escapes the table writes.
var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// TestTableFitsWidth draws the narrow-terminal report at 80, 100 and 160
// columns, and with no width (as under cron: DefaultWidth), in colour and
// not: no line is wider than the width, and every address, robot name and
// time that tells a row apart is on the screen whole, never cut (under 120
// columns an IPv6 address may be wrapped at a ':', whole on two lines).
func TestTableFitsWidth(t *testing.T) {
	r := narrowReport(t)
	for _, width := range []int{80, 100, 160, 0} {
		for _, color := range []bool{false, true} {
			var out bytes.Buffer
			if err := report.Write(&out, "table", r, report.Options{Width: width, Color: color}); err != nil {
				t.Fatal(err)
			}
			screen := out.String()
			if !color && strings.Contains(screen, "\x1b") {
				t.Errorf("width %d: an escape with colour off", width)
			}
			if color && !strings.Contains(screen, report.AnsiRed) {
				t.Errorf("width %d: no violation is red", width)
			}
			plain := ansi.ReplaceAllString(screen, "")
			limit := cmpOr(width, report.DefaultWidth)
			for n, line := range strings.Split(plain, "\n") {
				if w := runewidth.StringWidth(line); w > limit {
					t.Errorf("width %d, colour %v: line %d is %d columns:\n%s", width, color, n+1, w, line)
				}
			}
			var whole []string
			for c := range r.Result.Clients.All() {
				whole = append(whole, c.IP)
			}
			for _, b := range r.Result.Robots {
				whole = append(whole, b.Name)
			}
			layout := report.TimeLayout
			if limit < report.WideTimes {
				layout = report.ShortTimeLayout
			}
			for _, in := range r.Result.Incidents {
				whole = append(whole, in.Start.Format(layout))
			}
			cells := tableCells(plain)
			for _, want := range whole {
				if strings.Contains(plain, "│ "+want+" ") {
					continue
				}
				// Under wideTimes the columns are planned for an IPv4
				// address: an IPv6 one may take two lines of its cell.
				if _, err := netip.ParseAddr(want); err != nil || limit >= report.WideTimes || !cells[want] {
					t.Errorf("width %d: %q is not in a cell whole", width, want)
				}
			}
			if !strings.Contains(plain, "…") {
				t.Errorf("width %d: nothing cut: the 600-character User-agents should be", width)
			}
		}
	}
}

// tableCells returns the cells of the tables on screen, each cell's lines
// joined with nothing between them and, for a stacked cell (an address
// with its robot's name under it), each run of its lines: what an address
// wrapped at a ':' or '.' reads as, whole.
func tableCells(screen string) map[string]bool {
	cells := make(map[string]bool)
	var block [][]string // the lines of one row, split at the borders
	flush := func() {
		if len(block) == 0 {
			return
		}
		for col := range block[0] {
			var pieces []string
			for _, line := range block {
				if col < len(line) {
					pieces = append(pieces, strings.TrimSpace(line[col]))
				}
			}
			for i := range pieces {
				for j := i + 1; j <= len(pieces); j++ {
					cells[strings.Join(pieces[i:j], "")] = true
				}
			}
		}
		block = nil
	}
	for line := range strings.SplitSeq(screen, "\n") {
		if !strings.HasPrefix(line, "│") {
			flush()
			continue
		}
		block = append(block, strings.Split(strings.Trim(line, "│"), "│"))
	}
	flush()
	return cells
}

func cmpOr(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}

// TestFitKeepsIdentities fits every section of the narrow-terminal report
// to widths from 40 to 200 and compares each cell with what it was: cells
// of addresses, names and times are whole (wrapped at most, never cut);
// only free text ends in "…".
func TestFitKeepsIdentities(t *testing.T) {
	r := narrowReport(t)
	for width := 40; width <= 200; width += 10 {
		for _, s := range report.BuildSections(r, report.Options{Width: width}, true) {
			if len(s.Rows()) == 0 {
				continue
			}
			if width < report.WideTimes {
				report.ShortenTimes(s)
			}
			report.Stack(s)
			header := s.Header()
			before := make([][]string, len(s.Rows()))
			for j, row := range s.Rows() {
				before[j] = append([]string(nil), row...)
			}
			report.Fit(s, width, 3)
			// The columns left, in order, are where they were before.
			at, k := make([]int, len(s.Header())), 0
			for i, h := range header {
				if k < len(s.Header()) && s.Header()[k] == h {
					at[k] = i
					k++
				}
			}
			for i, h := range s.Header() {
				free := s.Flex() != nil && s.Flex()[i] && !(s.Keep() != nil && s.Keep()[i])
				for j, row := range s.Rows() {
					got, was := row[i], before[j][at[i]]
					switch {
					case free && s.Header()[0] != "":
						if got != was && !strings.HasSuffix(got, "…") {
							t.Errorf("%s at %d: %s %q cut without a mark", s.Name(), width, h, got)
						}
					case squash(got) != squash(was):
						t.Errorf("%s at %d: %s %q became %q", s.Name(), width, h, was, got)
					}
				}
			}
		}
	}
}

// squash is text without the spaces and line breaks wrapping moves.
func squash(s string) string { return strings.NewReplacer(" ", "", "\n", "").Replace(s) }

// TestViolationsGrouped: the crawler broke one rule 24 times over 6 paths;
// the table and Markdown give that one row with the count, the first and
// last times, the first paths and a mark for the rest, and --top counts
// rows. The HTML page keeps a row per request.
func TestViolationsGrouped(t *testing.T) {
	r := narrowReport(t)
	groups := report.GroupViolations(r.Result.Violations)
	if len(groups) != 4 {
		t.Fatalf("%d groups, want 4 (crawler: archive, private, search; curl: private)", len(groups))
	}
	g := groups[0]
	if g.Count() != 24 || g.First().IP != narrowCrawler || g.First().Line != 4 || len(g.Paths()) != report.MaxGroupPaths || !g.MorePaths() {
		t.Errorf("first group: %d of line %d by %s, %d paths (more: %v); want 24 of line 4 by the crawler, 3 paths and more",
			g.Count(), g.First().Line, g.First().IP, len(g.Paths()), g.MorePaths())
	}
	if want := time.Date(2024, 5, 6, 9, 1, 7, 0, time.FixedZone("", 2*3600)); !g.Last().Equal(want) {
		t.Errorf("last violation of the first group at %v, want %v", g.Last(), want)
	}
	if g := groups[1]; g.Count() != 3 || len(g.Paths()) != 2 || g.MorePaths() {
		t.Errorf("second group: %d violations over %d paths, want 3 over 2 (q1.pdf twice)", g.Count(), len(g.Paths()))
	}

	var md bytes.Buffer
	if err := report.Write(&md, "markdown", r, report.Options{Sections: []string{"violations"}, Top: 2}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| Client | Robot | Count | First | Last | Rule | Paths | Status | Group |",
		"| " + narrowCrawler + " | MegaCrawler | 24 | 2024-05-06 09:01:00 +0200 | 2024-05-06 09:01:07 +0200 | line 4: Disallow: /catalogue/",
		"2 of 4 rows shown (--top): 30 stored violations, one row per client and rule.",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md.String())
		}
	}
	if n := strings.Count(md.String(), "\n| 2001:"); n != 2 {
		t.Errorf("%d rows with --top 2", n)
	}
	for _, s := range report.HTMLSections(r, report.Options{}) {
		if s.Name() == "violations" && len(s.Rows()) != 30 {
			t.Errorf("the HTML page has %d violation rows, want one per request (30)", len(s.Rows()))
		}
	}
}

// TestMarkdownCutsLongText: Markdown has no width, but a User-agent longer
// than mdMaxText ends in "…" there; addresses and the summary are whole.
func TestMarkdownCutsLongText(t *testing.T) {
	r := narrowReport(t)
	var out bytes.Buffer
	if err := report.Write(&out, "markdown", r, report.Options{Width: 80}); err != nil {
		t.Fatal(err)
	}
	md := out.String()
	for line := range strings.Lines(md) {
		if !strings.HasPrefix(line, "| "+narrowCrawler+" | yes |") {
			continue
		}
		ua := strings.TrimSuffix(strings.TrimSuffix(line, "\n"), " |")
		ua = ua[strings.LastIndex(ua, " | ")+3:]
		// Counted as rendered: without the escapes that keep its URL
		// and e-mail address from being links.
		ua = strings.NewReplacer(`\:`, ":", "`@`", "@").Replace(ua)
		if w := runewidth.StringWidth(ua); w != report.MdMaxText || !strings.HasSuffix(ua, "…") {
			t.Errorf("crawler's User-agent in Markdown: %d columns, want %d ending in …: %q", w, report.MdMaxText, ua)
		}
	}
	for _, want := range []string{"| Time span | 2024-05-06 09:00:00 +0200 to 2024-05-06 09:02:05 +0200 (2m05s) |",
		"| 2024-05-06 09:01:00 +0200 | 8s | " + narrowCrawler + " | MegaCrawler |"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown (at a terminal of 80 columns) lacks %q", want)
		}
	}
}

// TestColourMeansSomething: with colour on, violation counts are red and
// incident peaks yellow, and nothing else in a cell is coloured.
func TestColourMeansSomething(t *testing.T) {
	r := narrowReport(t)
	var out bytes.Buffer
	if err := report.Write(&out, "table", r, report.Options{Width: 240, Color: true, Sections: []string{"summary", "clients", "incidents"}}); err != nil {
		t.Fatal(err)
	}
	screen := out.String()
	for _, want := range []string{report.AnsiRed + "30 (robots.txt: robots.txt)" + report.AnsiReset, report.AnsiBrown + "1 rapid-fire" + report.AnsiReset,
		report.AnsiRed + "28" + report.AnsiReset, report.AnsiBrown + "3/24/28" + report.AnsiReset, report.AnsiBrown + "3" + report.AnsiReset + " │"} {
		if !strings.Contains(screen, want) {
			t.Errorf("lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, report.AnsiRed+"0"+report.AnsiReset) {
		t.Error("a count of 0 violations is red")
	}
}

// TestHeadlineSharesOfEverything: with clients folded under --max-clients,
// the headline's shares are of all that was read (the folded clients' bytes
// too) and say they are lower bounds: "100% of bytes" for robots that sent
// 1% of them was the tracked clients' share.
func TestHeadlineSharesOfEverything(t *testing.T) {
	d := detect.New(detect.Config{MaxClients: 2})
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	for i := range 40 { // one robot, heavy in requests, light in bytes
		d.Add(&logparse.Record{Client: "192.0.2.9", UserAgent: "curl/8.5.0", Method: "GET", Target: "/", Status: 200, Bytes: 10, Time: t0.Add(time.Duration(i) * time.Second)})
	}
	for i := range 30 { // people, each once, with big pages: folded
		d.Add(&logparse.Record{Client: fmt.Sprintf("198.51.100.%d", i), UserAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", Method: "GET", Target: "/", Status: 200, Bytes: 100_000, Time: t0.Add(time.Duration(i) * time.Second)})
	}
	r := &report.Report{Files: []string{"a.log"}, Stats: logparse.Stats{Records: 70, Lines: 70}, Result: d.Result()}
	var out bytes.Buffer
	if err := report.Write(&out, "table", r, report.Options{Width: 200, Sections: []string{"headline"}}); err != nil {
		t.Fatal(err)
	}
	if text := out.String(); !strings.Contains(text, "at least 57% of requests (40 of 70), <1% of bytes") {
		t.Errorf("headline:\n%s", text)
	}
}

// TestNarrowTableFitsWidth: on a screen narrower than 80 columns (a phone,
// a split pane) every line still fits: columns are left out rather than
// the table running past the edge, and headings are wrapped. The robots
// list kept its robots.txt and violations columns whatever the width, and
// at 50 columns was 56 wide, its names cut into five-letter pieces; the
// heading "First requests of" a full IPv6 address is 54 columns.
func TestNarrowTableFitsWidth(t *testing.T) {
	r := narrowReport(t)
	for width := 44; width < 80; width += 4 {
		var out bytes.Buffer
		if err := report.Write(&out, "table", r, report.Options{Width: width}); err != nil {
			t.Fatal(err)
		}
		for n, line := range strings.Split(out.String(), "\n") {
			if w := runewidth.StringWidth(line); w > width {
				t.Errorf("width %d: line %d is %d columns:\n%s", width, n+1, w, line)
			}
		}
	}
}

// TestHeadlineWindow: with --since or --until the headline's share is of
// the records in the window, which the verdicts are of: it was of every
// record read, those left out too ("12% of requests (323 of 2,500)" where
// the window's robots made 31% of its 1,038); so is the CSV headline's
// records. An empty window, and an empty log, say so in the headline and
// under Clients.
func TestHeadlineWindow(t *testing.T) {
	d := detect.New(detect.Config{})
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	for i := range 30 {
		d.Add(&logparse.Record{Client: "192.0.2.9", UserAgent: "curl/8.5.0", Method: "GET", Target: "/", Status: 200, Bytes: 10, Time: t0.Add(time.Duration(i) * time.Second)})
	}
	for i := range 10 {
		d.Add(&logparse.Record{Client: fmt.Sprintf("198.51.100.%d", i), UserAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", Method: "GET", Target: "/", Status: 200, Bytes: 10, Time: t0.Add(time.Duration(i) * time.Second)})
	}
	window := "from 2024-05-06 09:00:00 +0000"
	for _, tt := range []struct {
		name   string
		r      *report.Report
		want   []string
		absent string
	}{
		{"window", &report.Report{Stats: logparse.Stats{Records: 100, Lines: 100}, Outside: 60, Window: window, Result: d.Result()},
			[]string{"75% of requests (30 of 40)"}, "of 100"},
		{"empty window", &report.Report{Stats: logparse.Stats{Records: 100, Lines: 100}, Outside: 100, Window: window, Result: detect.New(detect.Config{}).Result()},
			[]string{"no records in the window (100 records outside it left out)", "No clients: no records in the window."}, "judged a robot"},
		{"empty log", &report.Report{Result: detect.New(detect.Config{}).Result()},
			[]string{"no records were read", "No clients: no records were read."}, "window"},
	} {
		var out bytes.Buffer
		if err := report.Write(&out, "table", tt.r, report.Options{Width: 200, Sections: []string{"headline", "clients"}}); err != nil {
			t.Fatal(err)
		}
		text := out.String()
		for _, want := range tt.want {
			if !strings.Contains(text, want) {
				t.Errorf("%s: lacks %q:\n%s", tt.name, want, text)
			}
		}
		if strings.Contains(text, tt.absent) {
			t.Errorf("%s: says %q:\n%s", tt.name, tt.absent, text)
		}
		out.Reset()
		if err := report.Write(&out, "csv", tt.r, report.Options{Sections: []string{"headline"}}); err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("records,%d\n", tt.r.Stats.Records-tt.r.Outside); !strings.Contains(out.String(), want) {
			t.Errorf("%s: CSV headline lacks %q:\n%s", tt.name, want, out.String())
		}
	}
}
