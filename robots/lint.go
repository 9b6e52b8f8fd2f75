package robots

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Severity says how much a Problem matters.
type Severity uint8

// Severities, from worst to mildest.
const (
	Error   Severity = iota // the file does not do what it seems meant to do
	Warning                 // crawlers may read it differently, or the author probably erred
	Notice                  // worth knowing; no reader is misled
)

// String returns "error", "warning" or "notice".
func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "notice"
}

// Problem is something a robots.txt's author probably got wrong.
type Problem struct {
	Line       int      // 1-based line; 0 for the whole file
	Severity   Severity // how much it matters
	Code       string   // stable identifier for scripts, e.g. "unknown-key"
	Message    string   // what is wrong and how crawlers read it
	Suggestion string   // what to write instead; may be ""
}

// Lint lists what the author of the parsed file probably got wrong, ordered
// by line.
func Lint(r *Robots) []Problem {
	if r == nil {
		return nil
	}
	var ps []Problem
	for _, p := range r.problems {
		// The HTML problem says it all; its lines as unknown keys are noise.
		if r.HTML && (p.Code == "unknown-key" || p.Code == "garbage" || p.Code == "missing-colon") {
			continue
		}
		ps = append(ps, p)
	}
	add := func(line int, sev Severity, code, msg, sugg string) {
		ps = append(ps, Problem{Line: line, Severity: sev, Code: code, Message: msg, Suggestion: sugg})
	}
	if r.HTML {
		add(1, Error, "html", "the file is an HTML page, not a robots.txt: the server probably answers /robots.txt with an error or login page (a \"soft 404\"); crawlers find no rules in its HTML and fetch what no robots.txt line in it forbids",
			"serve a plain-text robots.txt, or a 404 if the site has none")
	}
	if r.Truncated {
		add(0, Warning, "too-large", fmt.Sprintf("the file is larger than %d KiB: RFC 9309 readers such as Google read only the first %d KiB; rules after that are ignored", MaxSize>>10, MaxSize>>10),
			"shorten the file, e.g. with wildcards that cover many paths")
	}
	if len(r.Groups) == 0 && !r.HTML {
		add(0, Notice, "no-groups", "the file has no User-agent groups: every robot may fetch everything", "")
	}
	lintGroups(r, add)
	lintPrefs(r, add)
	slices.SortStableFunc(ps, func(a, b Problem) int { return a.Line - b.Line })
	return collapseNotices(ps)
}

// collapseNotices keeps the first of identical notices and lists the lines
// of the others in it: 62 "Noindex" lines make one finding, not 62.
func collapseNotices(ps []Problem) []Problem {
	type key struct{ code, msg string }
	first := map[key]int{}
	more := map[int][]int{}
	out := ps[:0]
	for _, p := range ps {
		if p.Severity != Notice {
			out = append(out, p)
			continue
		}
		k := key{p.Code, p.Message}
		if i, ok := first[k]; ok {
			more[i] = append(more[i], p.Line)
			continue
		}
		first[k] = len(out)
		out = append(out, p)
	}
	for i, lines := range more {
		shown := lines[:min(len(lines), 5)]
		s := make([]string, len(shown))
		for j, l := range shown {
			s[j] = strconv.Itoa(l)
		}
		list := strings.Join(s, ", ")
		if len(lines) > len(shown) {
			list += ", ..."
		}
		what := "lines"
		if len(lines) == 1 {
			what = "line"
		}
		out[i].Message += fmt.Sprintf(" (also on %d more %s: %s)", len(lines), what, list)
	}
	return out
}

func lintGroups(r *Robots, add func(int, Severity, string, string, string)) {
	starDisallows := false // a "*" group forbids something
	firstGroup := map[string]*Group{}
	for _, g := range r.Groups {
		for _, a := range g.Agents {
			tok := productToken(a)
			if tok == "" {
				continue
			}
			if prev, ok := firstGroup[tok]; ok && prev != g {
				if tok == "*" {
					add(g.Line, Warning, "several-star-groups", fmt.Sprintf("a second group for * (the first is at line %d): RFC 9309 readers merge them, some older readers obey only the first", prev.Line),
						"merge the groups into one")
				} else {
					add(g.Line, Notice, "several-groups", fmt.Sprintf("a second group for %s (the first is at line %d): RFC 9309 readers merge them, some older readers obey only the first", a, prev.Line),
						"merge the groups into one")
				}
				continue
			}
			firstGroup[tok] = g
			if browserWord([]byte(tok)) {
				add(g.Line, Notice, "browser-word", fmt.Sprintf("User-agent %q names %q, a word of every browser's header, not a robot's product token: crawlers match groups by their own token (RFC 9309), so this group applies to no robot, and robowatch applies it to none", a, tok),
					"name the robot by the product token before its /version (\"Googlebot\"), or use \"*\"")
			}
			if tok == "*" {
				for _, rule := range g.Rules {
					if !rule.Allow && rule.Pattern != "" {
						starDisallows = true
					}
				}
			}
		}
	}
	for i, g := range r.Groups {
		named, empties, effective := true, 0, 0
		for _, a := range g.Agents {
			if productToken(a) == "*" {
				named = false
			}
		}
		for _, rule := range g.Rules {
			if rule.Pattern == "" {
				if !rule.Allow {
					empties++
				}
			} else {
				effective++
			}
			lintPattern(rule, add)
		}
		if len(g.Agents) > 0 && len(g.Rules) == 0 && i == len(r.Groups)-1 {
			add(g.Line, Notice, "group-without-rules", fmt.Sprintf("the group for %s ends the file without rules: it may fetch everything", strings.Join(g.Agents, ", ")),
				"add \"Disallow: /\" if it should fetch nothing, or \"Disallow:\" to say it may fetch everything")
		}
		if named && empties > 0 && effective == 0 && !starDisallows {
			line := g.Line
			for _, rule := range g.Rules {
				if rule.Pattern == "" && !rule.Allow {
					line = rule.Line
					break
				}
			}
			add(line, Warning, "empty-disallow", fmt.Sprintf("\"Disallow:\" with no path allows everything, so the group for %s changes nothing (robots without a group may fetch everything here too): it looks meant to keep %s out",
				strings.Join(g.Agents, ", "), strings.Join(g.Agents, ", ")),
				"write \"Disallow: /\" to disallow everything")
		}
	}
}

func lintPattern(rule *Rule, add func(int, Severity, string, string, string)) {
	p := rule.Pattern
	if p == "" {
		return
	}
	if p[0] != '/' && p[0] != '*' {
		sugg := "/" + p
		if i := strings.Index(p, "://"); i > 0 {
			rest := p[i+3:]
			sugg = "/"
			if j := strings.IndexAny(rest, "/?"); j >= 0 {
				sugg = rest[j:]
				if sugg[0] != '/' {
					sugg = "/" + sugg
				}
			}
		}
		key := "Disallow"
		if rule.Allow {
			key = "Allow"
		}
		add(rule.Line, Error, "path-start", fmt.Sprintf("path %q does not start with '/' or '*': it never matches (paths are matched from their start, which is '/')", p),
			fmt.Sprintf("write %q", key+": "+sugg))
	}
	if i := strings.IndexByte(p, '$'); i >= 0 && i < len(p)-1 {
		add(rule.Line, Notice, "dollar-inside", fmt.Sprintf("'$' in %q is not at the end of the pattern, so it matches a literal '$'", p),
			"put '$' last to anchor the end of the path, or write %24 for a literal '$'")
	}
}

// lintPrefs warns of a preference that allows a use on a path the same
// robots may not crawl: draft-ietf-aipref-attach gives disallowed paths no
// preferences, so "search=yes" there says nothing, and the author probably
// meant one of the two lines otherwise. Lines outside any group are held
// against the "*" groups, which every robot not named reads.
func lintPrefs(r *Robots, add func(int, Severity, string, string, string)) {
	check := func(pr *Preference, groups []*Group, who string) {
		if pr.Usage.Train != PrefYes && pr.Usage.Input != PrefYes && pr.Usage.Use != PrefYes && pr.Usage.Search != PrefYes {
			return
		}
		m := &Matcher{}
		for _, g := range groups {
			m.groups = append(m.groups, g)
			m.index = append(m.index, g.index())
		}
		// The pattern's literal start, as the path it names.
		path := pr.Pattern
		if i := strings.IndexAny(path, "*$"); i >= 0 {
			path = path[:i]
		}
		if ok, rule := m.Allowed(path); !ok && rule != nil {
			add(pr.Line, Warning, "preference-disallowed",
				fmt.Sprintf("%s allows a use of %s, but line %d (%q) forbids %s to crawl it: a disallowed path carries no preference (draft-ietf-aipref-attach), so the allowance says nothing", pr.Key, pr.Pattern, rule.Line, rule.Text, who),
				fmt.Sprintf("allow %s to be crawled, or drop the %s line", pr.Pattern, pr.Key))
		}
	}
	var star []*Group
	for _, g := range r.Groups {
		if slices.ContainsFunc(g.Agents, func(a string) bool { return productToken(a) == "*" }) {
			star = append(star, g)
		}
		for _, pr := range g.Prefs {
			check(pr, []*Group{g}, "the robots of its group")
		}
	}
	if len(star) > 0 {
		for _, pr := range r.Prefs {
			check(pr, star, "all robots")
		}
	}
}
