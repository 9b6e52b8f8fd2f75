package detect

import (
	"math"
	"time"
)

// violationJudgement is what a stored violation shares with its client's
// others: the rule, matcher and version that judged it, and its time's
// zone.
type violationJudgement struct {
	checkResult
	loc *time.Location
}

// judgedTable is one client's distinct judgements, which its stored
// violations refer to by index: a client breaks a few rules, thousands of
// times.
type judgedTable struct {
	list []violationJudgement
	last uint16                        // the index found last: violations come in runs
	find map[violationJudgement]uint16 // once the list is long
}

// judgedScan is how long a list index scans before it keeps a map.
const judgedScan = 16

// index returns the index of j, adding it if new; false if the table is
// full.
func (t *judgedTable) index(j violationJudgement) (uint16, bool) {
	if int(t.last) < len(t.list) && t.list[t.last] == j {
		return t.last, true
	}
	if t.find != nil {
		if k, ok := t.find[j]; ok {
			t.last = k
			return k, true
		}
	} else {
		for k := range t.list {
			if t.list[k] == j {
				t.last = uint16(k)
				return t.last, true
			}
		}
	}
	if len(t.list) > math.MaxUint16 {
		return 0, false
	}
	k := uint16(len(t.list))
	t.list = append(t.list, j)
	if t.find != nil {
		t.find[j] = k
	} else if len(t.list) > judgedScan {
		t.find = make(map[violationJudgement]uint16, len(t.list))
		for i, e := range t.list {
			t.find[e] = uint16(i)
		}
	}
	t.last = k
	return k, true
}
