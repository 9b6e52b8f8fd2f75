package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

// TestEventWriterLines: every event is one JSON object on one line with
// "event" and "time" first, the finding's contract fields after.
func TestEventWriterLines(t *testing.T) {
	at := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	var b bytes.Buffer
	e := NewEventWriter(&b)
	e.Robot(findings.Verdict{IP: "192.0.2.1", UserAgent: "curl/8", Robot: true, Name: "curl", Last: at, Reasons: []string{"user-agent"}})
	e.Violation(findings.Violation{IP: "192.0.2.1", Time: at, Path: "/private/\x1b[2J", Rule: "Disallow: /private/", Line: 2})
	e.Incident(findings.Incident{IP: "192.0.2.2", Start: at, End: at.Add(3 * time.Second), Requests: 25})
	e.IncidentEnd(findings.Incident{IP: "192.0.2.2", Start: at, End: at.Add(9 * time.Second), Requests: 90})
	e.Summary(findings.Live{Time: at, Records: 7, Robots: 1}, logparse.Stats{Lines: 8, Malformed: 1})
	e.File(at, "rotated", "access.log")
	e.Summary(findings.Live{}, logparse.Stats{}) // before the first record: no time yet
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		event, ip, time string
		field           string
		value           any
	}{
		{EventRobot, "192.0.2.1", "2026-11-24T10:00:00Z", "name", "curl"},
		{EventViolation, "192.0.2.1", "2026-11-24T10:00:00Z", "rule", "Disallow: /private/"},
		{EventIncident, "192.0.2.2", "2026-11-24T10:00:03Z", "requests", 25.0},
		{EventIncidentEnd, "192.0.2.2", "2026-11-24T10:00:09Z", "requests", 90.0},
		{EventSummary, "", "2026-11-24T10:00:00Z", "malformed", 1.0},
		{EventFile, "", "2026-11-24T10:00:00Z", "kind", "rotated"},
		{EventSummary, "", "", "records", 0.0},
	}
	sc := bufio.NewScanner(&b)
	for i, tt := range tests {
		if !sc.Scan() {
			t.Fatalf("line %d missing", i+1)
		}
		text := sc.Text()
		if !strings.HasPrefix(text, `{"event":"`+tt.event+`"`) || strings.ContainsAny(text, "\x1b\n") {
			t.Errorf("line %d does not start with its event or carries a control byte: %s", i+1, text)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(text), &m); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		wantTime := any(tt.time)
		if tt.time == "" {
			wantTime = nil // JSON null
		}
		if m["time"] != wantTime || tt.ip != "" && m["ip"] != tt.ip || m[tt.field] != tt.value {
			t.Errorf("%s event: time %v ip %v %s %v; want %s %s %v", tt.event, m["time"], m["ip"], tt.field, m[tt.field], tt.time, tt.ip, tt.value)
		}
	}
	if sc.Scan() {
		t.Errorf("extra line %s", sc.Text())
	}
}

// TestEventWriterFlushesByItself: an event reaches the writer within
// FlushEvery without a Flush, as a tail -f | jq pipeline needs.
func TestEventWriterFlushesByItself(t *testing.T) {
	w := &syncBuffer{}
	e := NewEventWriter(w)
	defer e.Close()
	e.File(time.Time{}, "removed", "a.log")
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(w.String(), `"removed"`) {
		if time.Now().After(deadline) {
			t.Fatal("the event was not flushed")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestEventWriterMalformedIsBounded: a file of garbage gives at most
// maxMalformedEvents error events, the last saying the rest are counted.
func TestEventWriterMalformedIsBounded(t *testing.T) {
	var b bytes.Buffer
	e := NewEventWriter(&b)
	for i := range 500 {
		e.Malformed(time.Time{}, &logparse.ParseError{File: "bad.log", Line: int64(i + 1), Err: errors.New("no request")})
	}
	e.Close()
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != maxMalformedEvents || !strings.Contains(lines[len(lines)-1], "counted in the summary") {
		t.Errorf("%d error events, last %s", len(lines), lines[len(lines)-1])
	}
}

// TestEventWriterKeepsTheWriteError: a reader that went away is an error
// the run can report, not a panic or a silent loss.
func TestEventWriterKeepsTheWriteError(t *testing.T) {
	e := NewEventWriter(failingWriter{})
	e.File(time.Time{}, "rotated", "a.log")
	if err := e.Close(); err == nil {
		t.Error("no error from a failing writer")
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// TestLiveViewFits: the live view never passes the window, whatever the
// findings' text, and keeps the headline when the window is small.
func TestLiveViewFits(t *testing.T) {
	v := NewLiveView(nil, Options{})
	at := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	for i := range 30 {
		v.Violation(findings.Violation{IP: "198.51.100.7", Name: "Bad\x1b]0;owned\aBot", Time: at, Path: "/private/" + strings.Repeat("x", i*10), Rule: "Disallow: /private/", Line: 3})
	}
	v.Incident(findings.Incident{IP: "198.51.100.8", Name: "curl", Start: at, Requests: 300, PeakPerSecond: 40})
	live := findings.Live{Time: at, Records: 1234, Robots: 2, TopRobots: []findings.LiveRobot{{Name: "Googlebot", Operator: "Google", Identity: "verified", Clients: 2, Requests: 900}}}
	for _, size := range []struct{ w, h int }{{120, 40}, {60, 20}, {30, 6}} {
		lines := v.render(live, logparse.Stats{}, size.w, size.h)
		if len(lines) > size.h {
			t.Errorf("%dx%d: %d lines", size.w, size.h, len(lines))
		}
		for _, l := range lines {
			if cellWidth(l) > size.w || strings.ContainsAny(l, "\x1b\a") {
				t.Errorf("%dx%d: line of width %d or with a control byte: %q", size.w, size.h, cellWidth(l), l)
			}
		}
		if !strings.Contains(lines[1], "1,234 records") {
			t.Errorf("%dx%d: headline %q", size.w, size.h, lines[1])
		}
	}
	big := strings.Join(v.render(live, logparse.Stats{}, 120, 40), "\n")
	for _, want := range []string{"Googlebot", "OPEN INCIDENTS", "198.51.100.8", "LATEST VIOLATIONS", "Disallow: /private/"} {
		if !strings.Contains(big, want) {
			t.Errorf("the view lacks %q:\n%s", want, big)
		}
	}
	v.IncidentEnd(findings.Incident{IP: "198.51.100.8"})
	if strings.Contains(strings.Join(v.render(live, logparse.Stats{}, 120, 40), "\n"), "OPEN INCIDENTS") {
		t.Error("a closed incident is still shown open")
	}
}

// syncBuffer is a bytes.Buffer the flushing goroutine and the test may
// share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestSummaryEventTopRobots: a running summary before the first robot
// says so with an empty list, not by leaving top_robots out.
func TestSummaryEventTopRobots(t *testing.T) {
	for _, tt := range []struct {
		live findings.Live
		want string
	}{
		{findings.Live{Records: 3}, `"top_robots":[]`},
		{findings.Live{Records: 3, Robots: 1, TopRobots: []findings.LiveRobot{{Name: "curl", Clients: 1, Requests: 3}}}, `"top_robots":[{"name":"curl","clients":1,"requests":3,"violations":0,"incidents":0}]`},
	} {
		var b bytes.Buffer
		e := NewEventWriter(&b)
		e.Summary(tt.live, logparse.Stats{Lines: 3})
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), tt.want) {
			t.Errorf("summary event %s lacks %s", b.String(), tt.want)
		}
	}
}

// TestEscapeInvisibleJSON: what Escape makes visible is a \u escape in an
// event, the same value to a JSON reader; other text is left as it is.
func TestEscapeInvisibleJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"ua":"curl/8"}`, `{"ua":"curl/8"}`},
		{"{\"ua\":\"caf\u00e9 \u4e16\u754c \U0001F916\"}", "{\"ua\":\"caf\u00e9 \u4e16\u754c \U0001F916\"}"},
		{"{\"ua\":\"C1\u009b31m \u0085\"}", `{"ua":"C1\u009b31m \u0085"}`},
		{"{\"ua\":\"Mozilla \u202eTOBELGOOG\u202c zw\u200b\ufeff\"}", `{"ua":"Mozilla \u202eTOBELGOOG\u202c zw\u200b\ufeff"}`},
		{"{\"ua\":\"tag\U000E0041\"}", `{"ua":"tag\udb40\udc41"}`},
	}
	for _, tt := range tests {
		got := string(escapeInvisibleJSON([]byte(tt.in)))
		if got != tt.want {
			t.Errorf("escapeInvisibleJSON(%q) = %q, want %q", tt.in, got, tt.want)
		}
		var a, b map[string]string
		if err := json.Unmarshal([]byte(tt.in), &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(got), &b); err != nil || a["ua"] != b["ua"] {
			t.Errorf("%q reads back as %q (%v), want %q", got, b["ua"], err, a["ua"])
		}
	}
}

// TestLiveViewAt100Columns: at 100 columns, a common terminal, the live
// view shows whole robot names, operators, addresses and counts, with
// names and addresses of today's length (an IPv6 client, a robot named
// meta-externalagent, its operator Meta Platforms): the path goes first
// when a line is too long.
func TestLiveViewAt100Columns(t *testing.T) {
	at := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	const ip6 = "2a03:2880:f800:12::face:b00c"
	v := NewLiveView(nil, Options{})
	v.Violation(findings.Violation{IP: ip6, Name: "meta-externalagent", Time: at, Path: "/private/reports/2026/q3.pdf", Rule: "Disallow: /private/", Line: 7})
	v.Violation(findings.Violation{IP: "198.51.100.7", Name: "unnamed (198.51.100.0/24)", Time: at, Path: "/cart?add=1", Rule: "Disallow: /cart", Line: 9})
	v.Incident(findings.Incident{IP: ip6, Name: "meta-externalagent", Start: at.Add(-3 * time.Minute), Requests: 12345, PeakPerSecond: 120})
	live := findings.Live{Time: at, Records: 12345678, Clients: 98765, Robots: 4321, Violations: 1234, Incidents: 12, TopRobots: []findings.LiveRobot{
		{Name: "meta-externalagent", Operator: "Meta Platforms", Identity: "verified", Clients: 12345, Requests: 1234567, Violations: 123456, Incidents: 12},
		{Name: "unnamed (2001:db8:85a3::/48)", Clients: 3, Requests: 45678, Violations: 9},
		{Name: "Googlebot-Image (impostor)", Operator: "Google", Identity: "impostor", Clients: 2, Requests: 900},
	}}
	lines := v.render(live, logparse.Stats{Malformed: 3}, 100, 40)
	view := strings.Join(lines, "\n")
	for _, l := range lines {
		if cellWidth(l) > 100 {
			t.Errorf("line of width %d: %q", cellWidth(l), l)
		}
	}
	for _, want := range []string{
		"meta-externalagent", "Meta Platforms", "unnamed (2001:db8:85a3::/48)", "Googlebot-Image (impostor)",
		"12,345", "1,234,567", "123,456", "45,678",
		ip6 + "  meta-externalagent  12,345 requests  peak 120/s",
		ip6 + "  meta-externalagent  ", "unnamed (198.51.100.0/24)", "/private/reports/2026/q3.pdf", "Disallow: /cart",
	} {
		if !strings.Contains(view, want) {
			t.Errorf("the view lacks %q:\n%s", want, view)
		}
	}
	// Only a violation's path and rule, at the end of its line, may give
	// way.
	before, _, _ := strings.Cut(view, "LATEST VIOLATIONS")
	if strings.Contains(before, "…") {
		t.Errorf("something was cut:\n%s", view)
	}
}
