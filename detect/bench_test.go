package detect

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/robots"
)

// benchUAs are the User-agents the benchmark clients take turns with.
var benchUAs = []string{chromeUA, firefoxUA, curlUA, googleUA,
	"Mozilla/5.0 (iPhone; CPU iPhone OS 17_3_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.3 Mobile/15E148 Safari/604.1"}

// BenchmarkAddSteadyState feeds a Detector records of 1000 known clients,
// 100 a second, pages and assets: the per-line path, which must not
// allocate once the clients are known.
func BenchmarkAddSteadyState(b *testing.B) { benchmarkAdd(b, Config{}) }

// BenchmarkAddSteadyStateRobots is BenchmarkAddSteadyState with the
// robots.txt cross-check of every request.
func BenchmarkAddSteadyStateRobots(b *testing.B) {
	benchmarkAdd(b, Config{Robots: robots.ParseBytes([]byte(siteRobots))})
}

func benchmarkAdd(b *testing.B, cfg Config) {
	const clients = 1000
	recs := make([]logparse.Record, clients)
	paths := []string{"/", "/blog/post-1", "/static/app.js", "/images/a.jpg", "/search?q=x", "/robots.txt", "/admin/users"}
	for i := range recs {
		recs[i] = logparse.Record{
			Client: fmt.Sprintf("10.%d.%d.%d", i>>16, (i>>8)&255, i&255), UserAgent: benchUAs[i%len(benchUAs)],
			Method: "GET", Target: paths[i%len(paths)], Status: 200, Bytes: 5120, Referer: "https://www.example.com/",
		}
	}
	d := New(cfg)
	add := func(i int) {
		r := &recs[i%clients]
		r.Time = t0.Add(time.Duration(i) * 10 * time.Millisecond)
		d.Add(r)
	}
	// Warm up past several sweeps so every buffer reached its size.
	const warm = 300000
	for i := 0; i < warm; i++ {
		add(i)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		add(warm + i)
	}
}

// BenchmarkMillionClients replays a log in which each of 1,000,000 distinct
// clients makes two requests, and reports the heap the Detector holds per
// client.
func BenchmarkMillionClients(b *testing.B) {
	const clients = 1000000
	ips := benchAddresses(clients)
	rec := logparse.Record{Method: "GET", Target: "/", Status: 200, Bytes: 5120}
	b.ReportAllocs()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		before := heapInUse()
		d := New(Config{})
		for i, ip := range ips {
			rec.Client, rec.UserAgent = ip, benchUAs[i%len(benchUAs)]
			rec.Time = t0.Add(time.Duration(i) * time.Millisecond)
			d.Add(&rec)
			rec.Time = rec.Time.Add(30 * time.Second)
			d.Add(&rec)
		}
		after := heapInUse()
		b.ReportMetric(float64(after-before)/clients, "bytes/client")
		runtime.KeepAlive(d)
	}
}

func heapInUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// BenchmarkChurn replays a high-churn log, as a botnet or a rotating
// scraper writes: 200,000 requests a quarter second apart, each from its
// own address with its own browser release. It reports the allocations and
// the heap per client: a client's rate window is lent from the pool and
// given back after it falls idle, so windows are not allocated per client.
func BenchmarkChurn(b *testing.B) {
	const clients = 200000
	ips := benchAddresses(clients)
	uas := make([]string, clients)
	for i := range uas {
		uas[i] = fmt.Sprintf("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%d.0.%d.%d Safari/537.36", 100+i%30, i%7919, i%211)
	}
	rec := logparse.Record{Method: "GET", Target: "/", Status: 200, Bytes: 5120}
	b.ReportAllocs()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		before := heapInUse()
		d := New(Config{})
		for i, ip := range ips {
			rec.Client, rec.UserAgent = ip, uas[i]
			rec.Time = t0.Add(time.Duration(i) * 250 * time.Millisecond)
			d.Add(&rec)
		}
		after := heapInUse()
		b.ReportMetric(float64(after-before)/clients, "bytes/client")
		runtime.KeepAlive(d)
	}
}

// benchAddresses returns n distinct IPv4 addresses.
func benchAddresses(n int) []string {
	ips := make([]string, n)
	for i := range ips {
		ips[i] = fmt.Sprintf("%d.%d.%d.%d", 1+i>>24, (i>>16)&255, (i>>8)&255, i&255)
	}
	return ips
}

// BenchmarkManyRobotNames judges a flood of made-up robot names, as a
// scraper that names itself anew on every request writes: 50,000 clients
// on two workers, each its own robots row. It reports the heap per name
// once the result is made (the clients, their rows and the timeline's state
// for a merge), where the workers' rows, a prefix count per name and a
// dense timeline per name once tripled it.
func BenchmarkManyRobotNames(b *testing.B) {
	const clients = 50000
	ips := benchAddresses(clients)
	recs := make([]logparse.Record, clients)
	for i := range recs {
		recs[i] = logparse.Record{Client: ips[i], Method: "GET", Target: fmt.Sprintf("/p/%d", i), Status: 200, Bytes: 512,
			UserAgent: fmt.Sprintf("Mozilla/5.0 (compatible; Crawl%xbot/1.0; +http://crawler.example/%d)", i*7919, i),
			Time:      t0.Add(time.Duration(i) * 100 * time.Millisecond)}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		before := heapInUse()
		p := NewPool(Config{}, 2)
		p.Add(recs, nil, nil, nil)
		res := p.Result()
		after := heapInUse()
		if len(res.Robots) != clients {
			b.Fatalf("%d robots rows, want %d", len(res.Robots), clients)
		}
		b.ReportMetric(float64(after-before)/clients, "bytes/name")
		runtime.KeepAlive(res)
	}
}

// BenchmarkPoolChurn is BenchmarkChurn through a Pool of workers under the
// default cap: 300,000 clients of one request, as the churn log's pass, so
// that every record is a new client and the last 50,000 evict one.
func BenchmarkPoolChurn(b *testing.B) {
	const clients, batch = 300000, 4096
	ips := benchAddresses(clients)
	recs := make([]logparse.Record, clients)
	for i := range recs {
		recs[i] = logparse.Record{Client: ips[(i*7919)%clients], Method: "GET", Target: "/", Status: 200, Bytes: 5120,
			UserAgent: fmt.Sprintf("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%d.0.%d.%d Safari/537.36", 100+i%30, i%7919, i%211),
			Time:      t0.Add(time.Duration(i) * 10 * time.Millisecond)}
	}
	b.ResetTimer()
	cpu := processCPU()
	for n := 0; n < b.N; n++ {
		p := NewPool(Config{MaxClients: DefaultMaxClients}, 2)
		for lo := 0; lo < clients; lo += batch {
			p.Add(recs[lo:min(lo+batch, clients)], nil, nil, nil)
		}
		p.Close()
	}
	b.ReportMetric(float64(processCPU()-cpu)/float64(b.N)/1e6, "cpu-ms/op")
}
