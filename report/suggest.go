package report

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/robots"
)

// WriteRobotsTxt writes the site's robots.txt (Report.SiteRobots) whole and
// as it is, then what the log suggests adding: a group that disallows
// everything to the AI-training crawlers seen in it, and a comment naming
// each robot that fetched what robots.txt forbids, which robots.txt cannot
// stop (block lists can). What it adds is written so that check --lint
// finds nothing new in it: one product token per User-agent line, tokens
// the site's file does not have a group for, nothing from the log but
// names made of token characters. The added group is kept apart from the
// site's groups (see robots.EndsInOpenGroup), so that the file means, to
// robowatch and to Google, the site's groups and the added one; the empty
// Disallow that does it, when the site's last group has no rule, is all
// that lint may say more of (that group changes nothing, or runs on past
// a Crawl-delay, as it did).
//
// The warnings, one line each, are for the caller to show: the result is
// over robots.MaxSize, which RFC 9309 readers need not read past, or the
// site's file was too large to keep whole (robots.MaxKept).
func WriteRobotsTxt(w io.Writer, r *Report) ([]string, error) {
	if r.Result == nil {
		r.Result = &findings.Result{}
	}
	res := r.Result
	site := r.SiteRobots
	var text string
	if site != nil {
		text = site.Text + site.Beyond
	}
	sw := &suggestionWriter{bw: bufio.NewWriter(w), eol: lineEnd(text)}
	tokens := trainingTokens(r)
	sw.siteFile(text, len(tokens) > 0)
	sw.heading(r)
	groupEnd := sw.trainingGroup(tokens)
	ignored := sw.ignoredRobots(r)
	switch {
	case len(tokens) > 0 || ignored:
	case res.ViolationsChecked:
		sw.add("# Nothing to add: no AI-training crawler, and no robot broke robots.txt.\n")
	default: // no robots.txt to check the log against: no violation is no answer
		sw.add("# Nothing to add: no AI-training crawler; robots.txt violations were not checked.\n")
	}
	return robotsTxtWarnings(site, sw.out, groupEnd, tokens), sw.bw.Flush()
}

// suggestionWriter writes a suggested robots.txt, counting what it writes,
// for the size warning.
type suggestionWriter struct {
	bw  *bufio.Writer
	eol string // how the site's file ends its lines
	out int    // bytes written so far
}

func (sw *suggestionWriter) write(s string) {
	sw.out += len(s)
	sw.bw.WriteString(s)
}

// add writes a suggestion's line(s), "\n" written as the site's file ends
// its lines.
func (sw *suggestionWriter) add(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	if sw.eol != "\n" {
		s = strings.ReplaceAll(s, "\n", sw.eol)
	}
	sw.write(s)
}

// trainingTokens are the product tokens of the AI-training crawlers of the
// log that the site's robots.txt has no group for, sorted.
func trainingTokens(r *Report) []string {
	var tokens []string
	for _, b := range r.Result.Robots {
		tok := b.Name
		if b.Purpose != "ai-training" || b.Identity == findings.IdentityImpostor || !productToken(tok) || hasGroup(r.SiteRobots, tok) {
			continue
		}
		if !slices.Contains(tokens, tok) {
			tokens = append(tokens, tok)
		}
	}
	slices.Sort(tokens)
	return tokens
}

// hasGroup reports whether site has a group for the robot tok names.
//
// A robot the file has a group for, however it names it, keeps it:
// the site's author has said what it may fetch, and a group added
// for it would merge with theirs, their Allow lines winning over the
// added Disallow: / where they are longer. As robowatch reads it,
// "GPTBot/1.2" is GPTBot's (robots.txt readers take the product
// token) and "Meta" is Meta-ExternalAgent's when no group names it;
// as Google reads it, a name is its leading letters, '-' and '_', so
// "CCBot2" is CCBot's too.
func hasGroup(site *robots.Robots, tok string) bool {
	if site == nil {
		return false
	}
	if g := site.Agent(tok).Group(); g != "" && g != "*" {
		return true
	}
	for _, g := range site.Groups {
		for _, a := range g.Agents {
			if strings.EqualFold(googleToken(a), tok) {
				return true
			}
		}
	}
	return false
}

// siteFile writes the site's robots.txt, text, as it is, and ends it so
// that what is added after it (a group, when addingGroup) stays apart.
func (sw *suggestionWriter) siteFile(text string, addingGroup bool) {
	if text == "" {
		return
	}
	sw.write(text)
	if c := text[len(text)-1]; c != '\n' && c != '\r' {
		// A last line without its end, a comment above all, would
		// run on into the first line added.
		sw.add("\n")
	}
	if addingGroup && robots.EndsInOpenGroup(text) {
		// The file ends in User-agent lines with no rule after them
		// (often "User-agent: *" and a Crawl-delay). RFC 9309 readers,
		// Google's first, end a group only at an Allow or Disallow
		// line (not at a blank line, a comment or a Crawl-delay), so
		// the User-agent lines added below would join that group and
		// lend it their Disallow: /: Googlebot barred from the whole
		// site. An empty Disallow is a rule, so it ends the group, and
		// it disallows nothing, so the group allows what it did. Not
		// an empty Allow: Yandex long read that as Disallow: /.
		sw.add("# Added by robowatch: the group above has no Allow or Disallow line, and only such a line\n")
		sw.add("# ends a group; without this one, the User-agent lines added below would join it and give\n")
		sw.add("# it their Disallow: /. An empty Disallow disallows nothing: the group allows what it did.\n")
		sw.add("Disallow:\n")
	}
	sw.add("\n")
}

// heading writes the comment that says where the suggestions come from.
func (sw *suggestionWriter) heading(r *Report) {
	first, last := r.span()
	sw.add("# Suggested by robowatch from %s", commentText(inputNames(r.Files), 200))
	if !first.IsZero() {
		sw.add(" (log time %s to %s)", first.UTC().Format(time.RFC3339), last.UTC().Format(time.RFC3339))
	}
	sw.add(".\n")
	if r.SiteRobots == nil {
		sw.add("# No robots.txt was given (--robots): these lines are a start, not a whole file.\n")
	}
}

// trainingGroup writes the group that disallows everything to tokens, if
// any, and returns where it ends (0 when none), for the size warning.
func (sw *suggestionWriter) trainingGroup(tokens []string) int {
	if len(tokens) == 0 {
		return 0
	}
	sw.add("\n# AI-training crawlers seen in the log: they collect pages to train models.\n")
	sw.add("# Delete this group to let them in.\n")
	for _, t := range tokens {
		sw.add("User-agent: %s\n", t)
	}
	sw.add("Disallow: /\n")
	return sw.out
}

// ignoredRobots writes a comment naming each robot that fetched what
// robots.txt forbids, and reports whether there was one.
func (sw *suggestionWriter) ignoredRobots(r *Report) bool {
	var ignored []string
	for _, b := range r.Result.Robots {
		if b.Violations == 0 {
			continue
		}
		ignored = append(ignored, fmt.Sprintf("#   %s: %s (%s)", commentText(b.Name, 80),
			Count(b.Violations)+noun(b.Violations, " disallowed request", " disallowed requests"), commentText(b.Finding, 80)))
	}
	if len(ignored) > 0 {
		sw.add("\n# These robots fetched what robots.txt forbids. robots.txt cannot stop a robot\n")
		sw.add("# that does not read it or ignores it: block them (robowatch -o nginx, -o nftables).\n")
		for _, l := range ignored {
			sw.add("%s\n", l)
		}
	}
	return len(ignored) > 0
}

// robotsTxtWarnings are the warnings about a suggested robots.txt of size
// bytes whose added group, for tokens, ends at groupEnd.
func robotsTxtWarnings(site *robots.Robots, size, groupEnd int, tokens []string) []string {
	var warnings []string
	if site != nil && site.Cut {
		warnings = append(warnings, fmt.Sprintf("the site's robots.txt is larger than %d MiB: the suggested robots.txt keeps only its first %d MiB (whole lines)", robots.MaxKept>>20, robots.MaxKept>>20))
	}
	if size > robots.MaxSize {
		// Google reads the first 500 KiB and nothing after: a group added
		// past them is not there for it.
		what := "what lies past them is not read"
		if groupEnd > robots.MaxSize {
			what = fmt.Sprintf("the group added at its end for %s is not read", strings.Join(tokens, ", "))
		}
		warnings = append(warnings, fmt.Sprintf("the suggested robots.txt is %d KiB, and Google and other RFC 9309 readers read only its first %d KiB: %s; shorten the site's file",
			(size+1023)>>10, robots.MaxSize>>10, what))
	}
	return warnings
}

// googleToken is the robot a User-agent value names as Google's parser
// reads it: its leading run of letters, '-' and '_'.
func googleToken(name string) string {
	name = strings.TrimLeft(name, " \t")
	i := 0
	for i < len(name) && (name[i] >= 'a' && name[i] <= 'z' || name[i] >= 'A' && name[i] <= 'Z' || name[i] == '-' || name[i] == '_') {
		i++
	}
	return name[:i]
}

// lineEnd is how text ends its lines ("\r\n", "\r" or "\n", as its first
// line does), for the lines added to it; "\n" when it has none.
func lineEnd(text string) string {
	i := strings.IndexAny(text, "\r\n")
	switch {
	case i < 0 || text[i] == '\n':
		return "\n"
	case i+1 < len(text) && text[i+1] == '\n':
		return "\r\n"
	}
	return "\r"
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
