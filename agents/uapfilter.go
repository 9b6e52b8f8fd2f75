package agents

import (
	"fmt"
	"strings"
)

// The filters are derived from uap-go's expressions at development time
// (uapfilter_oracle_test.go) and kept in uapfilter_data.go: deriving them
// at run time took 17-20 ms of CPU (reading uap-go's YAML, parsing its
// expressions), on a worker's path in every run; decoding takes well under
// a millisecond.
//go:generate go test . -run TestUAPFilterData -update

// uapFilter says, without running a list's expressions, that none of them
// can match a string: each expression is reduced to a query on the
// literals any match must contain (and, after ^, start with). The queries
// are necessary conditions only, so a string they pass may still match
// nothing; a string they reject matches nothing for certain.
type uapFilter struct {
	queries []literalQuery
	always  bool // an expression without a query: every string may match
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

// uapSetSeparator stands for the NUL between a set's literals in
// uapFilterData, where a NUL would be written as four bytes ("\x00"); the
// generator refuses a literal that holds it.
const uapSetSeparator = '}'

// The serialization of the filters, in prefix order: the number of
// queries in all (the decoder takes them from one array: a thousand
// allocations were half its time); then for each list, its always flag
// ('1' or '0') and its number of queries, then the queries.
// A query is its op as a letter (queryLetters); then, for a literal op,
// the length of lit, ':' and lit; for allOf and anyOf, the number of subs,
// ':' and the subs. A number is decimal.
const queryLetters = "_cpAOCP" // indexed by queryOp

// decodeUAPFilters reads the filters of both lists from data.
func decodeUAPFilters(data string) ([2]uapFilter, error) {
	// A byte loop: strings.ReplaceAll, for 20,000 separators, was half the
	// decoding's time.
	b := []byte(data)
	for i, c := range b {
		if c == uapSetSeparator {
			b[i] = 0
		}
	}
	d := queryDecoder{data: string(b)}
	d.nodes = make([]literalQuery, 0, d.number())
	var f [2]uapFilter
	for i := range f {
		switch d.byte() {
		case '1':
			f[i].always = true
		case '0':
		default:
			return f, d.fail("an always flag")
		}
		n := d.number()
		f[i].queries = d.take(n)
		for j := range f[i].queries {
			f[i].queries[j] = d.query()
		}
	}
	if d.err == nil && d.pos != len(d.data) {
		return f, d.fail("the end")
	}
	return f, d.err
}

// queryDecoder reads uapFilterData; its literals are substrings of data.
type queryDecoder struct {
	data string
	pos  int
	err  error

	nodes []literalQuery // the queries not yet taken (cap) and taken (len)
}

// take returns the next n queries of d.nodes.
func (d *queryDecoder) take(n int) []literalQuery {
	have := len(d.nodes)
	if n > cap(d.nodes)-have {
		d.fail("fewer queries")
		return nil
	}
	d.nodes = d.nodes[:have+n]
	return d.nodes[have : have+n : have+n]
}

func (d *queryDecoder) fail(want string) error {
	if d.err == nil {
		d.err = fmt.Errorf("uap filter data: at byte %d: want %s", d.pos, want)
	}
	d.pos = len(d.data) // read nothing more
	return d.err
}

func (d *queryDecoder) byte() byte {
	if d.pos >= len(d.data) {
		d.fail("more data")
		return 0
	}
	d.pos++
	return d.data[d.pos-1]
}

// number reads a decimal number ended by ':'.
func (d *queryDecoder) number() int {
	n, digits := 0, 0
	for ; d.pos < len(d.data) && '0' <= d.data[d.pos] && d.data[d.pos] <= '9'; d.pos++ {
		n = n*10 + int(d.data[d.pos]-'0')
		if digits++; n > len(d.data) {
			break
		}
	}
	if digits == 0 || n > len(d.data) || d.pos >= len(d.data) || d.data[d.pos] != ':' {
		d.fail("a number")
		return 0
	}
	d.pos++
	return n
}

func (d *queryDecoder) query() literalQuery {
	op := strings.IndexByte(queryLetters, d.byte())
	switch queryOp(op) {
	case contains, hasPrefix, containsAny, hasPrefixAny:
		n := d.number()
		if n == 0 || d.pos+n > len(d.data) {
			d.fail("a literal")
			return literalQuery{}
		}
		d.pos += n
		return literalQuery{op: queryOp(op), lit: d.data[d.pos-n : d.pos]}
	case allOf, anyOf:
		n := d.number()
		if n == 0 {
			d.fail("subqueries")
			return literalQuery{}
		}
		q := literalQuery{op: queryOp(op), sub: d.take(n)}
		for i := range q.sub {
			q.sub[i] = d.query()
		}
		return q
	}
	d.fail("a query letter")
	return literalQuery{}
}
