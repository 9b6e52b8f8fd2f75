package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robowatch/robowatch/cli"
)

// referLog is a site's day: verified Googlebot, GPTBot, ChatGPT-User and
// ClaudeBot take pages (an impostor Googlebot too); people arrive from
// google.de, from google.com through a redirect, from chatgpt.com, with
// utm_source=chatgpt.com, with both, and from DuckDuckGo; a look-alike
// google.evil.com and a scraper forging Google's Referer send no one.
const referLog = "testdata/refer/refer.log"

type referRow struct {
	Operator      string   `json:"operator"`
	Pages         int64    `json:"pages"`
	ReferredViews int64    `json:"referred_views"`
	CrawlToRefer  *float64 `json:"crawl_to_refer"`
}

func referRows(t *testing.T, out string) map[string]string {
	t.Helper()
	var rep struct {
		Operators []referRow `json:"operators"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, o := range rep.Operators {
		ratio := "null"
		if o.CrawlToRefer != nil {
			ratio = fmt.Sprint(*o.CrawlToRefer)
		}
		got[o.Operator] = fmt.Sprintf("pages %d, referred %d, ratio %s", o.Pages, o.ReferredViews, ratio)
	}
	return got
}

// TestCrawlToReferOfASite: what each operator's verified robots took and
// what its products sent back. Google: 10 pages for 2 people (google.de,
// and google.com counted once though the redirect repeats its Referer),
// 5 to 1; OpenAI: GPTBot's 12 and ChatGPT-User's 3 pages for 3 people
// (chatgpt.com, utm_source=chatgpt.com, both at once), 5 to 1; Anthropic
// took 4 and sent no one: null, not infinity; DuckDuckGo sent one person
// and took nothing. The impostor's pages, the scraper's forged Referers
// and google.evil.com count for no one.
func TestCrawlToReferOfASite(t *testing.T) {
	code, out, errOut := runCLI(t, nil, "-o", "json", referLog)
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := map[string]string{
		"Google":     "pages 10, referred 2, ratio 5",
		"OpenAI":     "pages 15, referred 3, ratio 5",
		"Anthropic":  "pages 4, referred 0, ratio null",
		"DuckDuckGo": "pages 0, referred 1, ratio 0",
	}
	got := referRows(t, out)
	for op, w := range want {
		if got[op] != w {
			t.Errorf("%s: %s, want %s", op, got[op], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("operators %v, want only %v", got, want)
	}
	// The ratio is null in the JSON, never left out: a script tells "sent
	// no one" from a report written before the field.
	if !strings.Contains(out, `"crawl_to_refer": null`) {
		t.Errorf("no \"crawl_to_refer\": null in the report")
	}

	for _, tc := range []struct {
		format string
		want   []string
	}{
		{"table", []string{"What robots take and send back", "Google", "5 : 1", "Anthropic", "none sent back"}},
		{"markdown", []string{"## What robots take and send back", "| Google |", "| 5 : 1 |", "| none sent back |"}},
		{"html", []string{"What robots take and send back", "<td>Google</td>", "5 : 1", "none sent back"}},
	} {
		code, out, errOut := runCLI(t, nil, "-o", tc.format, "--width", "160", referLog)
		if code != cli.ExitOK {
			t.Fatalf("-o %s: exit %d: %s", tc.format, code, errOut)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("-o %s: no %q in:\n%s", tc.format, w, out)
			}
		}
	}
}

// TestCrawlToReferMergesExactly: the counts behind the ratio add up over
// --shard parts merged and over --workers, and the ratio is worked out
// again from the sums, never averaged: each part alone has other ratios
// (or none) than the whole.
func TestCrawlToReferMergesExactly(t *testing.T) {
	_, whole, _ := runCLI(t, nil, "-o", "json", referLog)
	want := referRows(t, whole)
	dir := t.TempDir()
	parts := []string{"merge", "-o", "json"}
	for i := 1; i <= 3; i++ {
		code, out, errOut := runCLI(t, nil, "-o", "json", "--top", "0", "--shard", fmt.Sprintf("%d/3", i), referLog)
		if code != cli.ExitOK {
			t.Fatalf("shard %d/3: exit %d: %s", i, code, errOut)
		}
		parts = append(parts, writeLog(t, dir, fmt.Sprintf("part%d.json", i), out))
	}
	code, merged, errOut := runCLI(t, nil, parts...)
	if code != cli.ExitOK {
		t.Fatalf("merge: exit %d: %s", code, errOut)
	}
	if got := referRows(t, merged); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("merged %v, want %v", got, want)
	}
	_, many, _ := runCLI(t, nil, "-o", "json", "--workers", "3", referLog)
	if got := referRows(t, many); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("--workers 3: %v, want %v", got, want)
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
