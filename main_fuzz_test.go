package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robowatch/robowatch/cli"
)

// FuzzRun feeds arbitrary bytes to the whole pipeline (detection, parsing,
// the detectors, the reports): the JSON report always parses and says how
// many lines it read, and the table on stdout and the messages on stderr
// carry nothing a terminal would act on.
func FuzzRun(f *testing.F) {
	for _, name := range []string{"terminal-escapes.log", "nul-bytes.log", "invalid-utf8.log", "mostly-malformed.log"} {
		b, err := os.ReadFile(filepath.Join(hostileDir, name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[:min(len(b), 4096)])
	}
	site, err := os.ReadFile("testdata/scenarios/site/site.log")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(site[:min(len(site), 4096)])
	f.Add([]byte(validLine))
	f.Add([]byte("\x1f\x8b\x08\x00\x00\x00\x00\x00"))
	f.Add([]byte("BZh91AY&SY"))
	f.Fuzz(func(t *testing.T, in []byte) {
		var out, errOut bytes.Buffer
		code := run(context.Background(), []string{"-o", "json"}, bytes.NewReader(in), &out, &errOut)
		if code != cli.ExitOK && code != cli.ExitError {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		assertInert(t, "json stderr", errOut.String())
		if code == cli.ExitError && out.Len() == 0 {
			// Nothing could be read (a broken gzip header): an error, and
			// no empty report that would read as an all-clear.
			if !strings.Contains(errOut.String(), "robowatch: ") {
				t.Fatalf("exit 1 with no report and no message: %q", errOut.String())
			}
			return
		}
		var doc struct {
			Summary struct{ Lines, Records, Malformed int64 } `json:"summary"`
		}
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
			t.Fatalf("JSON report does not parse: %v\n%s", err, out.String())
		}
		if s := doc.Summary; s.Lines != s.Records+s.Malformed || s.Lines < 0 || s.Lines > int64(len(in))+1 {
			t.Fatalf("summary %+v for %d bytes", s, len(in))
		}

		out.Reset()
		errOut.Reset()
		run(context.Background(), []string{"-o", "table"}, bytes.NewReader(in), &out, &errOut)
		assertInert(t, "table stdout", out.String())
		assertInert(t, "table stderr", errOut.String())
	})
}
