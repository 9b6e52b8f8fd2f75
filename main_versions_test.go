package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robowatch/robowatch/cli"
)

// versionsArgs judge testdata/versions/change.log against the site's
// robots.txt of 1 May (v1.txt, 34 bytes) and the one put up at midnight on
// 2 May (v2.txt, 49 bytes: Disallow: /ai/ added).
var versionsArgs = []string{"--robots", "testdata/versions/v1.txt", "--robots", "testdata/versions/v2.txt@2024-05-02T00:00:00Z", "testdata/versions/change.log"}

type versionsReport struct {
	Robots []struct {
		Name       string `json:"name"`
		Violations int64  `json:"violations"`
		Cached     int64  `json:"cached"`
	} `json:"robots"`
	Violations []struct {
		Name     string `json:"name"`
		Path     string `json:"path"`
		Rule     string `json:"rule"`
		From     string `json:"robots_txt_from"`
		Copy     string `json:"robots_txt_copy"`
		Fetched  string `json:"robots_txt_fetched"`
		Last     string `json:"last_robots_txt_fetch"`
		LastCode int    `json:"last_robots_txt_status"`
	} `json:"violations"`
}

// TestRobotsTxtChangedMidLog is the site that added "Disallow: /ai/" at
// midnight: each robot is judged against the copy it could hold (RFC 9309
// lets it keep one 24 hours), not against today's file.
//   - FetchBot read the old file the day before: /ai/ after the change is
//     cached, not a violation; /private/ breaks the copy it had.
//   - LateBot read the new file after the change: /ai/ is a violation of it.
//   - NeverBot never read it: /ai/ five hours after the change may be from
//     an old copy (cached); a day and more after it, only the new file was
//     in force: a violation.
//   - SizeBot fetched ten minutes before the stated change, and the answer's
//     size (49 bytes) says it got the new file already: /ai/ is a violation.
//   - GzipBot's answer (30 bytes, compressed) is no version's size: it got
//     the file in force at its fetch, the old one: /ai/ is cached.
func TestRobotsTxtChangedMidLog(t *testing.T) {
	var rep versionsReport
	_, errOut := runJSON(t, nil, &rep, append([]string{"-o", "json"}, versionsArgs...)...)
	if !strings.Contains(errOut, "the size of each 2xx robots.txt answer in the log tells which version a robot got") {
		t.Errorf("stderr does not say that sizes tell the versions apart: %q", errOut)
	}
	robots := map[string]string{}
	for _, r := range rep.Robots {
		robots[r.Name] = fmt.Sprintf("%d violations, %d cached", r.Violations, r.Cached)
	}
	wantRobots := map[string]string{
		"FetchBot": "1 violations, 1 cached",
		"LateBot":  "1 violations, 0 cached",
		"NeverBot": "2 violations, 1 cached",
		"SizeBot":  "1 violations, 0 cached",
		"GzipBot":  "0 violations, 1 cached",
	}
	for name, want := range wantRobots {
		if robots[name] != want {
			t.Errorf("%s: %s, want %s", name, robots[name], want)
		}
	}
	var got []string
	for _, v := range rep.Violations {
		got = append(got, strings.Join([]string{v.Name, v.Path, v.Rule, v.From, v.Copy, v.Fetched, v.Last, fmt.Sprint(v.LastCode)}, " | "))
	}
	want := []string{
		"NeverBot | /private/a.html | Disallow: /private/ |  | in force |  |  | 0",
		"SizeBot | /ai/x.html | Disallow: /ai/ | 2024-05-02T00:00:00Z | fetched, told by size | 2024-05-01T23:50:00Z | 2024-05-01T23:50:00Z | 200",
		"FetchBot | /private/x.html | Disallow: /private/ |  | fetched, told by size | 2024-05-01T10:00:00Z | 2024-05-01T10:00:00Z | 200",
		"LateBot | /ai/page.html | Disallow: /ai/ | 2024-05-02T00:00:00Z | fetched, told by size | 2024-05-02T03:00:00Z | 2024-05-02T03:00:00Z | 200",
		"NeverBot | /ai/b.html | Disallow: /ai/ | 2024-05-02T00:00:00Z | in force |  |  | 0",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("violations\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// The CSV names the version too; with one file, "".
	_, csv, _ := runCLI(t, nil, append([]string{"-o", "csv", "--section", "violations"}, versionsArgs...)...)
	if !strings.Contains(csv, ",robots_txt_from\n") || !strings.Contains(csv, "/ai/b.html,200,*,Disallow: /ai/,3,2024-05-02T00:00:00Z\n") {
		t.Errorf("CSV violations do not name the version:\n%s", csv)
	}
	_, one, _ := runCLI(t, nil, "-o", "csv", "--section", "violations", "--robots", "testdata/versions/v2.txt", "testdata/versions/change.log")
	if !strings.Contains(one, "/ai/b.html,200,*,Disallow: /ai/,3,\n") {
		t.Errorf("with one file, robots_txt_from is not empty:\n%s", one)
	}
}

// TestVersionEvidenceInDrillDown: --client shows, for each violation, the
// version judged against, the robot's copy and its last robots.txt fetch,
// and the requests counted as cached: the evidence an operator is sent.
func TestVersionEvidenceInDrillDown(t *testing.T) {
	for _, tc := range []struct{ ip, want string }{
		{"198.51.100.4", "judged by the robots.txt of 2024-05-02T00:00:00Z, its copy: fetched 2024-05-01 23:50:00 +0000 (at most 24 h before), the version told by the answer's size; its last fetch of robots.txt: 2024-05-01 23:50:00 +0000, status 200"},
		{"198.51.100.3", "judged by the robots.txt of 2024-05-02T00:00:00Z, no fetch in the 24 h before: every version in force then disallows it; it never fetched robots.txt before"},
		{"198.51.100.5", "Cached 1 request the robots.txt in force disallows and a copy it could hold allowed: no violations"},
	} {
		code, out, errOut := runCLI(t, nil, append([]string{"--width", "1000", "--section", "client", "--client", tc.ip}, versionsArgs...)...)
		if code != cli.ExitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		flat := strings.Join(strings.Fields(strings.NewReplacer("│", " ").Replace(out)), " ")
		if !strings.Contains(flat, tc.want) {
			t.Errorf("--client %s does not say %q:\n%s", tc.ip, tc.want, out)
		}
	}
}

// TestRobotsHistoryDir: a directory of versions named by their times is
// the same history as --robots FILE@TIME, dates read in the log's zone.
func TestRobotsHistoryDir(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{"2024-04-01.txt": "v1.txt", "2024-05-02.txt": "v2.txt"} {
		b, err := os.ReadFile(filepath.Join("testdata/versions", src))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, want, _ := runCLI(t, nil, append([]string{"-o", "csv", "--section", "violations"}, versionsArgs...)...)
	code, got, errOut := runCLI(t, nil, "-o", "csv", "--section", "violations", "--robots-history", dir, "testdata/versions/change.log")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// The first version is in force from the start however it is dated.
	want = strings.ReplaceAll(want, ",3,2024-05-02T00:00:00Z", ",3,2024-05-02T00:00:00Z")
	want = strings.ReplaceAll(want, ",2,\n", ",2,2024-04-01T00:00:00Z\n")
	if got != want {
		t.Errorf("--robots-history:\n%s\nwant\n%s", got, want)
	}
	if code, _, errOut := runCLI(t, nil, "--robots", "testdata/versions/v2.txt@2024-02-30", "testdata/versions/change.log"); code != cli.ExitUsage || !strings.Contains(errOut, "not a time") {
		t.Errorf("a bad time: exit %d, %q", code, errOut)
	}
}

// TestVersionsMergeExactly: the verdicts on a robots.txt history are the
// same in one run, with --workers, and merged from --shard parts.
func TestVersionsMergeExactly(t *testing.T) {
	_, whole, _ := runCLI(t, nil, append([]string{"-o", "json"}, versionsArgs...)...)
	_, workers, _ := runCLI(t, nil, append([]string{"-o", "json", "--workers", "3"}, versionsArgs...)...)
	if workers != whole {
		t.Errorf("--workers 3 differs from one worker at %s", firstDiff(workers, whole))
	}
	dir := t.TempDir()
	parts := []string{"merge", "-o", "json"}
	for i := 1; i <= 3; i++ {
		code, out, errOut := runCLI(t, nil, append([]string{"-o", "json", "--top", "0", "--shard", fmt.Sprintf("%d/3", i)}, versionsArgs...)...)
		if code != cli.ExitOK {
			t.Fatalf("shard %d: exit %d: %s", i, code, errOut)
		}
		p := filepath.Join(dir, fmt.Sprintf("part%d.json", i))
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, p)
	}
	code, merged, errOut := runCLI(t, nil, parts...)
	if code != cli.ExitOK {
		t.Fatalf("merge: exit %d: %s", code, errOut)
	}
	if merged != whole {
		t.Errorf("merged shards differ from the whole run at %s", firstDiff(merged, whole))
	}
}
