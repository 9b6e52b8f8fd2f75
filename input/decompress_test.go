package input_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robowatch/robowatch/input"
	"github.com/robowatch/robowatch/logparse"
)

// readAll reads r to the end, returning the records, the parse errors and
// the fatal error (nil at a clean io.EOF).
func readAll(r *logparse.Reader) (recs []logparse.Record, bad []*logparse.ParseError, fatal error) {
	for {
		var rec logparse.Record
		err := r.Read(&rec)
		var pe *logparse.ParseError
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

func combinedLine(ip, path, ua string) string {
	return fmt.Sprintf(`%s - - [20/May/2015:21:05:01 +0000] "GET %s HTTP/1.1" 200 1 "-" "%s"`, ip, path, ua)
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

func logLines(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		b.WriteString(combinedLine("192.0.2.1", fmt.Sprintf("/%d", i), "ua") + "\n")
	}
	return b.String()
}

// open opens name as robowatch does.
func open(name string) (io.ReadCloser, error) {
	return (&input.Files{}).Open(context.Background(), name)
}

// readFile opens name and reads it to the end with auto-detection.
func readFile(t *testing.T, name string) ([]logparse.Record, []*logparse.ParseError, error) {
	t.Helper()
	rc, err := open(name)
	if err != nil {
		return nil, nil, err
	}
	defer rc.Close()
	return readAll(logparse.NewReader(rc, name, nil))
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	plain := logLines(1, 500)
	one := gzipBytes(t, logLines(1, 200))
	two := gzipBytes(t, logLines(201, 500))
	files := []struct {
		name    string
		data    []byte
		records int
	}{
		{"plain.log", []byte(plain), 500},
		{"access.log.2.gz", append([]byte(nil), one...), 200},                   // gzip named .gz
		{"rotated.1", gzipBytes(t, plain), 500},                                 // gzip, no .gz in the name
		{"notreally.gz", []byte(plain), 500},                                    // .gz name, plain content
		{"multistream.gz", append(append([]byte(nil), one...), two...), 500},    // cat a.gz b.gz
		{"empty.log", nil, 0},                                                   // nothing at all
		{"empty.gz", gzipBytes(t, ""), 0},                                       // an empty gzip member
		{"crlf.gz", gzipBytes(t, strings.ReplaceAll(plain, "\n", "\r\n")), 500}, // CRLF inside gzip
	}
	for _, f := range files {
		t.Run(f.name, func(t *testing.T) {
			path := filepath.Join(dir, f.name)
			if err := os.WriteFile(path, f.data, 0o644); err != nil {
				t.Fatal(err)
			}
			recs, bad, err := readFile(t, path)
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != f.records || len(bad) != 0 {
				t.Fatalf("%d records, %d malformed; want %d, 0", len(recs), len(bad), f.records)
			}
			if f.records > 0 && (recs[f.records-1].Target != fmt.Sprintf("/%d", f.records) || recs[f.records-1].Line != int64(f.records)) {
				t.Errorf("last record %q at line %d", recs[f.records-1].Target, recs[f.records-1].Line)
			}
		})
	}
}

// TestOpenBzip2 reads a bzip2 file made with bzip2(1), recognised by its magic.
func TestOpenBzip2(t *testing.T) {
	plain, _, err := readFile(t, filepath.Join("..", "testdata", "logs", "nasa-11501-11600.log"))
	if err != nil {
		t.Fatal(err)
	}
	recs, bad, err := readFile(t, filepath.Join("..", "testdata", "logs", "nasa-11501-11600.log.bz2"))
	if err != nil || len(bad) != 0 || len(recs) != 100 {
		t.Fatalf("%d records, %d malformed, err %v; want 100, 0, nil", len(recs), len(bad), err)
	}
	for i := range recs {
		recs[i].File, plain[i].File = "", ""
		if recs[i] != plain[i] {
			t.Fatalf("line %d differs from the uncompressed file", i+1)
		}
	}
}

func TestOpenTruncatedGzip(t *testing.T) {
	full := gzipBytes(t, logLines(1, 5000))
	path := filepath.Join(t.TempDir(), "cut.log.gz")
	if err := os.WriteFile(path, full[:len(full)*2/3], 0o644); err != nil {
		t.Fatal(err)
	}
	recs, bad, err := readFile(t, path)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("err = %v, want unexpected EOF", err)
	}
	if len(recs) == 0 || len(bad) != 0 {
		t.Fatalf("%d records, %d malformed before the error; want the lines read so far", len(recs), len(bad))
	}
	want := fmt.Sprintf("%s: line %d: unexpected EOF", path, len(recs)+1)
	if err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
	// The records before the cut are whole and in order.
	for i, rec := range recs {
		if rec.Target != fmt.Sprintf("/%d", i+1) {
			t.Fatalf("record %d: target %q", i, rec.Target)
		}
	}
}

func TestOpenCorruptGzip(t *testing.T) {
	dir := t.TempDir()
	good := gzipBytes(t, logLines(1, 3000))
	flipped := append([]byte(nil), good...)
	flipped[len(flipped)-6] ^= 0xff // inside the CRC-32 trailer
	tests := []struct {
		name    string
		data    []byte
		openErr bool   // Open itself fails
		wantErr string // substring of the error
	}{
		{"bad header", []byte{0x1f, 0x8b, 0x99, 0x00, 0x00}, true, "gzip"},
		{"bad checksum", flipped, false, "checksum"},
		{"garbage after a member", append(append([]byte(nil), good...), "trailing junk"...), false, "gzip: invalid header"},
		{"zstd", []byte{0x28, 0xb5, 0x2f, 0xfd, 0, 0, 0}, true, "zstd-compressed input is not supported"},
		{"xz", []byte{0xfd, '7', 'z', 'X', 'Z', 0, 0}, true, "xz-compressed input is not supported"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-"))
			if err := os.WriteFile(path, tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			rc, err := open(path)
			if tt.openErr {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.HasPrefix(err.Error(), path+": ") {
					t.Fatalf("open = %v, want an error naming %s and containing %q", err, path, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			recs, _, err := readAll(logparse.NewReader(rc, path, nil))
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.HasPrefix(err.Error(), path+": line ") {
				t.Fatalf("read error = %v, want one naming %s, the line and %q", err, path, tt.wantErr)
			}
			if len(recs) == 0 {
				t.Errorf("no records before the error")
			}
		})
	}
}

func TestOpenMissingFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "nope.log")
	_, err := open(name)
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), name) {
		t.Errorf("open = %v, want not-exist naming the file", err)
	}
}

func TestOpenStdin(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	go func() {
		pw.Write(gzipBytes(t, logLines(1, 10)))
		pw.Close()
	}()
	rc, err := (&input.Files{Stdin: pr}).Open(context.Background(), "-")
	if err != nil {
		t.Fatal(err)
	}
	recs, bad, err := readAll(logparse.NewReader(rc, "-", nil))
	if err != nil || len(recs) != 10 || len(bad) != 0 || recs[0].File != "-" {
		t.Errorf("stdin: %d records, %d malformed, err %v", len(recs), len(bad), err)
	}
	if err := rc.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

func TestGzipTrailingZeros(t *testing.T) {
	a, b := gzipBytes(t, logLines(1, 300)), gzipBytes(t, logLines(301, 400))
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	zeros := func(n int) []byte { return make([]byte, n) }
	tests := []struct {
		name    string
		data    []byte
		records int    // read before the end or the error
		wantErr string // "" for a clean end
	}{
		{"one member, one zero", cat(a, zeros(1)), 300, ""},
		{"one member, a 512-byte block of zeros", cat(a, zeros(512)), 300, ""},
		{"two members, then zeros past the read buffer", cat(a, b, zeros(3*(64<<10)+7)), 400, ""},
		{"two members, no padding", cat(a, b), 400, ""},
		{"zeros then garbage", cat(a, zeros(100), []byte("junk")), 300, "trailing garbage"},
		{"zeros then another member", cat(a, zeros(10), b), 300, "trailing garbage"},
		{"garbage after a member", cat(a, []byte("junk")), 300, "gzip: invalid header"},
		{"half a header after a member", cat(a, []byte{0x1f}), 300, "gzip: next member: unexpected EOF"},
	}
	dir := t.TempDir()
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, fmt.Sprintf("access.log.%d.gz", i))
			if err := os.WriteFile(path, tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			recs, bad, err := readFile(t, path)
			if len(recs) != tt.records || len(bad) != 0 {
				t.Errorf("%d records, %d malformed; want %d, 0", len(recs), len(bad), tt.records)
			}
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("read error %v, want none", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.HasPrefix(err.Error(), path+": line ")):
				t.Errorf("read error %v, want one naming the file and line and containing %q", err, tt.wantErr)
			}
		})
	}
}
