package clitest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// Binary builds the robowatch command once per test process and returns
// its path, for the tests that need a process of its own (signals, a
// terminal, -F). Under -short the test is skipped: the build takes longer
// than most packages' tests.
func Binary(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "robowatch-bin")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "robowatch")
		if out, err := exec.Command("go", "build", "-o", binPath, "github.com/robowatch/robowatch").CombinedOutput(); err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// Output collects what a process writes while the test reads it.
type Output struct {
	mu   sync.Mutex
	text strings.Builder
}

func (o *Output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.text.Write(p)
}

// String is what was written so far.
func (o *Output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.text.String()
}
