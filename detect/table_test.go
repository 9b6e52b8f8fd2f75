package detect

import (
	"fmt"
	"testing"
	"time"

	"github.com/robowatch/robowatch/logparse"
)

// collideHashes makes every hash of the client, User-agent and fleet
// tables one value for the test: the tables must still tell their keys
// apart.
func collideHashes(t *testing.T) {
	pair, agent, fleet := hashPair, hashAgent, hashFleet
	hashPair = func(string, string) uint64 { return 7 }
	hashAgent = func(string) uint64 { return 7 }
	hashFleet = func(string) uint64 { return 7 }
	t.Cleanup(func() { hashPair, hashAgent, hashFleet = pair, agent, fleet })
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
