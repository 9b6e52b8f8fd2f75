package findings

import "iter"

// Violations is a list of violations built as they are read, by time:
// detect's stored violations of a pass implement it.
type Violations interface {
	Len() int
	// All yields the violations by time; equal times in the order of the
	// verdicts, then of the log.
	All() iter.Seq[Violation]
	// Of returns the first n violations of the client (ip, ua), by time.
	Of(ip, ua string, n int) []Violation
}

// ViolationList is the stored violations of the robot clients, read in
// time order: the pass's own lists, whose Violation values are built as
// they are read (a busy site has hundreds of thousands of violations, and
// a second, flat copy of them would double what the result holds), or a
// list already made. The zero value is an empty list.
type ViolationList struct {
	lazy Violations  // the pass's lists (NewViolationList); nil for a list already made
	flat []Violation // a list already made (ViolationListOf)
}

// NewViolationList is the list of the violations v builds as they are read.
func NewViolationList(v Violations) ViolationList { return ViolationList{lazy: v} }

// ViolationListOf is a list of violations already in order (by time, then
// the clients' order): a report read back from JSON (robowatch merge).
func ViolationListOf(vs []Violation) ViolationList { return ViolationList{flat: vs} }

// Lazy is the source of a list NewViolationList made; nil for any other.
func (l ViolationList) Lazy() Violations { return l.lazy }

// Len is how many violations the list holds.
func (l ViolationList) Len() int {
	if l.lazy != nil {
		return l.lazy.Len()
	}
	return len(l.flat)
}

// All yields the violations by time; equal times come in the order of the
// verdicts, then of the log, as a stable sort of all of them would give.
func (l ViolationList) All() iter.Seq[Violation] {
	if l.lazy != nil {
		return l.lazy.All()
	}
	return func(yield func(Violation) bool) {
		for _, v := range l.flat {
			if !yield(v) {
				return
			}
		}
	}
}

// Head returns the first n violations by time (all of them if n < 0 or
// n > Len).
func (l ViolationList) Head(n int) []Violation {
	if n < 0 || n > l.Len() {
		n = l.Len()
	}
	out := make([]Violation, 0, n)
	for v := range l.All() {
		if len(out) == n {
			break
		}
		out = append(out, v)
	}
	return out
}

// Of returns the first n violations of the client with address ip and
// User-agent ua, by time.
func (l ViolationList) Of(ip, ua string, n int) []Violation {
	if l.lazy != nil {
		return l.lazy.Of(ip, ua, n)
	}
	var out []Violation
	for _, v := range l.flat {
		if len(out) < n && v.IP == ip && v.UserAgent == ua {
			out = append(out, v)
		}
	}
	return out
}

// MarshalJSON writes the list as a JSON array, by time.
func (l ViolationList) MarshalJSON() ([]byte, error) { return marshalSeq(l.All()) }
