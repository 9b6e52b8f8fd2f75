package findings

import (
	"bytes"
	"encoding/json"
	"iter"
	"runtime"
	"slices"
	"sync"
)

// Clients is a list of verdicts made as they are read, in the clients
// list's order: detect's clients of a pass implement it.
type Clients interface {
	Len() int
	At(i int) Verdict          // the same Verdict on every call; safe for concurrent use
	Key(i int) (ip, ua string) // the i-th client's address and User-agent, without judging it
}

// ReadAhead is what a Clients may do besides: read, before the verdicts
// of clients lo to hi-1 are made, what making them reads first.
type ReadAhead interface {
	ReadAhead(lo, hi int) int // a count made of what it read, for the reads not to be left out
}

// Into is what a Clients may do besides: judge the i-th client into v,
// setting all of it, as At would return it. All's workers judge into
// their chunks' verdicts: At's result was copied on the way, 488 bytes a
// client.
type Into interface {
	VerdictInto(i int, v *Verdict)
}

// readAhead is how many clients All's workers read ahead of judging
// them.
const readAhead = 32

// ClientList is the verdict on every tracked client, most requests first.
// A Verdict is built from the client's counters when it is read rather
// than stored: the pass's per-client state is about as large as the
// verdicts, and building all of them at the end would hold both at once.
// Reading the same client twice gives the same Verdict. The zero value is
// an empty list.
type ClientList struct {
	lazy     Clients   // the pass's clients (NewClientList); nil for a list of verdicts
	index    *Index    // for Find; nil in the zero value
	verdicts []Verdict // a list of verdicts already made (ClientListOf); then lazy is nil
}

// NewClientList is the list of the clients c judges as they are read.
func NewClientList(c Clients) ClientList {
	return ClientList{lazy: c, index: new(Index)}
}

// ClientListOf is a list of verdicts already made, in order: a report read
// back from JSON (robowatch merge).
func ClientListOf(verdicts []Verdict) ClientList {
	return ClientList{verdicts: verdicts, index: new(Index)}
}

// Lazy is the source of a list NewClientList made; nil for any other.
func (l ClientList) Lazy() Clients { return l.lazy }

// Index finds a client's place in a list by address and User-agent; built
// on first use (a drill-down into many clients), shared by copies of the
// list.
type Index struct {
	once sync.Once
	at   map[clientKey]int
}

// clientKey is a client as a report tells them apart: address and User-agent.
type clientKey struct{ ip, ua string }

// Len is how many clients the list holds.
func (l ClientList) Len() int {
	if l.lazy != nil {
		return l.lazy.Len()
	}
	return len(l.verdicts)
}

// At returns the verdict on the i-th client.
func (l ClientList) At(i int) Verdict {
	if l.lazy == nil {
		return l.verdicts[i]
	}
	return l.lazy.At(i)
}

// VerdictInto sets v, all of it, to the verdict on the i-th client, as At
// returns it: in place, where a lazy list judges into (Into).
func (l ClientList) VerdictInto(i int, v *Verdict) {
	if into, ok := l.lazy.(Into); ok {
		into.VerdictInto(i, v)
		return
	}
	*v = l.At(i)
}

// ReadAhead reads, if the list is lazy and can, what judging its clients
// lo to hi-1 reads first, for a caller about to judge them in order.
func (l ClientList) ReadAhead(lo, hi int) int {
	if ra, ok := l.lazy.(ReadAhead); ok {
		return ra.ReadAhead(lo, hi)
	}
	return 0
}

// All yields the verdicts in order. A long list is judged on every core a
// little ahead of the reader: a JSON report of 250,000 clients otherwise
// spends a second judging them one by one after the pass.
func (l ClientList) All() iter.Seq[Verdict] {
	return func(yield func(Verdict) bool) {
		workers := verdictWorkers()
		if l.lazy == nil || l.Len() < 4*verdictChunk || workers < 2 {
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

// verdictChunk is how many verdicts a worker of All makes at a time. All
// holds a few chunks per worker ahead of the reader: at 1,024 verdicts (of
// 488 bytes) that was nearly all of the million-line log's 7,778 while its
// report was written, where the run's memory peaked.
const verdictChunk = 256

// verdictJob is a chunk of the list, judged by one of All's workers.
type verdictJob struct {
	lo   int
	out  []Verdict
	done chan struct{}
	read int // ReadAhead's counts, read by no one
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
				ahead, _ := l.lazy.(ReadAhead)
				into, _ := l.lazy.(Into)
				for i := j.lo; i < hi; i++ {
					if ahead != nil && (i-j.lo)%readAhead == 0 {
						j.read += ahead.ReadAhead(i, min(i+readAhead, hi))
					}
					if into != nil {
						k := len(j.out)
						j.out = slices.Grow(j.out, 1)[:k+1]
						into.VerdictInto(i, &j.out[k])
					} else {
						j.out = append(j.out, l.lazy.At(i))
					}
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
	i := l.index.Lookup(l.Len(), func(i int) (string, string) {
		if l.lazy == nil {
			return l.verdicts[i].IP, l.verdicts[i].UserAgent
		}
		return l.lazy.Key(i)
	}, ip, ua)
	if i < 0 {
		return Verdict{}, false
	}
	return l.At(i), true
}

// MarshalJSON writes the list as a JSON array.
func (l ClientList) MarshalJSON() ([]byte, error) { return marshalSeq(l.All()) }

// Lookup returns the place of the client (ip, ua) among the n keys
// key(i), or -1. A nil index scans them; otherwise it maps them all on
// first use.
func (x *Index) Lookup(n int, key func(int) (ip, ua string), ip, ua string) int {
	want := clientKey{ip, ua}
	if x == nil {
		for i := range n {
			if k, u := key(i); (clientKey{k, u}) == want {
				return i
			}
		}
		return -1
	}
	x.once.Do(func() {
		x.at = make(map[clientKey]int, n)
		for i := range n {
			k, u := key(i)
			x.at[clientKey{k, u}] = i
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
