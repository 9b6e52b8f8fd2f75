package findings

import (
	"fmt"
	"reflect"
	"runtime"
	"testing"
	"time"
)

// judged is a list of clients whose verdicts are made as they are read,
// as detect's are.
type judged int

func (n judged) Len() int { return int(n) }
func (n judged) At(i int) Verdict {
	return Verdict{IP: n.ip(i), UserAgent: fmt.Sprintf("agent-%d/1.0", i%37), Score: i % 150, Requests: int64(int(n) - i)}
}
func (n judged) Key(i int) (string, string) { return n.ip(i), fmt.Sprintf("agent-%d/1.0", i%37) }
func (judged) ip(i int) string              { return fmt.Sprintf("10.%d.%d.%d", i>>16, i>>8&255, i&255) }

// judgedInto is judged that judges into a verdict too, and reads ahead
// (detect's clients do both).
type judgedInto struct{ judged }

func (n judgedInto) VerdictInto(i int, v *Verdict) { *v = n.At(i) }
func (n judgedInto) ReadAhead(lo, hi int) int {
	if lo < 0 || hi > n.Len() || hi-lo > readAhead || lo >= hi {
		panic(fmt.Sprintf("read ahead %d to %d of %d", lo, hi, n.Len()))
	}
	return hi - lo
}

// TestClientListAllInto: a list whose Clients judges into the workers'
// verdicts yields At's verdicts in order, as one that does not.
func TestClientListAllInto(t *testing.T) {
	defer func(f func() int) { verdictWorkers = f }(verdictWorkers)
	verdictWorkers = func() int { return 3 }
	for _, n := range []int{1, 4*verdictChunk - 1, 4 * verdictChunk, 10*verdictChunk + 7} {
		l := NewClientList(judgedInto{judged: judged(n)})
		i := 0
		for v := range l.All() {
			if w := l.At(i); !reflect.DeepEqual(v, w) {
				t.Fatalf("%d clients: verdict %d: %+v, At gives %+v", n, i, v, w)
			}
			i++
		}
		if i != n {
			t.Fatalf("%d verdicts of %d", i, n)
		}
	}
}

// TestClientListAllInOrder: a long list judged on several goroutines
// yields exactly the verdicts At gives, in order, and a reader that stops
// early leaves no goroutine behind.
func TestClientListAllInOrder(t *testing.T) {
	defer func(f func() int) { verdictWorkers = f }(verdictWorkers)
	verdictWorkers = func() int { return 4 } // whatever the machine's cores
	l := NewClientList(judged(10_000))
	i := 0
	for v := range l.All() {
		if w := l.At(i); v.IP != w.IP || v.UserAgent != w.UserAgent || v.Score != w.Score || v.Name != w.Name {
			t.Fatalf("verdict %d: %s %s, At gives %s %s", i, v.IP, v.UserAgent, w.IP, w.UserAgent)
		}
		i++
	}
	if i != l.Len() {
		t.Fatalf("%d verdicts, list of %d", i, l.Len())
	}
	if v, ok := l.Find("10.0.1.2", "agent-36/1.0"); !ok || v.IP != "10.0.1.2" || v.Requests != 10_000-258 {
		t.Errorf("Find = %v, %+v", ok, v)
	}
	before := runtime.NumGoroutine()
	for range 20 {
		n := 0
		for range l.All() {
			if n++; n == 5000 {
				break
			}
		}
	}
	// The verdict workers of a stopped loop end by themselves: wait for
	// them, as long as a loaded machine (the race detector, other tests)
	// needs, and no longer; 20 loops leaking 4 workers each never get there.
	after := runtime.NumGoroutine()
	for deadline := time.Now().Add(10 * time.Second); after > before+2 && time.Now().Before(deadline); after = runtime.NumGoroutine() {
		time.Sleep(10 * time.Millisecond)
	}
	if after > before+2 {
		t.Errorf("%d goroutines after 20 early stops, %d before", after, before)
	}
}
