package detect

// pageView is where a client stands in its page views: what makes the parts
// of a page (its assets, what it pulls in with the page as Referer, its
// scripts' calls and preflights, the hop after a redirect) one view with it,
// so that a browser's pace is its page views, not its requests (pace.go).
// It lives in the client record: 24 bytes without padding.
type pageView struct {
	// The last page fetched with GET (a form's, for the pace of its POST)
	// and the last one viewed (not one a page pulled in), as pathHash
	// folded to 32 bits (a false match is one in four billion), and when,
	// as offsets from the client's first second (seconds.go).
	viewAt, formAt     secOff
	viewHash, formHash uint32
	// pollHash: the path of its last request (pathHash32), and gap the
	// seconds between its first two: an open tab polling one endpoint asks
	// for the same path at a steady interval, and an uptime monitor asks
	// for nothing else (see appPart and monitor).
	pollHash uint32
	// subHash: the last request taken for part of a page view (see
	// fromReferer), as pathHash folded to 16 bits; a later request that
	// came from it shows it was a page after all.
	subHash uint16
	gap     uint16
}

// pageViewSeconds is how long after a page its sub-resources come: a
// browser asks for them as it parses the page, within a second or two.
const pageViewSeconds = 2

// viewing reports whether c viewed a page in the pageViewSeconds up to
// sec, the second of a request with a time (timed): one whose parts may
// still come.
func (c *client) viewing(sec int64, timed bool) bool {
	if c.page.viewHash == 0 || !timed {
		return false
	}
	at := c.second(c.page.viewAt, wideView)
	return sec >= at && sec-at <= pageViewSeconds
}

// placeInView decides what q is to c's page views. A page asked for again
// while its parts still come is a page, and its view ends (a browser does
// not pull a page into itself, nor load it twice in two seconds). A
// page-like or other request whose Referer is the page being viewed is
// part of that view (resourceSubrequest: no page, no rate hit); a page
// whose Referer is what was taken for such a part shows that part was a
// page after all, and counts now. What a page's scripts and the browser
// ask for while the page is open is part of its view, however long it
// stays open (appPart).
func (c *client) placeInView(q *request) {
	r := q.r
	getOrHead := r.Method == "GET" || r.Method == "HEAD"
	// A page view is known by viewHash32, which takes a directory's index
	// page for the directory: the view of /shop/index.php is the one a
	// Referer of /shop/ names.
	if q.page {
		q.vh = q.facts.viewHash(q.path)
	}
	q.reviewed = q.page && q.vh == c.page.viewHash && c.viewing(q.sec, q.timed) && getOrHead
	if q.reviewed {
		c.page.viewHash = 0
	}
	if (q.page || q.res == resourceOther) && getOrHead && r.Referer != "" {
		switch c.fromReferer(q) {
		case refererView:
			q.res = resourceSubrequest
		case refererPart:
			inc32(&c.pages)
			q.hits++
		}
	}
	if q.res != resourceSubrequest && q.timed {
		q.part = c.appPart(r, q.res, q.path, q.ph32, q.prev, q.sec)
		if q.part && (q.res == resourceOther || q.res == resourcePage && getOrHead) {
			q.res = resourceSubrequest
		}
	}
}

// refererMatch is what a request's Referer makes of it (client.fromReferer).
type refererMatch uint8

const (
	refererNone refererMatch = iota // nothing: a page or request of its own
	refererView                     // part of the page being viewed
	refererPart                     // a page that came from what was taken for a part of a view
)

// fromReferer reports what q, a page-like or other GET or HEAD with a
// Referer, is by that Referer. Part of the page this client fetched a
// moment ago: an image or a script served from a URL without an extension
// (/image/1234, /thumb?id=9), a link followed at once, or what the page's
// scripts load that is neither page nor asset by its extension
// (/data.json, /manifest.webmanifest, "/a.min.js type=" from a stray
// attribute). It is no page and no asset (it may be a link a robot
// followed). Coming from what was taken for such a part: that was a page,
// followed on, or a robot walking links, each request's Referer the one
// before, would count every other page only.
func (c *client) fromReferer(q *request) refererMatch {
	p := &c.page
	ref := viewHash32(refererPath(q.r.Referer))
	if ref == p.viewHash && c.viewing(q.sec, q.timed) {
		if q.page {
			p.subHash = uint16(q.vh ^ q.vh>>16)
		}
		return refererView
	}
	if q.page && p.subHash != 0 && uint16(ref^ref>>16) == p.subHash {
		p.subHash = 0
		return refererPart
	}
	return refererNone
}

// pulledIn reports whether referer names the page this client is viewing:
// what that page pulls in and fails is the site's broken link, not the
// client's doing. A Referer of some other page (a robot's made-up one)
// buys nothing.
func (p *pageView) pulledIn(referer string) bool {
	return referer != "" && p.viewHash != 0 && viewHash32(refererPath(referer)) == p.viewHash
}

// followPage moves c's views on past q: a page fetched with GET is the form
// a POST may answer, and opens a view unless it was the page viewed again;
// the page a form's answer is (a login, a search, an order) is viewed as
// any other, its parts naming the POSTed URL as their Referer.
func (c *client) followPage(q *request) {
	get := q.r.Method == "GET"
	form := get && q.page
	view := q.res == resourcePage && (get && !q.reviewed || q.r.Method == "POST" && q.r.Status >= 200 && q.r.Status < 300)
	if !form && !view {
		return
	}
	p := &c.page
	at, ok := c.narrow(q.sec)
	if form {
		p.formHash, p.formAt = q.ph32, at
	}
	if view {
		p.viewHash, p.viewAt = q.vh, at
	}
	if !ok {
		// Kept whole (seconds.go); the offsets just set are not read.
		if form {
			c.setWide(wideForm, q.sec)
		}
		if view {
			c.setWide(wideView, q.sec)
		}
	}
}

// formAge returns how long after the GET of the page at ph32 a POST to it
// at sec came; false if the last page fetched with GET was another, or
// came later.
func (c *client) formAge(ph32 uint32, sec int64) (int64, bool) {
	if ph32 != c.page.formHash {
		return 0, false
	}
	at := c.second(c.page.formAt, wideForm)
	if sec < at {
		return 0, false
	}
	return sec - at, true
}

// inView reports whether q is an asset without a Referer in the seconds
// after a page: a browser that sends none (a privacy setting, a proxy that
// strips it, a log without the field) pulls in the page's images the same
// way, and its pace is the page's. Only from the page's own moment: images
// fetched on and on after it still count.
func (c *client) inView(q *request) bool {
	return q.res == resourceAsset && q.r.Referer == "" && c.viewing(q.sec, q.timed)
}

// redirected keeps whether c's last request was answered with a redirect:
// the browser follows it at once (appPart).
func (c *client) redirected(status int) {
	if status >= 300 && status < 400 {
		c.flags |= flagRedirected
	} else {
		c.flags &^= flagRedirected
	}
}
