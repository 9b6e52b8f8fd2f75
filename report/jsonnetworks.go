package report

import "github.com/robowatch/robowatch/findings"

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
