package report

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/robowatch/robowatch/detect"
)

// writeRobotsTxt writes the site's robots.txt (Report.SiteRobots) as it is,
// then what the log suggests adding: a group that disallows everything to
// the AI-training crawlers seen in it, and a comment naming each robot that
// fetched what robots.txt forbids, which robots.txt cannot stop (block
// lists can). What it adds is written so that check --lint finds nothing
// new in it: one product token per User-agent line, tokens the site's
// file does not have a group for, nothing from the log but names made of
// token characters.
func writeRobotsTxt(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	res := r.Result
	site := r.SiteRobots
	if site != nil && site.Text != "" {
		bw.WriteString(site.Text)
		if !strings.HasSuffix(site.Text, "\n") {
			bw.WriteString("\n")
		}
		if n := len(site.Groups); n > 0 && len(site.Groups[n-1].Rules) == 0 && !site.Groups[n-1].HasCrawlDelay {
			// The file ends in User-agent lines with no rule after them:
			// readers would take the next User-agent lines, ours, as more
			// names of that group and give it our Disallow: /. An empty
			// Disallow ends it and disallows nothing, as before.
			bw.WriteString("# Added by robowatch: ends the group above, which had no rules (nothing disallowed, as before).\nDisallow:\n")
		}
		bw.WriteString("\n")
	}
	first, last := r.span()
	fmt.Fprintf(bw, "# Suggested by robowatch from %s", commentText(inputNames(r.Files), 200))
	if !first.IsZero() {
		fmt.Fprintf(bw, " (log time %s to %s)", first.UTC().Format(time.RFC3339), last.UTC().Format(time.RFC3339))
	}
	bw.WriteString(".\n")
	if site == nil {
		bw.WriteString("# No robots.txt was given (--robots): these lines are a start, not a whole file.\n")
	}

	// A robot the file has a group for, however it names it ("GPTBot/1.2"
	// is GPTBot's, as robots.txt readers take the product token), keeps it.
	has := func(tok string) bool {
		if site == nil {
			return false
		}
		g := site.Agent(tok).Group()
		return g != "" && g != "*"
	}
	var tokens []string
	for _, b := range res.Robots {
		tok := b.Name
		if b.Purpose != "ai-training" || b.Identity == detect.IdentityImpostor || !productToken(tok) || has(tok) {
			continue
		}
		if !slices.Contains(tokens, tok) {
			tokens = append(tokens, tok)
		}
	}
	slices.Sort(tokens)
	if len(tokens) > 0 {
		bw.WriteString("\n# AI-training crawlers seen in the log: they collect pages to train models.\n")
		bw.WriteString("# Delete this group to let them in.\n")
		for _, t := range tokens {
			fmt.Fprintf(bw, "User-agent: %s\n", t)
		}
		bw.WriteString("Disallow: /\n")
	}

	var ignored []string
	for _, b := range res.Robots {
		if b.Violations == 0 {
			continue
		}
		ignored = append(ignored, fmt.Sprintf("#   %s: %s (%s)", commentText(b.Name, 80),
			Count(b.Violations)+noun(b.Violations, " disallowed request", " disallowed requests"), commentText(b.Finding, 80)))
	}
	if len(ignored) > 0 {
		bw.WriteString("\n# These robots fetched what robots.txt forbids. robots.txt cannot stop a robot\n")
		bw.WriteString("# that does not read it or ignores it: block them (robowatch -o nginx, -o nftables).\n")
		for _, l := range ignored {
			bw.WriteString(l + "\n")
		}
	}
	switch {
	case len(tokens) > 0 || len(ignored) > 0:
	case res.ViolationsChecked:
		bw.WriteString("# Nothing to add: no AI-training crawler, and no robot broke robots.txt.\n")
	default: // no robots.txt to check the log against: no violation is no answer
		bw.WriteString("# Nothing to add: no AI-training crawler; robots.txt violations were not checked.\n")
	}
	return bw.Flush()
}

// productToken reports whether name is an RFC 9309 product token (letters,
// '-' and '_'), so that a User-agent line with it means exactly it.
func productToken(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
