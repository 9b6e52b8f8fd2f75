package detect

import (
	"cmp"
	"container/heap"
	"iter"
	"slices"
	"sort"
	"time"
	"unsafe"

	"github.com/robowatch/robowatch/findings"
)

// storedViolations are the stored violations of the robot clients, each
// client's own list as the pass stored it (findings.ViolationList reads
// them): the Violation values are built as they are read.
type storedViolations struct {
	sources []violationSource // in verdict order
	n       int
	index   *findings.Index // for Of: a client's place in sources
}

// violationSource is one robot client's stored violations, in time order.
type violationSource struct {
	ip, ua, name string
	list         []storedViolation
	text         []byte // methods and paths; no longer written to
	judged       *judgedTable
	evidence     []violationEvidence // parallel to list, or empty
}

// add appends c's stored violations (sorted in place by time, log order
// kept among equal times).
func (l *storedViolations) add(c *client, name string) {
	list := c.rare().viol.list
	if len(list) == 0 {
		return
	}
	v := c.rare().viol
	if len(v.evidence) == 0 {
		slices.SortStableFunc(list, compareTimes)
	} else {
		sort.Stable(byTime{list, v.evidence})
	}
	l.sources = append(l.sources, violationSource{c.ip, c.ua.ua, name, list, v.text, &v.judged, v.evidence})
	l.n += len(list)
}

// Len is how many violations the lists hold.
func (l *storedViolations) Len() int { return l.n }

// All yields the violations by time; equal times come in the order of the
// verdicts, then of the log, as a stable sort of all of them would give.
func (l *storedViolations) All() iter.Seq[findings.Violation] {
	return func(yield func(findings.Violation) bool) {
		if l.Len() == 0 {
			return
		}
		h := make(violationHeap, 0, len(l.sources))
		for i := range l.sources {
			h = append(h, cursor{src: &l.sources[i], order: i})
		}
		heap.Init(&h)
		for len(h) > 0 {
			cur := &h[0]
			if !yield(cur.src.violation(cur.next)) {
				return
			}
			if cur.next++; cur.next < len(cur.src.list) {
				heap.Fix(&h, 0)
			} else {
				heap.Pop(&h)
			}
		}
	}
}

// Of returns the first n violations of the client with address ip and
// User-agent ua, by time.
func (l *storedViolations) Of(ip, ua string, n int) []findings.Violation {
	src := l.index.Lookup(len(l.sources), func(i int) (string, string) {
		return l.sources[i].ip, l.sources[i].ua
	}, ip, ua)
	if src < 0 {
		return nil
	}
	s := &l.sources[src]
	out := make([]findings.Violation, 0, min(n, len(s.list)))
	for i := range min(n, len(s.list)) {
		out = append(out, s.violation(i))
	}
	return out
}

func (s *violationSource) violation(i int) findings.Violation {
	sv := &s.list[i]
	j := &s.judged.list[sv.judged]
	v := findings.Violation{
		IP: s.ip, UserAgent: s.ua, Name: s.name,
		Time: sv.time(s.judged), Method: s.str(sv.off, uint32(sv.mlen)), Path: s.str(sv.off+uint32(sv.mlen), sv.plen),
		Status: int(sv.status), Group: j.m.Group(),
	}
	if j.rule != nil {
		v.Rule, v.Line = j.rule.Text, j.rule.Line
	}
	v.RobotsTxtFrom, v.RobotsTxtCopy = j.ver.fromText(), copyName[j.how]
	loc := j.loc
	if len(s.evidence) == 0 {
		return v
	}
	if e := &s.evidence[i]; e.okFetch != 0 {
		t := time.Unix(e.okFetch, 0).In(loc)
		v.RobotsTxtFetched = &t
	}
	if e := &s.evidence[i]; e.fetched {
		t := time.Unix(e.fetch, 0).In(loc)
		v.LastFetch, v.LastFetchStatus = &t, int(e.fstatus)
	}
	return v
}

// str returns text[off:off+n] as a string without copying it: the pass is
// over, so text is never written again, and a list of hundreds of
// thousands would otherwise be as many strings of garbage.
func (s *violationSource) str(off, n uint32) string {
	if n == 0 {
		return ""
	}
	return unsafe.String(&s.text[off], n)
}

// cursor is the next violation of one source in the merge.
type cursor struct {
	src   *violationSource
	next  int
	order int // the source's place among the verdicts: breaks ties in time
}

type violationHeap []cursor

func (h violationHeap) Len() int { return len(h) }
func (h violationHeap) Less(i, j int) bool {
	a, b := &h[i], &h[j]
	return cmp.Or(compareTimes(a.src.list[a.next], b.src.list[b.next]), cmp.Compare(a.order, b.order)) < 0
}
func (h violationHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *violationHeap) Push(x any)   { *h = append(*h, x.(cursor)) }
func (h *violationHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// compareTimes orders two stored violations by time.
func compareTimes(a, b storedViolation) int {
	return cmp.Or(cmp.Compare(a.sec, b.sec), cmp.Compare(a.nsec, b.nsec))
}

// byTime sorts a client's stored violations by time with their evidence.
type byTime struct {
	list     []storedViolation
	evidence []violationEvidence
}

func (b byTime) Len() int           { return len(b.list) }
func (b byTime) Less(i, j int) bool { return compareTimes(b.list[i], b.list[j]) < 0 }
func (b byTime) Swap(i, j int) {
	b.list[i], b.list[j] = b.list[j], b.list[i]
	b.evidence[i], b.evidence[j] = b.evidence[j], b.evidence[i]
}
