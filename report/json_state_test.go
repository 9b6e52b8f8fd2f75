package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"slices"
	"testing"

	"github.com/robowatch/robowatch/findings"
)

// TestStateIsWrittenARowAtATime: the state a merge needs holds a row for
// every robot client and every robot name (12,000 edges and 9,000 names on
// a botnet's log, 6 MB of text); it is written as encoding/json indents
// it, byte for byte, but a row at a time, not encoded whole into memory
// at the end of the run, when the clients are all still held.
func TestStateIsWrittenARowAtATime(t *testing.T) {
	at := int64(1710028800)
	for _, tc := range []struct {
		name                 string
		edges, robots, paths int
		robotPaths           bool
	}{
		{"no robots", 0, 0, 0, false},
		{"one robot", 1, 1, 0, false},
		{"one robot's paths", 1, 1, 1, false},
		{"paths and the panel's", 3, 3, 40, true},
		{"the panel's paths alone", 3, 3, 0, true},
		{"a botnet's robots", 20000, 5000, 0, false},
		{"a botnet's robots and paths", 20000, 5000, 2000, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &jsonState{Version: 1, Clients: tc.edges, Prefixes: map[string][]findings.PrefixCount{}}
			for i := range tc.edges {
				first := at + int64(i)
				st.Edges = append(st.Edges, findings.ClientEdge{IP: fmt.Sprintf("198.51.%d.%d", i/250, i%250), UserAgent: `bot "</a>` + fmt.Sprint(i),
					Sessions: 1, First: first, Last: first + 60, FetchFirst: &first, Robots: &findings.EdgeRobots{Host: "example.com", State: 1}})
			}
			for i := range tc.robots {
				st.ByRobot = append(st.ByRobot, findings.RobotBuckets{Name: fmt.Sprint("Bot", i), Buckets: [][2]int64{{0, 1}, {int64(i), 2}}})
			}
			for i := range tc.paths {
				if st.Paths == nil {
					st.Paths = map[string]jsonPaths{}
				}
				// Keys that encoding/json escapes, and sorts by their bytes.
				st.Paths[fmt.Sprintf("Bot<%d> & \"%d\"", tc.paths-i, i%7)] = jsonPaths{Base: int64(i), Paths: []findings.PathCount{{Path: "/a?<b>", Requests: int64(i)}}}
			}
			if tc.robotPaths {
				st.RobotPaths = &jsonPaths{Base: 3, Paths: []findings.PathCount{{Path: "/", Requests: 9, Error: 1}}}
			}
			out := &jsonReport{Version: 1, Clients: slices.Values([]findings.Verdict(nil)), Violations: &findings.ViolationList{}, State: st}
			var got bytes.Buffer
			if err := streamJSON(&got, out); err != nil {
				t.Fatal(err)
			}
			want, err := json.MarshalIndent(st, "  ", "  ")
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(got.Bytes(), append([]byte(`  "state": `), want...)) {
				t.Fatalf("state not as encoding/json writes it:\n%.2000s", got.String())
			}
			if raceEnabled {
				return
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			if err := streamJSON(io.Discard, out); err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&after)
			if alloc := after.TotalAlloc - before.TotalAlloc; tc.edges > 1000 && alloc > uint64(len(want))/4 {
				t.Errorf("writing %d bytes of state allocated %d bytes: held whole", len(want), alloc)
			}
		})
	}
}
