package input

import (
	"context"
	"io"
)

// interruptible returns r, whose Read returns as soon as ctx is done (with
// ctx's error), even while r itself blocks: a pipe or a terminal that stays
// silent must not keep Ctrl-C from printing the partial report. Reads are
// done by a goroutine that copies r into a pipe; it stays blocked in r
// until r returns, which costs nothing as the program ends. Close it when
// done. A nil ctx returns r as it is.
func interruptible(ctx context.Context, r io.Reader) io.ReadCloser {
	if ctx == nil || r == nil {
		return io.NopCloser(r)
	}
	pr, pw := io.Pipe()
	go func() {
		_, err := io.Copy(pw, r)
		pw.CloseWithError(err) // nil: io.EOF for the reader
	}()
	stop := context.AfterFunc(ctx, func() { pr.CloseWithError(ctx.Err()) })
	return &interruptReader{ctx: ctx, pr: pr, stop: stop}
}

type interruptReader struct {
	ctx  context.Context
	pr   *io.PipeReader
	stop func() bool
}

func (r *interruptReader) Read(b []byte) (int, error) {
	n, err := r.pr.Read(b)
	if err != nil {
		r.stop()
		if r.ctx.Err() != nil {
			err = r.ctx.Err() // the pipe closed by the interrupt says only "closed pipe"
		}
	}
	return n, err
}

// Close ends the copy when the reader stops early (a corrupt gzip stream,
// --strict): the goroutine's next write fails and it returns.
func (r *interruptReader) Close() error {
	r.stop()
	return r.pr.Close()
}
