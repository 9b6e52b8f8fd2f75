package detect

import (
	"hash/maphash"
	"net/netip"
	"strings"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

// A fleet is one script run from many addresses: the same exact browser
// User-agent string at fleetMinAddresses or more addresses in more than one
// network, and not one request under it, at any of them, for an image,
// style, script or font. People who share a browser version share its
// string too, but among ten of them on a site with assets one at least
// loads a page's assets; a fleet copied the string once and fetches bare
// documents (Baidu's bare MSIE 7 string sending GET / from a dozen
// addresses in turn, a WordPress probe string posting /xmlrpc.php from
// seventy). Whether a string is a fleet's is a matter of the whole log, so
// it is counted over every record (Add, Pass, a Pool's Add) and asked only
// once the log is read (Result): a worker or a shard alone sees only its
// networks, and its verdict would change with --workers.
const (
	fleetMinAddresses = 10
	// fleetMaxAgents bounds the strings counted: past it new strings are
	// not counted (a log rotating a User-agent per request would otherwise
	// keep one entry per request). The records come in log order whatever
	// the workers, so the same strings are counted on every run.
	fleetMaxAgents = 1 << 16
	// fleetMaxRequests: a member of a fleet makes a few requests; one that
	// reads on is judged on what it reads.
	fleetMaxRequests = 5
)

// fleetTally counts, per exact User-agent string, the addresses that sent
// it (up to fleetMinAddresses) and whether any request under it was for an
// asset. On a log rotating its User-agent it holds fleetMaxAgents entries
// for the whole pass, so it keeps them without pointers: the entries in
// chunks, the strings end to end in an arena, found by a hash of the
// string. A tally of pointers held four objects an entry (300 bytes, 20 MB
// of a churn log's 95), which the collector read at every cycle.
type fleetTally struct {
	index slotIndex // a string's entry, by the string's maphash
	// chunks: the entries, fleetChunk a chunk, in the order they came. One
	// slice grown by append allocated 13.5 MB on the 300k churn log to keep
	// 2.6 MB (each growth by a quarter a new copy), garbage that brought
	// the collector round sooner.
	chunks  [][]fleetAgent
	entries int32       // entries made
	more    []fleetAddr // the addresses after an entry's first, chained
	text    textArena   // the strings and addresses
	last    int32       // the entry of the previous record's string, +1 (0: none)
	// recent: the entries of strings seen lately, +1, by glanceHash.
	// Records of a log take turns among few strings, and finding one in
	// index hashed all of it (a browser's is 100 bytes and more) for a
	// map lookup: 200 instructions a record on the generated log.
	recent [fleetRecent]int32
	// many: a bit by glanceHash of every string that reached
	// fleetMinAddresses, below which fleet and accountFleet answer 0. Most
	// clients judged (every browser without assets, twice on a churn log:
	// by summarize and by the report) send a string of few addresses, and
	// finding its entry hashed all of it and read an index slot and the
	// string's text, three cache misses a client at Result.
	many [fleetManyWords]uint64
	// frozen: once no record is to be counted (freeze), the answers of
	// fleet and accountFleet for the strings that make a fleet; the
	// entries, index and addresses are let go of then.
	frozen map[string]fleetAnswer
}

// fleetAnswer is what fleet and accountFleet say of a string of a frozen
// tally that makes a fleet: its addresses, and whether it is an account
// fleet.
type fleetAnswer struct {
	n       uint8
	account bool
}

// fleetManyBits is the size of fleetTally.many: 4,096 bits.
const (
	fleetManyBits  = 12
	fleetManyWords = 1 << fleetManyBits / 64
)

// fleetRecent is the size of fleetTally.recent.
const (
	fleetRecentBits = 8
	fleetRecent     = 1 << fleetRecentBits
)

// fleetChunk is the entries in a chunk of fleetTally: 40,960 bytes, five
// pages of the heap.
const fleetChunk = 1024

type fleetAgent struct {
	ua   textRef // the string
	addr textRef // its first address
	next int32   // its second address in fleetTally.more, +1 (0: none)
	n    uint8   // distinct addresses kept, the first fleetMinAddresses
	// asset: an asset (the favicon aside) was fetched under it.
	asset bool
	// requests and account count the requests under the string, and of
	// them those for sign-up and login pages (accountPage).
	requests, account int64
}

// fleetAddr is one of an entry's addresses after its first.
type fleetAddr struct {
	addr textRef
	next int32 // the next, +1 (0: none)
}

// seedFleets seeds fleetTally's hashes, a new seed each run.
var seedFleets = maphash.MakeSeed()

// hashFleet is fleetTally's hash (a variable so a test can make strings
// collide).
var hashFleet = func(ua string) uint64 { return maphash.String(seedFleets, ua) }

// keptText is the fleet tally's copies of a record's User-agent and
// address, capped as a client keeps them, which outlive the record: a new
// client keeps them instead of copies of its own. "" where it has none.
type keptText struct {
	ua, ip string
}

// count adds r, whose origin-form path is path with facts pf and resource
// class res, and returns its copies of r's User-agent and address.
func (f *fleetTally) count(r *logparse.Record, path string, pf *pathFacts, res resource) keptText {
	return f.countAs(r, res, fleetFlagsOf(path, pf, res))
}

// Flags of what a record's path says for the fleet tally (fleetFlagsOf).
const (
	fleetAccount = 1 << iota // not an asset, and an account page (pathFacts.account)
	fleetFavicon             // fingerprintOf says fpFavicon
)

// fleetFlagsOf is what count reads of path, whose facts are pf and
// resource class res: worked out apart (Pool.Route, on the parsers) it
// leaves the goroutine that counts in log order no path to look at.
func fleetFlagsOf(path string, pf *pathFacts, res resource) uint8 {
	var fl uint8
	if res != resourceAsset && pf.account(path) {
		fl |= fleetAccount
	}
	if pf.fp == fpFavicon {
		fl |= fleetFavicon
	}
	return fl
}

// faviconFP is what countFP reads of a path's fingerprint, from its
// fleetFlagsOf flags: Route keeps the flags, not the fingerprint.
func faviconFP(flags uint8) uint8 {
	if flags&fleetFavicon != 0 {
		return fpFavicon
	}
	return 0
}

// countAs is count with what the path says in flags (fleetFlagsOf).
func (f *fleetTally) countAs(r *logparse.Record, res resource, flags uint8) (kept keptText) {
	ua := r.UserAgent
	if len(ua) > MaxStoredAgent {
		ua = capText(ua, MaxStoredAgent) // as the client keeps it
	}
	if ua == "" {
		return kept
	}
	if f.last == 0 || string(f.text.bytes(f.at(f.last-1).ua)) != ua {
		k := glanceHash(ua) >> (64 - fleetRecentBits) // the top bits, which every byte looked at reaches
		if j := f.recent[k]; j != 0 && string(f.text.bytes(f.at(j-1).ua)) == ua {
			f.last = j
		} else {
			i, h, ok := f.find(ua)
			if !ok {
				if f.entries >= fleetMaxAgents {
					return kept
				}
				i = f.add(ua, h)
			}
			f.last = i + 1
			f.recent[k] = f.last
		}
	}
	e := f.at(f.last - 1)
	kept.ua = f.text.view(e.ua)
	e.requests++
	if flags&fleetAccount != 0 {
		e.account++
	}
	if res == resourceAsset && !e.asset && flags&fleetFavicon == 0 {
		e.asset = true
	}
	if e.asset || e.n >= fleetMinAddresses {
		return kept
	}
	kept.ip = f.addAddress(e, capText(r.Client, MaxStoredClient)) // as the client keeps it: a log's host name may be a line long
	return kept
}

// glanceHash is a hash of s's length and of its first, middle and last
// eight bytes, where User-agents differ: a place to look first, checked
// by comparing the strings. Its low bits see only some of those bytes:
// take the top ones.
func glanceHash(s string) uint64 {
	n := len(s)
	var h uint64
	if n < 8 {
		for i := range n {
			h = h<<8 | uint64(s[i])
		}
	} else {
		h = le64(s[:8])*0x9e3779b97f4a7c15 ^ le64(s[n/2-4:n/2+4])*0xc2b2ae3d27d4eb4f ^ le64(s[n-8:])
	}
	return (h ^ uint64(n)) * 0x9e3779b97f4a7c15
}

// le64 is the first eight bytes of s as a little-endian number.
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// find returns the place of ua's entry, and ua's hash for add.
func (f *fleetTally) find(ua string) (int32, uint64, bool) {
	h := hashFleet(ua)
	x := &f.index
	if x.n == 0 {
		return 0, h, false
	}
	tag := tagOf(h)
	for s, ok := x.seek(x.start(h), tag); ok; s, ok = x.seek(x.after(s), tag) {
		if e := int32(x.place(s)); string(f.text.bytes(f.at(e).ua)) == ua {
			return e, h, true
		}
	}
	return 0, h, false
}

// add makes ua's entry, of hash h, which find does not find, and returns
// its place.
func (f *fleetTally) add(ua string, h uint64) int32 {
	i := f.entries
	if i%fleetChunk == 0 {
		f.chunks = append(f.chunks, make([]fleetAgent, fleetChunk))
	}
	f.entries++
	*f.at(i) = fleetAgent{ua: f.text.add(ua)}
	f.index.put(h, uint32(i))
	return i
}

// at returns the entry at place i.
func (f *fleetTally) at(i int32) *fleetAgent {
	return &f.chunks[uint32(i)/fleetChunk][uint32(i)%fleetChunk]
}

// addAddress adds ip to e's addresses unless it is there, and returns
// the tally's copy of it.
func (f *fleetTally) addAddress(e *fleetAgent, ip string) string {
	if e.n == 0 {
		e.addr, e.n = f.text.add(ip), 1
		return f.text.view(e.addr)
	}
	if string(f.text.bytes(e.addr)) == ip {
		return f.text.view(e.addr)
	}
	tail := int32(0) // the last address in f.more, +1
	for next := e.next; next != 0; next = f.more[next-1].next {
		if a := f.more[next-1].addr; string(f.text.bytes(a)) == ip {
			return f.text.view(a)
		}
		tail = next
	}
	a := f.text.add(ip)
	f.more = append(f.more, fleetAddr{addr: a})
	if tail == 0 {
		e.next = int32(len(f.more))
	} else {
		f.more[tail-1].next = int32(len(f.more))
	}
	if e.n++; e.n == fleetMinAddresses {
		k := glanceHash(f.text.view(e.ua)) >> (64 - fleetManyBits)
		f.many[k/64] |= 1 << (k % 64)
	}
	return f.text.view(a)
}

// addresses returns e's addresses, in the order they came.
func (f *fleetTally) addresses(e *fleetAgent) []string {
	if e.n == 0 {
		return nil
	}
	out := make([]string, 0, e.n)
	out = append(out, f.text.string(e.addr))
	for next := e.next; next != 0; next = f.more[next-1].next {
		out = append(out, f.text.string(f.more[next-1].addr))
	}
	return out
}

// fleet reports how many addresses (fleetMinAddresses at most) sent ua, if
// they make a fleet: at least fleetMinAddresses, in more than one network
// (a /24, an IPv6 /48), and no asset fetched under ua.
func (f *fleetTally) fleet(ua string) int {
	if f != nil && f.frozen != nil {
		return int(f.frozen[ua].n)
	}
	e := f.manyEntry(ua)
	if e == nil || !f.spread(e) {
		return 0
	}
	return int(e.n)
}

// accountFleetShare: an account fleet's sign-up and login pages are at
// least accountFleetNum/accountFleetDen of the requests under its string.
const accountFleetNum, accountFleetDen = 3, 4

// accountFleet reports how many addresses (fleetMinAddresses at most) sent
// ua, if they make a fleet, as fleet asks, that spends most of its
// requests (three in four or more) on sign-up and login pages: a
// registration-spam or credential-stuffing campaign run from many proxies
// under one copied string. People who share a browser string read the
// site, and their pages outnumber the one login each makes; this holds
// where the log sees no one's assets too (a front server answers them),
// where fleet alone says nothing.
func (f *fleetTally) accountFleet(ua string) int {
	if f != nil && f.frozen != nil {
		if a := f.frozen[ua]; a.account {
			return int(a.n)
		}
		return 0
	}
	e := f.manyEntry(ua)
	if e == nil || !f.spread(e) || !e.accountShare() {
		return 0
	}
	return int(e.n)
}

// accountShare reports whether sign-up and login pages are
// accountFleetNum/accountFleetDen of e's requests or more.
func (e *fleetAgent) accountShare() bool {
	return e.account*accountFleetDen >= e.requests*accountFleetNum
}

// freeze keeps of f only what fleet and accountFleet answer, once no
// record is to be counted (a Pool's Close): at the end of the 300k churn
// log the 65,536 entries and their index are 3.6 MB of what the report
// holds while it is written, for the few strings that make a fleet. The
// strings' text stays: clients hold views of it (keptText).
func (f *fleetTally) freeze() {
	if f.frozen != nil {
		return
	}
	f.frozen = map[string]fleetAnswer{}
	for i := range f.entries {
		if e := f.at(i); f.spread(e) {
			f.frozen[f.text.view(e.ua)] = fleetAnswer{n: e.n, account: e.accountShare()}
		}
	}
	f.chunks, f.entries, f.more, f.index = nil, 0, nil, slotIndex{}
	f.last, f.recent = 0, [fleetRecent]int32{}
}

// entry returns ua's tally, or nil.
func (f *fleetTally) entry(ua string) *fleetAgent {
	if f == nil {
		return nil
	}
	if i, _, ok := f.find(ua); ok {
		return f.at(i)
	}
	return nil
}

// manyEntry returns ua's tally if it came from fleetMinAddresses addresses
// or more; else nil, or its tally (a string of the same bit in many).
func (f *fleetTally) manyEntry(ua string) *fleetAgent {
	if f == nil {
		return nil
	}
	if k := glanceHash(ua) >> (64 - fleetManyBits); f.many[k/64]&(1<<(k%64)) == 0 {
		return nil
	}
	return f.entry(ua)
}

// spread reports whether e's string came from fleetMinAddresses or more
// addresses in more than one network, with no asset fetched under it.
func (f *fleetTally) spread(e *fleetAgent) bool {
	if e.asset || e.n < fleetMinAddresses {
		return false
	}
	var first netip.Prefix
	for i, a := range f.addresses(e) {
		n, ok := findings.NetworkOf(a)
		if !ok {
			return false // host names: no networks to tell apart
		}
		if i == 0 {
			first = n
		} else if n != first {
			return true
		}
	}
	return false
}

// accountWords are the words (path segments split at '-', '_', '.')
// that name a sign-up or login page: WordPress's wp-login.php, Drupal's
// /user/register, Plone's login_form, Rails' /users/sign_in.
var accountWords = map[string]bool{
	"login": true, "logon": true, "signin": true, "signup": true,
	"register": true, "registration": true,
}

// accountPairs are the same named in two words: Plone's join_form and
// require_login's neighbour, Devise's sign_in and sign_up, log_in.
var accountPairs = map[[2]string]bool{
	{"sign", "in"}: true, {"sign", "up"}: true, {"log", "in"}: true, {"join", "form"}: true,
}

// accountPage reports whether path (the query aside) ends in a sign-up or
// login page: its last segment holds one of accountWords, or two
// neighbouring words of accountPairs, matched whole and in any case.
func accountPage(path string) bool {
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	path = strings.TrimRight(path, "/")
	seg := path[strings.LastIndexByte(path, '/')+1:]
	if seg == "" || len(seg) > 64 {
		return false
	}
	var prev string
	for seg != "" {
		i := strings.IndexAny(seg, "-_.")
		w := seg
		if i >= 0 {
			w, seg = seg[:i], seg[i+1:]
		} else {
			seg = ""
		}
		w = strings.ToLower(w)
		if accountWords[w] || accountPairs[[2]string{prev, w}] {
			return true
		}
		prev = w
	}
	return false
}
