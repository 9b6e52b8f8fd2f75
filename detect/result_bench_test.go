package detect

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/robowatch/robowatch/logparse"
)

// BenchmarkResultChurn times the end of a two-worker pass over a
// high-churn log (Pool.Result and reading every verdict, as the JSON
// report does): 100,000 clients of a request or two, a page or an asset,
// under 5,000 User-agents, some of them robots by what they did. The pass
// itself is not timed.
func BenchmarkResultChurn(b *testing.B) {
	const clients = 100000
	paths := []string{"/", "/products/9847", "/img/729.jpg", "/search?q=4131", "/index.html", "/static/app.css", "/wp-login.php"}
	recs := make([]logparse.Record, 0, clients+clients/4)
	for i := range clients {
		// Nearly a network a client, as on the churn log; every twelfth
		// client, two to a network, sends HEAD requests under its
		// browser's name and never an asset: a robot named by network.
		ip := fmt.Sprintf("%d.%d.%d.%d", 11+i%97, (i/97)%256, i/(97*256), (i*37)%256)
		method, target := "GET", paths[i%len(paths)]
		if k := i / 12; i%12 == 0 {
			ip, method, target = fmt.Sprintf("203.%d.%d.%d", k/512, (k/2)%256, k%2+1), "HEAD", "/products/1"
		}
		ua := fmt.Sprintf("Mozilla/5.0 (X11; Linux x86_64; rv:%d.0) Gecko/20100101 Firefox/%d.%d", 100+i%40, 100+i%40, i%125)
		at := t0.Add(time.Duration(i) * 100 * time.Millisecond)
		recs = append(recs, logparse.Record{Client: ip, UserAgent: ua, Method: method, Target: target, Status: 200, Bytes: 5120, Time: at})
		if i%4 == 0 {
			recs = append(recs, logparse.Record{Client: ip, UserAgent: ua, Method: method, Target: "/about", Status: 404, Bytes: 512, Time: at.Add(time.Second)})
		}
	}
	b.ReportAllocs()
	var cpu time.Duration // of the process, collector included: the machine may be shared
	for b.Loop() {
		b.StopTimer()
		p := NewPool(Config{}, 2)
		for lo := 0; lo < len(recs); lo += 4096 {
			p.Add(recs[lo:min(lo+4096, len(recs))], nil, nil, nil)
		}
		p.Close()
		runtime.GC() // the pass's garbage is not the Result's
		b.StartTimer()
		cpu -= processCPU()
		res := p.Result()
		if testing.Verbose() {
			b.Logf("%d robots rows, %d networks, %d robots", len(res.Robots), res.Networks.Len(), res.RobotCount)
		}
		for v := range res.Clients.All() {
			_ = v
		}
		cpu += processCPU()
	}
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
}
