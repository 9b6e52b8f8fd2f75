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
}

// matcherSlot is one User-agent's matcher of one robots.txt.
type matcherSlot struct {
	ua string // a client's interned User-agent, which outlives the record
	rb *robots.Robots
	m  *robots.Matcher
}

const matcherMemoSlots = 1 << 8

// of returns rb.Agent(ua); a nil memo asks rb every time.
func (ms *matcherMemo) of(rb *robots.Robots, ua string) *robots.Matcher {
	if ms == nil {
		return rb.Agent(ua)
	}
	if ms.slots == nil {
		ms.seed = maphash.MakeSeed()
		ms.slots = make([]matcherSlot, matcherMemoSlots)
	}
	s := &ms.slots[maphash.String(ms.seed, ua)&(matcherMemoSlots-1)]
	if s.m == nil || s.rb != rb || s.ua != ua {
		*s = matcherSlot{ua: ua, rb: rb, m: rb.Agent(ua)}
	}
	return s.m
}
