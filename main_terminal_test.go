//go:build linux

package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "robowatch")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	c := exec.Command(script, "-qec", "stty cols 100 rows 50; "+bin+" --color never --section summary; echo exit=$?", "/dev/null")
	c.Env = append(os.Environ(), "TERM=xterm")
	keys, _ := c.StdinPipe()
	var screen bytes.Buffer
	c.Stdout, c.Stderr = &screen, &screen
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	defer c.Process.Kill()
	time.Sleep(time.Second)
	io.WriteString(keys, "\x03") // Ctrl-C, through the terminal's line discipline
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("no exit within 20 s of Ctrl-C")
	}
	out := strings.ReplaceAll(screen.String(), "\r\n", "\n")
	for _, want := range []string{"reading a log from standard input (the terminal)", "robowatch access.log", "Summary", "exit=130"} {
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
