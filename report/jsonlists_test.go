package report

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"iter"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/robowatch/robowatch/findings"
)

// writeListText is a whole writeSeq member written with renderers
// goroutines (1: on the caller's alone), and its error.
func writeListText[T any](renderers int, items iter.Seq[T], w *bytes.Buffer) error {
	defer func(f func() int) { listRenderers = f }(listRenderers)
	listRenderers = func() int { return renderers }
	j := &jsonStream{w: bufio.NewWriterSize(w, 64<<10)}
	writeSeq(j, "list", items)
	if j.err != nil {
		return j.err
	}
	return j.w.Flush()
}

// TestListsOnEveryCoreAsOnOne: a list rendered by several goroutines is
// byte for byte the list one goroutine writes, at every length around a
// chunk's, for rows written by hand (verdicts, networks) and by
// encoding/json (incidents).
func TestListsOnEveryCoreAsOnOne(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	at := time.Date(2024, 3, 10, 4, 29, 8, 0, time.UTC)
	var verdicts []findings.Verdict
	var nets []findings.NetworkSummary
	var incidents []findings.Incident
	for i := range 5*listChunkLen + 3 {
		verdicts = append(verdicts, findings.Verdict{IP: randomText(r), UserAgent: randomText(r), Name: randomText(r),
			Reasons: []string{randomText(r)}, Details: []string{}, Requests: r.Int64(), First: at, Last: at.Add(time.Duration(i) * time.Second)})
		if i%7 == 0 {
			verdicts[i].CrawlDelay = 1e22 // written with an exponent: encoding/json's row
		}
		nets = append(nets, findings.NetworkSummary{Network: randomText(r), Clients: i, Requests: r.Int64()})
		incidents = append(incidents, findings.Incident{IP: randomText(r), Start: at, End: at, Requests: int64(i), PerSecond: []int{i, 1}})
	}
	lengths := []int{0, 1, listChunkLen - 1, listChunkLen, listChunkLen + 1, 2 * listChunkLen, len(verdicts)}
	// check writes a list with write on one goroutine and on several.
	check := func(name string, n int, write func(renderers int, w *bytes.Buffer) error) {
		t.Helper()
		var a, b bytes.Buffer
		if err := write(1, &a); err != nil {
			t.Fatal(err)
		}
		for _, g := range []int{2, 3, 8} {
			b.Reset()
			if err := write(g, &b); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Errorf("%s, %d elements, %d renderers: not the one goroutine's %d bytes (%d)", name, n, g, a.Len(), b.Len())
			}
		}
	}
	for _, n := range lengths {
		v := func(g int, w *bytes.Buffer) error { return writeListText(g, slices.Values(verdicts[:n]), w) }
		check("verdicts", n, v)
		nw := func(g int, w *bytes.Buffer) error { return writeListText(g, slices.Values(nets[:n]), w) }
		check("networks", n, nw)
		in := func(g int, w *bytes.Buffer) error { return writeListText(g, slices.Values(incidents[:n]), w) }
		check("incidents", n, in)
	}
}

// shortWriter fails once it has taken n bytes.
type shortWriter struct{ n int }

var errShort = errors.New("disk full")

func (w *shortWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, errShort
	}
	w.n -= len(p)
	return len(p), nil
}

// TestListWriteErrorStopsTheList: a write that fails halfway through a
// long list is the list's error; the list is read no further than the
// chunks in flight, and no renderer is left behind.
func TestListWriteErrorStopsTheList(t *testing.T) {
	before := runtime.NumGoroutine()
	read := 0
	items := func(yield func(findings.NetworkSummary) bool) {
		for i := range 1000 * listChunkLen {
			read++
			if !yield(findings.NetworkSummary{Network: fmt.Sprintf("192.0.2.%d/32", i%256), Clients: i}) {
				return
			}
		}
	}
	defer func(f func() int) { listRenderers = f }(listRenderers)
	listRenderers = func() int { return 4 }
	j := &jsonStream{w: bufio.NewWriterSize(&shortWriter{n: 100 << 10}, 4<<10)}
	writeSeq(j, "networks", iter.Seq[findings.NetworkSummary](items))
	if !errors.Is(j.err, errShort) {
		t.Fatalf("error %v, want %v", j.err, errShort)
	}
	if most := (listDepth*4 + 2) * listChunkLen * 4; read > most {
		t.Errorf("read %d elements after the write failed, want at most %d", read, most)
	}
	for range 100 {
		if runtime.NumGoroutine() <= before {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("%d goroutines, %d before: renderers left behind", runtime.NumGoroutine(), before)
}

// lazyVerdicts is a clients list judged as it is read, into a verdict
// and reading ahead, as detect's is.
type lazyVerdicts []findings.Verdict

func (l lazyVerdicts) Len() int                               { return len(l) }
func (l lazyVerdicts) At(i int) findings.Verdict              { return l[i] }
func (l lazyVerdicts) Key(i int) (string, string)             { return l[i].IP, l[i].UserAgent }
func (l lazyVerdicts) VerdictInto(i int, v *findings.Verdict) { *v = l[i] }
func (l lazyVerdicts) ReadAhead(lo, hi int) int {
	if lo < 0 || hi > len(l) || lo >= hi || hi-lo > clientsReadAhead {
		panic(fmt.Sprintf("read ahead %d to %d of %d", lo, hi, len(l)))
	}
	return hi - lo
}

// TestClientsByIndexAsBySeq: a JSON report writes a lazy clients list by
// index, each client judged by the renderer that writes it; the report is
// byte for byte the one written from the list's verdicts in order, on one
// renderer and several, whole and cut by --top.
func TestClientsByIndexAsBySeq(t *testing.T) {
	defer func(f func() int) { listRenderers = f }(listRenderers)
	r := rand.New(rand.NewPCG(9, 10))
	at := time.Date(2024, 3, 10, 4, 29, 8, 0, time.UTC)
	var verdicts lazyVerdicts
	for i := range 4*listChunkLen + 5 {
		verdicts = append(verdicts, findings.Verdict{IP: randomText(r), UserAgent: randomText(r), Name: randomText(r),
			Reasons: []string{randomText(r)}, Details: []string{}, Requests: r.Int64(), First: at, Last: at.Add(time.Duration(i) * time.Second)})
	}
	l := findings.NewClientList(verdicts)
	for _, n := range []int{0, 1, clientsReadAhead + 1, listChunkLen + 1, len(verdicts)} {
		for _, g := range []int{1, 2, 8} {
			listRenderers = func() int { return g }
			var bySeq, byIndex bytes.Buffer
			out := &jsonReport{Clients: slices.Values(verdicts[:n]), Violations: &findings.ViolationList{}}
			if err := streamJSON(&bySeq, out); err != nil {
				t.Fatal(err)
			}
			out.clientList, out.clientsN = &l, n
			if err := streamJSON(&byIndex, out); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(bySeq.Bytes(), byIndex.Bytes()) {
				t.Fatalf("%d clients, %d renderers: by index\n%s\nwant\n%s", n, g, byIndex.Bytes(), bySeq.Bytes())
			}
		}
	}
}
