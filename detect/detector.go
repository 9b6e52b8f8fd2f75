// Package detect decides, on one streaming pass over log records, which
// clients are robots and why, and which of their requests robots.txt forbids.
package detect

import (
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

// Detector follows every client through one pass over a log and judges it
// at the end. Add is not safe for concurrent use: a parallel reader must
// hand records to one Detector from one goroutine, in log order (records
// out of order by up to Config.ReorderTolerance are handled exactly).
//
// Memory grows with the number of clients, never with the number of lines:
// per client a fixed record plus the seconds of its last minute or so of
// traffic, released when the client falls idle.
type Detector struct {
	cfg    Config
	th     thresholds
	agents agents.Classifier
	uas    agentTable // interned User-agent values with their class
	// purposes: the purposes of the robots the User-agents name (index 0:
	// none), which agentInfo.purpose indexes; the catalogue has a few.
	purposes []string
	// agentPurpose: the place in purposes of each robot name's purpose.
	// Looking a name up in the catalogue takes half a microsecond, and a
	// botnet's log has 200,000 User-agents of a few names.
	agentPurpose map[string]uint16
	// agentSet holds one copy of each class answer (intern).
	agentSet map[agents.Agent]*agents.Agent
	clients  clientTable
	seeds    map[clientKey]*findings.ClientEdge // Config.Seed by client, made at the first client
	recent   *client                            // the client of the last record, if still in clients
	parks    int64                              // clients parked so far (parked.go)
	// kept: the fleet tally's copies of the record's User-agent and
	// address, which a new client keeps rather than copies of its own
	// (fleetTally.count): on a log where every client sends its own
	// string, one copy, not two.
	kept keptText
	// lookahead: what a Pool worker read ahead of its next records
	// (readAhead); pre: the record's being added, or nil.
	lookahead [aheadGroup]pairAhead
	pre       *pairAhead
	// shared: a Pool worker's next record's path, interned by Route
	// (nil: not interned); locals, the worker's facts of such paths.
	shared *sharedPath
	locals pathLocals
	made   int64  // clients made so far (newClient), for aheadPays
	seen   uint64 // index slots parkIdle read, kept so that the reads are not dropped
	// pair: the hashPair of the record's client, as clientOf found or
	// made it; 0 when it did not hash the pair (found by a glance).
	pair uint64
	// referrals finds the operator a Referer names; otherReferred holds
	// the referred views of people folded into Other, by operator.
	referrals     agents.Referrals
	otherReferred map[string]int64
	limit         int64 // a Pool's worker: the most clients it may hold in this batch (-1: no cap)

	records      int64
	late         int64
	future       int64       // records dated far ahead of the log's clock (see ahead)
	horizon      int64       // the latest second a record may be dated (see FutureTolerance)
	watched      int         // clients with a drill-down, at most maxWatched
	watchDropped int64       // clients Config.Watch picked past maxWatched, tracked without one
	watchMinutes int         // per-minute counts all drill-downs may still add (maxWatchMinutesAll)
	counts       logCounts   // of every record of the log, for its traits
	fleets       *fleetTally // of every record too (a Pool's worker: the Pool's, at Result)
	merged       bool        // a Pool merges the Result with others': its paths are left unsorted (mergePaths sorts)
	paths        pathMemo    // what recent paths say alone
	matchers     matcherMemo // the robots.txt matchers of recent User-agents
	started      bool
	maxSec       int64          // latest second seen
	ticked       bool           // other shards' records moved the clock before the first of ours (Pass)
	steps        stepWatch      // the clock's steps back (step.go)
	epoch        uint16         // steps so far, wrapping: a client of an earlier one restarts its rate window
	driven       bool           // a Pool's worker: the Pool watches for steps
	tickMax      int64          // to this second
	first, last  time.Time      // earliest and latest record time
	loc          *time.Location // the log's zone (setZone)
	zone         int64          // its UTC offset in seconds, which timeline buckets align to
	zoned        bool
	sinceSweep   int
	sweepAt      int       // sinceSweep that starts the next sweep: at least sweepEvery, and as many as the clients it kept
	active       []*client // the clients holding a window (see rate.go), which sweep visits
	other        findings.Other
	unlisted     unlisted      // findings of folded clients: counted in Other, no longer listed
	otherClients distinctCount // the distinct clients folded into other
	otherRobots  distinctCount // those of them judged robots when folded (a client folded twice is one)
	folded       findings.FoldedNetworks
	result       *findings.Result
	dns          dnsAnswers   // what VerifyDNS found, for the verdicts (dns.go)
	tl           siteTimeline // requests over time; see timeline.go
	pan          panels       // clients' answers and paths (panel.go)
	live         liveState    // what Config.Events was told (events.go)
	checker
}

// unlisted counts the violations and incidents of the clients folded into
// Other: their rows are gone, so Result counts them as not listed
// (ViolationsUnlisted, IncidentsUnlisted), and listed + unlisted = counted.
type unlisted struct {
	violations, incidents int64
}

// clientKey identifies a client: many people behind one NAT address are
// told apart by their User-agents, so an address never merges across them.
type clientKey struct {
	ip, ua string
}

// agentInfo is one distinct User-agent value, stored once for all the
// clients that send it.
type agentInfo struct {
	ua    string
	agent *agents.Agent // shared by the values classed alike (see Detector.intern)
	refs  int32         // clients sending it: at 0 (all evicted) it is forgotten
	// purpose is what the robot it names is for (agents.Purpose), for the
	// site's content-use preferences: its place in Detector.purposes, so
	// that the record of a value takes 40 bytes, not 56 (a botnet's log
	// holds a quarter of a million of them).
	purpose uint16
	// dummy: the value ends as Apache's dummy connections' do
	// (ownServer), found once for the value: the verdicts asked it of
	// every client, a read of its User-agent's last bytes each, 37 ms of
	// the churn log's Result (CPU profiles of 3 runs).
	dummy bool
	// place is its place in its agentTable, by which a parked client
	// names it (parked.agent).
	place uint32
}

// client is everything the detectors keep about one client.
type client struct {
	ip    string
	ua    *agentInfo
	first stamp
	last  lastStamp // its second an offset from first's, as the record's other seconds (seconds.go)
	// pan1: the panel of its only request so far, while pan is nil
	// (panels.first; 0: none), in what was the record's padding.
	pan1 onePanel

	bytes int64
	// Counts of requests and of kinds of them: 32 bits, stopping at the
	// top (inc32), as no client makes 4 billion requests of a log
	// robowatch reads whole, and a client record is what a log of a
	// million clients is made of.
	requests  uint32
	pages     uint32
	assets    uint32
	head      uint32
	errors    uint32 // 4xx and 5xx answers
	notFound  uint32
	referers  uint32 // requests that carried a Referer
	posts     uint32
	robotsTxt uint32 // fetches of /robots.txt
	// The fields below are in order of size, so that the record does not
	// pad: 240 bytes. Records sit in
	// clientTable's chunks, so a record's every 8 bytes more is 8 bytes
	// a client (TestClientRecordSize).
	flags clientFlags
	sf    sessionFlags // its sessions' flags (conduct.go)
	fp    fingerprint  // which of favicon, robots.txt and sitemap.xml it asked for (scanner.go)
	epoch uint16       // the Detector's epoch at its last timed request (step.go)
	sess  sessionState // its sessions, for its conduct (conduct.go)
	evict evictSlot    // its place among the clients Config.MaxClients caps
	page  pageView     // where it stands in its page views (pageview.go)

	rate  rate
	x     *clientRare  // what few clients have; nil until one has some (see rare)
	rules *heldRules   // the robots.txt of the client's last request and its groups for it
	bins  clientBins   // its requests on the timeline
	pan   *clientPanel // its answers and paths (panel.go); nil past the panels' bound
}

// clientRare is what a client has only if it fetched robots.txt, broke a
// rule, probed, posted forms fast or is watched. Most clients do none of
// it, and behind one pointer it keeps the record a size class smaller (64
// bytes when it was made): on a log of a quarter of a million clients,
// 16 MB.
type clientRare struct {
	fetches   *robotsFetches    // nil until the first fetch of /robots.txt
	viol      *clientViolations // nil until the first disallowed request
	cached    int64             // requests the robots.txt in force disallows and a copy it could hold allowed
	watch     *watch            // drill-down state; nil unless Config.Watch picks the client
	fastForms uint32            // forms POSTed within FastForm of fetching them
	// quickForms: forms POSTed within QuickForm of fetching them but not
	// within FastForm; http10: requests over HTTP/1.0 (a browser of this
	// century speaks 1.1 or later, a script often 1.0); selfReferer: its
	// first request named itself as its Referer.
	quickForms  uint32
	http10      uint32
	selfReferer bool
	probes      scannerTraits // what it did that scanners do (scanner.go)
	sig         *signatures   // its Web Bot Auth signatures; nil until one (signature.go)
	backoff     *backoff      // its 429 and 503 answers; nil until one (conduct.go)
	// otherMethods: requests with a method other than GET, HEAD and POST
	// (or none), for its conduct.
	otherMethods uint32
	// part: the path (pathHash32) of its last 206 answer; a range of the
	// same file after it continues one download (see rateHit). Here, not
	// in the record: few clients are answered 206.
	part uint32
	inc  *incidentState // its incidents (rate.go); nil until its first
	wide *wideSeconds   // its seconds, whole, once they span 2^32 s (seconds.go)
	// referred: its page views that an operator's product sent (a Referer
	// of Google's, a utm_source=chatgpt.com), by operator; they count as
	// the operator's referred views if the client is judged human.
	referred []referral
	// prefConflicts: pages it was served that the site's preferences
	// decline to a robot of its purpose (prefs.go); prefLine the first
	// such preference, for the drill-down.
	prefConflicts int64
	prefLine      string
	discovery     findings.Discovery // its fetches of AI discovery files (prefs.go)
	headDelayMs   int64              // the Crawl-delay over its first request once its matcher changed (headDelayHeld)
	seedRecent    [][2]int64         // its requests of the last minute of the day before (Config.Seed)
}

// referral counts a client's page views one operator's product sent.
type referral struct {
	operator string
	views    int64
}

// addReferral counts a page view op's product sent.
func (x *clientRare) addReferral(op string) {
	for i := range x.referred {
		if x.referred[i].operator == op {
			x.referred[i].views++
			return
		}
	}
	x.referred = append(x.referred, referral{op, 1})
}

// noRare is the clientRare of a client that has none: read, never written.
var noRare clientRare

// rare returns what few clients have, to read: the zero clientRare when c
// has none.
func (c *client) rare() *clientRare {
	if c.x == nil {
		return &noRare
	}
	return c.x
}

// keepRare returns c's clientRare to write, made on first use.
func (c *client) keepRare() *clientRare {
	if c.x == nil {
		c.x = new(clientRare)
	}
	return c.x
}

// clientFlags are a client's yes-or-no facts, a bit each (a client record
// is what a log of a million clients is made of).
type clientFlags uint8

const (
	// flagAgentField: some request of it came from a line whose layout logs
	// the User-agent and Referer; a client seen only in Common Log Format
	// lines cannot be blamed for sending neither.
	flagAgentField clientFlags = 1 << iota
	// flagRefererField: some request of it came from a line whose layout
	// logs the Referer too; IIS 7's default fields, a load balancer's log
	// and a format string without one log the User-agent alone.
	flagRefererField
	// flagChecked: some request of it was checked against a robots.txt;
	// a robot of hosts --robots gave no file for obeyed nothing.
	flagChecked
	// flagEarly: Events was told of an incident its seconds will open (see
	// rate.crossing).
	flagEarly
	// flagPreflight: it sent a CORS preflight (OPTIONS with a Referer),
	// which only a browser running a page's script does.
	flagPreflight
	// flagRedirected: its last request was answered with a redirect.
	flagRedirected
	// flagIrregular: not a monitor's requests: more than one path, a
	// method other than GET or HEAD, or off the cadence of its first two.
	flagIrregular
	// flagAnnounced: Config.Events was told it is a robot (events.go).
	flagAnnounced
)

// stamp is a record's time as a client keeps it: 16 bytes and no pointer,
// where a time.Time takes 24 with a pointer to its zone, and a client keeps
// two. The zone is kept as its offset, which is all robowatch writes of it.
type stamp struct {
	sec  int64 // Unix seconds
	nsec int32
	off  int32 // seconds east of UTC
}

func stampOf(t time.Time) stamp {
	_, off := t.Zone()
	return stamp{t.Unix(), int32(t.Nanosecond()), int32(off)}
}

func (s stamp) before(u stamp) bool {
	return s.sec < u.sec || s.sec == u.sec && s.nsec < u.nsec
}

// time returns the time again, in a zone of the same offset; the zero
// stamp of a zero time.Time gives it back.
func (s stamp) time() time.Time {
	t := time.Unix(s.sec, int64(s.nsec))
	if s.off == 0 {
		return t.UTC()
	}
	return t.In(fixedZone(s.off))
}

// fixedZones holds a zone per offset seen, shared by every stamp.
var fixedZones sync.Map // int32 -> *time.Location

func fixedZone(off int32) *time.Location {
	if l, ok := fixedZones.Load(off); ok {
		return l.(*time.Location)
	}
	l, _ := fixedZones.LoadOrStore(off, time.FixedZone(zoneName(off), int(off)))
	return l.(*time.Location)
}

// zoneName names a zone by its offset, "+0530", as logparse does.
func zoneName(off int32) string {
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	h, m := off/3600, off%3600/60
	return string([]byte{sign, byte('0' + h/10%10), byte('0' + h%10), byte('0' + m/10), byte('0' + m%10)})
}

// inc32 adds one to a count, which stops at its largest value.
func inc32(n *uint32) {
	if *n < math.MaxUint32 {
		*n++
	}
}

// robotsFetches is how a client's fetches of /robots.txt went.
type robotsFetches struct {
	first  time.Time      // the earliest
	latest int64          // the latest, in Unix seconds (for the Crawl-delay pace: crawlDelay)
	status [4]statusCount // the first four status codes answered, with counts
	last   int32          // the status of the latest GET of it
	// lastFor: the robots.txt --robots gives for the host of that GET (nil
	// when none); the status says nothing of other hosts' files.
	lastFor *history
	lastAt  int64 // the latest GET's time, in Unix seconds

	// The latest 2xx GET of a host with versions (okFor; nil: none): its
	// time and the version it got, told by its size or by the time.
	okFor    *history
	okAt     int64
	okVer    int
	okBySize bool

	served      findings.Served // the answers, by what RFC 9309 makes of them (conduct.go)
	state       robotsState     // what the answers so far leave it holding
	hops        uint8           // redirects in a row
	unreachable int64           // its requests while robots.txt was unreachable: not judged
	maxGap      int64           // the longest it crawled on one copy before fetching again, in seconds
	unjudged    int64           // its sessions with unreachable requests and no violation

	// For its edge (edges.go): the host of its latest fetch, its latest
	// request before its first fetch, and whether the state was carried
	// from the day before (Config.Seed) rather than fetched here.
	host      string
	before    int64
	hasBefore bool
	seeded    bool
}

// statusCount is how often one status code was answered.
type statusCount struct {
	code int32
	n    int32
}

// sweepEvery is how many records pass between sweeps of idle clients.
const sweepEvery = 1 << 12

// New returns a Detector with cfg's thresholds (zero fields: defaults).
func New(cfg Config) *Detector {
	cfg = cfg.withDefaults()
	d := &Detector{
		cfg:     cfg,
		horizon: cfg.Now().Add(FutureTolerance).Unix(),
		th: thresholds{
			burst:        uint32(cfg.BurstPer10s),
			sustained:    uint32(cfg.SustainedPer60s),
			maxIncidents: cfg.MaxIncidentsPerClient,
			maxPaths:     cfg.MaxIncidentPaths,
			curves:       new(curveBudget),
			pool:         new(windowPool),
		},
		fleets:       new(fleetTally),
		watchMinutes: maxWatchMinutesAll,
	}
	d.checker.init(&d.cfg)
	d.clients.owner = &parkedOwner{agents: &d.uas, rules: &d.matchers.list}
	if cfg.Events != nil {
		d.live.hook = incidentHook{d: d}
		d.th.hook = &d.live.hook
	}
	return d
}

// Pass tells the detector of a record that another shard judges (--shard):
// it moves the log's clock, so that lateness and rate windows are as in a
// run over the whole log, and it shows which fields the log has (a log
// whose records carry Referers makes "never a Referer" a sign), but it is
// no one's request here.
func (d *Detector) Pass(r *logparse.Record) {
	if d.result != nil {
		return
	}
	q := request{r: r, path: r.Path()}
	q.facts = d.paths.of(q.path)
	q.res = q.facts.res
	d.countLog(r, &q)
	if sec := r.Time.Unix(); !r.Time.IsZero() && !d.ahead(sec) {
		d.setZone(r.Time)
		d.watchStep(sec)
		d.tick(sec)
	}
}

// setZone takes the zone of the log's first timed record (not dated in
// the future) as the zone the report shows times in and aligns timeline
// buckets to. A --shard run or a Pool's worker learns it from another's
// record (Pass, a batch's zone): each took its own first record's, so on a
// log across a change to summer time a shard or worker whose clients came
// after it wrote its times in the other zone, and --workers 4 a report
// other than --workers 1's. A record without a time has no zone.
func (d *Detector) setZone(t time.Time) {
	if d.zoned || t.IsZero() {
		return
	}
	_, off := t.Zone()
	d.zoned, d.loc, d.zone = true, t.Location(), int64(off)
}

// tick moves the log's clock to sec, a second other records reached: the
// first record of this detector's own then starts from it, as it would
// in one pass over all of them.
func (d *Detector) tick(sec int64) {
	if d.started {
		d.maxSec = max(d.maxSec, sec)
		return
	}
	if !d.ticked || sec > d.tickMax {
		d.ticked, d.tickMax = true, sec
	}
}

// FutureTolerance is how far past the time robowatch runs a record may be
// dated (clocks and time zones differ) and still count as written by a
// server. One record dated years ahead (a forged or corrupt line:
// 9998-01-01) would otherwise move the log's clock so far that every later
// record is "late", every rate window closes and the incidents vanish. The
// wall clock is the reference, not the log's own clock, so that a log that
// resumes after a quiet night, or a sparse one, is read as it is.
const FutureTolerance = 24 * time.Hour

// ahead reports whether a record at sec is dated in the future.
func (d *Detector) ahead(sec int64) bool { return sec > d.horizon }

// watermark is the latest second that no record still to come may reach.
func (d *Detector) watermark() int64 {
	tol := int64(d.cfg.ReorderTolerance / time.Second)
	if d.maxSec < math.MinInt64+tol+1 {
		return math.MinInt64
	}
	return d.maxSec - tol - 1
}

// sweep makes every client's seconds up to the watermark final and releases
// the buffers of clients that fell idle, so that memory follows the clients
// active in the last minutes, not all clients ever seen.
func (d *Detector) sweep() {
	d.sinceSweep = 0
	wm := d.watermark()
	// Only clients with a window have seconds to make final or buffers to
	// give back; the others' state is final already (Add advances a
	// client before counting its record), so the sweep costs the clients
	// active in the last minutes, not all clients ever seen.
	keep := d.active[:0]
	var idle parkGroup // to park, in turn
	for _, c := range d.active {
		d.advance(c, wm)
		if c.rateIdle() {
			w := c.rate.window
			pair, paired := w.pair, w.paired
			c.rate.release(d.th.pool)
			if d.parkable(c) && idle.add(c, pair, paired) {
				d.parkIdle(&idle)
			}
			continue
		}
		c.rate.window.active = int32(len(keep))
		keep = append(keep, c)
	}
	d.parkIdle(&idle)
	clear(d.active[len(keep):])
	d.active = keep
	// A burst of clients has passed: give its room back. Not below four
	// sweeps' worth of new clients: on a log of one request a client the
	// list grows by sweepEvery between two sweeps and kept a few hundred,
	// and giving back 8,192 places at every sweep to grow them again was
	// 8.6 MB of the 300k churn log's pass allocated (at 8 bytes a place).
	if cap(d.active) > 4*sweepEvery && len(keep) < cap(d.active)/4 {
		d.active = slices.Clone(keep)
	}
	d.sweepAt = len(keep) // a sweep costs no more than the records between two
}

// intern returns the one copy of a this Detector keeps. On a log of a
// million distinct User-agents (a botnet, a CDN edge, a rotating scraper)
// nearly all are browsers of a few hundred releases, classed alike: an
// answer a value was 80 bytes of every distinct string. The set is
// bounded; past it, answers are kept one each.
func (d *Detector) intern(a agents.Agent) *agents.Agent {
	if p := d.agentSet[a]; p != nil {
		return p
	}
	// A copy made here, not &a: taking a's address would move every a to
	// the heap, found in the set or not.
	p := new(agents.Agent)
	*p = a
	if len(d.agentSet) < maxInternedAgents {
		if d.agentSet == nil {
			d.agentSet = make(map[agents.Agent]*agents.Agent)
		}
		d.agentSet[a] = p
	}
	return p
}

// purposeOf returns the place in d.purposes of the purpose of the robot a
// names (agents.Purpose).
func (d *Detector) purposeOf(a *agents.Agent) uint16 {
	if i, ok := d.agentPurpose[a.Name]; ok {
		return i
	}
	i := d.purposeIndex(agents.Purpose(a.Name))
	if len(d.agentPurpose) < maxInternedAgents {
		if d.agentPurpose == nil {
			d.agentPurpose = map[string]uint16{}
		}
		d.agentPurpose[strings.Clone(a.Name)] = i // a.Name may be a view of a User-agent
	}
	return i
}

// fixedPurposes are the first places of every Detector's purposes: "" and
// agents.Purposes, in order. A Pool's merged clients come from several
// Detectors, and their verdicts read a purpose by its place (purposeText).
var fixedPurposes = append([]string{""}, agents.Purposes...)

// purposeIndex returns p's place in d.purposes, added if new; 0 for "".
func (d *Detector) purposeIndex(p string) uint16 {
	if p == "" {
		return 0
	}
	if len(d.purposes) == 0 {
		d.purposes = slices.Clone(fixedPurposes)
	}
	for i, q := range d.purposes {
		if q == p {
			return uint16(i)
		}
	}
	if len(d.purposes) > math.MaxUint16 {
		return 0 // the catalogue has a few dozen: not reached
	}
	d.purposes = append(d.purposes, p)
	return uint16(len(d.purposes) - 1)
}

// maxInternedAgents bounds Detector.intern's set: junk User-agents each
// classed with a name of their own cannot grow it past this.
const maxInternedAgents = 1 << 14

// newClient makes the client of r, whose address and User-agent, capped
// (capText), are ip and ua: views of r, cloned here unless kept has
// copies of them that outlive r; h is the pair's hash (clientTable.find).
// It returns the client and its place in the table.
func (d *Detector) newClient(r *logparse.Record, ip, ua string, kept keptText, h uint64, a *pairAhead) (*client, uint32) {
	var ai *agentInfo
	var uh uint64
	if a != nil && a.hashed {
		ai, uh = d.uas.findHashed(ua, a.uh)
	} else {
		ai, uh = d.uas.find(ua)
	}
	if ai == nil {
		switch {
		case kept.ua == ua:
			ua = kept.ua
		case kept.ip != ip:
			// Both copied, in one allocation: on a log where every client
			// sends its own string, one object a client for the collector
			// to mark and one allocation, not two. The address keeps the
			// string alive no longer than the client does, which keeps
			// its User-agent interned anyway.
			both := ua + ip
			ua, ip = both[:len(ua)], both[len(ua):]
			kept.ip = ip
		default:
			ua = strings.Clone(ua)
		}
		whole := ua
		if len(r.UserAgent) > len(ua) {
			// Capped: classified on what the classifier reads of the whole
			// value, a copy (its answer holds views of what it is given).
			whole = strings.Clone(r.UserAgent[:min(len(r.UserAgent), agents.MaxLen+1)])
		}
		agent := d.intern(d.agents.ClassifyUncached(whole))
		ai = d.uas.add(agentInfo{ua: ua, agent: agent, purpose: d.purposeOf(agent), dummy: strings.HasSuffix(ua, dummyConnection)}, uh)
	}
	ai.refs = min(ai.refs+1, math.MaxInt32-1)
	if kept.ip == ip {
		ip = kept.ip
	} else {
		ip = strings.Clone(ip)
	}
	// The record is zero (clientTable.fresh): what a new client holds
	// other than zero is set one field at a time, not copied whole, which
	// while the collector marks costs a barrier over the record's every
	// pointer word.
	c, at := d.clients.fresh()
	d.made++
	c.ip, c.ua, c.epoch = ip, ai, d.epoch
	c.rate.fin = newRate().fin
	if len(d.cfg.Seed) > 0 {
		d.seed(c)
	}
	if d.cfg.Watch != nil && d.cfg.Watch(c.ip) {
		if d.watched < maxWatched {
			// Watched clients are never folded; a bound keeps a watched
			// address that rotates its User-agent from holding them all.
			c.keepRare().watch = &watch{minutes: map[int64]int{}}
			d.watched++
		} else {
			d.watchDropped++
		}
	}
	d.clients.put(at, h)
	return c, at
}

func (f *robotsFetches) count(code int) {
	for i := range f.status {
		s := &f.status[i]
		if s.n == 0 {
			s.code = int32(code)
		}
		if s.code == int32(code) {
			if s.n < math.MaxInt32 {
				s.n++
			}
			return
		}
	}
}
