package report

import (
	"bufio"
	"bytes"
	"io"
	"iter"
	"runtime"
	"slices"
)

// A report's long lists are rendered on every core. The JSON writer ran on
// one goroutine after the pass while the other core waited: on the
// million-line log 28-29 ms of a run's last 45 (the clients, violations and
// networks rows, 12.6 of its 18.8 MB), on the churn log most of its 269 MB.
// The goroutine that reads a list hands its elements over in chunks;
// renderers write each chunk with the same code the one goroutine runs
// (an elemFunc) into the chunk's own buffer; the reader writes the buffers
// out in list order. So the bytes are the same, the list is read once and
// in order, and only a few chunks are held at a time: on one core the
// elements are written one by one, never a whole list into one buffer (a
// pass's networks are 37 MB of text on the churn log).

// listChunkLen is the most elements of a chunk: few enough that the
// chunks in flight (listDepth a renderer) hold little (a clients row is
// about 900 bytes written, its verdict 488), many enough that handing a
// chunk over costs nothing next to rendering it.
const listChunkLen = 64

// networkChunkLen is listChunkLen for the networks list: a network's row
// is about 150 bytes written, a sixth of a client's, and in chunks of 64
// handing a chunk over cost more than rendering it: the churn log's
// 233,249 networks were written on 1.0-1.3 of two cores (perf samples by
// time), slower than on one. BenchmarkWriteNetworks, two cores: 34 -> 15
// ms with 1,024 (one core: 24 ms); chunks of 256 were halfway, of 4,096
// no faster.
const networkChunkLen = 1024

// listDepth is the chunks in flight per renderer.
const listDepth = 2

// listRenderers is how many goroutines render a list's chunks (tests set
// more): one a core, up to maxListRenderers.
var listRenderers = func() int { return min(runtime.GOMAXPROCS(0), maxListRenderers) }

// maxListRenderers bounds the renderers on a machine of many cores: past a
// few, the one goroutine that reads the list and writes the chunks out is
// what the list waits for, and each renderer holds listDepth chunks (about
// 90 kB each for clients rows).
const maxListRenderers = 8

// elemFunc writes element v of a list into j, at indent, after the
// separator and the indent writeElems wrote.
type elemFunc[T any] func(j *jsonStream, v *T, indent string)

// rowElem writes v as a row written by hand (row), else as encoding/json
// writes it.
func rowElem[T any](j *jsonStream, v *T, indent string) {
	if !j.row(v, indent) {
		j.marshal(v, indent)
	}
}

// listChunk is up to a chunk's length (listChunkLen) of consecutive
// elements of a list and, once rendered, their text with the separators
// before each.
type listChunk[T any] struct {
	items []T
	first bool // it holds the list's first element
	out   bytes.Buffer
	err   error
	done  chan struct{}
}

// render writes c's elements into c.out as writeElems writes them, with
// rj, a renderer's own stream.
func (c *listChunk[T]) render(rj *jsonStream, indent string, elem elemFunc[T]) {
	c.out.Reset()
	rj.w.Reset(&c.out)
	rj.err = nil
	for i := range c.items {
		writeElem(rj, &c.items[i], i == 0 && c.first, indent, elem)
		if rj.err != nil {
			break
		}
	}
	if rj.err == nil {
		rj.err = rj.w.Flush()
	}
	c.err = rj.err
	rj.w.Reset(io.Discard) // holds nothing of c past here
}

// writeElem writes v, the list's first element or not, with its separator
// and indent.
func writeElem[T any](j *jsonStream, v *T, first bool, indent string, elem elemFunc[T]) {
	if first {
		j.raw("[\n")
	} else {
		j.raw(",\n")
	}
	j.raw(indent)
	elem(j, v, indent)
}

// writeElems writes the elements of items as the members of a JSON list,
// each at indent: "[" and the elements, which the caller closes; nothing
// for none. It reports how many there were. The elements are rendered on
// every core (listRenderers) once there are more than a chunk's.
func writeElems[T any](j *jsonStream, items iter.Seq[T], indent string, elem elemFunc[T]) int {
	return writeElemsBy(j, items, indent, elem, listChunkLen)
}

// writeElemsBy is writeElems in chunks of chunk elements.
func writeElemsBy[T any](j *jsonStream, items iter.Seq[T], indent string, elem elemFunc[T], chunk int) int {
	renderers := listRenderers()
	if renderers < 2 {
		return writeElemsHere(j, items, indent, elem)
	}
	work := make(chan *listChunk[T], listDepth*renderers)
	started := false
	start := func() {
		started = true
		for range renderers {
			go func() {
				rj := &jsonStream{w: bufio.NewWriterSize(io.Discard, 16<<10)}
				for c := range work {
					c.render(rj, indent, elem)
					c.done <- struct{}{}
					// The goroutine that writes the chunks out, made
					// runnable by done, runs now: it waited for a
					// renderer's time slice to end, and the renderers,
					// their chunks in flight done, for it (an execution
					// trace of the churn log's report: each renderer
					// waiting 12-15 ms of its last 200; with this, 5-6).
					runtime.Gosched()
				}
			}()
		}
	}
	var pending, free []*listChunk[T] // pending: handed over, in list order
	// flush writes out the oldest pending chunk.
	flush := func() {
		c := pending[0]
		pending = pending[1:]
		<-c.done
		if j.err == nil {
			j.err = c.err
		}
		if j.err == nil {
			_, j.err = j.w.Write(c.out.Bytes())
		}
		clear(c.items) // let the elements' strings go
		c.items, c.first = c.items[:0], false
		free = append(free, c)
	}
	next := func() *listChunk[T] {
		if n := len(free); n > 0 {
			c := free[n-1]
			free = free[:n-1]
			return c
		}
		return &listChunk[T]{items: make([]T, 0, chunk), done: make(chan struct{}, 1)}
	}
	n := 0
	cur := next()
	cur.first = true
	for v := range items {
		cur.items = append(cur.items, v)
		n++
		if len(cur.items) < chunk {
			continue
		}
		if !started {
			start()
		}
		work <- cur
		pending = append(pending, cur)
		if len(pending) >= listDepth*renderers {
			flush()
		}
		if j.err != nil {
			break
		}
		cur = next()
	}
	switch {
	case !started:
		// A list shorter than a chunk: written here.
		writeElemsHere(j, slices.Values(cur.items), indent, elem)
	case len(cur.items) > 0 && j.err == nil:
		work <- cur
		pending = append(pending, cur)
	}
	for len(pending) > 0 {
		flush()
	}
	close(work)
	return n
}

// writeElemsHere is writeElems on this goroutine alone.
func writeElemsHere[T any](j *jsonStream, items iter.Seq[T], indent string, elem elemFunc[T]) int {
	n := 0
	// One variable for every element: the row writers take a pointer, which
	// made each loop variable escape, a heap copy of every verdict.
	var cur T
	for v := range items {
		cur = v
		writeElem(j, &cur, n == 0, indent, elem)
		n++
		if j.err != nil {
			break
		}
	}
	return n
}

// indexes yields 0 to n-1: a list that is read by index (NetworkList) as
// writeElems' items.
func indexes(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}
