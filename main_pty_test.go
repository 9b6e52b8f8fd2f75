//go:build linux

package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"
	"github.com/robowatch/robowatch/internal/clitest"
)

// TestTerminal80Columns runs robowatch on a real pseudo-terminal 80 columns
// wide (util-linux's script) over logs with hostile lines, as a person at a
// small terminal would, and checks what reaches the screen: no line wider
// than the terminal, and no control character at all (colour is off, so
// every escape would have come from the log).
func TestTerminal80Columns(t *testing.T) {
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("util-linux script is not installed")
	}
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
