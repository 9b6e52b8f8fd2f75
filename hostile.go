// Defences against hostile input: logs and robots.txt files are written by
// whoever sends a request, so nothing from them reaches the terminal raw, a
// silent pipe cannot hold off Ctrl-C, and memory has a cap.

package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/report"
)

// defaultMaxClients is --max-clients' default. A tracked client costs about
// 820 bytes (detect's BenchmarkFlood10M: 195 MiB held at 250,000 clients
// after 10 million distinct ones), so the cap keeps the detector near
// 200 MB on a laptop whatever the log. The heavy clients stay exact past it:
// only clients with fewer than records/250,000 requests can be folded.
const defaultMaxClients = 250_000

// robotsClient fetches --robots URLs; nil is robots.Fetch's default (15 s
// timeout). Tests shorten it.
var robotsClient *http.Client

// warnf writes a message to stderr with everything in it that could act on
// a terminal made visible: messages carry file names, URLs and text from the
// logs and robots.txt files, which anyone may have written.
func warnf(w io.Writer, format string, a ...any) {
	msg := strings.TrimSuffix(fmt.Sprintf(format, a...), "\n")
	fmt.Fprintln(w, report.Escape(msg))
}

// malformedWarning says when most lines of one input did not parse: a file
// that is not an access log, or a --format that does not fit it. The report
// counts and samples the lines; this names the file.
func malformedWarning(name string, s logparse.Stats) string {
	if name == "-" {
		name = "standard input"
	}
	switch {
	case s.Malformed == 0 || s.Malformed*2 < s.Lines:
		return ""
	case s.Records == 0:
		return fmt.Sprintf("%s: none of its %d lines is a %s log line; is it an access log (see the malformed lines in the report, or give --format)?", name, s.Lines, s.Format)
	}
	return fmt.Sprintf("%s: %d of its %d lines are malformed (%s format); they are counted and skipped", name, s.Malformed, s.Lines, s.Format)
}

// interruptible returns r, whose Read returns as soon as ctx is done (with
// ctx's error), even while r itself blocks: a pipe or a terminal that stays
// silent must not keep Ctrl-C from printing the partial report. Reads are
// done by a goroutine that copies r into a pipe; it stays blocked in r
// until r returns, which costs nothing as the program ends. Close it when
// done. A nil ctx returns r as it is.
func interruptible(ctx context.Context, r io.Reader) io.ReadCloser {
	if ctx == nil || r == nil {
		return io.NopCloser(r)
	}
	pr, pw := io.Pipe()
	go func() {
		_, err := io.Copy(pw, r)
		pw.CloseWithError(err) // nil: io.EOF for the reader
	}()
	stop := context.AfterFunc(ctx, func() { pr.CloseWithError(ctx.Err()) })
	return &interruptReader{pr: pr, stop: stop}
}

type interruptReader struct {
	pr   *io.PipeReader
	stop func() bool
}

func (r *interruptReader) Read(b []byte) (int, error) {
	n, err := r.pr.Read(b)
	if err != nil {
		r.stop()
	}
	return n, err
}

// Close ends the copy when the reader stops early (a corrupt gzip stream,
// --strict): the goroutine's next write fails and it returns.
func (r *interruptReader) Close() error {
	r.stop()
	return r.pr.Close()
}
