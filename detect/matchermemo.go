package detect

import (
	"hash/maphash"

	"github.com/robowatch/robowatch/robots"
)

// matcherMemo keeps the robots.txt matcher of the User-agents asked for
// lately. robots.Robots.Agent reads a User-agent word by word to find
// its groups, 18,000 instructions a call, and every new client asks it:
// on the generated log a third of the robots.txt check's work, for 57
// User-agents. Agent gives the same matcher for the same User-agent (it
// keeps the matcher of each set of groups), so the memo changes nothing
// but the time.
type matcherMemo struct {
	seed  maphash.Seed
	slots []matcherSlot // matcherMemoSlots, made at the first call
	held  map[rulesKey]*heldRules
	list  []*heldRules // held's values, each at its id - 1, by which a parked client names it
}

// rulesKey is a heldRules' pair.
type rulesKey struct {
	rb *robots.Robots
	m  *robots.Matcher
}

// heldRules is a robots.txt and a client's groups of it, shared by every
// client that holds the pair: a record keeps one pointer, not two (the
// file cannot be found from the matcher: every file shares the matcher
// that allows all), 8 bytes of each of a churn log's 250,000 records.
type heldRules struct {
	rb *robots.Robots
	m  *robots.Matcher
	id uint32 // 1 + its place in matcherMemo.list
}

// rules returns the shared pair of rb and m, made on first use. A
// Detector holds as many pairs as robots.txt versions times groups.
func (ms *matcherMemo) rules(rb *robots.Robots, m *robots.Matcher) *heldRules {
	k := rulesKey{rb, m}
	if p := ms.held[k]; p != nil {
		return p
	}
	if ms.held == nil {
		ms.held = make(map[rulesKey]*heldRules)
	}
	p := &heldRules{rb: rb, m: m, id: uint32(len(ms.list) + 1)}
	ms.held[k] = p
	ms.list = append(ms.list, p)
	return p
}

// matcherSlot is one User-agent's matcher of one robots.txt.
type matcherSlot struct {
	ua string // a client's interned User-agent, which outlives the record
	p  *heldRules
}

const matcherMemoSlots = 1 << 8

// of returns the pair of rb and rb.Agent(ua).
func (ms *matcherMemo) of(rb *robots.Robots, ua string) *heldRules {
	if ms.slots == nil {
		ms.seed = maphash.MakeSeed()
		ms.slots = make([]matcherSlot, matcherMemoSlots)
	}
	s := &ms.slots[maphash.String(ms.seed, ua)&(matcherMemoSlots-1)]
	if s.p == nil || s.p.rb != rb || s.ua != ua {
		*s = matcherSlot{ua: ua, p: ms.rules(rb, rb.Agent(ua))}
	}
	return s.p
}
