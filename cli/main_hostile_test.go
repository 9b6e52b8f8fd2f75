package cli_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/cli"
)

// The hostile-input tests of issue 7: every case runs the CLI as a user
// would, on the small files of testdata/hostile or on big inputs generated
// on the fly and streamed (never held, never committed).

const hostileDir = "../testdata/hostile"

// hostileLogs are the hostile log files, each with what robowatch must make
// of it.
var hostileLogs = []struct {
	file                      string
	lines, records, malformed int64
	code                      int
	stderr                    string // expected on stderr ("" : nothing)
}{
	{"terminal-escapes.log", 188, 186, 2, cli.ExitOK, "was set aside"}, // 180 pages and no asset: the no-assets signal is set aside
	{"nul-bytes.log", 5, 4, 1, cli.ExitOK, ""},
	{"invalid-utf8.log", 5, 4, 1, cli.ExitOK, ""},
	{"binary-garbage.log", 76, 0, 76, cli.ExitError, "binary-garbage.log: none of its 76 lines is an access-log line of a known format"},
	{"mostly-malformed.log", 100, 10, 90, cli.ExitOK, "mostly-malformed.log: 90 of its 100 lines are malformed"},
	{"truncated.log.gz", 977, 977, 0, cli.ExitError, "truncated.log.gz: line 978: unexpected EOF"},
}

// TestHostileLogFiles reads each hostile log: a clear report (lines,
// records and malformed lines counted exactly, a warning naming a file that
// is mostly not a log, an error naming a broken one) and no panic.
func TestHostileLogFiles(t *testing.T) {
	for _, tt := range hostileLogs {
		t.Run(tt.file, func(t *testing.T) {
			code, out, errOut := runCLI(t, nil, "-o", "json", filepath.Join(hostileDir, tt.file))
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tt.code, errOut)
			}
			if tt.records == 0 {
				// Nothing could be read from the only input: the error
				// alone, no report (an empty one would read as an all-clear).
				if out != "" || !strings.Contains(errOut, tt.stderr) {
					t.Errorf("stdout %q, stderr %q; want no report and %q", out, errOut, tt.stderr)
				}
				return
			}
			s := parseSummary(t, out)
			if s.Summary.Lines != tt.lines || s.Summary.Records != tt.records || s.Summary.Malformed != tt.malformed {
				t.Errorf("lines %d records %d malformed %d, want %d %d %d", s.Summary.Lines, s.Summary.Records,
					s.Summary.Malformed, tt.lines, tt.records, tt.malformed)
			}
			if tt.stderr == "" && errOut != "" {
				t.Errorf("unexpected stderr: %s", errOut)
			}
			if !strings.Contains(errOut, tt.stderr) {
				t.Errorf("stderr %q lacks %q", errOut, tt.stderr)
			}
			if (tt.code == cli.ExitError) != (len(s.Errors) > 0) {
				t.Errorf("report errors %q with exit %d", s.Errors, code)
			}
			if len(s.Malformed) > 10 {
				t.Errorf("%d malformed samples kept, want at most 10", len(s.Malformed))
			}
			for _, m := range s.Malformed {
				if len(m.Text) > 1024 {
					t.Errorf("malformed sample of %d bytes: samples must be cut", len(m.Text))
				}
			}
		})
	}
}

// TestHostileBytesKept: NUL bytes and invalid UTF-8 in a field are kept
// (escaped on output), not a reason to drop the record or merge clients.
func TestHostileBytesKept(t *testing.T) {
	for _, tt := range []struct{ file, ua string }{
		{"nul-bytes.log", "Nul\x00Bot/1.0"},
		{"invalid-utf8.log", "Bot\ufffd\ufffd/1"}, // JSON shows invalid UTF-8 as U+FFFD
	} {
		_, out, _ := runCLI(t, nil, "-o", "json", filepath.Join(hostileDir, tt.file))
		s := parseSummary(t, out)
		found := false
		for _, c := range s.Clients {
			found = found || c.UserAgent == tt.ua && c.Requests == 2
		}
		if !found {
			t.Errorf("%s: no client with User-agent %q and 2 requests: %+v", tt.file, tt.ua, s.Clients)
		}
	}
}

// repeatReader streams n copies of one byte without holding them.
type repeatReader struct {
	c byte
	n int64
}

func (r *repeatReader) Read(b []byte) (int, error) {
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

// allocated is how many bytes f allocates in all.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// runStream runs robowatch on a stream, returning its exit status, output
// and the bytes it allocated.
func runStream(t *testing.T, stdin io.Reader, args ...string) (int, string, string, uint64) {
	t.Helper()
	runCLI(t, []byte(validLine), "-o", "json") // warm up: User-agent parser, tables
	var out, errOut bytes.Buffer
	var code int
	n := allocated(func() { code = run(context.Background(), args, stdin, &out, &errOut) })
	return code, out.String(), errOut.String(), n
}

// TestHostileLongLine streams a 100 MiB line, once with no newline at the
// end of the input and once followed by more lines: it is one malformed
// line, skipped in bounded memory (the bytes allocated in all stay a small
// fraction of the line), and the lines around it are read. logparse's
// TestHostileReaderLongLines bounds the sequential Reader; the pipeline
// reads with the ParallelReader, whose memory on such a line only this
// test bounds.
func TestHostileLongLine(t *testing.T) {
	const size = 100 << 20
	cases := []struct {
		name  string
		input func() io.Reader
		lines int64
	}{
		{"no newline at the end", func() io.Reader {
			return io.MultiReader(strings.NewReader(validLine+`192.0.2.2 - - [06/May/2024:09:00:01 +0000] "GET /`), &repeatReader{'a', size})
		}, 2},
		{"followed by lines", func() io.Reader {
			return io.MultiReader(&repeatReader{'x', size}, strings.NewReader("\n"+validLine+validLine))
		}, 3},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut, alloc := runStream(t, tt.input(), "-o", "json")
			if code != cli.ExitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			s := parseSummary(t, out)
			if s.Summary.Lines != tt.lines || s.Summary.Malformed != 1 || s.Summary.Records != tt.lines-1 {
				t.Errorf("lines %d records %d malformed %d, want %d lines, one malformed", s.Summary.Lines, s.Summary.Records, s.Summary.Malformed, tt.lines)
			}
			if len(s.Malformed) != 1 || !strings.Contains(s.Malformed[0].Reason, "more than 1048576 bytes") {
				t.Errorf("malformed samples %+v, want the long line as too long", s.Malformed)
			}
			if alloc > 16<<20 {
				t.Errorf("allocated %d MiB reading a %d MiB line: the line was held", alloc>>20, size>>20)
			}
		})
	}
}

// TestHostileVanishingFiles: a file that is missing, a directory, and a
// file deleted after the run began (while robowatch reads the file before
// it, see TestHostileDisappearsMidList) each give an error naming the file;
// the other files are read, and the exit status is 1.
func TestHostileVanishingFiles(t *testing.T) {
	dir := t.TempDir()
	good, other := filepath.Join(dir, "a.log"), filepath.Join(dir, "b.log")
	os.WriteFile(good, []byte(validLine+validLine), 0o644)
	os.WriteFile(other, []byte(validLine+validLine), 0o644)
	code, out, errOut := runCLI(t, nil, "-o", "json", good, filepath.Join(dir, "gone.log"), dir, other)
	if code != cli.ExitError {
		t.Fatalf("exit %d, want %d: %s", code, cli.ExitError, errOut)
	}
	s := parseSummary(t, out)
	if s.Summary.Records != 4 {
		t.Errorf("records %d, want the 4 of the two readable files", s.Summary.Records)
	}
	for _, name := range []string{"gone.log", filepath.Base(dir)} {
		if !strings.Contains(errOut, name) {
			t.Errorf("stderr does not name %s: %s", name, errOut)
		}
	}
	if len(s.Errors) != 2 {
		t.Errorf("report errors %q, want two", s.Errors)
	}
}

// TestHostileRobotsURL runs robowatch --robots URL and robowatch check
// --robots URL against a server that fails (loopback only). How each
// fetch is read (RFC 9309, redirects, size, stalls, an escape in Location)
// is robots/load_test.go's TestLoadURL; here, what the CLI makes of it: the
// warning on stderr, escaped (a URL with a bidi override, which robots.Load
// quotes as given), and the exit status, check's from the verdict.
// robowatch reads an unreachable robots.txt as RFC 9309 does not tell a log
// checker to: it checks nothing against it (everything disallowed would
// make every robot a violator), says so and exits 1 after the report.
func TestHostileRobotsURL(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/down", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) })
	mux.HandleFunc("/missing", http.NotFound)
	srv := httptest.NewServer(mux)
	defer srv.Close()

	cases := []struct {
		path    string
		says    string
		allowed bool   // /private/x for any robot
		runSays string // robowatch's stderr, where it differs from check's
		checked bool   // robowatch checked violations
	}{
		{"/down", "HTTP 503: robots.txt unreachable; RFC 9309 §2.3.1.4: everything disallowed", false,
			"error: --robots " + srv.URL + "/down: HTTP 503: robots.txt unreachable: violations not checked against it", false},
		{"/missing", "HTTP 404: robots.txt unavailable; RFC 9309 §2.3.1.3: everything allowed", true, "", true},
		{"/txt\u202egol.stobor", `/txt\u202egol.stobor`, true, "", true}, // a 404 too, named visibly
	}
	for _, tt := range cases {
		t.Run(tt.path, func(t *testing.T) {
			url := srv.URL + tt.path
			code, out, errOut := runCLI(t, nil, "check", "--robots", url, "/private/x")
			if !strings.Contains(errOut, tt.says) {
				t.Errorf("check: stderr %q lacks %q", errOut, tt.says)
			}
			if want := map[bool]int{true: cli.ExitOK, false: cli.ExitError}[tt.allowed]; code != want {
				t.Errorf("check: exit %d, want %d (allowed %v): %s", code, want, tt.allowed, out)
			}
			assertInert(t, "check stderr", errOut)
			code, out, errOut = runCLI(t, []byte(validLine), "-o", "json", "--robots", url)
			says, want := tt.runSays, cli.ExitError
			if says == "" {
				says, want = tt.says, cli.ExitOK
			}
			if code != want || !strings.Contains(errOut, says) {
				t.Errorf("robowatch --robots: exit %d (want %d), stderr %q lacks %q", code, want, errOut, says)
			}
			assertInert(t, "robowatch stderr", errOut)
			parseSummary(t, out)
			var rep struct {
				Summary struct {
					ViolationsChecked bool     `json:"violations_checked"`
					Failed            []string `json:"robots_txt_failed"`
				} `json:"summary"`
				Errors []string `json:"errors"`
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatal(err)
			}
			if rep.Summary.ViolationsChecked != tt.checked || (len(rep.Summary.Failed) == 0) != tt.checked {
				t.Errorf("violations_checked %v, robots_txt_failed %q; want checked %v", rep.Summary.ViolationsChecked, rep.Summary.Failed, tt.checked)
			}
		})
	}
}

// TestHostileClientFlood: a log of thousands of distinct addresses with one
// heavy client among them, read with a small --max-clients: the heavy
// client keeps its exact count, the folded ones are counted, and the table
// says so instead of dropping them silently.
func TestHostileClientFlood(t *testing.T) {
	const flood, heavy = 5000, 200
	var b strings.Builder
	sent := 0
	for i := 0; i < flood; i++ {
		fmt.Fprintf(&b, "10.1.%d.%d - - [06/May/2024:09:%02d:%02d +0000] \"GET /x HTTP/1.1\" 200 10 \"-\" \"bot-%d/1.0\"\n", i/250, i%250, i/60%60, i%60, i)
		if i%(flood/heavy) == 0 {
			fmt.Fprintf(&b, "203.0.113.5 - - [06/May/2024:09:%02d:%02d +0000] \"GET /y HTTP/1.1\" 200 10 \"-\" \"heavy/1.0\"\n", i/60%60, i%60)
			sent++
		}
	}
	log := []byte(b.String())
	code, out, errOut := runCLI(t, log, "-o", "json", "--max-clients", "100")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	s := parseSummary(t, out)
	var tracked int64
	heavyCount := int64(-1)
	for _, c := range s.Clients {
		tracked += c.Requests
		if c.IP == "203.0.113.5" {
			heavyCount = c.Requests
		}
	}
	if heavyCount != int64(sent) {
		t.Errorf("heavy client: %d requests, want exactly %d", heavyCount, sent)
	}
	if len(s.Clients) > 100 || tracked+s.Summary.Other.Requests != s.Summary.Records {
		t.Errorf("%d clients with %d requests + other %d != %d records", len(s.Clients), tracked, s.Summary.Other.Requests, s.Summary.Records)
	}
	folded := float64(flood + 1 - len(s.Clients))
	if got := float64(s.Summary.Other.Clients); got < 0.95*folded || got > 1.05*folded {
		t.Errorf("other clients %v, want about %v", got, folded)
	}
	_, table, _ := runCLI(t, log, "--max-clients", "100", "--section", "summary")
	if !strings.Contains(table, "of the lightest clients folded together (--max-clients)") {
		t.Errorf("the table does not say clients were folded:\n%s", table)
	}
}

// TestHostileNoGoroutineLeak: standard input that robowatch stops reading
// early (--strict at a malformed line) leaves no goroutine behind copying
// it (a long-lived caller of run, or a fuzzer, would pile them up).
func TestHostileNoGoroutineLeak(t *testing.T) {
	input := []byte("not a log line\n" + strings.Repeat(validLine, 2000))
	runCLI(t, input, "--strict")
	before := runtime.NumGoroutine()
	for i := 0; i < 20; i++ {
		if code, _, _ := runCLI(t, input, "--strict"); code != cli.ExitError {
			t.Fatalf("exit %d, want %d", code, cli.ExitError)
		}
	}
	// The copies end by themselves once their pipe is closed: wait for
	// them as long as a loaded machine needs, and no longer; 20 leaked
	// ones never get there.
	after := runtime.NumGoroutine()
	for deadline := time.Now().Add(30 * time.Second); after > before+5 && time.Now().Before(deadline); after = runtime.NumGoroutine() {
		time.Sleep(10 * time.Millisecond)
	}
	if after > before+5 {
		t.Errorf("%d goroutines after 20 runs, %d before", after, before)
	}
}

// BenchmarkGzipBomb streams a gzip of 1 GiB of zeros (about 1 MiB
// compressed) through robowatch: the time it takes, and the bytes it
// allocates, which stay those of one over-long line (skipped: the run ends
// in the error that nothing could be read). (input's TestGzipBomb
// tests the bound; no other benchmark decompresses a bomb.)
func BenchmarkGzipBomb(b *testing.B) {
	const size = 1 << 30
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	io.Copy(zw, &repeatReader{0, size})
	zw.Close()
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		var out, errOut bytes.Buffer
		// One over-long line and nothing else: nothing was read, which is
		// an error, not an empty report.
		code := run(context.Background(), []string{"-o", "json"}, bytes.NewReader(gz.Bytes()), &out, &errOut)
		if code != cli.ExitError || !strings.Contains(errOut.String(), "none of its 1 lines") {
			b.Fatalf("exit %d: %s", code, errOut.String())
		}
	}
}

// TestHostileFoldedViolators: 100 robots that break robots.txt, then 2,000
// ordinary clients under --max-clients 1000, so the violators are folded
// into "other". Their violations stay in the total, the summary says how
// many are listed and how many not (listed + unlisted = counted), and
// --fail-on violations still fails: before, the report said 0 violations
// and cron heard the all-clear.
func TestHostileFoldedViolators(t *testing.T) {
	robotsTxt := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(robotsTxt, []byte("User-agent: *\nDisallow: /private/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := range 100 {
		fmt.Fprintf(&b, "10.9.0.%d - - [06/May/2024:09:00:%02d +0000] \"GET /private/%d HTTP/1.1\" 200 10 \"-\" \"scraper%d/1.0\"\n", i, i%60, i, i)
	}
	for i := range 2000 {
		fmt.Fprintf(&b, "10.1.%d.%d - - [06/May/2024:09:01:%02d +0000] \"GET /page HTTP/1.1\" 200 10 \"-\" \"Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0\"\n", i/250, i%250, i%60)
	}
	log := []byte(b.String())
	var rep struct {
		Summary struct {
			Violations         int64 `json:"violations"`
			ViolationsListed   int64 `json:"violations_listed"`
			ViolationsUnlisted int64 `json:"violations_unlisted"`
			Incidents          int64 `json:"incidents"`
			IncidentsListed    int64 `json:"incidents_listed"`
			IncidentsUnlisted  int64 `json:"incidents_unlisted"`
			Other              struct{ Violations, Robots int64 }
		} `json:"summary"`
	}
	runJSON(t, log, &rep, "-o", "json", "--max-clients", "1000", "--robots", robotsTxt)
	s := rep.Summary
	if s.Violations != 100 || s.Other.Violations == 0 || s.Other.Robots == 0 {
		t.Errorf("violations %d (other %d, other robots %d), want 100 with some folded", s.Violations, s.Other.Violations, s.Other.Robots)
	}
	if s.ViolationsListed+s.ViolationsUnlisted != s.Violations {
		t.Errorf("violations listed %d + unlisted %d != %d", s.ViolationsListed, s.ViolationsUnlisted, s.Violations)
	}
	if s.IncidentsListed+s.IncidentsUnlisted != s.Incidents {
		t.Errorf("incidents listed %d + unlisted %d != %d", s.IncidentsListed, s.IncidentsUnlisted, s.Incidents)
	}
	if code, _, _ := runCLI(t, log, "--max-clients", "1000", "--robots", robotsTxt, "--fail-on", "violations", "--section", "summary"); code != cli.ExitFailOn {
		t.Errorf("--fail-on violations: exit %d, want %d", code, cli.ExitFailOn)
	}
	_, table, _ := runCLI(t, log, "--max-clients", "1000", "--robots", robotsTxt, "--section", "violations")
	if !strings.Contains(table, "counted but not listed") {
		t.Errorf("the violations section does not say some were not listed:\n%s", table)
	}
}
