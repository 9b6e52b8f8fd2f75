package main

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestDashboardWithoutRefererIsAPerson replays a real session from the
// corpus (jul/yahi's home server, 2012, testdata/corpus/yahi-munin-2012):
// a person on Firefox 12 logs in to munin and opens a dashboard whose 40
// graphs load in the same second, with no Referer on any request. Counted
// by requests that was a rapid-fire incident and a robot; counted by page
// views (five pages in 23 s) it is a person, and no incident.
func TestDashboardWithoutRefererIsAPerson(t *testing.T) {
	const ua = "Mozilla/5.0 (Windows NT 6.0; WOW64; rv:12.0) Gecko/20100101 Firefox/12.0"
	f, err := os.Open("testdata/corpus/yahi-munin-2012/access.log.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var session strings.Builder
	sc := bufio.NewScanner(z)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "192.168.0.35 ") && strings.Contains(sc.Text(), `"`+ua+`"`) {
			session.WriteString(sc.Text() + "\n")
		}
	}
	if n := strings.Count(session.String(), "\n"); n < 40 {
		t.Fatalf("the session has %d lines, want the dashboard's 46", n)
	}
	for _, tc := range []struct {
		name  string
		lines string
		robot bool
	}{
		{"the person's session", session.String(), false},
		// The same 40 graphs fetched with no page before them: no page
		// view holds them, and they count in full.
		{"graphs alone, no page", graphsOnly(session.String()), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, []byte(tc.lines), "-o", "json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var rep struct {
				Clients []struct {
					Robot     bool `json:"robot"`
					Incidents int  `json:"incidents"`
				} `json:"clients"`
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Clients) != 1 {
				t.Fatalf("report: %v, %d clients", err, len(rep.Clients))
			}
			if c := rep.Clients[0]; c.Robot != tc.robot || (c.Incidents > 0) != tc.robot {
				t.Errorf("robot %v with %d incidents, want robot %v", c.Robot, c.Incidents, tc.robot)
			}
		})
	}
}

// graphsOnly keeps the session's .png lines.
func graphsOnly(session string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(session, "\n") {
		if strings.Contains(l, ".png ") {
			b.WriteString(l)
		}
	}
	return b.String()
}
