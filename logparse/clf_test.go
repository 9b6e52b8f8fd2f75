package logparse

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fieldsOnly returns copies of Common and Combined that parseFields alone
// reads, Common's richer layout among them: what parseCLF must agree with.
func fieldsOnly() (common, combined *Format) {
	comb, comm := *Combined, *Common
	comb.clf, comm.clf = clfNone, clfNone
	comm.richer = &comb
	return &comm, &comb
}

// clfCorpus is every line of the real logs in testdata, the edge and
// bench lines, and each of some of them changed at every byte into one
// of the bytes that end or escape a field, and cut there.
func clfCorpus(t testing.TB) [][]byte {
	var lines [][]byte
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "logs", "*.log"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, bytes.SplitAfter(data, []byte("\n"))...)
	}
	for _, l := range edgeSeedLines {
		lines = append(lines, []byte(l))
	}
	lines = append(lines, benchLines(500)...)
	lines = append(lines,
		[]byte(`192.0.2.1 - - [10/Mar/2024:08:00:00 +0100] "GET / HTTP/1.1" 200 -`),
		[]byte(`192.0.2.1 - - [10/Mar/2024:08:00:00 +0100] "GET / HTTP/1.1" 200 - "-" "x" 12 "router@docker" "http://10.0.0.5:80" 3ms`),
		[]byte(`192.0.2.1 - - [10/Mar/2024:08:00:00 +0100] "GET / HTTP/1.1" 200 1 "-" "" 12 "router@docker" "-" 3ms`),
		[]byte(`192.0.2.1 - - [10/Mar/0999:08:00:00 +0100] "GET / HTTP/1.1" 200 1 "-" "x"`),
		[]byte(`192.0.2.1 - - [01/Jan/1000:00:30:00 +0100] "GET / HTTP/1.1" 200 1 "-" "x"`),
		[]byte(`192.0.2.1 - - [10/Mar/2024:08:00:00.123 +0100] "GET / HTTP/1.1" 200 1 "-" "x"`),
		[]byte(`192.0.2.1, 10.0.0.1 - - [10/Mar/2024:08:00:00 +0100] "GET / HTTP/1.1" 200 1 "-" "x"`),
		[]byte(`192.0.2.1 - - [10/Mar/2024:08:00:00 +0100] "GET /"a" HTTP/1.1" 200 1 "r"x" "u"a" b"`),
		[]byte(`192.0.2.1 - - [10/Mar/2024:08:00:00 +0100] "GET /a" b HTTP/1.1" 200 1 "r" x" "u" a"`),
		[]byte(`192.0.2.1 - - [10/Mar/2024:08:00:00 +0100] "GET /a" - HTTP/1.1" 200 1 "r" "x" "u"`),
		[]byte(`192.0.2.1 - - [10/Mar/2024:08:00:00 +0100] "" 400 0 "-" "-"`+"\t7"),
		[]byte(`- - - [10/Mar/2024:08:00:00 -0330] "-" - - "-" "-"`),
		[]byte(`::ffff:192.0.2.1 ident user [10/Mar/2024:08:00:00 +0000] "GET  /x  HTTP/1.0" 200 12 "-" "ua"`+"\r\n"),
	)
	var changed [][]byte
	every := 31
	if testing.Short() {
		every = 97
	}
	for i, l := range lines {
		if i%every != 0 || len(l) > 400 {
			continue
		}
		for at := range len(l) {
			changed = append(changed, l[:at])
			for _, c := range []byte{'"', ' ', '\t', '\\', ',', '-', ']', '[', '0', 'x'} {
				m := bytes.Clone(l)
				m[at] = c
				changed = append(changed, m)
			}
		}
	}
	return append(lines, changed...)
}

// TestParseCLFAgrees holds parseCLF to parseFields: for Common and
// Combined, every line of the corpus parses to the same record or the
// same error with the fast path as without it, with a copy of the line
// and with views of it (ReuseRecord).
func TestParseCLFAgrees(t *testing.T) {
	common, combined := fieldsOnly()
	fast := 0
	var dates [2]clfDate // a parser's, kept from line to line
	for _, line := range clfCorpus(t) {
		for k, pair := range [][2]*Format{{Common, common}, {Combined, combined}} {
			for _, alias := range []bool{false, true} {
				var got, cached, want Record
				gotErr := pair[0].parse(line, &got, alias)
				cachedErr := pair[0].parseCached(line, &cached, alias, &dates[k])
				wantErr := pair[1].parse(line, &want, alias)
				for _, g := range []struct {
					rec Record
					err error
				}{{got, gotErr}, {cached, cachedErr}} {
					if (g.err == nil) != (wantErr == nil) || g.err != nil && g.err.Error() != wantErr.Error() || !sameRecord(g.rec, want) {
						t.Fatalf("%s %q:\n got %+v, %v\nwant %+v, %v", pair[0].name, line, g.rec, g.err, want, wantErr)
					}
				}
			}
			var rec Record
			if pair[0].parseCLF(line, &rec, false, nil) {
				fast++
			}
		}
	}
	t.Logf("parseCLF read %d of the lines", fast)
	if fast < 1000 {
		t.Errorf("parseCLF read %d lines of the corpus, want most of its plain ones", fast)
	}
}

// TestCLFDateKept: a time read with the date of the line before it is the
// time read afresh, whatever came between.
func TestCLFDateKept(t *testing.T) {
	times := []string{
		"10/Mar/2024:08:00:00 +0100", "10/Mar/2024:23:59:60 -1159", "10/Mar/2024:24:00:00 +0000",
		"10/Mar/2024:08:60:00 +0000", "10/Mar/2024:08:00:00 +2400", "10/Mar/2024:08:00:0x +0000",
		"29/Feb/2023:08:00:00 +0000", "10/Mar/2024:08:00:00 +0000", "29/Feb/2024:00:00:00 -0000",
		"29/Feb/2023:08:00:00 +0000", "10/mar/2024:08:00:00 +0000", "10/Mar/2024 08:00:00 +0000",
		"00/Mar/2024:08:00:00 +0000", "31/Apr/2024:08:00:00 +0000", "30/Apr/2024:08:00:00 +0000",
		"10/Mar/2024:08:00:00 +0000x", "10/Mar/0000:00:00:00 +0000", "10/Mar/2024:07:00:00 +0000",
	}
	var d clfDate
	for range 2 {
		for _, s := range times {
			got, gotOK := d.parse([]byte(s))
			want, wantOK := parseCLFTime([]byte(s))
			if gotOK != wantOK || !got.Equal(want) || got.Location() != want.Location() {
				t.Errorf("%q after the date %x: %v %v, want %v %v", s, d.lo, got, gotOK, want, wantOK)
			}
		}
	}
}

// splitRequestBefore is splitRequest as it was written with the strings
// package, for TestSplitRequestAgrees.
func splitRequestBefore(req string, rec *Record) {
	sp := strings.IndexByte(req, ' ')
	if sp <= 0 || !isToken(req[:sp]) || req[:sp] == "-" {
		return
	}
	rest := strings.TrimLeft(req[sp+1:], " ")
	if rest == "" {
		return
	}
	target, proto := rest, ""
	if j := strings.LastIndexByte(rest, ' '); j >= 0 && strings.HasPrefix(rest[j+1:], "HTTP/") {
		target, proto = strings.TrimRight(rest[:j], " "), rest[j+1:]
	}
	rec.Method, rec.Target, rec.Protocol = req[:sp], target, proto
}

// TestSplitRequestAgrees holds splitRequest to what it was, on requests
// made of the pieces that decide a split.
func TestSplitRequestAgrees(t *testing.T) {
	pieces := []string{"", " ", "  ", "GET", "-", "G\x16", "/a", "/a b", "HTTP/", " HTTP/", "HTTP/1.1", " HTTP/1.0", "HTTP", "x", "\t"}
	var reqs []string
	for _, a := range pieces {
		for _, b := range pieces {
			for _, c := range pieces {
				for _, d := range pieces {
					reqs = append(reqs, a+b+c+d)
				}
			}
		}
	}
	for _, l := range benchLines(200) {
		var rec Record
		if err := Combined.Parse(l, &rec); err == nil {
			reqs = append(reqs, rec.Request)
		}
	}
	for _, req := range reqs {
		var got, want Record
		splitRequest(req, &got)
		splitRequestBefore(req, &want)
		if !sameRecord(got, want) {
			t.Fatalf("%q: got %q %q %q, want %q %q %q", req, got.Method, got.Target, got.Protocol, want.Method, want.Target, want.Protocol)
		}
	}
}

// FuzzParseCLF: whatever the line, Common and Combined read it as
// parseFields alone does, with a parser's date kept from line to line.
func FuzzParseCLF(f *testing.F) {
	for _, l := range edgeSeedLines {
		f.Add([]byte(l))
	}
	for _, l := range benchLines(20) {
		f.Add(l)
	}
	common, combined := fieldsOnly()
	var dates clfDate
	f.Fuzz(func(t *testing.T, line []byte) {
		for _, pair := range [][2]*Format{{Common, common}, {Combined, combined}} {
			var got, want Record
			gotErr := pair[0].parseCached(line, &got, true, &dates)
			wantErr := pair[1].parse(line, &want, true)
			if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() || !sameRecord(got, want) {
				t.Fatalf("%s %q:\n got %+v, %v\nwant %+v, %v", pair[0].name, line, got, gotErr, want, wantErr)
			}
		}
	})
}
