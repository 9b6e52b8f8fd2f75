package report

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestReportDoesNotImportDetect: report renders what a pass found
// (package findings) and never reaches into the pass itself, so that the
// JSON model, the merge and the renderers change apart from the detector.
// Its internal tests (package report) hold to that too, so that a test of
// report's internals is built from findings values, not from a detector's
// state. The external tests (package report_test) may import detect: they
// run a real pass to make the findings they render, as a user's run does,
// and see report only as its importers do (and through export_test.go).
func TestReportDoesNotImportDetect(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, "_test.go") && f.Name.Name != "report" {
			continue // package report_test
		}
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == "github.com/robowatch/robowatch/detect" {
				t.Errorf("%s (package %s) imports %s: report takes what a pass found from package findings", name, f.Name.Name, path)
			}
		}
	}
}
