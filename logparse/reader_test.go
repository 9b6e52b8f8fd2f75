package logparse

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/input"
)

// readAll reads r to the end, returning the records, the parse errors and
// the fatal error (nil at a clean io.EOF).
func readAll(r *Reader) (recs []Record, bad []*ParseError, fatal error) {
	for {
		var rec Record
		err := r.Read(&rec)
		var pe *ParseError
		switch {
		case err == nil:
			recs = append(recs, rec)
		case err == io.EOF:
			return recs, bad, nil
		case errors.As(err, &pe):
			bad = append(bad, pe)
		default:
			return recs, bad, err
		}
	}
}

// openFile opens a log file decompressed, as package input opens it for
// robowatch.
func openFile(name string) (io.ReadCloser, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	r, err := input.Decompress(f, name)
	if err != nil {
		f.Close()
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{r, f}, nil
}

// readFile opens name and reads it to the end with auto-detection.
func readFile(t *testing.T, name string) ([]Record, []*ParseError, error) {
	t.Helper()
	rc, err := openFile(name)
	if err != nil {
		return nil, nil, err
	}
	defer rc.Close()
	return readAll(NewReader(rc, name, nil))
}

func gzipBytes(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func combinedLine(ip, path, ua string) string {
	return fmt.Sprintf(`%s - - [20/May/2015:21:05:01 +0000] "GET %s HTTP/1.1" 200 1 "-" "%s"`, ip, path, ua)
}

func TestReaderLineEnds(t *testing.T) {
	a, b := combinedLine("192.0.2.1", "/a", "x"), combinedLine("192.0.2.2", "/b", "y")
	tests := []struct {
		name, input string
		records     int
		malformed   []int64 // line numbers
	}{
		{"LF", a + "\n" + b + "\n", 2, nil},
		{"CRLF", a + "\r\n" + b + "\r\n", 2, nil},
		{"no final newline", a + "\n" + b, 2, nil},
		{"blank lines are malformed, counted", a + "\n\n" + b + "\n\r\n", 2, []int64{2, 4}},
		{"byte order mark", "\xef\xbb\xbf" + a + "\n" + b + "\n", 2, nil},
		{"empty input", "", 0, nil},
		{"NUL bytes and invalid UTF-8", "\x00\x00\xff\n" + a + "\n", 1, []int64{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tt.input), "t.log", Combined)
			recs, bad, err := readAll(r)
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != tt.records {
				t.Errorf("%d records, want %d", len(recs), tt.records)
			}
			var lines []int64
			for _, e := range bad {
				lines = append(lines, e.Line)
				if e.File != "t.log" {
					t.Errorf("ParseError.File = %q", e.File)
				}
			}
			if fmt.Sprint(lines) != fmt.Sprint(tt.malformed) {
				t.Errorf("malformed lines %v, want %v", lines, tt.malformed)
			}
			if len(recs) > 0 && (recs[0].Client != "192.0.2.1" || recs[0].File != "t.log") {
				t.Errorf("first record %+v", recs[0])
			}
			st := r.Stats()
			if st.Records != int64(tt.records) || st.Malformed != int64(len(tt.malformed)) || st.Lines != st.Records+st.Malformed {
				t.Errorf("Stats %+v", st)
			}
		})
	}
}

func TestReaderLineNumbers(t *testing.T) {
	var in strings.Builder
	for i := 1; i <= 300; i++ {
		if i%7 == 0 {
			in.WriteString("garbage\n")
			continue
		}
		in.WriteString(combinedLine("192.0.2.1", fmt.Sprintf("/%d", i), "x") + "\n")
	}
	for _, f := range []*Format{nil, Combined} {
		recs, bad, err := readAll(NewReader(strings.NewReader(in.String()), "n.log", f))
		if err != nil {
			t.Fatal(err)
		}
		for _, rec := range recs {
			if rec.Target != fmt.Sprintf("/%d", rec.Line) {
				t.Fatalf("record at line %d has target %q", rec.Line, rec.Target)
			}
		}
		for _, e := range bad {
			if e.Line%7 != 0 {
				t.Fatalf("malformed line reported at %d", e.Line)
			}
		}
		if len(recs)+len(bad) != 300 || len(bad) != 42 {
			t.Errorf("format %v: %d records, %d malformed; want 258, 42", f, len(recs), len(bad))
		}
	}
}

func TestReaderLongLines(t *testing.T) {
	big := strings.Repeat("A", 5<<20) // a 5 MiB User-agent
	next := combinedLine("192.0.2.9", "/after", "x")
	input := combinedLine("192.0.2.1", "/", big) + "\n" + next + "\n"
	tests := []struct {
		name     string
		max      int
		wantUA   bool // the long line is a record
		wantNext bool
	}{
		{"over the default limit: malformed, skipped, reading goes on", 0, false, true},
		{"under a raised limit: a record", 8 << 20, true, true},
		{"limit below the bufio buffer", 100, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(input), "long.log", nil)
			r.MaxLineBytes = tt.max
			recs, bad, err := readAll(r)
			if err != nil {
				t.Fatal(err)
			}
			gotUA := len(recs) > 0 && recs[0].UserAgent == big
			if gotUA != tt.wantUA {
				t.Errorf("long line parsed = %v, want %v", gotUA, tt.wantUA)
			}
			if last := recs[len(recs)-1]; last.Target != "/after" || last.Line != 2 {
				t.Errorf("last record %q at line %d, want /after at 2", last.Target, last.Line)
			}
			if !tt.wantUA {
				if len(bad) != 1 || !errors.Is(bad[0], ErrLineTooLong) || bad[0].Line != 1 {
					t.Fatalf("malformed = %v, want one line too long at line 1", bad)
				}
				if txt := bad[0].Text; !strings.HasPrefix(txt, "192.0.2.1 - - [") || !strings.HasSuffix(txt, "AAAA...") || len(txt) > 2*MaxTextBytes {
					t.Errorf("Text = %q, want the start of the line, cut", txt)
				}
			}
		})
	}
}

// endless yields n bytes of 'a' and then a final "\n" and tail, without
// ever holding them.
type endless struct {
	n    int64
	tail string
}

func (e *endless) Read(p []byte) (int, error) {
	if e.n > 0 {
		k := min(int64(len(p)), e.n)
		for i := range p[:k] {
			p[i] = 'a'
		}
		e.n -= k
		return int(k), nil
	}
	if e.tail == "" {
		return 0, io.EOF
	}
	k := copy(p, e.tail)
	e.tail = e.tail[k:]
	return k, nil
}

// TestReaderLongLineMemory reads a 200 MiB line: memory must stay bounded
// by the line limit, not grow with the line.
func TestReaderLongLineMemory(t *testing.T) {
	src := &endless{n: 200 << 20, tail: "\n" + combinedLine("192.0.2.1", "/ok", "x") + "\n"}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	recs, bad, err := readAll(NewReader(src, "flood", Combined))
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || len(bad) != 1 || !errors.Is(bad[0], ErrLineTooLong) {
		t.Fatalf("%d records, malformed %v; want 1 record and 1 line too long", len(recs), bad)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Errorf("allocated %d MiB reading a 200 MiB line; want it bounded by the 1 MiB limit", alloc>>20)
	}
}

// failing returns data and then err.
type failing struct {
	data []byte
	err  error
}

func (f *failing) Read(p []byte) (int, error) {
	if len(f.data) == 0 {
		return 0, f.err
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

func TestReaderFatalError(t *testing.T) {
	ioErr := errors.New("disk on fire")
	// 50 lines: the error comes while auto-detection reads ahead, and must
	// still come after the records read before it.
	for _, n := range []int{50, 150} {
		var in strings.Builder
		for i := 0; i < n; i++ {
			in.WriteString(combinedLine("192.0.2.1", "/", "x") + "\n")
		}
		in.WriteString(`192.0.2.1 - - [20/May/2015:21:05:01 +0000] "GET /partial`) // cut mid-line
		for _, f := range []*Format{nil, Combined} {
			recs, bad, err := readAll(NewReader(&failing{data: []byte(in.String()), err: ioErr}, "x.log", f))
			if len(recs) != n || len(bad) != 0 {
				t.Errorf("%d lines, format %v: %d records, %d malformed; want %d, 0", n, f, len(recs), len(bad), n)
			}
			want := fmt.Sprintf("x.log: line %d: disk on fire", n+1)
			if !errors.Is(err, ioErr) || err.Error() != want {
				t.Errorf("err = %v, want %s", err, want)
			}
		}
	}
}

func TestReaderStatsTimes(t *testing.T) {
	lines := []string{
		`192.0.2.1 - - [20/May/2015:21:05:01 +0000] "GET / HTTP/1.1" 200 1`,
		`192.0.2.1 - - [20/May/2015:21:04:01 +0000] "GET / HTTP/1.1" 200 1`, // out of order
		`192.0.2.1 - - [20/May/2015:23:06:01 +0200] "GET / HTTP/1.1" 200 1`, // 21:06 UTC
		`192.0.2.1 - - [20/May/2015:21:05:30 +0000] "GET / HTTP/1.1" 200 1`,
		`broken`,
	}
	r := NewReader(strings.NewReader(strings.Join(lines, "\n")), "t", nil)
	if _, _, err := readAll(r); err != nil {
		t.Fatal(err)
	}
	st := r.Stats()
	if !st.First.Equal(time.Date(2015, 5, 20, 21, 4, 1, 0, time.UTC)) || !st.Last.Equal(time.Date(2015, 5, 20, 21, 6, 1, 0, time.UTC)) {
		t.Errorf("First, Last = %v, %v", st.First, st.Last)
	}
	if st.Format != "common" || r.Format() != Common {
		t.Errorf("Format = %q", st.Format)
	}
	if st.Lines != 5 || st.Records != 4 || st.Malformed != 1 || len(st.Samples) != 1 || st.Samples[0].Line != 5 {
		t.Errorf("Stats = %+v", st)
	}
}

func TestStatsMerge(t *testing.T) {
	t1 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var total Stats
	for i, s := range []Stats{
		{Format: "combined", Lines: 10, Records: 9, Malformed: 1, First: t1.Add(time.Hour), Last: t1.Add(2 * time.Hour),
			Samples: []*ParseError{{Line: 3, Err: ErrQuote}}},
		{Format: "common", Lines: 5, Records: 5, First: t1, Last: t1.Add(time.Minute)},
		{Format: "combined"},
		{Format: "combined", Lines: 20, Malformed: 20, Samples: make([]*ParseError, MaxSamples)},
	} {
		total.Merge(s)
		_ = i
	}
	if total.Lines != 35 || total.Records != 14 || total.Malformed != 21 {
		t.Errorf("counts %+v", total)
	}
	if !total.First.Equal(t1) || !total.Last.Equal(t1.Add(2*time.Hour)) {
		t.Errorf("span %v .. %v", total.First, total.Last)
	}
	if total.Format != "combined, common" {
		t.Errorf("Format = %q", total.Format)
	}
	if len(total.Samples) != MaxSamples || total.Samples[0].Line != 3 {
		t.Errorf("%d samples", len(total.Samples))
	}
}

func TestStatsKeepsFirstSamples(t *testing.T) {
	in := strings.Repeat("bad line\n", 25)
	r := NewReader(strings.NewReader(in), "bad", Combined)
	_, bad, err := readAll(r)
	if err != nil || len(bad) != 25 {
		t.Fatalf("%d malformed, err %v", len(bad), err)
	}
	st := r.Stats()
	if st.Malformed != 25 || len(st.Samples) != MaxSamples || st.Samples[MaxSamples-1].Line != MaxSamples {
		t.Errorf("Stats: %d malformed, %d samples", st.Malformed, len(st.Samples))
	}
}

// TestReaderStrict shows how a caller implements --strict: stop at the
// first *ParseError, which says where and why.
func TestReaderStrict(t *testing.T) {
	in := combinedLine("192.0.2.1", "/", "x") + "\n" + `192.0.2.1 - - [20/May/2015:21:05:01 +0000] "GET / HTTP/1.1" 200 1 "-" "no end` + "\n"
	r := NewReader(strings.NewReader(in), "s.log", Combined)
	var rec Record
	if err := r.Read(&rec); err != nil {
		t.Fatal(err)
	}
	err := r.Read(&rec)
	if err == nil || err.Error() != `s.log:2:71: missing closing quote in %{User-Agent}i: "192.0.2.1 - - [20/May/2015:21:05:01 +0000] "GET / HTTP/1.1" 200 1 "-" "no end"` {
		t.Errorf("err = %v", err)
	}
}

func TestDetect(t *testing.T) {
	comb := func(i int) string { return combinedLine(fmt.Sprintf("192.0.2.%d", i%250), "/", "ua") }
	tests := []struct {
		name  string
		lines func(i int) string
		n     int
		want  *Format
	}{
		{"combined", comb, 100, Combined},
		{"common", func(i int) string { return `host.example - - [01/Aug/1995:00:00:01 -0400] "GET / HTTP/1.0" 200 1` }, 100, Common},
		{"vhost_combined", func(i int) string { return "www.example.com:443 " + comb(i) }, 100, VHostCombined},
		{"combined whose first line lacks the user agent", func(i int) string {
			if i == 0 {
				return `192.0.2.1 - - [20/May/2015:21:05:01 +0000] "GET / HTTP/1.1" 200 1 "-"`
			}
			return comb(i)
		}, 100, Combined},
		{"combined, a few lines cut short", func(i int) string {
			if i%15 == 0 {
				return `192.0.2.1 - - [20/May/2015:21:05:01 +0000] "GET / HTTP/1.1" 200 1`
			}
			return comb(i)
		}, 100, Combined},
		{"combined with X-Forwarded-For appended", func(i int) string { return comb(i) + ` "203.0.113.1"` }, 100, CombinedXFF},
		{"combined with a list of hops or none", func(i int) string {
			return comb(i) + []string{` "-"`, ` "203.0.113.1, 10.0.0.7"`, ` "unknown, 198.51.100.2:4431"`}[i%3]
		}, 100, CombinedXFF},
		{"combined with the host appended: no X-Forwarded-For", func(i int) string { return comb(i) + ` "www.example.com"` }, 100, Combined},
		{"mostly common, a few combined", func(i int) string {
			if i%10 == 0 {
				return comb(i)
			}
			return `192.0.2.1 - - [20/May/2015:21:05:01 +0000] "GET / HTTP/1.1" 200 1`
		}, 100, Common},
		{"a single line", comb, 1, Combined},
		{"two lines, one cut short", func(i int) string {
			if i == 0 {
				return `192.0.2.1 - - [20/May/2015:21:05:01 +0000] "GET / HTTP/1.1" 200 1 "-" "no closing quote`
			}
			return comb(i)
		}, 2, Combined},
		{"two common lines", func(i int) string { return `h - - [01/Aug/1995:00:00:01 -0400] "GET / HTTP/1.0" 200 1` }, 2, Common},
		{"garbage", func(i int) string { return "not a log line" }, 10, Combined},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var lines [][]byte
			var in strings.Builder
			for i := 0; i < tt.n; i++ {
				lines = append(lines, []byte(tt.lines(i)))
				in.WriteString(tt.lines(i) + "\n")
			}
			if got := Detect(lines); got != tt.want {
				t.Errorf("Detect = %s, want %s", got, tt.want)
			}
			// The Reader detects the same and still returns every line.
			r := NewReader(strings.NewReader(in.String()), "d", nil)
			recs, bad, err := readAll(r)
			if err != nil {
				t.Fatal(err)
			}
			if r.Format() != tt.want || r.Stats().Format != tt.want.Name() {
				t.Errorf("Reader chose %s, want %s", r.Format(), tt.want)
			}
			if len(recs)+len(bad) != tt.n {
				t.Errorf("%d records + %d malformed, want %d lines", len(recs), len(bad), tt.n)
			}
		})
	}
}

// TestDetectLooksPastTheFirstLines: the sample is the first 100 non-empty
// lines, and lines after them are parsed with the format chosen.
func TestDetectLooksPastTheFirstLines(t *testing.T) {
	var in bytes.Buffer
	for i := 0; i < 30; i++ {
		in.WriteString("\n")
	}
	for i := 0; i < 1000; i++ {
		in.WriteString(combinedLine("192.0.2.1", fmt.Sprintf("/%d", i), "ua") + "\n")
	}
	r := NewReader(&in, "d", nil)
	recs, bad, err := readAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if r.Format() != Combined || len(recs) != 1000 || len(bad) != 30 {
		t.Errorf("format %s, %d records, %d malformed; want combined, 1000, 30", r.Format(), len(recs), len(bad))
	}
	if recs[999].Target != "/999" || recs[999].Line != 1030 {
		t.Errorf("last record %q at line %d", recs[999].Target, recs[999].Line)
	}
}
