package detect

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/logparse"
)

// TestReadAheadHashes holds readAhead's hashes to those clientOf and
// newClient work out themselves, capped values and repeated pairs among
// them, so that a client found with them is the one found without.
func TestReadAheadHashes(t *testing.T) {
	long := strings.Repeat("x", MaxStoredAgent+40)
	host := strings.Repeat("h", MaxStoredClient+9)
	recs := []logparse.Record{
		{Client: "192.0.2.1", UserAgent: chromeUA},
		{Client: "192.0.2.1", UserAgent: chromeUA},
		{Client: "192.0.2.2", UserAgent: chromeUA},
		{Client: "192.0.2.2", UserAgent: ""},
		{Client: host, UserAgent: long},
		{Client: "2001:db8::1", UserAgent: long + "y"},
		{Client: "", UserAgent: curlUA},
		{Client: "192.0.2.3", UserAgent: googleUA},
		{Client: "192.0.2.4", UserAgent: firefoxUA},
		{Client: "192.0.2.4", UserAgent: firefoxUA},
	}
	d := New(Config{})
	for round := range 2 { // the second with the clients known: glance hits
		for lo := 0; lo < len(recs); lo += aheadGroup {
			picks := make([]int32, 0, aheadGroup)
			for i := lo; i < min(lo+aheadGroup, len(recs)); i++ {
				picks = append(picks, int32(i))
			}
			d.readAhead(recs, picks)
			for k, i := range picks {
				a := d.lookahead[k]
				ip, ua := capText(recs[i].Client, MaxStoredClient), capText(recs[i].UserAgent, MaxStoredAgent)
				if a.glanced && a.g != glancePair(ip, ua) {
					t.Errorf("round %d, record %d: glance %x, want %x", round, i, a.g, glancePair(ip, ua))
				}
				if a.hashed && (a.h != hashPair(ip, ua) || a.uh != hashAgent(ua)) {
					t.Errorf("round %d, record %d: hashes %x %x, want %x %x", round, i, a.h, a.uh, hashPair(ip, ua), hashAgent(ua))
				}
				if round == 0 && !a.hashed && (k == 0 || recs[i] != recs[picks[k-1]]) {
					t.Errorf("round 0, record %d: not hashed", i)
				}
				d.pre = &d.lookahead[k]
				d.Add(&recs[i])
				d.pre = nil
			}
		}
	}
	if n := d.clients.len(); n != 8 {
		t.Errorf("%d clients, want 8", n)
	}
}

// TestWindowPairs holds every active client's window.pair to its pair's
// hash, which the sweep parks it by without hashing again: clients new,
// found again, parked and unparked, evicted under a cap.
func TestWindowPairs(t *testing.T) {
	d := New(Config{MaxClients: 300})
	recs := make([]logparse.Record, 3*sweepEvery)
	picks := make([]int32, len(recs))
	for i := range recs {
		n := i
		if i%5 == 0 {
			n = i / 5 % 40 // some come back
		}
		recs[i] = logparse.Record{Client: fmt.Sprintf("198.%d.%d.%d", n>>16, n>>8&255, n&255), UserAgent: benchUAs[n%len(benchUAs)],
			Method: "GET", Target: "/", Status: 200, Time: t0.Add(time.Duration(i) * 700 * time.Millisecond)}
		picks[i] = int32(i)
	}
	paired := 0
	for j := range recs {
		if j%aheadGroup == 0 {
			d.readAhead(recs, picks[j:min(j+aheadGroup, len(picks))])
		}
		d.pre = &d.lookahead[j%aheadGroup]
		d.Add(&recs[j])
		d.pre = nil
		if j%7 != 0 {
			continue
		}
		for _, c := range d.active {
			if w := c.rate.window; w.paired {
				paired++
				if want := uint32(hashPair(c.ip, c.ua.ua)); w.pair != want {
					t.Fatalf("record %d: %s's window pair %x, want %x", j, c.ip, w.pair, want)
				}
			}
		}
	}
	if paired == 0 || d.parks == 0 {
		t.Errorf("%d windows paired, %d clients parked: the test tries nothing", paired, d.parks)
	}
}

// TestPanelIDsCapped: a path past MaxStoredPath takes the id of its capped
// text (which keeps a hash of the whole), as that text does; short paths
// keep theirs.
func TestPanelIDsCapped(t *testing.T) {
	var p panels
	long := "/" + strings.Repeat("a", MaxStoredPath+30)
	capped := capText(long, MaxStoredPath)
	a, _ := p.id(long)
	b, _ := p.id(capped)
	c, _ := p.id(long + "b")
	d, _ := p.id("/short")
	e, _ := p.id("/short")
	if a != b || c == a || d != e || d == a || d == c || p.paths.len() != 3 {
		t.Errorf("ids %d %d %d %d %d, %d paths; want a = b, d = e, three paths", a, b, c, d, e, p.paths.len())
	}
	if f, _ := p.id(long); f != a {
		t.Errorf("id %d again, want %d", f, a)
	}
	if got := p.paths.name(a); got != capped {
		t.Errorf("name %q, want the capped path", got)
	}
}
