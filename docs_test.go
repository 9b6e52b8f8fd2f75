package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// docPages are README.md and the topic pages under docs/ it links to.
func docPages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"README.md"}, pages...)
}

// mdLink is a Markdown inline link or image: [text](target) or
// [text](target "title"). Good enough for pages written by hand.
var mdLink = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// proseLines returns a Markdown file's lines with fenced code blocks
// blanked and inline code spans removed, so that a link shown as an example
// is not taken for one; line numbers stay those of the file.
func proseLines(text string) []string {
	lines := strings.Split(text, "\n")
	fence := false
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fence = !fence
			lines[i] = ""
			continue
		}
		if fence {
			lines[i] = ""
			continue
		}
		lines[i] = stripCodeSpans(l)
	}
	return lines
}

func stripCodeSpans(l string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(l, '`')
		if i < 0 {
			b.WriteString(l)
			return b.String()
		}
		j := strings.IndexByte(l[i+1:], '`')
		if j < 0 {
			b.WriteString(l)
			return b.String()
		}
		b.WriteString(l[:i])
		l = l[i+1+j+1:]
	}
}

// headingAnchors are the fragments GitHub gives a Markdown file's headings:
// lower case, punctuation dropped, spaces as hyphens, a repeated one
// numbered.
func headingAnchors(text string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	fence := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fence = !fence
		}
		if fence || !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.TrimLeft(l, "#")
		if !strings.HasPrefix(h, " ") {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(h)) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteByte('-')
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			seen[a]++
			a = a + "-" + string(rune('0'+n))
		} else {
			seen[a] = 1
		}
		anchors[a] = true
	}
	return anchors
}

// TestDocsLinks: every relative link in README.md and docs/*.md names a file
// or directory of the repository, and a #fragment of a Markdown page names
// one of its headings, so that a page moved or a heading renamed leaves no
// dead link behind.
func TestDocsLinks(t *testing.T) {
	for _, page := range docPages(t) {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for n, l := range proseLines(string(b)) {
			for _, m := range mdLink.FindAllStringSubmatch(l, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				file, frag, _ := strings.Cut(target, "#")
				path := page
				if file != "" {
					path = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
					if _, err := os.Stat(path); err != nil {
						t.Errorf("%s:%d: link %q: no file %s", page, n+1, target, path)
						continue
					}
				}
				if frag == "" || !strings.HasSuffix(path, ".md") {
					continue
				}
				text, err := os.ReadFile(path)
				if err != nil {
					t.Errorf("%s:%d: link %q: %v", page, n+1, target, err)
					continue
				}
				if !headingAnchors(string(text))[frag] {
					t.Errorf("%s:%d: link %q: %s has no heading #%s", page, n+1, target, path, frag)
				}
			}
		}
	}
}

// TestHeadingAnchors pins the slug rule TestDocsLinks checks fragments by.
func TestHeadingAnchors(t *testing.T) {
	text := "# robowatch\n## Who a robot is: operators, purposes, impostors\n" +
		"### Scale out: `--shard I/N` and `robowatch merge`\n## Conduct\n## Conduct\n" +
		"```\n# not a heading\n```\n"
	got := headingAnchors(text)
	for _, a := range []string{"robowatch", "who-a-robot-is-operators-purposes-impostors",
		"scale-out---shard-in-and-robowatch-merge", "conduct", "conduct-1"} {
		if !got[a] {
			t.Errorf("no anchor %q in %v", a, got)
		}
	}
	if got["not-a-heading"] {
		t.Error("a line in a code block was read as a heading")
	}
}
