package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/robowatch/robowatch/report"
	"github.com/robowatch/robowatch/robots"
)

const checkUsage = `Usage:
  robowatch check --robots FILE|URL|- [--agent UA] [-o text|json|csv] PATH...
  robowatch check --robots FILE|URL|- --lint [-o text|json|csv]

For each PATH (path and query, as in a request line), says whether the robot
whose User-agent is UA may fetch it, which group of the robots.txt applied and
which rule decided, with its line. UA may be a product token (Googlebot) or a
whole User-agent header as logged. --lint lists what the file's author
probably got wrong instead.

Exit status: 0 every path allowed (--lint: no errors found), 1 some path
disallowed (--lint: errors found), 2 usage error or unreadable robots.txt.

Examples:
  robowatch check --robots robots.txt --agent Googlebot /private/x '/search?q=1'
  robowatch check --robots https://example.com/robots.txt -o json /
  robowatch check --robots robots.txt --lint

Flags:
`

// Check is robowatch check: what a robots.txt says about some paths for
// one robot, or what is wrong with the file.
type Check struct {
	Robots string   // the robots.txt: a file, or an http(s) URL
	Agent  string   // the robot's User-agent: a product token or a whole header
	Lint   bool     // list the file's problems instead of checking paths
	Output string   // one of report.CheckFormats
	Paths  []string // paths (and queries) to check

	Client *http.Client // fetches a URL; nil: robots.Fetch's default
	Stdin  io.Reader    // the robots.txt when Robots is "-"
}

func parseCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) (*Check, error) {
	fs := pflag.NewFlagSet("robowatch check", pflag.ContinueOnError)
	c := Check{Stdin: stdin}
	var robotsFiles []string
	fs.StringArrayVar(&robotsFiles, "robots", nil, "the robots.txt: a FILE, an http(s) URL to fetch, or - for standard input")
	fs.StringVar(&c.Agent, "agent", "*", "the robot's User-agent: a product token or a whole header")
	fs.BoolVar(&c.Lint, "lint", false, "list what the file's author probably got wrong")
	fs.StringVarP(&c.Output, "output", "o", "text", "output: "+strings.Join(report.CheckFormats, ", "))
	if ok, err := parseFlags(fs, "robowatch check", checkUsage, args, stdout, stderr); !ok {
		return nil, err
	}
	usage := func(format string, v ...any) (*Check, error) {
		return nil, &UsageError{"robowatch check", fmt.Sprintf(format, v...)}
	}
	c.Paths = fs.Args()
	if len(robotsFiles) == 1 {
		c.Robots = robotsFiles[0]
	}
	switch {
	case len(robotsFiles) > 1:
		return usage("--robots given %d times: check reads one robots.txt", len(robotsFiles))
	case c.Robots == "":
		return usage("--robots FILE|URL is required")
	case !slices.Contains(report.CheckFormats, c.Output):
		return usage("--output %q: want one of %s", c.Output, strings.Join(report.CheckFormats, ", "))
	case c.Lint && len(c.Paths) > 0:
		return usage("--lint takes no paths")
	case !c.Lint && len(c.Paths) == 0:
		return usage("give at least one PATH to check, or --lint")
	}
	return &c, nil
}

// Run checks the paths (or lints the file), writes the answer to stdout
// and returns the exit status: 1 when a path is disallowed or the file has
// errors, 2 when the robots.txt cannot be read.
func (c *Check) Run(ctx context.Context, stdout, stderr io.Writer) int {
	var (
		r        *robots.Robots
		warnings []string
		err      error
	)
	if c.Robots == "-" {
		in := c.Stdin
		if in == nil {
			in = os.Stdin
		}
		r, warnings, err = robots.LoadReader(in, "standard input")
	} else {
		r, warnings, err = robots.Load(ctx, c.Robots, c.Client)
	}
	for _, w := range warnings {
		Warnf(stderr, "robowatch: %s\n", w)
	}
	if err != nil {
		Warnf(stderr, "robowatch check: --robots %s: %v\n", robots.Redact(c.Robots), err)
		if errors.Is(err, context.Canceled) {
			return ExitInterrupted
		}
		return ExitUsage
	}
	if c.Lint {
		problems := robots.Lint(r)
		if err := report.WriteLint(stdout, c.Output, robots.Redact(c.Robots), problems); err != nil {
			Warnf(stderr, "robowatch check: %v\n", err)
			return ExitUsage
		}
		for _, p := range problems {
			if p.Severity == robots.Error {
				return ExitError
			}
		}
		return ExitOK
	}
	decisions := r.Check(c.Agent, c.Paths...)
	if err := report.WriteCheck(stdout, c.Output, decisions); err != nil {
		Warnf(stderr, "robowatch check: %v\n", err)
		return ExitUsage
	}
	for _, d := range decisions {
		if !d.Allowed {
			return ExitError
		}
	}
	return ExitOK
}
