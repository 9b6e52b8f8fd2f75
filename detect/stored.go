package detect

import (
	"math"
	"time"
)

// storedViolation is one violation kept in full. Its method and path are
// in the client's text, one buffer for all of them, rather than a string
// each, and what judged it, and its time's zone, are an index into the
// client's few of them: a robot that ignores robots.txt makes thousands,
// and a list without pointers, of 32 bytes a violation, is little more
// than a third of the size and never scanned by the collector.
type storedViolation struct {
	sec    int64  // the time, Unix seconds
	off    uint32 // method then path, at text[off:]
	plen   uint32 // bytes of path
	nsec   uint32 // the time's nanoseconds
	status int32
	mlen   uint16 // bytes of method (a longer one is cut: see maxMethodLen)
	judged uint16 // its judgement and zone, in the client's judgedTable
}

// violationEvidence is what a stored violation judged among versions of
// robots.txt keeps of the robot's fetches: its latest fetch of robots.txt
// before the request (fetched: there was one) and its status, and the 2xx
// fetch whose copy the version judged against is. With one robots.txt,
// the drill-down's list of fetches is evidence enough, and a client's
// violations keep none: kept apart, it costs nothing there.
type violationEvidence struct {
	fetch   int64 // Unix seconds
	okFetch int64 // Unix seconds; 0 unless how is copyFetched or copyBySize
	fstatus int16
	fetched bool
}

// time is when the violation was made, in the zone the log gave.
func (sv *storedViolation) time(j *judgedTable) time.Time {
	return time.Unix(sv.sec, int64(sv.nsec)).In(j.list[sv.judged].loc)
}

// store keeps one violation; it reports false, keeping nothing, if the
// client's text would pass 4 GiB (the uint32 offsets) or its judgements
// 65,536. Real paths are short; only a hostile log (10,000 violations of
// lines near the 1 MiB limit) gets there, and then a later, shorter
// violation may still be kept.
func (v *clientViolations) store(t time.Time, j checkResult, f *robotsFetches, method, path string, status int) bool {
	method, path = capText(method, MaxStoredMethod), capText(path, MaxStoredPath)
	if len(v.text)+len(method)+len(path) > math.MaxUint32 {
		return false
	}
	k, ok := v.judged.index(violationJudgement{checkResult: j, loc: t.Location()})
	if !ok {
		return false
	}
	sv := storedViolation{
		sec: t.Unix(), nsec: uint32(t.Nanosecond()), off: uint32(len(v.text)),
		plen: uint32(len(path)), status: int32(status), mlen: uint16(len(method)), judged: k,
	}
	if f != nil && j.ver != nil {
		// With versions, which one the robot had is the point.
		e := violationEvidence{fetched: true, fetch: f.lastAt, fstatus: int16(min(max(f.last, -1), math.MaxInt16))}
		if j.how == copyFetched || j.how == copyBySize {
			e.okFetch = f.okAt
		}
		// The violations before it that had none keep empty evidence.
		v.evidence = spare(v.evidence, len(v.list)+1-len(v.evidence))
		for len(v.evidence) < len(v.list) {
			v.evidence = append(v.evidence, violationEvidence{})
		}
		v.evidence = append(v.evidence, e)
	} else if len(v.evidence) > 0 {
		v.evidence = append(spare(v.evidence, 1), violationEvidence{})
	}
	v.list = append(spare(v.list, 1), sv)
	v.text = append(append(spare(v.text, len(method)+len(path)), method...), path...)
	return true
}

// spare makes room for n more elements in s: append's doubling while s is
// short, then a quarter more at a time. A robot's stored violations are
// held to the end of the pass, where the heap peaks, and doubling left a
// quarter of their lists' room unused.
func spare[T any](s []T, n int) []T {
	if len(s)+n <= cap(s) || cap(s) < 64 {
		return s
	}
	return append(make([]T, 0, max(len(s)+n, cap(s)+cap(s)/4)), s...)
}
