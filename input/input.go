// Package input opens the logs robowatch reads: files, standard input,
// FIFOs and devices, compressed or not, in the order their times need.
//
// It knows bytes only, never log lines: what a file holds is logparse's
// business, which is why Order takes the peek at a file's first time as a
// function. Every source is opened here, so the questions a source raises
// (can it be read twice? may it block for ever? how big is it?) are
// answered once, by the file's mode.
package input

import (
	"context"
	"errors"
	"io"
	"os"
)

// Stdin is the name that stands for standard input, as on most command lines.
const Stdin = "-"

// Files is the list of inputs of one run. The zero value reads nothing;
// set Names (and Stdin, for "-") before the first Open.
type Files struct {
	Names []string  // paths, or Stdin for standard input
	Stdin io.Reader // what Stdin reads; nil: os.Stdin

	// Count, when set, is told the bytes read from each source as they
	// are read, before decompression: they compare with the files' sizes
	// (Size), for a progress line.
	Count func(n int64)

	// MaxSpool bounds what Spool keeps of each pipe; 0 is DefaultMaxSpool.
	MaxSpool int64

	spools    map[string]*spool // inputs kept by Spool, by name
	leftovers []string          // spool files the system would not unname while open
}

// Open opens one input for reading: decompressed by content (see
// Decompress), with reads that return as soon as ctx is done when the source
// is a pipe, a FIFO or a device, which may stay silent for ever. Errors name
// the file. The caller closes what it gets.
func (f *Files) Open(ctx context.Context, name string) (io.ReadCloser, error) {
	return f.open(ctx, name, nil)
}

// OpenLive is Open for a live run, which reads its inputs side by side:
// waiting is called each time a read from a pipe, a FIFO or a device finds
// no bytes come yet and is about to wait for them (the look at the first
// bytes for compression included), so that the other inputs are read
// meanwhile.
func (f *Files) OpenLive(ctx context.Context, name string, waiting func()) (io.ReadCloser, error) {
	return f.open(ctx, name, waiting)
}

func (f *Files) open(ctx context.Context, name string, waiting func()) (io.ReadCloser, error) {
	var raw io.Reader
	var closers []io.Closer
	switch sp := f.spools[name]; {
	case sp != nil:
		raw = io.NewSectionReader(sp.f, 0, sp.size)
	case name == Stdin:
		ir := interruptible(ctx, f.stdin(), waiting)
		raw, closers = ir, []io.Closer{ir}
	default:
		file, err := os.Open(name)
		if err != nil {
			return nil, err // *PathError names the file
		}
		if err := notDir(file, name); err != nil {
			file.Close()
			return nil, err
		}
		raw, closers = file, []io.Closer{file}
		if st, err := file.Stat(); err == nil && !st.Mode().IsRegular() {
			ir := interruptible(ctx, file, waiting)
			raw, closers = ir, []io.Closer{ir, file}
		}
	}
	if f.Count != nil {
		raw = &countingReader{r: raw, count: f.Count}
	}
	r, err := Decompress(raw, name)
	if err != nil {
		closeAll(closers)
		return nil, err
	}
	return &source{Reader: r, closers: closers}, nil
}

func (f *Files) stdin() io.Reader {
	if f.Stdin == nil {
		return os.Stdin
	}
	return f.Stdin
}

// Size is the total size of the inputs in bytes, for a progress line; 0
// when any of them is standard input or not a regular file, whose size is
// not known in advance.
func (f *Files) Size() int64 {
	var total int64
	for _, name := range f.Names {
		st, err := os.Stat(name)
		if name == Stdin || err != nil || !st.Mode().IsRegular() {
			return 0
		}
		total += st.Size()
	}
	return total
}

// Close releases what the Files made (Spool's temporary files). It can be
// called more than once.
func (f *Files) Close() error {
	var errs []error
	for _, sp := range f.spools {
		errs = append(errs, sp.f.Close())
	}
	for _, name := range f.leftovers {
		errs = append(errs, os.Remove(name))
	}
	f.spools, f.leftovers = nil, nil
	return errors.Join(errs...)
}

// regular reports whether name is a regular file now. The answer can
// change (logrotate), so callers use it for what may be tried, never for
// what must work.
func regular(name string) bool {
	st, err := os.Stat(name)
	return name != Stdin && err == nil && st.Mode().IsRegular()
}

// source is an opened input: the decompressed stream and what to close
// under it.
type source struct {
	io.Reader
	closers []io.Closer
}

func (s *source) Close() error { return closeAll(s.closers) }

func closeAll(cs []io.Closer) error {
	var errs []error
	for _, c := range cs {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

// countingReader tells count how many bytes pass through it.
type countingReader struct {
	r     io.Reader
	count func(int64)
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.count(int64(n))
	return n, err
}

// Regular reports whether name is a regular file, which can be read to its
// end at once, rather than standard input, a pipe or a device, which
// deliver their lines as they come.
func Regular(name string) bool {
	if name == Stdin {
		return false
	}
	st, err := os.Stat(name)
	return err == nil && st.Mode().IsRegular()
}
