package report

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"testing"

	"github.com/robowatch/robowatch/findings"
)

// BenchmarkWriteLists writes the lists the churn log's JSON report has
// after its clients: 9,325 robots rows, 233,249 networks, 12,406 edges.
func BenchmarkWriteLists(b *testing.B) {
	robots := make([]findings.RobotSummary, 9325)
	for i := range robots {
		robots[i] = findings.RobotSummary{Name: fmt.Sprintf("bot-%d/1.0", i), Clients: 1, Requests: int64(i)}
	}
	nets := make([]findings.NetworkSummary, 233_249)
	for i := range nets {
		nets[i] = findings.NetworkSummary{Network: fmt.Sprintf("%d.%d.%d.0/24", i>>16, i>>8&255, i&255), Clients: 1, Requests: 1, UserAgents: 1}
	}
	edges := make([]findings.ClientEdge, 12_406)
	for i := range edges {
		edges[i] = findings.ClientEdge{IP: fmt.Sprintf("10.0.%d.%d", i>>8, i&255), UserAgent: "bot-1/1.0", Sessions: 1}
	}
	list := findings.NetworkListOf(nets)
	for b.Loop() {
		j := &jsonStream{w: bufio.NewWriterSize(io.Discard, 64<<10)}
		writeSeq(j, "robots", slices.Values(robots))
		writeNetworks(j, list)
		writeList(j, edges)
		if j.err != nil {
			b.Fatal(j.err)
		}
	}
}

// BenchmarkWriteNetworks writes a pass's networks list of the churn log's
// size (233,249 /24s, one client each), as the JSON report does.
func BenchmarkWriteNetworks(b *testing.B) {
	sum := findings.NewSummary(233_249)
	for i := range 233_249 {
		v := findings.Verdict{IP: fmt.Sprintf("%d.%d.%d.9", 1+i>>16, i>>8&255, i&255), UserAgent: "a", Requests: 1}
		sum.Add(&v, &findings.ClientFacts{})
	}
	var res findings.Result
	sum.Finish(&res)
	for b.Loop() {
		j := &jsonStream{w: bufio.NewWriterSize(io.Discard, 64<<10)}
		writeNetworks(j, res.Networks)
		if j.err != nil {
			b.Fatal(j.err)
		}
	}
}
