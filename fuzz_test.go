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
	// The wrappers and encodings that reach the reports decoded: a
	// container runtime's lines, Akamai's URI-encoded User-agent and
	// Referer, IPv6 clients with zones and ports.
	akamai, err := os.ReadFile("testdata/formats/akamai.json.log")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(akamai)
	f.Add([]byte(`{"cliIP":"fe80::1%eth0","reqTimeSec":"1700000000","reqPath":"/a","queryStr":"b","UA":"%1B%5D0%3Bx%07%E2%80%AE+%3Dcmd%7C%2F","referer":"https%3A%2F%2Fe%0A%C2%9B"}` + "\n"))
	f.Add([]byte("2024-05-06T07:00:01.5Z stdout F " + validLine + "2024-05-06T07:00:01.5Z stderr P " + validLine))
	f.Add([]byte(`{"log":"[2001:db8::7]:443 - - [06/May/2024:09:00:00 +0000] \"GET / HTTP/1.1\" 200 5 \"-\" \"\u001b[2J\u202e\"\n","stream":"stdout","time":"2024-05-06T07:00:01Z"}` + "\n"))
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
