package logparse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// lineReader is what Reader and ParallelReader have in common.
type lineReader interface {
	Read(*Record) error
	Stats() Stats
	Format() *Format
}

// transcript is everything a caller sees reading an input to its end:
// each record or error in order, with the Stats after each, then the final
// error, format and Stats.
type transcript struct {
	steps  []string
	format string
	stats  Stats
}

func readTranscript(t *testing.T, rd lineReader, statsEvery int) transcript {
	t.Helper()
	var tr transcript
	var rec Record
	for i := 0; ; i++ {
		err := rd.Read(&rec)
		var step string
		switch {
		case err == nil:
			step = "record " + recordText(rec)
		case isParse(err):
			pe := err.(*ParseError)
			step = fmt.Sprintf("malformed %s:%d:%d %v (too long %t) %q", pe.File, pe.Line, pe.Column, pe.Err, errors.Is(err, ErrLineTooLong), pe.Text)
		default:
			step = fmt.Sprintf("end %v (EOF %t)", err, err == io.EOF)
		}
		if statsEvery > 0 && i%statsEvery == 0 {
			step += fmt.Sprintf(" stats %+v", rd.Stats())
		}
		tr.steps = append(tr.steps, step)
		if err != nil && !isParse(err) {
			break
		}
		if i > 1e7 {
			t.Fatal("no end after 10 million reads")
		}
	}
	if f := rd.Format(); f != nil {
		tr.format = f.Name()
	}
	tr.stats = rd.Stats()
	return tr
}

func isParse(err error) bool {
	var pe *ParseError
	return errors.As(err, &pe)
}

// parallelCase is one way to configure a ParallelReader: how it cuts and
// parses, and how the input arrives.
type parallelCase struct {
	block, workers int
	chunk          func(io.Reader) io.Reader
	reuse          bool // ReuseRecord: each record is compared before the next Read
	next           bool // read with Next, which returns records in place
}

// nextReader reads a ParallelReader with Next.
type nextReader struct{ *ParallelReader }

func (r nextReader) Read(rec *Record) error {
	got, err := r.Next()
	if err == nil {
		*rec = *got
	}
	return err
}

var parallelCases = []parallelCase{
	{0, 0, nil, false, false},
	{0, 1, iotest.HalfReader, false, false},
	{1, 2, nil, false, false},
	{7, 3, iotest.OneByteReader, true, false},
	{100, 2, iotest.DataErrReader, false, false},
	{4096, 4, nil, false, false},
	{0, 2, nil, true, false},
	{4096, 3, iotest.HalfReader, true, false},
	{0, 2, nil, true, true},
	{5, 1, iotest.OneByteReader, true, true},
}

// compareReaders reads data with a Reader and with ParallelReaders cut in
// every way of parallelCases, and fails on any difference a caller could see.
func compareReaders(t *testing.T, name string, data []byte, f *Format, maxLine int, readErr error) {
	t.Helper()
	input := func() io.Reader {
		var r io.Reader = bytes.NewReader(data)
		if readErr != nil {
			r = io.MultiReader(r, iotest.ErrReader(readErr))
		}
		return r
	}
	// Stats after every read would make large inputs quadratic.
	statsEvery := 1
	if len(data) > 16<<10 {
		statsEvery = 61
	}
	seq := NewReader(input(), name, f)
	seq.MaxLineBytes = maxLine
	want := readTranscript(t, seq, statsEvery)
	for _, c := range parallelCases {
		var in io.Reader = input()
		if c.chunk != nil {
			in = c.chunk(in)
		}
		par := NewParallelReader(in, name, f)
		par.MaxLineBytes, par.Workers, par.block, par.ReuseRecord = maxLine, c.workers, c.block, c.reuse
		var rd lineReader = par
		if c.next {
			rd = nextReader{par}
		}
		got := readTranscript(t, rd, statsEvery)
		par.Close()
		if got.format != want.format || fmt.Sprint(got.stats) != fmt.Sprint(want.stats) {
			t.Fatalf("%s (block %d, workers %d): format %q stats %+v; Reader: %q %+v",
				name, c.block, c.workers, got.format, got.stats, want.format, want.stats)
		}
		if len(got.steps) != len(want.steps) {
			t.Fatalf("%s (block %d, workers %d): %d reads, Reader %d", name, c.block, c.workers, len(got.steps), len(want.steps))
		}
		for i := range min(len(got.steps), len(want.steps)) {
			if got.steps[i] != want.steps[i] {
				t.Fatalf("%s (block %d, workers %d): read %d:\n got %.600s\nwant %.600s", name, c.block, c.workers, i+1, got.steps[i], want.steps[i])
			}
		}
	}
}

// TestParallelReaderTestdata compares the readers on every log in the
// repository's testdata, with format detection and with a format given.
func TestParallelReaderTestdata(t *testing.T) {
	var files []string
	for _, pattern := range []string{"../testdata/*.log*", "../testdata/*/*.log*", "../testdata/*/*/*.log*"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 5 {
		t.Fatalf("found only %d logs in ../testdata", len(files))
	}
	for _, file := range files {
		rc, err := openFile(file)
		if err != nil {
			t.Fatal(err)
		}
		data, rerr := io.ReadAll(rc)
		rc.Close()
		// A truncated .gz ends in an error: both readers must give it at
		// the same line, after the same records.
		compareReaders(t, file, data, nil, 0, rerr)
		if testing.Short() {
			continue // the detected format only: a third of the time
		}
		compareReaders(t, file, data, Combined, 0, rerr)
		compareReaders(t, file, data, Common, 200, rerr)
	}
}

// TestParallelReaderFuzzCorpus compares the readers on the lines of
// FuzzParseLine's corpus, one log of all of them in each of its formats.
func TestParallelReaderFuzzCorpus(t *testing.T) {
	dir := "testdata/fuzz/FuzzParseLine"
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var all [][]byte
	for _, e := range entries {
		text, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		line, ok := corpusBytes(text)
		if !ok {
			t.Fatalf("%s: no []byte value", e.Name())
		}
		all = append(all, line)
		compareReaders(t, e.Name(), line, nil, 0, nil)
	}
	for _, l := range edgeSeedLines {
		all = append(all, []byte(l))
	}
	log := bytes.Join(all, []byte("\n"))
	compareReaders(t, "corpus", log, nil, 0, nil)
	for _, f := range fuzzFormats {
		compareReaders(t, "corpus "+f.Name(), log, f, 0, nil)
		compareReaders(t, "corpus "+f.Name()+" max 40", log, f, 40, nil)
	}
}

// corpusBytes returns the []byte value of a "go test fuzz v1" file.
func corpusBytes(text []byte) ([]byte, bool) {
	for _, l := range strings.Split(string(text), "\n") {
		if v, ok := strings.CutPrefix(l, "[]byte("); ok {
			s, err := strconv.Unquote(strings.TrimSuffix(v, ")"))
			return []byte(s), err == nil
		}
	}
	return nil, false
}

// TestParallelReaderEdges compares the readers where cutting into blocks
// could go wrong: line ends, a byte order mark, lines at and over the
// limit (also longer than a block, and than Reader's buffer), and read
// errors in the middle of a line and of one over the limit.
func TestParallelReaderEdges(t *testing.T) {
	line := `1.2.3.4 - - [10/Mar/2024:13:55:36 +0100] "GET /a HTTP/1.1" 200 5 "-" "curl/8.0"`
	big := func(n int) string { // a Combined line of n bytes, line end excluded
		return `1.2.3.4 - - [10/Mar/2024:13:55:36 +0100] "GET /` + strings.Repeat("a", n-len(line)+1) + ` HTTP/1.1" 200 5 "-" "curl/8.0"`
	}
	many := strings.Repeat(line+"\n", 300)
	boom := errors.New("disk on fire")
	tests := []struct {
		name    string
		data    string
		max     int
		readErr error
	}{
		{"empty", "", 0, nil},
		{"one empty line", "\n", 0, nil},
		{"no line end", line, 0, nil},
		{"CRLF", line + "\r\n" + line + "\r\n", 0, nil},
		{"blank lines", "\n\n" + line + "\n\r\n\n", 0, nil},
		{"BOM", "\xef\xbb\xbf" + line + "\n" + line + "\n", 0, nil},
		{"BOM too long", "\xef\xbb\xbf" + big(300) + "\n" + line + "\n", 200, nil},
		{"at the limit", big(200) + "\n" + big(201) + "\n" + big(200) + "\r\n", 200, nil},
		{"CRs after the limit", big(200) + "\r\r\r\n" + line + "\n", 200, nil},
		{"long after detection", many + big(5000) + "\n" + many, 1000, nil},
		{"over 64 KiB with CRs", many + big(70000) + "\r\r\n" + big(70000) + "\r\n" + line + "\n", 70000, nil},
		{"longer than a block", many + big(3<<20) + "\n" + many + big(3<<20), 0, nil},
		{"within the limit, longer than a block", many + big(1<<20) + "\n" + many, 2 << 20, nil},
		{"error mid-line", many + line[:20], 0, boom},
		{"error after a line end", many, 0, boom},
		{"error in a long line", many + big(3<<20), 0, boom},
		{"error after a long line", many + big(3<<20) + "\n" + line, 0, boom},
		{"error in detection", line + "\n" + line[:10], 0, boom},
		{"garbage", strings.Repeat("\x00\xff junk \"\n", 500), 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			compareReaders(t, tt.name, []byte(tt.data), nil, tt.max, tt.readErr)
			compareReaders(t, tt.name+" (combined)", []byte(tt.data), Combined, tt.max, tt.readErr)
		})
	}
}

// TestParallelReaderClose stops reading early: Close ends the goroutines
// (a reader left with blocks in flight would leak them), and Read then says so.
func TestParallelReaderClose(t *testing.T) {
	line := `1.2.3.4 - - [10/Mar/2024:13:55:36 +0100] "GET /a HTTP/1.1" 200 5 "-" "curl/8.0"` + "\n"
	data := strings.Repeat(line, 50000)
	rd := NewParallelReader(strings.NewReader(data), "x", nil)
	rd.block = 4096
	var rec Record
	for range 1000 {
		if err := rd.Read(&rec); err != nil {
			t.Fatal(err)
		}
	}
	if rec.Line != 1000 {
		t.Errorf("record 1000 has line %d", rec.Line)
	}
	if s := rd.Stats(); s.Records != 1000 || s.Lines != 1000 {
		t.Errorf("stats after 1000 reads: %+v", s)
	}
	rd.Close()
	if err := rd.Read(&rec); !errors.Is(err, ErrReaderClosed) {
		t.Errorf("Read after Close: %v, want ErrReaderClosed", err)
	}
}

// BenchmarkParallelReaderCombined is BenchmarkReaderCombined with a
// ParallelReader: the same log, read with every core.
func BenchmarkParallelReaderCombined(b *testing.B) {
	benchmarkReader(b, func(r io.Reader) interface{ Read(*Record) error } { return NewParallelReader(r, "bench", nil) })
}

// BenchmarkParallelReaderReuse is BenchmarkParallelReaderCombined with
// ReuseRecord, as the CLI reads: no allocation per line.
func BenchmarkParallelReaderReuse(b *testing.B) {
	benchmarkReader(b, func(r io.Reader) interface{ Read(*Record) error } {
		p := NewParallelReader(r, "bench", nil)
		p.ReuseRecord = true
		return p
	})
}
