package report

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/robowatch/robowatch/findings"
)

// BenchmarkAppendVerdict writes the clients row of a churn log's client:
// one request, its five times one second.
func BenchmarkAppendVerdict(b *testing.B) {
	at := time.Unix(1710097187, 0).UTC()
	v := findings.Verdict{IP: "203.0.113.9", UserAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Safari/537.36",
		Name: "Chrome", Kind: "browser", Requests: 1, Bytes: 5120, Pages: 1, First: at, Last: at,
		Peak: findings.Peak{Per1s: 1, Per10s: 1, Per60s: 1, At1s: at, At10s: at, At60s: at}, Network: "203.0.113.0/24"}
	var buf []byte
	for b.Loop() {
		buf, _ = appendVerdict(buf[:0], &v, "    ")
	}
}

// churnRobot is a churn log's robots row: one client, one request.
var churnRobot = findings.RobotSummary{Name: "unnamed (2.210.47.0/24)", Clients: 1, Requests: 1, Bytes: 24537,
	Compliance: "unchecked", Reasons: map[string]int{"behaviour": 1},
	Conduct: findings.Conduct{Sessions: 1, ErrorBackoff: "none-seen", Methods: map[string]int64{"HEAD": 1}, Requests: 1},
	Status:  findings.StatusCounts{StatusMix: findings.StatusMix{S2xx: 1}}, TopPaths: []findings.PathCount{{Path: "/search", Requests: 1}}}

// BenchmarkAppendRobot writes churnRobot by hand.
func BenchmarkAppendRobot(b *testing.B) {
	var buf []byte
	for b.Loop() {
		buf, _ = appendRobot(buf[:0], &churnRobot, "    ")
	}
}

// BenchmarkEncodeRobot writes churnRobot as encoding/json did before
// appendRobot.
func BenchmarkEncodeRobot(b *testing.B) {
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetIndent("    ", "  ")
	for b.Loop() {
		buf.Reset()
		if err := e.Encode(&churnRobot); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendJSONString quotes a browser's User-agent, the longest
// string of most clients rows.
func BenchmarkAppendJSONString(b *testing.B) {
	const ua = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Safari/537.36"
	var buf []byte
	for b.Loop() {
		buf = appendJSONString(buf[:0], ua)
	}
}
