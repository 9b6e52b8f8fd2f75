package input

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// FollowOptions tunes Follow. The zero value works.
type FollowOptions struct {
	// Poll is how often the file is looked at when no notification came:
	// the kernel's (inotify, through fsnotify) wakes the reader at once,
	// but a network file system sends none, and a watcher may fail to
	// start. 0 means one second.
	Poll time.Duration

	// Notice, if set, is told what happened to the file, from the
	// goroutine calling Read.
	Notice func(FollowEvent)

	// Waiting, if set, is called each time Read is about to wait for the
	// file to grow: the caller's moment to flush what it has.
	Waiting func()

	// RotateGrace is how long the old file must have been quiet, after a
	// new one appeared under the name, before reading moves to the new
	// one: logrotate creates the new file before the server reopens its
	// log (nginx on USR1, Apache on a graceful restart), and the lines
	// written to the old one meanwhile must not be lost. 0 means two
	// seconds.
	RotateGrace time.Duration
}

// FollowEvent is something that happened to a followed file that a user
// should hear about.
type FollowEvent struct {
	Name string // the path followed
	Kind string // FollowRotated, FollowTruncated, FollowRemoved, FollowReturned or FollowError
	Err  error  // for FollowError: what failed
}

// The kinds of FollowEvent.
const (
	FollowRotated   = "rotated"   // the name is a new file: the old one was read to its end, the new one is read from its start
	FollowTruncated = "truncated" // the file shrank (copytruncate): read again from its start
	FollowRemoved   = "removed"   // the name is gone; the reader waits for it to come back
	FollowReturned  = "returned"  // a file is under the name again, read from its start
	FollowError     = "error"     // opening or reading failed; the reader goes on trying
)

// removedAfter is how long the name must be gone before FollowRemoved is
// said: a rotation's rename and create leave it gone for a moment.
const removedAfter = 2 * time.Second

// Tail reads a file as it is written, as tail -F does (see Follow). Read
// is for one goroutine; Close may come from another.
type Tail struct {
	name string
	base string
	opt  FollowOptions
	ctx  context.Context

	mu      sync.Mutex // held by Read; Close takes it to release the files
	f       *os.File
	off     int64     // bytes read from f
	next    *os.File  // the file now under the name, read once f is drained and quiet
	later   []pending // files that took the name after next, oldest first: each read after the one before
	quiet   time.Time // when f was last seen to grow (or next appeared), while next waits
	size    int64     // f's size then
	watcher *fsnotify.Watcher
	any     bool      // a byte was returned
	lastNL  bool      // the last byte returned was a line end
	addNL   bool      // return a line end before the next file's bytes
	removed bool      // FollowRemoved was said
	drain   bool      // stopped in a rotation's wait: the new file is read to its end
	missing time.Time // when the name was first found gone; zero while it is there
	lastErr string    // the last FollowError said, so that it is said once

	closeOnce sync.Once
	closed    chan struct{}
}

// pending is a file that took the name while an older one was still
// being drained, and when it was seen.
type pending struct {
	f  *os.File
	at time.Time
}

// Follow opens name and returns a reader of its bytes, from the start,
// that at the end waits for more instead of returning io.EOF: it goes on
// as the file grows, through logrotate's rename-and-create (the old file
// is read to its end, then the new one from its start) and copytruncate
// (read again from the top), and through the name's disappearance until a
// file comes back under it. A line the old file left unfinished is ended
// there, never glued to the new file's first line. Read returns io.EOF
// once ctx is done or Tail is closed. The error is for a file that cannot
// be opened at the start.
func Follow(ctx context.Context, name string, opt FollowOptions) (*Tail, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("following %w", err) // *PathError names the file
	}
	if err := notDir(f, name); err != nil {
		f.Close()
		return nil, err // says it all: "following DIR is a directory" would not
	}
	if opt.Poll <= 0 {
		opt.Poll = time.Second
	}
	if opt.RotateGrace <= 0 {
		opt.RotateGrace = 2 * time.Second
	}
	t := &Tail{name: name, base: filepath.Base(name), opt: opt, ctx: ctx, f: f, closed: make(chan struct{})}
	// The directory, not the file: a rename and a create happen to the
	// name, and a watch on the file would follow the old one away.
	if w, err := fsnotify.NewWatcher(); err == nil {
		if err := w.Add(filepath.Dir(name)); err == nil {
			t.watcher = w
		} else {
			w.Close() // polling alone, as on a file system without notifications
		}
	}
	return t, nil
}

// Read returns the next bytes written to the file, waiting for them.
func (t *Tail) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for {
		if t.done() {
			return t.atStop(p)
		}
		if t.addNL {
			t.addNL, t.lastNL = false, true
			p[0] = '\n'
			return 1, nil
		}
		n, err := t.f.Read(p)
		if n > 0 {
			t.off += int64(n)
			t.any, t.lastNL = true, p[n-1] == '\n'
			return n, nil
		}
		if err != nil && err != io.EOF {
			t.fail(fmt.Errorf("reading: %w", err))
		}
		if t.look() {
			continue
		}
		t.wait()
	}
}

// atStop is Read once the Tail is done: the rest of the line the
// bytes returned so far stopped in, if the file holds it, then io.EOF. A
// stop in the middle of a backlog must not cut its last line in two, one
// half a malformed line and the other never read.
//
// A stop in a rotation's wait for the old file's quiet spell reads the old
// file and then the new one to their present ends: their lines were
// written before the stop, and only the wait kept them from being read.
func (t *Tail) atStop(p []byte) (int, error) {
	if t.f == nil {
		return 0, io.EOF
	}
	if t.addNL {
		t.addNL, t.lastNL = false, true
		p[0] = '\n'
		return 1, nil
	}
	whole := t.next != nil || t.drain
	if !whole && (!t.any || t.lastNL) {
		return 0, io.EOF
	}
	n, _ := t.f.Read(p)
	if n == 0 && t.next != nil {
		t.rotate()
		t.drain = true
		return t.atStop(p)
	}
	if n == 0 {
		return 0, io.EOF // the file ends in an unfinished line: the reader takes it as the last
	}
	if i := bytes.IndexByte(p[:n], '\n'); i >= 0 && !whole {
		if _, err := t.f.Seek(int64(i+1-n), io.SeekCurrent); err == nil {
			n = i + 1
		}
	}
	t.off += int64(n)
	t.any, t.lastNL = true, p[n-1] == '\n'
	return n, nil
}

// look finds out, at the end of the open file, whether there is more to
// read: a truncated file read again, or the file now under the name.
func (t *Tail) look() bool {
	if t.next != nil {
		// Another rotation in the quiet spell: the file it left behind
		// is held open and read in its turn, not skipped.
		t.queueNewer()
		// The old file is drained until it has been quiet for a while:
		// the server writes to it until it reopens its log. Quiet is
		// the file not growing, not the reader having nothing left: a
		// file read late (one of several rotations) has long been still.
		if st, err := t.f.Stat(); err == nil && st.Size() != t.size {
			t.quiet, t.size = time.Now(), st.Size()
			return true
		}
		if time.Since(t.quiet) < t.opt.RotateGrace {
			return false
		}
		t.rotate()
		return true
	}
	cur, err := t.f.Stat()
	if err == nil && cur.Size() < t.off {
		if _, err := t.f.Seek(0, io.SeekStart); err != nil {
			t.fail(fmt.Errorf("reading again from the start: %w", err))
			return false
		}
		t.off = 0
		t.endLine()
		t.say(FollowEvent{Name: t.name, Kind: FollowTruncated})
		return true
	}
	now, err := os.Stat(t.name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// logrotate renames, then creates: for a moment the name is gone.
		// Only a name gone for longer is news.
		if t.missing.IsZero() {
			t.missing = time.Now()
		}
		if !t.removed && time.Since(t.missing) >= removedAfter {
			t.removed = true
			t.say(FollowEvent{Name: t.name, Kind: FollowRemoved})
		}
		return false
	case err != nil:
		t.fail(err)
		return false
	case cur != nil && os.SameFile(cur, now):
		t.missing = time.Time{}
		if t.removed { // renamed back
			t.removed = false
			t.say(FollowEvent{Name: t.name, Kind: FollowReturned})
		}
		return false
	}
	t.missing = time.Time{}
	nf, err := os.Open(t.name)
	if err != nil {
		t.fail(err) // permission denied after rotation: said once, tried again at every look
		return false
	}
	t.next, t.lastErr, t.quiet = nf, "", time.Now()
	if cur != nil {
		t.size = cur.Size()
	}
	return true
}

// queueNewer holds the file now under the name, if it is neither the one
// read nor one waiting to be.
func (t *Tail) queueNewer() {
	now, err := os.Stat(t.name)
	if err != nil {
		return // gone for a moment in a rename and create; a later look sees it
	}
	newest := t.next
	if n := len(t.later); n > 0 {
		newest = t.later[n-1].f
	}
	for _, f := range []*os.File{t.f, newest} {
		if st, err := f.Stat(); err == nil && os.SameFile(st, now) {
			return
		}
	}
	nf, err := os.Open(t.name)
	if err != nil {
		t.fail(err)
		return
	}
	t.later = append(t.later, pending{nf, time.Now()})
}

// rotate moves reading from the old file, drained, to the new one.
func (t *Tail) rotate() {
	t.f.Close()
	t.f, t.next, t.off = t.next, nil, 0
	if len(t.later) > 0 {
		// The new file has a successor already: its quiet spell counts
		// from when that one was seen.
		t.next, t.quiet = t.later[0].f, t.later[0].at
		t.later = t.later[1:]
		if st, err := t.f.Stat(); err == nil {
			t.size = st.Size()
		}
	}
	t.endLine()
	kind := FollowRotated
	if t.removed {
		kind = FollowReturned
	}
	t.removed = false
	t.say(FollowEvent{Name: t.name, Kind: kind})
}

// endLine ends a line the old content left unfinished.
func (t *Tail) endLine() {
	if t.any && !t.lastNL {
		t.addNL = true
	}
}

// wait blocks until the directory changes under the name, Poll passes, or
// the Tail is done. Never a busy loop: each look is paid for by an event
// or a tick.
func (t *Tail) wait() {
	if t.opt.Waiting != nil {
		t.opt.Waiting()
	}
	d := t.opt.Poll
	if t.next != nil {
		// A rotation waits for the old file's quiet spell, not a poll.
		d = min(d, max(t.opt.RotateGrace-time.Since(t.quiet), time.Millisecond))
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	var events <-chan fsnotify.Event
	var errs <-chan error
	if t.watcher != nil {
		events, errs = t.watcher.Events, t.watcher.Errors
	}
	for {
		select {
		case <-t.ctx.Done():
			return
		case <-t.closed:
			return
		case <-timer.C:
			return
		case ev, ok := <-events:
			if !ok {
				t.watcher, events, errs = nil, nil, nil // polling from now on
				continue
			}
			if filepath.Base(ev.Name) == t.base {
				return
			}
		case _, ok := <-errs:
			if !ok {
				t.watcher, events, errs = nil, nil, nil
			}
			// An overflowed queue loses events, not the file: the timer
			// still looks.
		}
	}
}

func (t *Tail) done() bool {
	select {
	case <-t.closed:
		return true
	case <-t.ctx.Done():
		return true
	default:
		return false
	}
}

func (t *Tail) say(ev FollowEvent) {
	if t.opt.Notice != nil {
		t.opt.Notice(ev)
	}
}

// fail says err once until it changes or the reader recovers.
func (t *Tail) fail(err error) {
	if msg := err.Error(); msg != t.lastErr {
		t.lastErr = msg
		t.say(FollowEvent{Name: t.name, Kind: FollowError, Err: err})
	}
}

// Close ends a waiting Read (it returns io.EOF) and releases the files
// and the watcher.
func (t *Tail) Close() error {
	t.closeOnce.Do(func() { close(t.closed) })
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.watcher != nil {
		t.watcher.Close()
		t.watcher = nil
	}
	if t.next != nil {
		t.next.Close()
		t.next = nil
	}
	for _, p := range t.later {
		p.f.Close()
	}
	t.later = nil
	if t.f != nil {
		err := t.f.Close()
		t.f = nil
		if err != nil && !errors.Is(err, os.ErrClosed) {
			return err
		}
	}
	return nil
}
