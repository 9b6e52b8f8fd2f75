package robots

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// ruleList renders a group's rules compactly: "A /x@3 D /y@4".
func ruleList(g *Group) string {
	var b strings.Builder
	for i, r := range g.Rules {
		if i > 0 {
			b.WriteByte(' ')
		}
		if r.Allow {
			b.WriteString("A ")
		} else {
			b.WriteString("D ")
		}
		b.WriteString(r.Pattern)
		b.WriteByte('@')
		b.WriteString(itoa(r.Line))
	}
	return b.String()
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// groupList renders all groups: "agents: rules | agents: rules".
func groupList(r *Robots) string {
	var parts []string
	for _, g := range r.Groups {
		parts = append(parts, strings.Join(g.Agents, ",")+"@"+itoa(g.Line)+": "+ruleList(g))
	}
	return strings.Join(parts, " | ")
}

func TestParseStructure(t *testing.T) {
	cases := []struct {
		name, file, want string
	}{
		{"LF", "User-agent: a\nDisallow: /x\n", "a@1: D /x@2"},
		{"CRLF", "User-agent: a\r\nDisallow: /x\r\n", "a@1: D /x@2"},
		{"CR only", "User-agent: a\rDisallow: /x\rAllow: /y\r", "a@1: D /x@2 A /y@3"},
		{"mixed", "User-agent: a\nDisallow: /x\r\n\r\rAllow: /y", "a@1: D /x@2 A /y@5"},
		{"no final newline", "User-agent: a\nDisallow: /x", "a@1: D /x@2"},
		{"BOM", "\xEF\xBB\xBFUser-agent: a\nDisallow: /x\n", "a@1: D /x@2"},
		{"partial BOM", "\xEF\xBBUser-agent: a\nDisallow: /x\n", "a@1: D /x@2"},
		{"BOM mid-file is garbage", "User-agent: a\n\xEF\xBB\xBFDisallow: /x\nAllow: /y\n", "a@1: A /y@3"},
		{"no space after colon", "User-agent:a\nDisallow:/x\n", "a@1: D /x@2"},
		{"spaces around", "  User-agent  :  a  \n\tDisallow\t:\t/x\t\n", "a@1: D /x@2"},
		{"comments", "# c\nUser-agent: a # who\nDisallow: /x#y\n#Disallow: /z\n", "a@2: D /x@3"},
		{"misspellings", "useragent: a\nDissallow: /1\nDissalow: /2\nDisalow: /3\nDiasllow: /4\nDisallaw: /5\nuser agent: b\nDISALLOW: /6\n", "a@1: D /1@2 D /2@3 D /3@4 D /4@5 D /5@6 | b@7: D /6@8"},
		{"missing colon", "User-agent a\nDisallow /x\n", "a@1: D /x@2"},
		{"missing colon three words skipped", "User-agent a\nDisallow /x /y\nDisallow /z\n", "a@1: D /z@3"},
		{"unknown and garbage lines skipped", "User-agent: a\nFoo: bar\njust words here\n<html>\nDisallow: /x\n", "a@1: D /x@5"},
		{"rules before user-agent ignored", "Disallow: /x\nAllow: /y\n\nUser-agent: a\nDisallow: /z\n", "a@4: D /z@5"},
		{"consecutive agents share", "User-agent: a\nUser-agent: b\nDisallow: /x\n", "a,b@1: D /x@3"},
		{"agent after rule starts group", "User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n", "a@1: D /x@2 | b@3: D /y@4"},
		{"blank lines do not end a group", "User-agent: a\n\nDisallow: /x\n\nAllow: /y\n", "a@1: D /x@3 A /y@5"},
		{"sitemap, crawl-delay, unknown do not end a group", "User-agent: a\nSitemap: https://e.x/s.xml\nCrawl-delay: 1\nFoo: 1\nUser-agent: b\nDisallow: /x\n", "a,b@1: D /x@6"},
		{"multi names", "User-Agent: Copernicus Fred\nUser-agent: Googlebot, Bingbot\nDisallow: /x\n", "Copernicus,Googlebot@1: D /x@3"},
		{"multi paths", "User-agent: *\nDisallow: /cgi-bin/ /tmp/\n", "*@1: D /cgi-bin/@2 D /tmp/@2"},
		{"empty disallow kept", "User-agent: *\nDisallow:\n", "*@1: D @2"},
		{"group at EOF without rules", "User-agent: a\nDisallow: /x\nUser-agent: b\n", "a@1: D /x@2 | b@3: "},
		{"colon in value", "User-agent: a\nDisallow: /wiki/Special:Search\n", "a@1: D /wiki/Special:Search@2"},
		{"empty", "", ""},
		{"only blank", "\n\n\r\n", ""},
		{"NUL bytes", "User-agent: a\x00b\nDisallow: /x\x00y\n", "a\x00b@1: D /x\x00y@2"},
	}
	for _, c := range cases {
		r := ParseBytes([]byte(c.file))
		if got := groupList(r); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

func TestParseRuleText(t *testing.T) {
	r := ParseBytes([]byte("User-agent: *\r\n  Disallow: /cgi-bin/   # scripts\r\nAllow: /cgi-bin/ok\r\n"))
	rules := r.Groups[0].Rules
	if len(rules) != 2 || rules[0].Text != "Disallow: /cgi-bin/" || rules[0].Line != 2 || rules[1].Text != "Allow: /cgi-bin/ok" || !rules[1].Allow {
		t.Errorf("rules = %+v %+v", rules[0], rules[1])
	}
}

func TestParseValues(t *testing.T) {
	r := ParseBytes([]byte(`Sitemap: https://a.example/1.xml
User-agent: a
Crawl-delay: 10
Crawl-delay: 20
Disallow: /
User-agent: b
Crawl-delay: 0.5
User-agent: c
Crawl-delay: soon
User-agent: d
Crawl-delay: -1
Site-map: https://a.example/2.xml
sitemap:https://a.example/3.xml
`))
	want := []string{"https://a.example/1.xml", "https://a.example/2.xml", "https://a.example/3.xml"}
	if strings.Join(r.Sitemaps, " ") != strings.Join(want, " ") {
		t.Errorf("Sitemaps = %q, want %q", r.Sitemaps, want)
	}
	// b, c and d share a group (no rule between them): its first valid
	// Crawl-delay counts; "soon" and "-1" are skipped.
	if len(r.Groups) != 2 {
		t.Fatalf("groups = %s", groupList(r))
	}
	delays := []time.Duration{10 * time.Second, 500 * time.Millisecond}
	for i, w := range delays {
		if g := r.Groups[i]; g.CrawlDelay != w || !g.HasCrawlDelay {
			t.Errorf("group %d Crawl-delay = %v %v, want %v", i, g.CrawlDelay, g.HasCrawlDelay, w)
		}
	}
}

func TestParseSize(t *testing.T) {
	// A file over 500 KiB: the rules past the limit are not read, the line
	// cut by the limit is dropped whole, and Truncated says so.
	var b bytes.Buffer
	b.WriteString("User-agent: *\nDisallow: /first\n")
	for b.Len() < MaxSize-20 {
		b.WriteString("# padding padding padding padding\n")
	}
	for b.Len() < MaxSize-8 {
		b.WriteByte('#')
	}
	b.WriteString("\nDisallow: /cut-in-the-middle\nDisallow: /after\n")
	r, err := Parse(&b)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Truncated {
		t.Errorf("Truncated = false for a %d-byte file", MaxSize+40)
	}
	if ok, _ := r.Allowed("bot", "/first"); ok {
		t.Errorf("rule before the limit lost")
	}
	if ok, _ := r.Allowed("bot", "/after"); !ok {
		t.Errorf("rule after the limit read")
	}
	if ok, _ := r.Allowed("bot", "/cut"); !ok {
		t.Errorf("the line cut by the limit was read as a shorter rule")
	}

	// A last line that ends exactly at the limit, its newline the first
	// byte past it, is whole and read.
	edge := []byte("User-agent: *\n")
	edge = append(edge, bytes.Repeat([]byte("#"), MaxSize-len(edge)-len("\nDisallow: /last-rule"))...)
	edge = append(edge, "\nDisallow: /last-rule\n"...)
	if r := ParseBytes(edge); !r.Truncated {
		t.Errorf("a file of MaxSize+1 bytes is not marked truncated")
	} else if ok, _ := r.Allowed("bot", "/last-rule"); ok {
		t.Errorf("the last line, ended by the byte after the limit, was dropped")
	}

	// Exactly MaxSize bytes is not truncated.
	exact := bytes.Repeat([]byte("#"), MaxSize)
	if r := ParseBytes(exact); r.Truncated {
		t.Errorf("a file of exactly MaxSize bytes is marked truncated")
	}

	// One line of 10 MiB: read, cut, no panic.
	huge := append([]byte("User-agent: *\nDisallow: /"), bytes.Repeat([]byte("a"), 10<<20)...)
	r, err = Parse(bytes.NewReader(huge))
	if err != nil || !r.Truncated || len(r.Groups) != 1 || len(r.Groups[0].Rules) != 0 {
		t.Errorf("10 MiB line: err %v, truncated %v, groups %s", err, r.Truncated, groupList(r))
	}
	// A long line inside the limit is read whole.
	long := "User-agent: *\nDisallow: /" + strings.Repeat("b", 300<<10) + "\n"
	r = ParseBytes([]byte(long))
	if ok, _ := r.Allowed("bot", "/"+strings.Repeat("b", 300<<10)+"/x"); ok {
		t.Errorf("300 KiB rule not matched")
	}
}

func TestParseReadError(t *testing.T) {
	boom := errors.New("boom")
	_, err := Parse(io.MultiReader(strings.NewReader("User-agent: *\n"), iotest.ErrReader(boom)))
	if !errors.Is(err, boom) {
		t.Errorf("Parse error = %v, want it to wrap %v", err, boom)
	}
}

func TestParseHTML(t *testing.T) {
	cases := []struct {
		body string
		html bool
	}{
		{"<html><head><title>Request Rejected</title></head><body>x</body></html>", true},
		{"\xEF\xBB\xBF\n  <!DOCTYPE html>\n<html lang=en>", true},
		{"<!doctype HTML><p>Not found", true},
		{"User-agent: *\nDisallow: /<html>\n", false},
		{"# <html>\nUser-agent: *\n", false},
		{"<not really html", false},
	}
	for _, c := range cases {
		if got := ParseBytes([]byte(c.body)).HTML; got != c.html {
			t.Errorf("HTML(%q) = %v, want %v", c.body, got, c.html)
		}
	}
}

func TestProductToken(t *testing.T) {
	cases := map[string]string{
		"Googlebot":                  "googlebot",
		"  Googlebot  ":              "googlebot",
		"*":                          "*",
		"Mediapartners-Google*":      "mediapartners-google",
		"Googlebot/2.1":              "googlebot",
		"MJ12bot":                    "mj12bot",
		"360Spider":                  "360spider",
		"sitecheck.internetseer.com": "sitecheck",
		"Foo_Bar":                    "foo_bar",
		"ツ":                          "",
		"*bot":                       "",
		"":                           "",
	}
	for in, want := range cases {
		if got := productToken(in); got != want {
			t.Errorf("productToken(%q) = %q, want %q", in, got, want)
		}
	}
}
