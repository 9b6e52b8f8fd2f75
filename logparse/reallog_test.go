package logparse

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
	"unicode/utf8"
)

// realLog is what a test knows about a real log: for the full logs, the
// figures in their README; for the excerpts, figures taken with awk, grep and
// Python's strptime (not with this parser).
type realLog struct {
	file      string
	format    *Format
	lines     int
	malformed []int64 // line numbers
	clients   int     // distinct Client values
	noProto   int     // HTTP/0.9 requests: a method and a target but no protocol
	dashSize  int     // records whose size is "-"
	robotsTxt int     // requests for /robots.txt
	first     string  // earliest and latest time, RFC 3339
	last      string
	check     func(t *testing.T, recs []Record)
}

func checkRealLog(t *testing.T, path string, want realLog) {
	recs, bad, err := readFile(t, path)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(recs) + len(bad); got != want.lines {
		t.Errorf("%d lines, want %d", got, want.lines)
	}
	var badLines []int64
	for _, e := range bad {
		badLines = append(badLines, e.Line)
	}
	if !equalInts(badLines, want.malformed) {
		t.Errorf("malformed lines %v, want %v (%v)", badLines, want.malformed, bad)
	}
	clients := map[string]bool{}
	noProto, dash, robots := 0, 0, 0
	var first, last time.Time
	for _, r := range recs {
		clients[r.Client] = true
		if r.Method != "" && r.Target != "" && r.Protocol == "" {
			noProto++
		}
		if r.Bytes == -1 {
			dash++
		}
		if r.Path() == "/robots.txt" {
			robots++
		}
		if first.IsZero() || r.Time.Before(first) {
			first = r.Time
		}
		if r.Time.After(last) {
			last = r.Time
		}
	}
	if len(clients) != want.clients || noProto != want.noProto || dash != want.dashSize || robots != want.robotsTxt {
		t.Errorf("clients %d, HTTP/0.9 %d, size \"-\" %d, /robots.txt %d; want %d, %d, %d, %d",
			len(clients), noProto, dash, robots, want.clients, want.noProto, want.dashSize, want.robotsTxt)
	}
	if f, l := first.Format(time.RFC3339), last.Format(time.RFC3339); f != want.first || l != want.last {
		t.Errorf("span %s .. %s, want %s .. %s", f, l, want.first, want.last)
	}
	if want.check != nil {
		want.check(t, recs)
	}
}

func equalInts(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestRealLogExcerpts reads the excerpts in testdata/logs (see the README there).
func TestRealLogExcerpts(t *testing.T) {
	logs := []realLog{
		{file: "elastic-8801-9000.log", format: Combined, lines: 200, malformed: []int64{99}, clients: 64, dashSize: 11, robotsTxt: 8,
			first: "2015-05-20T11:05:00Z", last: "2015-05-20T13:05:59Z"},
		{file: "elastic-5801-5900.log", format: Combined, lines: 100, clients: 34, dashSize: 4,
			first: "2015-05-19T10:05:00Z", last: "2015-05-19T11:05:57Z",
			check: func(t *testing.T, recs []Record) {
				// Apache wrote a Cyrillic referer's bytes as \xHH: they come back as the bytes.
				if r := recs[50]; r.Referer != "http://\xe4\xe5\xe3\xf2\xff\xf0\xed\xee\xe5-\xec\xfb\xeb\xee.\xf0\xf4/" || utf8.ValidString(r.Referer) {
					t.Errorf("line 51 referer %q", r.Referer)
				}
			}},
		{file: "nasa-401-1000.log", format: Common, lines: 600, clients: 75, noProto: 7, dashSize: 1,
			first: "1995-08-01T00:11:13-04:00", last: "1995-08-01T00:36:30-04:00",
			check: func(t *testing.T, recs []Record) {
				if r := recs[20]; r.Client != "pipe1.nyc.pipeline.com" || r.Target != "/history/apollo/apollo-13/apollo-13-patch-small.gif" || r.Protocol != "" || r.Status != 200 {
					t.Errorf("line 21 (HTTP/0.9): %+v", r)
				}
			}},
		{file: "nasa-11501-11600.log", format: Common, lines: 100, clients: 23, dashSize: 2,
			first: "1995-08-01T08:31:40-04:00", last: "1995-08-01T08:34:08-04:00",
			check: func(t *testing.T, recs []Record) {
				if r := recs[14]; r.Target != `/\yahoo.com` || r.Status != 404 || r.Bytes != -1 {
					t.Errorf("line 15: %+v", r)
				}
			}},
		{file: "basjes-1-300.log", format: Combined, lines: 300, clients: 67,
			first: "2015-10-25T04:11:25+01:00", last: "2015-10-25T17:06:19+01:00"},
	}
	for _, l := range logs {
		t.Run(l.file, func(t *testing.T) {
			path := filepath.Join("..", "testdata", "logs", l.file)
			checkRealLog(t, path, l)
			rc, err := openFile(path)
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			r := NewReader(rc, l.file, nil)
			readAll(r)
			if r.Format() != l.format {
				t.Errorf("detected %s, want %s", r.Format(), l.format)
			}
		})
	}
}

// TestRealLogsFull reads the whole real logs beside the repository and
// checks the figures their README documents. Line 8899 of the elastic log is
// the only malformed line of all three: its User-agent has no closing quote.
func TestRealLogsFull(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "data", "logs")
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		t.Skip("../shared/data/logs is not here")
	}
	logs := []realLog{
		{file: "elastic-apache_logs.log", lines: 10000, malformed: []int64{8899}, clients: 1753, dashSize: 669, robotsTxt: 180,
			first: "2015-05-17T10:05:00Z", last: "2015-05-20T21:05:59Z"},
		{file: "nasa-aug95-first20000.log", lines: 20000, clients: 1656, noProto: 36, dashSize: 251,
			first: "1995-08-01T00:00:01-04:00", last: "1995-08-01T10:59:29-04:00"},
		{file: "basjes-hackers-access.log", lines: 3456, clients: 520,
			first: "2015-10-25T04:11:25+01:00", last: "2015-10-30T15:59:39+01:00"},
	}
	for _, l := range logs {
		t.Run(l.file, func(t *testing.T) {
			checkRealLog(t, filepath.Join(dir, l.file), l)
		})
	}
}
