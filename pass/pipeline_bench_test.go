package pass

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/robowatch/robowatch/detect"
	"github.com/robowatch/robowatch/input"
	"github.com/robowatch/robowatch/robots"
)

// pipelineLines is the size of the benchmark log: large enough that both
// cores are busy, small enough that one iteration (CI runs -benchtime 1x)
// takes well under a second.
const pipelineLines = 200_000

// pipelineLog returns n Combined lines of a small site in time order, the
// same for every run: people reading pages with their assets, crawlers that
// fetch robots.txt and obey it, scrapers that fetch it and go where it
// forbids, and a client in a burst. The site is the one of
// testdata/sample.robots.txt.
func pipelineLog(n int) []byte {
	rng := rand.New(rand.NewPCG(6, 6))
	type client struct {
		ip, ua string
		kind   int // 0 person, 1 crawler, 2 scraper, 3 burst
		page   string
		left   int // assets still to fetch for page
		seen   bool
	}
	browsers := []string{
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Safari/537.36",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.3 Safari/605.1.15",
		"Mozilla/5.0 (X11; Linux x86_64; rv:123.0) Gecko/20100101 Firefox/123.0",
		"Mozilla/5.0 (iPhone; CPU iPhone OS 17_3_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.3 Mobile/15E148 Safari/604.1",
	}
	crawlers := []string{
		"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
		"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
		"Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
	}
	tools := []string{"python-requests/2.31.0", "curl/8.5.0", "Scrapy/2.11.0 (+https://scrapy.org)", "Go-http-client/1.1", ""}
	pages := []string{"/", "/blog/2024/03/parsing-logs", "/blog/2023/11/robots", "/products/widget-42", "/about", "/search?q=widgets", "/cart", "/private/report.pdf", "/admin/login", "/api/v1/items?page=3"}
	assets := []string{"/static/css/site.min.css", "/static/js/app.4f3a9c.js", "/images/logo.png", "/favicon.ico"}

	clients := make([]*client, 3000)
	for i := range clients {
		c := &client{ip: fmt.Sprintf("%d.%d.%d.%d", 11+rng.IntN(200), rng.IntN(256), rng.IntN(256), 1+rng.IntN(254))}
		switch {
		case i < 2800:
			c.ua = browsers[rng.IntN(len(browsers))]
		case i < 2900:
			c.kind, c.ua = 1, crawlers[rng.IntN(len(crawlers))]
		case i < 2995:
			c.kind, c.ua = 2, tools[rng.IntN(len(tools))]
		default:
			c.kind, c.ua = 3, browsers[0]
		}
		if i%97 == 0 {
			c.ip = fmt.Sprintf("2001:db8:%x::%x", rng.IntN(65536), rng.IntN(65536))
		}
		clients[i] = c
	}

	var b bytes.Buffer
	t := time.Date(2024, 3, 10, 0, 0, 0, 0, time.FixedZone("", 3600))
	for i := 0; i < n; i++ {
		t = t.Add(time.Duration(rng.IntN(40)) * time.Millisecond)
		var c *client
		if i%10000 < 800 { // a burst: one client, hundreds of requests a second
			c = clients[len(clients)-1-(i/10000)%5]
		} else {
			c = clients[rng.IntN(len(clients)-5)]
		}
		target, referer, status, size := "", "-", 200, fmt.Sprint(2000+rng.IntN(60000))
		switch {
		case c.kind != 0 && !c.seen:
			target = "/robots.txt"
		case c.kind == 0 && c.left > 0:
			target, referer = assets[c.left%len(assets)], "https://www.example.com"+c.page
			c.left--
			if rng.IntN(3) == 0 {
				status, size = 304, "-"
			}
		case c.kind == 1:
			target = pages[rng.IntN(5)] // obeys: only what every group allows
		default:
			target = pages[rng.IntN(len(pages))]
			if c.kind == 0 {
				c.page, c.left = target, rng.IntN(5)
				if rng.IntN(2) == 0 {
					referer = "https://www.google.com/"
				}
			}
		}
		c.seen = true
		if rng.IntN(50) == 0 {
			status, size = 404, "153"
		}
		ua := c.ua
		if ua == "" {
			ua = "-"
		}
		fmt.Fprintf(&b, "%s - - [%s] \"GET %s HTTP/1.1\" %d %s \"%s\" \"%s\"\n",
			c.ip, t.Format("02/Jan/2006:15:04:05 -0700"), target, status, size, referer, ua)
	}
	return b.Bytes()
}

// BenchmarkPipeline is robowatch's whole path for one input, as main runs
// it: bytes -> logparse -> detect with the robots.txt cross-check -> Result.
// MB/s is of log text.
func BenchmarkPipeline(b *testing.B) {
	benchmarkPipeline(b, pipelineLog(pipelineLines))
}

// BenchmarkPipelineWorkers is BenchmarkPipeline with the clients judged by
// 1 and by 2 (or GOMAXPROCS) detectors: run it with -cpu 1,2 to see what a
// second core gives the whole run.
func BenchmarkPipelineWorkers(b *testing.B) {
	data := pipelineLog(pipelineLines)
	for _, w := range []int{1, max(2, runtime.GOMAXPROCS(0))} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			benchmarkPipelineWorkers(b, data, w)
		})
	}
}

// BenchmarkPipelineGzip is BenchmarkPipeline on the same log gzipped (as
// logrotate leaves it); MB/s is of the uncompressed text.
func BenchmarkPipelineGzip(b *testing.B) {
	data := pipelineLog(pipelineLines)
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(data)
	zw.Close()
	b.SetBytes(int64(len(data)))
	benchmarkPipelineInput(b, z.Bytes())
}

func benchmarkPipeline(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	benchmarkPipelineInput(b, data)
}

// benchmarkPipelineInput runs the pipeline on log, plain or gzipped, of
// pipelineLines lines; the caller sets the bytes per iteration.
func benchmarkPipelineInput(b *testing.B, log []byte) {
	benchmarkPipelineWorkers(b, log, 1)
}

func benchmarkPipelineWorkers(b *testing.B, log []byte, workers int) {
	text, err := os.ReadFile("../testdata/sample.robots.txt")
	if err != nil {
		b.Fatal(err)
	}
	rob := robots.ParseBytes(text)
	const lines = pipelineLines
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		files := &input.Files{Names: []string{"-"}, Stdin: bytes.NewReader(log)}
		p := newReadyPass(Options{Detect: detect.Config{Robots: rob}, Workers: workers})
		stats, err := p.read(context.Background(), files, "-")
		if err != nil {
			b.Fatal(err)
		}
		res := p.det.Result()
		p.det.Close()
		if stats.Records != lines || stats.Malformed != 0 {
			b.Fatalf("read %d records, %d malformed; want %d records", stats.Records, stats.Malformed, lines)
		}
		if res.RobotCount == 0 || res.ViolationCount == 0 || res.IncidentCount == 0 {
			b.Fatalf("robots %d, violations %d, incidents %d: the log should have all three", res.RobotCount, res.ViolationCount, res.IncidentCount)
		}
	}
	b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}
