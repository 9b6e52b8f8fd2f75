package logparse

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestLineEnds: CR (old Mac), LF and CRLF all end lines, in both readers,
// also when a CR and its LF arrive in different reads or blocks; line
// numbers count each line end once.
func TestLineEnds(t *testing.T) {
	a, b, c := combinedLine("192.0.2.1", "/a", "x"), combinedLine("192.0.2.2", "/b", "y"), combinedLine("192.0.2.3", "/c", "z")
	tests := []struct {
		name    string
		text    string
		records int
		bad     int
	}{
		{"CR only", a + "\r" + b + "\r" + c + "\r", 3, 0},
		{"CR only, no final end", a + "\r" + b + "\r" + c, 3, 0},
		{"mixed CR, LF, CRLF", a + "\r" + b + "\n" + c + "\r\n", 3, 0},
		{"CR CR LF: an empty line between", a + "\r\r\n" + b + "\n", 2, 1},
		{"CR inside a quoted field ends the line", strings.Replace(a, `"x"`, "\"x\ry\"", 1) + "\n" + b + "\n", 1, 2},
	}
	for _, tt := range tests {
		for _, reader := range []string{"sequential", "parallel", "one byte at a time"} {
			t.Run(tt.name+"/"+reader, func(t *testing.T) {
				var src io.Reader = strings.NewReader(tt.text)
				if reader == "one byte at a time" {
					src = iotest.OneByteReader(src)
				}
				recs, bad := readWith(t, reader == "parallel", src)
				if len(recs) != tt.records || bad != tt.bad {
					t.Fatalf("%d records, %d malformed; want %d, %d", len(recs), bad, tt.records, tt.bad)
				}
				if tt.bad == 0 {
					for i, r := range recs {
						if r.Line != int64(i+1) || r.Target != "/"+string(rune('a'+i)) {
							t.Errorf("record %d: line %d target %q", i, r.Line, r.Target)
						}
					}
				}
			})
		}
	}

	// Many CR-only lines across the parallel reader's blocks.
	var big strings.Builder
	const n = 20000
	for i := 0; i < n; i++ {
		fmt.Fprintf(&big, "%s\r", combinedLine("192.0.2.1", fmt.Sprintf("/%d", i), "ua"))
	}
	for _, parallel := range []bool{false, true} {
		recs, bad := readWith(t, parallel, strings.NewReader(big.String()))
		if len(recs) != n || bad != 0 || recs[n-1].Line != n || recs[n-1].Target != fmt.Sprintf("/%d", n-1) {
			t.Errorf("parallel %v: %d records, %d malformed, last %+v", parallel, len(recs), bad, recs[len(recs)-1].Line)
		}
	}
}

func readWith(t *testing.T, parallel bool, src io.Reader) ([]Record, int) {
	t.Helper()
	var recs []Record
	bad := 0
	read := func(rd interface{ Read(*Record) error }) {
		for {
			var rec Record
			err := rd.Read(&rec)
			if err == io.EOF {
				return
			}
			if err != nil {
				var pe *ParseError
				if !asParseError(err, &pe) {
					t.Fatal(err)
				}
				bad++
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

func asParseError(err error, pe **ParseError) bool {
	e, ok := err.(*ParseError)
	*pe = e
	return ok
}

func TestLineEndsReader(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"a\rb", "a\nb"}, {"a\r\nb", "a\r\nb"}, {"a\r", "a\n"}, {"\r\r\n", "\n\r\n"}, {"", ""}, {"a\r\r", "a\n\n"},
	} {
		for _, one := range []bool{false, true} {
			var src io.Reader = strings.NewReader(tt.in)
			if one {
				src = iotest.OneByteReader(src)
			}
			got, err := io.ReadAll(&lineEnds{r: src})
			if err != nil || !bytes.Equal(got, []byte(tt.want)) {
				t.Errorf("%q (one byte %v): %q, %v; want %q", tt.in, one, got, err, tt.want)
			}
		}
	}
}
