package logparse

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// DefaultMaxLineBytes is the longest line a Reader parses by default; longer
// lines are malformed (ErrLineTooLong) and skipped without being held whole.
const DefaultMaxLineBytes = 1 << 20

// MaxSamples is how many ParseErrors Stats keeps as samples.
const MaxSamples = 10

// Auto-detection looks at up to detectLines non-empty lines, and at most
// detectBytes of them, before the first record is returned.
const (
	detectLines = 100
	detectBytes = 4 << 20
)

// readBufferSize is the bufio buffer: lines shorter than it are parsed in
// place, longer ones are gathered into Reader.long.
const readBufferSize = 64 << 10

// Stats counts what a Reader has read. Stats of several files add up with Merge.
type Stats struct {
	Format     string // the format used (detected or given); "" before any line with auto-detection
	Lines      int64  // lines read: Records + Malformed + Directives
	Records    int64  // lines parsed into a Record
	Malformed  int64  // lines that did not parse (each a *ParseError)
	Directives int64  // W3C directives ("#Fields: …"): neither records nor malformed
	Elsewhere  int64  // records left to other shards (--shard): in none of the counts above
	// MalformedElsewhere are the malformed lines other shards count
	// (--shard): whether nothing of an input parsed is the whole input's.
	MalformedElsewhere int64
	// Agents are the records with a User-agent; AgentFields those whose
	// layout has one (not Common Log Format's): together they tell a log
	// whose User-agent went unread (a JSON key not known) from one that
	// never had it.
	Agents, AgentFields int64
	// Traefik are the records of a Traefik log that gave no User-agent
	// (Record.TraefikNoAgent).
	Traefik int64
	// NoClient are the records whose line gave no client address ("-"
	// where %h goes: Gunicorn behind a Unix socket, Varnish's rejected
	// requests, "%{X-Forwarded-For}i" first without the header).
	NoClient int64
	First    time.Time     // earliest record time; zero if no record had a time
	Last     time.Time     // latest record time (times in a log need not be in order)
	Samples  []*ParseError // the first MaxSamples malformed lines
}

// Warning says, in one sentence naming the input, when most of its lines
// did not parse: a file that is not an access log, or a format that does
// not fit it. "" when most did. The report counts and samples the lines;
// this names the file.
func (s Stats) Warning(name string) string {
	if name == "-" {
		name = "standard input"
	}
	var w []string
	if !(s.Malformed == 0 || s.Malformed*2 < s.Lines+s.Directives || s.Records == 0) {
		// Most did not parse (when none did, NothingRead says so).
		w = append(w, fmt.Sprintf("%d of its %d lines are malformed (%s format); they are counted and skipped", s.Malformed, s.Lines, s.Format))
	}
	// A log read whole but without a field the verdicts need is no
	// all-clear either: say which is missing, and how to name it.
	how := func(field string) string {
		if strings.Contains(s.Format, "json") {
			return " (if its lines have one, name the key with --json-fields " + field + "=KEY)"
		}
		if field == "ua" && strings.Contains(s.Format, "haproxy") {
			// HAProxy's httplog has no header field at all unless told to
			// capture one: the format was read right, -f would not help.
			return " (HAProxy logs a request header only when captured: add `http-request capture req.hdr(User-Agent) len 200`, or `capture request header User-Agent len 200`, to its frontend)"
		}
		return " (give its format with -f)"
	}
	if s.Records > 0 && s.First.IsZero() {
		w = append(w, "no line gave a time, so request rates, incidents and the timeline are off"+how("time"))
	}
	switch {
	case s.Agents == 0 && s.Traefik > 0:
		// Its format is read right: the header is what is missing, and
		// only Traefik's configuration brings it back.
		w = append(w, "no line gave a User-agent, so robots are found by what they did alone: Traefik drops request headers from its access log unless told to keep them; keep them with --accesslog.fields.headers.names.User-Agent=keep and --accesslog.fields.headers.names.Referer=keep (or accessLog.fields.headers.defaultMode: keep)")
	case s.Agents == 0 && (s.AgentFields > 0 || s.Records > 0 && strings.Contains(s.Format, "json")):
		w = append(w, "no line gave a User-agent, so robots are found by what they did alone"+how("ua"))
	}
	if s.NoClient > 0 {
		// They are judged together as one client with no address, which
		// no block list can hold: say so rather than list a blank row.
		w = append(w, fmt.Sprintf("%d of its %d records give no client address (\"-\": a server behind a Unix socket, or a proxy that logged no X-Forwarded-For); they are one client with no address, which no block list can hold", s.NoClient, s.Records))
	}
	if len(w) == 0 {
		return ""
	}
	return name + ": " + strings.Join(w, "; ")
}

// NothingRead is the error for an input of which no line parsed, though it
// had some: not an access log, or one in a format that was not detected or
// not the one given. Reading it gave nothing to judge, and a report of no
// robots would be an all-clear nobody earned. detected says whether the
// format was detected (then the message names what was tried) or given.
// nil when some line parsed, or the input was empty.
func (s Stats) NothingRead(name string, detected bool) error {
	malformed := s.Malformed + s.MalformedElsewhere
	if s.Records > 0 || s.Elsewhere > 0 || malformed == 0 {
		return nil
	}
	if name == "-" {
		name = "standard input"
	}
	if detected {
		hint := "give its format with --format"
		if len(s.Samples) > 0 && strings.HasPrefix(s.Samples[0].Text, "{") {
			hint = "it looks like JSON: name its keys with --json-fields " + missingJSONKeys(s.Samples[0].Text)
		}
		return fmt.Errorf("%s: none of its %d lines is an access-log line of a known format (tried %s); %s", name, malformed, strings.Join(FormatNames[:len(FormatNames)-1], ", "), hint)
	}
	// No report follows, so the first line's reason is said here: a
	// format that fits but for one field (Envoy's log without the
	// X-Forwarded-For it takes the client from) is told from one that
	// does not fit at all.
	why := ""
	if len(s.Samples) > 0 && s.Samples[0].Err != nil {
		why = fmt.Sprintf(" (line %d: %v)", s.Samples[0].Line, s.Samples[0].Err)
	}
	return fmt.Errorf("%s: none of its %d lines is %s %s log line%s; is it an access log, and in that format (see --format)?", name, malformed, article(s.Format), s.Format, why)
}

// article is "an" before a name said with a vowel first (an envoy, an
// istio, an alb, an s3 log line), else "a".
func article(name string) string {
	if name != "" && strings.IndexByte("aeiouAEIOU", name[0]) >= 0 || strings.HasPrefix(name, "s3") {
		return "an"
	}
	return "a"
}

// AddRecord counts rec as a parsed line.
func (s *Stats) AddRecord(rec *Record) {
	s.addTime(rec.Time)
	s.addRecordUntimed(rec)
}

// addRecordUntimed is AddRecord without rec's time, for a caller that
// saw the time already.
func (s *Stats) addRecordUntimed(rec *Record) {
	s.Lines++
	s.Records++
	if rec.Client == "" {
		s.NoClient++
	}
	if !rec.NoAgentField {
		s.AgentFields++
		if rec.UserAgent != "" {
			s.Agents++
		}
	}
	if rec.TraefikNoAgent {
		s.Traefik++
	}
}

func (s *Stats) addTime(t time.Time) {
	if t.IsZero() {
		return
	}
	if s.First.IsZero() || t.Before(s.First) {
		s.First = t
	}
	if s.Last.IsZero() || t.After(s.Last) {
		s.Last = t
	}
}

// AddMalformed counts e as a malformed line and keeps it if samples are wanted.
func (s *Stats) AddMalformed(e *ParseError) {
	s.Lines++
	s.Malformed++
	if len(s.Samples) < MaxSamples {
		s.Samples = append(s.Samples, e)
	}
}

// AddDirective counts a W3C directive line.
func (s *Stats) AddDirective() {
	s.Lines++
	s.Directives++
}

// Merge adds o's counts to s; the span widens to cover both and Format lists
// each distinct format once, comma-separated.
func (s *Stats) Merge(o Stats) {
	s.Lines += o.Lines
	s.Records += o.Records
	s.Malformed += o.Malformed
	s.Directives += o.Directives
	s.Elsewhere += o.Elsewhere
	s.MalformedElsewhere += o.MalformedElsewhere
	s.Agents += o.Agents
	s.AgentFields += o.AgentFields
	s.Traefik += o.Traefik
	s.NoClient += o.NoClient
	s.addTime(o.First)
	s.addTime(o.Last)
	for _, e := range o.Samples {
		if len(s.Samples) >= MaxSamples {
			break
		}
		s.Samples = append(s.Samples, e)
	}
	if o.Format != "" && !containsName(s.Format, o.Format) {
		if s.Format != "" {
			s.Format += ", "
		}
		s.Format += o.Format
	}
}

func containsName(list, name string) bool {
	for _, n := range strings.Split(list, ", ") {
		if n == name {
			return true
		}
	}
	return false
}

// Reader reads Records from an access log, one per line, in the manner of
// encoding/csv.Reader. Read returns a *ParseError for a malformed line (the
// caller counts it, or stops for --strict, and calls Read again), io.EOF at
// the end, and any other error (I/O, a corrupt gzip stream) is fatal and
// names the file and the line reached. An empty line is malformed
// (ErrEmptyLine), so that Lines = Records + Malformed always holds.
type Reader struct {
	// MaxLineBytes is the longest line parsed (line end excluded); 0 means
	// DefaultMaxLineBytes. Set it before the first Read.
	MaxLineBytes int

	// Live makes auto-detection look at the lines already there rather
	// than wait for 100 of them: a followed file or a pipe may have written
	// three lines and stay quiet for an hour, and their events must not
	// wait for the rest. Set it before the first Read.
	Live bool

	name    string
	br      *bufio.Reader
	format  *Format
	started bool
	lineNo  int64
	long    []byte        // a line longer than the bufio buffer, gathered
	pending []pendingLine // lines read for auto-detection, not yet returned
	w3c     *w3cLayout    // a W3C log's fields: the last #Fields line's (see w3c.go)
	stats   Stats
	err     error // sticky: io.EOF or a fatal error
}

type pendingLine struct {
	text    []byte
	no      int64
	tooLong bool
}

// NewReader returns a Reader of r, whose lines are parsed with f; a nil f
// detects the format from the first lines (see Detect). name labels Records,
// errors and Stats ("-" for standard input is fine).
func NewReader(r io.Reader, name string, f *Format) *Reader {
	rd := &Reader{name: name, br: bufio.NewReaderSize(&lineEnds{r: r}, readBufferSize), format: f}
	if f != nil {
		rd.stats.Format = f.Name()
	}
	return rd
}

// Format returns the format in use: the one given to NewReader, or with
// auto-detection the one chosen (nil until the first Read, or for an empty input).
func (r *Reader) Format() *Format { return r.format.own() }

// Stats returns the counts so far. The Samples slice is shared with the Reader.
func (r *Reader) Stats() Stats { return r.stats }

func (r *Reader) maxLine() int {
	if r.MaxLineBytes > 0 {
		return r.MaxLineBytes
	}
	return DefaultMaxLineBytes
}

// Read parses the next line into rec, overwriting all of it. Strings in rec
// are new for each line: rec may be reused, and the strings kept.
func (r *Reader) Read(rec *Record) error {
	rec.Headers = nil // the caller's: see Record.reset
	return r.readInto(rec)
}

// readInto is Read into a Record the Reader's owner holds alone, whose
// Headers it may reuse (Record.reset).
func (r *Reader) readInto(rec *Record) error {
	if !r.started {
		r.started = true
		if r.format == nil {
			r.detect()
		}
	}
	for {
		err := r.read(rec)
		if err != errDirective {
			return err
		}
	}
}

// read is Read for one line; a W3C directive is read and counted, and
// errDirective asks for the next line.
func (r *Reader) read(rec *Record) error {
	var (
		line    []byte
		no      int64
		tooLong bool
	)
	if len(r.pending) > 0 {
		p := r.pending[0]
		r.pending[0] = pendingLine{}
		r.pending = r.pending[1:]
		line, no, tooLong = p.text, p.no, p.tooLong
	} else {
		if r.err != nil {
			return r.err
		}
		var err error
		line, tooLong, err = r.readLine()
		if err != nil {
			r.err = err
			return err
		}
		no = r.lineNo
	}
	if no == 1 {
		line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark
	}
	var err error
	switch {
	case tooLong:
		err = &ParseError{Column: r.maxLine() + 1, Err: fmt.Errorf("%w: more than %d bytes", ErrLineTooLong, r.maxLine()),
			Text: LineText(line, MaxTextBytes)}
	case r.format != nil && r.format.w3c != nil:
		if r.w3c == nil {
			r.w3c = r.format.w3c
		}
		if isDirective(line) {
			if fields, ok := directiveFields(line); ok {
				r.w3c = compileW3C(fields, r.format.w3c.percent)
			}
			r.stats.AddDirective()
			return errDirective
		}
		rec.File, rec.Line = r.name, no
		if err = r.w3c.parse(line, rec, false); err == nil {
			rec.Client = canonicalClient(rec.Client)
		}
	default:
		rec.File, rec.Line = r.name, no
		err = r.format.Parse(line, rec)
	}
	if err != nil {
		pe := err.(*ParseError)
		pe.File, pe.Line = r.name, no
		r.stats.AddMalformed(pe)
		return pe
	}
	r.stats.AddRecord(rec)
	return nil
}

// readLine returns the next line, valid until the next call, or for a line
// over the limit its first bytes and tooLong. Fatal errors are wrapped with
// the name and the line reached; a partial line before one is dropped.
func (r *Reader) readLine() (line []byte, tooLong bool, err error) {
	max := r.maxLine()
	b, err := r.br.ReadSlice('\n')
	switch {
	case err == nil:
	case errors.Is(err, bufio.ErrBufferFull):
		return r.readLong(b, max)
	case err == io.EOF && len(b) > 0:
		// The last line has no line end; the next call sees io.EOF.
	case err == io.EOF:
		return nil, false, io.EOF
	default:
		return nil, false, r.fatal(err)
	}
	r.lineNo++
	if len(b) > max && len(TrimEOL(b)) > max {
		return textHead(b), true, nil
	}
	return b, false, nil
}

// readLong gathers a line longer than the bufio buffer into r.long, up to
// max bytes; past that it discards the rest of the line as it streams by.
func (r *Reader) readLong(b []byte, max int) ([]byte, bool, error) {
	r.long = append(r.long[:0], b...)
	for {
		b, err := r.br.ReadSlice('\n')
		if len(r.long)+len(b) > max+3 { // +3: the line end, up to "\r\r\n" (see lineEnds), does not count
			return r.discardLine(err)
		}
		r.long = append(r.long, b...)
		switch {
		case err == nil:
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF:
		default:
			return nil, false, r.fatal(err)
		}
		r.lineNo++
		if len(TrimEOL(r.long)) > max {
			return textHead(r.long), true, nil
		}
		return r.long, false, nil
	}
}

// discardLine skips to the end of an over-long line, keeping only the start
// already in r.long for the error message.
func (r *Reader) discardLine(err error) ([]byte, bool, error) {
	for errors.Is(err, bufio.ErrBufferFull) {
		_, err = r.br.ReadSlice('\n')
	}
	if err != nil && err != io.EOF {
		return nil, false, r.fatal(err)
	}
	r.lineNo++
	return textHead(r.long), true, nil
}

// textHead is as much of an over-long line as ParseError.Text shows, and
// one byte more so that the cut is marked.
func textHead(b []byte) []byte {
	return b[:min(len(b), MaxTextBytes+1)]
}

func (r *Reader) fatal(err error) error {
	if r.name == "" {
		return fmt.Errorf("line %d: %w", r.lineNo+1, err)
	}
	return fmt.Errorf("%s: line %d: %w", r.name, r.lineNo+1, err)
}

// detect reads lines ahead, keeping them to be returned as records, until it
// has enough to choose the format. A fatal error is kept for after them.
func (r *Reader) detect() {
	var sample [][]byte
	total := 0
	for len(sample) < detectLines && total < detectBytes {
		line, tooLong, err := r.readLine()
		if err != nil {
			r.err = err
			break
		}
		text := append([]byte(nil), line...)
		r.pending = append(r.pending, pendingLine{text: text, no: r.lineNo, tooLong: tooLong})
		total += len(text)
		if r.lineNo == 1 {
			text = bytes.TrimPrefix(text, []byte("\xef\xbb\xbf"))
		}
		if !tooLong && len(TrimEOL(text)) > 0 {
			sample = append(sample, text)
		}
		if r.Live && len(sample) > 0 && !r.lineBuffered() {
			break // the next read may wait for lines not yet written, or for the end of one
		}
	}
	if len(r.pending) == 0 {
		return // empty input: nothing to detect, nothing to parse
	}
	r.format = withFallbacks(Detect(sample))
	r.stats.Format = r.format.Name()
}

// lineBuffered reports whether a whole line is buffered: the next
// readLine returns without reading more. An unfinished line is not: its
// writer may end it in a moment or never.
func (r *Reader) lineBuffered() bool {
	b, _ := r.br.Peek(r.br.Buffered())
	return bytes.IndexByte(b, '\n') >= 0
}

// Detect chooses the built-in format for a sample of lines: the richest
// format (vhost_combined, then combined, then common) that parses all but
// 10% (and at least all but one) of the lines the best one parses. The
// margin keeps a combined log with a few cut-short lines combined, although
// common (which tolerates text after its last field) parses every line.
// When no line parses, or the sample is empty, it returns Combined. A log
// detected as common whose later lines are combined loses nothing: Common
// parses those lines as Combined (see Common). Lines a container runtime
// stored (CRI's, Docker's json-file) are detected inside their wrapping.
func Detect(lines [][]byte) *Format {
	if f := detectContainer(lines); f != nil {
		return f
	}
	return detectPlain(lines)
}

// detectPlain is Detect for lines as the server wrote them.
func detectPlain(lines [][]byte) *Format {
	if f := detectStructured(lines); f != nil {
		return f
	}
	f, best := detectBuiltin(lines)
	if best*2 < len(lines) {
		// Most lines are no Apache or nginx text line: a load balancer's,
		// S3's, HAProxy's or Squid's layout may fit them better, or a
		// text format behind syslog headers.
		var pick *Format
		var rec Record
		for _, f := range tokenFormats {
			n := 0
			for _, l := range lines {
				if f.Parse(l, &rec) == nil {
					n++
				}
			}
			if n > best {
				best, pick = n, f
			}
		}
		if pick != nil {
			return pick
		}
		if s := detectSyslog(lines); s != nil {
			return s
		}
	}
	return f
}

// detectBuiltin returns the richest built-in text format that reads all but
// 10% of what the best one reads, and how many lines the best one reads.
func detectBuiltin(lines [][]byte) (*Format, int) {
	counts := make([]int, len(builtins))
	best := 0
	var rec Record
	for i, f := range builtins {
		for _, l := range lines {
			if f.Parse(l, &rec) == nil {
				counts[i]++
			}
		}
		best = max(best, counts[i])
	}
	if best == 0 {
		return Combined, 0
	}
	for i, f := range builtins {
		if counts[i] > 0 && counts[i] >= best-max(1, best/10) {
			if f == CombinedXFF && !forwardedLists(lines) {
				continue // another quoted field ("$host", "$http_cookie"): plain combined
			}
			if f == Lighttpd && !hostNames(lines) {
				continue // identd's "-" (or a rare answer): combined
			}
			return f, best
		}
	}
	return Combined, best
}

// forwardedLists reports whether the field after the User-agent of the
// sample's combined_xff lines holds X-Forwarded-For values: "-" or a list
// whose entries are addresses, in nine lines of ten.
func forwardedLists(lines [][]byte) bool {
	return nineInTen(lines, CombinedXFF, func(rec *Record) bool {
		return rec.Forwarded() == "" || isAddressList(rec.Forwarded())
	})
}

// hostNames reports whether the second field of the sample's lines is a
// host name (lighttpd's %V, "www.example.com" or "203.0.113.5:8080") in
// nine of ten lines where it is not "-", and in more than half of all: where
// combined has the identd answer, which servers write as "-" as good as
// always. lighttpd writes "-" too, for a request without a Host (HTTP/1.0,
// a garbage line, a TLS handshake): on a site scanners visit, more than a
// tenth of its lines, which must not make its log combined.
func hostNames(lines [][]byte) bool {
	var rec Record
	n, dash, hosts := 0, 0, 0
	for _, l := range lines {
		if Lighttpd.Parse(l, &rec) != nil {
			continue
		}
		n++
		h := rec.VHost
		switch {
		case h == "":
			dash++
		case strings.IndexByte(h, '.') > 0 && !strings.ContainsAny(h, "/@\""):
			hosts++
		}
	}
	return hosts*2 > n && hosts*10 >= (n-dash)*9
}

// nineInTen reports whether, of the sample's lines that f parses, nine in
// ten or more have what want looks for: a field that only that layout has
// must hold its kind of value almost always before the layout is chosen.
func nineInTen(lines [][]byte, f *Format, want func(*Record) bool) bool {
	var rec Record
	n, ok := 0, 0
	for _, l := range lines {
		if f.Parse(l, &rec) != nil {
			continue
		}
		n++
		if want(&rec) {
			ok++
		}
	}
	return n > 0 && ok*10 >= n*9
}

// isAddressList reports whether v is a comma-separated list of addresses
// (with a port or "unknown" allowed, as proxies write them).
func isAddressList(v string) bool {
	for part := range strings.SplitSeq(v, ",") {
		if strings.TrimSpace(part) == "unknown" {
			continue
		}
		if _, _, ok := hopAddress(part); !ok {
			return false
		}
	}
	return true
}

// detectStructured recognises the logs whose lines say what they are: W3C
// extended logs by their directives (the #Fields line gives the layout;
// CloudFront's names x-edge fields), JSON logs by lines that are objects.
// nil: neither.
func detectStructured(lines [][]byte) *Format {
	objects := 0
	for _, l := range lines {
		if fields, ok := directiveFields(l); ok {
			base := W3CFormat
			if strings.Contains(strings.ToLower(fields), "x-edge-") {
				base = CloudFrontFormat
			}
			return newW3CFormat(base.name, fields, base.w3c.percent)
		}
		if t := bytes.TrimLeft(l, " \t"); len(t) > 0 && t[0] == '{' {
			objects++
		}
	}
	if objects > 0 && objects*2 >= len(lines) {
		return JSONFormat
	}
	return nil
}
