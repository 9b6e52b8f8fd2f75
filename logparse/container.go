package logparse

import (
	"bytes"
	"fmt"
	"unsafe"
)

// A server in a container writes its access log to standard output, and
// what an admin finds on the node is that output as the container runtime
// stored it: a CRI runtime (containerd, CRI-O; Kubernetes'
// /var/log/pods/…/0.log and the /var/log/containers links to them) puts
// "<RFC 3339 time> <stdout|stderr> <F|P> " before each line, Docker's
// json-file driver (/var/lib/docker/containers/<id>/<id>-json.log) writes
// each line as the string "log" of an object. Detection finds the server's
// format inside; the runtime's time and stream say nothing robowatch needs
// (the line has its own time). A line longer than the runtime's limit
// (16 KiB) is stored in parts, the first ones marked partial (CRI's "P",
// a Docker "log" without its "\n"): such a part is malformed, as a line
// over robowatch's own limit is, and so is the rest of the line after it.

// criHeaderLen returns the length of the CRI prefix line starts with ("2016-10-06T00:17:09.669794202Z stdout F "),
// or 0 if it has none, and whether the tag says the line is partial ("P"):
// https://github.com/kubernetes/design-proposals-archive/blob/main/node/kubelet-cri-logging.md
func criHeaderLen(line []byte) (n int, partial bool) {
	// The time: RFC 3339 with nanoseconds, as the runtime writes it.
	if len(line) < 20 || line[4] != '-' || line[7] != '-' || line[10] != 'T' || line[13] != ':' || line[16] != ':' {
		return 0, false
	}
	for _, i := range [...]int{0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18} {
		if line[i] < '0' || line[i] > '9' {
			return 0, false
		}
	}
	sp := bytes.IndexByte(line[19:], ' ')
	if sp < 0 {
		return 0, false
	}
	i := 19 + sp + 1
	rest := line[i:]
	if !bytes.HasPrefix(rest, []byte("stdout ")) && !bytes.HasPrefix(rest, []byte("stderr ")) {
		return 0, false
	}
	i += len("stdout ")
	// The tags, ':'-separated; the first is F (a full line, or the last
	// part of one) or P (a part).
	if i >= len(line) || line[i] != 'F' && line[i] != 'P' {
		return 0, false
	}
	partial = line[i] == 'P'
	j := i + 1
	for j < len(line) && line[j] != ' ' {
		if j == i+1 && line[j] != ':' {
			return 0, false // "Foo": no tag
		}
		j++
	}
	if j == len(line) {
		return j, partial // an empty line: the runtime writes no content after the tag
	}
	return j + 1, partial
}

// dockerLog returns the line Docker's json-file driver stored as the
// "log" of an object ({"log":"Log line is here\n","stream":"stdout","time":"2019-01-01T11:11:11.111111111Z"},
// https://docs.docker.com/engine/logging/drivers/json-file/), decoded and
// without its "\n"; partial is a part of a longer line (no "\n" at its
// end), and ok false for a line that is no such object. Docker writes
// "log" first and "stream" after it.
func dockerLog(line []byte) (text []byte, partial, ok bool) {
	const head = `{"log":"`
	if !bytes.HasPrefix(line, []byte(head)) {
		return nil, false, false
	}
	// The closing quote: the first '"' not escaped.
	end := len(head)
	for end < len(line) && line[end] != '"' {
		if line[end] == '\\' {
			end++
		}
		end++
	}
	if end >= len(line) || !bytes.HasPrefix(line[end+1:], []byte(`,"stream":"`)) {
		return nil, false, false
	}
	v := line[len(head):end]
	// A line ends in an escaped "\n": an 'n' after an odd number of '\'.
	k := len(v) - 1
	for k > 0 && v[k-1] == '\\' {
		k--
	}
	partial = len(v) == 0 || v[len(v)-1] != 'n' || (len(v)-1-k)%2 == 0
	if !partial {
		v = v[:len(v)-2]
	}
	// unescapeJSON builds a new string (it only reads v, a view of line),
	// and the parsers only read the bytes they are given: no copies.
	s, good := unescapeJSON(unsafe.String(unsafe.SliceData(v), len(v)))
	if !good {
		return nil, false, false
	}
	return unsafe.Slice(unsafe.StringData(s), len(s)), partial, true
}

var (
	errNoCRIHeader    = fmt.Errorf("%w: no container runtime prefix (\"2024-05-06T07:00:01.123456789Z stdout F \")", ErrMismatch)
	errNoDockerObject = fmt.Errorf("%w: no Docker json-file object ({\"log\":\"...\",\"stream\":...})", ErrMismatch)
	errPartial        = fmt.Errorf("%w: a part of a line the container runtime split", ErrLineTooLong)
)

// detectContainer finds the format of lines inside a container runtime's
// log: nil unless most lines are CRI lines or Docker json-file objects.
// Then the format is the one detection chooses for what they carry (JSON,
// a text format, HAProxy's, …), even if that reads none of the sample's
// lines (a controller's startup messages before the first request): the
// log is the container's whatever it holds, and a line the format cannot
// read is malformed and counted.
func detectContainer(lines [][]byte) *Format {
	var inner [][]byte
	cri, docker := 0, 0
	for _, l := range lines {
		l = TrimEOL(l)
		if n, partial := criHeaderLen(l); n > 0 {
			cri++
			if !partial && n < len(l) {
				inner = append(inner, l[n:])
			}
		} else if text, partial, ok := dockerLog(l); ok {
			docker++
			if !partial && len(text) > 0 {
				inner = append(inner, text)
			}
		}
	}
	if cri+docker == 0 || (cri+docker)*2 < len(lines) {
		return nil
	}
	f := detectPlain(inner)
	if f.w3c != nil {
		// W3C's directives are read by the Reader, which does not look
		// inside the runtime's wrapping; a container writes no W3C log.
		f = Combined
	}
	return containerFormat(f, docker > cri)
}

// containerFormat returns f reading lines inside a CRI runtime's prefix or,
// with docker, Docker's json-file objects.
func containerFormat(f *Format, docker bool) *Format {
	name := "cri+"
	if docker {
		name = "docker+"
	}
	return &Format{name: name + f.name, spec: f.spec, container: f, docker: docker}
}

// parseContainer takes the line out of the runtime's wrapping and parses it
// with the inner format. A Docker line is decoded into a new buffer, which
// the record's strings may view: nothing else holds it.
func (f *Format) parseContainer(line []byte, rec *Record, alias bool) error {
	line = TrimEOL(line)
	if f.docker {
		text, partial, ok := dockerLog(line)
		switch {
		case !ok:
			return newParseError(line, 1, errNoDockerObject)
		case partial:
			return newParseError(line, 1, errPartial)
		}
		return f.container.parse(text, rec, true)
	}
	n, partial := criHeaderLen(line)
	switch {
	case n == 0:
		return newParseError(line, 1, errNoCRIHeader)
	case partial:
		return newParseError(line, n+1, errPartial)
	}
	err := f.container.parse(line[n:], rec, alias)
	if pe, ok := err.(*ParseError); ok {
		// The line as the file has it, and the column in it; shown as
		// every malformed line is (LineText), not escaped again for a
		// place between quotes.
		pe.Text = LineText(line, MaxTextBytes)
		if pe.Column > 0 {
			pe.Column += n
		}
	}
	return err
}
