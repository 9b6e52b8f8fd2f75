package detect

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

// RobotScore is the score at which a client is judged a robot.
const RobotScore = 100

// The verdict rule: points per piece of evidence; a client with RobotScore
// (100) points or more is a robot. Strong evidence is enough alone; weak
// evidence only together with more.
//
//	reason      evidence                                                   points
//	scanner     probed for weaknesses (scanner.go): a path no browser asks
//	            for, failed application paths twice, the server as a proxy,
//	            or only favicon, robots.txt and sitemap under a browser's
//	            name                                                        100
//	            ... one failed application path only (/wp-login.php 404),
//	            never an asset (a person may follow a stale link)             50
//	robots-txt  fetched /robots.txt                                          100
//	            ... with a browser User-agent that also loads documents and
//	            their assets (a person reading the file by hand)              20
//	user-agent  declared crawler, HTTP library or tool                       100
//	            empty User-agent (in a log that records User-agents)         100
//	            a browser string that cannot be real (suspicious)            100
//	            not any known browser (unknown)                              100
//	            a browser version superseded 3+ years before the log
//	            (agents.Ancient: browsers update themselves, scripts do not),
//	            counted only with behaviour evidence below (a weak one
//	            too), never alone nor with rate or robots-txt alone           50
//	rate        a rapid-fire incident: over BurstPer10s page requests in
//	            10 s or SustainedPer60s in 60 s (the assets a page pulls
//	            in are part of its page view: no rate hits)                  100
//	            ... by a browser that loads an asset per 4 pages or more and
//	            sends a Referer on most requests (people behind one NAT
//	            address, many tabs opened at once), or by a client seen
//	            only in lines that log neither (Common Log Format) that
//	            loads an asset per 4 pages or more, or by a browser that
//	            does in lines that log no Referer (IIS 7's default fields)    50
//	behaviour   mostly HEAD (HeadShare of >= MinRequests requests);
//	            browsers do not send HEAD                                    100
//	            mostly errors (ErrorShare of >= MinRequests: a 404 spree)     60
//	            a form POSTed within FastForm (2 s) of fetching it, and
//	            never an image, CSS, JS or font: no person fills in a form
//	            that fast on a page they did not see rendered               100
//	            ... by a client that does load assets (password managers
//	            submit logins fast)                                           50
//	            a form POSTed within QuickForm (10 s) of fetching it, and
//	            never an asset                                                50
//	            a HEAD request under a browser's User-agent, and never an
//	            asset: browsers navigate with GET, link checkers with HEAD   100
//	            HTTP/1.0 and HTTP/1.1 from one browser User-agent at one
//	            address: a browser keeps the version it speaks, and only
//	            proxies and scripts speak 1.0 (a proxy does for every
//	            request)                                                      50
//	            its first request names itself as the Referer, and never an
//	            asset: a link to the page one is on, followed before the page
//	            was ever fetched (a person's reload loads the page's assets)  50
//	            nothing but the home page (and the favicon) under a browser's
//	            name, no asset, in a log that sees assets: a person with a
//	            warm cache does it too, so it needs another signal            50
//	            >= MinPages HTML pages and no image, CSS, JS or font (or,
//	            over 2*MinPages pages, fewer than one per 10 pages)           50
//	            >= MinPages HTML pages and never a Referer (in a log that
//	            records Referers; or, over 2*MinPages pages, on fewer than
//	            one request per 10 pages)                                     50
//	            one of many User-agents from one address, or of many
//	            addresses of one IPv6 /64, each used once or twice without an
//	            asset: a rotating User-agent or address (address.go)        100
//	            ... or, in a log that records assets, each used a few times
//	            (a Referer or not), not one of them for an asset            100
//	            >= MinRequests requests of one path only, GET or HEAD, at a
//	            steady interval, never an asset nor a Referer: an uptime
//	            monitor (kind monitor)                                       100
//	            at most fleetMaxRequests (5) requests, no asset, under a
//	            browser string sent from fleetMinAddresses (10) or more
//	            addresses in more than one network, none of which ever
//	            loaded an asset, in a log that records assets: a fleet
//	            (fleet.go)                                                   100
//	            no asset, under a browser string sent from fleetMinAddresses
//	            (10) or more addresses in more than one network, none of
//	            which loaded an asset, three in four of whose requests are
//	            for sign-up and login pages, whether or not the log sees
//	            assets: an account fleet (fleet.go)                         100
//
// So a page-only client that never sends a Referer is a robot (50+50), a
// single missing Referer or a handful of asset-less pages is not. A
// User-agent that names no known browser counts in full: on the labelled
// corpus such strings are bots about 30 times as often as browsers (88
// bots, 3 browsers), and a person's browser always names itself.
const (
	pointsScanner          = 100
	pointsRotating         = 100
	pointsRobotsTxt        = 100
	pointsRobotsTxtPerson  = 20
	pointsDeclared         = 100
	pointsEmptyUA          = 100
	pointsSuspiciousUA     = 100
	pointsUnknownUA        = 100
	pointsAncientUA        = 50
	pointsIncident         = 100
	pointsIncidentBrowsing = 50
	pointsMostlyHead       = 100
	pointsMostlyErrors     = 60
	pointsFastForm         = 100
	pointsOwnAbsolute      = 100
	pointsFastFormAssets   = 50
	pointsQuickForm        = 50
	pointsHeadBrowser      = 100
	pointsHTTPSwitch       = 50
	pointsSelfReferer      = 50
	pointsHomeOnly         = 50
	pointsWeakProbe        = 50
	pointsNoAssets         = 50
	pointsNoReferer        = 50
	pointsMonitor          = 100
	pointsFleet            = 100
)

// logTraits says which fields the log records at all: a Common Log Format
// log has no User-agent and no Referer, and their absence says nothing.
type logTraits struct {
	hasUA, hasReferer bool
	// proxyLog: most requests name an absolute URL with no virtual host
	// (over HTTP/1) or are CONNECTs the server tunnelled, as Varnish's
	// varnishncsa, a reverse-proxy Squid and a forward proxy write every
	// request: there,
	// neither is a probe for an open proxy (through a forward proxy a
	// browser reaches every HTTPS site by CONNECT). A CONNECT refused stays
	// one.
	proxyLog bool
	// hasAssets: at least one request in twenty is for an image, style,
	// script or font. A log of an origin behind a CDN has next to none:
	// there many User-agents from one address "never for an asset" are
	// people behind a carrier's address, not a rotating robot.
	hasAssets bool
	// assetsElsewhere: over frontMinPages pages and fewer than one image,
	// style, script or font (the favicon aside) per assetsElsewhereRatio
	// pages. A front server (nginx serving static files before Apache, a
	// CDN) answers those itself, and the log sees none from anyone:
	// "pages and no assets" says nothing of a client there.
	assetsElsewhere bool
	// fleets: the User-agent strings sent from many addresses (fleet.go);
	// nil while the log is being read by a Pool's worker or a shard, which
	// sees only part of it.
	fleets *fleetTally
}

// frontMinPages and assetsElsewhereRatio decide logTraits.assetsElsewhere:
// a person's page pulls in a few to dozens of assets, so even a log whose
// pages are nine in ten a robot's has several per ten pages; one per
// hundred is a log that does not see them.
const (
	frontMinPages        = 100
	assetsElsewhereRatio = 100
)

// logCounts are what the log's traits are made of, counted over every
// record of the log (Add and Pass; a Pool adds the other workers').
type logCounts struct {
	seen        int64
	withUA      int64 // records with a User-agent: a log without any has no UA signal
	withReferer int64 // likewise for the Referer
	absolute    int64 // records whose target is an absolute URL (over HTTP/1) and that name no virtual host, and CONNECTs tunnelled (2xx)
	assets      int64 // records for images, styles, scripts, fonts
	pages       int64 // records for pages (by their path)
	plainAssets int64 // assets but the favicon, which a front may leave to the back
}

// countFP adds r, of resource class res, whose path's fingerprintOf is fp
// (read for assets only, and only as fpFavicon or not).
func (n *logCounts) countFP(r *logparse.Record, res resource, fp uint8) {
	n.seen++
	if r.UserAgent != "" {
		n.withUA++
	}
	if r.Referer != "" {
		n.withReferer++
	}
	if tunnelled(r.Method, r.Status) || absoluteTarget(r.Target, r.VHost, r.Protocol) {
		n.absolute++
	}
	switch res {
	case resourceAsset:
		n.assets++
		if fp != fpFavicon {
			n.plainAssets++
		}
	case resourcePage:
		n.pages++
	}
}

// plus returns n with o's counts added.
func (n logCounts) plus(o logCounts) logCounts {
	return logCounts{
		seen:        n.seen + o.seen,
		withUA:      n.withUA + o.withUA,
		withReferer: n.withReferer + o.withReferer,
		absolute:    n.absolute + o.absolute,
		assets:      n.assets + o.assets,
		pages:       n.pages + o.pages,
		plainAssets: n.plainAssets + o.plainAssets,
	}
}

func (n logCounts) traits() logTraits {
	return logTraits{hasUA: n.withUA > 0, hasReferer: n.withReferer > 0, proxyLog: n.absolute > 0 && n.absolute*2 >= n.seen,
		hasAssets:       n.assets > 0 && n.assets*20 >= n.seen,
		assetsElsewhere: n.pages >= frontMinPages && n.plainAssets*assetsElsewhereRatio < n.pages}
}

// judgement is the verdict on one client.
type judgement struct {
	score   int
	reasons []string
	details []string
	kind    string // KindScanner or KindJunk; "": the User-agent's kind
}

func (j *judgement) add(reason string, points int, detail string) {
	j.score += points
	if len(j.reasons) == 0 || j.reasons[len(j.reasons)-1] != reason {
		j.reasons = append(j.reasons, reason)
	}
	j.details = append(j.details, detail)
}

// fewPerPages: fewer than one asset (or Referer) per this many pages, over
// at least twice MinPages pages, counts as none.
const fewPerPages = 10

// robot reports whether the evidence makes a robot.
func (j *judgement) robot() bool { return j.score >= RobotScore }

// plain reports whether j holds nothing against its client: the
// judgement{} a verdict can be made from without judging again.
func (j *judgement) plain() bool {
	return j.score == 0 && j.kind == "" && len(j.reasons) == 0 && len(j.details) == 0
}

// judge applies the verdict rule to one client. Reasons come in the fixed
// order scanner, robots-txt, rate, user-agent, behaviour.
func judge(c *client, lt logTraits, cfg *Config) judgement {
	var j judgement
	if c.junkOnly() {
		// Not one HTTP request: a TLS handshake on the plain port, a port
		// scanner's probe, an empty connection. The summary counts them
		// apart; a robot row each would bury the robots that matter.
		j.kind = findings.KindJunk
		return j
	}
	if c.ownServer() {
		// Apache wakes its idle children by connecting to itself
		// ("OPTIONS * HTTP/1.0" from ::1 or 127.0.0.1, the User-agent
		// ending "(internal dummy connection)"): the server, not a
		// visitor, and no part of the robots' share.
		j.kind = findings.KindServer
		return j
	}
	a := c.ua.agent
	weak := j.scannerSignals(c, a, &lt) // weak behaviour signals, each needing another
	j.robotsTxtSignal(c, a)
	j.rateSignal(c, a)
	j.userAgentSignals(c, a, &lt)
	// Behaviour is weighed apart first: an ancient browser counts only
	// with it.
	b := behaviour(c, &lt, cfg)
	weak += j.browserHabits(c, a, &lt, cfg)
	if a.Kind == agents.Browser && (b.score > 0 || weak > 0) {
		// An old browser version alone, or with no more than a busy
		// minute of browsing or a look at robots.txt, is a person on an
		// old machine (the log's own time decides what is old: see
		// agents.Ancient); with behaviour no browser shows, even a weak
		// signal, it is one more sign of a script that copied a
		// User-agent once.
		if why := a.Ancient(c.first.time()); why != "" {
			j.add(findings.ReasonUserAgent, pointsAncientUA, "ancient browser: "+why)
		}
	}
	j.score += b.score
	j.reasons = append(j.reasons, b.reasons...)
	j.details = append(j.details, b.details...)
	j.kindSignals(c, a, &lt, cfg)
	return j
}

// scannerSignals weighs c's probes for weaknesses: a scan makes c a
// scanner; one failed application path and no asset is a weak signal,
// whose count it returns.
func (j *judgement) scannerSignals(c *client, a *agents.Agent, lt *logTraits) (weak int) {
	browserLike := a.Kind == agents.Browser || a.Kind == agents.Empty || a.Kind == agents.Unknown
	if why := c.rare().probes.scanner(c.fp, c.lastSec()-c.first.sec, c.assets, browserLike, lt.proxyLog); why != "" {
		j.add(findings.ReasonScanner, pointsScanner, why)
		j.kind = findings.KindScanner
	}
	if s := &c.rare().probes; j.kind == "" && s.weakFailed == 1 && c.assets == 0 {
		// Once is no scan (a person may follow a stale link to a login
		// page), but with anything else browsers do not do, it is one.
		j.add(findings.ReasonBehaviour, pointsWeakProbe, "asked once for an application path the site does not have, "+s.firstProbe()+", never an asset")
		return 1
	}
	return 0
}

// robotsTxtSignal weighs c's fetches of /robots.txt.
func (j *judgement) robotsTxtSignal(c *client, a *agents.Agent) {
	if c.robotsTxt == 0 {
		return
	}
	fetched := fmt.Sprintf("fetched /robots.txt %s (%s)", times(int64(c.robotsTxt)), c.robotsStatuses())
	// Like a browser: besides robots.txt it opened documents (pages,
	// feeds) and the assets that come with them.
	if a.Kind == agents.Browser && c.assets > 0 && int64(c.requests)-int64(c.assets)-int64(c.robotsTxt) > 0 {
		j.add(findings.ReasonRobotsTxt, pointsRobotsTxtPerson, fetched+" with a browser that also loads pages and assets")
	} else {
		j.add(findings.ReasonRobotsTxt, pointsRobotsTxt, fetched)
	}
}

// rateSignal weighs c's rapid-fire incidents: in full, or half for what
// browses like people at that pace (a browser's share of assets, at least
// one per four pages, and what the log can show of Referers).
func (j *judgement) rateSignal(c *client, a *agents.Agent) {
	n := c.incidentCount()
	if n == 0 && (c.openIncident() != nil || c.flags&flagEarly != 0) {
		// Judged while reading (a live run) in the middle of its first
		// incident, which is filed only once its seconds are past: it
		// counts already, or the worst burst of a live run would be no
		// robot until the client's next request.
		n = 1
	}
	if n == 0 {
		return
	}
	detail := fmt.Sprintf("%d rapid-fire incident%s; peaks %d/1 s, %d/10 s, %d/60 s",
		n, plural(n), c.rate.peak1, c.rate.peak10, c.rate.peak60)
	browserShare := c.assets > 0 && 4*int64(c.assets) >= int64(c.pages)
	switch {
	case a.Kind == agents.Browser && browserShare && 2*int64(c.referers) >= int64(c.requests):
		// Browsing at that pace, with assets and Referers: people behind
		// one carrier's address, a reader opening 25 tabs. The pace alone
		// does not make it a robot; with anything else that browsers do
		// not do, it does. A scraper with a made-up Referer and an image
		// now and then does not get the discount.
		j.add(findings.ReasonRate, pointsIncidentBrowsing, detail+", browsing (assets, Referers on most requests)")
	case c.flags&flagAgentField == 0 && browserShare:
		// The same in Common Log Format lines, which log neither a
		// User-agent nor a Referer: "a browser" and "Referers on most
		// requests" cannot be asked of them, and without a Referer every
		// asset a page pulls in counts against the threshold. The share
		// of assets is what the log can show.
		j.add(findings.ReasonRate, pointsIncidentBrowsing, detail+", browsing (assets; the log records no User-agent or Referer)")
	case a.Kind == agents.Browser && c.flags&flagRefererField == 0 && browserShare:
		// A browser in lines that log its User-agent but no Referer (IIS 7
		// and 7.5 by default, a load balancer, a format string without
		// one): "Referers on most requests" cannot be asked.
		j.add(findings.ReasonRate, pointsIncidentBrowsing, detail+", browsing (assets; the log records no Referer)")
	default:
		j.add(findings.ReasonRate, pointsIncident, detail)
	}
}

// userAgentSignals weighs what c's User-agent says it is.
func (j *judgement) userAgentSignals(c *client, a *agents.Agent, lt *logTraits) {
	switch a.Kind {
	case agents.Crawler:
		j.add(findings.ReasonUserAgent, pointsDeclared, "declared crawler"+because(a.Reason))
	case agents.Tool:
		j.add(findings.ReasonUserAgent, pointsDeclared, "HTTP library or tool"+because(a.Reason))
		if a.Scanner {
			// sqlmap, Nikto, Nuclei by name: a scanner even while its
			// requests look like pages (sqlmap's injections go in the
			// query), for the headline and the scanners block list.
			j.kind = findings.KindScanner
		}
	case agents.Empty:
		if lt.hasUA && c.flags&flagAgentField != 0 {
			j.add(findings.ReasonUserAgent, pointsEmptyUA, "empty User-agent")
		}
	case agents.Suspicious:
		j.add(findings.ReasonUserAgent, pointsSuspiciousUA, "implausible browser User-agent"+because(a.Reason))
	case agents.Unknown:
		j.add(findings.ReasonUserAgent, pointsUnknownUA, "User-agent of no known browser"+because(a.Reason))
	}
}

// mostlyHead reports whether HeadShare of c's requests, and at least
// MinRequests, are HEAD.
func (c *client) mostlyHead(cfg *Config) bool {
	return int64(c.requests) >= int64(cfg.MinRequests) && float64(c.head) >= cfg.HeadShare*float64(c.requests)
}

// noUserAgent reports whether c was seen in lines, or a log, without any
// User-agent.
func (c *client) noUserAgent(lt *logTraits) bool {
	return c.flags&flagAgentField == 0 || !lt.hasUA
}

// behaviour weighs the behaviour evidence that counts in full, apart from
// the rest of the verdict (see judge): HEAD, errors, absolute URLs, fast
// forms, and pages without assets or Referers.
func behaviour(c *client, lt *logTraits, cfg *Config) judgement {
	var b judgement
	if c.mostlyHead(cfg) {
		b.add(findings.ReasonBehaviour, pointsMostlyHead, fmt.Sprintf("%s of %d requests are HEAD", percent(int64(c.head), int64(c.requests)), int64(c.requests)))
	}
	if int64(c.requests) >= int64(cfg.MinRequests) && float64(c.errors) >= cfg.ErrorShare*float64(c.requests) {
		b.add(findings.ReasonBehaviour, pointsMostlyErrors, fmt.Sprintf("%s of %d requests answered 4xx/5xx (%d × 404)",
			percent(int64(c.errors), int64(c.requests)), int64(c.requests), c.notFound))
	}
	if own := c.rare().probes.own; own > 0 && !lt.proxyLog {
		b.add(findings.ReasonBehaviour, pointsOwnAbsolute, fmt.Sprintf("asked %s for this site's pages by absolute URL (GET http://host/…), which browsers send only to a proxy",
			times(int64(own))))
	}
	if fast := c.rare().fastForms; fast > 0 {
		detail := fmt.Sprintf("%d of %d form posts within %v of fetching the form", fast, c.posts, cfg.FastForm)
		if c.assets == 0 {
			// Even where a front serves the assets: no person fills in
			// a form in two seconds, and password managers that do are
			// the rare case the discount below is for.
			b.add(findings.ReasonBehaviour, pointsFastForm, detail+", never an asset")
		} else {
			b.add(findings.ReasonBehaviour, pointsFastFormAssets, detail)
		}
	}
	b.pageSignals(c, lt, cfg)
	return b
}

// pageSignals weighs c's pages without assets or Referers. None at all, or
// hardly any over many pages: one stylesheet fetched once, or a Referer
// sent on the first request only, must not buy a page-only client a clean
// record. A person's browser keeps pulling in assets (revalidated, or new
// images) and sends a Referer on every link followed.
func (j *judgement) pageSignals(c *client, lt *logTraits, cfg *Config) {
	pages := int64(c.pages)
	switch {
	case lt.assetsElsewhere:
		// The log sees no one's assets (see logTraits): no signal.
	case pages >= int64(cfg.MinPages) && c.assets == 0:
		j.add(findings.ReasonBehaviour, pointsNoAssets, fmt.Sprintf("%d pages and no image, CSS, JS or font", c.pages))
	case pages >= 2*int64(cfg.MinPages) && int64(c.assets)*fewPerPages < pages:
		j.add(findings.ReasonBehaviour, pointsNoAssets, fmt.Sprintf("%d pages and only %d image, CSS, JS or font requests", c.pages, c.assets))
	}
	if lt.hasReferer && c.flags&flagAgentField != 0 {
		switch {
		case pages >= int64(cfg.MinPages) && c.referers == 0:
			j.add(findings.ReasonBehaviour, pointsNoReferer, fmt.Sprintf("%d pages and never a Referer", c.pages))
		case pages >= 2*int64(cfg.MinPages) && int64(c.referers)*fewPerPages < pages:
			j.add(findings.ReasonBehaviour, pointsNoReferer, fmt.Sprintf("%d pages and only %d requests with a Referer", c.pages, c.referers))
		}
	}
}

// browserHabits weighs what c did that browsers do not: HEAD without
// assets, and the weak signals (quick forms, a switch to HTTP/1.0, the
// home page alone, its own Referer), whose count it returns.
func (j *judgement) browserHabits(c *client, a *agents.Agent, lt *logTraits, cfg *Config) (weak int) {
	mostlyHead := c.mostlyHead(cfg)
	if a.Kind == agents.Browser && c.head > 0 && c.assets == 0 && j.kind == "" && !mostlyHead {
		// A browser asks for pages with GET; HEAD under its name is a link
		// checker or a scanner's fingerprint. A page's script may send one,
		// but with the page's assets loaded.
		j.add(findings.ReasonBehaviour, pointsHeadBrowser, headBrowserDetail(c.head))
	}
	if c.noUserAgent(lt) && c.head > 0 && int64(c.head) == int64(c.requests) && c.assets == 0 && j.kind == "" && !mostlyHead {
		// In lines that log no User-agent (Common Log Format, HAProxy
		// without captured headers) a browser cannot be asked for, but a
		// browser navigates with GET whatever it is: a client that sent
		// HEAD and nothing else is a link checker or a scanner's first
		// look ("HEAD / HTTP/1.0" at an API host).
		j.add(findings.ReasonBehaviour, pointsHeadBrowser, fmt.Sprintf("only %s, never a GET, in lines that log no User-agent", headCount(c.head)))
	}
	if q := c.rare().quickForms; q > 0 && c.rare().fastForms == 0 && c.assets == 0 {
		weak++
		j.add(findings.ReasonBehaviour, pointsQuickForm, fmt.Sprintf("%d of %d form posts within %v of fetching the form, never an asset", q, c.posts, QuickForm))
	}
	if h := int64(c.rare().http10); a.Kind == agents.Browser && h > 0 && h < int64(c.requests) {
		weak++
		j.add(findings.ReasonBehaviour, pointsHTTPSwitch, fmt.Sprintf("%d of %d requests over HTTP/1.0, the others over a later version, under one browser's User-agent", h, c.requests))
	}
	if a.Kind == agents.Browser && c.homeOnly() && lt.hasAssets && !lt.assetsElsewhere {
		weak++
		j.add(findings.ReasonBehaviour, pointsHomeOnly, homeOnlyDetail(c.requests))
	}
	if c.rare().selfReferer && c.assets == 0 {
		weak++
		j.add(findings.ReasonBehaviour, pointsSelfReferer, "its first request names itself as the Referer, and never an asset")
	}
	return weak
}

// headBrowserDetail and homeOnlyDetail are the details of the commonest
// reasons of a churn log, a browser's User-agent that sent HEAD, or asked
// for the home page only, never an asset: formatted once for a single
// request, the count of 35,000 of its 250,000 clients, each judged twice
// (Result, then the report), where fmt.Sprintf was 49 of the 1,249 perf
// samples of the workers' Results.
func headBrowserDetail(head uint32) string {
	if head == 1 {
		return oneHeadBrowser
	}
	return formatHeadBrowser(head)
}

func homeOnlyDetail(requests uint32) string {
	if requests == 1 {
		return oneHomeOnly
	}
	return formatHomeOnly(requests)
}

var oneHeadBrowser, oneHomeOnly = formatHeadBrowser(1), formatHomeOnly(1)

func formatHeadBrowser(head uint32) string {
	return fmt.Sprintf("%s under a browser's User-agent, never an asset", headCount(head))
}

func formatHomeOnly(requests uint32) string {
	return fmt.Sprintf("%s for the home page and nothing else, never an asset", requestCount(int64(requests)))
}

// kindSignals weighs what makes c a robot of a kind whatever its
// User-agent says: an uptime monitor, a local poller, a fleet.
func (j *judgement) kindSignals(c *client, a *agents.Agent, lt *logTraits, cfg *Config) {
	if c.monitor(cfg.MinRequests) && j.kind == "" {
		// Whatever it calls itself: a browser's tab left open sends a
		// Referer, and pulls in assets when the page changes.
		j.add(findings.ReasonBehaviour, pointsMonitor, fmt.Sprintf("%d requests of one path only, every %d s, never an asset nor a Referer: an uptime monitor", c.requests, c.page.gap))
		j.kind = KindMonitor
	}
	if j.kind == "" && c.noUserAgent(lt) && int64(c.requests) >= int64(cfg.MinRequests) && c.assets == 0 && loopback(c.ip) {
		// The server's own address, in lines that log no User-agent: the
		// machine polling itself (HAProxy's status page, a health check
		// script), not a person, who would be reading pages and their
		// assets through it.
		j.add(findings.ReasonBehaviour, pointsMonitor, fmt.Sprintf("%d requests from the server's own loopback address, never an asset: a local poller", c.requests))
		j.kind = KindMonitor
	}
	if j.kind == "" && a.Kind == agents.Browser && c.assets == 0 && c.requests <= fleetMaxRequests &&
		lt.hasAssets && !lt.assetsElsewhere {
		// Asked of the whole log, once it is read (fleet.go).
		if n := lt.fleets.fleet(c.ua.ua); n > 0 {
			j.add(findings.ReasonBehaviour, pointsFleet, fmt.Sprintf("its exact browser User-agent came from %d or more addresses in several networks, and not one of them loaded an image, CSS, JS or font: a fleet", n))
			return
		}
	}
	if j.kind == "" && a.Kind == agents.Browser && c.assets == 0 {
		// Whether or not the log sees assets: the fleet's own requests,
		// most of them for sign-up and login pages, are the evidence
		// (fleet.go).
		if n := lt.fleets.accountFleet(c.ua.ua); n > 0 {
			j.add(findings.ReasonBehaviour, pointsFleet, fmt.Sprintf("its exact browser User-agent came from %d or more addresses in several networks, none loading an asset, and three in four of its requests are for sign-up and login pages: an account fleet", n))
		}
	}
}

// loopback reports whether ip is a loopback address (127.0.0.0/8, ::1).
func loopback(ip string) bool {
	a, err := netip.ParseAddr(ip)
	return err == nil && a.Unmap().IsLoopback()
}

func headCount(n uint32) string {
	if n == 1 {
		return "a HEAD request"
	}
	return fmt.Sprintf("%d HEAD requests", n)
}

func because(reason string) string {
	if reason == "" {
		return ""
	}
	return ": " + reason
}

func (c *client) robotsStatuses() string {
	var b strings.Builder
	if c.rare().fetches == nil {
		return ""
	}
	for _, s := range c.rare().fetches.status {
		if s.n == 0 {
			break
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		if s.n == 1 {
			fmt.Fprintf(&b, "%d", s.code)
		} else {
			fmt.Fprintf(&b, "%d × %d", s.code, s.n)
		}
	}
	return b.String()
}

func times(n int64) string {
	if n == 1 {
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func percent(part, whole int64) string {
	return fmt.Sprintf("%d%%", part*100/whole)
}

// requestCount says how many requests, "one request" or "3 requests".
func requestCount(n int64) string {
	if n == 1 {
		return "one request"
	}
	return fmt.Sprintf("%d requests", n)
}
