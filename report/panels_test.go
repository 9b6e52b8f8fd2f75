package report_test

import (
	"testing"
	"time"

	"github.com/robowatch/robowatch/detect"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/report"
)

// TestPathsWrapNotCut: the paths of a catalogue share a long start and
// differ at the end, so a path column too narrow for them wraps each path
// whole; a path cut to "/catalogue/archive/2019/…" names none of them.
func TestPathsWrapNotCut(t *testing.T) {
	const prefix = "/catalogue/archive/2019/collections/manuscripts/volume-"
	paths := []string{prefix + "one.html", prefix + "two.html", prefix + "three.html"}
	d := detect.New(detect.Config{})
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	for i := range 30 {
		d.Add(&logparse.Record{Client: "192.0.2.9", UserAgent: "curl/8.5.0", Method: "GET", Target: paths[i%len(paths)], Status: 200, Bytes: 10, Time: t0.Add(time.Duration(i) * time.Second)})
	}
	r := &report.Report{Files: []string{"a.log"}, Stats: logparse.Stats{Records: 30, Lines: 30}, Result: d.Result()}
	for _, width := range []int{40, 60, 80} {
		s := report.PathsSection(r, report.Options{Width: width})
		report.Stack(s)
		report.Fit(s, width, 3)
		col := -1
		for i, h := range s.Header() {
			if h == "Path" {
				col = i
			}
		}
		if col < 0 {
			t.Fatalf("width %d: no Path column in %q", width, s.Header())
		}
		got := map[string]bool{}
		for _, row := range s.Rows() {
			got[squash(row[col])] = true
		}
		for _, p := range paths {
			if !got[p] {
				t.Errorf("width %d: path %q not whole in the Path column: %q", width, p, s.Rows())
			}
		}
	}
}
