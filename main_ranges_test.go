package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robowatch/robowatch/cli"
)

// chatGPTUserLog is a log of ChatGPT-User fetches on the day given: one a
// client from each address of 23.98.179.16/28 (in OpenAI's ChatGPT-User
// list from the first copy known, 2026-04-11, until 2026-08-05, dropped
// since), and one from 34.120.0.10, a Google Cloud address no OpenAI list
// ever held.
func chatGPTUserLog(day string) []byte {
	const ua = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot"
	var b strings.Builder
	for i := range 17 {
		ip := fmt.Sprintf("23.98.179.%d", 16+i)
		if i == 16 {
			ip = "34.120.0.10"
		}
		fmt.Fprintf(&b, "%s - - [%s:10:%02d:00 +0000] \"GET /article/%d HTTP/1.1\" 200 5120 \"-\" \"%s\"\n", ip, day, i, i, ua)
	}
	return []byte(b.String())
}

// clientsOf reads the JSON report's clients and summary.
func clientsOf(t *testing.T, out string) (map[string]map[string]any, map[string]any) {
	t.Helper()
	var doc struct {
		Summary map[string]any   `json:"summary"`
		Clients []map[string]any `json:"clients"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	byIP := map[string]map[string]any{}
	for _, c := range doc.Clients {
		byIP[c["ip"].(string)] = c
	}
	return byIP, doc.Summary
}

// TestChatGPTUserDroppedPrefix2024Log: the real-world case of a 2024-25
// log from a published study of AI crawlers. OpenAI's ChatGPT-User list
// held 23.98.179.16/28 and has since dropped it; read with today's list
// alone, its 16 genuine clients were impostors and
// summary.ranges_newer_than_log said false. Judged by the lists of the
// log's own time, a 2024 log predates the history of OpenAI's lists
// (2026-04-11): the earliest list held the prefix, so they are verified
// "by the earliest ranges known", and a claim from an unrelated cloud
// address is unverified, not an impostor, and not verified. A log of
// October 2026, after the drop, makes them impostors: the lists of that
// time rule them out.
func TestChatGPTUserDroppedPrefix2024Log(t *testing.T) {
	tests := []struct {
		day                string
		listed, listedNote string // the 16 clients from 23.98.179.16/28
		cloud, cloudNote   string // the one from 34.120.0.10
		newer              bool
	}{
		{"03/Nov/2024", "verified", "by the earliest ranges known, 2026-04-11", "unverified", "ranges only from 2026-04-11", true},
		{"01/Jun/2026", "verified", "", "impostor", "", false},
		{"01/Oct/2026", "impostor", "", "impostor", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.day, func(t *testing.T) {
			code, out, errOut := runCLI(t, chatGPTUserLog(tt.day), "-o", "json", "-")
			if code != cli.ExitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			clients, summary := clientsOf(t, out)
			if len(clients) != 17 {
				t.Fatalf("%d clients, want 17", len(clients))
			}
			for ip, c := range clients {
				want, note := tt.listed, tt.listedNote
				if ip == "34.120.0.10" {
					want, note = tt.cloud, tt.cloudNote
				}
				got, _ := c["identity_note"].(string)
				if c["operator"] != "OpenAI" || c["identity"] != want || got != note {
					t.Errorf("%s: operator %v, identity %v (%q), want OpenAI, %s (%q)", ip, c["operator"], c["identity"], got, want, note)
				}
			}
			if summary["ranges_newer_than_log"] != tt.newer {
				t.Errorf("summary.ranges_newer_than_log = %v, want %v", summary["ranges_newer_than_log"], tt.newer)
			}
			said := strings.Contains(errOut, "before the address ranges' history")
			if said != tt.newer {
				t.Errorf("stderr says the log is before the ranges' history: %v, want %v:\n%s", said, tt.newer, errOut)
			}
		})
	}
}

// TestRangesJAFARFile: --ranges FILE reads a JAFAR file
// (draft-illyes-webbotauth-jafar), whose service names the robot of each
// prefix: an operator publishing its fetchers' addresses in that shape
// verifies them. A file of a major version robowatch does not read, one
// that does not parse, and one with no prefix (a source that answered
// with nothing) are refused with the file's name and the reason, and
// nothing is read.
func TestRangesJAFARFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("chatgpt-user.json", `{"formatVersion":"1.0","creationTime":"2024-10-01T00:00:00Z",
		"prefixes":[{"ipv4Prefix":"34.120.0.0/24","service":"ChatGPT-User"}]}`)
	code, out, errOut := runCLI(t, chatGPTUserLog("03/Nov/2024"), "-o", "json", "--ranges", good, "-")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	clients, summary := clientsOf(t, out)
	if c := clients["34.120.0.10"]; c["identity"] != "verified" || c["verified_by"] != "ip-range" {
		t.Errorf("34.120.0.10 by the JAFAR file: %v %v, want verified by ip-range", c["identity"], c["verified_by"])
	}
	if c := clients["23.98.179.16"]; c["identity"] != "impostor" {
		t.Errorf("23.98.179.16, outside the JAFAR file's list of its time: %v, want impostor", c["identity"])
	}
	if r, _ := summary["ranges"].([]any); len(r) != 1 || r[0].(map[string]any)["file"] != "chatgpt-user.json#ChatGPT-User" {
		t.Errorf("summary.ranges = %v", summary["ranges"])
	}

	for _, tt := range []struct{ name, body, want string }{
		{"v2.json", `{"formatVersion":"2.0","creationTime":"2026-05-01T00:00:00Z","prefixes":[{"ipv4Prefix":"34.120.0.0/24","service":"ChatGPT-User"}]}`,
			`range file v2.json: formatVersion "2.0": robowatch reads JAFAR (draft-illyes-webbotauth-jafar) version 1.x only`},
		{"broken.json", `{"formatVersion":"1.0","prefixes":[`, "range file broken.json: unexpected end of JSON input"},
		{"empty.json", `{"formatVersion":"1.0","creationTime":"2026-05-01T00:00:00Z","prefixes":[]}`, "range file empty.json: 0 prefixes"},
	} {
		code, out, errOut := runCLI(t, chatGPTUserLog("03/Nov/2024"), "--ranges", write(tt.name, tt.body), "-")
		if code != cli.ExitError || out != "" || !strings.Contains(errOut, tt.want) {
			t.Errorf("--ranges %s: exit %d, stdout %d bytes, stderr %q; want %d, nothing, %q", tt.name, code, len(out), errOut, cli.ExitError, tt.want)
		}
	}
}
