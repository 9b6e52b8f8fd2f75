package report

import (
	"bufio"
	"encoding/json"
	"io"
	"sync"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

// The events of -o jsonl, one JSON object a line. Every event has "event"
// and "time" (the log's time); events about a client have "ip". The
// fields of robot, violation and incident events are those of clients[],
// violations[] and incidents[] in the JSON report; the final summary
// event's are those of its summary. Fields are only ever added.
const (
	EventRobot       = "robot"        // a client judged a robot for the first time
	EventViolation   = "violation"    // a robots.txt violation by a robot
	EventIncident    = "incident"     // a rapid-fire incident opened
	EventIncidentEnd = "incident_end" // it closed
	EventSummary     = "summary"      // counts so far, every --interval; "final": true once at the end
	EventFile        = "file"         // a followed file was rotated, truncated, removed or came back
	EventError       = "error"        // something could not be read; the run goes on
)

// EventWriter writes events as JSON lines (-o jsonl). It is a
// findings.Events, so a Detector tells it what it finds as it reads. Lines
// are buffered and flushed at most FlushEvery after they are written
// (and by Flush), so that a burst of thousands costs no system call each
// while a tail -f | jq pipeline still sees every event within moments.
// Its methods may be called from several goroutines.
type EventWriter struct {
	mu    sync.Mutex
	w     *bufio.Writer
	err   error // the first write error; later events are dropped
	dirty bool
	stop  chan struct{}
	done  chan struct{}

	malformed map[string]int // malformed-line events per file (maxMalformedEvents)
}

// FlushEvery bounds how long an event waits in the buffer.
const FlushEvery = 100 * time.Millisecond

// maxMalformedEvents bounds the malformed-line events of one file: a log
// of garbage must not become a stream of garbage. The rest are counted in
// the summary (malformed).
const maxMalformedEvents = 100

// NewEventWriter returns an EventWriter on w; Close it to flush the last
// events and stop its flushing goroutine.
func NewEventWriter(w io.Writer) *EventWriter {
	e := &EventWriter{w: bufio.NewWriterSize(w, 64<<10), stop: make(chan struct{}), done: make(chan struct{}), malformed: map[string]int{}}
	go e.flushLoop()
	return e
}

func (e *EventWriter) flushLoop() {
	defer close(e.done)
	t := time.NewTicker(FlushEvery)
	defer t.Stop()
	for {
		select {
		case <-e.stop:
			return
		case <-t.C:
			e.Flush()
		}
	}
}

// Flush writes the buffered events out; it returns the first write error.
func (e *EventWriter) Flush() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.dirty && e.err == nil {
		e.err = e.w.Flush()
	}
	e.dirty = false
	return e.err
}

// Close flushes and stops the flushing goroutine; it returns the first
// write error (a closed pipe: the reader went away).
func (e *EventWriter) Close() error {
	select {
	case <-e.stop:
	default:
		close(e.stop)
		<-e.done
	}
	return e.Flush()
}

// Err returns the first write error, if any.
func (e *EventWriter) Err() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.err
}

// head is what every event starts with. Embedded in an event value, its
// fields come first; "time" here wins over a "time" of the embedded
// finding (a violation's own time, which is the same).
type head struct {
	Event string  `json:"event"`
	Time  logTime `json:"time"`
}

// logTime is an event's log time: null before the log gave one (the final
// summary of an empty input), not the year 1.
type logTime time.Time

// MarshalJSON writes the time as RFC 3339, or null for the zero time.
func (t logTime) MarshalJSON() ([]byte, error) {
	if time.Time(t).IsZero() {
		return []byte("null"), nil
	}
	return time.Time(t).MarshalJSON()
}

func (e *EventWriter) write(v any) {
	b, err := json.Marshal(v)
	b = escapeInvisibleJSON(b)
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.err != nil {
		return
	}
	if err != nil {
		e.err = err
		return
	}
	b = append(b, '\n')
	_, e.err = e.w.Write(b)
	e.dirty = true
}

// Robot writes a robot event; its time is the client's latest request.
func (e *EventWriter) Robot(v findings.Verdict) {
	e.write(struct {
		head
		findings.Verdict
	}{head{EventRobot, logTime(v.Last)}, v})
}

// Violation writes a violation event.
func (e *EventWriter) Violation(v findings.Violation) {
	e.write(struct {
		Event string `json:"event"`
		findings.Violation
	}{EventViolation, v}) // its own "time" is the event's
}

// Incident writes an incident event; its time is the second the incident
// crossed the threshold, its counts are those up to then.
func (e *EventWriter) Incident(in findings.Incident) {
	e.write(struct {
		head
		findings.Incident
	}{head{EventIncident, logTime(in.End)}, in})
}

// IncidentEnd writes an incident_end event; its time is the incident's
// last second.
func (e *EventWriter) IncidentEnd(in findings.Incident) {
	e.write(struct {
		head
		findings.Incident
	}{head{EventIncidentEnd, logTime(in.End)}, in})
}

// liveSummary is a summary event while reading.
type liveSummary struct {
	Event         string  `json:"event"`
	Time          logTime `json:"time"` // the log's clock (Live's), null before the first record; shadows Live's
	Final         bool    `json:"final"`
	findings.Live         // its "time" is the log's clock
	Lines         int64   `json:"lines"`
	Malformed     int64   `json:"malformed"`
}

// Summary writes a running summary event: the detector's counts and the
// lines read so far.
func (e *EventWriter) Summary(live findings.Live, stats logparse.Stats) {
	live.TopRobots = nonNil(live.TopRobots) // [] before the first robot: jq's .top_robots[] needs a list
	e.write(liveSummary{Event: EventSummary, Time: logTime(live.Time), Live: live, Lines: stats.Lines, Malformed: stats.Malformed})
}

// finalTopRobots is the final summary's top_robots: the first robot rows
// of the report, in the running summaries' shape.
func finalTopRobots(res *findings.Result) []findings.LiveRobot {
	top := []findings.LiveRobot{}
	for _, r := range res.Robots[:min(len(res.Robots), TopLiveRobots)] {
		top = append(top, findings.LiveRobot{Name: r.Name, Operator: r.Operator, Identity: r.Identity, Purpose: r.Purpose,
			Clients: r.Clients, Requests: r.Requests, Violations: r.Violations, Incidents: r.Incidents})
	}
	return top
}

// TopLiveRobots is how many robot names a summary event's top_robots lists.
const TopLiveRobots = 10

// Final writes the last summary event, with the JSON report's summary
// fields and "final": true, and flushes.
func (e *EventWriter) Final(r *Report) error {
	if r.Result == nil {
		r.Result = &findings.Result{}
	}
	s := summaryOf(r)
	var t time.Time
	if s.Last != nil {
		t = *s.Last
	}
	// The running summaries' fields too, so that a script reading every
	// summary event finds them in the last: at the end no incident is open.
	e.write(struct {
		head
		Final bool `json:"final"`
		jsonSummary
		OpenIncidents int                  `json:"open_incidents"`
		TopRobots     []findings.LiveRobot `json:"top_robots"`
		Errors        []string             `json:"errors"`
	}{head{EventSummary, logTime(t)}, true, s, 0, finalTopRobots(r.Result), nonNil(r.Errors)})
	return e.Flush()
}

// fileEvent is an event about an input.
type fileEvent struct {
	head
	Kind    string `json:"kind"`
	File    string `json:"file"`
	Message string `json:"message,omitempty"`
	Line    int64  `json:"line,omitempty"`
	Reason  string `json:"reason,omitempty"`
	Text    string `json:"text,omitempty"`
}

// File writes a file event: kind is what happened to it (rotated,
// truncated, removed, returned). t is the log's clock.
func (e *EventWriter) File(t time.Time, kind, file string) {
	e.write(fileEvent{head: head{EventFile, logTime(t)}, Kind: kind, File: file})
}

// Error writes an error event: kind says what failed ("read", "open"),
// message how. The run goes on.
func (e *EventWriter) Error(t time.Time, kind, file, message string) {
	e.write(fileEvent{head: head{EventError, logTime(t)}, Kind: kind, File: file, Message: message})
}

// Malformed writes an error event of kind malformed for a line that did
// not parse: the first maxMalformedEvents of each file; the rest are in
// the summaries' malformed count.
func (e *EventWriter) Malformed(t time.Time, pe *logparse.ParseError) {
	e.mu.Lock()
	n := e.malformed[pe.File]
	e.malformed[pe.File] = n + 1
	e.mu.Unlock()
	if n >= maxMalformedEvents {
		return
	}
	ev := fileEvent{head: head{EventError, logTime(t)}, Kind: "malformed", File: pe.File, Line: pe.Line, Reason: reason(pe), Text: pe.Text}
	if n == maxMalformedEvents-1 {
		ev.Message = "later malformed lines of this file are counted in the summary, not each told"
	}
	e.write(ev)
}

// writeEvents renders a finished report as the events a live run would
// have written, in order of time within each kind: robots, violations,
// incidents (each opened and ended), then the final summary.
func writeEvents(w io.Writer, r *Report) error {
	if e := r.Streamed; e != nil {
		if err := e.Final(r); err != nil {
			return err
		}
		return e.Close()
	}
	e := NewEventWriter(w)
	res := r.Result
	for v := range res.Clients.All() {
		if v.Robot {
			e.Robot(v)
		}
	}
	for v := range res.Violations.All() {
		e.Violation(v)
	}
	for _, in := range res.Incidents {
		e.Incident(in)
		e.IncidentEnd(in)
	}
	if err := e.Final(r); err != nil {
		e.Close()
		return err
	}
	return e.Close()
}

// escapeInvisibleJSON writes the characters Escape makes visible and
// encoding/json leaves raw (C1 controls such as CSI, bidi overrides,
// zero-width characters …) as \uXXXX escapes in the JSON text b. The
// values are the same to every JSON reader, but events go to terminals
// as they are written (-F -o jsonl, tail -f): a User-agent's raw U+009B
// or U+202E would act there, or reorder the line. Outside strings JSON
// text is ASCII, so every other byte is left alone.
func escapeInvisibleJSON(b []byte) []byte {
	i := 0
	for i < len(b) && b[i] < utf8.RuneSelf {
		i++
	}
	if i == len(b) {
		return b // the common case: no byte outside ASCII
	}
	out := make([]byte, i, len(b)+16)
	copy(out, b[:i])
	for i < len(b) {
		if b[i] < utf8.RuneSelf {
			out = append(out, b[i])
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError || !invisible(r) {
			out = append(out, b[i:i+size]...)
			i += size
			continue
		}
		units := []rune{r}
		if r > 0xffff {
			r1, r2 := utf16.EncodeRune(r)
			units = []rune{r1, r2}
		}
		for _, u := range units {
			out = append(out, '\\', 'u', hexDigits[u>>12&0xf], hexDigits[u>>8&0xf], hexDigits[u>>4&0xf], hexDigits[u&0xf])
		}
		i += size
	}
	return out
}
