package robots

import (
	"fmt"
	"strings"
)

// Pref is a site's stated preference for one category of use.
type Pref uint8

// Preferences, from the least to the most restrictive: combining two keeps
// the larger.
const (
	PrefUnknown Pref = iota // nothing stated
	PrefYes                 // the use is allowed
	PrefNo                  // the use is declined
)

// String returns "", "yes" or "no".
func (p Pref) String() string {
	switch p {
	case PrefYes:
		return "yes"
	case PrefNo:
		return "no"
	}
	return ""
}

// Usage is what a site says of the categories of use robowatch judges:
// Content-Signal's ai-train, ai-input and search, and Content-Usage's
// train-ai, ai-use and search mapped onto them.
type Usage struct {
	Train  Pref // ai-train=, train-ai=: training or fine-tuning AI models
	Input  Pref // ai-input=: content as input to an AI model's answers
	Use    Pref // ai-use=: the same, leaving out what a user provides directly
	Search Pref // search=: a search index and its results
}

// Combine returns the most restrictive of u and o for each category, as
// draft-ietf-aipref-vocab combines several statements of preference.
func (u Usage) Combine(o Usage) Usage {
	return Usage{max(u.Train, o.Train), max(u.Input, o.Input), max(u.Use, o.Use), max(u.Search, o.Search)}
}

// Stated reports whether u states anything.
func (u Usage) Stated() bool { return u != Usage{} }

// Preference is one Content-Signal or Content-Usage line of a robots.txt.
type Preference struct {
	Key     string // "Content-Signal" or "Content-Usage"
	Pattern string // the path pattern it covers, as written; "/" when none was written
	Usage   Usage  // what it states
	Line    int    // 1-based line number in the file
	Text    string // the line as written without its comment

	c *compiledRule // Pattern compiled (see Robots.prepare)
}

var (
	setTrain  = func(u *Usage, p Pref) { u.Train = p }
	setInput  = func(u *Usage, p Pref) { u.Input = p }
	setUse    = func(u *Usage, p Pref) { u.Use = p }
	setSearch = func(u *Usage, p Pref) { u.Search = p }
)

// signalKeys are Content-Signal's keys (contentsignals.org). "use" is the
// key Cloudflare's managed robots.txt adds (use=reference): valid, but it
// declines no use.
var signalKeys = map[string]func(*Usage, Pref){
	"ai-train": setTrain,
	"ai-input": setInput,
	"search":   setSearch,
	"use":      nil,
}

// usageKeys are draft-ietf-aipref-vocab's labels. ai-use, unlike
// Content-Signal's ai-input, leaves out content a user provides directly:
// (its issue 249 is open on it), so it declines AI search, not the fetches
// an assistant makes for its user (see Declines).
var usageKeys = map[string]func(*Usage, Pref){
	"train-ai": setTrain,
	"ai-use":   setUse,
	"search":   setSearch,
}

// preference parses the value of a Content-Signal (signal) or Content-Usage
// line; problems go to the parser.
func (p *parser) preference(signal bool, keyName, value, text string) {
	pref := &Preference{Key: keyName, Pattern: "/", Line: p.lineNo, Text: text}
	rest := value
	if strings.HasPrefix(rest, "/") {
		i := 0
		for i < len(rest) && !isSpace(rest[i]) {
			i++
		}
		pref.Pattern, rest = rest[:i], trimSpace(rest[i:])
	} else if !signal {
		p.problem(Warning, "content-usage-path", fmt.Sprintf("Content-Usage %q has no path: draft-ietf-aipref-attach asks for one before the preferences; robowatch reads it as \"/\"", cut(value, 60)),
			fmt.Sprintf("write %q", "Content-Usage: / "+value))
	}
	if rest == "" {
		p.problem(Warning, "empty-preference", keyName+" line states no preference: ignored", "")
		return
	}
	keys := usageKeys
	if signal {
		keys = signalKeys
	}
	for _, member := range strings.Split(rest, ",") {
		member = trimSpace(member)
		if i := strings.IndexByte(member, ';'); i >= 0 && !signal {
			member = member[:i] // parameters carry no preference (vocab §6.4)
		}
		if member == "" {
			continue
		}
		k, v, _ := strings.Cut(member, "=")
		k, v = trimSpace(k), trimSpace(v)
		lk := k
		if signal {
			lk, v = strings.ToLower(k), strings.ToLower(v)
		}
		set, known := keys[lk]
		if !known {
			want := "ai-train, ai-input, search"
			if !signal {
				want = "train-ai, ai-use, search"
				if _, ok := usageKeys[strings.ToLower(k)]; ok {
					want = "keys are lower case"
				}
			}
			p.problem(Warning, "preference-key", fmt.Sprintf("%s key %q is unknown (%s): robowatch, like crawlers, ignores it", keyName, k, want), "")
			continue
		}
		if signal && lk == "use" {
			if v != "immediate" && v != "reference" && v != "full" {
				p.problem(Warning, "preference-value", fmt.Sprintf("Content-Signal use=%q is not immediate, reference or full", v), "")
			}
			continue
		}
		var got Pref
		switch {
		case signal && v == "yes", !signal && v == "y":
			got = PrefYes
		case signal && v == "no", !signal && v == "n":
			got = PrefNo
		default:
			want := "yes or no"
			if !signal {
				want = "y or n"
			}
			p.problem(Warning, "preference-value", fmt.Sprintf("%s %s=%q is not %s: the preference is unknown", keyName, k, v, want), "")
			continue
		}
		set(&pref.Usage, got) // a repeated key: the last counts, as in a structured-field dictionary
	}
	if p.cur == nil {
		p.r.Prefs = append(p.r.Prefs, pref)
		return
	}
	p.cur.Prefs = append(p.cur.Prefs, pref)
}

// ParseUsage reads a Content-Usage response header (draft-ietf-aipref-attach
// §2): a dictionary of train-ai, ai-use and search, each y or n. What it does
// not understand states nothing.
func ParseUsage(v string) Usage {
	var u Usage
	for _, member := range strings.Split(v, ",") {
		member = trimSpace(member)
		if i := strings.IndexByte(member, ';'); i >= 0 {
			member = member[:i]
		}
		k, val, _ := strings.Cut(member, "=")
		set := usageKeys[trimSpace(k)]
		if set == nil {
			continue
		}
		switch trimSpace(val) {
		case "y":
			set(&u, PrefYes)
		case "n":
			set(&u, PrefNo)
		default:
			set(&u, PrefUnknown)
		}
	}
	return u
}

// Declines reports whether u declines what a robot of purpose (the
// catalogue's word: ai-training, ai-search, ai-assistant, search) is for.
func (u Usage) Declines(purpose string) bool {
	switch purpose {
	case "ai-training":
		return u.Train == PrefNo
	case "ai-search":
		return u.Input == PrefNo || u.Use == PrefNo
	case "ai-assistant":
		return u.Input == PrefNo
	case "search":
		return u.Search == PrefNo
	}
	return false
}

// Lines are the preference lines that set each category of a Usage, for
// reports: nil where nothing was stated.
type Lines struct {
	Train, Input, Use, Search *Preference
}

// For returns the line that set what a robot of purpose is for (see
// Declines) in u; nil when none did.
func (l Lines) For(purpose string, u Usage) *Preference {
	switch purpose {
	case "ai-training":
		return l.Train
	case "ai-search":
		if u.Input < u.Use {
			return l.Use
		}
		return l.Input
	case "ai-assistant":
		return l.Input
	case "search":
		return l.Search
	}
	return nil
}

// take sets each category of *u to pr's where pr's is more restrictive,
// and records pr as its line.
func (l *Lines) take(u *Usage, pr *Preference) {
	set := func(have *Pref, line **Preference, p Pref) {
		if p > *have {
			*have, *line = p, pr
		}
	}
	set(&u.Train, &l.Train, pr.Usage.Train)
	set(&u.Input, &l.Input, pr.Usage.Input)
	set(&u.Use, &l.Use, pr.Usage.Use)
	set(&u.Search, &l.Search, pr.Usage.Search)
}

// Preferences returns what the robot's groups and the lines before any group
// state for path, and the lines that said it: of each kind of line, the one
// with the longest matching path (draft-ietf-aipref-attach §3.1, as Allow
// and Disallow are chosen), lines of equal length combined; then the two
// kinds combined, the most restrictive preference applying.
func (m *Matcher) Preferences(path string) (Usage, Lines) {
	var (
		u     Usage
		lines Lines
	)
	if m == nil || m.prefs == 0 {
		return u, lines
	}
	p := canonRequest(path)
	var ties []*Preference
	for _, key := range [2]string{"Content-Signal", "Content-Usage"} {
		best := int32(-1)
		ties = ties[:0]
		consider := func(prefs []*Preference) {
			for _, pr := range prefs {
				if pr.Key != key || pr.c == nil || !pr.c.matches(p) {
					continue
				}
				if pr.c.prio > best {
					best, ties = pr.c.prio, ties[:0]
				}
				if pr.c.prio == best {
					ties = append(ties, pr)
				}
			}
		}
		consider(m.global)
		for _, g := range m.groups {
			consider(g.Prefs)
		}
		for _, pr := range ties {
			lines.take(&u, pr)
		}
	}
	return u, lines
}

// matches reports whether the canonical path p matches c.
func (c *compiledRule) matches(p string) bool {
	return strings.HasPrefix(p, c.first) && c.matchRest(p, len(c.first))
}

// canonRequest is a request target's path in the form Allowed matches.
func canonRequest(path string) string {
	p, slash := requestPath(path)
	if !slash && !needsCanon(p) && !needsResolve(p) {
		return p
	}
	var b []byte
	if slash {
		b = append(b, '/')
	}
	b = appendCanon(b, p)
	if needsResolve(string(b)) {
		b = appendResolved(nil, string(b))
	}
	return string(b)
}
