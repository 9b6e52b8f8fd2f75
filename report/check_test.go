package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"github.com/robowatch/robowatch/robots"
)

const checkRobots = `# robots.txt for http://www.example.com/

User-agent: *
Disallow: /cyberworld/map/ # This is an infinite virtual URL space
Allow: /cyberworld/map/index.html

# Cybermapper knows where to go.
User-agent: cybermapper
Disallow:
`

func checkDecisions(t *testing.T, agent string, paths ...string) []robots.Decision {
	t.Helper()
	return robots.ParseBytes([]byte(checkRobots)).Check(agent, paths...)
}

func TestWriteCheckText(t *testing.T) {
	cases := []struct {
		name, agent string
		paths       []string
		want        string
	}{
		{"star group", "Mozilla/5.0 (compatible; FooBot/1.0)", []string{"/cyberworld/map/x.html", "/cyberworld/map/index.html", "/index.html", "/robots.txt"},
			"disallowed  /cyberworld/map/x.html      group *  line 4: Disallow: /cyberworld/map/\n" +
				"allowed     /cyberworld/map/index.html  group *  line 5: Allow: /cyberworld/map/index.html\n" +
				"allowed     /index.html                 group *  (no rule matches)\n" +
				"allowed     /robots.txt                 group *  (no rule matches)\n"},
		{"own group", "CyberMapper/2", []string{"/cyberworld/map/x.html"},
			"allowed     /cyberworld/map/x.html  group cybermapper  (no rule matches)\n"},
		{"no paths", "bot", nil, ""},
	}
	for _, c := range cases {
		var b bytes.Buffer
		if err := WriteCheck(&b, "text", checkDecisions(t, c.agent, c.paths...)); err != nil {
			t.Fatal(err)
		}
		if b.String() != c.want {
			t.Errorf("%s:\n got:\n%s\nwant:\n%s", c.name, b.String(), c.want)
		}
	}

	// No group at all, and a robots.txt that could not be fetched.
	var b bytes.Buffer
	none := robots.ParseBytes([]byte("User-agent: foo\nDisallow: /\n")).Check("bar", "/x")
	down := robots.DisallowAll("https://example.com/robots.txt: HTTP 503: robots.txt unreachable; RFC 9309 §2.3.1.4: everything disallowed").Check("bar", "/x")
	if err := WriteCheck(&b, "table", append(none, down...)); err != nil {
		t.Fatal(err)
	}
	want := "allowed     /x  no group applies  (everything allowed)\n" +
		"disallowed  /x  group *           https://example.com/robots.txt: HTTP 503: robots.txt unreachable; RFC 9309 §2.3.1.4: everything disallowed\n"
	if b.String() != want {
		t.Errorf("no group / unreachable:\n got:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestWriteCheckHostile: paths and rules are attacker-controlled text and
// must not reach the terminal raw; a huge rule is cut.
func TestWriteCheckHostile(t *testing.T) {
	file := "User-agent: *\nDisallow: /\x1b[31mred\nDisallow: /" + strings.Repeat("z", 100000) + "\n"
	d := robots.ParseBytes([]byte(file)).Check("bot", "/\x1b[31mred\x1b]0;owned\x07\u202e\b", "/"+strings.Repeat("z", 100001))
	var b bytes.Buffer
	if err := WriteCheck(&b, "text", d); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, bad := range []string{"\x1b", "\x07", "\u202e", "\b"} {
		if strings.Contains(out, bad) {
			t.Errorf("output holds raw %q: %q", bad, out)
		}
	}
	if !strings.Contains(out, `\x1b[31mred`) {
		t.Errorf("escape not made visible: %q", out)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "disallowed") || !strings.HasPrefix(lines[1], "disallowed") {
		t.Fatalf("lines: %q", lines)
	}
	// The path is shown in full (the user asked about it); the rule is cut.
	if !strings.Contains(lines[1], "line 3: Disallow: /zzz") || !strings.Contains(lines[1], "…") || len(lines[1]) > 100001+200 {
		t.Errorf("long rule not cut: %d bytes", len(lines[1]))
	}
}

func TestWriteCheckJSON(t *testing.T) {
	var b bytes.Buffer
	d := checkDecisions(t, "FooBot", "/cyberworld/map/x.html", "/index.html")
	d = append(d, robots.ParseBytes(nil).Check("FooBot", "/\x1b<x>")...)
	if err := WriteCheck(&b, "json", d); err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	if err := json.Unmarshal(b.Bytes(), &rows); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b.String())
	}
	want := []map[string]any{
		{"path": "/cyberworld/map/x.html", "allowed": false, "group": "*", "rule": "Disallow: /cyberworld/map/", "line": 4.0, "pattern": "/cyberworld/map/"},
		{"path": "/index.html", "allowed": true, "group": "*", "rule": "", "line": 0.0, "pattern": ""},
		{"path": "/\x1b<x>", "allowed": true, "group": "", "rule": "", "line": 0.0, "pattern": ""},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	for i, w := range want {
		for k, v := range w {
			if rows[i][k] != v {
				t.Errorf("row %d %q = %#v, want %#v", i, k, rows[i][k], v)
			}
		}
		for k := range rows[i] {
			if _, ok := w[k]; !ok {
				t.Errorf("row %d has unexpected field %q", i, k)
			}
		}
	}
	// An empty list is [], not null: scripts iterate it.
	b.Reset()
	if err := WriteCheck(&b, "json", nil); err != nil || strings.TrimSpace(b.String()) != "[]" {
		t.Errorf("empty JSON = %q, %v", b.String(), err)
	}
}

func TestWriteCheckCSV(t *testing.T) {
	var b bytes.Buffer
	if err := WriteCheck(&b, "csv", checkDecisions(t, "FooBot", "/cyberworld/map/x.html", "/a,b")); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"path", "allowed", "group", "rule", "line", "pattern"},
		{"/cyberworld/map/x.html", "false", "*", "Disallow: /cyberworld/map/", "4", "/cyberworld/map/"},
		{"/a,b", "true", "*", "", "0", ""},
	}
	if len(recs) != len(want) {
		t.Fatalf("records %q", recs)
	}
	for i := range want {
		if strings.Join(recs[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("record %d = %q, want %q", i, recs[i], want[i])
		}
	}
}

func TestCheckFormatErrors(t *testing.T) {
	var b bytes.Buffer
	if err := WriteCheck(&b, "markdown", nil); err == nil || !strings.Contains(err.Error(), "json") {
		t.Errorf("WriteCheck(markdown) error = %v", err)
	}
	if err := WriteLint(&b, "yaml", "x", nil); err == nil {
		t.Errorf("WriteLint(yaml): no error")
	}
}

const lintRobots = "User-agent: cybermapper\n" + // 1
	"\n" + // 2
	"User-agent: *\n" + // 3
	"Dissallow: /tmp/ /cgi-bin/\n" + // 4
	"Noindex: /x\n" + // 5
	"Disallow: private/\n" + // 6
	"Usr-agent: foo\n" // 7

func TestWriteLintText(t *testing.T) {
	var b bytes.Buffer
	if err := WriteLint(&b, "text", "robots.txt", robots.Lint(robots.ParseBytes([]byte(lintRobots)))); err != nil {
		t.Fatal(err)
	}
	want := `robots.txt:1: warning: User-agent cybermapper (line 1) has no rules before blank line 2: RFC 9309 readers such as Google give it the rules of the group that goes on at line 3; 1994-style readers give it a record of its own with nothing disallowed (blank-line-1994)
    suggestion: if cybermapper may fetch everything, add "Disallow:" after line 1; if it should obey the rules from line 3 on, delete blank line 2
robots.txt:4: warning: "Dissallow" is a misspelling of Disallow: robowatch and Google read it, other crawlers ignore the line (misspelled-key)
    suggestion: write "Disallow: /tmp/ /cgi-bin/"
robots.txt:4: warning: several paths on one line: robowatch reads 2 rules as the 1994 standard does, but RFC 9309 readers such as Google read one pattern "/tmp/ /cgi-bin/" with spaces in it, which matches nothing (several-paths)
    suggestion: write one "Disallow:" line per path
robots.txt:5: notice: Noindex in robots.txt is not part of RFC 9309 and Google stopped reading it in 2019; use a robots meta tag or X-Robots-Tag header (non-standard-key)
robots.txt:6: error: path "private/" does not start with '/' or '*': it never matches (paths are matched from their start, which is '/') (path-start)
    suggestion: write "Disallow: /private/"
robots.txt:7: warning: unknown key "Usr-agent": the line is ignored (unknown-key)
    suggestion: did you mean "User-agent:"?
robots.txt: 1 error, 4 warnings, 1 notice
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	if err := WriteLint(&b, "", "good.txt", nil); err != nil || b.String() != "good.txt: no problems found\n" {
		t.Errorf("no problems: %q, %v", b.String(), err)
	}
	// A hostile file name and file content stay inert.
	b.Reset()
	hostile := robots.Lint(robots.ParseBytes([]byte("User-agent: *\n\x1b]0;x\x07: 1\n")))
	if err := WriteLint(&b, "text", "evil\x1b[2J.txt", hostile); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(b.String(), "\x1b\x07") {
		t.Errorf("raw control characters: %q", b.String())
	}
}

func TestWriteLintJSON(t *testing.T) {
	var b bytes.Buffer
	if err := WriteLint(&b, "json", "robots.txt", robots.Lint(robots.ParseBytes([]byte(lintRobots)))); err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		Line       int    `json:"line"`
		Severity   string `json:"severity"`
		Code       string `json:"code"`
		Message    string `json:"message"`
		Suggestion string `json:"suggestion"`
	}
	if err := json.Unmarshal(b.Bytes(), &rows); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, r.Severity+":"+r.Code+"@"+itoa(r.Line))
	}
	want := "warning:blank-line-1994@1 warning:misspelled-key@4 warning:several-paths@4 notice:non-standard-key@5 error:path-start@6 warning:unknown-key@7"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
	b.Reset()
	if err := WriteLint(&b, "json", "x", nil); err != nil || strings.TrimSpace(b.String()) != "[]" {
		t.Errorf("empty lint JSON = %q", b.String())
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
