package logparse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"
)

// TestLineEnds: CR (old Mac), LF and CRLF all end lines, in both readers,
// also when a CR and its LF arrive in different reads or blocks; CR CR LF
// (a CRLF log converted to CRLF again) ends one line, as before CRs ended
// lines; line numbers count each line end once.
func TestLineEnds(t *testing.T) {
	a, b, c := combinedLine("192.0.2.1", "/a", "x"), combinedLine("192.0.2.2", "/b", "y"), combinedLine("192.0.2.3", "/c", "z")
	long := combinedLine("192.0.2.4", "/"+strings.Repeat("l", readBufferSize), "w")
	long = long[len(long)-(readBufferSize-1):] // not a log line: 64 KiB less one byte, which bufio's buffer holds with one byte to spare
	tests := []struct {
		name    string
		text    string
		records int
		bad     []int64 // the malformed lines' numbers
		first   int     // the first record's client, 192.0.2.first (0: 1)
	}{
		{"CR only", a + "\r" + b + "\r" + c + "\r", 3, nil, 0},
		{"CR only, no final end", a + "\r" + b + "\r" + c, 3, nil, 0},
		{"mixed CR, LF, CRLF", a + "\r" + b + "\n" + c + "\r\n", 3, nil, 0},
		{"CR CR LF ends one line", a + "\r\r\n" + b + "\r\r\n" + c + "\r\r\n", 3, nil, 0},
		{"mixed CR CR LF, CR, CRLF", a + "\r\r\n" + b + "\r" + c + "\r\n", 3, nil, 0},
		{"CR CR: an empty line between", a + "\r\r" + b + "\r\r" + c, 3, []int64{2, 4}, 0},
		{"CR CR CR LF: an empty line between", a + "\r\r\r\n" + b + "\n", 2, []int64{2}, 0},
		{"LF CR: an empty line between", a + "\n\r" + b + "\n", 2, []int64{2}, 0},
		{"CR inside a quoted field ends the line", strings.Replace(a, `"x"`, "\"x\ry\"", 1) + "\n" + b + "\n", 1, []int64{1, 2}, 2},
		{"CR after 64 KiB less one byte", long + "\r" + a + "\r" + b + "\r", 2, []int64{1}, 0},
		{"CRLF after 64 KiB less one byte", long + "\r\n" + a + "\r\n" + b + "\r\n", 2, []int64{1}, 0},
		{"CR CR LF after 64 KiB less two bytes", long[1:] + "\r\r\n" + a + "\r\r\n" + b, 2, []int64{1}, 0},
	}
	for _, tt := range tests {
		for _, reader := range []string{"sequential", "parallel", "one byte at a time"} {
			t.Run(tt.name+"/"+reader, func(t *testing.T) {
				var src io.Reader = strings.NewReader(tt.text)
				if reader == "one byte at a time" {
					src = iotest.OneByteReader(src)
				}
				recs, bad := readWith(t, reader == "parallel", src)
				if len(recs) != tt.records || fmt.Sprint(bad) != fmt.Sprint(tt.bad) {
					t.Fatalf("%d records, malformed lines %v; want %d, %v", len(recs), bad, tt.records, tt.bad)
				}
				// The records are a, b, c in order, on the lines between the malformed ones.
				no, first := int64(1), max(tt.first, 1)
				for i, r := range recs {
					for _, m := range tt.bad {
						if m == no {
							no++
						}
					}
					if r.Line != no || r.Client != fmt.Sprintf("192.0.2.%d", first+i) {
						t.Errorf("record %d: line %d client %q, want line %d", i, r.Line, r.Client, no)
					}
					no++
				}
			})
		}
		t.Run(tt.name+"/blocks", func(t *testing.T) {
			compareReaders(t, tt.name, []byte(tt.text), Combined, 0, nil)
		})
	}

	// Many lines across the parallel reader's blocks, each line end cut
	// from the next at every place a block can end.
	for _, end := range []string{"\r", "\r\n", "\r\r\n"} {
		var big strings.Builder
		const n = 20000
		for i := 0; i < n; i++ {
			fmt.Fprintf(&big, "%s%s", combinedLine("192.0.2.1", fmt.Sprintf("/%d", i), "ua"), end)
		}
		for _, parallel := range []bool{false, true} {
			recs, bad := readWith(t, parallel, strings.NewReader(big.String()))
			if len(recs) != n || len(bad) != 0 || recs[n-1].Line != n || recs[n-1].Target != fmt.Sprintf("/%d", n-1) {
				t.Errorf("%q, parallel %v: %d records, %d malformed lines (first %v), last on line %d", end, parallel, len(recs), len(bad), bad[:min(len(bad), 5)], recs[len(recs)-1].Line)
			}
		}
	}
}

// TestLineEndsAtTheLimit: the line end does not count against
// MaxLineBytes, whichever it is, also for a line longer than the Reader's
// buffer (which is judged as it streams by).
func TestLineEndsAtTheLimit(t *testing.T) {
	line := combinedLine("192.0.2.1", "/"+strings.Repeat("p", readBufferSize), "x")
	for _, end := range []string{"\n", "\r", "\r\n", "\r\r\n"} {
		for _, max := range []int{len(line), len(line) - 1} {
			for _, parallel := range []bool{false, true} {
				in := strings.NewReader(line + end + line + end)
				var rd interface{ Read(*Record) error }
				if parallel {
					pr := NewParallelReader(in, "x", Combined)
					pr.MaxLineBytes = max
					defer pr.Close()
					rd = pr
				} else {
					r := NewReader(in, "x", Combined)
					r.MaxLineBytes = max
					rd = r
				}
				records, tooLong := 0, 0
				for {
					var rec Record
					err := rd.Read(&rec)
					if err == io.EOF {
						break
					}
					switch {
					case err == nil:
						records++
					case errors.Is(err, ErrLineTooLong):
						tooLong++
					default:
						t.Fatalf("%q, limit %d, parallel %v: %v", end, max, parallel, err)
					}
				}
				if want := 2 * btoi(max == len(line)); records != want || tooLong != 2-want {
					t.Errorf("%q, line of %d bytes, limit %d, parallel %v: %d records, %d too long; want %d records",
						end, len(line), max, parallel, records, tooLong, want)
				}
			}
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// readWith reads src to its end with a Reader or a ParallelReader, and
// returns the records and the malformed lines' numbers.
func readWith(t *testing.T, parallel bool, src io.Reader) ([]Record, []int64) {
	t.Helper()
	var recs []Record
	var bad []int64
	read := func(rd interface{ Read(*Record) error }) {
		for {
			var rec Record
			err := rd.Read(&rec)
			if err == io.EOF {
				return
			}
			if err != nil {
				pe, ok := err.(*ParseError)
				if !ok {
					t.Fatal(err)
				}
				bad = append(bad, pe.Line)
				continue
			}
			recs = append(recs, rec)
		}
	}
	if parallel {
		pr := NewParallelReader(src, "x", Combined)
		defer pr.Close()
		read(pr)
	} else {
		read(NewReader(src, "x", Combined))
	}
	return recs, bad
}

// refLineEnds is lineEnds' rule applied to a whole input at once.
func refLineEnds(in string) string {
	b := []byte(in)
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] != '\r':
		case i+1 < len(b) && b[i+1] == '\n':
			i++
		case i+2 < len(b) && b[i+1] == '\r' && b[i+2] == '\n':
			i += 2
		default:
			b[i] = '\n'
		}
	}
	return string(b)
}

// smallReads reads r into buffers of 1 to 3 bytes, as bufio does when a
// long line leaves it little room: held CRs must then still make progress.
func smallReads(r io.Reader, rnd *rand.Rand) ([]byte, error) {
	var out []byte
	var buf [3]byte
	for empty := 0; empty < 10; {
		n, err := r.Read(buf[:1+rnd.IntN(3)])
		out = append(out, buf[:n]...)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		if n == 0 {
			empty++
		} else {
			empty = 0
		}
	}
	return out, io.ErrNoProgress
}

func TestLineEndsReader(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"a\rb", "a\nb"}, {"a\r\nb", "a\r\nb"}, {"a\r", "a\n"}, {"\r\r\n", "\r\r\n"}, {"", ""}, {"a\r\r", "a\n\n"},
		{"a\r\rb", "a\n\nb"}, {"a\r\r\r\nb", "a\n\r\r\nb"}, {"a\n\rb", "a\n\nb"}, {"\r", "\n"}, {"\r\r", "\n\n"},
		{"a\r\r\n\r\nb\r", "a\r\r\n\r\nb\n"},
	} {
		for _, chunk := range []string{"whole", "one byte", "half"} {
			var src io.Reader = strings.NewReader(tt.in)
			switch chunk {
			case "one byte":
				src = iotest.OneByteReader(src)
			case "half":
				src = iotest.HalfReader(src)
			}
			got, err := io.ReadAll(&lineEnds{r: src})
			if err != nil || !bytes.Equal(got, []byte(tt.want)) {
				t.Errorf("%q (%s reads): %q, %v; want %q", tt.in, chunk, got, err, tt.want)
			}
		}
	}

	// Random inputs of CRs, LFs and letters, read in reads of every size
	// from inputs cut in every way: the output is the rule's, whatever the cuts.
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		in := make([]byte, rnd.IntN(40))
		for i := range in {
			in[i] = "\r\r\n\nab"[rnd.IntN(6)]
		}
		var src io.Reader = bytes.NewReader(in)
		switch rnd.IntN(4) {
		case 1:
			src = iotest.OneByteReader(src)
		case 2:
			src = iotest.HalfReader(src)
		case 3:
			src = iotest.DataErrReader(src)
		}
		got, err := smallReads(&lineEnds{r: src}, rnd)
		if want := refLineEnds(string(in)); err != nil || string(got) != want {
			t.Fatalf("%q: %q, %v; want %q", in, got, err, want)
		}
	}
}

// BenchmarkReaderLineEnds is BenchmarkReaderCombined's log with each kind of
// line end: what turning CRs into line ends costs the Reader.
func BenchmarkReaderLineEnds(b *testing.B) {
	for _, end := range []struct{ name, s string }{{"LF", "\n"}, {"CRLF", "\r\n"}, {"CR", "\r"}, {"CRCRLF", "\r\r\n"}} {
		b.Run(end.name, func(b *testing.B) {
			lines := benchLines(20000)
			for i, l := range lines {
				lines[i] = append(bytes.TrimSuffix(l, []byte("\n")), end.s...)
			}
			data := bytes.Join(lines, nil)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var rec Record
			for b.Loop() {
				r := NewReader(bytes.NewReader(data), "bench", nil)
				n := 0
				for {
					err := r.Read(&rec)
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					n++
				}
				if n != len(lines) {
					b.Fatalf("read %d records, want %d", n, len(lines))
				}
			}
		})
	}
}
