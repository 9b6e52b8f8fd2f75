package input

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// tailRun reads a Tail in a goroutine, so that a test can write to the
// file and wait for what comes out.
type tailRun struct {
	t      *testing.T
	tail   *Tail
	mu     sync.Mutex
	text   strings.Builder
	events []string
	done   chan error
}

func startTail(t *testing.T, ctx context.Context, name string, poll time.Duration) *tailRun {
	t.Helper()
	r := &tailRun{t: t, done: make(chan error, 1)}
	tail, err := Follow(ctx, name, FollowOptions{Poll: poll, Notice: func(ev FollowEvent) {
		r.mu.Lock()
		r.events = append(r.events, ev.Kind)
		r.mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	r.tail = tail
	t.Cleanup(func() { tail.Close() })
	go func() {
		buf := make([]byte, 7) // small reads: lines cross them
		for {
			n, err := tail.Read(buf)
			r.mu.Lock()
			r.text.Write(buf[:n])
			r.mu.Unlock()
			if err != nil {
				r.done <- err
				return
			}
		}
	}()
	return r
}

// await waits until the text read so far is want. The ceiling is for a
// loaded machine (the race detector, other tests): a rotation alone waits
// for the old file's two-second quiet spell.
func (r *tailRun) await(want string) {
	r.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		r.mu.Lock()
		got := r.text.String()
		r.mu.Unlock()
		if got == want {
			return
		}
		if time.Now().After(deadline) || !strings.HasPrefix(want, got) {
			r.t.Fatalf("read %q, want %q (events %v)", got, want, r.kinds())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// awaitEvent waits until the reader has said kind.
func (r *tailRun) awaitEvent(kind string) {
	r.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !slices.Contains(r.kinds(), kind) {
		if time.Now().After(deadline) {
			r.t.Fatalf("no %s event within 30 s (events %v)", kind, r.kinds())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (r *tailRun) kinds() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.events...)
}

func write(t *testing.T, name, text string, flag int) {
	t.Helper()
	f, err := os.OpenFile(name, flag|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

func appendFile(t *testing.T, name, text string) { write(t, name, text, os.O_APPEND) }

// TestTail covers what tail -F must survive, one real-world case each.
func TestTail(t *testing.T) {
	tests := []struct {
		name   string
		poll   time.Duration
		run    func(t *testing.T, log string, r *tailRun)
		events []string
	}{
		{"append", 50 * time.Millisecond, func(t *testing.T, log string, r *tailRun) {
			r.await("one\n")
			appendFile(t, log, "two\nthree\n")
			r.await("one\ntwo\nthree\n")
		}, nil},
		{"inotify wakes the reader without polling", time.Hour, func(t *testing.T, log string, r *tailRun) {
			r.await("one\n")
			appendFile(t, log, "two\n")
			r.await("one\ntwo\n")
		}, nil},
		{"partial line is joined", 50 * time.Millisecond, func(t *testing.T, log string, r *tailRun) {
			appendFile(t, log, "ab")
			r.await("one\nab")
			time.Sleep(100 * time.Millisecond)
			appendFile(t, log, "cd\n")
			r.await("one\nabcd\n")
		}, nil},
		{"rename rotation", 50 * time.Millisecond, func(t *testing.T, log string, r *tailRun) {
			r.await("one\n")
			os.Rename(log, log+".1")
			appendFile(t, log+".1", "late to the old file\n")
			appendFile(t, log, "new\n")
			r.await("one\nlate to the old file\nnew\n")
		}, []string{FollowRotated}},
		{"rotation: the server writes to the old file after the new one appears", 50 * time.Millisecond, func(t *testing.T, log string, r *tailRun) {
			// logrotate renames and creates; nginx writes to the old file
			// until USR1 makes it reopen its log.
			r.await("one\n")
			os.Rename(log, log+".1")
			write(t, log, "", os.O_TRUNC)
			time.Sleep(300 * time.Millisecond)
			appendFile(t, log+".1", "old, after the create\n")
			time.Sleep(300 * time.Millisecond)
			appendFile(t, log, "new\n")
			r.await("one\nold, after the create\nnew\n")
		}, []string{FollowRotated}},
		{"rotation without polling: the quiet spell ends by itself", time.Hour, func(t *testing.T, log string, r *tailRun) {
			r.await("one\n")
			os.Rename(log, log+".1")
			appendFile(t, log, "new\n") // the last event: nothing wakes the reader after it
			r.await("one\nnew\n")
		}, []string{FollowRotated}},
		{"rotations faster than the quiet spell: none is skipped", 50 * time.Millisecond, func(t *testing.T, log string, r *tailRun) {
			// logrotate -f run three times within two seconds (by hand,
			// or a size trigger on a busy log), nginx reopening at each
			// USR1: the file between the first and the last was never
			// read (nginx + logrotate, rotation every 0.4 s: 1650 of 3000
			// requests counted).
			r.await("one\n")
			for _, text := range []string{"two\n", "three\n", "four\n"} {
				os.Rename(log+".2", log+".3")
				os.Rename(log+".1", log+".2")
				os.Rename(log, log+".1")
				appendFile(t, log, text)
				time.Sleep(300 * time.Millisecond) // the reader sees each new file
			}
			r.await("one\ntwo\nthree\nfour\n")
		}, []string{FollowRotated, FollowRotated, FollowRotated}},
		{"copytruncate", 50 * time.Millisecond, func(t *testing.T, log string, r *tailRun) {
			r.await("one\n")
			os.Truncate(log, 0)
			// The truncation is seen before the new line: "after\n" is
			// longer than "one\n", so once written the file no longer
			// looks truncated.
			r.awaitEvent(FollowTruncated)
			appendFile(t, log, "after\n")
			r.await("one\nafter\n")
		}, []string{FollowTruncated}},
		{"partial last line, then rotation", 50 * time.Millisecond, func(t *testing.T, log string, r *tailRun) {
			appendFile(t, log, "cut")
			r.await("one\ncut")
			os.Rename(log, log+".1")
			appendFile(t, log, "new\n")
			r.await("one\ncut\nnew\n")
		}, []string{FollowRotated}},
		{"removed, then back", 50 * time.Millisecond, func(t *testing.T, log string, r *tailRun) {
			r.await("one\n")
			os.Remove(log)
			r.awaitEvent(FollowRemoved)
			appendFile(t, log, "back\n")
			r.await("one\nback\n")
		}, []string{FollowRemoved, FollowReturned}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Most cases wait out a two-second quiet spell, each on a
			// file of its own: side by side they take a few seconds, not 15.
			t.Parallel()
			log := filepath.Join(t.TempDir(), "access.log")
			appendFile(t, log, "one\n")
			r := startTail(t, context.Background(), log, tt.poll)
			tt.run(t, log, r)
			if got := r.kinds(); strings.Join(got, ",") != strings.Join(tt.events, ",") {
				t.Errorf("events %v, want %v", got, tt.events)
			}
		})
	}
}

// TestTailPermissionDenied: a new file the reader may not open is said
// once, and read once it may.
func TestTailPermissionDenied(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads any file")
	}
	log := filepath.Join(t.TempDir(), "access.log")
	appendFile(t, log, "one\n")
	r := startTail(t, context.Background(), log, 50*time.Millisecond)
	r.await("one\n")
	// The new file is made unreadable before it takes the name: made and
	// then chmodded in place, it could be opened in between.
	staged := log + ".new"
	write(t, staged, "secret\n", os.O_TRUNC)
	os.Chmod(staged, 0)
	os.Rename(log, log+".1")
	os.Rename(staged, log)
	r.awaitEvent(FollowError)
	time.Sleep(200 * time.Millisecond) // several looks: still one event
	if got := r.kinds(); len(got) != 1 || got[0] != FollowError {
		t.Fatalf("events %v, want one error", got)
	}
	os.Chmod(log, 0o644)
	r.await("one\nsecret\n")
}

// TestTailRotationBurst: after several rotations in a row (logrotate -f
// run by hand in a loop, a size trigger on a busy log) the files left
// behind are read without waiting a quiet spell each: they were still
// long before the reader came to them. With a spell counted from the
// reader's last bytes, four rotations 0.3 s apart took about 8 s to read
// through (two seconds a file), and a live view fell behind.
func TestTailRotationBurst(t *testing.T) {
	t.Parallel() // waits out a quiet spell, like TestTail
	log := filepath.Join(t.TempDir(), "access.log")
	appendFile(t, log, "0\n")
	r := startTail(t, context.Background(), log, 50*time.Millisecond)
	r.await("0\n")
	start := time.Now()
	if err := rotateBurst(log); err != nil {
		t.Fatal(err)
	}
	r.await("0\n1\n2\n3\n4\n")
	// How long it took is BenchmarkTailRotationBurst's to measure (about
	// one spell now, a spell a file before): no wall-clock limit here.
	t.Logf("read through 4 rotations in %v", time.Since(start))
}

// TestTailEnds: a cancelled context and Close both end a waiting Read
// with io.EOF at once.
func TestTailEnds(t *testing.T) {
	for _, how := range []string{"cancel", "close"} {
		t.Run(how, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "access.log")
			appendFile(t, log, "one\n")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			r := startTail(t, ctx, log, time.Hour)
			r.await("one\n")
			if how == "cancel" {
				cancel()
			} else {
				r.tail.Close()
			}
			select {
			case err := <-r.done:
				if err != io.EOF {
					t.Errorf("Read returned %v, want io.EOF", err)
				}
			case <-time.After(10 * time.Second): // the poll is an hour
				t.Fatal("Read still waits")
			}
		})
	}
}

// TestTailEndsInLine: a Read after the context is done, in the middle of
// a line, returns the rest of that line if the file holds it, then
// io.EOF: a stop does not cut a line in two. An unfinished last line is
// returned as it is.
func TestTailEndsInLine(t *testing.T) {
	for _, tt := range []struct{ file, want string }{
		{"one\ntwo\nthree\n", "one\ntwo\n"},
		{"one\ntwo", "one\ntwo"},
		{"one\n", "one\n"},
	} {
		log := filepath.Join(t.TempDir(), "access.log")
		appendFile(t, log, tt.file)
		ctx, cancel := context.WithCancel(context.Background())
		tail, err := Follow(ctx, log, FollowOptions{Poll: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 6)
		n, _ := tail.Read(buf) // "one\ntw", or the whole short file
		cancel()
		got := string(buf[:n])
		for {
			n, err := tail.Read(buf)
			got += string(buf[:n])
			if err != nil {
				break
			}
		}
		if got != tt.want {
			t.Errorf("%q: read %q after the stop, want %q", tt.file, got, tt.want)
		}
		tail.Close()
	}
}

// TestTailEndsInRotation: a stop while a rotation waits for the old
// file's quiet spell reads what was written before it, in the old file
// and in the new one.
func TestTailEndsInRotation(t *testing.T) {
	log := filepath.Join(t.TempDir(), "access.log")
	appendFile(t, log, "one\n")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tail, err := Follow(ctx, log, FollowOptions{Poll: time.Hour, RotateGrace: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer tail.Close()
	buf := make([]byte, 64)
	n, _ := tail.Read(buf)
	got := string(buf[:n])
	if err := os.Rename(log, log+".1"); err != nil {
		t.Fatal(err)
	}
	appendFile(t, log, "three\n")
	appendFile(t, log+".1", "two") // the server had it open, and had not ended the line
	if !tail.look() || tail.next == nil {
		t.Fatal("the new file is not seen") // what a Read's wait would have found
	}
	cancel()
	for {
		n, err := tail.Read(buf)
		got += string(buf[:n])
		if err != nil {
			break
		}
	}
	if want := "one\ntwo\nthree\n"; got != want {
		t.Errorf("read %q, want %q", got, want)
	}
}

// TestTailMissing: a file that is not there at the start is an error
// naming it.
func TestTailMissing(t *testing.T) {
	name := filepath.Join(t.TempDir(), "nope.log")
	_, err := Follow(context.Background(), name, FollowOptions{})
	if err == nil || !strings.Contains(err.Error(), name) || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("error %v", err)
	}
}

// rotateBurst rotates log four times, 0.3 s apart, as logrotate does
// (access.log.1 to .2, …, access.log to .1, a new access.log), each new
// file holding the rotation's number on a line.
func rotateBurst(log string) error {
	for i := 1; i <= 4; i++ {
		for j := i - 1; j > 0; j-- {
			if err := os.Rename(fmt.Sprintf("%s.%d", log, j), fmt.Sprintf("%s.%d", log, j+1)); err != nil {
				return err
			}
		}
		if err := os.Rename(log, log+".1"); err != nil {
			return err
		}
		if err := os.WriteFile(log, []byte(fmt.Sprintf("%d\n", i)), 0o644); err != nil {
			return err
		}
		time.Sleep(300 * time.Millisecond)
	}
	return nil
}

// BenchmarkTailRotationBurst measures how long -F takes to read through
// four rotations 0.3 s apart (TestTailRotationBurst): about one quiet
// spell (2 s) after the first plus the 1.2 s of rotations now; a spell a
// file (8 s) when the spell counted from the reader's last bytes.
func BenchmarkTailRotationBurst(b *testing.B) {
	for b.Loop() {
		log := filepath.Join(b.TempDir(), "access.log")
		if err := os.WriteFile(log, []byte("0\n"), 0o644); err != nil {
			b.Fatal(err)
		}
		tail, err := Follow(context.Background(), log, FollowOptions{Poll: 50 * time.Millisecond})
		if err != nil {
			b.Fatal(err)
		}
		want := "0\n1\n2\n3\n4\n"
		done := make(chan error, 1)
		go func() {
			buf := make([]byte, len(want))
			_, err := io.ReadFull(tail, buf)
			if err == nil && string(buf) != want {
				err = fmt.Errorf("read %q, want %q", buf, want)
			}
			done <- err
		}()
		if err := rotateBurst(log); err != nil {
			b.Fatal(err)
		}
		if err := <-done; err != nil {
			b.Fatal(err)
		}
		tail.Close()
	}
}
