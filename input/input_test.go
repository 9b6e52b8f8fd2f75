package input_test

import (
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/robowatch/robowatch/input"
	"github.com/robowatch/robowatch/logparse"
)

// byteStream streams n copies of one byte without holding them.
type byteStream struct {
	c byte
	n int64
}

func (r *byteStream) Read(b []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	k := int(min(int64(len(b)), r.n))
	for i := range b[:k] {
		b[i] = r.c
	}
	r.n -= int64(k)
	return k, nil
}

func totalAlloc() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

// TestGzipBomb decompresses a gzip stream of zeros (128 MiB, 16 MiB with
// -short or -race) made on the fly, from standard input as a pipe would
// bring it: read as a stream, one over-long line, bounded memory.
func TestGzipBomb(t *testing.T) {
	size := int64(128 << 20)
	if testing.Short() || raceEnabled {
		size = 16 << 20
	}
	pr, pw := io.Pipe()
	go func() {
		zw := gzip.NewWriter(pw)
		_, err := io.Copy(zw, &byteStream{0, size})
		if err == nil {
			err = zw.Close()
		}
		pw.CloseWithError(err)
	}()
	before := totalAlloc()
	r, err := (&input.Files{Stdin: pr}).Open(context.Background(), input.Stdin)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	recs, bad, err := readAll(logparse.NewReader(r, "bomb.gz", logparse.Combined))
	alloc := totalAlloc() - before
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 0 || len(bad) != 1 {
		t.Errorf("%d records, %d malformed; want one malformed line", len(recs), len(bad))
	}
	if alloc > 8<<20 {
		t.Errorf("allocated %d KiB (compressor included) for %d MiB of zeros", alloc>>10, size>>20)
	}
}

// TestOpenSilentPipe: standard input, or a FIFO, that stays open and
// silent gives up its read as soon as the context is done, so Ctrl-C is
// never held off by a stalled zcat.
func TestOpenSilentPipe(t *testing.T) {
	t.Run("stdin", func(t *testing.T) {
		pr, pw := io.Pipe()
		defer pw.Close()
		testSilent(t, &input.Files{Stdin: pr}, input.Stdin, func() { pw.Write([]byte("first line\n")) })
	})
	t.Run("fifo", func(t *testing.T) {
		fifo := filepath.Join(t.TempDir(), "live.log")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip("no FIFOs here:", err)
		}
		var w *os.File
		defer func() {
			if w != nil {
				w.Close()
			}
		}()
		go func() {
			var err error
			if w, err = os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
				w.Write([]byte("first line\n"))
			}
		}()
		testSilent(t, &input.Files{}, fifo, func() {})
	})
}

// TestOpenLiveWaitsAfterBacklog: a live run's pipe (tail -f of a log, a
// FIFO) lets the other inputs be read once it has nothing more to give,
// not before: waiting is called when every byte the pipe held (more than
// one of the reader's chunks) was read, and then the read waits for more.
func TestOpenLiveWaitsAfterBacklog(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only Linux tells what a pipe holds unread: elsewhere waiting may come early")
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close() // open and silent after the backlog
	backlog := strings.Repeat("192.0.2.1 - - [06/May/2024:09:00:00 +0000] \"GET / HTTP/1.1\" 200 512\n", 800)
	if _, err := io.WriteString(pw, backlog); err != nil { // within the pipe's 64 KiB
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var got int
	at := make(chan int, 1)
	waiting := func() {
		select {
		case at <- got:
		default:
		}
	}
	done := make(chan error, 1)
	go func() {
		r, err := (&input.Files{Stdin: pr}).OpenLive(ctx, input.Stdin, waiting)
		if err != nil {
			done <- err
			return
		}
		defer r.Close()
		buf := make([]byte, 4096)
		for {
			n, err := r.Read(buf)
			got += n
			if err != nil {
				done <- err
				return
			}
		}
	}()
	select {
	case n := <-at:
		if n != len(backlog) {
			t.Errorf("waiting called after %d bytes of the backlog's %d", n, len(backlog))
		}
	case err := <-done:
		t.Fatalf("the read ended before waiting: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("waiting not called on the silent pipe")
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("read after the interrupt: %v, want context.Canceled", err)
	}
}

func testSilent(t *testing.T, f *input.Files, name string, write func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	go write() // Open peeks at the first bytes for compression
	r, err := f.Open(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	buf := make([]byte, 64)
	if n, err := io.ReadAtLeast(r, buf, len("first line\n")); err != nil {
		t.Fatalf("read %d bytes: %v", n, err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := r.Read(buf)
		done <- err
	}()
	time.Sleep(20 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("read after the interrupt: %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the read still waits on the silent pipe after the interrupt")
	}
}

// firstWord is a stand-in for logparse.FirstTime: the time a file starts
// with, as "2006-01-02" on its first line.
func firstWord(r io.Reader) time.Time {
	b, _ := io.ReadAll(io.LimitReader(r, 10))
	t, _ := time.Parse("2006-01-02", string(b))
	return t
}

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		data := []byte(text)
		if strings.HasSuffix(name, ".gz") {
			data = gzipBytes(t, text)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestOrder: rotated files given newest first, as a shell expands
// access.log*, are read oldest first; compressed ones by their content.
// Files without a time, missing files and standard input keep their
// places.
func TestOrder(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"access.log":      "2024-03-03 x\n",
		"access.log.1":    "2024-03-02 x\n",
		"access.log.2.gz": "2024-03-01 x\n",
		"notes.txt":       "no time here\n",
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	tests := []struct {
		name      string
		in, want  []string
		reordered bool
	}{
		{"glob order", []string{"access.log", "access.log.1", "access.log.2.gz"}, []string{"access.log.2.gz", "access.log.1", "access.log"}, true},
		{"already in order", []string{"access.log.2.gz", "access.log.1", "access.log"}, []string{"access.log.2.gz", "access.log.1", "access.log"}, false},
		{"others keep their places", []string{"access.log", "notes.txt", "-", "gone.log", "access.log.1"}, []string{"access.log.1", "notes.txt", "-", "gone.log", "access.log"}, true},
		{"one file", []string{"access.log"}, []string{"access.log"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var names, want []string
			for i := range tt.in {
				names, want = append(names, p(tt.in[i])), append(want, p(tt.want[i]))
				if tt.in[i] == "-" {
					names[i] = "-"
				}
				if tt.want[i] == "-" {
					want[i] = "-"
				}
			}
			f := &input.Files{Names: names, Stdin: strings.NewReader("2020-01-01 stdin must not be read\n")}
			got := f.Order(context.Background(), firstWord)
			if got != tt.reordered || strings.Join(f.Names, " ") != strings.Join(want, " ") {
				t.Errorf("Order = %v, %q; want %v, %q", got, f.Names, tt.reordered, want)
			}
		})
	}
}

// lastDate is a stand-in for logparse.LastTime: the latest "2006-01-02"
// that starts a line.
func lastDate(r io.Reader) time.Time {
	b, _ := io.ReadAll(r)
	var last time.Time
	for _, line := range strings.Split(string(b), "\n") {
		if t, err := time.Parse("2006-01-02", line[:min(10, len(line))]); err == nil && t.After(last) {
			last = t
		}
	}
	return last
}

// TestLastSpools: a window counted back from the log's end reads every
// input twice; standard input, a FIFO and a shell's <(…) pipe are kept for
// the second read, which finds all of each, and the temporary files leave
// no name behind, whatever happens to the process.
func TestLastSpools(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dir := writeFiles(t, map[string]string{"a.log.gz": "2024-03-01 a\n2024-03-05 a\n"})
	stdin := "2024-03-04 s\n2024-03-02 s\n"
	fifoText := "2024-03-06 f\n"
	names := []string{filepath.Join(dir, "a.log.gz"), "-"}
	fifo := filepath.Join(dir, "live.log")
	if err := syscall.Mkfifo(fifo, 0o600); err == nil {
		names = append(names, fifo)
		go func() {
			if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
				w.Write(gzipBytes(t, fifoText))
				w.Close()
			}
		}()
	} else {
		fifoText = ""
	}
	f := &input.Files{Names: names, Stdin: strings.NewReader(stdin)}
	defer f.Close()
	last, err := f.Last(context.Background(), lastDate)
	want := "2024-03-06"
	if fifoText == "" {
		want = "2024-03-05"
	}
	if err != nil || last.Format("2006-01-02") != want {
		t.Fatalf("Last = %v, %v; want %s", last, err, want)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("the spool has a name while in use: %v", left)
	}
	for name, text := range map[string]string{"-": stdin, fifo: fifoText} {
		if text == "" {
			continue
		}
		for range 2 {
			r, err := f.Open(context.Background(), name)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := io.ReadAll(r)
			r.Close()
			if string(again) != text {
				t.Errorf("%s read again: %q, want %q", name, again, text)
			}
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

	none := &input.Files{Names: []string{"-"}, Stdin: strings.NewReader("no time\n")}
	defer none.Close()
	if _, err := none.Last(context.Background(), lastDate); err == nil || !strings.Contains(err.Error(), "no record has a time") {
		t.Errorf("Last on input without times: %v, want an error saying so", err)
	}
}

// TestSpoolBound: a pipe longer than the bound is an error saying what to
// do instead, not a full disk.
func TestSpoolBound(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	f := &input.Files{Names: []string{"-"}, Stdin: &byteStream{'x', 1 << 20}, MaxSpool: 64 << 10}
	defer f.Close()
	err := f.Spool(context.Background())
	if !errors.Is(err, input.ErrSpoolFull) || !strings.Contains(err.Error(), "standard input") || !strings.Contains(err.Error(), "--since as a time") {
		t.Errorf("Spool = %v, want ErrSpoolFull naming standard input and saying what to do", err)
	}
	exact := &input.Files{Names: []string{"-"}, Stdin: &byteStream{'x', 64 << 10}, MaxSpool: 64 << 10}
	defer exact.Close()
	if err := exact.Spool(context.Background()); err != nil {
		t.Errorf("Spool of exactly the bound: %v", err)
	}
}

// TestSpoolInterrupted: keeping a silent pipe stops at the interrupt, and
// what it gave until then is kept for the partial report (Kept, and Last
// counting back from its last line), but for the line the interrupt cut in
// two, which a read interrupted mid-line leaves out too.
func TestSpoolInterrupted(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	tests := []struct {
		name, gave, kept string
		last             string
	}{
		{"whole lines", "2024-03-01 x\n2024-03-02 y\n", "2024-03-01 x\n2024-03-02 y\n", "2024-03-02"},
		{"a line cut", "2024-03-01 x\n2024-03-02 y\n2024-03-03 ha", "2024-03-01 x\n2024-03-02 y\n", "2024-03-02"},
		{"nothing yet", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			src := &silentAfter{text: tt.gave, taken: make(chan struct{}), end: make(chan struct{})}
			defer close(src.end)
			f := &input.Files{Names: []string{"-"}, Stdin: src}
			defer f.Close()
			type result struct {
				last time.Time
				err  error
			}
			done := make(chan result, 1)
			go func() {
				last, err := f.Last(ctx, lastDate)
				done <- result{last, err}
			}()
			<-src.taken // the text was handed over; the pipe is silent
			cancel()
			var res result
			select {
			case res = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("Last still copies the silent pipe after the interrupt")
			}
			if !errors.Is(res.err, context.Canceled) {
				t.Errorf("Last = %v, want context.Canceled", res.err)
			}
			if got := res.last; tt.last == "" && !got.IsZero() || tt.last != "" && got.Format("2006-01-02") != tt.last {
				t.Errorf("Last = %v, want %q", got, tt.last)
			}
			if kept := f.Kept(); len(kept) != 1 || kept[0] != "-" {
				t.Fatalf("Kept = %q, want standard input", kept)
			}
			r, err := f.Open(context.Background(), "-")
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if got, err := io.ReadAll(r); err != nil || string(got) != tt.kept {
				t.Errorf("kept %q (%v), want %q", got, err, tt.kept)
			}
		})
	}
}

// silentAfter gives text, then says so (taken) at the next read and stays
// silent until end: a pipe whose writer went quiet. The second read means
// the first one's bytes were handed over.
type silentAfter struct {
	text       string
	given      bool
	said       sync.Once
	taken, end chan struct{}
}

func (s *silentAfter) Read(p []byte) (int, error) {
	if !s.given {
		s.given = true
		if s.text != "" {
			return copy(p, s.text), nil
		}
	}
	s.said.Do(func() { close(s.taken) })
	<-s.end
	return 0, io.EOF
}

// TestSizeAndCount: Size is the files' bytes on disk (0 when standard
// input is among them), and Count sees the same bytes, compressed, as they
// are read: what a progress line compares.
func TestSizeAndCount(t *testing.T) {
	dir := writeFiles(t, map[string]string{"a.log": strings.Repeat("line\n", 1000), "b.log.gz": strings.Repeat("line\n", 1000)})
	names := []string{filepath.Join(dir, "a.log"), filepath.Join(dir, "b.log.gz")}
	var counted int64
	f := &input.Files{Names: names, Count: func(n int64) { counted += n }}
	var want int64
	for _, name := range names {
		st, _ := os.Stat(name)
		want += st.Size()
		r, err := f.Open(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, r)
		r.Close()
	}
	if got := f.Size(); got != want {
		t.Errorf("Size = %d, want %d", got, want)
	}
	if counted != want {
		t.Errorf("Count saw %d bytes, want %d", counted, want)
	}
	if got := (&input.Files{Names: append(names, "-")}).Size(); got != 0 {
		t.Errorf("Size with standard input = %d, want 0 (unknown)", got)
	}
}

// TestOpenErrorsNameTheFile: a missing file and a directory each give an
// error naming them.
func TestOpenErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{filepath.Join(dir, "gone.log"), dir} {
		r, err := (&input.Files{}).Open(context.Background(), name)
		if err == nil {
			_, err = io.ReadAll(r)
			r.Close()
		}
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: error %v, want one naming it", name, err)
		}
	}
}

// TestOpenDirectory: a directory given as a log (robowatch /var/log/nginx)
// is refused by Open and Follow alike, with the glob its logs answer to.
func TestOpenDirectory(t *testing.T) {
	tests := []struct {
		name  string
		files []string
		glob  string // after the directory's name
	}{
		{"nginx on Debian", []string{"access.log", "access.log.1", "access.log.2.gz", "error.log", "error.log.1"}, "access.log*"},
		{"dated rotation", []string{"access.log-20240301.gz", "access.log-20240302", "access.log"}, "access.log*"},
		{"one site's logs", []string{"example.com.log", "example.com.log.1", "example.com.error.log"}, "example.com.log*"},
		{"Apache on Red Hat", []string{"access_log", "access_log-20240301", "error_log", "ssl_access_log"}, "access_log*"},
		{"errors only", []string{"error.log", "error.log.1"}, "error.log*"},
		{"other files", []string{"notes.txt"}, "*"},
		{"empty", nil, "*"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Mkdir(filepath.Join(dir, "old"), 0o755); err != nil {
				t.Fatal(err)
			}
			want := dir + " is a directory, not a log: give the logs in it, e.g. " + filepath.Join(dir, tt.glob)
			r, err := (&input.Files{}).Open(context.Background(), dir)
			if err == nil {
				r.Close()
			}
			if err == nil || err.Error() != want {
				t.Errorf("Open: %v\nwant %s", err, want)
			}
			tail, err := input.Follow(context.Background(), dir, input.FollowOptions{})
			if err == nil {
				tail.Close()
			}
			if err == nil || !strings.HasSuffix(err.Error(), want) {
				t.Errorf("Follow: %v\nwant %s", err, want)
			}
		})
	}
}
