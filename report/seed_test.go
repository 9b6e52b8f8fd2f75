package report

import (
	"fmt"
	"strings"
	"testing"
)

// seedDoc is a JSON report of 100 records whose state holds one robot
// client's edge: edge is the edge's JSON.
func seedDoc(edge string) string {
	return fmt.Sprintf(`{"version": %d, "summary": {"records": 100},
	"state": {"version": %d, "edges": [%s]}}`, Version, StateVersion, edge)
}

// TestReadSeedRefusesEditedEdges: the report of the day before given to
// --state-from is refused, naming the file, when an edge's counts are
// negative or more than the report's records, or its times are not of its
// last minute: a backoff.recent of 9e18 requests would otherwise wrap
// error_before, and a negative one make a paced robot look as if it kept
// no pace before its 429.
func TestReadSeedRefusesEditedEdges(t *testing.T) {
	const edge = `{"ip": "203.0.113.4", "user_agent": "PaceBot", "sessions": %s, "first": 1728604740, "last": 1728604798,
		"head": 0, "tail": 0, "head_crawl_delay_ms": %s,
		"robots": {"host": "", "state": 1, "latest": %s, "last_at": 1728604700, "status": 200, "ok_at": null, "ok_version": 0, "ok_by_size": false},
		"backoff": {"open": true, "start": %s, "recent": [[1728604790, %s], [%s, 5]]}}`
	type fields struct{ sessions, delay, latest, start, count, second string }
	ok := fields{"1", "10000", "1728604700", "1728604790", "5", "1728604798"}
	for _, tc := range []struct {
		name string
		edit func(*fields)
		want string // in the error; "" for none
	}{
		{"as written", func(*fields) {}, ""},
		{"sessions negative", func(f *fields) { f.sessions = "-3" }, "sessions"},
		{"sessions past the records", func(f *fields) { f.sessions = "101" }, "sessions"},
		{"recent count negative", func(f *fields) { f.count = "-1000" }, "backoff"},
		{"recent count huge", func(f *fields) { f.count = "9000000000000000000" }, "backoff"},
		{"recent counts past the records together", func(f *fields) { f.count = "96" }, "backoff"},
		{"recent second after its last", func(f *fields) { f.second = "1728604799" }, "backoff"},
		{"recent second long before its last", func(f *fields) { f.second = "-9000000000000000000" }, "backoff"},
		{"backoff start huge", func(f *fields) { f.start = "9223372036854775800" }, "backoff"},
		{"robots.txt fetch huge", func(f *fields) { f.latest = "9223372036854775800" }, "robots.latest"},
		{"crawl-delay negative", func(f *fields) { f.delay = "-1" }, "crawl_delay"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := ok
			tc.edit(&f)
			doc := seedDoc(fmt.Sprintf(edge, f.sessions, f.delay, f.latest, f.start, f.count, f.second))
			edges, _, err := ReadSeed("day1.json", strings.NewReader(doc))
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want == "" && len(edges) != 1:
				t.Fatalf("%d edges; want 1", len(edges))
			case tc.want != "" && err == nil:
				t.Fatalf("read %+v; want it refused", edges[0])
			case tc.want != "" && (!strings.HasPrefix(err.Error(), "day1.json: ") || !strings.Contains(err.Error(), tc.want) ||
				!strings.Contains(err.Error(), "203.0.113.4")):
				t.Fatalf("error %q; want it to name day1.json, the client and %q", err, tc.want)
			}
		})
	}
}
