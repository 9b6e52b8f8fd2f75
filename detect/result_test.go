package detect

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/robots"
)

// TestPlainAsJudged: the clients list makes the verdict on a client that
// summarize judged plain without judging it again; it must be the verdict
// a judgement made when the list is read gives, for a Detector and a
// Pool's merged list, on the sample log, the real logs of testdata and a
// high-churn log with robots by behaviour, rotating User-agents and junk.
func TestPlainAsJudged(t *testing.T) {
	logs := map[string][]logparse.Record{"sample": readSample(t), "churn": churnRecords(3000)}
	names, _ := filepath.Glob("../testdata/logs/*.log")
	for _, name := range names {
		logs[filepath.Base(name)] = readRecords(t, name)
	}
	for name, recs := range logs {
		for _, workers := range []int{1, 2} {
			cfg := Config{Robots: robots.ParseBytes([]byte(siteRobots))}
			p := NewPool(cfg, workers)
			p.Add(recs, nil, nil, nil)
			pc := clientsOf(p.Result().Clients)
			plain := 0
			for i, r := range pc.clients {
				if pc.plain.has(i) {
					plain++
				}
				var tmp client
				c := r.load(&tmp)
				if got, want := pc.At(i), pc.env.verdict(c); !reflect.DeepEqual(got, want) {
					t.Fatalf("%s, %d workers, client %d (%s): plain %v\n got %+v\nwant %+v", name, workers, i, c.ip, pc.plain.has(i), got, want)
				}
			}
			if (name == "sample" || name == "churn") && (plain == 0 || plain == len(pc.clients)) {
				t.Errorf("%s, %d workers: %d of %d clients plain: the test tries one way only", name, workers, plain, len(pc.clients))
			}
		}
	}
}

// churnRecords is a log of n clients of a request or two each, most
// people; every twelfth sends HEAD requests under a browser's name (a
// robot by behaviour), every thirtieth address takes turns with many
// User-agents (rotation), and every fiftieth line is junk.
func churnRecords(n int) []logparse.Record {
	var recs []logparse.Record
	for i := range n {
		ip := fmt.Sprintf("%d.%d.%d.%d", 11+i%97, (i/97)%256, i/(97*256), (i*37)%256)
		method, target := "GET", []string{"/", "/products/1", "/img/1.jpg", "/about"}[i%4]
		switch {
		case i%12 == 0:
			method, target = "HEAD", "/products/1"
		case i%30 == 1:
			ip = fmt.Sprintf("198.51.100.%d", i%3)
		case i%50 == 7:
			method, target = "", ""
		}
		ua := fmt.Sprintf("Mozilla/5.0 (X11; Linux x86_64; rv:%d.0) Gecko/20100101 Firefox/%d.%d", 100+i%40, 100+i%40, i%125)
		at := t0.Add(time.Duration(i) * 100 * time.Millisecond)
		recs = append(recs, logparse.Record{Client: ip, UserAgent: ua, Method: method, Target: target, Status: 200, Bytes: 512, Time: at})
		if i%4 == 0 {
			recs = append(recs, logparse.Record{Client: ip, UserAgent: ua, Method: method, Target: target, Status: 404, Bytes: 512, Time: at.Add(time.Second)})
		}
	}
	return recs
}

// readRecords reads the records of a log file of testdata.
func readRecords(t *testing.T, name string) []logparse.Record {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := logparse.NewReader(f, name, nil)
	var recs []logparse.Record
	for {
		var rec logparse.Record
		err := rd.Read(&rec)
		if errors.Is(err, io.EOF) {
			return recs
		}
		var pe *logparse.ParseError
		if err != nil && !errors.As(err, &pe) {
			t.Fatal(err)
		}
		if err == nil {
			recs = append(recs, rec)
		}
	}
}

// TestPoolNetworksAsOneDetector: a Pool's workers leave their networks
// to the merge, which lists them together; the list must be one
// Detector's, row for row, on the sample log and on many small networks
// (IPv4, IPv6 and mapped IPv4, several clients and User-agents to some).
func TestPoolNetworksAsOneDetector(t *testing.T) {
	recs := readSample(t)
	for i := range 3000 {
		ip := fmt.Sprintf("10.%d.%d.%d", i%7, i%251, i%13)
		switch i % 5 {
		case 3:
			ip = fmt.Sprintf("2001:db8:%x:%x::%x", i%9, i%17, i)
		case 4:
			ip = fmt.Sprintf("::ffff:172.16.%d.%d", i%11, i%200)
		}
		recs = append(recs, logparse.Record{Client: ip, UserAgent: benchUAs[i%len(benchUAs)], Method: "GET", Target: "/",
			Status: 200, Bytes: int64(i), Time: t0.Add(time.Duration(i) * time.Second)})
	}
	one := New(Config{})
	for i := range recs {
		one.Add(&recs[i])
	}
	want := one.Result().Networks.Summaries()
	for _, workers := range []int{2, 3} {
		p := NewPool(Config{}, workers)
		p.Add(recs, nil, nil, nil)
		got := p.Result().Networks.Summaries()
		if len(want) < 100 || !reflect.DeepEqual(got, want) {
			t.Errorf("%d workers: %d networks, want the %d of one Detector", workers, len(got), len(want))
		}
	}
}
