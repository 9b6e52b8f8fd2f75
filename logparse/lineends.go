package logparse

import (
	"bytes"
	"io"
)

// lineEnds passes a log through with every lone CR (an old Mac's line end)
// turned into LF, so that CR, LF and CRLF all end lines and a CR-only log
// is not one enormous malformed line. CRLF is left as it is: the parsers
// trim it, and line numbers count it once. A CR inside a quoted field ends
// the line too: no server writes one raw (they escape it), so a raw one is
// a line end. The work is done in the caller's buffer, with one IndexByte
// scan per read: a log without CRs costs a memchr.
type lineEnds struct {
	r  io.Reader
	cr bool // the last byte read was a CR, held back until the next byte is known
}

func (l *lineEnds) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	start := 0
	if l.cr {
		p[0], start, l.cr = '\r', 1, false
	}
	n, err := l.r.Read(p[start:])
	n += start
	for i := 0; i < n; {
		k := bytes.IndexByte(p[i:n], '\r')
		if k < 0 {
			break
		}
		i += k
		switch {
		case i+1 < n:
			if p[i+1] != '\n' {
				p[i] = '\n'
			}
		case err != nil:
			p[i] = '\n' // a CR at the very end ends the last line
		default:
			n, l.cr = i, true // which it is depends on the next byte
		}
		i++
	}
	return n, err
}
