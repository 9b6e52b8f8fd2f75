//go:build unix

package cli_test

import (
	"bufio"
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

	"github.com/robowatch/robowatch/internal/clitest"
)

// Scenario tests of a live run through the real binary, in the manner of
// google/mtail's log_rotation_… and partial_line_… tests: a log is written
// while robowatch -F -o jsonl follows it, and the events it prints are
// what is asserted.

// event is one line of -o jsonl, with when it was read.
type event struct {
	fields map[string]any
	at     time.Time
}

func (e event) str(k string) string { s, _ := e.fields[k].(string); return s }
func (e event) num(k string) int64  { n, _ := e.fields[k].(float64); return int64(n) }

// liveRun is robowatch running on a log being written.
type liveRun struct {
	t      testing.TB
	cmd    *exec.Cmd
	events chan event
	stderr *clitest.Output
	seen   []event
	done   chan error
}

func startLive(t testing.TB, args ...string) *liveRun {
	t.Helper()
	return startLiveIn(t, nil, args...)
}

// startLiveIn is startLive with stdin as the standard input (nil: none).
func startLiveIn(t testing.TB, stdin *os.File, args ...string) *liveRun {
	t.Helper()
	cmd := exec.Command(clitest.Binary(t), args...)
	if stdin != nil {
		cmd.Stdin = stdin
	}
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	r := &liveRun{t: t, cmd: cmd, events: make(chan event, 1024), stderr: &clitest.Output{}, done: make(chan error, 1)}
	cmd.Stderr = r.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var f map[string]any
			if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
				f = map[string]any{"event": "NOT JSON", "text": sc.Text()}
			}
			r.events <- event{f, time.Now()}
		}
		close(r.events)
		r.done <- cmd.Wait()
	}()
	return r
}

// await returns the first event, from those not yet seen, that match
// accepts, failing after a few seconds.
func (r *liveRun) await(what string, match func(event) bool) event {
	r.t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case e, ok := <-r.events:
			if !ok {
				r.t.Fatalf("robowatch ended before %s; events: %v; stderr: %s", what, r.kinds(), r.stderr)
			}
			r.seen = append(r.seen, e)
			if match(e) {
				return e
			}
		case <-deadline:
			r.t.Fatalf("no %s within 10 s; events: %v; stderr: %s", what, r.kinds(), r.stderr)
		}
	}
}

func (r *liveRun) kinds() []string {
	var k []string
	for _, e := range r.seen {
		k = append(k, e.str("event")+":"+e.str("ip")+e.str("kind"))
	}
	return k
}

// stop sends sig and returns the final summary event and the exit status.
func (r *liveRun) stop(sig os.Signal) (event, int) {
	r.t.Helper()
	r.cmd.Process.Signal(sig)
	final := r.await("final summary", func(e event) bool { return e.str("event") == "summary" && e.fields["final"] == true })
	for e := range r.events {
		r.seen = append(r.seen, e)
	}
	err := <-r.done
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		r.t.Fatal(err)
	}
	return final, code
}

// count is how many events seen so far match.
func (r *liveRun) count(match func(event) bool) int {
	n := 0
	for _, e := range r.seen {
		if match(e) {
			n++
		}
	}
	return n
}

func isEvent(kind, ip string) func(event) bool {
	return func(e event) bool { return e.str("event") == kind && (ip == "" || e.str("ip") == ip) }
}

const (
	liveBrowser = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0"
	liveCrawler = "ExampleCrawler/1.0 (+https://crawler.example/)"
)

func appendTo(t testing.TB, name, text string) {
	t.Helper()
	f, err := os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestLiveAppend: lines appended to a followed file become events at
// once, robots.txt violations with the rule that forbade them; the
// latency from write to event is logged (BenchmarkLiveLatency measures it).
func TestLiveAppend(t *testing.T) {
	dir := t.TempDir()
	log, rb := filepath.Join(dir, "access.log"), filepath.Join(dir, "robots.txt")
	os.WriteFile(rb, []byte("User-agent: *\nDisallow: /private/\n"), 0o644)
	now := time.Now()
	appendTo(t, log, line("10.0.0.1", now, "/", liveBrowser))
	r := startLive(t, "-F", "-o", "jsonl", "--interval", "1s", "--robots", rb, log)
	r.await("the first summary", isEvent("summary", ""))

	written := time.Now()
	appendTo(t, log, line("10.0.0.9", time.Now(), "/robots.txt", liveCrawler)+line("10.0.0.9", time.Now(), "/private/x", liveCrawler))
	robot := r.await("robot event", isEvent("robot", "10.0.0.9"))
	v := r.await("violation event", isEvent("violation", "10.0.0.9"))
	t.Logf("write to robot event: %v", robot.at.Sub(written))
	if v.str("path") != "/private/x" || v.str("rule") != "Disallow: /private/" || v.num("line") != 2 || v.str("time") == "" {
		t.Errorf("violation event %v", v.fields)
	}
	final, code := r.stop(syscall.SIGINT)
	if code != 0 || final.num("records") != 3 || final.num("violations") != 1 || final.fields["partial"] != false {
		t.Errorf("exit %d, final summary %v", code, final.fields)
	}
	if n := r.count(isEvent("robot", "10.0.0.9")); n != 1 {
		t.Errorf("%d robot events for one robot", n)
	}
}

// TestLiveLogRotation: logrotate's default, rename and create. The old
// file is read to its end (a line written to it after the rename
// included), the new one from its start: every line once.
func TestLiveLogRotation(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "access.log")
	appendTo(t, log, line("10.0.1.1", time.Now(), "/robots.txt", liveCrawler))
	r := startLive(t, "-F", "-o", "jsonl", "--interval", "1s", log)
	r.await("robot before rotation", isEvent("robot", "10.0.1.1"))

	if err := os.Rename(log, log+".1"); err != nil {
		t.Fatal(err)
	}
	appendTo(t, log+".1", line("10.0.1.2", time.Now(), "/robots.txt", liveCrawler)) // the server had it open
	time.Sleep(200 * time.Millisecond)
	appendTo(t, log, line("10.0.1.3", time.Now(), "/robots.txt", liveCrawler))
	r.await("rotated file event", func(e event) bool { return e.str("event") == "file" && e.str("kind") == "rotated" })
	r.await("robot after rotation", isEvent("robot", "10.0.1.3"))
	final, code := r.stop(syscall.SIGTERM)
	if code != 0 || final.num("records") != 3 {
		t.Errorf("exit %d, records %d, want 3", code, final.num("records"))
	}
	for _, ip := range []string{"10.0.1.1", "10.0.1.2", "10.0.1.3"} {
		if n := r.count(isEvent("robot", ip)); n != 1 {
			t.Errorf("%s: %d robot events, want 1", ip, n)
		}
	}
}

// TestLiveRotationsInQuietSpell: logrotate -f run several times within
// the old file's two-second quiet spell (by hand, or a size trigger on a
// busy log), the server reopening its log at each: every rotated file is
// read, in order (with nginx and a rotation every 0.4 s, 1650 of 3000
// requests were counted: the files between the first and the last were
// skipped).
func TestLiveRotationsInQuietSpell(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "access.log")
	appendTo(t, log, line("10.0.1.1", time.Now(), "/robots.txt", liveCrawler))
	r := startLive(t, "-F", "-o", "jsonl", "--interval", "1s", log)
	r.await("robot before rotation", isEvent("robot", "10.0.1.1"))
	ips := []string{"10.0.1.2", "10.0.1.3", "10.0.1.4", "10.0.1.5"}
	for i, ip := range ips {
		for j := i; j > 0; j-- {
			os.Rename(fmt.Sprintf("%s.%d", log, j), fmt.Sprintf("%s.%d", log, j+1))
		}
		if err := os.Rename(log, log+".1"); err != nil {
			t.Fatal(err)
		}
		appendTo(t, log, line(ip, time.Now(), "/robots.txt", liveCrawler))
		time.Sleep(300 * time.Millisecond)
	}
	r.await("robot of the last file", isEvent("robot", ips[len(ips)-1]))
	final, code := r.stop(syscall.SIGTERM)
	if code != 0 || final.num("records") != 5 {
		t.Errorf("exit %d, records %d, want 5", code, final.num("records"))
	}
	for _, ip := range ips {
		if n := r.count(isEvent("robot", ip)); n != 1 {
			t.Errorf("%s: %d robot events, want 1", ip, n)
		}
	}
	if n := r.count(func(e event) bool { return e.str("event") == "file" && e.str("kind") == "rotated" }); n != len(ips) {
		t.Errorf("%d rotated events, want %d", n, len(ips))
	}
}

// TestLiveCopyTruncate: logrotate's copytruncate empties the file in
// place; reading starts again from the top.
func TestLiveCopyTruncate(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "access.log")
	appendTo(t, log, line("10.0.2.1", time.Now(), "/robots.txt", liveCrawler)+line("10.0.2.1", time.Now(), "/a", liveCrawler))
	r := startLive(t, "-F", "-o", "jsonl", "--interval", "1s", log)
	r.await("robot before truncation", isEvent("robot", "10.0.2.1"))
	if err := os.Truncate(log, 0); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	appendTo(t, log, line("10.0.2.2", time.Now(), "/robots.txt", liveCrawler))
	r.await("truncated file event", func(e event) bool { return e.str("event") == "file" && e.str("kind") == "truncated" })
	r.await("robot after truncation", isEvent("robot", "10.0.2.2"))
	final, _ := r.stop(syscall.SIGINT)
	if final.num("records") != 3 || final.num("malformed") != 0 {
		t.Errorf("records %d, malformed %d; want 3, 0", final.num("records"), final.num("malformed"))
	}
}

// TestLivePartialLine: a line written in two parts is one record, not a
// malformed line; a line of garbage mid-stream is an error event, and the
// run goes on.
func TestLivePartialLine(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "access.log")
	appendTo(t, log, line("10.0.3.1", time.Now(), "/", liveBrowser))
	r := startLive(t, "-F", "-o", "jsonl", "--interval", "1s", log)
	r.await("the first summary", isEvent("summary", ""))
	whole := line("10.0.3.2", time.Now(), "/robots.txt", liveCrawler)
	appendTo(t, log, whole[:20])
	time.Sleep(500 * time.Millisecond)
	appendTo(t, log, whole[20:])
	r.await("robot of the joined line", isEvent("robot", "10.0.3.2"))
	appendTo(t, log, "\x16\x03\x01 garbage that is no log line\n"+line("10.0.3.3", time.Now(), "/robots.txt", liveCrawler))
	bad := r.await("error event", isEvent("error", ""))
	if bad.str("kind") != "malformed" || bad.num("line") != 3 {
		t.Errorf("error event %v, want kind malformed, line 3", bad.fields)
	}
	r.await("robot after the garbage", isEvent("robot", "10.0.3.3"))
	final, _ := r.stop(syscall.SIGINT)
	if final.num("records") != 3 || final.num("malformed") != 1 || final.num("lines") != 4 {
		t.Errorf("final %v; want 3 records, 1 malformed, 4 lines", final.fields)
	}
}

// TestLiveStopInBacklog: SIGTERM while the backlog of a followed file is
// still being read ends the run with what was read: each record judged
// (the final summary's violations are its records: every request breaks
// robots.txt), and the line the stop came in is neither cut into a
// malformed line nor left out of the counts.
func TestLiveStopInBacklog(t *testing.T) {
	dir := t.TempDir()
	log, rb := filepath.Join(dir, "access.log"), filepath.Join(dir, "robots.txt")
	os.WriteFile(rb, []byte("User-agent: *\nDisallow: /\n"), 0o644)
	var text strings.Builder
	at := time.Now()
	for i := range 100_000 {
		text.WriteString(line(fmt.Sprintf("10.%d.%d.%d", i/62500, i/250%250, i%250+1), at, fmt.Sprintf("/page/%d", i), liveCrawler))
	}
	appendTo(t, log, text.String())
	r := startLive(t, "-F", "-o", "jsonl", "--interval", "1s", "--burst", "1000000", "--sustained", "1000000", "--robots", rb, log)
	r.await("the first violation", isEvent("violation", ""))
	final, code := r.stop(syscall.SIGTERM)
	if code != 0 || final.num("malformed") != 0 || final.num("lines") != final.num("records") || final.num("violations") != final.num("records") {
		t.Errorf("exit %d; lines %d, records %d, malformed %d, violations %d: want every line read a record, and judged",
			code, final.num("lines"), final.num("records"), final.num("malformed"), final.num("violations"))
	}
	t.Logf("stopped after %d of 100000 lines", final.num("records"))
}

// TestLiveUnfinishedLastLine: a followed log whose last line is not
// finished yet (its writer is in the middle of it, or died there) has the
// events of the lines before it at once, with the format detected: they do
// not wait for that line's end. Once ended, it is a record of its own.
func TestLiveUnfinishedLastLine(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "access.log")
	second := line("10.0.8.2", time.Now(), "/robots.txt", liveCrawler)
	appendTo(t, log, line("10.0.8.1", time.Now(), "/robots.txt", liveCrawler)+second[:25])
	r := startLive(t, "-F", "-o", "jsonl", "--interval", "1s", log)
	r.await("robot of the finished line", isEvent("robot", "10.0.8.1"))
	appendTo(t, log, second[25:])
	r.await("robot of the line finished later", isEvent("robot", "10.0.8.2"))
	final, _ := r.stop(syscall.SIGINT)
	if final.num("records") != 2 || final.num("lines") != 2 || final.str("format") != "combined" {
		t.Errorf("final %v; want 2 lines, 2 records, combined", final.fields)
	}
}

// TestLiveIncident: a burst opens an incident as soon as it crosses the
// threshold; it ends once the log has moved a minute past it.
func TestLiveIncident(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "access.log")
	appendTo(t, log, line("10.0.4.1", time.Now(), "/", liveBrowser))
	r := startLive(t, "-F", "-o", "jsonl", "--interval", "1s", log)
	r.await("the first summary", isEvent("summary", ""))
	var burst strings.Builder
	at := time.Now()
	for i := range 40 {
		burst.WriteString(line("10.0.4.2", at.Add(time.Duration(i/20)*time.Second), fmt.Sprintf("/item/%d", i), liveCrawler))
	}
	appendTo(t, log, burst.String())
	open := r.await("incident event", isEvent("incident", "10.0.4.2"))
	if open.num("requests") < 21 {
		t.Errorf("incident opened with %d requests", open.num("requests"))
	}
	// The log's clock moves on past the incident's minute and the reorder
	// tolerance (a line dated ahead, so that the test needs no three-minute wait).
	appendTo(t, log, line("10.0.4.3", at.Add(3*time.Minute), "/", liveBrowser))
	end := r.await("incident_end event", isEvent("incident_end", "10.0.4.2"))
	if end.num("requests") != 40 || end.num("seconds") != 2 || end.num("peak_per_second") != 20 {
		t.Errorf("incident_end %v", end.fields)
	}
	final, _ := r.stop(syscall.SIGINT)
	if final.num("incidents") != 1 || r.count(isEvent("incident", "")) != 1 || r.count(isEvent("incident_end", "")) != 1 {
		t.Errorf("final incidents %d; events %v", final.num("incidents"), r.kinds())
	}
}

// TestLiveRemoved: a followed file that goes away and does not come back
// is said, and the run goes on until interrupted.
func TestLiveRemoved(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "access.log")
	appendTo(t, log, line("10.0.5.1", time.Now(), "/robots.txt", liveCrawler))
	r := startLive(t, "-F", "-o", "jsonl", "--interval", "1s", log)
	r.await("robot", isEvent("robot", "10.0.5.1"))
	os.Remove(log)
	r.await("removed file event", func(e event) bool { return e.str("event") == "file" && e.str("kind") == "removed" })
	r.await("a summary after the removal", isEvent("summary", ""))
	final, code := r.stop(syscall.SIGINT)
	if code != 0 || final.num("records") != 1 {
		t.Errorf("exit %d, records %d", code, final.num("records"))
	}
	if !strings.Contains(r.stderr.String(), "removed") {
		t.Errorf("stderr says nothing of the removal: %q", r.stderr)
	}
}

// TestLivePipe: -o jsonl on a pipe streams events while the pipe is
// open; they do not wait for its end.
func TestLivePipe(t *testing.T) {
	cmd := exec.Command(clitest.Binary(t), "-o", "jsonl", "--interval", "1s")
	stdin, _ := cmd.StdinPipe()
	r := &liveRun{t: t, cmd: cmd, events: make(chan event, 64), stderr: &clitest.Output{}, done: make(chan error, 1)}
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = r.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			var f map[string]any
			json.Unmarshal(sc.Bytes(), &f)
			r.events <- event{f, time.Now()}
		}
		close(r.events)
		r.done <- cmd.Wait()
	}()
	io.WriteString(stdin, line("10.0.6.1", time.Now(), "/robots.txt", liveCrawler))
	r.await("robot event before the pipe closed", isEvent("robot", "10.0.6.1"))
	stdin.Close()
	r.await("final summary", func(e event) bool { return e.str("event") == "summary" && e.fields["final"] == true })
	if err := <-r.done; err != nil {
		t.Errorf("exit: %v", err)
	}
}

// TestLiveFIFO: -F on a named pipe (or a shell's <(…)) reads it as it
// reads standard input, to its end, which ends the run: no byte of it is
// taken by a look at its first bytes (as for gzip's), and there is no
// "truncation" to read again from the start of.
func TestLiveFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "access.pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	r := startLive(t, "-F", "-o", "jsonl", "--interval", "1s", fifo)
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // waits for robowatch to open it
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		io.WriteString(w, line(fmt.Sprintf("10.0.9.%d", i+1), time.Now(), "/robots.txt", liveCrawler))
	}
	w.Close()
	final := r.await("the final summary at the pipe's end", func(e event) bool { return e.str("event") == "summary" && e.fields["final"] == true })
	if final.num("records") != 3 || final.num("lines") != 3 || r.count(isEvent("error", "")) != 0 {
		t.Errorf("final %v; events %v; stderr %s", final.fields, r.kinds(), r.stderr)
	}
	if err := <-r.done; err != nil {
		t.Errorf("exit: %v", err)
	}
}

// TestLiveFileBesideSilentPipe: -F access.log - with standard input a pipe
// that stays open and silent (a tail -f of a quiet log, a named pipe no
// line came through yet) reads access.log all the same: its lines, those
// there and those appended, become events while the pipe says nothing, and
// SIGTERM ends the run as it ends a follow run of files alone, with their
// report and exit 0. Before, the file waited for the pipe's end: no event,
// 0 records and exit 130.
func TestLiveFileBesideSilentPipe(t *testing.T) {
	for _, pipe := range []string{"stdin", "fifo"} {
		t.Run(pipe, func(t *testing.T) {
			dir := t.TempDir()
			log := filepath.Join(dir, "access.log")
			appendTo(t, log, line("10.0.10.1", time.Now(), "/robots.txt", liveCrawler))
			var stdin *os.File
			name := "-"
			if pipe == "stdin" {
				pr, pw, err := os.Pipe()
				if err != nil {
					t.Fatal(err)
				}
				defer pw.Close() // open and silent until the end
				defer pr.Close()
				stdin = pr
			} else {
				name = filepath.Join(dir, "access.pipe")
				if err := syscall.Mkfifo(name, 0o600); err != nil {
					t.Skip("no FIFO:", err)
				}
				// Read and write: a writer that is there and says nothing,
				// opened without waiting for robowatch.
				w, err := os.OpenFile(name, os.O_RDWR, 0)
				if err != nil {
					t.Skip("a FIFO cannot be opened for reading and writing here:", err)
				}
				defer w.Close()
			}
			r := startLiveIn(t, stdin, "-F", "-o", "jsonl", "--interval", "1s", log, name)
			r.await("robot of the file's existing line", isEvent("robot", "10.0.10.1"))
			appendTo(t, log, line("10.0.10.2", time.Now(), "/robots.txt", liveCrawler))
			r.await("robot of a line appended", isEvent("robot", "10.0.10.2"))
			final, code := r.stop(syscall.SIGTERM)
			if code != 0 || final.num("records") != 2 || final.fields["partial"] != false {
				t.Errorf("exit %d, final summary %v; want exit 0 and 2 records; stderr: %s", code, final.fields, r.stderr)
			}
		})
	}
}

// BenchmarkLiveLatency measures the time from a line's write to its
// robot event with -F: the bound is one second. Each iteration
// appends a new robot's first request and waits for its event.
func BenchmarkLiveLatency(b *testing.B) {
	dir := b.TempDir()
	log := filepath.Join(dir, "access.log")
	appendTo(b, log, line("10.1.0.1", time.Now(), "/", liveBrowser))
	r := startLive(b, "-F", "-o", "jsonl", "--interval", "1s", log)
	r.await("the first summary", isEvent("summary", ""))
	var total, worst time.Duration
	b.ResetTimer()
	for i := range b.N {
		ip := fmt.Sprintf("10.2.%d.%d", i/250%250, i%250+1)
		written := time.Now()
		appendTo(b, log, line(ip, written, "/robots.txt", liveCrawler))
		e := r.await("robot event", isEvent("robot", ip))
		d := e.at.Sub(written)
		total += d
		worst = max(worst, d)
	}
	b.StopTimer()
	b.ReportMetric(float64(total.Microseconds())/float64(b.N)/1000, "ms/event")
	b.ReportMetric(float64(worst.Microseconds())/1000, "worst-ms")
	r.stop(syscall.SIGINT)
}

// TestLiveTerminalView: -F on a terminal draws the live view on the
// alternate screen, fitted to the window, and Ctrl-C puts the final
// report on the shell's own screen, exit 0.
func TestLiveTerminalView(t *testing.T) {
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("util-linux script is not installed")
	}
	bin := clitest.Binary(t)
	log := filepath.Join(t.TempDir(), "access.log")
	var text strings.Builder
	for i := range 30 {
		text.WriteString(line("10.0.7.1", time.Now(), fmt.Sprintf("/page/%d", i), liveCrawler))
	}
	text.WriteString(line("10.0.7.2", time.Now(), "/robots.txt", "Bad\x1b]0;owned\aBot/1.0"))
	appendTo(t, log, text.String())
	cmd := fmt.Sprintf("stty cols 60 rows 20; timeout --preserve-status -s INT 3 %s -F --interval 500ms %s; echo exit=$?", bin, log)
	c := exec.Command(script, "-qec", cmd, "/dev/null")
	c.Env = append(os.Environ(), "TERM=xterm", "NO_COLOR=1")
	out, _ := c.CombinedOutput()
	screen := string(out)
	view, report, ok := strings.Cut(screen, "\x1b[?1049l")
	if !ok || !strings.Contains(view, "\x1b[?1049h") {
		t.Fatalf("no live view on the alternate screen:\n%q", screen)
	}
	for _, want := range []string{"robowatch -F", "31 records", "ROBOTS", "ExampleCrawler", "OPEN INCIDENTS"} {
		if !strings.Contains(view, want) {
			t.Errorf("the live view lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, "\x1b]0;owned") {
		t.Error("a User-agent's escape sequence reached the terminal")
	}
	// Each redraw: home, lines each cleared to their end.
	view = strings.NewReplacer("\x1b[?1049h", "", "\x1b[H", "\n", "\x1b[K", "", "\x1b[J", "", "\r", "").Replace(view)
	for _, l := range strings.Split(view, "\n") {
		if w := len([]rune(l)); w > 60 {
			t.Errorf("a live view line of %d columns in a 60-column window: %q", w, l)
		}
	}
	if !strings.Contains(report, "Robots") || !strings.Contains(report, "exit=0") {
		t.Errorf("after Ctrl-C, no report or exit 0:\n%s", report)
	}
}
