package report

import (
	"bufio"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// csvWriter writes RFC 4180 records as encoding/csv does (comma-separated,
// "\n" line ends, a field quoted when it holds a comma, a quote, a line end
// or a leading space), and also quotes a field that holds a semicolon.
// Spreadsheets in locales whose decimal mark is a comma split CSV at
// semicolons: unquoted, a User-agent such as "x;=HYPERLINK(…)" would be two
// cells there, the second a formula that neutralise never saw at the start
// of a cell.
type csvWriter struct {
	w   *bufio.Writer
	err error
}

func newCSVWriter(w io.Writer) *csvWriter { return &csvWriter{w: bufio.NewWriter(w)} }

// Write writes one record; the first error is kept for Error.
func (c *csvWriter) Write(record []string) {
	if c.err != nil {
		return
	}
	for i, f := range record {
		if i > 0 {
			c.w.WriteByte(',')
		}
		if !csvNeedsQuotes(f) {
			c.w.WriteString(f)
			continue
		}
		c.w.WriteByte('"')
		for {
			j := strings.IndexByte(f, '"')
			if j < 0 {
				break
			}
			c.w.WriteString(f[:j+1])
			c.w.WriteByte('"')
			f = f[j+1:]
		}
		c.w.WriteString(f)
		c.w.WriteByte('"')
	}
	_, c.err = c.w.WriteString("\n")
}

// Flush writes what is buffered.
func (c *csvWriter) Flush() {
	if err := c.w.Flush(); c.err == nil {
		c.err = err
	}
}

// Error returns the first write error.
func (c *csvWriter) Error() error { return c.err }

// csvNeedsQuotes is encoding/csv's rule, with ';' added.
func csvNeedsQuotes(f string) bool {
	if f == "" {
		return false
	}
	if f == `\.` || strings.ContainsAny(f, ",;\"\r\n") {
		return true
	}
	r, _ := utf8.DecodeRuneInString(f)
	return unicode.IsSpace(r)
}
