package logparse

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"
)

// benchLines returns n realistic Combined lines (IPv4 and a few IPv6
// clients, browser and crawler UAs, referers, query strings, "-" sizes),
// the same for every run.
func benchLines(n int) [][]byte {
	rng := rand.New(rand.NewPCG(1, 2))
	uas := []string{
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15",
		"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
		"Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1",
		"python-requests/2.31.0",
		"-",
	}
	paths := []string{"/", "/index.html", "/blog/2024/03/some-article-title", "/static/css/site.min.css",
		"/static/js/app.4f3a9c.js", "/images/logo.png", "/search?q=go+parser&page=2", "/robots.txt", "/api/v1/items/12345"}
	refs := []string{"-", "https://www.example.com/", "https://www.google.com/", "https://www.example.com/blog/2024/03/some-article-title"}
	methods := []string{"GET", "GET", "GET", "POST", "HEAD"}
	statuses := []int{200, 200, 200, 304, 404, 301}
	lines := make([][]byte, n)
	for i := range lines {
		var client string
		if i%50 == 0 {
			client = fmt.Sprintf("2001:db8::%x", rng.IntN(65536))
		} else {
			client = fmt.Sprintf("%d.%d.%d.%d", 1+rng.IntN(223), rng.IntN(256), rng.IntN(256), 1+rng.IntN(254))
		}
		size := fmt.Sprint(rng.IntN(200000))
		st := statuses[rng.IntN(len(statuses))]
		if st == 304 {
			size = "-"
		}
		lines[i] = fmt.Appendf(nil, "%s - - [%02d/Mar/2024:%02d:%02d:%02d +0100] \"%s %s HTTP/1.1\" %d %s \"%s\" \"%s\"\n",
			client, 1+rng.IntN(28), rng.IntN(24), rng.IntN(60), rng.IntN(60),
			methods[rng.IntN(len(methods))], paths[rng.IntN(len(paths))], st, size,
			refs[rng.IntN(len(refs))], uas[rng.IntN(len(uas))])
	}
	return lines
}

// BenchmarkParseCombined measures Format.Parse alone on one core: MB/s of
// log text, and allocations per line (the one string a record keeps).
func BenchmarkParseCombined(b *testing.B) {
	lines := benchLines(4096)
	total := 0
	for _, l := range lines {
		total += len(l)
	}
	b.SetBytes(int64(total) / int64(len(lines)))
	b.ReportAllocs()
	var rec Record
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if err := Combined.Parse(lines[i%len(lines)], &rec); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/line")
}

// BenchmarkReaderCombined measures the Reader end to end (line splitting,
// parse, stats) on an in-memory Combined log, with format auto-detection.
func BenchmarkReaderCombined(b *testing.B) {
	benchmarkReader(b, func(r io.Reader) interface{ Read(*Record) error } { return NewReader(r, "bench", nil) })
}

// benchmarkReader reads a 20,000-line Combined log with the reader that
// open returns, once per iteration.
func benchmarkReader(b *testing.B, open func(io.Reader) interface{ Read(*Record) error }) {
	data := bytes.Join(benchLines(20000), nil)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var rec Record
	for b.Loop() {
		r := open(bytes.NewReader(data))
		n := 0
		for {
			err := r.Read(&rec)
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if c, ok := r.(io.Closer); ok {
			c.Close()
		}
		if n != 20000 {
			b.Fatalf("read %d records, want 20000", n)
		}
	}
}
