package logparse

import (
	"bytes"
	"io"
)

// lineEnds passes a log through with its line ends made ones that the
// readers, which cut lines at LF, see: CR, LF and CRLF all end lines, so a
// CR-only log (an old Mac's) is not one enormous malformed line. Byte by
// byte:
//
//   - LF ends a line; so do CR LF and CR CR LF, once. CR CR LF is what a
//     CRLF log looks like after a second LF-to-CRLF conversion (an FTP
//     transfer in ASCII mode of a file already CRLF); such logs were always
//     read as one line per CR CR LF, and still are. The CRs stay in the
//     line, and the parsers trim them (TrimEOL).
//   - Any other CR ends a line, and is made an LF. That includes a raw CR
//     inside a quoted field: servers escape the CRs of a header they log,
//     so a raw one is a line end of the file, not part of a User-agent.
//     "a\r\r" is two line ends, as "a\n\n" is: a line and an empty one.
//
// Which a CR is depends on at most the two bytes after it, so at most two
// CRs at the end of one read are held back until the next read shows what
// follows them; they go first into the next buffer, so that line numbers
// are the same however the input is cut into reads (by bufio, by gzip, or
// into the ParallelReader's blocks, which are cut after this). The work is
// done in the caller's buffer with one IndexByte scan per read: a log
// without CRs costs a memchr.
type lineEnds struct {
	r     io.Reader
	held  int     // CRs read and not passed on, 0 to 2: what they are depends on what follows
	err   error   // r's error, returned once the held CRs are passed on
	pend  []byte  // bytes decided but not yet passed on: the caller's buffer had no room
	spare [3]byte // room to decide held CRs in when the caller's buffer has none behind them
}

func (l *lineEnds) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if len(l.pend) > 0 {
		n := copy(p, l.pend)
		l.pend = l.pend[n:]
		return n, nil
	}
	if l.err != nil && l.held == 0 {
		return 0, l.err
	}
	// The held CRs go first, then what r gives. bufio can offer a buffer
	// with no room behind them (a long line nearly fills its own); then
	// one byte is read into spare, which is enough to decide on them.
	buf, spare := p, len(p) <= l.held
	if spare {
		buf = l.spare[:l.held+1]
	}
	h := l.held
	for i := range h {
		buf[i] = '\r'
	}
	n, err := 0, l.err
	if err == nil {
		n, err = l.r.Read(buf[h:])
	}
	l.held, l.err = 0, err
	n = l.convert(buf[:h+n], err != nil)
	if spare {
		m := copy(p, buf[:n])
		l.pend, n = buf[m:n], m
	}
	if l.held > 0 || len(l.pend) > 0 {
		return n, nil // err, if any, comes after them
	}
	return n, err
}

// convert makes the CRs of b that end lines LF, in place, and returns how
// many bytes of b are decided; the CRs after them (at most two, which only
// the bytes after b decide) are counted in l.held. At the end of the input
// (final) every CR is decided.
func (l *lineEnds) convert(b []byte, final bool) int {
	for i := 0; ; {
		k := bytes.IndexByte(b[i:], '\r')
		if k < 0 {
			return len(b)
		}
		i += k
		switch {
		case i+1 < len(b) && b[i+1] == '\n': // CR LF
			i += 2
		case i+2 < len(b) && b[i+1] == '\r' && b[i+2] == '\n': // CR CR LF
			i += 3
		case i+2 < len(b) || i+1 < len(b) && b[i+1] != '\r' || final:
			b[i] = '\n' // followed by anything else, or by the end of the input
			i++
		default:
			l.held = len(b) - i // "\r" or "\r\r" at the end of b
			return i
		}
	}
}
