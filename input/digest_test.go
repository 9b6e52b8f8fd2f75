package input

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestDigest: the fingerprint is of the content only, and is said only
// once the reader is done; a run interrupted part way has none.
func TestDigest(t *testing.T) {
	const log = "192.0.2.1 - - [10/Mar/2024:08:00:00 +0000] \"GET / HTTP/1.1\" 200 1 \"-\" \"curl/8\"\n"
	whole := func(r io.Reader) string {
		d := NewDigest(r)
		io.Copy(io.Discard, d)
		sum, _, ok := d.Sum()
		if !ok {
			t.Fatal("read to its end, and no fingerprint")
		}
		return sum
	}
	want := whole(strings.NewReader(log))
	for _, tc := range []struct {
		name string
		r    io.Reader
		read int // bytes to read; -1: to the end
		ok   bool
		same bool // the fingerprint is want
	}{
		{"one byte at a time", iotest.OneByteReader(strings.NewReader(log)), -1, true, true},
		{"another log", strings.NewReader(strings.Replace(log, "192.0.2.1", "192.0.2.2", 1)), -1, true, false},
		{"one byte more", strings.NewReader(log + "\n"), -1, true, false},
		{"cut short", strings.NewReader(log), 10, false, false},
		{"a read error", io.MultiReader(strings.NewReader(log), iotest.ErrReader(errors.New("corrupt"))), -1, true, true},
	} {
		d := NewDigest(tc.r)
		if tc.read < 0 {
			io.Copy(io.Discard, d)
		} else {
			io.ReadFull(d, make([]byte, tc.read))
		}
		sum, _, ok := d.Sum()
		if ok != tc.ok || ok && (sum == want) != tc.same {
			t.Errorf("%s: %s, done %v; want done %v, the same as the log's (%s) %v", tc.name, sum, ok, tc.ok, want, tc.same)
		}
	}
}
