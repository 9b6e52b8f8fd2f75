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
// renderers write each chunk with the same code the one goroutine ran
// (row, else marshal) into the chunk's own buffer; the reader writes the
// buffers out in list order. So the bytes are the same, the list is read
// once and in order, and only a few chunks are held at a time.

// listChunkLen is the most elements of a chunk: few enough that the
// chunks in flight (listDepth a renderer) hold little (a clients row is
// about 900 bytes written, its verdict 488), many enough that handing a
// chunk over costs nothing next to rendering it.
const listChunkLen = 64

// listDepth is the chunks in flight per renderer.
const listDepth = 2

// listRenderers is how many goroutines render a list's chunks (tests set
// more).
var listRenderers = func() int { return runtime.GOMAXPROCS(0) }

// listChunk is up to listChunkLen consecutive elements of a list and, once
// rendered, their text with the separators before each.
type listChunk[T any] struct {
	items []T
	first bool // it holds the list's first element
	out   bytes.Buffer
	err   error
	done  chan struct{}
}

// render writes c's elements into c.out as writeSeq writes them, with rj,
// a renderer's own stream.
func (c *listChunk[T]) render(rj *jsonStream) {
	c.out.Reset()
	rj.w.Reset(&c.out)
	rj.err = nil
	for i := range c.items {
		if i == 0 && c.first {
			rj.raw("[\n")
		} else {
			rj.raw(",\n")
		}
		rj.raw("    ")
		if !rj.row(&c.items[i], "    ") {
			rj.marshal(&c.items[i], "    ")
		}
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

// writeSeqRows writes the elements of items as writeSeq does, after its key,
// rendered by renderers goroutines. It reports how many elements there
// were.
func writeSeqRows[T any](j *jsonStream, items iter.Seq[T], renderers int) int {
	work := make(chan *listChunk[T], listDepth*renderers)
	started := false
	start := func() {
		started = true
		for range renderers {
			go func() {
				rj := &jsonStream{w: bufio.NewWriterSize(io.Discard, 16<<10)}
				for c := range work {
					c.render(rj)
					c.done <- struct{}{}
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
		return &listChunk[T]{items: make([]T, 0, listChunkLen), done: make(chan struct{}, 1)}
	}
	n := 0
	cur := next()
	cur.first = true
	for v := range items {
		cur.items = append(cur.items, v)
		n++
		if len(cur.items) < listChunkLen {
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
		// A list shorter than a chunk: written here, as it always was.
		writeRowsHere(j, slices.Values(cur.items))
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

// writeRowsHere writes the elements of items as writeSeq does, after its
// key, on this goroutine. It reports how many elements there were.
func writeRowsHere[T any](j *jsonStream, items iter.Seq[T]) int {
	n := 0
	// One variable for every row: the row writers take a pointer, which made
	// each loop variable escape, a heap copy of every verdict.
	var cur T
	for v := range items {
		cur = v
		if n == 0 {
			j.raw("[\n")
		} else {
			j.raw(",\n")
		}
		n++
		j.raw("    ")
		if !j.row(&cur, "    ") {
			j.marshal(&cur, "    ")
		}
		if j.err != nil {
			break
		}
	}
	return n
}
