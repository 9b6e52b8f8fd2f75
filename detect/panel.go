package detect

import (
	"math"
	"slices"

	"github.com/robowatch/robowatch/findings"
)

// The panels an admin reads of a site's robots, as GoAccess shows them of
// all visitors: the paths they asked for most and the answers they got.
// Robot or human is known only at the end of the pass, so every client
// keeps a small panel of its own and the end sums the panels of the
// clients judged robots, per robots row and for all robots, as the
// timeline does with its histograms.
//
// Status classes are exact. Paths (without their query: a robot's
// /search?q=… would otherwise be as many paths as searches) are counted in
// a space-saving sketch of panelSketch entries per client: exact for a
// client of at most panelSketch distinct paths, else each count is an
// interval (PathCount.Requests at least, plus Error at most). A robots row
// keeps its top paths with those bounds, and a merge of rows
// (--workers, --shard, robowatch merge) adds them up, counting a path a
// part did not list as at most that part's OtherMax: the merged bounds
// still hold, and are exact when every part's were.
//
// Memory is bounded: paths are interned up to maxPanelPaths distinct ones
// (a path first seen past that is in no list: PanelUnlisted), and the
// panels of all clients together take at most maxPanelUnits entries;
// a client that finds no room keeps no panel (PanelUncounted).
const (
	panelSketch   = 32      // path entries a client's sketch holds: a path of more than 1/32 of its requests is listed
	maxPanelPaths = 1 << 16 // distinct paths interned
	maxPanelUnits = 1 << 21 // entries of all panels together, a panel itself counting as 4 (about 32 MB)
)

// panelEntry is one path of a client's sketch: its id, its count and how
// much of the count may belong to paths it replaced.
type panelEntry struct {
	id, n, err uint32
}

// clientPanel is one client's answers and paths.
type clientPanel struct {
	status   [6]uint32 // 2xx, 3xx, 4xx, 5xx, other, 404
	unlisted uint32    // requests to paths that got no id (the table was full)
	full     bool      // the sketch replaced an entry: its counts are bounds
	// low: the place + 1 of the least counted entry of a full sketch (the
	// first of them), 0 when not known. A sketch full of paths asked for
	// once (a crawler's, a gallery visitor's) replaces its least at most
	// requests, and looking for it each time was 250 instructions a
	// request on the generated log. Kept in the padding after full.
	low   uint8
	paths []panelEntry
}

// onePanel is the panel of a client's first request, held in its record
// (client.pan1) until a second request makes a clientPanel of it. On a
// log of one request a client (a botnet, a CDN edge, the churn log) most
// clients never make a second, and each held a panel of 80 bytes (or a
// pointer to one shared by the clients of its path and answer, for the
// first 16,384 of them): 10 MB of the 300,000-line churn log's pass.
// Its bits: onePanelSet, the answer's statusIndex from bit 17, 1<<20 for
// a 404, and either the path's id (below maxPanelPaths, 1<<16) or
// onePanelUnlisted when the path got no entry. Zero is no panel.
type onePanel uint32

const (
	onePanelUnlisted onePanel = 1 << 21
	onePanelSet      onePanel = 1 << 31
	onePanel404      onePanel = 1 << 20
	onePanelStatus            = 17 // the bit its statusIndex starts at
)

// panels is the pass's interned paths and the room left for panels.
type panels struct {
	paths pathTable
	units int
}

// statusIndex is the place of status among clientPanel.status's classes.
func statusIndex(status int) int {
	switch {
	case status >= 200 && status < 300:
		return 0
	case status >= 300 && status < 400:
		return 1
	case status >= 400 && status < 500:
		return 2
	case status >= 500 && status < 600:
		return 3
	}
	return 4
}

// add counts a request of c to path, whose facts are f, with status.
func (p *panels) add(c *client, f *pathFacts, path string, status int) {
	cp := c.pan
	if cp == nil {
		if c.pan1 == 0 {
			if p.units+4 > maxPanelUnits {
				return
			}
			p.units += 4
			p.first(c, f, path, status)
			return
		}
		cp = c.pan1.panel()
		c.pan, c.pan1 = cp, 0
	}
	p.count(cp, f, path, status)
}

// first gives c, whose panel has just been counted in p.units, the panel
// of its first request, in its record: what count would have made of it
// in a clientPanel of its own, and its units.
func (p *panels) first(c *client, f *pathFacts, path string, status int) {
	id, ok := p.idOf(f, path)
	k := onePanelSet | onePanel(statusIndex(status))<<onePanelStatus
	if status == 404 {
		k |= onePanel404
	}
	// The units the path's entry takes, as count would take them.
	if ok && p.units+1 <= maxPanelUnits {
		p.units++
		k |= onePanel(id) // below maxPanelPaths, 1<<16
	} else {
		k |= onePanelUnlisted
	}
	c.pan1 = k
}

// listed reports whether k's path has an entry, and its id.
func (k onePanel) listed() (uint32, bool) {
	return uint32(k & (maxPanelPaths - 1)), k&onePanelUnlisted == 0
}

// status returns the answer of k as clientPanel.status counts it.
func (k onePanel) status() (s [6]uint32) {
	s[k>>onePanelStatus&7] = 1
	if k&onePanel404 != 0 {
		s[5] = 1
	}
	return s
}

// panel returns k as a clientPanel, as count makes it of one request
// (paths of capacity one when listed).
func (k onePanel) panel() *clientPanel {
	cp := &clientPanel{status: k.status()}
	if id, ok := k.listed(); ok {
		cp.paths = []panelEntry{{id: id, n: 1}}
	} else {
		cp.unlisted = 1
	}
	return cp
}

// count counts a request to path, whose facts are f, with status in cp,
// c's own panel.
func (p *panels) count(cp *clientPanel, f *pathFacts, path string, status int) {
	inc32(&cp.status[statusIndex(status)])
	if status == 404 {
		inc32(&cp.status[5])
	}
	id, ok := p.idOf(f, path)
	if !ok {
		inc32(&cp.unlisted)
		return
	}
	for i := range cp.paths {
		if cp.paths[i].id == id {
			if i+1 == int(cp.low) {
				cp.low = 0 // now counted more: the least may be another
			}
			inc32(&cp.paths[i].n)
			return
		}
	}
	if len(cp.paths) < panelSketch {
		if len(cp.paths) == cap(cp.paths) {
			grown := min(max(2*cap(cp.paths), 1), panelSketch)
			if p.units+grown-cap(cp.paths) > maxPanelUnits {
				inc32(&cp.unlisted)
				return
			}
			p.units += grown - cap(cp.paths)
			cp.paths = slices.Grow(cp.paths, grown-len(cp.paths))
		}
		cp.paths = append(cp.paths, panelEntry{id, 1, 0})
		return
	}
	// Space-saving: the new path takes the place of the least counted,
	// inheriting its count as its error.
	m := int(cp.low) - 1
	if m < 0 {
		m = 0
		for i := range cp.paths {
			if cp.paths[i].n < cp.paths[m].n {
				m = i
			}
		}
	}
	least := cp.paths[m].n
	cp.full = true
	cp.paths[m] = panelEntry{id, least + 1, least}
	// The least now: the first entry after m as little counted, as none
	// before m is; without one, the next replacement looks at them all.
	cp.low = 0
	for i := m + 1; i < len(cp.paths) && least < math.MaxUint32; i++ {
		if cp.paths[i].n == least {
			cp.low = uint8(i + 1)
			break
		}
	}
}

// idOf is id of path's query-less path, whose facts f keep it once
// interned: an id is never taken back.
func (p *panels) idOf(f *pathFacts, path string) (uint32, bool) {
	if f.panel != 0 {
		return f.panel - 1, true
	}
	id, ok := p.id(pathOnly(path))
	if ok {
		f.panel = id + 1
	}
	return id, ok
}

// id interns a path, false when the table is full.
func (p *panels) id(path string) (uint32, bool) {
	h := hashPath(path)
	if id, ok := p.paths.getHashed(path, h); ok {
		return id, true
	}
	if p.paths.len() >= maxPanelPaths {
		return 0, false
	}
	if len(path) > MaxStoredPath {
		// Looked up again capped; a path that needs no cap was not
		// there (a churn log's new paths were hashed and looked up
		// three times: a tenth of the clients' panels, CPU profile).
		path = capText(path, MaxStoredPath)
		h = hashPath(path)
		if id, ok := p.paths.getHashed(path, h); ok {
			return id, true
		}
	}
	return p.paths.addHashed(path, h), true
}

// release gives a forgotten client's panel back.
func (p *panels) release(c *client) {
	if c.pan != nil {
		p.units -= 4 + cap(c.pan.paths)
		c.pan = nil
	}
	if c.pan1 != 0 {
		p.units -= 4
		if _, ok := c.pan1.listed(); ok {
			p.units--
		}
		c.pan1 = 0
	}
}

// pathTally sums the panels of clients: for a path, low is the sum of its
// guaranteed counts and high the sum of its counts less the share every
// full sketch that listed it could have given any path (base adds that back
// for every full sketch, listing it or not).
type pathTally struct {
	paths     map[uint32]*[2]int64 // low, high before base
	base      int64
	status    findings.StatusCounts
	unlisted  int64
	uncounted int64 // requests of clients without a panel
}

func (t *pathTally) add(c *client) {
	if !t.addStatus(c) {
		return
	}
	if c.pan == nil {
		if id, ok := c.pan1.listed(); ok {
			t.addPath(id)
		} else {
			t.unlisted++
		}
		return
	}
	t.unlisted += int64(c.pan.unlisted)
	t.addPaths(c.pan)
}

// addStatus counts c's answers only; false when c kept no panel.
func (t *pathTally) addStatus(c *client) bool {
	var st [6]uint32
	switch {
	case c.pan != nil:
		st = c.pan.status
	case c.pan1 != 0:
		st = c.pan1.status()
	default:
		t.uncounted += int64(c.requests)
		return false
	}
	t.status.S2xx += int64(st[0])
	t.status.S3xx += int64(st[1])
	t.status.S4xx += int64(st[2])
	t.status.S5xx += int64(st[3])
	t.status.Other += int64(st[4])
	t.status.NotFound += int64(st[5])
	return true
}

// addPath counts the one entry of a panel of one request, as addPaths
// counts an entry of a sketch that is not full.
func (t *pathTally) addPath(id uint32) {
	s := t.counts(id)
	s[0]++
	s[1]++
}

// counts returns the low and high of path id, made at zero if new.
func (t *pathTally) counts(id uint32) *[2]int64 {
	if t.paths == nil {
		t.paths = map[uint32]*[2]int64{}
	}
	s := t.paths[id]
	if s == nil {
		s = new([2]int64)
		t.paths[id] = s
	}
	return s
}

func (t *pathTally) addPaths(cp *clientPanel) {
	var least uint32
	if cp.full {
		least = cp.paths[0].n
		for _, e := range cp.paths {
			least = min(least, e.n)
		}
		t.base += int64(least)
	}
	for _, e := range cp.paths {
		s := t.counts(e.id)
		s[0] += int64(e.n - e.err)
		s[1] += int64(e.n) - int64(least)
	}
}

// list is the tally's paths, most first if sorted, with the most a path
// it does not list may have had (the sum of its full sketches' least
// counts). A Pool's worker leaves them unsorted: mergePaths sorts the
// merged list, and sorting the workers' was 1 ms of each one's Result on
// the 1M log (cpuprofile of 40 runs).
func (t *pathTally) list(names *pathTable, sorted bool) ([]findings.PathCount, int64) {
	out := make([]findings.PathCount, 0, len(t.paths))
	for id, s := range t.paths {
		out = append(out, findings.PathCount{Path: names.name(id), Requests: s[0], Error: s[1] + t.base - s[0]})
	}
	if sorted {
		findings.SortPaths(out)
	}
	return out, t.base
}
