// Package clitest runs the robowatch command in tests as a user would:
// in this process through cli.Main, or as the built binary. The end-to-end
// tests of the root package and of cli share it.
package clitest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

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

// AssertInert fails if s carries anything a terminal would act on or hide:
// C0 controls but the line end, DEL, C1 controls, invalid UTF-8 (a lone 0x9b
// is CSI to some terminals), bidi and other format characters.
func AssertInert(t testing.TB, what, s string) {
	t.Helper()
	for i, r := range s {
		bad := ""
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\ufffd"):
			bad = fmt.Sprintf("invalid UTF-8 byte %#x", s[i])
		case r < 0x20 && r != '\n', r == 0x7f, r >= 0x80 && r <= 0x9f:
			bad = fmt.Sprintf("control %U", r)
		case unicode.Is(unicode.Cf, r), r == 0x2028, r == 0x2029:
			bad = fmt.Sprintf("format character %U", r)
		}
		if bad != "" {
			t.Fatalf("%s: raw %s at byte %d: %q", what, bad, i, s[max(0, i-40):min(len(s), i+20)])
		}
	}
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
