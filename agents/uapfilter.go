package agents

import (
	"regexp/syntax"
	"slices"
	"strings"
)

// uapFilter says, without running a list's expressions, that none of them
// can match a string: each expression is reduced to a query on the
// literals any match must contain (and, after ^, start with). The queries
// are necessary conditions only, so a string they pass may still match
// nothing; a string they reject matches nothing for certain.
type uapFilter struct {
	queries []literalQuery
	always  bool // an expression without a query: every string may match
}

// add adds an expression as uap-go compiles it (flags as "(?flags)").
func (f *uapFilter) add(flags, expr string) {
	if flags != "" {
		expr = "(?" + flags + ")" + expr
	}
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		f.always = true // uap-go would fail to compile it; ask uap-go
		return
	}
	q := queryOf(re, false)
	if q.op == anyString {
		f.always = true
		return
	}
	f.queries = append(f.queries, q)
}

// mayMatch reports whether some expression of the list may match s.
func (f *uapFilter) mayMatch(s string) bool {
	if f.always {
		return true
	}
	lower, ok := uapLower(s)
	if !ok {
		return true
	}
	for i := range f.queries {
		if f.queries[i].holds(lower) {
			return true
		}
	}
	return false
}

type queryOp uint8

const (
	anyString    queryOp = iota // no condition
	contains                    // the string contains lit
	hasPrefix                   // the string starts with lit
	allOf                       // every sub holds
	anyOf                       // some sub holds
	containsAny                 // the string contains one of lit's NUL-separated literals
	hasPrefixAny                // the string starts with one of them
)

// literalQuery is a condition on a lower-cased string; lit is lower-cased.
// A set of literals is one string, NUL-separated: a thousand queries hold
// some 20,000 short literals, whose string headers would outweigh them.
type literalQuery struct {
	op  queryOp
	lit string
	sub []literalQuery
}

// holds reports whether the lower-cased s meets the query.
func (q *literalQuery) holds(s string) bool {
	switch q.op {
	case contains:
		return strings.Contains(s, q.lit)
	case hasPrefix:
		return strings.HasPrefix(s, q.lit)
	case containsAny, hasPrefixAny:
		for lit := range strings.SplitSeq(q.lit, "\x00") {
			if q.op == containsAny && strings.Contains(s, lit) || q.op == hasPrefixAny && strings.HasPrefix(s, lit) {
				return true
			}
		}
		return false
	case allOf:
		for i := range q.sub {
			if !q.sub[i].holds(s) {
				return false
			}
		}
		return true
	case anyOf:
		for i := range q.sub {
			if q.sub[i].holds(s) {
				return true
			}
		}
		return false
	}
	return true
}

// maxExact bounds the strings an exact set may hold (see exactSet).
const maxExact = 512

// queryOf is what every match of re must meet; atStart: re's match begins
// at the start of the string. Anything it cannot reason about (large
// classes, optional parts, zero-width assertions) asks nothing, which keeps
// the query a necessary condition.
func queryOf(re *syntax.Regexp, atStart bool) literalQuery {
	if set, ok := exactSet(re); ok {
		return setQuery(set, atStart)
	}
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return queryOf(re.Sub[0], atStart)
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return queryOf(re.Sub[0], atStart)
		}
	case syntax.OpConcat:
		return concatQuery(re.Sub, atStart)
	case syntax.OpAlternate:
		any := literalQuery{op: anyOf}
		for _, sub := range re.Sub {
			q := queryOf(sub, atStart)
			if q.op == anyString {
				return q
			}
			any.sub = append(any.sub, q)
		}
		any.sub = slices.Clone(any.sub)
		return any
	}
	return literalQuery{}
}

// setQuery is the query that a string contains (atStart: starts with) one
// of set's strings; nothing when the empty string is among them.
func setQuery(set []string, atStart bool) literalQuery {
	if slices.Contains(set, "") {
		return literalQuery{}
	}
	slices.Sort(set)
	set = slices.Compact(set)
	switch {
	case len(set) == 1 && atStart:
		return literalQuery{op: hasPrefix, lit: set[0]}
	case len(set) == 1:
		return literalQuery{op: contains, lit: set[0]}
	case atStart:
		return literalQuery{op: hasPrefixAny, lit: strings.Join(set, "\x00")}
	}
	return literalQuery{op: containsAny, lit: strings.Join(set, "\x00")}
}

// concatQuery is queryOf a concatenation: every part's query holds, and
// runs of parts with exact sets are joined into one set ("h" then "tc"
// is "htc"). A part begins at the start of the string when it is the
// first of a concatenation that does, or when it follows ^ (OpBeginText).
func concatQuery(subs []*syntax.Regexp, atStart bool) literalQuery {
	all := literalQuery{op: allOf}
	add := func(q literalQuery) {
		if q.op != anyString {
			all.sub = append(all.sub, q)
		}
	}
	var run []string // the product of the current run of exact sets
	runAtStart, inRun := false, false
	flush := func() {
		if inRun {
			add(setQuery(run, runAtStart))
		}
		run, inRun = nil, false
	}
	for _, sub := range subs {
		if sub.Op == syntax.OpBeginText {
			flush()
			atStart = true
			continue
		}
		if set, ok := exactSet(sub); ok {
			if !inRun {
				run, runAtStart, inRun = set, atStart, true
			} else if joined, ok := product(run, set); ok {
				run = joined
			} else {
				flush()
				run, runAtStart, inRun = set, false, true
			}
		} else {
			flush()
			add(queryOf(sub, atStart))
		}
		atStart = false
	}
	flush()
	switch len(all.sub) {
	case 0:
		return literalQuery{}
	case 1:
		return all.sub[0]
	}
	all.sub = slices.Clone(all.sub) // drop what append left spare
	return all
}

// exactSet returns the lower-cased strings re matches, when they are at
// most maxExact and all ASCII (a literal, a small class, alternations and
// concatenations of them).
func exactSet(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return []string{""}, true
	case syntax.OpLiteral:
		lit := string(re.Rune)
		for _, r := range lit {
			if r >= 0x80 {
				return nil, false // may fold to ASCII: ask nothing
			}
		}
		return []string{strings.ToLower(lit)}, true
	case syntax.OpCharClass:
		return classSet(re.Rune)
	case syntax.OpCapture:
		return exactSet(re.Sub[0])
	case syntax.OpQuest:
		set, ok := exactSet(re.Sub[0])
		if !ok || len(set) >= maxExact {
			return nil, false
		}
		return append(set, ""), true
	case syntax.OpConcat:
		set := []string{""}
		for _, sub := range re.Sub {
			part, ok := exactSet(sub)
			if !ok {
				return nil, false
			}
			if set, ok = product(set, part); !ok {
				return nil, false
			}
		}
		return set, true
	case syntax.OpAlternate:
		var set []string
		for _, sub := range re.Sub {
			part, ok := exactSet(sub)
			if !ok || len(set)+len(part) > maxExact {
				return nil, false
			}
			set = append(set, part...)
		}
		return set, true
	}
	return nil, false
}

// classSet is the lower-cased characters of a class of at most 16 ASCII
// characters (pairs of range bounds, as syntax gives them).
func classSet(ranges []rune) ([]string, bool) {
	var set []string
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if hi >= 0x80 || int(hi-lo)+1+len(set) > 16 {
			return nil, false
		}
		for r := lo; r <= hi; r++ {
			set = append(set, strings.ToLower(string(r)))
		}
	}
	slices.Sort(set)
	set = slices.Compact(set) // (?i) gives both cases
	return set, len(set) > 0
}

// product is every string of a followed by every string of b, if there are
// at most maxExact.
func product(a, b []string) ([]string, bool) {
	if len(a)*len(b) > maxExact {
		return nil, false
	}
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	return out, true
}
