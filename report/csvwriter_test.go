package report

import (
	"bytes"
	"encoding/csv"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestCSVWriter: records are written as encoding/csv writes them, but a
// field with a semicolon is quoted too, so that a spreadsheet that splits
// at semicolons keeps it one cell; encoding/csv reads every record back.
func TestCSVWriter(t *testing.T) {
	tests := []struct {
		fields []string
		want   string
	}{
		{[]string{"a", "b"}, "a,b\n"},
		{[]string{"", "x"}, ",x\n"},
		{[]string{"a,b", `say "hi"`}, "\"a,b\",\"say \"\"hi\"\"\"\n"},
		{[]string{"x;'=HYPERLINK(1)", "ok"}, "\"x;'=HYPERLINK(1)\",ok\n"},
		{[]string{"Mozilla/5.0 (compatible; Googlebot/2.1)"}, "\"Mozilla/5.0 (compatible; Googlebot/2.1)\"\n"},
		{[]string{" lead", "line\nend"}, "\" lead\",\"line\nend\"\n"},
		{[]string{`\.`}, "\"\\.\"\n"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		w := newCSVWriter(&b)
		w.Write(tt.fields)
		w.Flush()
		if b.String() != tt.want || w.Error() != nil {
			t.Errorf("%q: wrote %q (%v), want %q", tt.fields, b.String(), w.Error(), tt.want)
		}
	}
	// Random fields: without a semicolon, byte for byte encoding/csv's
	// output; with one, quoted; always read back as written.
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "ab ,;\"\r\n\t=é"
	for range 2000 {
		rec := make([]string, 1+rng.IntN(4))
		for i := range rec {
			var f strings.Builder
			for range rng.IntN(6) {
				f.WriteString(string([]rune(alphabet)[rng.IntN(len([]rune(alphabet)))]))
			}
			rec[i] = f.String()
		}
		var ours, std bytes.Buffer
		w := newCSVWriter(&ours)
		w.Write(rec)
		w.Flush()
		sw := csv.NewWriter(&std)
		sw.Write(rec)
		sw.Flush()
		if !strings.Contains(strings.Join(rec, ""), ";") && ours.String() != std.String() {
			t.Fatalf("%q: %q, encoding/csv %q", rec, ours.String(), std.String())
		}
		written := ours.String()
		if written == "\n" {
			continue // one empty field: an empty line, which readers skip (encoding/csv's too)
		}
		back, err := csv.NewReader(&ours).Read()
		if err != nil || len(back) != len(rec) {
			t.Fatalf("%q: read back %q, %v", rec, back, err)
		}
		for i := range rec {
			// encoding/csv's reader turns \r\n inside a quoted field into \n.
			if want := strings.ReplaceAll(rec[i], "\r\n", "\n"); back[i] != want {
				t.Fatalf("%q: read back %q", rec, back)
			}
			if strings.Contains(rec[i], ";") && !strings.Contains(written, `"`) {
				t.Fatalf("%q: a semicolon field unquoted: %q", rec, written)
			}
		}
	}
}
