package logparse

import (
	"errors"
	"testing"
)

// TestTimeYearRange checks that a line whose time lies outside the years
// 1000-9998 is malformed, with the reason and the column of the time,
// whichever way the format writes times: such a time cannot be written to a
// JSON report once shifted to another zone or to a bucket's start, and no
// real clock reads it.
func TestTimeYearRange(t *testing.T) {
	mustFormat := func(spec string) *Format {
		f, err := ParseFormat(spec)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	iso := mustFormat(`$remote_addr [$time_iso8601] "$request" $status $body_bytes_sent`)
	epoch := mustFormat(`%{sec}t %h "%r" %>s %b`)
	strf := mustFormat(`[%{%Y-%m-%d %H:%M:%S}t] %h "%r" %>s %b`)
	const req = ` "GET / HTTP/1.1" 200 1`
	tests := []struct {
		name   string
		f      *Format
		line   string
		ok     bool
		column int
	}{
		{"CLF year 0000", Combined, `192.0.2.1 - - [01/May/0000:00:00:00 +0000]` + req + ` "-" "x"`, false, 16},
		{"CLF year 0999", Combined, `192.0.2.1 - - [01/May/0999:00:00:00 +0000]` + req + ` "-" "x"`, false, 16},
		{"CLF year 1000", Combined, `192.0.2.1 - - [01/May/1000:00:00:00 +0000]` + req + ` "-" "x"`, true, 0},
		{"CLF year 2026", Combined, `192.0.2.1 - - [22/Nov/2026:06:58:59 +0100]` + req + ` "-" "x"`, true, 0},
		{"CLF year 9998", Combined, `192.0.2.1 - - [31/Dec/9998:23:00:00 +0000]` + req + ` "-" "x"`, true, 0},
		{"CLF 9998 west of UTC is 9999 in UTC", Combined, `192.0.2.1 - - [31/Dec/9998:23:00:00 -0200]` + req + ` "-" "x"`, false, 16},
		{"CLF year 9999", Combined, `192.0.2.1 - - [31/Dec/9999:23:59:59 +0000]` + req + ` "-" "x"`, false, 16},
		{"ISO year 0001", iso, `192.0.2.1 [0001-01-01T00:00:00+00:00]` + req, false, 12},
		{"ISO year 2024", iso, `192.0.2.1 [2024-03-05T07:08:09+00:00]` + req, true, 0},
		{"epoch 0 is 1970", epoch, `0 192.0.2.1` + req, true, 0},
		{"epoch in year 33658", epoch, `1000000000000 192.0.2.1` + req, false, 1},
		{"strftime year 0500", strf, `[0500-03-05 07:08:09] 192.0.2.1` + req, false, 0},
		{"strftime year 2024", strf, `[2024-03-05 07:08:09] 192.0.2.1` + req, true, 0},
	}
	for _, tt := range tests {
		var rec Record
		err := tt.f.Parse([]byte(tt.line), &rec)
		if tt.ok {
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
			}
			continue
		}
		var pe *ParseError
		if !errors.As(err, &pe) || !errors.Is(err, ErrTime) || pe.Column != tt.column {
			t.Errorf("%s: Parse = %v (column %d), want ErrTime at column %d", tt.name, err, columnOf(pe), tt.column)
		}
	}
}

func columnOf(pe *ParseError) int {
	if pe == nil {
		return -1
	}
	return pe.Column
}
