package detect

import (
	"errors"
	"io"
	"os"
	"slices"
	"testing"

	"github.com/robowatch/robowatch/logparse"
)

// TestMixedLog reads testdata/detect/mixed.log (a Combined log: two people
// behind one NAT address, Googlebot obeying robots.txt, a scraper ignoring
// it, a burst with a browser User-agent, a curl line written 43 s late)
// through logparse and checks what an admin would read.
func TestMixedLog(t *testing.T) {
	f, err := os.Open("../testdata/detect/mixed.log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := New(Config{Robots: readRobots(t, "../testdata/detect/robots.txt")})
	rd := logparse.NewReader(f, "mixed.log", nil)
	for {
		var rec logparse.Record
		err := rd.Read(&rec)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("reading: %v", err)
		}
		d.Add(&rec)
	}
	res := d.Result()

	type verdict struct {
		ip      string
		robot   bool
		reasons []string
		viol    int64
	}
	var got []verdict
	for v := range res.Clients.All() {
		got = append(got, verdict{v.IP, v.Robot, v.Reasons, v.Violations})
	}
	want := []verdict{
		{"192.0.2.77", true, []string{ReasonRate, ReasonBehaviour}, 12},
		{"198.51.100.20", false, []string{}, 0},
		{"198.51.100.20", false, []string{}, 0},
		{"203.0.113.5", true, []string{ReasonRobotsTxt, ReasonUserAgent}, 3},
		{"66.249.66.1", true, []string{ReasonRobotsTxt, ReasonUserAgent}, 0},
		{"192.0.2.99", true, []string{ReasonUserAgent}, 0},
	}
	if !slices.EqualFunc(got, want, func(a, b verdict) bool {
		return a.ip == b.ip && a.robot == b.robot && slices.Equal(a.reasons, b.reasons) && a.viol == b.viol
	}) {
		t.Errorf("verdicts\n got %v\nwant %v", got, want)
	}
	if res.LateRecords != 0 || res.ViolationCount != 15 || len(res.Incidents) != 1 || res.Incidents[0].Requests != 60 {
		t.Errorf("late %d, violations %d, incidents %+v", res.LateRecords, res.ViolationCount, res.Incidents)
	}
	findings := map[string]string{}
	for _, s := range res.Robots {
		findings[s.Name] = s.Finding
	}
	if findings["python-requests"] != FindingIgnored || findings["Googlebot"] != FindingObeyed {
		t.Errorf("findings = %q", findings)
	}
}
