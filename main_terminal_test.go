//go:build linux

package main

import (
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/internal/clitest"
)

// TestTerminalStdin: "robowatch" typed at a prompt, with no file, says on
// stderr that it reads the terminal and how to give a file; Ctrl-C then
// ends it with the (empty, partial) report and no error message. Before,
// it sat silent, and Ctrl-C said "read/write on closed pipe".
func TestTerminalStdin(t *testing.T) {
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("util-linux script is not installed")
	}
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
