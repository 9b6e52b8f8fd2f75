package input

import (
	"context"
	"io"
	"sync"
	"sync/atomic"
)

// chunkSize is the size of each of the two buffers an interruptible reader
// hands over: io.Copy's.
const chunkSize = 32 << 10

// interruptible returns r, whose Read returns as soon as ctx is done (with
// ctx's error, once the bytes it took from r are returned), even while r
// itself blocks: a pipe or a terminal that stays
// silent must not keep Ctrl-C from printing the partial report. Reads are
// done by a goroutine that hands r's bytes over in chunks; it stays blocked
// in r until r returns, which costs nothing as the program ends. waiting,
// if set, is called each time Read is about to wait and r has no bytes to
// give (where unread can tell; else at each wait for a chunk): the moment
// a live run lets its other inputs be read, and not before, so that a
// pipe's backlog is read before the next input's.
// Close it when done. A nil ctx returns r as it is.
func interruptible(ctx context.Context, r io.Reader, waiting func()) io.ReadCloser {
	if ctx == nil || r == nil {
		return io.NopCloser(r)
	}
	ir := &interruptReader{ctx: ctx, src: r, waiting: waiting, chunks: make(chan chunk), free: make(chan []byte, 2), closed: make(chan struct{})}
	// Two buffers: the goroutine fills one while Read empties the other.
	ir.free <- make([]byte, chunkSize)
	ir.free <- make([]byte, chunkSize)
	go ir.copy(r)
	return ir
}

// chunk is what one Read of the source gave.
type chunk struct {
	b   []byte
	err error
}

type interruptReader struct {
	ctx     context.Context
	src     io.Reader
	waiting func()
	// handing counts the chunks the goroutine has taken from the source
	// (or is taking: bytes already in the pipe) and Read has not yet
	// received. A count, not a flag: Read's clearing a flag after taking
	// one chunk could erase the mark of the next, read meanwhile.
	handing atomic.Int32
	chunks  chan chunk    // from the goroutine
	free    chan []byte   // buffers Read is done with, back to the goroutine
	closed  chan struct{} // closed by Close
	once    sync.Once

	buf  []byte // the chunk being read, whole, to give back
	rest []byte // what Read has not returned of it
	err  error  // the source's error, once rest is returned; sticky
}

// copy is the goroutine: it reads r into the free buffers and hands them
// over until r fails or ends, ctx is done or the reader is closed.
func (r *interruptReader) copy(src io.Reader) {
	for {
		var buf []byte
		select {
		case buf = <-r.free:
		case <-r.closed:
			return
		case <-r.ctx.Done():
			return
		}
		// Bytes already in the pipe are as good as handed over: the read
		// takes them at once, and a Read that looked between the take and
		// the count would find the pipe empty and no chunk on its way, and
		// call waiting with the backlog still in this goroutine's hands.
		early := false
		if n, ok := unread(src); ok && n > 0 {
			r.handing.Add(1)
			early = true
		}
		n, err := src.Read(buf)
		if !early {
			r.handing.Add(1)
		}
		select {
		case r.chunks <- chunk{buf[:n], err}:
		case <-r.closed:
			return
		case <-r.ctx.Done():
			return
		}
		if err != nil {
			return
		}
	}
}

func (r *interruptReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, r.ctx.Err()
	}
	for {
		// What was read from the source before the interrupt is given:
		// it is in memory, and it was read.
		if len(r.rest) > 0 {
			n := copy(p, r.rest)
			r.rest = r.rest[n:]
			return n, nil
		}
		if r.err != nil {
			return 0, r.err
		}
		if err := r.ctx.Err(); err != nil {
			return 0, err // the rest of the stream is left unread, as the interrupt asks
		}
		if r.buf != nil {
			r.free <- r.buf[:cap(r.buf)] // never blocks: the buffer came from free
			r.buf = nil
		}
		var c chunk
		select {
		case c = <-r.chunks:
		default:
			if r.waiting != nil && r.starved() {
				r.waiting()
			}
			select {
			case c = <-r.chunks:
			case <-r.ctx.Done():
				return 0, r.ctx.Err()
			case <-r.closed:
				return 0, io.ErrClosedPipe
			}
		}
		// Counted down by the receiver, never by the goroutine after its
		// send: that could come after Read found nothing and took the
		// count for a chunk on its way, which would then never come.
		r.handing.Add(-1)
		r.buf, r.rest, r.err = c.b, c.b, c.err
	}
}

// starved reports whether the source has nothing to give now: no chunk on
// its way and no byte unread in the pipe. A wait that is not starved ends
// with a chunk, as the goroutine's read returns at once.
func (r *interruptReader) starved() bool {
	if r.handing.Load() > 0 {
		return false
	}
	n, ok := unread(r.src)
	return !ok || n == 0
}

// Close ends the copy when the reader stops early (a corrupt gzip stream,
// --strict): the goroutine returns before its next read.
func (r *interruptReader) Close() error {
	r.once.Do(func() { close(r.closed) })
	return nil
}
