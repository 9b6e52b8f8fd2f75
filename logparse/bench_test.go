package logparse

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
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

// benchAs writes the records of benchLines as another format's lines.
func benchAs(b *testing.B, n int, write func(*Record) []byte) [][]byte {
	src := benchLines(n)
	out := make([][]byte, len(src))
	var rec Record
	for i, l := range src {
		if err := Combined.Parse(l, &rec); err != nil {
			b.Fatal(err)
		}
		out[i] = write(&rec)
	}
	return out
}

// benchmarkParse measures f.Parse on lines, one core: lines per second is
// 1e9 / ns/line, to compare with BenchmarkParseCombined on the same records.
func benchmarkParse(b *testing.B, f *Format, lines [][]byte) {
	total := 0
	for _, l := range lines {
		total += len(l)
	}
	b.SetBytes(int64(total) / int64(len(lines)))
	b.ReportAllocs()
	var rec Record
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if err := f.parse(lines[i%len(lines)], &rec, true); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/line")
}

// BenchmarkParseJSON: the records of BenchmarkParseCombined as nginx writes
// them with log_format escape=json (ReuseRecord, as the CLI reads).
func BenchmarkParseJSON(b *testing.B) {
	lines := benchAs(b, 4096, func(r *Record) []byte {
		return fmt.Appendf(nil, `{"time_iso8601":%q,"remote_addr":%q,"request":%q,"status":%d,"body_bytes_sent":%d,"http_referer":%q,"http_user_agent":%q,"request_time":0.004}`+"\n",
			r.Time.Format("2006-01-02T15:04:05-07:00"), r.Client, r.Request, r.Status, max(r.Bytes, 0), r.Referer, r.UserAgent)
	})
	benchmarkParse(b, JSONFormat, lines)
}

// BenchmarkJSONEscapes: a User-agent of escapes (\u00e9 a character) of
// 96 and 960 KiB, the quote only at its end. Linear scanning shows as time
// growing 10x from the one to the other (it was 100x: each backslash
// searched the rest of the line for the quote; a 900 KB line took 0.8 s).
func BenchmarkJSONEscapes(b *testing.B) {
	for _, n := range []int{16 << 10, 160 << 10} {
		line := []byte(`{"remote_addr":"192.0.2.1","request":"GET / HTTP/1.1","http_user_agent":"` + strings.Repeat(`\u00e9`, n) + `"}`)
		b.Run(fmt.Sprintf("%dKiB", len(line)>>10), func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			var rec Record
			for b.Loop() {
				if err := JSONFormat.Parse(line, &rec); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseW3C: the same records as IIS writes them.
func BenchmarkParseW3C(b *testing.B) {
	lines := benchAs(b, 4096, func(r *Record) []byte {
		dash := func(s string) string {
			if s == "" {
				return "-"
			}
			return strings.ReplaceAll(s, " ", "+")
		}
		stem, query, _ := strings.Cut(r.Target, "?")
		return fmt.Appendf(nil, "%s 10.0.0.2 %s %s %s 443 - %s %s %s %d 0 0 15\n",
			r.Time.UTC().Format("2006-01-02 15:04:05"), r.Method, stem, dash(query), r.Client, dash(r.UserAgent), dash(r.Referer), r.Status)
	})
	benchmarkParse(b, W3CFormat, lines)
}

// BenchmarkParseCombinedReuse is BenchmarkParseCombined with ReuseRecord's
// views instead of a copy: the baseline for BenchmarkParseJSON and
// BenchmarkParseW3C, which read that way.
func BenchmarkParseCombinedReuse(b *testing.B) {
	benchmarkParse(b, Combined, benchLines(4096))
}

// BenchmarkParseStrftime: the same records with %{format}t times, the
// path strftimeFormat.scan takes: Envoy's default log (ISO date, a
// %{msec_frac}t) and an Apache layout with month and day names, a 12-hour
// clock and a numeric zone.
func BenchmarkParseStrftime(b *testing.B) {
	envoy := benchAs(b, 4096, func(r *Record) []byte {
		return fmt.Appendf(nil, "[%s] %q %d - 0 %d 3 2 %q %q \"req-1\" \"example.org\" \"10.0.0.5:80\"\n",
			r.Time.UTC().Format("2006-01-02T15:04:05.000Z"), r.Request, r.Status, max(r.Bytes, 0), r.Client, r.UserAgent)
	})
	names, err := ParseApacheFormat(`%h [%{%a, %d %b %Y %I:%M:%S %p %z}t] "%r" %>s %b "%{User-Agent}i"`)
	if err != nil {
		b.Fatal(err)
	}
	named := benchAs(b, 4096, func(r *Record) []byte {
		return fmt.Appendf(nil, "%s [%s] %q %d %d %q\n",
			r.Client, r.Time.Format("Mon, 02 Jan 2006 03:04:05 PM -0700"), r.Request, r.Status, max(r.Bytes, 0), r.UserAgent)
	})
	b.Run("envoy", func(b *testing.B) { benchmarkParse(b, EnvoyFormat, envoy) })
	b.Run("names", func(b *testing.B) { benchmarkParse(b, names, named) })
}

// BenchmarkParseCombinedXFF: the records of BenchmarkParseCombined with
// nginx's "main" X-Forwarded-For after them, a layout parseFields reads
// field by field (Common and Combined have a path of their own).
func BenchmarkParseCombinedXFF(b *testing.B) {
	lines := benchAs(b, 4096, func(r *Record) []byte {
		return fmt.Appendf(nil, "%s - - [%s] %q %d %d %q %q \"203.0.113.9, 10.0.0.1\"\n",
			r.Client, r.Time.Format("02/Jan/2006:15:04:05 -0700"), r.Request, r.Status, max(r.Bytes, 0), r.Referer, r.UserAgent)
	})
	benchmarkParse(b, CombinedXFF, lines)
}
