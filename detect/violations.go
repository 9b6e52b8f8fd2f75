package detect

import (
	"cmp"
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
			if s := &l.sources[i]; len(s.list) > 0 {
				c := cursor{src: s, order: i}
				c.load()
				h = append(h, c)
			}
		}
		for i := len(h)/2 - 1; i >= 0; i-- {
			h.down(i)
		}
		for len(h) > 0 {
			cur := &h[0]
			if !yield(cur.src.violation(cur.next)) {
				return
			}
			if cur.next++; cur.next < len(cur.src.list) {
				cur.load()
			} else {
				h[0] = h[len(h)-1]
				h = h[:len(h)-1]
			}
			h.down(0)
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

// cursor is the next violation of one source in the merge, with its time:
// the merge compares times at every step, and reading them from the
// sources' lists (a pointer and an index away, a miss each) through
// container/heap's interface was 4 ms of the million-line log's 20 ms of
// writing the report, on the one goroutine that reads the list.
type cursor struct {
	sec   int64
	nsec  uint32
	order int // the source's place among the verdicts: breaks ties in time
	next  int
	src   *violationSource
}

// load reads the time of the cursor's next violation.
func (c *cursor) load() {
	sv := &c.src.list[c.next]
	c.sec, c.nsec = sv.sec, sv.nsec
}

// before orders cursors by their next violation's time, then their
// sources' places: as compareTimes, then the verdicts' order.
func (c *cursor) before(d *cursor) bool {
	if c.sec != d.sec {
		return c.sec < d.sec
	}
	if c.nsec != d.nsec {
		return c.nsec < d.nsec
	}
	return c.order < d.order
}

// violationHeap is a min-heap of cursors by before.
type violationHeap []cursor

// down moves h[i] down to its place.
func (h violationHeap) down(i int) {
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && h[r].before(&h[l]) {
			m = r
		}
		if !h[m].before(&h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
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
