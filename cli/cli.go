// Package cli is robowatch's command line: the commands and their flags,
// usage texts, what a bad flag says, exit statuses, and the process knobs
// only the binary needs (the memory limit, profiling).
//
// Parse turns arguments into one option struct per command, validated, so
// that main only wires the packages together; a flag whose value has a
// grammar is parsed by the package that owns the grammar (logparse's time
// bounds and formats, detect's watch list), and cli checks only how flags
// combine.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/robowatch/robowatch/report"
)

// Exit statuses.
const (
	ExitOK          = 0
	ExitError       = 1 // a runtime error: unreadable file, corrupt input
	ExitUsage       = 2 // bad flags or arguments
	ExitFailOn      = 3 // --fail-on found what it was asked to
	ExitInterrupted = 130
)

// UsageError is a bad command line: one line on stderr naming the flag and
// the value, and exit status 2.
type UsageError struct {
	Command string // "robowatch" or "robowatch check", for the pointer to --help
	Msg     string
}

func (e *UsageError) Error() string {
	return e.Command + ": " + e.Msg + " (see " + e.Command + " --help)"
}

// InterruptContext is a context that Ctrl-C (SIGINT) or SIGTERM cancels,
// so that the run ends with the report of what was read, marked partial,
// and leaves nothing behind. A second signal, should the report take too
// long, exits at once with status 130 — but only one that comes a second or
// more after the first: timeout(1) and a kill of the process group deliver
// the same signal twice within microseconds, and that second copy must not
// cut the report the first one asked for. Call stop when done.
func InterruptContext() (ctx context.Context, stop context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		var first time.Time
		for {
			select {
			case <-done:
				return
			case <-sigs:
			}
			switch {
			case first.IsZero():
				first = time.Now()
				cancel()
			case time.Since(first) >= interruptGrace:
				os.Exit(ExitInterrupted)
			}
		}
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			signal.Stop(sigs)
			close(done)
			cancel()
		})
	}
}

// interruptGrace is how long after the first signal a second one is taken
// for a copy of it rather than the user's insistence.
const interruptGrace = time.Second

// Parse reads robowatch's command line and returns the command it asks
// for: *Analyse or *Check. Help, when asked for, is written to stdout and
// Parse returns nil and no error; flag errors are *UsageError.
func Parse(args []string, stdin io.Reader, stdout, stderr io.Writer) (any, error) {
	// A nil *Analyse or *Check in an interface is not nil: return nil.
	if len(args) > 0 && args[0] == "merge" {
		m, err := parseMerge(args[1:], stdout, stderr)
		if m == nil {
			return nil, err
		}
		return m, nil
	}
	if len(args) > 0 && args[0] == "check" {
		c, err := parseCheck(args[1:], stdin, stdout, stderr)
		if c == nil {
			return nil, err
		}
		return c, nil
	}
	a, err := parseAnalyse(args, stdin, stdout, stderr)
	if a == nil {
		return nil, err
	}
	return a, nil
}

// Runner is a subcommand that runs by itself (check, merge): Run writes
// its output and returns the exit status.
type Runner interface {
	Run(ctx context.Context, stdout, stderr io.Writer) int
}

// Status writes err, if any, to stderr as one line and returns the exit
// status it calls for: 0 for none (as after --help), 2 for a bad command
// line, 130 for an interrupt (Ctrl-C while fetching robots.txt, say), 1
// for anything else.
func Status(stderr io.Writer, err error) int {
	if err == nil {
		return ExitOK
	}
	Warnf(stderr, "%v\n", err)
	var ue *UsageError
	switch {
	case errors.As(err, &ue):
		return ExitUsage
	case errors.Is(err, context.Canceled):
		return ExitInterrupted
	}
	return ExitError
}

// Warnf writes a message to stderr with everything in it that could act on
// a terminal made visible: messages carry file names, URLs and text from the
// logs and robots.txt files, which anyone may have written.
func Warnf(w io.Writer, format string, a ...any) {
	msg := strings.TrimSuffix(fmt.Sprintf(format, a...), "\n")
	fmt.Fprintln(w, report.Escape(msg))
}

// parseFlags parses args with fs, whose usage text is usage. It reports
// whether the command should go on: not after --help (written to stdout).
func parseFlags(fs *pflag.FlagSet, command, usage string, args []string, stdout, stderr io.Writer) (bool, error) {
	fs.SetOutput(stderr)
	fs.SortFlags = false
	help := fs.BoolP("help", "h", false, "show this help")
	fs.Usage = func() { writeHelp(stderr, usage, fs, helpColumns(stderr)) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return false, nil
		}
		return false, &UsageError{command, err.Error()}
	}
	if *help {
		writeHelp(stdout, usage, fs, helpColumns(stdout))
		return false, nil
	}
	return true, nil
}

// modes are the values of an auto|always|never flag.
var modes = []string{"auto", "always", "never"}

// on resolves an auto|always|never flag for a stream: auto means "when the
// stream is a terminal".
func on(mode string, stream any) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	f, ok := stream.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// width is the width to fit tables to: --width when given (flag), else the
// terminal's that w is, else $COLUMNS (as shells set it for scripts they
// run), else 0, which leaves the choice to the report.
func width(w io.Writer, flag int, given bool) int {
	if given {
		return flag
	}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			return w
		}
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 && n <= maxCount {
		return n
	}
	return 0
}
