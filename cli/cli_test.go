package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestParseUsageErrors: a bad command line is one line on stderr naming the
// flag and the value, and exit status 2; nothing on stdout.
func TestParseUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string // in the one line on stderr
	}{
		{[]string{"--bogus"}, "robowatch: unknown flag: --bogus (see robowatch --help)"},
		{[]string{"-o", "xml"}, `--output "xml": want one of table, text, json`},
		{[]string{"--section", "nope"}, `--section "nope"`},
		{[]string{"--section", "summary,client"}, "--section client draws the clients --client names: give --client"},
		{[]string{"-f", "%h %{Referer"}, "--format"},
		// tail's habit: -f where robowatch's -F follows.
		{[]string{"-f", "access.log"}, `--format "access.log" is a file, not a log format: did you mean -F (follow)?`},
		{[]string{"-f", "/var/log/nginx/access.log", "--robots", "robots.txt"}, "did you mean -F (follow)?"},
		{[]string{"--format", "access.log.2.gz"}, "did you mean -F (follow)?"},
		{[]string{"-f", "cli_test.go"}, "did you mean -F (follow)?"}, // a file that is there
		{[]string{"--top", "-1"}, "--top -1: want a number from 0 to 1000000000"},
		{[]string{"--burst", "4294967296"}, "--burst 4294967296: want a number from 0 to 1000000000"},
		{[]string{"--sustained", "2147483648"}, "--sustained 2147483648"},
		{[]string{"--max-clients", "-5"}, "--max-clients -5"},
		{[]string{"--burst", "99999999999999999999"}, "--burst"},
		{[]string{"--fail-on", "everything"}, `--fail-on "everything"`},
		{[]string{"--fail-on", "violations"}, "--fail-on violations needs --robots"},
		{[]string{"--color", "sometimes"}, `--color "sometimes": want auto, always or never`},
		{[]string{"--progress", "on"}, `--progress "on": want auto, always or never`},
		{[]string{"--interval", "-1s"}, "--interval -1s: want a duration of 0 or more"},
		{[]string{"-F", "--expire", "-2h"}, "--expire -2h0m0s: want a duration of 0 or more"},
		{[]string{"--burst", "0"}, "--burst 0: want 1 or more requests"},
		{[]string{"--sustained", "0"}, "--sustained 0: want 1 or more requests"},
		{[]string{"--robots", "-", "access.log"}, "--robots -: standard input is for the log"},
		{[]string{"--robots", "www.example.com=-"}, "--robots www.example.com=-: standard input is for the log"},
		{[]string{"--robots", "www.example.com="}, `--robots "www.example.com=": no FILE or URL`},
		{[]string{"--robots", ""}, `--robots "": no FILE or URL`},
		{[]string{"--since", "yesterday"}, "--since"},
		{[]string{"--until", "later"}, "--until"},
		{[]string{"--client", "10.0.0.0/33"}, "--client"},
		{[]string{"--since", "2024-03-10T14:00:00Z", "--until", "2024-03-10T13:00:00Z"}, "--since 2024-03-10T14:00:00Z is not before --until 2024-03-10T13:00:00Z"},
		{[]string{"--since", "1h", "--until", "2h"}, "--since 1h is not before --until 2h"},
		{[]string{"--width", "-3"}, "--width -3"},
		{[]string{"--block", "everyone"}, `--block: "everyone": want impostors, violators, scanners, incidents, robots, purpose:P or name:N`},
		{[]string{"--block", "violators,,robots"}, "--block: empty item"},
		{[]string{"--allow", "10.0.0.1/40"}, `--allow "10.0.0.1/40": not a CIDR network`},
		{[]string{"--allow", "office"}, `--allow "office": not an IP address or a CIDR network`},
		{[]string{"--allow-file", "/nonexistent/allow.txt"}, "--allow-file open /nonexistent/allow.txt"},
		{[]string{"--aggregate", "--aggregate-at", "0"}, "--aggregate-at 0: want at least 1"},
		{[]string{"--aggregate-at", "-2"}, "--aggregate-at -2: want a number from 0"},
		{[]string{"--nft-table", "my table"}, `--nft-table "my table": want 1 to 64 letters`},
		{[]string{"--nft-table", "log"}, `--nft-table "log": a word nft reads as a keyword`},
		{[]string{"-o", "csv", "--section", "summary,robots"}, `-o csv writes one section`},
		{[]string{"--nft-hook", "output"}, `--nft-hook "output": want one of input, forward, prerouting`},
		{[]string{"--dns-server", "127.0.0.1:53"}, "--dns-server is for --verify-dns"},
		{[]string{"--verify-dns", "--dns-server", "localhost"}, `--dns-server "localhost": want HOST:PORT`},
		{[]string{"check"}, "robowatch check: --robots FILE|URL is required (see robowatch check --help)"},
		{[]string{"check", "--robots", "r.txt"}, "give at least one PATH to check, or --lint"},
		{[]string{"check", "--robots", "r.txt", "--lint", "/x"}, "--lint takes no paths"},
		{[]string{"check", "--robots", "r.txt", "-o", "xml", "/"}, `--output "xml"`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			cmd, err := Parse(tt.args, nil, &out, &errOut)
			if cmd != nil {
				t.Fatalf("Parse = %#v, want no command", cmd)
			}
			code := Status(&errOut, err)
			if code != ExitUsage {
				t.Errorf("status %d, want %d", code, ExitUsage)
			}
			if !strings.Contains(errOut.String(), tt.want) || strings.Count(errOut.String(), "\n") != 1 || out.Len() != 0 {
				t.Errorf("stdout %q, stderr %q; want one line on stderr with %q", out.String(), errOut.String(), tt.want)
			}
		})
	}
}

// TestParseHelp: --help writes the usage to stdout and asks for exit 0;
// hidden flags stay hidden.
func TestParseHelp(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"check", "--help"}} {
		var out, errOut bytes.Buffer
		cmd, err := Parse(args, nil, &out, &errOut)
		if cmd != nil || err != nil || Status(&errOut, err) != ExitOK {
			t.Errorf("%v: Parse = %v, %v; want help and exit 0", args, cmd, err)
		}
		help := out.String() + errOut.String()
		if !strings.Contains(help, "Usage:") || !strings.Contains(help, "Examples:") || strings.Contains(help, "cpuprofile") {
			t.Errorf("%v: help text:\n%s", args, help)
		}
	}
}

// TestParseAnalyse: what the flags become. JSON and CSV are for scripts:
// every row unless --top is given; a table shows 20.
func TestParseAnalyse(t *testing.T) {
	tests := []struct {
		args     []string
		top      int
		files    string
		strict   bool
		progress bool
	}{
		{nil, 20, "-", false, false},
		{[]string{"-o", "json"}, 0, "-", false, false},
		{[]string{"-o", "csv", "--top", "5", "a.log"}, 5, "a.log", false, false},
		{[]string{"--strict", "--progress", "always", "a.log", "b.log.gz"}, 20, "a.log b.log.gz", true, true},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		cmd, err := Parse(tt.args, nil, &out, &errOut)
		a, ok := cmd.(*Analyse)
		if err != nil || !ok {
			t.Fatalf("%v: Parse = %v, %v", tt.args, cmd, err)
		}
		if a.Report.Top != tt.top || strings.Join(a.Files, " ") != tt.files || a.Strict != tt.strict || a.Progress != tt.progress {
			t.Errorf("%v: top %d files %q strict %v progress %v; want %d %q %v %v", tt.args, a.Report.Top, a.Files, a.Strict, a.Progress, tt.top, tt.files, tt.strict, tt.progress)
		}
		if a.Detect.MaxClients != 250_000 {
			t.Errorf("%v: MaxClients = %d, want the default cap", tt.args, a.Detect.MaxClients)
		}
	}
}

// TestWidth: --width wins, then the terminal's width, then $COLUMNS; with
// none of them the report chooses (0).
func TestWidth(t *testing.T) {
	tests := []struct {
		columns string
		args    []string
		want    int
	}{
		{"", nil, 0},
		{"120", nil, 120},
		{"junk", nil, 0},
		{"-5", nil, 0},
		{"120", []string{"--width", "80"}, 80},
		{"", []string{"--width", "160"}, 160},
	}
	for _, tt := range tests {
		t.Setenv("COLUMNS", tt.columns)
		var out, errOut bytes.Buffer
		cmd, err := Parse(tt.args, nil, &out, &errOut)
		if err != nil {
			t.Fatal(err)
		}
		if got := cmd.(*Analyse).Report.Width; got != tt.want {
			t.Errorf("COLUMNS=%q %v: width %d, want %d", tt.columns, tt.args, got, tt.want)
		}
	}
}

// TestShownRobots: the report lists --robots sources without passwords.
func TestShownRobots(t *testing.T) {
	var out, errOut bytes.Buffer
	cmd, err := Parse([]string{"--robots", "https://u:pw@example.com/robots.txt", "--robots", "api.example.com=robots-api.txt"}, nil, &out, &errOut)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(cmd.(*Analyse).ShownRobots(), " ")
	if got != "https://u:xxxxx@example.com/robots.txt api.example.com=robots-api.txt" {
		t.Errorf("ShownRobots = %q", got)
	}
}

// TestAllowFile: addresses and networks a line, comments and blank lines
// skipped; a line that is neither is an error naming the file and line
// (an allow list with a typo would protect nothing, silently).
func TestAllowFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "allow.txt")
	os.WriteFile(good, []byte("# office\n192.0.2.200\n\n2001:db8::/32  # the v6 office\n::ffff:198.51.100.1\n"), 0o644)
	opt, err := blockOptions(nil, nil, []string{good}, false, 8, "robowatch", "input")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range opt.Allow {
		got = append(got, p.String())
	}
	if g := strings.Join(got, " "); g != "192.0.2.200/32 2001:db8::/32 198.51.100.1/32" {
		t.Errorf("allow %s", g)
	}
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("192.0.2.200\n192.0.2.300\n"), 0o644)
	if _, err := blockOptions(nil, nil, []string{bad}, false, 8, "robowatch", "input"); err == nil || !strings.Contains(err.Error(), bad+`:2: "192.0.2.300"`) {
		t.Errorf("error %v, want one naming %s line 2", err, bad)
	}
}

// TestNFTKeywordsRefusedByNft holds nftKeywords to the nft installed here:
// each is a table name nft -c refuses, and a name beside them loads.
func TestNFTKeywordsRefusedByNft(t *testing.T) {
	nft, err := exec.LookPath("nft")
	if err != nil {
		t.Skip("nft is not installed")
	}
	check := func(name string) error {
		f := filepath.Join(t.TempDir(), "t.nft")
		if err := os.WriteFile(f, []byte("table inet "+name+" {\n}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return exec.Command(nft, "-c", "-f", f).Run()
	}
	if err := check("robowatch"); err != nil {
		t.Skipf("nft -c cannot run here: %v", err)
	}
	for _, name := range []string{"log", "drop", "ip", "set", "limit", "reject", "table"} {
		if !nftKeywords[name] {
			t.Errorf("%q is not in nftKeywords", name)
		}
	}
	n := 0
	for name := range nftKeywords {
		if n++; n > 40 {
			break // a sample keeps the test quick
		}
		if check(name) == nil {
			t.Errorf("nft reads %q as a table name: not a keyword", name)
		}
	}
}

// TestHelpFits: --help fits the terminal, $COLUMNS when it is set, else 80
// columns; a help wider than the terminal wraps where the terminal chooses,
// in the middle of words and flag names.
func TestHelpFits(t *testing.T) {
	for _, cmd := range [][]string{{"--help"}, {"check", "--help"}, {"merge", "--help"}} {
		for _, columns := range []string{"", "80", "100", "120", "garbage"} {
			t.Run(strings.Join(cmd, " ")+" COLUMNS="+columns, func(t *testing.T) {
				t.Setenv("COLUMNS", columns)
				want := 80
				if n, err := strconv.Atoi(columns); err == nil {
					want = n
				}
				var out, errOut bytes.Buffer
				if _, err := Parse(cmd, nil, &out, &errOut); err != nil {
					t.Fatal(err)
				}
				widest := 0
				for line := range strings.Lines(out.String()) {
					line = strings.TrimSuffix(line, "\n")
					if n := utf8.RuneCountInString(line); n > want {
						t.Errorf("%d columns, wider than %d: %q", n, want, line)
					} else if strings.TrimRight(line, " ") != line {
						t.Errorf("trailing space: %q", line)
					}
					widest = max(widest, utf8.RuneCountInString(line))
				}
				// Wrapped to the width, not to some narrower one.
				if widest < want-12 {
					t.Errorf("widest line %d columns, for a width of %d", widest, want)
				}
			})
		}
	}
}
