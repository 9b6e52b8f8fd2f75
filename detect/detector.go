// Package detect decides, on one streaming pass over log records, which
// clients are robots and why, and which of their requests robots.txt forbids.
package detect

import (
	"math"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/robots"
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
	uas    map[string]*agentInfo // interned User-agent values with their class
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
	seeds    map[clientKey]*ClientEdge // Config.Seed by client, made at the first client
	recent   *client                   // the client of the last record, if still in clients
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
	other        Other
	unlisted     unlisted      // findings of folded clients: counted in Other, no longer listed
	otherClients distinctCount // the distinct clients folded into other
	otherRobots  distinctCount // those of them judged robots when folded (a client folded twice is one)
	folded       foldedNetworks
	seenClients  distinctCount // every distinct client admitted, under a cap
	heap         []*client     // tracked clients by weight, when MaxClients caps them; see evict.go
	result       *Result
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
	// that the record of a value takes 32 bytes, not 48 (a botnet's log
	// holds a quarter of a million of them).
	purpose uint16
}

// client is everything the detectors keep about one client.
type client struct {
	ip          string
	ua          *agentInfo
	first, last stamp

	requests int64
	bytes    int64
	// Counts of kinds of requests: 32 bits, stopping at the top (inc32),
	// as no client makes 4 billion requests of a log robowatch reads whole,
	// and a client record is what a log of a million clients is made of.
	pages     uint32
	assets    uint32
	head      uint32
	errors    uint32 // 4xx and 5xx answers
	notFound  uint32
	referers  uint32 // requests that carried a Referer
	posts     uint32
	robotsTxt uint32 // fetches of /robots.txt
	// The fields below are in order of size, so that the record has no
	// padding: 288 bytes, a size the allocator has (296 would take 320).
	flags clientFlags
	sf    sessionFlags // its sessions' flags (conduct.go)
	// subHash: the last request taken for part of a page view (see add),
	// as pathHash folded to 16 bits; a later request that came from it
	// shows it was a page after all.
	subHash uint16
	fp      fingerprint // which of favicon, robots.txt and sitemap.xml it asked for (scanner.go)
	epoch   uint16      // the Detector's epoch at its last timed request (step.go)

	// pollHash: the path of its last request (pathHash32), and gap the
	// seconds between its first two: an open tab polling one endpoint asks
	// for the same path at a steady interval, and an uptime monitor asks
	// for nothing else (see appPart and monitor). 8 bytes more a client.
	gap      uint16
	pollHash uint32

	// The last page fetched with GET and the last one viewed (not one a
	// page pulled in), as pathHash folded to 32 bits (a false match is one
	// in four billion), and when.
	formHash, viewHash uint32
	sess               sessionState // its sessions, for its conduct (conduct.go)
	evict              evictSlot    // its place among the clients Config.MaxClients caps
	formSec, viewSec   int64

	rate    rate
	x       *clientRare     // what few clients have; nil until one has some (see rare)
	robots  *robots.Robots  // the robots.txt of the client's last request
	matcher *robots.Matcher // its groups for the client's User-agent
	bins    clientBins      // its requests on the timeline
	pan     *clientPanel    // its answers and paths (panel.go); nil past the panels' bound
}

// clientRare is what a client has only if it fetched robots.txt, broke a
// rule, probed, posted forms fast or is watched. Most clients do none of
// it, and behind one pointer it keeps the record at 256 bytes, not 320: on
// a log of a quarter of a million clients, 16 MB.
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
	// referred: its page views that an operator's product sent (a Referer
	// of Google's, a utm_source=chatgpt.com), by operator; they count as
	// the operator's referred views if the client is judged human.
	referred []referral
	// prefConflicts: pages it was served that the site's preferences
	// decline to a robot of its purpose (prefs.go); prefLine the first
	// such preference, for the drill-down.
	prefConflicts int64
	prefLine      string
	discovery     Discovery  // its fetches of AI discovery files (prefs.go)
	headDelayMs   int64      // the Crawl-delay over its first request, for its edge (edges.go)
	seedRecent    [][2]int64 // its requests of the last minute of the day before (Config.Seed)
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

	served      Served      // the answers, by what RFC 9309 makes of them (conduct.go)
	state       robotsState // what the answers so far leave it holding
	hops        uint8       // redirects in a row
	unreachable int64       // its requests while robots.txt was unreachable: not judged
	maxGap      int64       // the longest it crawled on one copy before fetching again, in seconds
	unjudged    int64       // its sessions with unreachable requests and no violation

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
		uas:          make(map[string]*agentInfo),
		clients:      newClientTable(),
		fleets:       new(fleetTally),
		watchMinutes: maxWatchMinutesAll,
	}
	d.checker.init(&d.cfg)
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
	path := r.Path()
	res := classify(path)
	d.counts.count(r, path, res)
	if !d.driven {
		d.fleets.count(r, path, res)
	}
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

// Add feeds one record to the detectors. Records must come from a single
// goroutine, in log order; Add after Result is ignored. Add copies what it
// keeps of r, so r's memory may be reused (logparse's ReuseRecord).
func (d *Detector) Add(r *logparse.Record) {
	if d.result != nil {
		return
	}
	d.records++
	path := r.Path()
	res := classify(path)
	d.counts.count(r, path, res)
	if !d.driven {
		d.fleets.count(r, path, res)
	}
	sec, timed := r.Time.Unix(), !r.Time.IsZero()
	future := timed && d.ahead(sec)
	if !future && timed {
		d.watchStep(sec)
	}
	if future {
		// Counted for its client below, but it moves neither the log's
		// clock nor its span, and takes no part in rates or the timeline.
		d.future++
	} else if d.setZone(r.Time); !d.started {
		d.started = true
		d.maxSec = sec
		if d.ticked {
			d.maxSec = max(sec, d.tickMax)
		}
		d.first, d.last = r.Time, r.Time
	} else {
		d.maxSec = max(d.maxSec, sec)
		if r.Time.Before(d.first) {
			d.first = r.Time
		}
		if r.Time.After(d.last) {
			d.last = r.Time
		}
	}

	// Consecutive lines often come from one client (a page and its
	// assets): comparing with the last one skips hashing the User-agent.
	ip, ua := r.Client, r.UserAgent
	if len(ip) > MaxStoredClient || len(ua) > MaxStoredAgent {
		ip, ua = capText(ip, MaxStoredClient), capText(ua, MaxStoredAgent)
	}
	c := d.recent
	if c == nil || c.ip != ip || c.ua.ua != ua {
		c = d.clients.get(ip, ua)
		if c == nil {
			var floor int64
			if d.capped() {
				floor = d.evictLightest()
			}
			c = d.newClient(r, ip, ua)
			d.admit(c, floor)
			if d.cfg.MaxClients > 0 {
				// Only a cap can fold a client and bring it back: without
				// one, the table's size is the exact count.
				d.seenClients.add(clientHash(c.ip, c.ua.ua))
			}
		}
		d.recent = c
	}

	c.requests++
	d.touched(c)
	prevSec := c.last.sec
	if t := stampOf(r.Time); c.requests == 1 {
		c.first, c.last = t, t
	} else if t.before(c.first) {
		c.first = t
	} else if c.last.before(t) {
		c.last = t
	}
	if r.Bytes > 0 {
		c.bytes = addBytes(c.bytes, r.Bytes)
	}
	if r.Method == "HEAD" {
		inc32(&c.head)
	}
	if r.Protocol == "HTTP/1.0" {
		inc32(&c.keepRare().http10)
	}
	if c.requests == 1 && r.Referer != "" && selfReferer(r.Target, r.Referer) {
		c.keepRare().selfReferer = true
	}
	if r.Referer != "" {
		inc32(&c.referers)
	}
	if !r.NoAgentField {
		c.flags |= flagAgentField
		if !r.NoRefererField {
			c.flags |= flagRefererField
		}
	}
	pageLike := res == resourcePage
	var hits uint32 // rate hits: this request's, and one for a page found late
	ph := pathHash(path)
	ph32 := uint32(ph ^ ph>>32) // pathHash32
	// The page being viewed, asked for again while its parts still come:
	// a browser does not pull a page into itself, nor load it twice in two
	// seconds. A robot does, sending the site's home page as the Referer of
	// everything and fetching that page now and then: each fetch renewed
	// the page view, and its hundreds of requests a second passed as the
	// parts of one page (no page count, no rate hit). The request is a
	// page, and the view ends: what comes next with that Referer counts
	// until the page is viewed afresh.
	// A page view is known by viewHash32, which takes a directory's index
	// page for the directory: the view of /shop/index.php is the one a
	// Referer of /shop/ names.
	var vh uint32
	if pageLike {
		vh = viewHash32(path)
	}
	reviewed := pageLike && vh == c.viewHash && c.viewing(sec, timed) && (r.Method == "GET" || r.Method == "HEAD")
	if reviewed {
		c.viewHash = 0
	}
	if (pageLike || res == resourceOther) && (r.Method == "GET" || r.Method == "HEAD") && r.Referer != "" {
		ref := viewHash32(refererPath(r.Referer))
		if ref == c.viewHash && c.viewing(sec, timed) {
			// Asked for by the page this client fetched a moment ago: an
			// image or a script served from a URL without an extension
			// (/image/1234, /thumb?id=9), or a link followed at once. It
			// is part of that page view, not a page of its own: no page
			// count, no rate hit; nor an asset, as it may be a link a
			// robot followed. So is what the page's scripts load that is
			// neither page nor asset by its extension (/data.json,
			// /manifest.webmanifest, a script whose src the server logs
			// with a stray attribute, "/a.min.js type="): a developer
			// reloading such a page on a real site was a rapid-fire
			// robot on those alone.
			if pageLike {
				c.subHash = uint16(vh ^ vh>>16)
			}
			res = resourceSubrequest
		} else if pageLike && c.subHash != 0 && uint16(ref^ref>>16) == c.subHash {
			// Coming from what was taken for part of a page view: that
			// was a page, followed on (a robot walking links, each
			// request's Referer the one before, would otherwise count
			// every other page only, and stay under the rate threshold
			// at twice its pace).
			inc32(&c.pages)
			hits++
			c.subHash = 0
		}
	}
	// What a page's scripts and the browser ask for while the page is open
	// is part of its view, however long it stays open (appPart).
	part := false
	if res != resourceSubrequest && timed {
		part = c.appPart(r, res, path, ph32, prevSec, sec)
		if part && (res == resourceOther || res == resourcePage && (r.Method == "GET" || r.Method == "HEAD")) {
			res = resourceSubrequest
		}
	}
	c.followMonitor(r.Method, ph32, prevSec, sec)
	if r.Status >= 300 && r.Status < 400 {
		c.flags |= flagRedirected
	} else {
		c.flags &^= flagRedirected
	}
	if r.Status >= 400 && r.Status < 600 && !((res == resourceAsset || res == resourceSubrequest) && r.Referer != "" &&
		c.viewHash != 0 && viewHash32(refererPath(r.Referer)) == c.viewHash) {
		// An asset that the page this client just viewed pulled in, and
		// that failed, is the site's broken link, not the client's doing:
		// a person on a site whose images 404 was "mostly errors" and,
		// with an old browser, a robot. A Referer of some other page (a
		// robot's made-up one) buys nothing.
		inc32(&c.errors)
		if r.Status == 404 {
			inc32(&c.notFound)
		}
	}
	fp := fingerprintOf(path)
	c.addProbe(fp, r.Method, r.Target, path, r.VHost, r.Protocol, r.Referer, r.Status, c.requests == 1)
	d.pan.add(c, path, r.Status)
	// A page a person was sent to: the Referer (or ChatGPT's utm_source)
	// names an operator's product. A redirect is no view: the browser asks
	// for its target with the same Referer, and that one counts.
	if pageLike && (r.Method == "GET" || r.Method == "") && !(r.Status >= 300 && r.Status < 400 && r.Status != http.StatusNotModified) &&
		(r.Referer != "" || strings.IndexByte(r.Target, '?') >= 0) {
		if op := d.referrals.Of(r.Referer, r.Target); op != "" {
			c.keepRare().addReferral(op)
		}
	}
	switch res {
	case resourcePage:
		inc32(&c.pages)
	case resourceAsset:
		// A browser asks for the favicon by itself, page or no page; a
		// scanner's fingerprint run asks for it too: it shows nothing.
		if fp != fpFavicon {
			inc32(&c.assets)
		}
	case resourceRobotsTxt:
		if r.Method != "GET" && r.Method != "" {
			// A HEAD or POST of /robots.txt reads no rules: no fetch
			// (a log without methods is taken to GET it).
			break
		}
		inc32(&c.robotsTxt)
		x := c.keepRare()
		if x.fetches == nil {
			x.fetches = &robotsFetches{latest: sec, seeded: true}
		}
		f := x.fetches
		if f.seeded {
			// The first fetch here (a state carried from the day before,
			// Config.Seed, is not one).
			f.first, f.seeded = r.Time, false
			if c.requests > 1 {
				f.before, f.hasBefore = prevSec, true
			}
		} else if r.Time.Before(f.first) {
			f.first = r.Time
		}
		if c.requests > 1 && prevSec > f.latest {
			// The copy of the fetch before served it until its last request.
			f.maxGap = max(f.maxGap, prevSec-f.latest)
		}
		f.latest = max(f.latest, sec)
		f.count(r.Status)
		f.last = int32(r.Status)
		// The answer is about the file of the host asked (RFC 9309: a
		// robots.txt applies to its own host): a 404 on one virtual host
		// is no leave to ignore another's.
		f.lastFor = d.checker.robotsFor(r.VHost)
		if f.host != r.VHost {
			f.host = strings.Clone(r.VHost)
		}
		f.lastAt = sec
		if h := f.lastFor; h != nil && len(h.vers) > 1 && r.Status >= 200 && r.Status < 300 && (f.okFor != h || sec >= f.okAt) {
			h.resolve(d.loc)
			f.okFor, f.okAt = h, sec
			f.okVer, f.okBySize = h.got(sec, r.Bytes)
		}
		f.serve(r.Status, r.Bytes, f.lastFor)
	}

	if w := c.rare().watch; w != nil {
		w.add(r, path, res == resourceRobotsTxt, &d.watchMinutes)
	}
	if r.SignatureInput != "" && d.cfg.Keys != nil {
		d.checkSignature(c, r)
	}

	switch r.Method {
	case "GET":
		if pageLike {
			c.formHash, c.formSec = ph32, sec
		}
		if res == resourcePage && !reviewed {
			c.viewHash, c.viewSec = vh, sec
		}
	case "POST":
		inc32(&c.posts)
		if ph32 == c.formHash && sec >= c.formSec {
			switch took := sec - c.formSec; {
			case took <= int64(d.cfg.FastForm/time.Second):
				inc32(&c.keepRare().fastForms)
			case took <= int64(QuickForm/time.Second):
				inc32(&c.keepRare().quickForms)
			}
		}
		// The page a form's answer is (a login, a search, an order) is
		// viewed as any other: the browser pulls in its parts with the
		// POSTed URL as their Referer. Without a view they were pages and
		// rate hits each.
		if res == resourcePage && r.Status >= 200 && r.Status < 300 {
			c.viewHash, c.viewSec = vh, sec
		}
	}

	// An asset fetched with a Referer is a browser pulling in what a page
	// needs: dozens in a second are normal and do not count against the rate
	// threshold (the peaks still count every request). Neither do the
	// ranges of one file after the first (206 answers for one path): a
	// media player buffering a podcast or a video asks for dozens in
	// seconds, and it is one download.
	continued := false
	if r.Status == http.StatusPartialContent {
		continued = c.rate.part == ph32 && c.requests > 1
		c.rate.part = ph32
	}
	// No request at all (a TLS handshake, an empty connection) is junk,
	// counted apart: it is no page and no one's rapid-fire.
	junk := r.Method == "" && r.Target == ""
	// An asset without a Referer in the seconds after a page: a browser
	// that sends none (a privacy setting, a proxy that strips it, a log
	// without the field) pulls in the page's images the same way, and
	// its pace is the page's. A dashboard of 40 graphs opened in one
	// second was a rapid-fire robot on its images alone. Only from the
	// page's own moment: images fetched on and on after it still count.
	inView := res == resourceAsset && r.Referer == "" && c.viewing(sec, timed)
	if !(res == resourceAsset && r.Referer != "") && !inView && res != resourceSubrequest && !continued && !part && !junk {
		hits++
	}
	// A log format without times has no rates: every record would fall
	// into one second of the year 1.
	if !future {
		d.addToTimeline(c, r.Time)
	}
	if timed && !future {
		if c.epoch != d.epoch {
			// The clock went back since c's last request: its window
			// starts again (step.go).
			c.epoch = d.epoch
			d.restart(c, d.watermark())
		}
		d.advance(c, d.watermark())
		idle := c.rate.window == nil
		if !c.rate.add(sec, hits, r.Bytes, r.Status, ph, d.th.pool) {
			d.late++
		}
		if idle && c.rate.window != nil {
			c.evict.active = int32(len(d.active))
			d.active = append(d.active, c)
		}
	}

	var violated, unreachable bool
	var j checkResult
	if d.checker.enabled {
		var before int64
		if f := c.rare().fetches; f != nil {
			before = f.unreachable
		}
		violated, j = d.check(c, r, path, res)
		unreachable = c.rare().fetches != nil && c.rare().fetches.unreachable > before
	}
	if res == resourcePage && !violated {
		d.preference(c, r, path, j.m)
	}
	d.discover(c, path)
	d.conduct(c, r, sec, prevSec, future, res == resourceRobotsTxt, violated, unreachable)
	if d.cfg.Events != nil {
		var v *Violation
		if violated && c.flags&flagAnnounced != 0 {
			v = &Violation{IP: c.ip, UserAgent: c.ua.ua, Time: r.Time, Method: capText(r.Method, MaxStoredMethod),
				Path: capText(path, MaxStoredPath), Status: r.Status, Group: j.m.Group(), RobotsTxtFrom: j.ver.fromText()}
			if j.rule != nil {
				v.Rule, v.Line = j.rule.Text, j.rule.Line
			}
		}
		d.stream(c, sec, !timed || future, res == resourceRobotsTxt, violated, v)
	}

	d.sinceSweep++
	if d.sinceSweep >= max(sweepEvery, d.sweepAt) {
		d.sweep()
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
	for _, c := range d.active {
		d.advance(c, wm)
		if c.rate.idle() {
			c.rate.release(d.th.pool)
			c.evict.active = -1
			continue
		}
		c.evict.active = int32(len(keep))
		keep = append(keep, c)
	}
	clear(d.active[len(keep):])
	d.active = keep
	if cap(d.active) > 4096 && len(keep) < cap(d.active)/4 {
		d.active = slices.Clone(keep) // a burst of clients has passed: give its room back
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

// purposeIndex returns p's place in d.purposes, added if new; 0 for "".
func (d *Detector) purposeIndex(p string) uint16 {
	if p == "" {
		return 0
	}
	if len(d.purposes) == 0 {
		d.purposes = append(d.purposes, "")
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
// (capText), are ip and ua: views of r, cloned here.
func (d *Detector) newClient(r *logparse.Record, ip, ua string) *client {
	ai := d.uas[ua]
	if ai == nil {
		ua = strings.Clone(ua)
		whole := ua
		if len(r.UserAgent) > len(ua) {
			// Capped: classified on what the classifier reads of the whole
			// value, a copy (its answer holds views of what it is given).
			whole = strings.Clone(r.UserAgent[:min(len(r.UserAgent), agents.MaxLen+1)])
		}
		ai = &agentInfo{ua: ua, agent: d.intern(d.agents.ClassifyUncached(whole))}
		ai.purpose = d.purposeOf(ai.agent)
		d.uas[ua] = ai
	}
	ai.refs = min(ai.refs+1, math.MaxInt32-1)
	c := &client{ip: strings.Clone(ip), ua: ai, rate: newRate(), evict: evictSlot{active: -1}, epoch: d.epoch}
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
	d.clients.put(c)
	return c
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

// addBytes adds byte counts, saturating at math.MaxInt64: a log line may
// claim any size (9223372036854775807 bytes twice is a negative total in
// plain int64 arithmetic), and a report must never show a negative one. A
// saturated total shows as 9223372036854775807, an impossible value that
// reads as "too large to count", and Result.BytesSaturated says so.
func addBytes(a, b int64) int64 {
	if b > 0 && a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
