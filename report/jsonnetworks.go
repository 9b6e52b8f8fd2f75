package report

import "github.com/robowatch/robowatch/findings"

// writeNetworks writes l as the report's networks member, on every core.
func writeNetworks(j *jsonStream, l findings.NetworkList) {
	j.key("networks")
	closeList(j, writeElemsBy(j, indexes(l.Len()), "    ", networkElem(l), networkChunkLen), "  ")
}

// networkElem writes row i of l, a networks list. A pass's networks are
// written with their names' bytes (NetworkList.Row): a string a network,
// or a chunk, was 25 MB of garbage on the churn log.
func networkElem(l findings.NetworkList) elemFunc[int] {
	return func(j *jsonStream, i *int, indent string) {
		if j.err != nil {
			return
		}
		n, name := l.Row(*i, j.name[:0])
		j.name = name
		if n.Network != "" || len(name) == 0 {
			j.buf, _ = appendNetwork(j.buf[:0], &n, indent)
		} else {
			j.buf = appendNetworkNamed(j.buf[:0], &n, name, indent)
		}
		_, j.err = j.w.Write(j.buf)
	}
}

// verdictElem writes the i-th of the first n clients of l: judged by the
// renderer that writes it, into its stream's verdict. Judged by
// ClientList.All's workers instead, each verdict (488 bytes) was copied
// twice on the one goroutine that reads the list and writes the chunks
// out, which the churn log's 250,000 rows waited on.
func verdictElem(l *findings.ClientList, n int) elemFunc[int] {
	return func(j *jsonStream, i *int, indent string) {
		if *i%clientsReadAhead == 0 {
			j.read += l.ReadAhead(*i, min(*i+clientsReadAhead, n))
		}
		l.VerdictInto(*i, &j.verdict)
		rowElem(j, &j.verdict, indent)
	}
}

// clientsReadAhead is how many clients verdictElem reads ahead of judging
// them (ClientList.ReadAhead).
const clientsReadAhead = 32
