package detect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/robowatch/robowatch/logparse"
)

// Instants further apart than a record's 32-bit offsets reach: the first
// year logparse reads, the test's present (t0), and its last year, which
// is in the future: counted for its client, in no rate nor timeline.
var (
	year1000 = time.Date(1000, 3, 1, 10, 0, 0, 0, time.UTC)
	year9998 = time.Date(9998, 6, 1, 12, 0, 0, 0, time.UTC)
)

// spanningRecords is a crafted log whose clients' requests span centuries,
// for every place a client's seconds are read: its first and last
// request, the rate peaks, page views and a form posted at once, sessions,
// the timeline. A browser comes in order; a robot's year-1000 request
// comes after its present ones (its first request moves back); a third
// client stays within a minute.
func spanningRecords() []logparse.Record {
	var recs []logparse.Record
	add := func(ip, ua string, t time.Time, method, target, referer string, status int) {
		recs = append(recs, logparse.Record{Client: ip, UserAgent: ua, Time: t, Method: method, Target: target,
			Referer: referer, Status: status, Bytes: 100, Protocol: "HTTP/1.1"})
	}
	for i := range 5 {
		add("192.0.2.1", firefoxUA, year1000, "GET", fmt.Sprintf("/old/%d", i), "", 200)
	}
	add("198.51.100.9", curlUA, t0, "GET", "/robots.txt", "", 200)
	for i := range 30 {
		at := t0.Add(time.Duration(i/10) * time.Second)
		add("192.0.2.1", firefoxUA, at, "GET", fmt.Sprintf("/new/%d", i), "", 200)
		add("198.51.100.9", curlUA, at, "GET", fmt.Sprintf("/private/%d", i), "", 200)
	}
	add("198.51.100.9", curlUA, year1000.Add(time.Hour), "GET", "/early", "", 200)
	for i := range 12 {
		add("198.51.100.9", curlUA, t0.Add(time.Duration(100+i/6)*time.Second), "GET", fmt.Sprintf("/later/%d", i), "", 200)
	}
	for _, p := range []time.Time{t0.Add(time.Hour), year9998} {
		add("192.0.2.1", firefoxUA, p, "GET", "/login", "", 200)
		add("192.0.2.1", firefoxUA, p, "GET", "/app.css", "https://example.org/login", 200)
		add("192.0.2.1", firefoxUA, p.Add(time.Second), "GET", "/logo.png", "", 200)
		add("192.0.2.1", firefoxUA, p.Add(time.Second), "POST", "/login", "https://example.org/login", 302)
		add("192.0.2.1", firefoxUA, p.Add(2*time.Second+500*time.Millisecond), "GET", "/home", "https://example.org/login", 200)
	}
	add("198.51.100.9", curlUA, t0.Add(2*time.Hour), "GET", "/again", "", 200)
	add("198.51.100.9", curlUA, year9998, "GET", "/future", "", 200)
	for i := range 3 {
		add("203.0.113.5", curlUA, t0.Add(time.Duration(20*i)*time.Second), "GET", "/", "", 200)
	}
	return recs
}

// TestWideClient: a client whose requests span the years 1000 and 9998
// keeps its seconds whole, and its verdict, peaks, page views, sessions
// and timeline are exact.
func TestWideClient(t *testing.T) {
	d := New(Config{Robots: readRobots(t, "../testdata/sample.robots.txt")})
	recs := spanningRecords()
	for i := range recs {
		d.Add(&recs[i])
	}
	wide := map[string]bool{}
	for c := range d.clients.all() {
		wide[c.ip] = c.wide()
	}
	if !wide["192.0.2.1"] || !wide["198.51.100.9"] || wide["203.0.113.5"] {
		t.Fatalf("wide clients %v: want the two spanning ones only", wide)
	}
	res := d.Result()
	vs := byIP(res)
	b, r := vs["192.0.2.1"], vs["198.51.100.9"]
	if !b.First.Equal(year1000) || !b.Last.Equal(year9998.Add(2*time.Second+500*time.Millisecond)) {
		t.Errorf("browser first %v last %v", b.First, b.Last)
	}
	if !r.First.Equal(year1000.Add(time.Hour)) || !r.Last.Equal(year9998) {
		t.Errorf("robot first %v last %v", r.First, r.Last)
	}
	if b.Peak.Per1s != 10 || !b.Peak.At1s.Equal(t0) || b.Peak.Per10s != 30 || !b.Peak.At10s.Equal(t0) {
		t.Errorf("browser peak %+v, want 10 a second and 30 in 10 s from %v", b.Peak, t0)
	}
	if r.Peak.Per1s != 11 || !r.Peak.At1s.Equal(t0) || r.Peak.Per60s != 31 || !r.Peak.At60s.Equal(t0) {
		t.Errorf("robot peak %+v, want 11 a second and 31 in 60 s from %v", r.Peak, t0)
	}
	// Each visit to /login is one page view: the stylesheet is its part,
	// the logo in its view without a Referer, the form's answer a page.
	if b.Pages != 5+30+2*2 || b.Assets != 2*2 {
		t.Errorf("browser pages %d assets %d, want 39 and 4", b.Pages, b.Assets)
	}
	// The robot's present visits are two sessions (two hours apart), the
	// other curl client's one; the browser, a robot by its pace, was here
	// in the year 1000, now and an hour later (the year 9998 is ahead).
	sessions := map[string]int64{}
	for _, row := range res.Robots {
		sessions[row.Name] = row.Conduct.Sessions
	}
	if want := map[string]int64{"curl": 3, b.Name: 3}; !maps.Equal(sessions, want) {
		t.Errorf("sessions %v, want %v", sessions, want)
	}
	var binned, future int64
	for _, n := range res.Timeline.Requests {
		binned += n
	}
	for _, rec := range recs {
		if rec.Time.Equal(year9998) || rec.Time.After(year9998) {
			future++
		}
	}
	if want := int64(len(recs)) - future; binned != want {
		t.Errorf("timeline holds %d requests, want %d", binned, want)
	}
}

// TestWideAsNarrow runs logs twice: as the record keeps a client's seconds
// (32-bit offsets from its first), and with every client wide or nearly
// every one (wideSpan lowered, as a span past 2^32 s makes a client): the
// reports must be the same. The sample log is run in order and with its
// records reversed in small blocks, so that first requests move back and
// the offsets move with them.
func TestWideAsNarrow(t *testing.T) {
	recs := readSample(t)
	shuffled := slices.Clone(recs)
	for i := 0; i+5 <= len(shuffled); i += 5 {
		slices.Reverse(shuffled[i : i+5])
	}
	rb := readRobots(t, "../testdata/sample.robots.txt")
	every := func(string) bool { return true }
	logs := map[string][]logparse.Record{"sample": recs, "sample, blocks reversed": shuffled, "spanning": spanningRecords()}
	for name, recs := range logs {
		for _, cfg := range []Config{{Robots: rb, Watch: every}, {Robots: rb, MaxClients: 20}} {
			want, _ := runSpan(t, recs, cfg, wideMark)
			for _, span := range []uint64{0, 1, 30} {
				got, wide := runSpan(t, recs, cfg, span)
				if wide == 0 {
					t.Errorf("%s, span %d: no client went wide", name, span)
				}
				if !bytes.Equal(want, got) {
					t.Errorf("%s, MaxClients %d: the report with clients wide past %d s differs", name, cfg.MaxClients, span)
				}
			}
		}
	}
}

// runSpan is the JSON report on recs with wideSpan at span, and how many
// clients went wide.
func runSpan(t *testing.T, recs []logparse.Record, cfg Config, span uint64) ([]byte, int) {
	t.Helper()
	defer func(was uint64) { wideSpan = was }(wideSpan)
	wideSpan = span
	d := New(cfg)
	for i := range recs {
		d.Add(&recs[i])
	}
	wide := 0
	for c := range d.clients.all() {
		if c.wide() {
			wide++
		}
	}
	b, err := json.Marshal(d.Result())
	if err != nil {
		t.Fatal(err)
	}
	return b, wide
}
