package logparse

import "fmt"

// sameRecord reports whether a and b hold the same values: their Headers
// by value, none the same as all "".
func sameRecord(a, b Record) bool {
	ha, hb := headersOf(a), headersOf(b)
	a.Headers, b.Headers = nil, nil
	return a == b && ha == hb
}

// headersOf is r's Headers, all "" when it has none.
func headersOf(r Record) Headers {
	if r.Headers == nil {
		return Headers{}
	}
	return *r.Headers
}

// recordText is r as %+v prints it, its Headers by value.
func recordText(r Record) string {
	h := headersOf(r)
	r.Headers = nil
	return fmt.Sprintf("%+v headers %+v", r, h)
}
