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
func TestReportDoesNotImportDetect(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == "github.com/robowatch/robowatch/detect" {
				t.Errorf("%s imports %s: report takes what a pass found from package findings", name, path)
			}
		}
	}
}
