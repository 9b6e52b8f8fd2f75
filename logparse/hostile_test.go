package logparse

import (
	"bytes"
	"errors"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Hostile input at the Reader (issue 7; the CLI side is in
// cli/main_hostile_test.go): big inputs are generated as streams, and memory is
// checked by the bytes allocated in all, which a held line or a held
// decompressed file would exceed many times over.

// byteStream streams n copies of one byte without holding them.
type byteStream struct {
	c byte
	n int64
}

func (r *byteStream) Read(b []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	k := int(min(int64(len(b)), r.n))
	for i := range b[:k] {
		b[i] = r.c
	}
	r.n -= int64(k)
	return k, nil
}

func totalAlloc() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

// readHostile reads every line of r, returning the Stats, the errors that are
// not ParseErrors, and the bytes allocated meanwhile.
func readHostile(r io.Reader, f *Format) (Stats, error, uint64) {
	before := totalAlloc()
	rd := NewReader(r, "hostile", f)
	var rec Record
	var err error
	for {
		err = rd.Read(&rec)
		var pe *ParseError
		if err != nil && !errors.As(err, &pe) {
			break
		}
	}
	if err == io.EOF {
		err = nil
	}
	return rd.Stats(), err, totalAlloc() - before
}

const goodLine = `192.0.2.1 - - [06/May/2024:09:00:00 +0000] "GET / HTTP/1.1" 200 512 "-" "Mozilla/5.0"` + "\n"

// TestHostileReaderLongLines: a 100 MiB line, at the start (format
// auto-detection), in the middle and at the end without a newline, is one
// malformed line with a cut, escaped sample; the Reader allocates a few MiB
// at most (bounded by MaxLineBytes), never the line.
func TestHostileReaderLongLines(t *testing.T) {
	const size = 100 << 20
	cases := []struct {
		name  string
		input func() io.Reader
		f     *Format
		lines int64
	}{
		{"first line, auto-detected", func() io.Reader {
			return io.MultiReader(&byteStream{'\x1b', size}, strings.NewReader("\n"+goodLine))
		}, nil, 2},
		{"middle", func() io.Reader {
			return io.MultiReader(strings.NewReader(goodLine), &byteStream{'a', size}, strings.NewReader("\n"+goodLine))
		}, Combined, 3},
		{"last, no newline", func() io.Reader {
			return io.MultiReader(strings.NewReader(goodLine), &byteStream{0, size})
		}, Combined, 2},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			st, err, alloc := readHostile(tt.input(), tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if st.Lines != tt.lines || st.Malformed != 1 || st.Records != tt.lines-1 {
				t.Errorf("Stats %+v, want %d lines, one malformed", st, tt.lines)
			}
			if len(st.Samples) != 1 || !errors.Is(st.Samples[0], ErrLineTooLong) || len(st.Samples[0].Text) > 4*MaxTextBytes+8 {
				t.Fatalf("samples %v, want one cut line too long", st.Samples)
			}
			if strings.ContainsAny(st.Samples[0].Text, "\x00\x1b") {
				t.Errorf("sample text not escaped: %q", st.Samples[0].Text)
			}
			// The Reader gathers up to MaxLineBytes (1 MiB) of a long line
			// before it gives up on it: a few MiB with append's growth.
			if alloc > 8<<20 {
				t.Errorf("allocated %d KiB for a %d MiB line", alloc>>10, size>>20)
			}
		})
	}
}

// TestHostileReaderFiles reads the hostile files of testdata/hostile: every
// line counted, NUL bytes and invalid UTF-8 kept in the fields as logged, a
// truncated gzip a fatal error naming the file and the line after the last
// whole one.
func TestHostileReaderFiles(t *testing.T) {
	cases := []struct {
		file                      string
		lines, records, malformed int64
		fatal                     string
	}{
		{"nul-bytes.log", 5, 4, 1, ""},
		{"invalid-utf8.log", 5, 4, 1, ""},
		{"binary-garbage.log", 76, 0, 76, ""}, // its lone CRs end lines too,
		{"mostly-malformed.log", 100, 10, 90, ""},
		{"terminal-escapes.log", 188, 186, 2, ""},
		{"truncated.log.gz", 977, 977, 0, "truncated.log.gz: line 978: unexpected EOF"},
	}
	for _, tt := range cases {
		t.Run(tt.file, func(t *testing.T) {
			f, err := openFile("../testdata/hostile/" + tt.file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			rd := NewReader(f, tt.file, nil)
			var rec Record
			var uas []string
			for {
				err = rd.Read(&rec)
				if err == nil {
					uas = append(uas, rec.UserAgent)
					continue
				}
				var pe *ParseError
				if !errors.As(err, &pe) {
					break
				}
			}
			if tt.fatal == "" && err != io.EOF || tt.fatal != "" && (err == nil || !strings.Contains(err.Error(), tt.fatal)) {
				t.Fatalf("end %v, want %q", err, tt.fatal)
			}
			st := rd.Stats()
			if st.Lines != tt.lines || st.Records != tt.records || st.Malformed != tt.malformed {
				t.Errorf("lines %d records %d malformed %d, want %d %d %d", st.Lines, st.Records, st.Malformed, tt.lines, tt.records, tt.malformed)
			}
			switch tt.file {
			case "nul-bytes.log":
				if len(uas) == 0 || uas[0] != "Nul\x00Bot/1.0" {
					t.Errorf("User-agents %q: the NUL was not kept", uas)
				}
			case "invalid-utf8.log":
				if len(uas) == 0 || uas[0] != "Bot\xff\xfe/1" {
					t.Errorf("User-agents %q: the bytes were not kept as logged", uas)
				}
			}
		})
	}
}

// TestHostileReaderGarbageSamples: whatever a binary file holds, the kept
// samples are short and escaped, so that printing them is safe.
func TestHostileReaderGarbageSamples(t *testing.T) {
	b, err := os.ReadFile("../testdata/hostile/binary-garbage.log")
	if err != nil {
		t.Fatal(err)
	}
	st, _, _ := readHostile(bytes.NewReader(b), nil)
	if len(st.Samples) != MaxSamples {
		t.Fatalf("%d samples, want %d", len(st.Samples), MaxSamples)
	}
	for _, s := range st.Samples {
		for _, c := range []byte(s.Text + s.Error()) {
			if c < 0x20 || c >= 0x7f {
				t.Fatalf("sample holds byte %#x: %q", c, s.Text)
			}
		}
	}
}

// TestHostileForwardedListError: an X-Forwarded-For list where the client
// goes, with no public hop, is malformed; the reason quoted the whole list
// (480 KB a line for 60,000 "unknown" entries, kept in the report's
// malformed samples) and left printable non-ASCII unescaped. It keeps
// MaxTextBytes of it, escaped, as ParseError.Text does.
func TestHostileForwardedListError(t *testing.T) {
	list := strings.Repeat("unknown,", 60000) + "\u202e\xc6\xa5"
	tail := ` - - [10/Mar/2024:00:00:01 +0000] "GET / HTTP/1.1" 200 1 "-" "ua"`
	for _, line := range []string{list + tail, "10.0.0.1,\u202e\xc6\xa5" + tail} {
		var rec Record
		err := Combined.Parse([]byte(line), &rec)
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("%.40q: %v, want a ParseError", line, err)
		}
		msg := pe.Err.Error()
		if len(msg) > 2*MaxTextBytes {
			t.Errorf("%.40q: a reason of %d bytes", line, len(msg))
		}
		for _, c := range []byte(msg) {
			if c < 0x20 || c >= 0x7f {
				t.Fatalf("reason holds byte %#x: %.200q", c, msg)
			}
		}
	}
}

// TestHostileZoneOffset: an offset of 24 hours or more (+9900) next to an
// epoch time (Apache's %{%s %z}t) or a %Z panicked: the epoch path takes
// no makeTime, which checks the offset, and zone's cache has a slot per
// minute of -23:59..+23:59 only. Such a line is malformed.
func TestHostileZoneOffset(t *testing.T) {
	for _, tc := range []struct{ format, line string }{
		{`%h [%{%s %z}t] "%r" %>s`, `192.0.2.1 [1700000000 +9900] "GET / HTTP/1.1" 200`},
		{`%h [%{%s %Z}t] "%r" %>s`, `192.0.2.1 [1700000000 +2400] "GET / HTTP/1.1" 200`},
		{`%h [%{%s %Z}t] "%r" %>s`, `192.0.2.1 [1700000000 +99] "GET / HTTP/1.1" 200`},
		{`%h %{%Z%s}t`, `192.0.2.1 +70000`},
	} {
		f, err := ParseApacheFormat(tc.format)
		if err != nil {
			t.Fatal(err)
		}
		var rec Record
		if err := f.Parse([]byte(tc.line), &rec); err == nil && !rec.Time.IsZero() {
			if _, off := rec.Time.Zone(); off >= 24*3600 || off <= -24*3600 {
				t.Errorf("%s: time %v", tc.line, rec.Time)
			}
		}
	}
}

// TestHostileJSONEscapes: a JSON string of half a million escapes, its
// closing quote at the end of a line just under MaxLineBytes, reads in one
// pass. Looking for the quote again at each backslash would scan the rest
// of the line each time: minutes, not the milliseconds this takes.
func TestHostileJSONEscapes(t *testing.T) {
	const n = 500_000
	line := `{"remote_addr":"192.0.2.1","request":"GET / HTTP/1.1","http_user_agent":"` + strings.Repeat(`\\`, n) + `","status":200}` + "\n"
	start := time.Now()
	recs, st := readText(t, line, JSONFormat)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("a line of %d escapes took %v", n, d)
	}
	if len(recs) != 1 || len(recs[0].UserAgent) != n || recs[0].Status != 200 {
		t.Fatalf("%d records, %v, want one with a User-agent of %d backslashes", len(recs), st.Samples, n)
	}
}
