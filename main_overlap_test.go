package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// overlapLine is one combined-format line at t.
func overlapLine(ip string, t time.Time, path, ua string) string {
	return fmt.Sprintf("%s - - [%s] \"GET %s HTTP/1.1\" 200 512 \"-\" \"%s\"\n", ip, t.Format("02/Jan/2006:15:04:05 -0700"), path, ua)
}

// quietTraffic is a person's page a minute from start to end, so that the
// log's clock moves on as a real one does.
func quietTraffic(b *strings.Builder, ip string, start, end time.Time) {
	for t := start; t.Before(end); t = t.Add(time.Minute) {
		b.WriteString(overlapLine(ip, t, "/news/"+t.Format("1504"), "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36"))
	}
}

// burst is 300 requests in 10 s from ip at start.
func burst(b *strings.Builder, ip string, start time.Time) {
	for i := range 300 {
		b.WriteString(overlapLine(ip, start.Add(time.Duration(i)*time.Second/30), fmt.Sprintf("/item/%d", i), "python-requests/2.31.0"))
	}
}

type overlapReport struct {
	Summary struct {
		Records   int `json:"records"`
		Incidents int `json:"incidents"`
		Late      int `json:"late_records"`
	} `json:"summary"`
	Incidents []struct {
		IP       string `json:"ip"`
		Requests int    `json:"requests"`
	} `json:"incidents"`
}

// runOverlap runs robowatch -o json on the files, with args before them.
func runOverlap(t *testing.T, args []string, files ...string) (overlapReport, string) {
	t.Helper()
	var rep overlapReport
	_, errOut := runJSON(t, nil, &rep, append(append([]string{"-o", "json"}, args...), files...)...)
	return rep, errOut
}

// writeLog writes text to dir/name and returns its path.
func writeLog(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTwoServersSameHoursBurstInSecond: web1.log and web2.log, two servers
// behind one balancer, both cover 10:00-12:00; a scraper fires 300
// requests in 10 s at web2 at 11:00. Read one after the other, web2's
// records all came before the clock web1 left (12:00): they were late,
// and the burst was never an incident. Each file is judged on its own
// clock now, with one worker or several, and stderr says the files overlap.
func TestTwoServersSameHoursBurstInSecond(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2024, 6, 3, 10, 0, 0, 0, time.UTC)
	var web1, web2 strings.Builder
	quietTraffic(&web1, "198.51.100.10", t0, t0.Add(2*time.Hour))
	quietTraffic(&web2, "198.51.100.20", t0, t0.Add(time.Hour))
	burst(&web2, "203.0.113.66", t0.Add(time.Hour))
	quietTraffic(&web2, "198.51.100.20", t0.Add(time.Hour+time.Minute), t0.Add(2*time.Hour))
	p1 := writeLog(t, dir, "web1.log", web1.String())
	p2 := writeLog(t, dir, "web2.log", web2.String())
	for _, workers := range []string{"1", "4"} {
		for _, files := range [][]string{{p1, p2}, {p2, p1}} {
			rep, errOut := runOverlap(t, []string{"--workers", workers}, files...)
			if rep.Summary.Incidents != 1 || len(rep.Incidents) != 1 || rep.Incidents[0].IP != "203.0.113.66" || rep.Incidents[0].Requests != 300 {
				t.Errorf("--workers %s %s: incidents %+v (%d late records), want the burst of 300 from 203.0.113.66",
					workers, filepath.Base(files[0]), rep.Incidents, rep.Summary.Late)
			}
			if rep.Summary.Late != 0 {
				t.Errorf("--workers %s: %d late records, want 0", workers, rep.Summary.Late)
			}
			if !strings.Contains(errOut, "goes back in time") {
				t.Errorf("--workers %s: stderr %q does not say the files overlap", workers, errOut)
			}
		}
	}
}

// TestClockSteppedBackBurstAfterStep: a server's clock is set back half
// an hour at 11:00 (a wrong NTP source fixed, a VM restored); after the
// step a scraper fires 300 requests in 10 s. Before, every record after
// the step was late and the burst was lost; now the log's clock follows
// the step after a few records and the burst is an incident.
func TestClockSteppedBackBurstAfterStep(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2024, 6, 3, 10, 0, 0, 0, time.UTC)
	var b strings.Builder
	// Before the step: one request a second, several people.
	for s := range 3600 {
		b.WriteString(overlapLine(fmt.Sprintf("198.51.100.%d", s%50+1), t0.Add(time.Duration(s)*time.Second), "/", "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0"))
	}
	// After it: the clock reads 10:30 again, traffic goes on, and the burst
	// comes a minute later.
	step := t0.Add(30 * time.Minute)
	for s := range 60 {
		b.WriteString(overlapLine(fmt.Sprintf("198.51.100.%d", s%50+1), step.Add(time.Duration(s)*time.Second), "/", "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0"))
	}
	burst(&b, "203.0.113.77", step.Add(time.Minute))
	quietTraffic(&b, "198.51.100.99", step.Add(2*time.Minute), step.Add(20*time.Minute))
	p := writeLog(t, dir, "access.log", b.String())
	for _, workers := range []string{"1", "4"} {
		rep, errOut := runOverlap(t, []string{"--workers", workers}, p)
		if len(rep.Incidents) != 1 || rep.Incidents[0].IP != "203.0.113.77" || rep.Incidents[0].Requests != 300 {
			t.Errorf("--workers %s: incidents %+v (%d late records), want the burst of 300 from 203.0.113.77", workers, rep.Incidents, rep.Summary.Late)
		}
		if !strings.Contains(errOut, "goes back in time") {
			t.Errorf("--workers %s: stderr %q does not say the clock went back", workers, errOut)
		}
	}
}
