package input

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// DefaultMaxSpool is how much of a pipe Spool keeps when Files.MaxSpool is
// 0: a day of a busy site's log, far less than a disk, and an end to a
// stream that never ends.
const DefaultMaxSpool = 8 << 30

// ErrSpoolFull is Spool's error for a pipe larger than the bound.
var ErrSpoolFull = errors.New("larger than the spool's bound")

// spool is a pipe's content kept in a temporary file that has no name: it
// is removed as soon as it is made, so that it goes with the process
// however the process ends (Ctrl-C, SIGTERM, SIGKILL, a crash).
type spool struct {
	f    *os.File
	size int64
	cut  bool // by an interrupt: what the pipe gave until then
}

// Spool keeps every input that cannot be read twice (standard input, a
// FIFO, a /dev/fd pipe from a shell's <(…), a device) in a temporary file,
// so that it can be: a time window counted back from the log's last record
// needs a first pass to find that record. At most MaxSpool bytes of each
// are kept; a longer one is an error wrapping ErrSpoolFull. An interrupt
// (ctx) ends the copy at once, even from a silent pipe, and returns ctx's
// error; what the pipe gave until then is kept all the same, for the
// partial report (see Kept), but for a last line the interrupt cut in two.
// Close releases the files.
func (f *Files) Spool(ctx context.Context) error {
	for _, name := range f.Names {
		if f.spools[name] != nil || (name != Stdin && regular(name)) {
			continue
		}
		if err := f.spool(ctx, name); err != nil {
			return err
		}
	}
	return nil
}

func (f *Files) spool(ctx context.Context, name string) error {
	what := name
	var src io.Reader
	if name == Stdin {
		what, src = "standard input", f.stdin()
	} else {
		file, err := os.Open(name)
		if err != nil || notDir(file, name) != nil {
			if file != nil {
				file.Close()
			}
			return nil // the read that counts reports it
		}
		defer file.Close()
		src = file
	}
	tmp, err := os.CreateTemp("", "robowatch-spool-*")
	if err != nil {
		return fmt.Errorf("keeping %s: %w", what, err)
	}
	// Unnamed at once where the system allows it (not on Windows, where
	// Close removes it).
	unlinked := os.Remove(tmp.Name()) == nil
	limit := f.MaxSpool
	if limit <= 0 {
		limit = DefaultMaxSpool
	}
	in := interruptible(ctx, src, nil)
	defer in.Close()
	lw := &lineEnds{w: tmp}
	n, err := io.Copy(lw, io.LimitReader(in, limit+1))
	cut := err != nil && ctx.Err() != nil
	if cut && !compressedStart(lw.start) {
		// A read interrupted mid-line leaves the line out: so does this
		// one. A compressed stream has no lines to cut at; it is kept
		// whole and ends where it was cut.
		n = lw.lastEnd
	}
	if err == nil && n > limit {
		err = fmt.Errorf("%w of %d bytes; give the log as a file, or --since as a time rather than a duration", ErrSpoolFull, limit)
	}
	if err != nil && !cut {
		tmp.Close()
		if !unlinked {
			os.Remove(tmp.Name())
		}
		return fmt.Errorf("keeping %s in a temporary file: %w", what, err)
	}
	if f.spools == nil {
		f.spools = map[string]*spool{}
	}
	f.spools[name] = &spool{f: tmp, size: n, cut: cut}
	if !unlinked {
		f.leftovers = append(f.leftovers, tmp.Name())
	}
	if cut {
		return fmt.Errorf("keeping %s in a temporary file: %w", what, ctx.Err())
	}
	return nil
}

// lineEnds is a writer that notes where the last line written ended, and
// the first bytes, to tell a compressed stream.
type lineEnds struct {
	w       io.Writer
	n       int64  // bytes written
	lastEnd int64  // the offset after the last '\n'
	start   []byte // the first 6 bytes
}

func (l *lineEnds) Write(b []byte) (int, error) {
	if k := 6 - len(l.start); k > 0 {
		l.start = append(l.start, b[:min(k, len(b))]...)
	}
	n, err := l.w.Write(b)
	if i := bytes.LastIndexByte(b[:n], '\n'); i >= 0 {
		l.lastEnd = l.n + int64(i) + 1
	}
	l.n += int64(n)
	return n, err
}

// Kept is the inputs kept by Spool, in the order of Names, those an
// interrupt cut included: after an interrupt in Last, the inputs whose
// bytes were read, which a partial report is of.
func (f *Files) Kept() []string {
	var kept []string
	for _, name := range f.Names {
		if f.spools[name] != nil {
			kept = append(kept, name)
		}
	}
	return kept
}

// Last returns the latest of last(r) over the inputs, each read from its
// start: the end that a duration such as --since 2h counts back from, which
// only a first pass can find. Inputs that cannot be read twice are spooled
// first, so that the read that counts finds them again. Inputs that cannot
// be opened are skipped: the read that counts reports them. No time in any
// input is an error. An interrupt (ctx) returns ctx's error with the latest
// time of the inputs Kept until then: the end a partial report of them
// counts back from.
func (f *Files) Last(ctx context.Context, last func(io.Reader) time.Time) (time.Time, error) {
	if err := f.Spool(ctx); err != nil {
		if ctx.Err() != nil {
			return f.lastKept(last), err
		}
		return time.Time{}, err
	}
	var latest time.Time
	var openErr error // the first, said when no input had a time: the reason why
	for _, name := range f.Names {
		if ctx.Err() != nil {
			return f.lastKept(last), ctx.Err()
		}
		r, err := f.Open(ctx, name)
		if err != nil {
			openErr = cmp.Or(openErr, err)
			continue
		}
		if t := last(r); t.After(latest) {
			latest = t
		}
		r.Close()
	}
	if latest.IsZero() && openErr != nil {
		return latest, openErr
	}
	if latest.IsZero() {
		return latest, errors.New("no record has a time")
	}
	return latest, nil
}

// lastKept is Last of the inputs Kept, after an interrupt: local files of
// what was read, which are read at once.
func (f *Files) lastKept(last func(io.Reader) time.Time) time.Time {
	var latest time.Time
	for _, name := range f.Kept() {
		sp := f.spools[name]
		r, err := Decompress(io.NewSectionReader(sp.f, 0, sp.size), name)
		if err != nil {
			continue
		}
		if t := last(r); t.After(latest) {
			latest = t
		}
	}
	return latest
}
