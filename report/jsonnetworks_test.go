package report

import (
	"bufio"
	"bytes"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/robowatch/robowatch/findings"
)

// TestListsByKindOnEveryCore: the lists of each kind, on one goroutine or
// several, are byte for byte what one goroutine writes: robots rows
// (encoding/json's), networks (from summaries, and a pass's from their
// rows' name bytes, NetworkList.Row), the state's edges; none, one, a
// chunk and many. No list is held whole in a buffer.
func TestListsByKindOnEveryCore(t *testing.T) {
	at := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	for _, n := range []int{0, 1, listChunkLen, 5*listChunkLen + 3, networkChunkLen, 3*networkChunkLen + 5} {
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
		networks := func(l findings.NetworkList) func(j *jsonStream) {
			return func(j *jsonStream) {
				writeNetworks(j, l)
			}
		}
		for _, tc := range []struct {
			name      string
			one, many func(j *jsonStream)
		}{
			{"robots", func(j *jsonStream) { writeSeq(j, "l", slices.Values(robots)) }, nil},
			{"networks", func(j *jsonStream) { writeSeq(j, "networks", slices.Values(nets)) }, networks(findings.NetworkListOf(nets))},
			{"edges", func(j *jsonStream) { writeList(j, edges) }, nil},
			{"a pass's networks", func(j *jsonStream) { writeSeq(j, "networks", slices.Values(passNets.Summaries())) }, networks(passNets)},
		} {
			want, _ := writtenBy(1, tc.one)
			for _, renderers := range []int{1, 4} {
				for _, write := range []func(j *jsonStream){tc.one, tc.many} {
					if write == nil {
						continue
					}
					got, held := writtenBy(renderers, write)
					if !bytes.Equal(got, want) {
						t.Errorf("%d %s, %d renderers:\n%.300s\nwant\n%.300s", n, tc.name, renderers, got, want)
					}
					// An element at a time, never the whole list in one buffer.
					if n > networkChunkLen && held > len(got)/2 {
						t.Errorf("%d %s, %d renderers: a buffer of %d bytes for %d written", n, tc.name, renderers, held, len(got))
					}
				}
			}
		}
	}
}

// writtenBy is what write writes with renderers goroutines, and the size
// its row buffer grew to.
func writtenBy(renderers int, write func(j *jsonStream)) ([]byte, int) {
	defer func(f func() int) { listRenderers = f }(listRenderers)
	listRenderers = func() int { return renderers }
	return written(write)
}

// written is what write writes, and the size its row buffer grew to.
func written(write func(j *jsonStream)) ([]byte, int) {
	var b bytes.Buffer
	j := &jsonStream{w: bufio.NewWriter(&b)}
	write(j)
	j.w.Flush()
	return b.Bytes(), cap(j.buf)
}
