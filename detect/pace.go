package detect

import (
	"net/http"
	"strings"

	"github.com/robowatch/robowatch/logparse"
)

// A browser's pace is its page views: a person opens a page and the
// browser, and the page's scripts, ask for the rest. Counting every request
// made a developer reloading a single-page app, a dashboard left open and a
// login a rapid-fire robot. appPart tells the requests that are part of a
// page already open from those that open one.

// appPart reports whether r, a request of c, is part of a page view rather
// than a view of its own: no rate hit. ph is pathHash32 of path, prev
// the second of c's previous request, sec r's.
//
//   - A websocket upgrade (101): a page's script opening its channel.
//   - A CORS preflight (OPTIONS with a Referer): the browser asking leave
//     for a script's call; only a browser sends one.
//
// The rest only from a client that has rendered a page (fetched an image,
// style, script or font, or sent a preflight): a robot that never does
// gets no discount for a Referer it made up.
//
//   - A request whose Referer is a script: a service worker's or a web
//     worker's fetch.
//   - A source map (.map): the browser's developer tools, no Referer.
//   - An API call with a Referer (/api/, /graphql, admin-ajax.php, .json
//     and the like): the page's XHR or fetch. In a single-page app the
//     Referer is the app's route, which the server may never have served.
//   - A call other than GET or HEAD with a Referer (XHR saving a form, a
//     login posted by script; a form posted by the page): the page's
//     view is what the answer leads to.
//   - The path of its previous request again, a second or more after it,
//     with a Referer: an open tab polling an endpoint at a steady interval
//     (a dashboard's /status every 5 s). A flood of one URL, many a second,
//     still counts in full.
//   - The request after a redirect, within a second: the browser following
//     the server's Location, not a page the client chose (a login's POST
//     answered 302, an http to https hop, a redirect loop).
func (c *client) appPart(r *logparse.Record, res resource, path string, ph uint32, prev, sec int64) bool {
	if res == resourceRobotsTxt {
		return false
	}
	if r.Status == http.StatusSwitchingProtocols {
		return true
	}
	if r.Method == http.MethodOptions && r.Referer != "" {
		c.flags |= flagPreflight
		return true
	}
	if c.assets == 0 && c.flags&flagPreflight == 0 || c.requests < 2 {
		return false
	}
	if c.flags&flagRedirected != 0 && sec >= prev && sec-prev <= 1 {
		return true
	}
	if res == resourceAsset {
		return r.Referer == "" && strings.HasSuffix(pathOnly(path), ".map")
	}
	if r.Referer == "" {
		return false
	}
	if isScript(refererPath(r.Referer)) || apiPath(path) {
		return true
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead && r.Method != "" {
		return true
	}
	return ph == c.page.pollHash && sec > prev
}

// isScript reports whether the path p (a Referer's) names a script: what
// a service worker or a web worker fetches names its script as Referer.
func isScript(p string) bool {
	p = pathOnly(p)
	return strings.HasSuffix(p, ".js") || strings.HasSuffix(p, ".mjs")
}

// apiPrefixes are first path segments that single-page apps and their
// frameworks call by script, never a page a person opens.
var apiPrefixes = []string{"api", "graphql", "rest", "ajax", "xhr", "rpc", "wp-json", "jsonapi",
	"socket.io", "sockjs", "sockjs-node", "signalr", "hubs", "ws", "_next", "__data.json"}

// apiPath reports whether p (origin-form, query allowed) is an API call by
// its look: a first segment of apiPrefixes (/api/v1/users), WordPress's
// admin-ajax.php, or a .json or .xml answer.
func apiPath(p string) bool {
	p = pathOnly(p)
	if len(p) < 2 || p[0] != '/' {
		return false
	}
	seg := p[1:]
	if i := strings.IndexByte(seg, '/'); i >= 0 {
		seg = seg[:i]
	}
	for _, a := range apiPrefixes {
		if strings.EqualFold(seg, a) {
			return true
		}
	}
	if strings.HasSuffix(p, "/admin-ajax.php") {
		return true
	}
	dot := strings.LastIndexByte(p, '.')
	if dot < strings.LastIndexByte(p, '/') {
		return false
	}
	ext := p[dot+1:]
	return strings.EqualFold(ext, "json") || strings.EqualFold(ext, "xml")
}

// followMonitor keeps what tells an uptime monitor: one path, asked for
// with GET or HEAD at a steady interval. method and ph are r's, prev and
// sec the seconds of c's previous request and of this one.
func (c *client) followMonitor(method string, ph uint32, prev, sec int64) {
	defer func() { c.page.pollHash = ph }()
	if method != http.MethodGet && method != http.MethodHead && method != "" {
		c.flags |= flagIrregular
	}
	if c.requests < 2 {
		return
	}
	if ph != c.page.pollHash {
		c.flags |= flagIrregular
	}
	gap := sec - prev
	switch {
	case c.requests == 2:
		if gap < 1 || gap > 0xffff {
			c.flags |= flagIrregular
		} else {
			c.page.gap = uint16(gap)
		}
	case c.page.gap == 0:
		c.flags |= flagIrregular
	default:
		// Monitors keep their interval to a second or two; their own
		// clock and the server's queue move it a little.
		want := int64(c.page.gap)
		if d := gap - want; d < -2-want/10 || d > 2+want/10 {
			c.flags |= flagIrregular
		}
	}
}

// KindMonitor is the kind of a robot that asks for one page and nothing
// else at a fixed interval: an uptime monitor.
const KindMonitor = "monitor"

// monitor reports whether c asked for one path only, with GET or HEAD, at
// a steady interval, for at least minRequests requests, never an asset nor
// a Referer: an uptime monitor, whatever its User-agent says.
func (c *client) monitor(minRequests int) bool {
	return c.flags&flagIrregular == 0 && c.page.gap > 0 && c.assets == 0 && c.referers == 0 &&
		int64(c.requests) >= int64(minRequests)
}
