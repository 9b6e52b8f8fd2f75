package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the .golden files from the current output")

// scenarioDir holds one directory per real-world scenario; its README.md
// says the format of the runs.
const scenarioDir = "testdata/scenarios"

// TestScenarios runs every NAME.args of testdata/scenarios/*/ through run,
// as a user would run robowatch, and compares its exit status with the
// run's "exit:" header, its stdout with NAME.golden and its stderr with
// NAME.stderr.golden (no such file: stderr must be empty, so that a new
// warning is never missed). Run with -update after a deliberate change, and
// read the diff: -update rewrites the goldens, never the exit statuses.
func TestScenarios(t *testing.T) {
	entries, err := os.ReadDir(scenarioDir)
	if err != nil {
		t.Fatal(err)
	}
	var scenarios []string
	for _, e := range entries {
		if e.IsDir() {
			scenarios = append(scenarios, e.Name())
		}
	}
	if len(scenarios) == 0 {
		t.Fatalf("no scenarios in %s", scenarioDir)
	}
	for _, scenario := range scenarios {
		t.Run(scenario, func(t *testing.T) {
			// Slashes, not filepath.Join: $DIR shows in the reports, and the
			// goldens must not depend on the system that runs the test.
			dir := path.Join(scenarioDir, scenario)
			runs := scenarioRuns(t, dir)
			for _, name := range runs {
				t.Run(name, func(t *testing.T) { runScenario(t, dir, name) })
			}
		})
	}
}

// scenarioRuns lists the runs of dir (the NAME of each NAME.args) and fails
// on a golden that belongs to none: a run renamed or deleted must not leave
// its goldens behind, where they would look tested.
func scenarioRuns(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var runs []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".args"); ok {
			runs = append(runs, name)
		}
	}
	if len(runs) == 0 {
		t.Fatalf("%s has no NAME.args: a scenario needs at least one run", dir)
	}
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".golden")
		if !ok {
			continue
		}
		if !slices.Contains(runs, name) && !slices.Contains(runs, strings.TrimSuffix(name, ".stderr")) {
			t.Errorf("%s/%s belongs to no NAME.args", dir, e.Name())
		}
	}
	return runs
}

// scenarioArgs is a parsed NAME.args file.
type scenarioArgs struct {
	args  []string
	exit  int      // the exit status expected
	stdin string   // the file fed on standard input, relative to the scenario's directory; "": empty input
	env   []string // NAME=VALUE settings of the environment for the run
}

// parseArgs reads a NAME.args file: one argument per line, $DIR replaced by
// dir; "#" lines and blank lines skipped; before the first argument, the
// header lines "exit: N", "stdin: FILE" and "env: NAME=VALUE".
func parseArgs(text, dir string) (scenarioArgs, error) {
	var a scenarioArgs
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\r\n") // a checkout with CRLF line ends reads the same
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			continue
		case a.args == nil && strings.HasPrefix(line, "exit:"):
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "exit:")))
			if err != nil {
				return a, err
			}
			a.exit = n
		case a.args == nil && strings.HasPrefix(line, "stdin:"):
			a.stdin = strings.TrimSpace(strings.TrimPrefix(line, "stdin:"))
		case a.args == nil && strings.HasPrefix(line, "env:"):
			kv := strings.TrimSpace(strings.TrimPrefix(line, "env:"))
			if !strings.Contains(kv, "=") {
				return a, fmt.Errorf("env: %q is not NAME=VALUE", kv)
			}
			a.env = append(a.env, kv)
		default:
			a.args = append(a.args, strings.ReplaceAll(line, "$DIR", dir))
		}
	}
	return a, nil
}

// runScenario runs dir/name.args and checks it against its goldens.
func runScenario(t *testing.T, dir, name string) {
	text, err := os.ReadFile(path.Join(dir, name+".args"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := parseArgs(string(text), dir)
	if err != nil {
		t.Fatalf("%s.args: %v", name, err)
	}
	var stdin []byte // none given: empty, so a run that reads stdin by mistake ends
	if a.stdin != "" {
		if stdin, err = os.ReadFile(path.Join(dir, a.stdin)); err != nil {
			t.Fatalf("%s.args: stdin: %v", name, err)
		}
	}
	// The goldens must not depend on the shell the tests run from: what
	// robowatch reads from the environment is cleared, then set as the run
	// says.
	t.Setenv("COLUMNS", "")
	t.Setenv("NO_COLOR", "")
	for _, kv := range a.env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	var out, errOut bytes.Buffer
	code := run(context.Background(), a.args, bytes.NewReader(stdin), &out, &errOut)
	if code != a.exit {
		t.Errorf("exit %d, want %d (the exit: line of %s.args); stderr:\n%s", code, a.exit, name, errOut.String())
	}
	compareGolden(t, path.Join(dir, name+".golden"), out.String(), true)
	compareGolden(t, path.Join(dir, name+".stderr.golden"), errOut.String(), false)
	// JSON is for scripts, and encoding/json escapes what it must; every
	// other output, and stderr always, is read by people on a terminal.
	if !jsonOutput(a.args) {
		assertNoControl(t, out.String())
	}
	assertNoControl(t, errOut.String())
}

// compareGolden compares got with the golden file, or rewrites it with
// -update. A stderr golden (required false) exists only when there is
// something on stderr: a missing one means stderr must be empty, and
// -update removes one that is no longer needed.
func compareGolden(t *testing.T, golden, got string, required bool) {
	t.Helper()
	if *update {
		var err error
		if got == "" && !required {
			if err = os.Remove(golden); errors.Is(err, fs.ErrNotExist) {
				err = nil
			}
		} else {
			err = os.WriteFile(golden, []byte(got), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !required:
		if got != "" {
			t.Errorf("unexpected stderr (go test -run TestScenarios -update writes %s):\n%s", golden, got)
		}
		return
	case err != nil:
		t.Fatalf("%v (go test -run TestScenarios -update creates it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s at %s(go test -run TestScenarios -update, then read the diff)",
			golden, firstDiff(got, string(want)))
	}
}

// jsonOutput reports whether args ask for JSON (-o json, --output=json, …).
func jsonOutput(args []string) bool {
	for i, a := range args {
		switch a {
		case "-o", "--output":
			if i+1 < len(args) && args[i+1] == "json" {
				return true
			}
		case "-ojson", "-o=json", "--output=json":
			return true
		}
	}
	return false
}

// assertNoControl fails if out carries a byte a terminal would act on.
func assertNoControl(t *testing.T, out string) {
	t.Helper()
	for i := 0; i < len(out); i++ {
		if c := out[i]; (c < 0x20 && c != '\n') || c == 0x7f {
			t.Fatalf("raw control byte %#x at %d: %q", c, i, out[max(0, i-20):min(len(out), i+20)])
		}
	}
	if strings.ContainsRune(out, '\u009b') || strings.ContainsRune(out, '\u202e') {
		t.Fatal("raw C1 control or bidi override in output")
	}
}
