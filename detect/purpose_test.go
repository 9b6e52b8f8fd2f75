package detect

import (
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

// TestVerdictPurposeAsCatalogue: a verdict's purpose, read by its
// User-agent's place in fixedPurposes, is the catalogue's for its name,
// whether one Detector or a Pool's workers (merged) judged it, and under
// a name that is not its User-agent's (unnamed, this server). The first
// purposes met are not in agents.Purposes's order.
func TestVerdictPurposeAsCatalogue(t *testing.T) {
	uas := []string{
		"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)",
		"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
		"CCBot/2.0 (https://commoncrawl.org/faq/)",
		"Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
		"Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)",
		"facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
		"Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
		"curl/8.4.0", "python-requests/2.31.0", "", "zzz junk agent",
		"Apache/2.4.62 (Debian) OpenSSL/3.0.15 (internal dummy connection)",
	}
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	var recs []logparse.Record
	for i, ua := range uas {
		for k, target := range []string{"/robots.txt", "/", "/a", "/b"} {
			recs = append(recs, logparse.Record{Client: fmt.Sprintf("198.51.%d.%d", i, k%2), UserAgent: ua, Method: "GET",
				Target: target, Status: 200, Bytes: 100, Time: t0.Add(time.Duration(i*10+k) * time.Second)})
		}
	}
	for _, workers := range []int{1, 3} {
		p := NewPool(Config{}, workers)
		p.Add(recs, nil, nil, nil)
		named := 0
		for v := range p.Result().Clients.All() {
			if want := agents.Purpose(v.Name); v.Purpose != want {
				t.Errorf("%d workers: %s %q named %q: purpose %q, want %q", workers, v.IP, v.UserAgent, v.Name, v.Purpose, want)
			}
			if v.Purpose != "" {
				named++
			}
		}
		if named < 5 {
			t.Errorf("%d workers: %d clients with a purpose, want 5 or more", workers, named)
		}
	}
}

// TestVerdictIntoAsAt: judging a client into a verdict that held another
// client's gives every field At gives, on every fixture log (robots,
// scanners, rotations, fleets, people).
func TestVerdictIntoAsAt(t *testing.T) {
	logs, err := filepath.Glob("../testdata/detect/*.log")
	if err != nil || len(logs) == 0 {
		t.Fatalf("fixture logs: %v, %v", logs, err)
	}
	robots := 0
	for _, name := range logs {
		res := readLog(t, filepath.Base(name), Config{Robots: readRobots(t, "../testdata/detect/robots.txt")})
		pc := clientsOf(res.Clients)
		dirty := findings.Verdict{IP: "x", Name: "y", Reasons: []string{"z"}, Operator: "o", Network: "n", Purpose: "p",
			Violations: 9, Cached: 9, PreferenceRule: "r", Discovery: &findings.Discovery{}, CrawlDelay: 9, CrawlDelayFast: true}
		for i := range pc.Len() {
			v := dirty
			pc.VerdictInto(i, &v)
			if want := pc.At(i); !reflect.DeepEqual(v, want) {
				t.Errorf("%s: client %d: VerdictInto\n %+v\nAt\n %+v", name, i, v, want)
			}
			if v.Robot {
				robots++
			}
			dirty = v
		}
	}
	if robots == 0 {
		t.Error("no robot among the fixtures' clients")
	}
}
