package detect

import (
	"bytes"
	"cmp"
	"encoding/json"
	"iter"
	"runtime"
	"sync"
	"time"

	"github.com/robowatch/robowatch/agents"
)

// ClientList is the verdict on every tracked client, most requests first.
// A Verdict is built from the client's counters when it is read rather
// than stored: the pass's per-client state is about as large as the
// verdicts, and building all of them at the end would hold both at once.
// Reading the same client twice gives the same Verdict. The zero value is
// an empty list.
type ClientList struct {
	clients  []*client
	env      *verdictEnv
	index    *clientIndex // for Find; nil in the zero value
	verdicts []Verdict    // a list of verdicts already made (ClientListOf); then clients is nil
}

// ClientListOf is a list of verdicts already made, in order: a report read
// back from JSON (robowatch merge).
func ClientListOf(verdicts []Verdict) ClientList {
	return ClientList{verdicts: verdicts, index: new(clientIndex)}
}

// clientIndex finds a client's place in a ClientList; built on first use
// (a drill-down into many clients), shared by copies of the list.
type clientIndex struct {
	once sync.Once
	at   map[clientKey]int
}

// verdictEnv is what building a Verdict needs besides the client.
type verdictEnv struct {
	lt    logTraits
	cfg   Config
	loc   *time.Location              // the log's zone, for peak times
	addrs map[string]addressStats     // what the clients of each address did together (address.go)
	dns   map[string]agents.DNSResult // what DNS said of addresses whose claim the ranges could not settle
}

// Len is how many clients the list holds.
func (l ClientList) Len() int { return len(l.clients) + len(l.verdicts) }

// At returns the verdict on the i-th client.
func (l ClientList) At(i int) Verdict {
	if l.verdicts != nil {
		return l.verdicts[i]
	}
	return l.env.verdict(l.clients[i])
}

// All yields the verdicts in order. A long list is judged on every core a
// little ahead of the reader: a JSON report of 250,000 clients otherwise
// spends a second judging them one by one after the pass.
func (l ClientList) All() iter.Seq[Verdict] {
	return func(yield func(Verdict) bool) {
		workers := verdictWorkers()
		if l.verdicts != nil || l.Len() < 4*verdictChunk || workers < 2 {
			for i := range l.Len() {
				if !yield(l.At(i)) {
					return
				}
			}
			return
		}
		l.allParallel(workers, yield)
	}
}

// verdictWorkers is how many goroutines All judges on (tests set more).
var verdictWorkers = func() int { return runtime.GOMAXPROCS(0) }

// verdictChunk is how many verdicts a worker of All makes at a time.
const verdictChunk = 1024

// verdictJob is a chunk of the list, judged by one of All's workers.
type verdictJob struct {
	lo   int
	out  []Verdict
	done chan struct{}
}

func (l ClientList) allParallel(workers int, yield func(Verdict) bool) {
	n := l.Len()
	order := make(chan *verdictJob, 2*workers) // chunks in list order, for the reader
	work := make(chan *verdictJob, 2*workers)  // the same chunks, for the workers
	// A chunk's buffer goes back to the workers once read: without that a
	// long list's verdicts were all new garbage, a tenth of what a
	// high-churn report allocates.
	free := make(chan []Verdict, 4*workers+1)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		defer close(work)
		defer close(order)
		for lo := 0; lo < n; lo += verdictChunk {
			j := &verdictJob{lo: lo, done: make(chan struct{})}
			select {
			case order <- j:
			case <-stop:
				return
			}
			select {
			case work <- j:
			case <-stop:
				return
			}
		}
	}()
	for range workers {
		go func() {
			for j := range work {
				hi := min(j.lo+verdictChunk, n)
				select {
				case j.out = <-free:
					j.out = j.out[:0]
				default:
					j.out = make([]Verdict, 0, verdictChunk)
				}
				for i := j.lo; i < hi; i++ {
					j.out = append(j.out, l.env.verdict(l.clients[i]))
				}
				close(j.done)
			}
		}()
	}
	for j := range order {
		<-j.done
		for _, v := range j.out {
			if !yield(v) {
				return
			}
		}
		clear(j.out) // let the verdicts' strings go with the client list
		select {
		case free <- j.out:
		default:
		}
		j.out = nil
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
	i := l.index.lookup(l.Len(), func(i int) clientKey {
		if l.verdicts != nil {
			return clientKey{l.verdicts[i].IP, l.verdicts[i].UserAgent}
		}
		return clientKey{l.clients[i].ip, l.clients[i].ua.ua}
	}, clientKey{ip, ua})
	if i < 0 {
		return Verdict{}, false
	}
	return l.At(i), true
}

// MarshalJSON writes the list as a JSON array.
func (l ClientList) MarshalJSON() ([]byte, error) { return marshalSeq(l.All()) }

// lookup returns the place of want among the n keys key(i), or -1. A nil
// index scans them; otherwise it maps them all on first use.
func (x *clientIndex) lookup(n int, key func(int) clientKey, want clientKey) int {
	if x == nil {
		for i := range n {
			if key(i) == want {
				return i
			}
		}
		return -1
	}
	x.once.Do(func() {
		x.at = make(map[clientKey]int, n)
		for i := range n {
			x.at[key(i)] = i
		}
	})
	if i, ok := x.at[want]; ok {
		return i
	}
	return -1
}

// marshalSeq writes the values of seq as a JSON array.
func marshalSeq[T any](seq iter.Seq[T]) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('[')
	for v := range seq {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		j, err := json.Marshal(v)
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
	if j.kind == "" {
		if why := e.rotation(c); why != "" {
			j.add(ReasonBehaviour, pointsRotating, why)
		}
	}
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
		Kind:             cmp.Or(j.kind, c.ua.agent.Kind.String()),
		Score:            j.score,
		Reasons:          nonNil(j.reasons),
		Details:          nonNil(j.details),
		Requests:         c.requests,
		Bytes:            c.bytes,
		Pages:            int64(c.pages),
		Assets:           int64(c.assets),
		Errors:           int64(c.errors),
		RobotsTxtFetches: int64(c.robotsTxt),
		Incidents:        c.rate.incidentCount(),
		First:            c.first.time(),
		Last:             c.last.time(),
		Peak:             peakOf(c, e.loc),
		CrawlDelay:       delay.Seconds(),
		CrawlDelayFast:   tooFast,
	}
	switch v.Kind {
	case KindServer:
		// Named for what it is: "PHP" (the product token it carries)
		// would read as a PHP script's visits.
		v.Name, v.Incidents = "(this server)", 0
	case KindJunk:
		v.Name, v.Incidents = "(no request)", 0
	}
	if cv := c.rare().viol; v.Robot && cv != nil {
		v.Violations = cv.n
	}
	if v.Robot {
		v.Cached = c.rare().cached
		v.PreferenceConflicts, v.PreferenceRule = c.rare().prefConflicts, c.rare().prefLine
		v.Discovery = discoveryOf(c.rare().discovery)
	}
	byNetwork := v.Robot && (c.ua.agent.Kind == agents.Browser || c.ua.agent.Kind == agents.Suspicious ||
		c.ua.agent.Kind == agents.Empty && (!e.lt.hasUA || c.flags&flagAgentField == 0))
	if byNetwork {
		// Found by what it did, under a browser's name: "Chrome" would
		// name millions of people, and an implausible "Chrome" names no
		// one either. In a log without a User-agent field, "(empty)"
		// would make every robot of the log one. Its network says where
		// it came from.
		v.Name = unnamed(c.ip)
	} else if c.ua.agent.Kind != agents.Browser {
		// A browser's name claims no crawler: "Yandex Browser" is people
		// using Yandex's browser, not Yandex's robot from a wrong address.
		v.Operator, v.Identity, v.VerifiedBy, v.IdentityNote = e.cfg.ranges().IdentifyAt(v.Name, c.ip, c.first.time(), c.last.time())
	}
	// DNS settles what the ranges could not, and overrules a range file
	// that calls the operator's own crawler an impostor: the file is a
	// copy of a day's list, the operator's DNS says today's. A name under
	// a domain that may not verify this robot (googleusercontent.com for
	// Googlebot) is no confirmation (agents.DNSResult.For). The ranges'
	// note goes with their judgment.
	if r, ok := e.dns[c.ip]; ok {
		r = r.For(v.Name)
		if v.Identity == agents.IdentityUnverified && r.Identity != agents.IdentityUnverified ||
			v.Identity == agents.IdentityImpostor && r.Identity == agents.IdentityVerified {
			v.Identity, v.IdentityNote = r.Identity, ""
			if r.Identity == agents.IdentityVerified {
				v.VerifiedBy = agents.VerifiedByDNS
			}
		}
	}
	signed(&v, c)
	v.Purpose = agents.Purpose(v.Name)
	if p, ok := networkOf(c.ip); ok {
		v.Network = p.String()
	}
	return v
}
