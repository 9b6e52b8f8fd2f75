package report

import (
	"bufio"
	"bytes"
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/robowatch/robowatch/findings"
)

// TestWriteRowsAsWriteSeq: writeRows, one goroutine or several, writes a
// list byte for byte as writeSeq does (and writeList, the state's lists),
// for the lists it writes: robots rows, networks, edges; none, one, a
// chunk and many.
func TestWriteRowsAsWriteSeq(t *testing.T) {
	at := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	for _, n := range []int{0, 1, rowChunk, 5*rowChunk + 3} {
		robots := make([]findings.RobotSummary, n)
		nets := make([]findings.NetworkSummary, n)
		edges := make([]findings.ClientEdge, n)
		for i := range n {
			robots[i] = findings.RobotSummary{Name: fmt.Sprintf("bot <%d> \"x\"", i), Clients: i, Requests: int64(i * 3), FirstFetch: &at}
			nets[i] = findings.NetworkSummary{Network: fmt.Sprintf("10.%d.%d.0/24", i/256, i%256), Clients: i, Requests: int64(n - i)}
			if i%7 == 0 {
				nets[i].Operator = "Op & <co>"
			}
			edges[i] = findings.ClientEdge{IP: fmt.Sprintf("192.0.2.%d", i%256), UserAgent: "ua\u2028", Sessions: int64(i), First: int64(i)}
		}
		// A pass's networks (written from their rows, NetworkList.Row), IPv4
		// and IPv6, some with an operator.
		sum := findings.NewSummary(n)
		for i := range n {
			v := findings.Verdict{IP: fmt.Sprintf("10.%d.%d.9", i/256, i%256), UserAgent: "a", Requests: int64(i%5 + 1)}
			if i%3 == 0 {
				v.IP = fmt.Sprintf("2001:db8:%x::1", i)
			}
			if i%7 == 0 {
				v.Identity, v.Operator = findings.IdentityVerified, "Op & <co>"
			}
			sum.Add(&v, &findings.ClientFacts{})
		}
		var res findings.Result
		sum.Finish(&res)
		passNets := res.Networks
		for _, procs := range []int{1, 4} {
			old := runtime.GOMAXPROCS(procs)
			for _, tc := range []struct {
				name      string
				seq, rows func(j *jsonStream)
			}{
				{"robots", func(j *jsonStream) { writeSeq(j, "l", slices.Values(robots)) },
					func(j *jsonStream) { j.key("l"); writeRows(j, n, "    ", encodedRows(robots, "    ")) }},
				{"networks", func(j *jsonStream) { writeSeq(j, "l", slices.Values(nets)) },
					func(j *jsonStream) {
						j.key("l")
						writeRows(j, n, "    ", networkRows(findings.NetworkListOf(nets), "    "))
					}},
				{"edges", func(j *jsonStream) { writeList(j, edges) }, func(j *jsonStream) { writeEdges(j, edges) }},
				{"a pass's networks", func(j *jsonStream) { writeSeq(j, "l", slices.Values(passNets.Summaries())) },
					func(j *jsonStream) { j.key("l"); writeRows(j, passNets.Len(), "    ", networkRows(passNets, "    ")) }},
			} {
				want, _ := written(tc.seq)
				got, held := written(tc.rows)
				if !bytes.Equal(got, want) {
					t.Errorf("%d %s, GOMAXPROCS %d:\n%.300s\nwant\n%.300s", n, tc.name, procs, got, want)
				}
				// A chunk at a time, never the whole list in one buffer.
				if n > rowChunk && held > len(got)/2 {
					t.Errorf("%d %s, GOMAXPROCS %d: a buffer of %d bytes for %d written", n, tc.name, procs, held, len(got))
				}
			}
			runtime.GOMAXPROCS(old)
		}
	}
}

// written is what write writes, and the size its row buffer grew to.
func written(write func(j *jsonStream)) ([]byte, int) {
	var b bytes.Buffer
	j := &jsonStream{w: bufio.NewWriter(&b)}
	write(j)
	j.w.Flush()
	return b.Bytes(), cap(j.buf)
}
