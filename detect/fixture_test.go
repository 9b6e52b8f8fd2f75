package detect

import (
	"errors"
	"io"
	"os"
	"slices"
	"testing"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

// TestMixedLog reads testdata/detect/mixed.log (a Combined log: two people
// behind one NAT address, Googlebot obeying robots.txt, a scraper ignoring
// it, a burst with a browser User-agent, a curl line written 43 s late)
// through logparse and checks what an admin would read.
func TestMixedLog(t *testing.T) {
	res := readLog(t, "mixed.log", Config{Robots: readRobots(t, "../testdata/detect/robots.txt")})

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
		{"192.0.2.77", true, []string{findings.ReasonRate, findings.ReasonBehaviour}, 12},
		{"198.51.100.20", false, []string{}, 0},
		{"198.51.100.20", false, []string{}, 0},
		{"203.0.113.5", true, []string{findings.ReasonRobotsTxt, findings.ReasonUserAgent}, 3},
		{"66.249.66.1", true, []string{findings.ReasonRobotsTxt, findings.ReasonUserAgent}, 0},
		{"192.0.2.99", true, []string{findings.ReasonUserAgent}, 0},
	}
	if !slices.EqualFunc(got, want, func(a, b verdict) bool {
		return a.ip == b.ip && a.robot == b.robot && slices.Equal(a.reasons, b.reasons) && a.viol == b.viol
	}) {
		t.Errorf("verdicts\n got %v\nwant %v", got, want)
	}
	if res.LateRecords != 0 || res.ViolationCount != 15 || len(res.Incidents) != 1 || res.Incidents[0].Requests != 60 {
		t.Errorf("late %d, violations %d, incidents %+v", res.LateRecords, res.ViolationCount, res.Incidents)
	}
	found := map[string]string{}
	for _, s := range res.Robots {
		found[s.Name] = s.Finding
	}
	if found["python-requests"] != findings.FindingIgnored || found["Googlebot"] != findings.FindingObeyed {
		t.Errorf("findings = %q", found)
	}
}

// readLog runs a Detector with cfg over testdata/detect/name, a log of
// real lines, and returns its result.
func readLog(t *testing.T, name string, cfg Config) *findings.Result {
	t.Helper()
	f, err := os.Open("../testdata/detect/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := New(cfg)
	rd := logparse.NewReader(f, name, nil)
	for {
		var rec logparse.Record
		err := rd.Read(&rec)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("reading %s: %v", name, err)
		}
		d.Add(&rec)
	}
	return d.Result()
}

// byIP indexes the clients of res by address; the last of an address's
// User-agents wins, so use it for logs with one client per address.
func byIP(res *findings.Result) map[string]findings.Verdict {
	m := map[string]findings.Verdict{}
	for v := range res.Clients.All() {
		m[v.IP] = v
	}
	return m
}

// eachListed calls check with every client of res whose address is a key
// of want, and fails unless there are len(want) of them; with strict, a
// client at an address want does not name fails too.
func eachListed[W any](t *testing.T, res *findings.Result, want map[string]W, strict bool, check func(v findings.Verdict, w W)) {
	t.Helper()
	seen := 0
	for v := range res.Clients.All() {
		w, ok := want[v.IP]
		if !ok {
			if strict {
				t.Errorf("%s: a client not in the test", v.IP)
			}
			continue
		}
		seen++
		check(v, w)
	}
	if seen != len(want) {
		t.Errorf("%d of %d clients in the log", seen, len(want))
	}
}
