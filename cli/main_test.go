package cli_test

// The end-to-end tests of Main, a file a feature (merge, block lists,
// identity, conduct, preferences, ledgers, verdicts, pace, tables, hostile
// input, -F): each runs the whole command as a user would
// (internal/clitest) on the logs of ../testdata, or on logs it writes.
// This file holds what several of them share.

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/robowatch/robowatch/cli"
	"github.com/robowatch/robowatch/internal/clitest"
)

var update = flag.Bool("update", false, "rewrite the .golden files from the current output")

// run is the whole command, as main runs it.
var run = cli.Main

var (
	runCLI       = clitest.Run
	runJSON      = clitest.RunJSON
	parseSummary = clitest.ParseSummary
	firstDiff    = clitest.FirstDiff
	assertInert  = clitest.AssertInert
)

// validLine is one ordinary request of a browser.
const validLine = clitest.ValidLine

// show is a number of the JSON report that may be null, as text: "null"
// or its value.
func show(p any) string {
	switch p := p.(type) {
	case *float64:
		if p == nil {
			return "null"
		}
		return fmt.Sprint(*p)
	case *int64:
		if p == nil {
			return "null"
		}
		return fmt.Sprint(*p)
	}
	return fmt.Sprint(p)
}

// line is a combined-format log line dated at.
func line(ip string, at time.Time, path, ua string) string {
	return fmt.Sprintf("%s - - [%s] \"GET %s HTTP/1.1\" 200 512 \"-\" \"%s\"\n", ip, at.Format("02/Jan/2006:15:04:05 -0700"), path, ua)
}

// writeLog writes text to dir/name and returns its path.
func writeLog(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
