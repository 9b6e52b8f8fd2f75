package robots

import (
	"strings"
	"testing"
)

// TestEndsInOpenGroup: User-agent lines appended to these files would join
// their last group, as robowatch or Google reads them, or would not.
func TestEndsInOpenGroup(t *testing.T) {
	for _, c := range []struct {
		name, file string
		open       bool
	}{
		{"empty", "", false},
		{"comments only", "# nothing\n", false},
		{"rules outside any group", "Disallow: /x\n", false},
		{"closed by a rule", "User-agent: *\nDisallow: /x\n", false},
		{"closed by an empty rule", "User-agent: *\nDisallow:\n", false},
		{"closed by an Allow", "User-agent: *\nAllow: /\n", false},
		{"closed, then a Sitemap", "User-agent: *\nDisallow: /x\n\nSitemap: https://e.example/s.xml\n", false},
		{"crawl-delay star", "User-agent: *\nCrawl-delay: 10\n", true},
		{"crawl-delay star, CRLF, no final line end", "User-agent: *\r\nCrawl-delay: 10", true},
		{"crawl-delay star, CR only", "User-agent: *\rCrawl-delay: 10\r", true},
		{"crawl-delay star, BOM", "\xEF\xBB\xBFUser-agent: *\nCrawl-delay: 10\n", true},
		{"open after rules", "User-agent: a\nDisallow: /x\nUser-agent: b\n", true},
		{"blank line and comment end nothing", "User-agent: a\n\n# bye\n", true},
		{"sitemap ends nothing", "User-agent: a\nSitemap: https://e.example/s.xml\n", true},
		{"agent in a comment", "User-agent: a\nDisallow: /x\n# User-agent: b\n", false},
		{"empty agent after rules", "User-agent: a\nDisallow: /x\nUser-agent:\n", true},
		{"no colon", "User-agent a\nDisallow /x\n", false},
		{"no colon, three words", "User-agent: a\nDisallow /x y\n", true},
		{"misspelled rule", "User-agent: a\nDissallow: /x\n", false},
		// Keys Google reads by their start: open for Google.
		{"Google's agent key", "User-agent: a\nDisallow: /x\nUser-agents: b\n", true},
		// A line past Google's 16663 bytes is cut: its rule is not read.
		{"rule past Google's line length", "User-agent: a\n" + strings.Repeat(" ", 17000) + "Disallow: /x\n", true},
		{"rule within Google's line length", "User-agent: a\n" + strings.Repeat(" ", 16000) + "Disallow: /x\n", false},
		{"rule after a vertical tab, no colon", "User-agent: a\nDisallow\v/x\n", true},
	} {
		if got := EndsInOpenGroup(c.file); got != c.open {
			t.Errorf("%s: EndsInOpenGroup(%q) = %v, want %v", c.name, cut(c.file, 80), got, c.open)
		}
	}
}

// TestParseKeepsWholeFile: a file over MaxSize is read as rules to
// MaxSize, and kept whole (Text+Beyond) up to MaxKept, to whole lines.
func TestParseKeepsWholeFile(t *testing.T) {
	big := "User-agent: *\nDisallow: /private/\n" + strings.Repeat("# padding\n", MaxSize/10) + "Disallow: /late/\nSitemap: https://e.example/s.xml\n"
	r := ParseBytes([]byte(big))
	if !r.Truncated || r.Cut || r.Text+r.Beyond != big || len(r.Text) > MaxSize {
		t.Errorf("Truncated %v, Cut %v, %d+%d bytes kept of %d", r.Truncated, r.Cut, len(r.Text), len(r.Beyond), len(big))
	}
	if ok, _ := r.Allowed("bot", "/late/x"); !ok || len(r.Sitemaps) != 0 {
		t.Errorf("what lies past MaxSize was read as rules")
	}
	small := "User-agent: *\nDisallow: /x"
	if r := ParseBytes([]byte(small)); r.Text != small || r.Beyond != "" || r.Truncated || r.Cut {
		t.Errorf("small file: %q + %q", r.Text, r.Beyond)
	}
	huge := strings.Repeat("# a comment line of forty bytes........\n", MaxKept/40+10)
	r, err := Parse(strings.NewReader(huge + "tail without end"))
	if err != nil {
		t.Fatal(err)
	}
	if kept := r.Text + r.Beyond; !r.Cut || len(kept) > MaxKept || !strings.HasPrefix(huge, kept) || !strings.HasSuffix(kept, "\n") {
		t.Errorf("over MaxKept: Cut %v, %d bytes kept, ends %q", r.Cut, len(kept), kept[max(0, len(kept)-10):])
	}
}
