package logparse

import (
	"bytes"
	"fmt"
)

// A server told to log through syslog (nginx's access_log syslog:…, Apache
// piped to logger) has its lines written by the syslog daemon after a
// header of its own: "Mar 10 08:00:00 web1 nginx: ", "2024-03-10T08:00:00+00:00
// web1 nginx[12]: ", "<190>Mar 10 …" as received, or RFC 5424's
// "<190>1 2024-03-10T08:00:00Z web1 nginx 12 - - ". Detection tries the
// text formats on what follows that header when they fit no line as it is;
// the header says nothing robowatch needs (the line has its own time).
// JSON lines (a JSON log_format) are read behind it too.

// syslogHeaderLen returns the length of the syslog header line starts
// with, or 0 if it has none.
func syslogHeaderLen(line []byte) int {
	i := 0
	rfc5424 := false
	if len(line) > 0 && line[0] == '<' {
		j := bytes.IndexByte(line[:min(len(line), 6)], '>')
		if j < 2 {
			return 0
		}
		for _, c := range line[1:j] {
			if c < '0' || c > '9' {
				return 0
			}
		}
		i = j + 1
		if len(line) > i+1 && line[i] == '1' && line[i+1] == ' ' {
			rfc5424, i = true, i+2
		}
	}
	// token skips one space-separated token and the space after it.
	token := func() bool {
		k := bytes.IndexByte(line[i:], ' ')
		if k <= 0 {
			return false
		}
		i += k + 1
		return true
	}
	if rfc5424 {
		// TIMESTAMP HOSTNAME APP-NAME PROCID MSGID, then "-" for no
		// structured data (robowatch does not read "[…]" elements).
		for range 5 {
			if !token() {
				return 0
			}
		}
		if !bytes.HasPrefix(line[i:], []byte("- ")) {
			return 0
		}
		return i + 2
	}
	rest := line[i:]
	switch {
	case len(rest) > 16 && isLetter(rest[0]) && rest[3] == ' ' && rest[6] == ' ' && rest[9] == ':' && rest[12] == ':' && rest[15] == ' ':
		i += 16 // "Mar 10 08:00:00 "
	case len(rest) > 20 && rest[4] == '-' && rest[7] == '-' && rest[10] == 'T':
		if !token() { // RFC 3339, as rsyslog writes it
			return 0
		}
	default:
		return 0
	}
	if !token() { // the host
		return 0
	}
	// The tag: "nginx:" or "nginx[123]:".
	k := bytes.IndexByte(line[i:], ' ')
	if k < 2 || line[i+k-1] != ':' {
		return 0
	}
	return i + k + 1
}

var errNoSyslogHeader = fmt.Errorf("%w: no syslog header (\"Mar 10 08:00:00 host tag: \")", ErrMismatch)

// detectSyslog finds the text format of lines behind syslog headers: nil
// unless most lines have one and the built-in formats read most of what
// follows.
func detectSyslog(lines [][]byte) *Format {
	var inner [][]byte
	for _, l := range lines {
		if n := syslogHeaderLen(l); n > 0 {
			inner = append(inner, l[n:])
		}
	}
	if len(inner) == 0 || len(inner)*2 < len(lines) {
		return nil
	}
	f, read := detectBuiltin(inner)
	if read*2 < len(lines) {
		// nginx's access_log syslog:… with a JSON log_format (escape=json)
		// writes "… nginx: {…}": JSON behind the header.
		n := 0
		var rec Record
		for _, l := range inner {
			if JSONFormat.Parse(l, &rec) == nil {
				n++
			}
		}
		if n*2 < len(lines) {
			return nil
		}
		f = JSONFormat
	}
	return syslogFormat(f)
}

// syslogFormat returns f reading lines after their syslog header.
func syslogFormat(f *Format) *Format {
	return &Format{name: "syslog+" + f.name, spec: f.spec, syslog: f}
}

// parseSyslog strips the header and parses the rest with the inner format.
func (f *Format) parseSyslog(line []byte, rec *Record, alias bool) error {
	n := syslogHeaderLen(line)
	if n == 0 {
		return newParseError(line, 1, errNoSyslogHeader)
	}
	return f.syslog.parse(line[n:], rec, alias)
}
