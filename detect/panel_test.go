package detect

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/robowatch/robowatch/findings"
)

// robotRow is the robots row of name.
func robotRow(t *testing.T, res *findings.Result, name string) findings.RobotSummary {
	t.Helper()
	for _, r := range res.Robots {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no robots row %q among %d", name, len(res.Robots))
	return findings.RobotSummary{}
}

// TestPanelsOfACrawlerHuntingOldURLs is an admin's question of GoAccess,
// asked of robots: a crawler asking again and again for pages that are
// gone gets its 404s counted, its most asked paths listed exactly (it asks
// for few), and a person beside it is counted apart.
func TestPanelsOfACrawlerHuntingOldURLs(t *testing.T) {
	var reqs []req
	for i := range 30 {
		path, status := "/old/page?x="+fmt.Sprint(i), 404 // the query is no path of its own
		switch i % 3 {
		case 1:
			path, status = "/sitemap.xml", 200
		case 2:
			path, status = "/moved", 301
		}
		reqs = append(reqs, req{ip: "66.249.66.1", ua: googleUA, sec: i * 20, path: path, status: status})
	}
	reqs = append(reqs, browse("203.0.113.9", firefoxUA, 0, 3, 30)...)
	res := run(Config{}, reqs)
	row := robotRow(t, res, "Googlebot")
	want := findings.StatusCounts{StatusMix: findings.StatusMix{S2xx: 10, S3xx: 10, S4xx: 10}, NotFound: 10}
	if row.Status != want {
		t.Errorf("Googlebot's status %+v, want %+v", row.Status, want)
	}
	wantPaths := []findings.PathCount{{Path: "/moved", Requests: 10}, {Path: "/old/page", Requests: 10}, {Path: "/sitemap.xml", Requests: 10}}
	if fmt.Sprint(row.TopPaths) != fmt.Sprint(wantPaths) || row.TopPathsOtherMax != 0 {
		t.Errorf("Googlebot's paths %v (other at most %d), want %v, exact", row.TopPaths, row.TopPathsOtherMax, wantPaths)
	}
	if fmt.Sprint(res.Panels.RobotPaths) != fmt.Sprint(wantPaths) || res.Panels.RobotStatus != want {
		t.Errorf("all robots: paths %v status %+v, want Googlebot's", res.Panels.RobotPaths, res.Panels.RobotStatus)
	}
	if res.Panels.HumanStatus.S2xx != 15 || res.Panels.HumanStatus.Total() != 15 {
		t.Errorf("people's status %+v, want 15 answers 2xx", res.Panels.HumanStatus)
	}
}

// TestPanelPathBoundsHold: a crawler of many paths overflows its sketch;
// every listed count must still bracket the true one, and no path left
// out may have had more than the list says. Hot paths must come first.
func TestPanelPathBoundsHold(t *testing.T) {
	for _, tc := range []struct {
		name    string
		clients int
		paths   int
		hot     int // share of requests, in percent, to /hot-0../hot-4
	}{
		{"one crawler, few paths", 1, 5, 0},
		{"one crawler, a long tail", 1, 400, 40},
		{"a botnet, each a few paths", 30, 12, 50},
		{"a botnet, a long tail", 20, 1000, 30},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(tc.paths)))
			truth := map[string]int64{}
			var reqs []req
			for c := range tc.clients {
				ip := fmt.Sprintf("198.51.100.%d", c+1)
				for i := range 300 {
					p := fmt.Sprintf("/page-%d", rng.IntN(tc.paths))
					if rng.IntN(100) < tc.hot {
						p = fmt.Sprintf("/hot-%d", rng.IntN(5))
					}
					truth[p]++
					reqs = append(reqs, req{ip: ip, ua: curlUA, sec: i, path: p})
				}
			}
			res := run(Config{}, reqs)
			row := robotRow(t, res, "curl")
			listed := map[string]bool{}
			for _, pc := range row.TopPaths {
				listed[pc.Path] = true
				if n := truth[pc.Path]; n < pc.Requests || n > pc.Requests+pc.Error {
					t.Errorf("%s: %d requests, listed as %d to %d", pc.Path, n, pc.Requests, pc.Requests+pc.Error)
				}
			}
			for p, n := range truth {
				if !listed[p] && n > row.TopPathsOtherMax {
					t.Errorf("%s: %d requests, not listed, but other paths had at most %d", p, n, row.TopPathsOtherMax)
				}
			}
			if tc.paths <= panelSketch && (row.TopPathsOtherMax != 0 || len(row.TopPaths) != len(truth)) {
				t.Errorf("few paths: want every one exactly, got %v (other at most %d)", row.TopPaths, row.TopPathsOtherMax)
			}
			if tc.hot >= 30 {
				for _, pc := range row.TopPaths[:5] {
					if pc.Path[:5] != "/hot-" {
						t.Errorf("top five %v, want the hot paths first", row.TopPaths[:5])
						break
					}
				}
			}
		})
	}
}

// TestMergePathsOfDisjointClients: the sum of two tallies' whole lists is
// the tally of all their clients, which --workers and --shard rely on. The
// tallies are a pass's, so the test stays here and sums them through
// findings.Merge, as a Pool does.
func TestMergePathsOfDisjointClients(t *testing.T) {
	var a, b, all []req
	for i := range 200 {
		q := req{ip: "192.0.2.1", ua: curlUA, sec: i, path: fmt.Sprintf("/p%d", i%(3+i%17))}
		r := req{ip: "192.0.2.2", ua: curlUA, sec: i, path: fmt.Sprintf("/p%d", i%5)}
		a, b, all = append(a, q), append(b, r), append(all, q, r)
	}
	whole := robotRow(t, run(Config{}, all), "curl")
	// A Pool's workers leave their lists unsorted (Detector.merged).
	for _, unsorted := range []bool{false, true} {
		part := func(reqs []req) *findings.Result {
			d := New(Config{})
			d.merged = unsorted
			for _, q := range reqs {
				d.Add(q.record())
			}
			return d.Result()
		}
		merged := new(findings.Result)
		findings.Merge(merged, []*findings.Result{part(a), part(b)}, func(ip, ua string) int { return 0 }, nil)
		m := robotRow(t, merged, "curl")
		got, base := m.AllTopPaths, m.TopPathsBase
		if fmt.Sprint(got) != fmt.Sprint(whole.AllTopPaths) || base != whole.TopPathsBase {
			t.Errorf("parts unsorted %v: merged %v (base %d), one run %v (base %d)", unsorted, got, base, whole.AllTopPaths, whole.TopPathsBase)
		}
		if fmt.Sprint(merged.Panels.AllRobotPaths) != fmt.Sprint(run(Config{}, all).Panels.AllRobotPaths) {
			t.Errorf("parts unsorted %v: robots' paths %v", unsorted, merged.Panels.AllRobotPaths)
		}
	}
}

// TestBotnetOfOneRequestEachHoldsNoPanel: on a botnet's log every address
// makes one request; the panel of each is in its record (client.pan1),
// not a clientPanel a client (80 bytes each on a quarter of a million
// clients), and a client that comes back gets a panel of its own without
// changing the others'.
func TestBotnetOfOneRequestEachHoldsNoPanel(t *testing.T) {
	for _, tc := range []struct {
		name       string
		paths      []string
		statuses   []int
		comeBackTo string
	}{
		{"a login sweep", []string{"/wp-login.php"}, []int{404}, "/xmlrpc.php"},
		{"a sweep of two paths and three answers", []string{"/", "/search?q=x", "/search?q=y"}, []int{200, 301, 503}, "/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const clients = 600
			d := New(Config{})
			want := map[string]int64{}
			var status findings.StatusCounts
			for i := range clients {
				q := req{ip: fmt.Sprintf("198.51.%d.%d", i/250, i%250+1), ua: firefoxUA, sec: i,
					path: tc.paths[i%len(tc.paths)], status: tc.statuses[i%len(tc.statuses)]}
				d.Add(q.record())
				want[pathOnly(q.path)]++
				addStatus(&status, q.status, 1)
			}
			back := req{ip: "198.51.0.1", ua: firefoxUA, sec: clients, path: tc.comeBackTo, status: 500}
			d.Add(back.record())
			want[back.path]++
			addStatus(&status, back.status, 1)

			panels := 0
			var tally pathTally
			for c := range d.clients.all() {
				if c.pan != nil {
					panels++
				}
				tally.add(c)
			}
			if panels != 1 {
				t.Errorf("%d clients hold %d panels, want only the one that came back", clients, panels)
			}
			if tally.status != status || tally.uncounted != 0 {
				t.Errorf("status %+v (uncounted %d), want %+v", tally.status, tally.uncounted, status)
			}
			list, _ := tally.list(&d.pan.paths, true)
			got := map[string]int64{}
			for _, p := range list {
				if p.Error != 0 {
					t.Errorf("path %s: error %d, want exact", p.Path, p.Error)
				}
				got[p.Path] = p.Requests
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("paths %v, want %v", got, want)
			}
		})
	}
}

// TestRecordSizes: what every client and every distinct User-agent costs
// on a botnet's log. A record that grows past a size the allocator has
// takes the next one (296 bytes take 320): a quarter of a million clients
// then hold 8 MB more.
func TestRecordSizes(t *testing.T) {
	for _, tc := range []struct {
		name      string
		size, max uintptr
	}{
		{"client", unsafe.Sizeof(client{}), 288},
		{"agentInfo", unsafe.Sizeof(agentInfo{}), 40},
	} {
		if tc.size > tc.max {
			t.Errorf("%s takes %d bytes, want at most %d", tc.name, tc.size, tc.max)
		}
	}
}

// addStatus counts one answer of status s in c: the expected counts,
// reckoned apart from the panels' statusIndex.
func addStatus(c *findings.StatusCounts, s int, n int64) {
	switch {
	case s >= 200 && s < 300:
		c.S2xx += n
	case s >= 300 && s < 400:
		c.S3xx += n
	case s >= 400 && s < 500:
		c.S4xx += n
		if s == 404 {
			c.NotFound += n
		}
	case s >= 500 && s < 600:
		c.S5xx += n
	default:
		c.Other += n
	}
}

// TestPathTableUnderCollisions: paths whose hashes are all one keep ids of
// their own, a path past MaxStoredPath is interned cut and found again
// whole, and the names outlive records whose memory is reused.
func TestPathTableUnderCollisions(t *testing.T) {
	for _, collide := range []bool{false, true} {
		if collide {
			h := hashPath
			hashPath = func(string) uint64 { return 7 }
			t.Cleanup(func() { hashPath = h })
		}
		var p panels
		long := "/" + strings.Repeat("a", 2*MaxStoredPath)
		paths := []string{"/a", "/b", "/c", long, "/a?q=1"}
		want := []uint32{0, 1, 2, 3, 0}
		for round := range 2 {
			for i, path := range paths {
				buf := []byte(path)
				id, ok := p.id(pathOnly(unsafe.String(&buf[0], len(buf))))
				clear(buf)
				if !ok || id != want[i] {
					t.Errorf("collide %v, round %d: %.20s: id %d %v, want %d", collide, round, path, id, ok, want[i])
				}
			}
		}
		if p.paths.len() != 4 || p.paths.name(3) != capText(long, MaxStoredPath) || p.paths.name(1) != "/b" {
			t.Errorf("collide %v: %d paths, names %q %.20q", collide, p.paths.len(), p.paths.name(1), p.paths.name(3))
		}
	}
}

// refSketch is the space-saving sketch as count keeps it, without the
// place of the least: the first least counted entry is looked for at every
// replacement.
func refSketch(paths []panelEntry, id uint32) ([]panelEntry, bool) {
	for i := range paths {
		if paths[i].id == id {
			inc32(&paths[i].n)
			return paths, false
		}
	}
	if len(paths) < panelSketch {
		return append(paths, panelEntry{id, 1, 0}), false
	}
	m := 0
	for i := range paths {
		if paths[i].n < paths[m].n {
			m = i
		}
	}
	paths[m] = panelEntry{id, paths[m].n + 1, paths[m].n}
	return paths, true
}

// TestPanelSketchKeepsTheLeast: a sketch that keeps the place of its least
// counted entry holds, after every request, what one that looks for it
// holds, on streams of paths asked once, a few often, and in bursts; and
// the place costs the panel no room.
func TestPanelSketchKeepsTheLeast(t *testing.T) {
	if size := unsafe.Sizeof(clientPanel{}); size > 56 {
		t.Errorf("a panel takes %d bytes, want at most 56 (the 64-byte size class)", size)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	streams := map[string]func(i int) int{
		"once":   func(i int) int { return i },
		"few":    func(int) int { return rng.IntN(40) },
		"skewed": func(int) int { return int(rng.ExpFloat64() * 20) },
		"bursts": func(i int) int { return (i / 7) % 90 },
		"mixed": func(i int) int {
			if rng.IntN(3) == 0 {
				return rng.IntN(5)
			}
			return 1000 + i
		},
	}
	for name, next := range streams {
		var p panels
		var m pathMemo
		cp := new(clientPanel)
		var ref []panelEntry
		for i := range 5000 {
			path := fmt.Sprintf("/p/%d", next(i))
			p.count(cp, m.of(path), path, 200)
			id, _ := p.id(path)
			var full bool
			ref, full = refSketch(ref, id)
			if full && !cp.full || !slices.Equal(cp.paths, ref) {
				t.Fatalf("%s, request %d (%s): sketch %v, want %v", name, i, path, cp.paths, ref)
			}
		}
	}
}

// TestOnePanelAsCounted: the panel of a first request held in the record
// (panels.first, onePanel) is what count makes of it in a clientPanel of
// its own, with the same units, whatever its answer and whether its path
// got an entry (the paths or the units running out); a second request
// counts on from the same panel; a tally and release read it alike.
func TestOnePanelAsCounted(t *testing.T) {
	statuses := []int{200, 204, 301, 304, 400, 404, 429, 500, 503, 0, 99, 600}
	for _, room := range []string{"room", "no path ids", "no units for the entry", "no units at all"} {
		for _, status := range statuses {
			for _, second := range []string{"/a", "/b?q=1", "/c"} {
				var p, q panels // p: the record's panel; q: count's
				for _, pp := range []*panels{&p, &q} {
					pp.id("/a")
					switch room {
					case "no path ids":
						for i := pp.paths.len(); i < maxPanelPaths; i++ {
							pp.paths.add(fmt.Sprint("/full-", i))
						}
					case "no units for the entry":
						pp.units = maxPanelUnits - 4
					case "no units at all":
						pp.units = maxPanelUnits - 3
					}
				}
				path := "/b?q=" + fmt.Sprint(status)
				var c client
				var fp, fq pathFacts
				p.add(&c, &fp, path, status)
				var cp *clientPanel
				if q.units+4 <= maxPanelUnits {
					q.units += 4
					cp = new(clientPanel)
					q.count(cp, &fq, path, status)
				}
				var tp, tq pathTally
				c.requests = 1
				tp.add(&c)
				tq.add(&client{requests: 1, pan: cp})
				if p.units != q.units || tallyText(&tp, &p) != tallyText(&tq, &q) {
					t.Fatalf("%s, status %d: units %d, tally %s; count's %d, %s", room, status, p.units, tallyText(&tp, &p), q.units, tallyText(&tq, &q))
				}
				if c.pan != nil || (cp == nil) != (c.pan1 == 0) {
					t.Fatalf("%s, status %d: pan %v pan1 %x, count's %v", room, status, c.pan, c.pan1, cp)
				}
				if cp == nil {
					continue
				}
				var gp, gq pathFacts
				p.add(&c, &gp, second, 200)
				q.count(cp, &gq, second, 200)
				if fmt.Sprint(*c.pan) != fmt.Sprint(*cp) || cap(c.pan.paths) != cap(cp.paths) || p.units != q.units {
					t.Fatalf("%s, status %d, then %s: %+v (cap %d, units %d), count's %+v (cap %d, units %d)",
						room, status, second, *c.pan, cap(c.pan.paths), p.units, *cp, cap(cp.paths), q.units)
				}
				p.release(&c)
				if p.units != q.units-4-cap(cp.paths) || c.pan != nil || c.pan1 != 0 {
					t.Fatalf("%s, status %d: released to %d units", room, status, p.units)
				}
			}
		}
	}
	// Released before a second request: its units go back.
	var p panels
	var c client
	var f pathFacts
	p.add(&c, &f, "/x", 404)
	if p.units != 5 {
		t.Fatalf("a first request takes %d units, want 5", p.units)
	}
	p.release(&c)
	if p.units != 0 || c.pan1 != 0 {
		t.Fatalf("released: %d units, pan1 %x", p.units, c.pan1)
	}
}

// tallyText is what a tally says, for comparing two.
func tallyText(t *pathTally, p *panels) string {
	list, base := t.list(&p.paths, true)
	return fmt.Sprint(list, base, t.status, t.unlisted, t.uncounted)
}
