package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/robowatch/robowatch/cli"
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

// docExample is a fenced block of a page that begins "$ robowatch ...":
// the command, then what it writes on standard output. A block whose last
// line is "..." shows only the output's first lines.
type docExample struct {
	page    string
	line    int
	command string
	output  string
	prefix  bool
}

func docExamples(t *testing.T) []docExample {
	t.Helper()
	var examples []docExample
	for _, page := range docPages(t) {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		for i := 0; i < len(lines); i++ {
			if !strings.HasPrefix(lines[i], "```") || i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "$ robowatch ") {
				continue
			}
			ex := docExample{page: page, line: i + 2, command: strings.TrimPrefix(lines[i+1], "$ ")}
			var out []string
			for i += 2; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
				out = append(out, lines[i])
			}
			if len(out) > 0 && out[len(out)-1] == "..." {
				ex.prefix = true
				out = out[:len(out)-1]
			}
			ex.output = strings.Join(out, "\n")
			examples = append(examples, ex)
		}
	}
	return examples
}

// shellWords splits a command line as a POSIX shell would for the plain
// words and quotes the examples use; it refuses what would need a shell
// (pipes, redirections, variables), so that every example can be run.
func shellWords(line string) ([]string, bool) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, false
			}
			w.WriteString(line[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			j := strings.IndexByte(line[i+1:], '"')
			if j < 0 || strings.ContainsAny(line[i+1:i+1+j], "$`\\") {
				return nil, false
			}
			w.WriteString(line[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case strings.IndexByte("|&;<>()$`\\*?[#~", c) >= 0:
			return nil, false
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, true
}

// TestDocExamples runs every example of README.md and docs/*.md written as
// "$ robowatch ..." with its output, and compares what the command prints
// today with what the page shows, so that no example goes stale when a
// report changes: -update rewrites the pages' outputs (read the diff).
func TestDocExamples(t *testing.T) {
	// Without a terminal the width is $COLUMNS, else 100; the pages show 100.
	t.Setenv("COLUMNS", "")
	os.Unsetenv("COLUMNS")
	t.Setenv("NO_COLOR", "")
	examples := docExamples(t)
	if len(examples) == 0 {
		t.Fatal("no example found in README.md or docs/*.md")
	}
	updated := map[string]string{} // page -> its text, rewritten under -update
	for _, ex := range examples {
		words, ok := shellWords(ex.command)
		if !ok || len(words) < 2 {
			t.Errorf("%s:%d: %q needs a shell; write the example as one robowatch command", ex.page, ex.line, ex.command)
			continue
		}
		_, out, _ := runCLI(t, nil, words[1:]...)
		out = strings.TrimRight(out, "\n")
		shown := out
		if ex.prefix {
			// As many lines as the page shows, then "...".
			n := strings.Count(ex.output, "\n") + 1
			if lines := strings.SplitAfterN(out, "\n", n+1); len(lines) > n {
				shown = strings.TrimSuffix(strings.Join(lines[:n], ""), "\n")
			}
		}
		if shown == ex.output && (!ex.prefix || strings.HasPrefix(out, ex.output+"\n")) {
			continue
		}
		if *update {
			text, ok := updated[ex.page]
			if !ok {
				b, err := os.ReadFile(ex.page)
				if err != nil {
					t.Fatal(err)
				}
				text = string(b)
			}
			updated[ex.page] = strings.Replace(text, "$ "+ex.command+"\n"+ex.output+"\n", "$ "+ex.command+"\n"+shown+"\n", 1)
			continue
		}
		t.Errorf("%s:%d: %s: the output differs from the page's at %s (go test -run TestDocExamples -update . rewrites it)", ex.page, ex.line, ex.command, firstDiff(shown, ex.output))
	}
	for page, text := range updated {
		if err := os.WriteFile(page, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestShellWords pins the splitting of example commands.
func TestShellWords(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
		ok   bool
	}{
		{"robowatch --top 3 a.log", []string{"robowatch", "--top", "3", "a.log"}, true},
		{"robowatch check --agent 'Mozilla/5.0 (compatible; X)' '/search?q=x' /cart", []string{"robowatch", "check", "--agent", "Mozilla/5.0 (compatible; X)", "/search?q=x", "/cart"}, true},
		{`robowatch -f "%h %l" x`, []string{"robowatch", "-f", "%h %l", "x"}, true},
		{"robowatch a.log | jq .", nil, false},
		{"robowatch a.log > out", nil, false},
		{"robowatch 'unclosed", nil, false},
		{"robowatch /var/log/*.log", nil, false},
	} {
		got, ok := shellWords(tc.line)
		if ok != tc.ok || strings.Join(got, "\x00") != strings.Join(tc.want, "\x00") {
			t.Errorf("shellWords(%q) = %q, %v; want %q, %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
}

// TestReadmeFrontPage: README.md is a front page a newcomer finishes (issue
// 36): at most 400 lines, saying how to get the binary with the module path
// and the Go version go.mod gives, with the two commands of a fresh machine,
// and a link to every page under docs/, each of which links back.
func TestReadmeFrontPage(t *testing.T) {
	const maxLines = 400
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	var module, goVersion string
	for _, l := range strings.Split(string(gomod), "\n") {
		if m, ok := strings.CutPrefix(l, "module "); ok {
			module = strings.TrimSpace(m)
		}
		if v, ok := strings.CutPrefix(l, "go "); ok {
			goVersion = strings.TrimSpace(v)
		}
	}
	text := string(readme)
	if n := strings.Count(text, "\n"); n > maxLines {
		t.Errorf("README.md has %d lines, more than %d: move the detail to a page under docs/", n, maxLines)
	}
	for _, want := range []string{
		"go install " + module + "@latest",
		"Go " + goVersion,
		"go build -o robowatch .",
		"go run . --robots testdata/sample.robots.txt testdata/sample.log.gz\n",
		"\ngo test ./...\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("README.md does not say %q", want)
		}
	}
	pages, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) == 0 {
		t.Fatal("no page under docs/")
	}
	for _, page := range pages {
		if !strings.Contains(text, "]("+filepath.ToSlash(page)+")") && !strings.Contains(text, "]("+filepath.ToSlash(page)+"#") {
			t.Errorf("README.md has no link to %s", page)
		}
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "](../README.md)") {
			t.Errorf("%s has no link back to ../README.md", page)
		}
	}
}

// TestDocsCrawlToRefer: docs/robots-txt.md's example of the section is what the
// command it shows prints, on the real log it names.
func TestDocsCrawlToRefer(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("docs", "robots-txt.md"))
	if err != nil {
		t.Fatal(err)
	}
	const cmd = "$ robowatch --width 100 --section refer testdata/corpus/elastic-semicomplete-2015/access.log.gz\n"
	_, block, ok := strings.Cut(string(page), cmd)
	if !ok {
		t.Fatalf("docs/robots-txt.md shows no %q", cmd)
	}
	block, _, _ = strings.Cut(block, "```")
	code, out, errOut := runCLI(t, nil, strings.Fields(cmd)[2:]...)
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// The section ends with a blank line, the page's block with the fence.
	if out = strings.TrimSuffix(out, "\n"); out != block {
		t.Errorf("docs/robots-txt.md's example differs from the output at %s", firstDiff(block, out))
	}
}
