package detect

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"testing"
	"unsafe"

	"github.com/robowatch/robowatch/input"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/robots"
)

// TestAddKeepsNoViewOfTheRecord feeds the sample log twice: once as records
// of their own, once as records whose strings are views of one buffer that
// is overwritten after every Add, as logparse.ParallelReader.ReuseRecord
// does to the CLI's records. Anything Add keeps without copying it (a map
// key, a violation's path, a drill-down request) would come out scribbled.
func TestAddKeepsNoViewOfTheRecord(t *testing.T) {
	recs := readSample(t)
	rb := readRobots(t, "../testdata/sample.robots.txt")
	every := func(string) bool { return true }
	for _, cfg := range []Config{
		{Robots: rb, Watch: every},
		{Robots: rb, MaxClients: 20}, // eviction and folding too
	} {
		want := New(cfg)
		for i := range recs {
			want.Add(&recs[i])
		}
		got := New(cfg)
		buf := make([]byte, 0, 1<<20)
		for i := range recs {
			r := viewOf(&recs[i], &buf)
			got.Add(&r)
			for j := range buf {
				buf[j] = 'X'
			}
		}
		w, err := json.Marshal(want.Result())
		if err != nil {
			t.Fatal(err)
		}
		g, err := json.Marshal(got.Result())
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(w, g) {
			t.Errorf("MaxClients %d: the result changed when the record's memory was overwritten after Add", cfg.MaxClients)
		}
	}
}

// viewOf returns a copy of r whose strings are views of *buf, refilled.
func viewOf(r *logparse.Record, buf *[]byte) logparse.Record {
	out := *r
	fields := []*string{&out.Client, &out.Ident, &out.User, &out.Method, &out.Target, &out.Protocol,
		&out.Request, &out.Referer, &out.UserAgent, &out.VHost}
	b := (*buf)[:0]
	for _, f := range fields {
		b = append(b, *f...)
	}
	off := 0
	for _, f := range fields {
		if n := len(*f); n > 0 {
			*f = unsafe.String(&b[off], n)
			off += n
		}
	}
	*buf = b
	return out
}

// readRobots parses the robots.txt file name.
func readRobots(t *testing.T, name string) *robots.Robots {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rb, err := robots.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	return rb
}

// readSample returns the records of testdata/sample.log.gz.
func readSample(t *testing.T) []logparse.Record {
	t.Helper()
	f, err := os.Open("../testdata/sample.log.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := input.Decompress(f, "sample.log.gz")
	if err != nil {
		t.Fatal(err)
	}
	rd := logparse.NewReader(r, "sample.log.gz", nil)
	var recs []logparse.Record
	for {
		var rec logparse.Record
		err := rd.Read(&rec)
		if errors.Is(err, io.EOF) {
			break
		}
		var pe *logparse.ParseError
		if errors.As(err, &pe) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	if len(recs) < 1000 {
		t.Fatalf("sample log: %d records, want the whole log", len(recs))
	}
	return recs
}
