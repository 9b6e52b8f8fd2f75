package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/robowatch/robowatch/cli"
	"github.com/robowatch/robowatch/internal/clitest"
)

// Interrupts: a cancelled context in this process (what
// cli.InterruptContext makes of Ctrl-C and SIGTERM), and the signals
// themselves sent to the built binary.

// TestHostileInterrupt: an interrupt (SIGINT cancels run's context) during
// a long run prints the report of what was read, marked partial, and exits
// 130; also when standard input is a pipe that has gone silent.
func TestHostileInterrupt(t *testing.T) {
	t.Run("endless input", func(t *testing.T) {
		const interruptAt = 20000
		for _, format := range []string{"json", "table"} {
			var out, errOut bytes.Buffer
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			// A reader each run: the copying goroutine behind standard
			// input may still be reading the last one when run returns.
			stdin := &cancellingReader{line: []byte(validLine), at: interruptAt, cancel: cancel}
			code := run(ctx, []string{"-o", format}, stdin, &out, &errOut)
			if code != cli.ExitInterrupted {
				t.Fatalf("%s: exit %d, want %d; stderr: %s", format, code, cli.ExitInterrupted, errOut.String())
			}
			if format == "table" {
				if !strings.Contains(out.String(), "interrupted: the report covers only what was read") {
					t.Errorf("table report not marked partial:\n%s", out.String())
				}
				continue
			}
			s := parseSummary(t, out.String())
			// Lines read ahead past the interrupt are not counted; at most
			// those generated are.
			if n := stdin.n.Load(); !s.Summary.Partial || s.Summary.Records < 1000 || s.Summary.Records > n {
				t.Errorf("partial %v, %d records; want partial, 1000 to %d records", s.Summary.Partial, s.Summary.Records, n)
			}
			if len(s.Errors) != 0 {
				t.Errorf("an interrupt is not an input error: %q", s.Errors)
			}
		}
	})
	t.Run("silent pipe", func(t *testing.T) {
		pr, pw := io.Pipe()
		defer pw.Close()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		var out, errOut bytes.Buffer
		var code int
		go func() {
			code = run(ctx, []string{"-o", "json"}, pr, &out, &errOut)
			close(done)
		}()
		for i := 0; i < 3; i++ {
			pw.Write([]byte(validLine)) // returns once robowatch has taken the line
		}
		cancel() // the pipe stays open and silent, as a stalled zcat would
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatal("robowatch still waits on the silent pipe after the interrupt")
		}
		if code != cli.ExitInterrupted {
			t.Fatalf("exit %d, want %d; stderr: %s", code, cli.ExitInterrupted, errOut.String())
		}
		if s := parseSummary(t, out.String()); !s.Summary.Partial {
			t.Errorf("report not marked partial")
		}
	})
}

// cancellingReader repeats a line without end and cancels after at lines:
// an interrupt arriving in the middle of a long run. n is read by the test
// while robowatch's reading goroutine may still be in Read.
type cancellingReader struct {
	line   []byte
	at     int64
	n      atomic.Int64
	cancel func()
}

func (r *cancellingReader) Read(b []byte) (int, error) {
	k := 0
	for k+len(r.line) <= len(b) {
		k += copy(b[k:], r.line)
		if r.n.Add(1) == r.at {
			r.cancel()
		}
	}
	return k, nil
}

// TestHostileSIGINT builds robowatch and sends SIGINT while it reads a
// pipe that never ends: it prints the report of what it read, marked
// partial, and exits 130. The same signal twice, as timeout(1) and a kill
// of the process group deliver it (on a loaded machine milliseconds apart),
// is one interrupt, not two.
func TestHostileSIGINT(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no signals to send on Windows")
	}
	bin := clitest.Binary(t)
	for _, signals := range []int{1, 2} {
		t.Run(fmt.Sprintf("%d signals", signals), func(t *testing.T) { interruptPipe(t, bin, signals) })
	}
}

// interruptPipe runs bin on a pipe that goes silent and sends it SIGINT
// the given number of times, 100 ms apart.
func interruptPipe(t *testing.T, bin string, signals int) {
	cmd := exec.Command(bin, "-o", "json", "--progress", "always")
	stdin, _ := cmd.StdinPipe()
	stderr, _ := cmd.StderrPipe()
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	silence := make(chan struct{})
	go func() {
		// Lines until robowatch says it read some, then silence with the
		// pipe left open.
		for {
			select {
			case <-silence:
				return
			default:
			}
			if _, err := io.WriteString(stdin, strings.Repeat(validLine, 100)); err != nil {
				return
			}
		}
	}()
	// The progress line says when records were read.
	sc := bufio.NewScanner(stderr)
	sc.Split(scanCR)
	for sc.Scan() {
		if strings.Contains(sc.Text(), "records") && !strings.Contains(sc.Text(), " 0 records") {
			break
		}
	}
	close(silence)
	time.Sleep(100 * time.Millisecond) // let the writer stop: the pipe is silent, not closed
	var first time.Time
	for i := range signals {
		if i > 0 {
			time.Sleep(100 * time.Millisecond)
			// robowatch takes a signal a second or more after the first
			// for the user's insistence and exits without a report: on a
			// machine so loaded that the copy would come that late, the
			// test proves nothing.
			if late := time.Since(first); late > 500*time.Millisecond {
				t.Skipf("the second signal would come %v after the first: too late to be a copy", late)
			}
		} else {
			first = time.Now()
		}
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			t.Fatal(err)
		}
	}
	go io.Copy(io.Discard, stderr)
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case <-waited:
	case <-time.After(30 * time.Second):
		t.Fatal("no exit within 30 s of SIGINT")
	}
	if code := cmd.ProcessState.ExitCode(); code != cli.ExitInterrupted {
		t.Fatalf("exit %d, want %d", code, cli.ExitInterrupted)
	}
	s := parseSummary(t, out.String())
	if !s.Summary.Partial || s.Summary.Records == 0 {
		t.Errorf("partial %v with %d records; want a partial report of what was read", s.Summary.Partial, s.Summary.Records)
	}
}

// scanCR splits on '\r' or '\n': the progress line redraws itself with '\r'.
func scanCR(data []byte, atEOF bool) (int, []byte, error) {
	if i := bytes.IndexAny(data, "\r\n"); i >= 0 {
		return i + 1, data[:i], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}

// TestSIGTERMWhileSpooling: SIGTERM while --since keeps a silent pipe ends
// the run at once, exit 130, and leaves no temporary file.
func TestSIGTERMWhileSpooling(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no signals to send on Windows")
	}
	bin := clitest.Binary(t)
	tmp := t.TempDir()
	cmd := exec.Command(bin, "-o", "json", "--since", "2h")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	stdin, _ := cmd.StdinPipe()
	defer stdin.Close() // open and silent until the end
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	io.WriteString(stdin, validLine)
	waitSpooling(t, cmd.Process.Pid, tmp) // spooling, waiting for more
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("the spool has a name while in use: %v", left)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case <-waited:
	case <-time.After(20 * time.Second):
		t.Fatal("no exit within 20 s of SIGTERM")
	}
	if code := cmd.ProcessState.ExitCode(); code != cli.ExitInterrupted {
		t.Errorf("exit %d, want %d", code, cli.ExitInterrupted)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

// waitSpooling waits until process pid holds its spool open, a file under
// dir already unnamed, where /proc shows it: a signal sent before
// robowatch has even started would test the system's default action, not
// robowatch. Elsewhere it waits a moment.
func waitSpooling(t *testing.T, pid int, dir string) {
	t.Helper()
	fds := fmt.Sprintf("/proc/%d/fd", pid)
	if _, err := os.Stat(fds); err != nil {
		time.Sleep(300 * time.Millisecond)
		return
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		links, _ := filepath.Glob(fds + "/*")
		for _, l := range links {
			if target, _ := os.Readlink(l); strings.HasPrefix(target, dir+string(filepath.Separator)) && strings.HasSuffix(target, " (deleted)") {
				return
			}
		}
	}
	t.Fatal("robowatch did not start spooling within 30 s")
}

// TestSinceInterruptedOnSilentPipe: tail -f access.log | robowatch --since
// 1h, interrupted (Ctrl-C, SIGTERM) while the pipe is silent and still
// open: the first pass, which keeps the pipe to find its last record, has
// not ended, yet the run prints the report of what the pipe gave, marked
// partial, cut to the hour before the last line read, and exits 130, as any
// interrupted run. A line the interrupt cut in two is left out, as a read
// interrupted mid-line leaves it. Before, exit 130 and no report at all.
func TestSinceInterruptedOnSilentPipe(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd to see what the spool holds")
	}
	day := time.Date(2024, 5, 6, 0, 0, 0, 0, time.UTC)
	const browser = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0"
	var text strings.Builder
	for _, hm := range []string{"09:00", "10:00", "11:00", "11:30"} {
		at, _ := time.Parse("15:04", hm)
		fmt.Fprintf(&text, "192.0.2.7 - - [%s] \"GET / HTTP/1.1\" 200 512 \"-\" \"%s\"\n", day.Add(time.Duration(at.Hour())*time.Hour+time.Duration(at.Minute())*time.Minute).Format("02/Jan/2006:15:04:05 -0700"), browser)
	}
	text.WriteString(`192.0.2.8 - - [06/May/2024:11:45:00 +0000] "GET /half`) // cut by the interrupt
	tests := []struct {
		name string
		args []string
	}{
		{"json", []string{"-o", "json", "--since", "1h", "-"}},
		{"jsonl", []string{"-o", "jsonl", "--since", "1h", "-"}}, // a pipe streams: the live path
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			pr, pw := io.Pipe()
			defer pw.Close() // silent and open until the end
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var out, errOut bytes.Buffer
			done := make(chan int, 1)
			go func() { done <- run(ctx, tt.args, pr, &out, &errOut) }()
			if _, err := io.WriteString(pw, text.String()); err != nil {
				t.Fatal(err)
			}
			spoolHolds(t, tmp, int64(text.Len()))
			cancel() // Ctrl-C
			var code int
			select {
			case code = <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("no end within 30 s of the interrupt")
			}
			if code != cli.ExitInterrupted {
				t.Errorf("exit %d, want %d; stderr: %s", code, cli.ExitInterrupted, errOut.String())
			}
			report := out.String()
			if tt.name == "jsonl" { // the final summary event is the last line
				lines := strings.Split(strings.TrimSpace(report), "\n")
				report = lines[len(lines)-1]
			}
			type counts struct {
				Lines, Records, Malformed, Outside int64
				Partial                            bool
				Window                             string
			}
			var s struct {
				Summary counts `json:"summary"`
			}
			err := json.Unmarshal([]byte(report), &s)
			if tt.name == "jsonl" { // the summary event has the counts at the top
				err = json.Unmarshal([]byte(report), &s.Summary)
			}
			if err != nil {
				t.Fatalf("no report: %v: %q; stderr: %s", err, report, errOut.String())
			}
			if !s.Summary.Partial || s.Summary.Lines != 4 || s.Summary.Records != 4 || s.Summary.Malformed != 0 {
				t.Errorf("report %+v; want partial, the 4 whole lines read, none malformed", s.Summary)
			}
			if tt.name == "json" && (s.Summary.Outside != 2 || !strings.HasPrefix(s.Summary.Window, "from 2024-05-06 10:30:00")) {
				t.Errorf("window %q with %d outside; want from 10:30, the two earlier lines outside", s.Summary.Window, s.Summary.Outside)
			}
		})
	}
}

// spoolHolds waits until this process holds a spool under dir, a file
// already unnamed, of at least size bytes.
func spoolHolds(t *testing.T, dir string, size int64) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		links, _ := filepath.Glob("/proc/self/fd/*")
		for _, l := range links {
			target, _ := os.Readlink(l)
			if strings.HasPrefix(target, dir+string(filepath.Separator)) && strings.HasSuffix(target, " (deleted)") {
				if st, err := os.Stat(l); err == nil && st.Size() >= size {
					return
				}
			}
		}
	}
	t.Fatalf("the spool did not hold %d bytes within 30 s", size)
}
