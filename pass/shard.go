package pass

import (
	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

// shardStats is what a --shard run counts of an input: its own records, and
// of the lines that are no record, those OwnsLine gives it, so that the
// shards' counts add up to an unsharded run's.
func (p *pass) shardStats(st logparse.Stats, elsewhere int64) logparse.Stats {
	shard := p.opt.Shard
	if shard.N <= 1 {
		return st
	}
	st.Records -= elsewhere
	st.Elsewhere += elsewhere
	if !shard.Owns("") {
		st.NoClient = 0 // the records with no address are one client: one shard's
	}
	mine := st.Samples[:0:0]
	var theirs int64
	for _, e := range st.Samples {
		if shard.OwnsLine(e.Line) {
			mine = append(mine, e)
		}
	}
	// Malformed lines past the samples are not known by number: the shard
	// takes its share of them, the first shards one more when they do not
	// divide evenly.
	unsampled := st.Malformed - int64(len(st.Samples))
	theirs = int64(len(st.Samples)-len(mine)) + unsampled - share(unsampled, shard)
	st.Samples = mine
	st.Malformed -= theirs
	st.MalformedElsewhere += theirs
	if shard.I != 1 {
		st.Lines -= st.Directives
		st.Directives = 0
	}
	st.Lines -= elsewhere + theirs
	return st
}

// share is shard s's part of n things dealt out one by one.
func share(n int64, s findings.Shard) int64 {
	q, r := n/int64(s.N), n%int64(s.N)
	if int64(s.I) <= r {
		q++
	}
	return q
}
