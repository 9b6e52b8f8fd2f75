package findings

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkNetworkList lists the networks of a churn log's worker: 125,000
// clients, nearly each of its own /24, most of one request.
func BenchmarkNetworkList(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	verdicts := make([]Verdict, 125_000)
	for i := range verdicts {
		verdicts[i] = Verdict{IP: fmt.Sprintf("%d.%d.%d.%d", 1+rng.IntN(223), rng.IntN(256), rng.IntN(256), 1+rng.IntN(254)),
			UserAgent: "Mozilla/5.0", Requests: int64(1 + rng.IntN(4)/3)}
	}
	b.ReportAllocs()
	for b.Loop() {
		n := newNetworkTally(len(verdicts))
		for i := range verdicts {
			n.Add(&verdicts[i], agentHash(verdicts[i].UserAgent))
		}
		if l := n.list(); l.Len() < 100_000 {
			b.Fatalf("%d networks", l.Len())
		}
	}
}
