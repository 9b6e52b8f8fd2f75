package botauth

import (
	"encoding/base64"
	"errors"
	"strconv"
)

// The subset of RFC 8941 Structured Field Values that Signature,
// Signature-Input and Signature-Agent use: a Dictionary whose members are
// Items or Inner Lists, with Parameters. Parsing is byte by byte, bounded
// (maxMembers, maxItems, maxParams), and keeps what the signature base
// needs to serialize each member again the one way RFC 8941 section 4.1
// writes it.

// Bounds on what one header may hold: a request signs with one or two
// labels over a handful of components.
const (
	maxMembers = 8
	maxItems   = 16
	maxParams  = 16
)

// Kinds of bare items.
const (
	kindInteger = iota + 1
	kindDecimal
	kindString
	kindToken
	kindBytes
	kindBoolean
)

type bareItem struct {
	kind int
	s    string // a String's or Token's text, a Decimal's canonical text
	n    int64  // an Integer; a Boolean is 0 or 1
	b    []byte // a Byte Sequence
}

type param struct {
	key string
	val bareItem
}

type item struct {
	bare   bareItem
	params []param
}

// member is one Dictionary member: an Item, or an Inner List (inner set)
// of items with the list's own parameters.
type member struct {
	key    string
	inner  bool
	items  []item // the Inner List's items
	item   item   // the Item, when !inner
	params []param
}

var errSyntax = errors.New("not a structured field")

// param returns the value of the parameter called key, and whether there
// is one.
func paramOf(ps []param, key string) (bareItem, bool) {
	for _, p := range ps {
		if p.key == key {
			return p.val, true
		}
	}
	return bareItem{}, false
}

type sfParser struct {
	s   string
	pos int
}

// parseDictionary parses s as an RFC 8941 Dictionary (section 4.2.2). A
// key given twice keeps its last value, as the RFC says.
func parseDictionary(s string) ([]member, error) {
	p := sfParser{s: s}
	p.skip(' ', '\t')
	var out []member
	for p.pos < len(p.s) {
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		m := member{key: key}
		if p.pos < len(p.s) && p.s[p.pos] == '=' {
			p.pos++
			if p.pos < len(p.s) && p.s[p.pos] == '(' {
				m.inner = true
				if m.items, err = p.innerList(); err != nil {
					return nil, err
				}
			} else if m.item.bare, err = p.bare(); err != nil {
				return nil, err
			}
		} else {
			m.item.bare = bareItem{kind: kindBoolean, n: 1}
		}
		if m.params, err = p.params(); err != nil {
			return nil, err
		}
		if !m.inner {
			m.item.params, m.params = m.params, nil
		}
		replaced := false
		for i := range out {
			if out[i].key == key {
				out[i], replaced = m, true
			}
		}
		if !replaced {
			if len(out) == maxMembers {
				return nil, errors.New("too many members")
			}
			out = append(out, m)
		}
		p.skip(' ', '\t')
		if p.pos == len(p.s) {
			return out, nil
		}
		if p.s[p.pos] != ',' {
			return nil, errSyntax
		}
		p.pos++
		p.skip(' ', '\t')
		if p.pos == len(p.s) {
			return nil, errSyntax // a trailing comma
		}
	}
	return out, nil
}

// parseItem parses s as an RFC 8941 Item (section 4.2.3).
func parseItem(s string) (item, error) {
	p := sfParser{s: s}
	p.skip(' ', '\t')
	it, err := p.item()
	if err != nil {
		return it, err
	}
	p.skip(' ', '\t')
	if p.pos != len(p.s) {
		return it, errSyntax
	}
	return it, nil
}

// item parses a bare item and its parameters.
func (p *sfParser) item() (item, error) {
	var it item
	var err error
	if it.bare, err = p.bare(); err != nil {
		return it, err
	}
	it.params, err = p.params()
	return it, err
}

func (p *sfParser) skip(a, b byte) {
	for p.pos < len(p.s) && (p.s[p.pos] == a || p.s[p.pos] == b) {
		p.pos++
	}
}

func (p *sfParser) innerList() ([]item, error) {
	p.pos++ // '('
	var items []item
	for {
		p.skip(' ', ' ')
		if p.pos >= len(p.s) {
			return nil, errSyntax
		}
		if p.s[p.pos] == ')' {
			p.pos++
			return items, nil
		}
		if len(items) == maxItems {
			return nil, errors.New("too many components")
		}
		it, err := p.item()
		if err != nil {
			return nil, err
		}
		items = append(items, it)
		if p.pos >= len(p.s) || p.s[p.pos] != ' ' && p.s[p.pos] != ')' {
			return nil, errSyntax
		}
	}
}

func (p *sfParser) params() ([]param, error) {
	var ps []param
	for p.pos < len(p.s) && p.s[p.pos] == ';' {
		p.pos++
		p.skip(' ', ' ')
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		v := bareItem{kind: kindBoolean, n: 1}
		if p.pos < len(p.s) && p.s[p.pos] == '=' {
			p.pos++
			if v, err = p.bare(); err != nil {
				return nil, err
			}
		}
		replaced := false
		for i := range ps {
			if ps[i].key == key {
				ps[i].val, replaced = v, true
			}
		}
		if !replaced {
			if len(ps) == maxParams {
				return nil, errors.New("too many parameters")
			}
			ps = append(ps, param{key, v})
		}
	}
	return ps, nil
}

// key parses a key: lcalpha or '*', then lcalpha, DIGIT, '_', '-', '.', '*'.
func (p *sfParser) key() (string, error) {
	start := p.pos
	if p.pos >= len(p.s) || !(isLower(p.s[p.pos]) || p.s[p.pos] == '*') {
		return "", errSyntax
	}
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		if !isLower(c) && !isDigit(c) && c != '_' && c != '-' && c != '.' && c != '*' {
			break
		}
		p.pos++
	}
	return p.s[start:p.pos], nil
}

func (p *sfParser) bare() (bareItem, error) {
	if p.pos >= len(p.s) {
		return bareItem{}, errSyntax
	}
	switch c := p.s[p.pos]; {
	case c == '-' || isDigit(c):
		return p.number()
	case c == '"':
		return p.str()
	case c == ':':
		return p.bytes()
	case c == '?':
		if p.pos+1 < len(p.s) && (p.s[p.pos+1] == '0' || p.s[p.pos+1] == '1') {
			p.pos += 2
			return bareItem{kind: kindBoolean, n: int64(p.s[p.pos-1] - '0')}, nil
		}
		return bareItem{}, errSyntax
	case isAlpha(c) || c == '*':
		start := p.pos
		for p.pos < len(p.s) && (isTchar(p.s[p.pos]) || p.s[p.pos] == ':' || p.s[p.pos] == '/') {
			p.pos++
		}
		return bareItem{kind: kindToken, s: p.s[start:p.pos]}, nil
	}
	return bareItem{}, errSyntax
}

// number parses an Integer (at most 15 digits) or a Decimal (at most 12
// digits, a point, at most 3 digits).
func (p *sfParser) number() (bareItem, error) {
	start := p.pos
	if p.s[p.pos] == '-' {
		p.pos++
	}
	digits := p.pos
	for p.pos < len(p.s) && isDigit(p.s[p.pos]) {
		p.pos++
	}
	whole := p.pos - digits
	if whole == 0 {
		return bareItem{}, errSyntax
	}
	if p.pos < len(p.s) && p.s[p.pos] == '.' {
		if whole > 12 {
			return bareItem{}, errSyntax
		}
		p.pos++
		frac := p.pos
		for p.pos < len(p.s) && isDigit(p.s[p.pos]) {
			p.pos++
		}
		if n := p.pos - frac; n == 0 || n > 3 {
			return bareItem{}, errSyntax
		}
		f, err := strconv.ParseFloat(p.s[start:p.pos], 64)
		if err != nil {
			return bareItem{}, errSyntax
		}
		// Serialized as RFC 8941 section 4.1.5 writes it: no trailing
		// zeros, but one digit after the point.
		t := strconv.FormatFloat(f, 'f', -1, 64)
		if !containsByte(t, '.') {
			t += ".0"
		}
		return bareItem{kind: kindDecimal, s: t}, nil
	}
	if whole > 15 {
		return bareItem{}, errSyntax
	}
	n, err := strconv.ParseInt(p.s[start:p.pos], 10, 64)
	if err != nil {
		return bareItem{}, errSyntax
	}
	return bareItem{kind: kindInteger, n: n}, nil
}

func (p *sfParser) str() (bareItem, error) {
	p.pos++ // '"'
	start := p.pos
	esc := false
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		switch {
		case c == '\\':
			if p.pos+1 >= len(p.s) || p.s[p.pos+1] != '"' && p.s[p.pos+1] != '\\' {
				return bareItem{}, errSyntax
			}
			esc = true
			p.pos += 2
		case c == '"':
			v := p.s[start:p.pos]
			p.pos++
			if esc {
				v = unescapeString(v)
			}
			return bareItem{kind: kindString, s: v}, nil
		case c < 0x20 || c > 0x7e:
			return bareItem{}, errSyntax
		default:
			p.pos++
		}
	}
	return bareItem{}, errSyntax
}

func unescapeString(v string) string {
	b := make([]byte, 0, len(v))
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' {
			i++
		}
		b = append(b, v[i])
	}
	return string(b)
}

func (p *sfParser) bytes() (bareItem, error) {
	p.pos++ // ':'
	start := p.pos
	for p.pos < len(p.s) && p.s[p.pos] != ':' {
		c := p.s[p.pos]
		if !isAlpha(c) && !isDigit(c) && c != '+' && c != '/' && c != '=' {
			return bareItem{}, errSyntax
		}
		p.pos++
	}
	if p.pos >= len(p.s) {
		return bareItem{}, errSyntax
	}
	b, err := base64.StdEncoding.DecodeString(p.s[start:p.pos])
	if err != nil {
		return bareItem{}, errSyntax
	}
	p.pos++
	return bareItem{kind: kindBytes, b: b}, nil
}

// appendBare writes v as RFC 8941 section 4.1 serializes it.
func appendBare(b []byte, v bareItem) []byte {
	switch v.kind {
	case kindInteger:
		return strconv.AppendInt(b, v.n, 10)
	case kindDecimal, kindToken:
		return append(b, v.s...)
	case kindString:
		b = append(b, '"')
		for i := 0; i < len(v.s); i++ {
			if v.s[i] == '"' || v.s[i] == '\\' {
				b = append(b, '\\')
			}
			b = append(b, v.s[i])
		}
		return append(b, '"')
	case kindBytes:
		b = append(b, ':')
		b = base64.StdEncoding.AppendEncode(b, v.b)
		return append(b, ':')
	case kindBoolean:
		if v.n == 1 {
			return append(b, "?1"...)
		}
		return append(b, "?0"...)
	}
	return b
}

func appendParams(b []byte, ps []param) []byte {
	for _, p := range ps {
		b = append(b, ';')
		b = append(b, p.key...)
		if p.val.kind != kindBoolean || p.val.n != 1 {
			b = append(b, '=')
			b = appendBare(b, p.val)
		}
	}
	return b
}

func appendItem(b []byte, it item) []byte {
	return appendParams(appendBare(b, it.bare), it.params)
}

// appendInnerList writes an Inner List with its parameters.
func appendInnerList(b []byte, items []item, ps []param) []byte {
	b = append(b, '(')
	for i, it := range items {
		if i > 0 {
			b = append(b, ' ')
		}
		b = appendItem(b, it)
	}
	b = append(b, ')')
	return appendParams(b, ps)
}

func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// isTchar reports whether c is an RFC 9110 token character.
func isTchar(c byte) bool {
	if isAlpha(c) || isDigit(c) {
		return true
	}
	switch c {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~':
		return true
	}
	return false
}

func containsByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}
