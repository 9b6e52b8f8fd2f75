// Package clitest runs the robowatch command in tests as a user would:
// in this process through cli.Main, or as the built binary. The end-to-end
// tests of the root package and of cli share it.
package clitest

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/robowatch/robowatch/cli"
)

// ValidLine is one ordinary combined-format request of a browser.
const ValidLine = `192.0.2.1 - - [06/May/2024:09:00:00 +0000] "GET / HTTP/1.1" 200 512 "-" "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0"` + "\n"

// Run runs robowatch as a user would and returns its exit status and output.
func Run(t testing.TB, stdin []byte, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := cli.Main(context.Background(), args, bytes.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// RunJSON runs robowatch with args, fails the test unless it exits 0, and
// decodes its output, one JSON document, into v. It returns the output and
// the standard error.
func RunJSON(t testing.TB, stdin []byte, v any, args ...string) (out, errOut string) {
	t.Helper()
	code, out, errOut := Run(t, stdin, args...)
	if code != cli.ExitOK {
		t.Fatalf("robowatch %s: exit %d: %s", strings.Join(args, " "), code, errOut)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("robowatch %s: the JSON report does not parse: %v", strings.Join(args, " "), err)
	}
	return out, errOut
}

// Summary is the part of the JSON report the hostile-input and interrupt
// tests read.
type Summary struct {
	Summary struct {
		Lines, Records, Malformed int64
		Partial                   bool
		Format                    string
		Other                     struct{ Clients, Requests int64 }
	} `json:"summary"`
	Clients []struct {
		IP        string `json:"ip"`
		UserAgent string `json:"user_agent"`
		Requests  int64  `json:"requests"`
	} `json:"clients"`
	Malformed []struct {
		File, Reason, Text string
	} `json:"malformed"`
	Errors []string `json:"errors"`
}

// ParseSummary decodes a JSON report, failing the test if it does not parse.
func ParseSummary(t testing.TB, out string) Summary {
	t.Helper()
	var s Summary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("the JSON report does not parse: %v\n%.2000s", err, out)
	}
	return s
}

// FirstDiff says where got first differs from want, by line, to find the
// change in a long report.
func FirstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl || i >= len(g) || i >= len(w) {
			return "line " + strconv.Itoa(i+1) + ":\n got " + strconv.Quote(gl) + "\nwant " + strconv.Quote(wl) + "\n"
		}
	}
	return "the end"
}
