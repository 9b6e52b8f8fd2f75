package detect

import (
	"strings"
	"testing"

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
