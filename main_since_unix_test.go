//go:build unix

package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/robowatch/robowatch/cli"
	"github.com/robowatch/robowatch/internal/clitest"
)

// TestSinceOnPipes: --since counted back from the log's end works on every
// input that cannot be read twice — standard input, a named FIFO, a
// shell's <(zcat …) — as on a file: the same records inside the window.
// Before, a pipe gave 0 records and exit 0, and a FIFO hung.
func TestSinceOnPipes(t *testing.T) {
	raw, err := os.ReadFile("testdata/sample.log.gz")
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	log, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	want := sinceSummary(t, nil, "testdata/sample.log.gz")
	if want.Summary.Records == 0 || want.Summary.Outside == 0 {
		t.Fatalf("the file gives %+v: the window should cut the sample", want.Summary)
	}
	t.Run("stdin", func(t *testing.T) {
		if got := sinceSummary(t, log, "-"); got.Summary != want.Summary {
			t.Errorf("standard input: %+v, want %+v", got.Summary, want.Summary)
		}
	})
	t.Run("fifo", func(t *testing.T) {
		fifo := filepath.Join(t.TempDir(), "access.log")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip("no FIFOs here:", err)
		}
		go func() {
			if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
				w.Write(raw) // gzip through a FIFO: recognised by content
				w.Close()
			}
		}()
		if got := sinceSummary(t, nil, fifo); got.Summary != want.Summary {
			t.Errorf("FIFO: %+v, want %+v", got.Summary, want.Summary)
		}
	})
}

type windowSummary struct {
	Summary struct{ Lines, Records, Outside int64 } `json:"summary"`
}

func sinceSummary(t *testing.T, stdin []byte, file string) windowSummary {
	t.Helper()
	var out, errOut bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(context.Background(), []string{"-o", "json", "--since", "30m", file}, bytes.NewReader(stdin), &out, &errOut)
	}()
	select {
	case code := <-done:
		if code != cli.ExitOK {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatal("robowatch --since hangs on", file)
	}
	var s windowSummary
	if err := json.Unmarshal(out.Bytes(), &s); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	return s
}

// TestSIGTERMWhileSpooling: SIGTERM while --since keeps a silent pipe ends
// the run at once, exit 130, and leaves no temporary file.
func TestSIGTERMWhileSpooling(t *testing.T) {
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
	var text strings.Builder
	for _, hm := range []string{"09:00", "10:00", "11:00", "11:30"} {
		at, _ := time.Parse("15:04", hm)
		text.WriteString(line("192.0.2.7", day.Add(time.Duration(at.Hour())*time.Hour+time.Duration(at.Minute())*time.Minute), "/", liveBrowser))
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
