package detect

import (
	"cmp"
	"maps"
	"math"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

// A Pool judges clients on several goroutines, as --shard does on several
// machines: each worker is a Detector that keeps the clients of its share
// of the networks (the verdicts look at what an address and a network did
// together, so a network is never split), and sees every other record
// through Pass, so that its log clock is the whole log's. Result merges the
// workers' results into the one a single Detector makes: the same clients,
// verdicts, lists and timeline, byte for byte in every report, while no
// worker folds clients into "other" (the workers share Config.MaxClients;
// past it they fold the same clients on every run, see cut).
//
// Records come in batches from one goroutine (Add); each worker goes
// through every batch, so a batch is handed over without copying and given
// back (release) once all are done with it.
type Pool struct {
	clock  int64             // the log's clock: the latest second of the records handed over, or where it stepped back to
	steps  stepWatch         // its steps back (step.go), for every worker
	epoch  uint16            // steps so far, wrapping
	first  time.Time         // the first timed record handed over, whose zone is the log's (Detector.setZone)
	handed [maxWorkers]int64 // records handed to each worker, for its part of the cap
	dets   []*Detector
	in     []chan *poolBatch
	wg     sync.WaitGroup
	close  sync.Once
	res    *findings.Result
	fleets fleetTally   // over every record handed over: the workers' at Result
	paths  pathMemo     // what recent paths say alone, for the fleets and log counts
	shared *sharedPaths // the paths Route interns for the workers
	// kept holds the batches' kept slices once every worker is done with
	// them, for the next batches: one each would be 32 bytes a record of
	// garbage.
	kept sync.Pool

	// The cap the workers share (Config.MaxClients; 0: none), see cut.
	maxClients int64
	margin     int64          // fewer free places than this: each worker keeps to its part
	bound      int64          // until full: the most clients the workers can hold once done with what was handed
	full       bool           // the workers came to the cap: each keeps to its part from now on
	inflight   sync.WaitGroup // batches some worker is not done with
}

// Record owners that are no worker.
const (
	ownerNone  = 0xFF // not for the detectors: outside the --since/--until window
	ownerPass  = 0xFE // another machine's shard: a clock tick for every worker
	maxWorkers = 64
)

type poolBatch struct {
	recs  []logparse.Record
	owner []uint8
	picks [][]int32 // picks[k]: the records of worker k (Routes.picks)
	// clock[i] is the latest second of the records before record i that
	// move the log's clock (none: math.MinInt64), so that a worker sees
	// the clock a single pass would without going through the other
	// workers' records; counts counts all of them, for the log's traits.
	clock []int64
	// epoch[i] is the count of the clock's steps back (wrapping) before
	// record i; nil when none happened in the batch: then every record's
	// is epoch0.
	epoch   []uint16
	epoch0  uint16
	zone    time.Time // Pool.first once the batch is handed over: the log's zone for every record in it
	counts  logCounts
	limits  []int64       // the most clients each worker may hold in this batch; nil: no cap
	kept    []keptText    // kept[i]: the fleet tally's copies of record i's User-agent and address (Detector.kept)
	shared  []*sharedPath // shared[i]: record i's path interned (Routes.shared)
	left    atomic.Int32  // workers not done with it
	release func()
}

// NewPool returns a Pool of workers Detectors with cfg (MaxClients shared
// out among them); workers is at least 1 and at most 64. cfg.Events must be
// nil: a live run judges on one goroutine.
func NewPool(cfg Config, workers int) *Pool {
	workers = min(max(workers, 1), maxWorkers)
	if cfg.MaxClients > 0 {
		workers = min(workers, cfg.MaxClients) // a place for each at least
	}
	agents.WarmUp()
	p := &Pool{clock: math.MinInt64, shared: newSharedPaths()}
	// The Pool asks only a path's kind, fingerprint and sign-up words of
	// its memo, which cost less to work out again than a Detector's
	// answers: a quarter of the room (48 kB); every kB the pass holds is
	// two of peak RSS.
	p.paths.bits = pathMemoBits - 2
	per := cfg
	if cfg.MaxClients > 0 && workers > 1 {
		// The workers fold a client only once they together come near the
		// cap (networks do not fall evenly to the workers: a part each
		// from the start would fold on one of them early); see cut.
		per.pooled = true
		p.maxClients = int64(cfg.MaxClients)
		p.margin = max(1, min(int64(32*workers), p.maxClients/8))
	}
	for range workers {
		d := New(per)
		d.driven = true
		in := make(chan *poolBatch, 4)
		p.dets, p.in = append(p.dets, d), append(p.in, in)
		p.wg.Add(1)
		go p.work(len(p.dets)-1, d, in)
	}
	return p
}

func (p *Pool) work(k int, d *Detector, in <-chan *poolBatch) {
	defer p.wg.Done()
	me := uint8(k)
	var ahead aheadState
	for b := range in {
		before := d.counts // Add counts this worker's own records; the batch counts all
		d.setZone(b.zone)
		d.limitClients(b.limits, k)
		picks := b.picks[k]
		for j, i := range picks {
			if j%aheadGroup == 0 {
				ahead = d.aheadPays(ahead)
				if ahead.on {
					d.readAhead(b.recs, picks[j:min(j+aheadGroup, len(picks))])
				}
			}
			if b.owner[i] != me {
				continue // left out after it was routed (LeaveOut)
			}
			e := b.epoch0
			if b.epoch != nil {
				e = b.epoch[i]
			}
			if c := b.clock[i]; e != d.epoch {
				// The clock stepped back since this worker's last
				// record: it follows, as one Detector would.
				d.epoch = e
				d.clockAt(c)
			} else if c != math.MinInt64 {
				d.tick(c)
			}
			r := &b.recs[i]
			d.kept, d.shared = b.kept[i], b.shared[i]
			if ahead.on {
				d.pre = &d.lookahead[j%aheadGroup]
			}
			d.Add(r)
			d.pre, d.shared = nil, nil
		}
		d.counts = before.plus(b.counts)
		if b.left.Add(-1) == 0 {
			if b.release != nil {
				b.release()
			}
			k := b.kept
			clear(k) // let go of the arena's chunks
			p.kept.Put(&k)
			p.inflight.Done()
		}
	}
}

// NewInput is Detector.NewInput for the whole pool.
func (p *Pool) NewInput() { p.steps.fresh = true }

// Steps is Detector.Steps for the whole pool.
func (p *Pool) Steps() int64 { return p.steps.steps }

// Workers is how many detectors the pool runs.
func (p *Pool) Workers() int { return len(p.dets) }

// Add hands records to the workers: keep[i] false leaves record i out (the
// caller's window), mine[i] false makes it another shard's (--shard): a
// clock tick only. nil slices keep every record. release, if not nil, is
// called once every worker is done with the records; until then they must
// not change.
func (p *Pool) Add(recs []logparse.Record, keep, mine []bool, release func()) {
	rt := new(Routes)
	p.route(recs, findings.Shard{}, mine, rt, &p.paths)
	for i := range keep {
		if !keep[i] {
			rt.LeaveOut(i)
		}
	}
	p.AddRoutes(recs, rt, release)
}

// AddRoutes is Add of recs routed by Route into rt, which must not change
// until release is called (nil: not called).
func (p *Pool) AddRoutes(recs []logparse.Record, rt *Routes, release func()) {
	if len(recs) == 0 {
		if release != nil {
			release()
		}
		return
	}
	n := len(recs)
	owner := rt.owner[:n]
	rt.clock = slices.Grow(rt.clock[:0], n)[:n]
	clock := rt.clock
	var epoch []uint16 // made at the first step back
	epoch0 := p.epoch
	tol := int64(p.dets[0].cfg.ReorderTolerance / time.Second)
	for i, sec := range rt.sec[:n] {
		clock[i] = p.clock
		if epoch != nil {
			epoch[i] = p.epoch
		}
		if owner[i] == ownerNone || sec == noClock {
			continue
		}
		if p.first.IsZero() {
			p.first = recs[i].Time
		}
		if to, ok := p.steps.see(sec, p.clock, tol); ok {
			p.clock = to
			p.epoch++
			if epoch == nil {
				epoch = make([]uint16, n)
				for k := range i {
					epoch[k] = epoch0
				}
			}
			clock[i], epoch[i] = p.clock, p.epoch
		}
		p.clock = max(p.clock, sec)
	}
	// Route's counts and picks are the whole batch's, every record handed.
	whole := !rt.left && n == len(rt.owner)
	for lo := 0; lo < n; {
		hi, limits := p.cut(owner, lo)
		b := &poolBatch{recs: recs[lo:hi], owner: owner[lo:hi], clock: clock[lo:hi], epoch0: epoch0, zone: p.first, limits: limits, shared: rt.shared[lo:hi]}
		if epoch != nil {
			b.epoch = epoch[lo:hi]
		}
		routed := whole && lo == 0 && hi == n
		if routed {
			b.picks, b.counts = rt.picks, rt.counts
		} else {
			b.picks = picksOf(b.owner, len(p.dets))
		}
		b.kept = p.keptFor(len(b.recs))
		for i := range b.recs {
			if o := b.owner[i]; o != ownerNone {
				r := &b.recs[i]
				res := rt.res[lo+i]
				fl := rt.fleet[lo+i]
				if !routed {
					b.counts.countFP(r, res, faviconFP(fl))
				}
				b.kept[i] = p.fleets.countAs(r, res, fl)
				if o < ownerPass {
					p.handed[o]++
				}
			}
		}
		if hi == n {
			b.release = release
		}
		b.left.Store(int32(len(p.dets)))
		p.inflight.Add(1)
		for _, in := range p.in {
			in <- b
		}
		lo = hi
	}
}

// picksOf is Routes.picks of the records of owner, for w workers.
func picksOf(owner []uint8, w int) [][]int32 {
	picks := make([][]int32, w)
	for i, o := range owner {
		if o < ownerPass {
			picks[o] = append(picks[o], int32(i))
		}
	}
	return picks
}

// keptFor returns a kept slice of n records for a batch.
func (p *Pool) keptFor(n int) []keptText {
	if k, ok := p.kept.Get().(*[]keptText); ok && cap(*k) >= n {
		return (*k)[:n]
	}
	return make([]keptText, n)
}

// cut decides how far from lo the next part of a batch goes, and the cap on
// each worker's clients in it (nil: none). The workers' folding must not
// depend on how fast each runs, or a report would change from run to run:
// the limits are set here, where records are handed out in log order, from
// the clients the workers hold once they are done with every earlier part.
// Waiting for them costs a little parallelism, so it happens only near the
// cap: while the records yet to come could not bring the workers to it (a
// record makes one client at most), they run on unchecked. Near it, parts
// of as many records as there are free places are handed out unchecked
// too, so a log with fewer clients than the cap (less a few places a
// worker) is read exactly. Past that, each worker's part of the cap follows
// its share of the records (Space-Saving keeps every client with more than
// records/places requests; a worker that came to the cap late, with a few
// places for half the records, would fold its networks' heaviest client
// after a few hundred new ones), and a worker over its part folds its
// lightest clients before it starts.
func (p *Pool) cut(owner []uint8, lo int) (int, []int64) {
	if p.maxClients == 0 {
		return len(owner), nil
	}
	if !p.full {
		// Once full, the parts follow the records alone: no need to wait.
		var rest int64 // records still to hand out that may make a client
		for _, o := range owner[lo:] {
			if o < ownerPass {
				rest++
			}
		}
		if p.bound+rest <= p.maxClients {
			p.bound += rest
			return len(owner), nil
		}
		p.inflight.Wait()
		var held int64
		for _, d := range p.dets {
			held += int64(d.clients.len()) // watched ones too, as capped counts
		}
		p.bound = held
		room := p.maxClients - held
		if room >= rest {
			p.bound += rest
			return len(owner), nil
		}
		if room >= p.margin {
			hi := lo
			for n := int64(0); n < room; hi++ {
				if owner[hi] < ownerPass {
					n++
				}
			}
			p.bound += room
			return hi, nil
		}
		p.full = true
	}
	// The parts of the cap: in proportion to the records handed to each
	// worker so far and in this part, at least a place for a worker with
	// any (one holding none has none to fold).
	var handed [maxWorkers]int64
	var total int64
	for k := range p.dets {
		handed[k] = p.handed[k]
	}
	for _, o := range owner[lo:] {
		if o < ownerPass {
			handed[o]++
		}
	}
	for k := range p.dets {
		total += handed[k]
	}
	limits := make([]int64, len(p.dets))
	var given int64
	for k := range p.dets {
		if handed[k] > 0 {
			limits[k] = max(1, int64(float64(p.maxClients-int64(len(p.dets)))*float64(handed[k])/float64(total)))
			given += limits[k]
		}
	}
	// What rounding left goes to the workers with the most records, one
	// place each, in worker order among equals: any fixed rule would do.
	for given < p.maxClients {
		best := -1
		for k := range p.dets {
			if handed[k] > 0 && (best < 0 || handed[k]*limits[best] > handed[best]*limits[k]) {
				best = k
			}
		}
		if best < 0 {
			break
		}
		limits[best]++
		given++
	}
	return len(owner), limits
}

// routeOf hashes the network of a client address for the workers: any
// function of the network would do; this one reads the text of an IPv4
// address (its first three numbers) without parsing it or allocating.
func routeOf(addr string) uint32 {
	if dot := strings.LastIndexByte(addr, '.'); dot > 0 && strings.IndexByte(addr, ':') < 0 {
		return fnv32(addr[:dot])
	}
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return fnv32(addr)
	}
	if a = a.Unmap(); a.Is4() {
		// "::ffff:192.0.2.1" is in 192.0.2.1's network (networkOf unmaps).
		txt := a.String()
		return fnv32(txt[:strings.LastIndexByte(txt, '.')])
	}
	b := a.As16()
	return fnv32(string(b[:6])) // the /48
}

// fnv32 is FNV-1a (32 bits) of s.
func fnv32(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// Close stops the workers once they are done with the records handed to
// them; a run that ends without a report (--strict) closes its Pool so that
// no goroutine is left behind. Add must not be called after: the fleet
// tally keeps only its answers (fleetTally.freeze).
func (p *Pool) Close() {
	p.close.Do(func() {
		for _, in := range p.in {
			close(in)
		}
	})
	p.wg.Wait()
	p.fleets.freeze()
}

// Result waits for the workers and merges their results; Add must not be
// called after.
func (p *Pool) Result() *findings.Result {
	if p.res != nil {
		return p.res
	}
	p.Close()
	rs := make([]*findings.Result, len(p.dets))
	var wg sync.WaitGroup
	for i, d := range p.dets {
		d.fleets = &p.fleets
		d.merged = len(p.dets) > 1
		wg.Add(1)
		go func() { defer wg.Done(); rs[i] = d.Result() }()
	}
	wg.Wait()
	if j := p.dets[0].cfg.Judged; j != nil && len(rs) > 1 {
		j()
	}
	p.res = mergeResults(rs)
	if len(rs) > 1 {
		// The merged rows took over the workers' (findings.Merge): with many
		// robot names, the workers' rows held as long as the workers would
		// double what the report needs. So do the merged networks: on a
		// botnet's log, a row for each of 230,000 /24s (18 MB) would be
		// held twice.
		// The workers' clients lists, their addresses' counts and stored
		// violations were copied into the merged ones too: each worker keeps
		// an empty Result, which still says its pass has ended.
		for _, d := range p.dets {
			d.result = &findings.Result{}
		}
	}
	return p.res
}

// mergeResults is the Result of one Detector over the records of all of
// rs, whose clients are disjoint by network: the clients and violations,
// which the workers hold as the pass left them, are merged here, every
// other row by findings.Merge.
func mergeResults(rs []*findings.Result) *findings.Result {
	if len(rs) == 1 {
		return rs[0]
	}
	out := &findings.Result{Folded: new(findings.FoldedNetworks)}
	var (
		sources    []violationSource
		violations int
	)
	for _, r := range rs {
		out.DistinctClients += r.DistinctClients
		out.ClientsEstimated = out.ClientsEstimated || r.ClientsEstimated
		if r.Folded == nil {
			out.Folded = nil // one part not known: none is
		} else if out.Folded != nil {
			out.Folded.Union(r.Folded)
		}
		out.Ranges = r.Ranges
		// Every worker counts the whole log's records (a batch counts
		// all): their traits agree, so the last one's counts are the log's.
		out.AssetsElsewhere, out.LogPages, out.LogAssets = r.AssetsElsewhere, r.LogPages, r.LogAssets
		if sv, ok := r.Violations.Lazy().(*storedViolations); ok {
			sources = append(sources, sv.sources...)
			violations += sv.n
		}
	}
	// The clients lists are merged while findings.Merge merges the rows,
	// which read no client: on the churn log each was 40-50 ms alone on a
	// core. Merge waits for the clients' ranks only when it orders the
	// incidents, last.
	var (
		merged *passClients
		rank   func(ip, ua string) int
		ranked = make(chan struct{})
	)
	go func() {
		defer close(ranked)
		merged, rank = mergeClients(rs)
	}()
	findings.Merge(out, rs, func(ip, ua string) int { <-ranked; return rank(ip, ua) }, nil)
	<-ranked
	out.Clients = findings.NewClientList(merged)
	if c := merged.firstScanner; c != nil {
		out.FirstScanner = c.ip
	}
	slices.SortFunc(sources, func(a, b violationSource) int { return cmp.Compare(rank(a.ip, a.ua), rank(b.ip, b.ua)) })
	out.Violations = findings.NewViolationList(&storedViolations{sources: sources, n: violations, index: new(findings.Index)})
	slices.SortFunc(out.Watched, func(a, b findings.ClientTimeline) int {
		return cmp.Or(strings.Compare(a.IP, b.IP), strings.Compare(a.UserAgent, b.UserAgent))
	})
	out.Watched = nonNil(out.Watched)
	return out
}

// mergeClients merges the clients lists of rs, with what building their
// verdicts needs, and returns it with the clients' ranks in it (rankOf).
// It reads only the parts' Clients.
func mergeClients(rs []*findings.Result) (*passClients, func(ip, ua string) int) {
	env := &verdictEnv{addrs: map[string]addressStats{}}
	var (
		clients int
		lists   []*passClients
	)
	for _, r := range rs {
		pc := clientsOf(r.Clients)
		env.join(pc.env)
		clients += len(pc.clients)
		lists = append(lists, pc)
	}
	merged := mergeSorted(lists, clients)
	merged.env = env
	return merged, rankOf(rs, merged)
}

// join adds what building the verdicts of a worker's clients needs (e
// nil: none) to env.
func (env *verdictEnv) join(e *verdictEnv) {
	if e == nil {
		return
	}
	if env.loc == nil {
		env.loc = e.loc
	}
	env.lt, env.cfg = e.lt, e.cfg
	maps.Copy(env.addrs, e.addrs)
	if e.dns != nil {
		if env.dns == nil {
			env.dns = maps.Clone(e.dns)
		} else {
			maps.Copy(env.dns, e.dns)
		}
	}
}

// rankOf is the place of a client in merged, the workers' clients merged,
// for the order of violations and incidents; it sets merged's first
// scanner, the first of the workers' in that order. Only the clients with
// violations, incidents or a scanner's first place are ranked.
func rankOf(rs []*findings.Result, merged *passClients) func(ip, ua string) int {
	scanners := map[*client]bool{}
	for _, r := range rs {
		if c := clientsOf(r.Clients).firstScanner; c != nil {
			scanners[c] = true
		}
	}
	rank := map[clientKey]int{}
	for i, r := range merged.clients {
		// A parked client has none of these (summarize kept any scanner).
		if c := r.c; c != nil && (c.rare().viol != nil || len(c.incidents()) > 0 || scanners[c]) {
			rank[clientKey{c.ip, c.ua.ua}] = i
		}
	}
	for _, r := range rs {
		if c := clientsOf(r.Clients).firstScanner; c != nil && (merged.firstScanner == nil || rank[clientKey{c.ip, c.ua.ua}] < rank[clientKey{merged.firstScanner.ip, merged.firstScanner.ua.ua}]) {
			merged.firstScanner = c
		}
	}
	return func(ip, ua string) int { return rank[clientKey{ip, ua}] }
}

// leadKey is what clientBefore compares first, at hand: on a log where
// most clients made one request, comparing the addresses' leading bytes
// in the key, not behind two pointers, is most of a sort of the clients
// that took a tenth of the run. Sixteen bytes hold an IPv4 address's
// whole text: with eight, the clients of one /16 ("203.0.11") tied, and
// were compared behind the pointers (the churn log: 77 ms of its Result,
// CPU profiles of 3 runs, a third of it in strings.Compare). 24 bytes,
// which a sort moves: a table's sort (sortClients) keys its clients by
// their places in it.
type leadKey struct {
	lead, lead2 uint64 // the address's first 16 bytes, big-endian, zero-padded
	requests    uint32
	place       uint32 // the client's place in its table (sortClients; 0 in a sortKey)
}

// leadKeyOf is r's leadKey, r at place i of its table.
func leadKeyOf(r clientRef, i uint32) leadKey {
	ip := r.ip()
	return leadKey{leadBytes(ip, 0), leadBytes(ip, 8), r.requests(), i}
}

// compare is clientBefore's order of a's and b's clients as far as the
// keys tell it: 0 when they tie.
func (a *leadKey) compare(b *leadKey) int {
	switch {
	case a.requests != b.requests:
		return cmp.Compare(b.requests, a.requests)
	case a.lead != b.lead:
		return cmp.Compare(a.lead, b.lead)
	}
	return cmp.Compare(a.lead2, b.lead2)
}

// sortKey is a client of any list with its leadKey, for merging lists.
type sortKey struct {
	leadKey
	r clientRef
}

// sortKeyOf is r's sortKey.
func sortKeyOf(r clientRef) sortKey { return sortKey{leadKeyOf(r, 0), r} }

// compareSortKeys is clientBefore's order of the keys' clients, as
// slices.SortFunc takes it.
func compareSortKeys(a, b sortKey) int {
	switch c := a.compare(&b.leadKey); {
	case c != 0:
		return c
	case a.r == b.r:
		return 0
	case clientBefore(a.r, b.r):
		return -1
	}
	return 1 // two clients' keys differ
}

// leadBytes is s[from:from+8] big-endian, zero-padded.
func leadBytes(s string, from int) uint64 {
	var lead uint64
	for i := from; i < from+8; i++ {
		lead <<= 8
		if i < len(s) {
			lead |= uint64(s[i])
		}
	}
	return lead
}

// sortClients returns the clients in clientBefore's order.
func sortClients(t *clientTable) []clientRef {
	keys := make([]leadKey, 0, t.len())
	for r, i := range t.places() {
		keys = append(keys, leadKeyOf(r, i))
	}
	sortLeadKeys(keys, t)
	sorted := make([]clientRef, len(keys))
	for i, k := range keys {
		sorted[i] = t.ref(k.place)
	}
	return sorted
}

// clientBefore is the clients list's order: most requests first, then by
// address and User-agent.
func clientBefore(a, b clientRef) bool {
	if ra, rb := a.requests(), b.requests(); ra != rb {
		return ra > rb
	}
	return cmp.Or(strings.Compare(a.ip(), b.ip()), strings.Compare(a.agent().ua, b.agent().ua)) < 0
}

// mergeSorted merges lists, each in the clients' order, into one of n,
// with the places of their plain clients. It merges the first half from
// the fronts of the lists and the rest from their backs at the same time:
// the merge runs beside findings.Merge, which ends first, and was most of
// the wall clock of a Pool's merge (the churn log: 57-125 ms of 60-160,
// time marks of 5 runs). The order is total (clientBefore), so the two
// halves meet exactly.
func mergeSorted(lists []*passClients, n int) *passClients {
	out := &passClients{clients: make([]clientRef, n), plain: newClientBits(n)}
	// Written before the merge fills them: see slotIndex.grow. The
	// collector's scan of the list, or a bit set, would otherwise read
	// pages first that the merge then writes (0.6% of the churn log's CPU).
	clear(out.clients)
	clear(out.plain)
	// Whole words of plain to each half: the two never set bits of one.
	half := n / 2 &^ 63
	done := make(chan struct{})
	go func() {
		defer close(done)
		mergeEnd(lists, out, half, n, -1)
	}()
	mergeEnd(lists, out, 0, half, 1)
	<-done
	return out
}

// mergeEnd sets out's places lo to hi: the least clients of the lists,
// merged from their fronts, for dir 1; the greatest, from their backs,
// for dir -1. It compares keys made a chunk of a list at a time:
// comparing the clients themselves read a client and its address, far
// apart in memory, at every step, each read waiting on the comparison
// before it, where a chunk's reads are independent and overlap.
func mergeEnd(lists []*passClients, out *passClients, lo, hi, dir int) {
	heads := make([]keyChunk, len(lists))
	for k, l := range lists {
		heads[k] = keyChunk{clients: l.clients, dir: dir, at: 0}
		if dir < 0 {
			heads[k].at = len(l.clients) - 1
		}
		heads[k].fill()
	}
	for p := range hi - lo {
		place := lo + p
		if dir < 0 {
			place = hi - 1 - p
		}
		best := -1
		for k := range heads {
			if h := &heads[k]; h.more() && (best < 0 || dir*compareSortKeys(h.head(), heads[best].head()) < 0) {
				best = k
			}
		}
		h := &heads[best]
		if lists[best].plain.has(h.at) {
			out.plain.set(place)
		}
		out.clients[place] = h.head().r
		h.next()
	}
}

// keyChunk is the sortKeys of the next clients of a sorted list, going
// forwards (dir 1) or backwards (-1).
type keyChunk struct {
	touched int // the first reads' count, read by no one
	clients []clientRef
	keys    []sortKey
	i       int // keys[i] is the key of clients[at]
	at, dir int
}

// keyChunkLen is how many keys a keyChunk makes at a time.
const keyChunkLen = 256

// fill makes the keys of the chunk of clients from at on.
func (h *keyChunk) fill() {
	if h.keys == nil {
		h.keys = make([]sortKey, 0, keyChunkLen)
	}
	h.keys, h.i = h.keys[:0], 0
	// The chunk's clients are read first, in a loop of reads independent
	// of each other, so that their misses are in flight together: making
	// each key waited on its client's (leadKeyOf was 28% of the churn
	// log's merge, perf samples by time).
	for i, n := h.at, 0; i >= 0 && i < len(h.clients) && n < keyChunkLen; i, n = i+h.dir, n+1 {
		if ip := h.clients[i].ip(); len(ip) > 0 && ip[0] == 0 {
			h.touched++
		}
	}
	for i := h.at; i >= 0 && i < len(h.clients) && len(h.keys) < keyChunkLen; i += h.dir {
		h.keys = append(h.keys, sortKeyOf(h.clients[i]))
	}
}

func (h *keyChunk) more() bool    { return h.i < len(h.keys) }
func (h *keyChunk) head() sortKey { return h.keys[h.i] }

// next moves past the head.
func (h *keyChunk) next() {
	h.at += h.dir
	if h.i++; h.i == len(h.keys) {
		h.fill()
	}
}
