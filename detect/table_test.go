package detect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/robowatch/robowatch/logparse"
)

// collideHashes makes every hash of the client, User-agent and fleet
// tables one value for the test, and every client's glance: the tables
// must still tell their keys apart.
func collideHashes(t *testing.T) {
	pair, agent, fleet := hashPair, hashAgent, hashFleet
	hashPair = func(string, string) uint64 { return 7 }
	hashAgent = func(string) uint64 { return 7 }
	hashFleet = func(string) uint64 { return 7 }
	shareGlance(t)
	t.Cleanup(func() { hashPair, hashAgent, hashFleet = pair, agent, fleet })
}

// shareGlance gives every pair one glance for the test: clientTable.glance
// is one entry that every client takes in turn, and find must compare it.
func shareGlance(t *testing.T) {
	glance := glancePair
	glancePair = func(string, string) uint64 { return 7 << 32 }
	t.Cleanup(func() { glancePair = glance })
}

// TestTablesUnderCollisions: clients, User-agents and fleet strings whose
// hashes are all one are kept apart, found and forgotten one by one.
func TestTablesUnderCollisions(t *testing.T) {
	collideHashes(t)
	d := New(Config{MaxClients: 3})
	for i := range 5 {
		for j := range 2 {
			d.Add(&logparse.Record{Client: fmt.Sprintf("192.0.2.%d", i), UserAgent: fmt.Sprintf("agent/%d", i),
				Method: "GET", Target: "/", Status: 200, Time: t0.Add(time.Duration(2*i+j) * time.Second)})
		}
	}
	if d.clients.len() != 3 || d.uas.len() != 3 {
		t.Fatalf("%d clients and %d User-agents held, want 3 of each", d.clients.len(), d.uas.len())
	}
	held := 0
	for i := range 5 {
		ip, ua := fmt.Sprintf("192.0.2.%d", i), fmt.Sprintf("agent/%d", i)
		c, a := d.clients.get(ip, ua), d.uas.get(ua)
		if c != nil {
			held++
			if c.requests != 2 || c.ip != ip || c.ua != a || a.ua != ua {
				t.Errorf("%s %s: client of %d requests as %s %s, User-agent entry %v", ip, ua, c.requests, c.ip, c.ua.ua, a)
			}
		} else if a != nil {
			t.Errorf("%s: folded, its User-agent still held", ua)
		}
		e := d.fleets.entry(ua)
		if e == nil || e.requests != 2 || d.fleets.text.string(e.ua) != ua {
			t.Errorf("%s: fleet entry %+v", ua, e)
		}
	}
	if held != 3 {
		t.Errorf("%d clients found, want 3", held)
	}
}

// TestClientKeepsTheFleetsCopy: a new client's User-agent and address are
// the fleet tally's copies, not more, for a string cut to MaxStoredAgent
// too; the record's memory may be reused after Add.
func TestClientKeepsTheFleetsCopy(t *testing.T) {
	d := New(Config{})
	long := "Mozilla/5.0 " + strings.Repeat("x", 2*MaxStoredAgent)
	for i, ua := range []string{chromeUA, long} {
		buf := []byte(ua)
		r := &logparse.Record{Client: fmt.Sprintf("192.0.2.%d", i), UserAgent: unsafe.String(&buf[0], len(buf)), Method: "GET", Target: "/",
			Status: 200, Time: t0.Add(time.Duration(i) * time.Second)}
		d.Add(r)
		clear(buf) // as a reader reusing its block does
		kept := capText(ua, MaxStoredAgent)
		c := d.clients.get(fmt.Sprintf("192.0.2.%d", i), kept)
		e := d.fleets.entry(kept)
		if c == nil || e == nil {
			t.Fatalf("%.40s: client %v, fleet entry %v", ua, c, e)
		}
		if unsafe.StringData(c.ua.ua) != unsafe.StringData(d.fleets.text.view(e.ua)) {
			t.Errorf("%.40s: the client holds a copy of its own", ua)
		}
		if unsafe.StringData(c.ip) != unsafe.StringData(d.fleets.text.view(e.addr)) {
			t.Errorf("%s: the client holds a copy of its address", c.ip)
		}
	}
}

// TestResultUnderCollisionsAndReuse runs the sample log through a Detector
// and a Pool of two workers, with and without a cap on clients (clients
// folded and coming back), each twice: as records of their own with the
// tables' real hashes, and with every hash one value while the records'
// memory is overwritten once Add (or the Pool's release) is done with it,
// in batches of changing size (the Pool's kept slices reused longer and
// shorter). The reports must be the same: a table must never confuse two
// keys, and no client may keep a view of a record or of a batch.
func TestResultUnderCollisionsAndReuse(t *testing.T) {
	recs := readSample(t)
	rb := readRobots(t, "../testdata/sample.robots.txt")
	sizes := []int{500, 37, 1200, 1, 256}
	run := func(cfg Config, workers int, scribble bool) []byte {
		t.Helper()
		var res any
		if workers == 0 {
			d := New(cfg)
			buf := make([]byte, 0, 1<<20)
			for i := range recs {
				r := recs[i]
				if scribble {
					r = viewOf(&recs[i], &buf)
				}
				d.Add(&r)
				for j := range buf {
					buf[j] = 'X'
				}
			}
			res = d.Result()
		} else {
			p := NewPool(cfg, workers)
			for lo, k := 0, 0; lo < len(recs); k++ {
				hi := min(lo+sizes[k%len(sizes)], len(recs))
				batch := slices.Clone(recs[lo:hi])
				var release func()
				if scribble {
					bufs := make([][]byte, len(batch)) // viewOf refills one buffer a record
					for i := range batch {
						batch[i] = viewOf(&recs[lo+i], &bufs[i])
					}
					release = func() {
						for _, buf := range bufs {
							for j := range buf {
								buf[j] = 'X'
							}
						}
					}
				}
				p.Add(batch, nil, nil, release)
				lo = hi
			}
			res = p.Result()
		}
		out, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, tc := range []struct {
		name    string
		cfg     Config
		workers int
	}{
		{"detector", Config{Robots: rb}, 0},
		{"detector, 20 clients", Config{Robots: rb, MaxClients: 20}, 0},
		{"detector, 5 clients", Config{Robots: rb, MaxClients: 5}, 0},
		{"pool of 2", Config{Robots: rb}, 2},
		{"pool of 2, 20 clients", Config{Robots: rb, MaxClients: 20}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := run(tc.cfg, tc.workers, false)
			collideHashes(t)
			if got := run(tc.cfg, tc.workers, true); !bytes.Equal(got, want) {
				t.Error("the result changed with every hash one value and the records overwritten")
			}
		})
	}
}

// TestClientTableAgainstAMap adds and removes clients at random, with
// hashes spread and with hashes crowded into a few slots (long runs that
// removal must close up), then with every pair of one glance too (a
// removed client's record given to another while the glance points at
// it), and checks find, len and all against a map.
func TestClientTableAgainstAMap(t *testing.T) {
	for _, tc := range []struct{ crowd, share bool }{{false, false}, {true, false}, {true, true}} {
		crowd := fmt.Sprintf("crowd %v, one glance %v", tc.crowd, tc.share)
		if tc.crowd {
			pair := hashPair
			hashPair = func(ip, ua string) uint64 { return pair(ip, ua) % 7 }
			t.Cleanup(func() { hashPair = pair })
		}
		if tc.share {
			shareGlance(t)
		}
		var tb clientTable
		ai := map[string]*agentInfo{}
		want := map[clientKey]*client{}
		rnd := uint64(1)
		for step := range 20000 {
			rnd = rnd*6364136223846793005 + 1442695040888963407
			k := clientKey{fmt.Sprintf("192.0.2.%d", rnd>>40%300), fmt.Sprintf("agent/%d", rnd>>50%3)}
			c, h := tb.find(k.ip, k.ua)
			if c != want[k] {
				t.Fatalf("%s, step %d: find %v: %p, want %p", crowd, step, k, c, want[k])
			}
			if c != nil {
				tb.remove(c)
				delete(want, k)
				continue
			}
			if ai[k.ua] == nil {
				ai[k.ua] = &agentInfo{ua: k.ua}
			}
			c, at := tb.fresh()
			if !reflect.ValueOf(*c).IsZero() {
				t.Fatalf("%s, step %d: a fresh record is not zero: %+v", crowd, step, *c)
			}
			*c = client{ip: k.ip, ua: ai[k.ua], requests: uint32(step)}
			tb.put(at, h)
			want[k] = c
		}
		if tb.len() != len(want) {
			t.Errorf("%s: len %d, want %d", crowd, tb.len(), len(want))
		}
		n := 0
		for c := range tb.all() {
			n++
			if want[clientKey{c.ip, c.ua.ua}] != c {
				t.Errorf("%s: all yields %s %s, not held", crowd, c.ip, c.ua.ua)
			}
		}
		if n != len(want) {
			t.Errorf("%s: all yields %d clients, want %d", crowd, n, len(want))
		}
	}
}

// TestClientOfWithOrWithoutTheFleetsCopy: clientOf finds a client by the
// fleet tally's copy of its User-agent (Detector.kept), by another copy,
// or with none (the tally full), through the last client, the glance or
// the index, and makes no second client; capped strings too.
func TestClientOfWithOrWithoutTheFleetsCopy(t *testing.T) {
	long := "Mozilla/5.0 " + strings.Repeat("y", 2*MaxStoredAgent)
	for _, ua := range []string{chromeUA, long} {
		d := New(Config{})
		r := &logparse.Record{Client: "192.0.2.9", UserAgent: ua, Method: "GET", Target: "/", Status: 200, Time: t0}
		d.Add(r)
		want := d.clients.get("192.0.2.9", capText(ua, MaxStoredAgent))
		if want == nil {
			t.Fatalf("%.20s: no client", ua)
		}
		for _, kept := range []keptText{{}, {ua: capText(strings.Clone(ua), MaxStoredAgent)}, d.fleets.count(r, "/", d.paths.of("/"), resourcePage)} {
			for _, forget := range []string{"none", "recent", "glance"} {
				switch forget {
				case "recent":
					d.recent = nil
				case "glance":
					d.recent = nil
					clear(d.clients.glance)
				}
				d.kept = kept
				if c := d.clientOf(r); c != want || d.clients.len() != 1 {
					t.Errorf("%.20s, kept %.20q, forgetting %s: client %p of %d, want %p", ua, kept.ua, forget, c, d.clients.len(), want)
				}
			}
		}
	}
}
