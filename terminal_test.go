package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mattn/go-runewidth"
	"github.com/robowatch/robowatch/internal/clitest"
)

// What reaches a person's terminal: on a real pseudo-terminal (util-linux's
// script, Linux only), and every output meant for people over hostile
// input, where nothing a terminal would act on may pass.

// ptyScript is util-linux's script, which runs a command on a
// pseudo-terminal; the test is skipped where there is none.
func ptyScript(t *testing.T) string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("util-linux script: Linux only")
	}
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("util-linux script is not installed")
	}
	return script
}

// TestTerminal80Columns runs robowatch on a real pseudo-terminal 80 columns
// wide (util-linux's script) over logs with hostile lines, as a person at a
// small terminal would, and checks what reaches the screen: no line wider
// than the terminal, and no control character at all (colour is off, so
// every escape would have come from the log).
func TestTerminal80Columns(t *testing.T) {
	script := ptyScript(t)
	bin := clitest.Binary(t)
	runs := [][]string{
		{"--robots", "testdata/scenarios/site/robots.txt", "testdata/scenarios/site/site.log", "testdata/hostile/terminal-escapes.log"},
		{"--robots", "testdata/sample.robots.txt", "--client", "90.32.98.73", "testdata/sample.log.gz"},
		{"check", "--robots", "testdata/robots/hostile/control-chars.txt", "--lint"},
	}
	for _, args := range runs {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			cmd := bin + " --color never --progress never " + strings.Join(args, " ")
			if args[0] == "check" {
				cmd = bin + " " + strings.Join(args, " ")
			}
			c := exec.Command(script, "-qec", "stty cols 80 rows 100; "+cmd, "/dev/null")
			c.Env = append(os.Environ(), "TERM=xterm", "NO_COLOR=")
			out, _ := c.CombinedOutput() // check --lint exits 1 on errors found
			screen := strings.ReplaceAll(string(out), "\r\n", "\n")
			if len(strings.TrimSpace(screen)) == 0 {
				t.Fatal("nothing on the screen")
			}
			for n, line := range strings.Split(screen, "\n") {
				// Lint findings are messages, like a compiler's, and may wrap;
				// tables must fit.
				if w := runewidth.StringWidth(line); w > 80 && args[0] != "check" {
					t.Errorf("line %d is %d columns wide:\n%s", n+1, w, line)
				}
				for _, r := range line {
					if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
						t.Fatalf("line %d carries control character %U: %q", n+1, r, line)
					}
				}
			}
		})
	}
}

// TestTerminalStdin: "robowatch" typed at a prompt, with no file, says on
// stderr that it reads the terminal and how to give a file; Ctrl-C then
// ends it with the (empty, partial) report and no error message. Before,
// it sat silent, and Ctrl-C said "read/write on closed pipe".
func TestTerminalStdin(t *testing.T) {
	script := ptyScript(t)
	bin := clitest.Binary(t)
	// exec, so the Ctrl-C reaches robowatch alone: a shell waiting for it
	// would itself die of SIGINT under dash (CI's /bin/sh) before it could
	// print anything. script -e hands back robowatch's exit status.
	c := exec.Command(script, "-qec", "stty cols 100 rows 50; exec "+bin+" --color never --section summary", "/dev/null")
	c.Env = append(os.Environ(), "TERM=xterm", "SHELL=/bin/sh")
	keys, _ := c.StdinPipe()
	screen := &clitest.Output{}
	c.Stdout, c.Stderr = screen, screen
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	defer c.Process.Kill()
	// Ctrl-C once robowatch says it reads the terminal: sent before
	// robowatch runs (a fixed second assumed an idle machine), it would
	// reach the shell or stty instead.
	const hint = "reading a log from standard input (the terminal)"
	text := screen.String
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(text(), hint); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("robowatch did not say it reads the terminal within 30 s:\n%s", text())
		}
	}
	io.WriteString(keys, "\x03") // Ctrl-C, through the terminal's line discipline
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	var status int
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); ok {
			status = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no exit within 20 s of Ctrl-C")
	}
	out := strings.ReplaceAll(screen.String(), "\r\n", "\n")
	if status != 130 {
		t.Errorf("exit status %d after Ctrl-C, want 130:\n%s", status, out)
	}
	for _, want := range []string{hint, "robowatch access.log", "Summary"} {
		if !strings.Contains(out, want) {
			t.Errorf("screen lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"closed pipe", "context canceled"} {
		if strings.Contains(out, bad) {
			t.Errorf("screen says %q:\n%s", bad, out)
		}
	}
}

// TestHostileTerminal runs every output meant for people over the hostile
// files, with hostile file names too, and checks that neither stdout nor
// stderr carries a raw escape sequence, backspace, C1 control or bidi
// override, and that the escapes are shown, not silently dropped.
func TestHostileTerminal(t *testing.T) {
	dir := t.TempDir()
	evilLog := filepath.Join(dir, "access\x1b]0;pwned\x07\u202egol.log")
	data, err := os.ReadFile(filepath.Join(hostileDir, "terminal-escapes.log"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(evilLog, data, 0o644); err != nil {
		t.Fatal(err)
	}
	evilMissing := filepath.Join(dir, "gone\x1b[2J\x08.log")
	evilGarbage := filepath.Join(dir, "garbage\x1b[31m.log")
	garbage, _ := os.ReadFile(filepath.Join(hostileDir, "binary-garbage.log"))
	os.WriteFile(evilGarbage, garbage, 0o644)
	robotsTxt := filepath.Join(hostileDir, "robots.txt")

	logs, err := filepath.Glob(filepath.Join(hostileDir, "*.log*"))
	if err != nil || len(logs) == 0 {
		t.Fatalf("no hostile logs in %s: %v", hostileDir, err)
	}
	logs = append(logs, evilLog, evilMissing, evilGarbage)

	runs := [][]string{}
	for _, format := range []string{"table", "markdown", "html"} {
		runs = append(runs,
			append([]string{"-o", format, "--robots", robotsTxt}, logs...),
			append([]string{"-o", format, "--top", "0"}, logs...),
		)
	}
	runs = append(runs,
		[]string{"--robots", robotsTxt, "--strict", evilLog},
		[]string{"--robots", filepath.Join(dir, "robots\x1b]0;x\x07.txt"), evilLog},
		[]string{"-f", "%h \x1b[31m%{Referer"},
		[]string{"-o", "x\x1b[2J"},
		[]string{"--since", "\x1b]0;x\x07"},
		[]string{"check", "--robots", robotsTxt, "--agent", "Evil\u202eBot\x1b[5m", "/private/\x1b]0;x\x07", "/\x08\x08", "/\u202eok"},
		[]string{"check", "--robots", robotsTxt, "--lint"},
		[]string{"check", "--robots", "testdata/robots/hostile/control-chars.txt", "--lint"},
		[]string{"check", "--robots", "testdata/robots/hostile/control-chars.txt", "--agent", "\x1b]0;owned\x07Bot", "/\x1b[2J", "/a\x00b"},
		[]string{"check", "--robots", "testdata/robots/hostile/binary-garbage.txt", "--lint"},
		[]string{"check", "--robots", filepath.Join(dir, "no\x1b[2Jne.txt"), "/"},
	)
	for _, args := range runs {
		name := strings.Join(args, " ")
		_, out, errOut := runCLI(t, nil, args...)
		assertInert(t, name+": stdout", out)
		assertInert(t, name+": stderr", errOut)
	}

	// The escapes are there to be seen, in every human format.
	for _, format := range []string{"table", "markdown", "html"} {
		_, out, errOut := runCLI(t, nil, "-o", format, "--robots", robotsTxt, evilLog, evilMissing)
		shown := `\x1b]0;pwned\x07`
		if format == "markdown" {
			shown = `\\x1b\]0;pwned\\x07` // Markdown's own escapes on top
		}
		for _, want := range []string{shown, `\u202e`} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: report does not show %s visibly", format, want)
			}
		}
		if !strings.Contains(errOut, `gone\x1b[2J\x08.log`) {
			t.Errorf("%s: stderr does not name the missing file visibly: %q", format, errOut)
		}
	}
}
