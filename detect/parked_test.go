package detect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"
	"unsafe"

	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/robots"
)

// TestParkedSize pins the parked entry's size: a log where nearly every
// client makes one request is made of these, 372 to a 32 KiB chunk.
func TestParkedSize(t *testing.T) {
	if got, want := unsafe.Sizeof(parked{}), uintptr(88); got != want {
		t.Errorf("parked entry of %d bytes, want %d", got, want)
	}
	if n := unsafe.Sizeof(parkedChunk{}); n > 32<<10 || n+unsafe.Sizeof(parked{}) <= 32<<10 {
		t.Errorf("a chunk of %d entries is %d bytes: it does not fill 32 KiB", parkedChunkLen, n)
	}
}

// TestParkedOwner: every entry of a chunk finds the chunk's owner, and
// its User-agent's record there.
func TestParkedOwner(t *testing.T) {
	tb := clientTable{owner: testOwner()}
	uas := map[string]string{}
	for i := range parkedChunkLen + 3 {
		ip := fmt.Sprintf("198.51.%d.%d", i/256, i%256)
		ua := tb.owner.agent(fmt.Sprintf("agent/%d", i%5))
		uas[ip] = ua.ua
		_, h := tb.find(ip, ua.ua)
		c, at := tb.fresh()
		*c = client{ip: ip, ua: ua, requests: 1, evict: evictSlot{at: -1}}
		tb.put(at, h)
		if !tb.park(c) {
			t.Fatalf("client %d not parked", i)
		}
	}
	for r := range tb.places() {
		if r.p == nil || r.p.owner() != tb.owner {
			t.Fatalf("%s: entry %+v does not find its owner", r.ip(), r.p)
		}
		if r.agent().ua != uas[r.ip()] {
			t.Fatalf("%s: User-agent %q, want %q", r.ip(), r.agent().ua, uas[r.ip()])
		}
	}
	if len(tb.parked) != 2 {
		t.Errorf("%d chunks for %d entries, want 2", len(tb.parked), parkedChunkLen+3)
	}
}

// testOwner is a parkedOwner of tables of its own, for tests that make
// clients by hand.
func testOwner() *parkedOwner {
	return &parkedOwner{agents: new(agentTable), rules: new([]*heldRules)}
}

// agent returns the record of ua in o's agents, made on first use.
func (o *parkedOwner) agent(ua string) *agentInfo {
	a, h := o.agents.find(ua)
	if a == nil {
		a = o.agents.add(agentInfo{ua: ua}, h)
	}
	return a
}

// hold returns new rules held in o's.
func (o *parkedOwner) hold() *heldRules {
	r := &heldRules{id: uint32(len(*o.rules) + 1)}
	*o.rules = append(*o.rules, r)
	return r
}

// parkedIn returns the first entry of a new chunk of o's, for pack.
func parkedIn(o *parkedOwner) *parked { return &(&parkedChunk{owner: o}).e[0] }

// TestPackKeepsEverything: a record is parked only if unpacking it gives
// the same record back, and one that does not fit is refused.
func TestPackKeepsEverything(t *testing.T) {
	o := testOwner()
	ua := o.agent("Mozilla/5.0")
	base := client{ip: "203.0.113.77", ua: ua, requests: 1, pages: 1, bytes: 5120,
		first: stamp{sec: 1_700_000_000, nsec: 250, off: 3600}, last: lastStamp{0, 250, 3600}}
	base.rate.fin, base.rate.peak1, base.rate.peak10, base.rate.peak60 = 1_700_000_100, 1, 1, 1
	base.page.viewHash, base.page.pollHash, base.page.subHash = 11, 12, 13
	base.bins.one = timeBin{off: 42, n: 1}
	base.evict = evictSlot{at: 9, floor: 3}
	base.sess.n, base.flags, base.epoch, base.pan1 = 1, flagAgentField, 2, onePanelSet|5
	for _, tc := range []struct {
		name string
		edit func(c *client)
		fits bool
	}{
		{"one request", func(*client) {}, true},
		{"IPv4, 15 bytes", func(c *client) { c.ip = "203.000.113.177" }, true},
		{"IPv6, 15 bytes", func(c *client) { c.ip = "2001:db8:ff::17" }, true},
		{"IPv6, 16 bytes", func(c *client) { c.ip = "2001:db8:ff::178" }, false},
		{"held rules", func(c *client) { c.rules = o.hold() }, true},
		{"rules held elsewhere", func(c *client) { c.rules = &heldRules{id: 1} }, false},
		{"a User-agent of another table", func(c *client) { c.ua = &agentInfo{ua: "Mozilla/5.0"} }, false},
		{"not advanced", func(c *client) { c.rate.fin = math.MinInt64 }, true},
		{"final", func(c *client) { c.rate.fin = maxSecond }, true},
		{"final a day before", func(c *client) { c.rate.fin = c.first.sec - 86400 }, true},
		{"final 70 years on", func(c *client) { c.rate.fin = c.first.sec + 70*365*86400 }, false},
		{"a session under a crawl delay", func(c *client) { c.sess.delayed, c.sf.head = 1, headDelayHeld }, true},
		{"a session too fast, in breach", func(c *client) { c.sess.fast, c.sess.violating = 1, 1 }, true},
		{"only a favicon", func(c *client) { c.fp = fingerprint{fpFavicon, true} }, true},
		{"two requests", func(c *client) { c.requests = 2 }, false},
		{"two pages", func(c *client) { c.pages = 2 }, false},
		{"a window", func(c *client) { c.rate.window = &window{} }, false},
		{"something rare", func(c *client) { c.x = &clientRare{} }, false},
		{"a second bucket", func(c *client) { c.bins.more = &binList{} }, false},
		{"a later last second", func(c *client) { c.last.at = 5 }, false},
		{"a view a second later", func(c *client) { c.page.viewAt = 1 }, false},
		{"a peak a second later", func(c *client) { c.rate.at1 = 1 }, false},
		{"4 GiB", func(c *client) { c.bytes = 1 << 32 }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := base
			tc.edit(&c)
			p := parkedIn(o)
			if got := p.pack(&c, o); got != tc.fits {
				t.Fatalf("pack = %v, want %v", got, tc.fits)
			}
			if !tc.fits {
				if *p != (parked{}) {
					t.Error("a refused pack changed the entry")
				}
				return
			}
			var back, view client
			p.unpack(&back)
			p.view(&view)
			if back != c || view != c {
				t.Errorf("unpacked %+v\nwant %+v", back, c)
			}
		})
	}
}

// TestParkingChangesNothing: reports are the same, byte for byte, whether
// idle clients are parked or not, on real logs and generated floods, for
// one Detector and a Pool, with clients folded past a cap and not, with a
// robots.txt and without; and clients were parked.
func TestParkingChangesNothing(t *testing.T) {
	logs, err := filepath.Glob("../../shared/data/logs/*.log")
	if err != nil || len(logs) == 0 {
		t.Fatalf("no real logs in ../../shared/data/logs: %v", err)
	}
	mixed, _ := filepath.Glob("../testdata/detect/*.log")
	n := 20_000
	if raceEnabled {
		n = 8_000
	}
	inputs := map[string][]logparse.Record{"churn": churn(n), "churnRecords": churnRecords(n)}
	// Ten days: the timeline widens its buckets as the log goes on, which
	// moves every client's, parked or not.
	days := churnRecords(n)
	for i := range days {
		days[i].Time = days[0].Time.Add(time.Duration(i) * 29 * time.Second)
	}
	inputs["churn, ten days"] = days
	for _, name := range append(logs, mixed...) {
		if recs := readRecords(t, name); !raceEnabled || len(recs) < 5_000 {
			inputs[filepath.Base(name)] = recs
		}
	}
	run := func(recs []logparse.Record, cfg Config, workers int) ([]byte, int64) {
		var res any
		var parks int64
		if workers == 0 {
			d := New(cfg)
			for i := range recs {
				r := recs[i]
				d.Add(&r)
			}
			parks = d.parks
			res = d.Result()
		} else {
			p := NewPool(cfg, workers)
			for lo := 0; lo < len(recs); lo += 700 {
				p.Add(recs[lo:min(lo+700, len(recs))], nil, nil, nil)
			}
			res = p.Result() // the workers are done after it
			for _, d := range p.dets {
				parks += d.parks
			}
		}
		out, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		return out, parks
	}
	rb := robots.ParseBytes([]byte(siteRobots))
	var parked int64
	for name, recs := range inputs {
		for _, tc := range []struct {
			name    string
			cfg     Config
			workers int
		}{
			{"detector", Config{}, 0},
			{"detector, capped", Config{MaxClients: 500}, 0},
			{"pool of 2, capped", Config{MaxClients: 700}, 2},
			{"detector, robots.txt", Config{Robots: rb}, 0},
			{"pool of 2, robots.txt", Config{Robots: rb, MaxClients: 700}, 2},
		} {
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				got, parks := run(recs, tc.cfg, tc.workers)
				parking = false
				defer func() { parking = true }()
				want, _ := run(recs, tc.cfg, tc.workers)
				if !bytes.Equal(got, want) {
					t.Errorf("the result with %d clients parked differs from the one without", parks)
				}
				parked += parks
			})
		}
	}
	if parked < int64(n) {
		t.Errorf("%d clients parked over every log, want most one-request clients", parked)
	}
}

// TestParkRefusedTakesNoRoom: a client that does not fit a parked entry
// takes no room among them, and those that fit fill the chunks.
func TestParkRefusedTakesNoRoom(t *testing.T) {
	tb := clientTable{owner: testOwner()}
	ua := tb.owner.agent("curl/8.0")
	for i := range 3 * parkedChunkLen {
		ip := fmt.Sprintf("198.51.%d.%d", i/256, i%256)
		_, h := tb.find(ip, ua.ua)
		c, at := tb.fresh()
		*c = client{ip: ip, ua: ua, requests: 1, evict: evictSlot{at: -1}}
		if i%3 != 0 {
			c.pages = 2 // refused
		}
		tb.put(at, h)
		if got, want := tb.park(c), i%3 == 0; got != want {
			t.Fatalf("client %d: park = %v, want %v", i, got, want)
		}
	}
	if got, want := len(tb.parked), 1; got != want {
		t.Errorf("%d parked clients in %d chunks, want %d", tb.parks.used, got, want)
	}
	if tb.len() != 3*parkedChunkLen {
		t.Errorf("%d clients in the table, want %d", tb.len(), 3*parkedChunkLen)
	}
	for i := range 3 * parkedChunkLen {
		ip := fmt.Sprintf("198.51.%d.%d", i/256, i%256)
		if c := tb.get(ip, ua.ua); c == nil || c.ip != ip || c.requests != 1 {
			t.Fatalf("client %d (%s) not found as it was put: %+v", i, ip, c)
		}
	}
	if len(tb.parks.free) != parkedChunkLen {
		t.Errorf("%d parked entries given back after every client was unparked, want %d", len(tb.parks.free), parkedChunkLen)
	}
}

// TestParkingUnderExpire: a followed log's expiry (Config.Expire), under a
// cap, folds and evicts the same clients with parking as without.
func TestParkingUnderExpire(t *testing.T) {
	recs := churnRecords(6000)
	for i := range recs {
		recs[i].Time = recs[0].Time.Add(time.Duration(i) * 2 * time.Second)
	}
	run := func(cfg Config) []byte {
		d := New(cfg)
		for i := range recs {
			r := recs[i]
			d.Add(&r)
			if i%300 == 299 {
				d.Advance(0) // as a follow run's ticks do
			}
		}
		out, err := json.Marshal(d.Result())
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, cfg := range []Config{{Expire: 10 * time.Minute}, {Expire: 10 * time.Minute, MaxClients: 400}} {
		got := run(cfg)
		parking = false
		want := run(cfg)
		parking = true
		if !bytes.Equal(got, want) {
			t.Errorf("MaxClients %d: the result with parking differs from the one without", cfg.MaxClients)
		}
	}
}

// TestParkedTableAsMap: a table whose clients are added, parked, found
// again (unparked), evicted and removed in random order, with every pair
// hashed and glanced alike or not, holds the clients a map holds, each as
// it was left, and its eviction heap the places they are at.
func TestParkedTableAsMap(t *testing.T) {
	for _, collide := range []bool{false, true} {
		t.Run(fmt.Sprintf("collide=%v", collide), func(t *testing.T) {
			if collide {
				collideHashes(t)
			}
			rng := rand.New(rand.NewPCG(3, 5))
			tb := clientTable{owner: testOwner()}
			ua := tb.owner.agent("flood/1.0")
			want := map[string]uint32{} // address: requests
			var keys []string
			pick := func() string { return keys[rng.IntN(len(keys))] }
			steps := 4000
			if collide {
				steps = 800 // every probe reads every slot
			}
			for step := range steps {
				switch k := rng.IntN(10); {
				case k < 4 || len(keys) == 0: // a new client
					ip := fmt.Sprintf("198.51.%d.%d", step/256, step%256)
					_, h := tb.find(ip, ua.ua)
					c, at := tb.fresh()
					*c = client{ip: ip, ua: ua, requests: 1, evict: evictSlot{at: int32(len(tb.heap))}}
					tb.put(at, h)
					tb.heap = append(tb.heap, entryOf(c, at))
					want[ip] = 1
					keys = append(keys, ip)
				case k < 7: // park one, if it fits
					ip := pick()
					if c := tb.get(ip, ua.ua); c.requests == 1 && !tb.park(c) {
						t.Fatalf("step %d: %s of one request not parked", step, ip)
					}
				case k < 9: // a request of one: unparked if parked
					ip := pick()
					c := tb.get(ip, ua.ua)
					c.requests++
					tb.heap[c.evict.at].requests = c.requests
					want[ip]++
				default: // evicted or removed: out of the heap and the table
					ip := pick()
					at := tb.get(ip, ua.ua).evict.at
					c := tb.full(tb.heap[at].place)
					if c.ip != ip {
						t.Fatalf("step %d: heap place %d holds %s, want %s", step, at, c.ip, ip)
					}
					last := len(tb.heap) - 1
					tb.heap[at] = tb.heap[last]
					tb.evictOf(tb.heap[at].place).at = at
					tb.heap = tb.heap[:last]
					tb.remove(c)
					delete(want, ip)
					keys = slices.DeleteFunc(keys, func(k string) bool { return k == ip })
				}
				if step%50 != 0 && step != steps-1 {
					continue
				}
				if tb.len() != len(want) {
					t.Fatalf("step %d: %d clients in the table, want %d", step, tb.len(), len(want))
				}
				for i, e := range tb.heap {
					if tb.evictOf(e.place).at != int32(i) {
						t.Fatalf("step %d: heap entry %d's client says it is at %d", step, i, tb.evictOf(e.place).at)
					}
				}
				n := 0
				for r := range tb.places() {
					n++
					if want[r.ip()] != r.requests() {
						t.Fatalf("step %d: %s with %d requests, want %d", step, r.ip(), r.requests(), want[r.ip()])
					}
				}
				if n != len(want) {
					t.Fatalf("step %d: %d clients yielded, want %d", step, n, len(want))
				}
			}
			if tb.parks.used == 0 || len(tb.parks.free) == 0 {
				t.Errorf("%d parked, %d parked places given back: the test parked or unparked none", tb.parks.used, len(tb.parks.free))
			}
		})
	}
}
