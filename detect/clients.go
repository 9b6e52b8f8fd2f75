package detect

import (
	"bytes"
	"encoding/json"
	"iter"
	"sync"
	"time"
)

// ClientList is the verdict on every tracked client, most requests first.
// A Verdict is built from the client's counters when it is read rather
// than stored: the pass's per-client state is about as large as the
// verdicts, and building all of them at the end would hold both at once.
// Reading the same client twice gives the same Verdict. The zero value is
// an empty list.
type ClientList struct {
	clients []*client
	env     *verdictEnv
	index   *clientIndex // for Find; nil in the zero value
}

// clientIndex finds a client's place in a ClientList; built on first use
// (a drill-down into many clients), shared by copies of the list.
type clientIndex struct {
	once sync.Once
	at   map[clientKey]int
}

// verdictEnv is what building a Verdict needs besides the client.
type verdictEnv struct {
	lt  logTraits
	cfg Config
	loc *time.Location // the log's zone, for peak times
}

// Len is how many clients the list holds.
func (l ClientList) Len() int { return len(l.clients) }

// At returns the verdict on the i-th client.
func (l ClientList) At(i int) Verdict { return l.env.verdict(l.clients[i]) }

// All yields the verdicts in order.
func (l ClientList) All() iter.Seq[Verdict] {
	return func(yield func(Verdict) bool) {
		for i := range l.Len() {
			if !yield(l.At(i)) {
				return
			}
		}
	}
}

// Head returns the first n verdicts (all of them if n < 0 or n > Len).
func (l ClientList) Head(n int) []Verdict {
	if n < 0 || n > l.Len() {
		n = l.Len()
	}
	out := make([]Verdict, n)
	for i := range out {
		out[i] = l.At(i)
	}
	return out
}

// Find returns the verdict on the client with address ip and User-agent
// ua, if the list has it.
func (l ClientList) Find(ip, ua string) (Verdict, bool) {
	if l.index == nil {
		for i, c := range l.clients {
			if c.ip == ip && c.ua.ua == ua {
				return l.At(i), true
			}
		}
		return Verdict{}, false
	}
	l.index.once.Do(func() {
		l.index.at = make(map[clientKey]int, len(l.clients))
		for i, c := range l.clients {
			l.index.at[clientKey{c.ip, c.ua.ua}] = i
		}
	})
	i, ok := l.index.at[clientKey{ip, ua}]
	if !ok {
		return Verdict{}, false
	}
	return l.At(i), true
}

// MarshalJSON writes the list as a JSON array.
func (l ClientList) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('[')
	for i := range l.Len() {
		if i > 0 {
			b.WriteByte(',')
		}
		j, err := json.Marshal(l.At(i))
		if err != nil {
			return nil, err
		}
		b.Write(j)
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

// verdict judges c.
func (e *verdictEnv) verdict(c *client) Verdict {
	j := judge(c, e.lt, &e.cfg)
	var delay time.Duration
	var tooFast bool
	if j.robot() {
		var detail string
		if delay, tooFast, detail = crawlDelay(c); detail != "" {
			j.details = append(j.details, detail)
		}
	}
	v := Verdict{
		IP:               c.ip,
		UserAgent:        c.ua.ua,
		Robot:            j.robot(),
		Name:             c.ua.agent.Name,
		Kind:             kindName(c.ua.agent.Kind),
		Score:            j.score,
		Reasons:          nonNil(j.reasons),
		Details:          nonNil(j.details),
		Requests:         c.requests,
		Bytes:            c.bytes,
		Pages:            c.pages,
		Assets:           c.assets,
		Errors:           c.errors,
		RobotsTxtFetches: c.robotsTxt,
		Incidents:        len(c.rate.incidents) + c.rate.dropped,
		First:            c.first,
		Last:             c.last,
		Peak:             peakOf(c, e.loc),
		CrawlDelay:       delay.Seconds(),
		CrawlDelayFast:   tooFast,
	}
	if v.Robot && c.viol != nil {
		v.Violations = c.viol.n
	}
	return v
}
