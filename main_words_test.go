package main

import (
	"strings"
	"testing"
)

// TestWordsOfAShortLog: a report says what the log shows, not more. A
// robot that did not fetch robots.txt in a 5-minute log may well have
// fetched it the hour before ("never fetched" claims what the log cannot
// know); "first" of the scanners is the busiest, which the word did not
// say.
func TestWordsOfAShortLog(t *testing.T) {
	const site = "testdata/scenarios/site/"
	tests := []struct {
		name    string
		args    []string
		want    []string
		notWant []string
	}{
		{"headline", []string{"--robots", site + "robots.txt", "--section", "headline", site + "site.log"},
			[]string{"60 violations of robots.txt; did not fetch robots.txt in this log (5m02s); see robots.txt violations"}, []string{"never"}},
		{"markdown", []string{"--robots", site + "robots.txt", "-o", "markdown", site + "site.log"},
			[]string{"did not fetch robots.txt in this log (5m02s)"}, []string{"never fetched"}},
		{"robots column", []string{"--robots", site + "robots.txt", "--section", "robots", site + "site.log"},
			[]string{"not fetched"}, []string{"never"}},
		{"drill-down", []string{"--robots", site + "robots.txt", "--client", "192.0.2.99", "--section", "client", site + "site.log"},
			[]string{"not fetched in this log (5m02s)"}, []string{"never fetched"}},
		{"scanners", []string{"--section", "headline", "testdata/scenarios/verdicts/clf-scanners.log"},
			[]string{"2 clients probed for weaknesses (the busiest: 192.0.2.99)"}, []string{"(first "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("COLUMNS", "200")
			code, out, errOut := runCLI(t, nil, tt.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			flat := strings.Join(strings.Fields(strings.NewReplacer("│", " ", "|", " ").Replace(out)), " ")
			for _, w := range tt.want {
				if !strings.Contains(flat, w) {
					t.Errorf("no %q in:\n%s", w, out)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(flat, w) {
					t.Errorf("%q in:\n%s", w, out)
				}
			}
		})
	}
}
