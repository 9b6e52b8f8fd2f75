package detect

import (
	"strconv"
	"strings"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/robots"
)

// maxContentUsage bounds the bytes of a Content-Usage header read: a real
// one is a few dozen; a hostile log may send megabytes.
const maxContentUsage = 1024

// preference counts a page request of c that robots.txt allowed (m: the
// groups that allowed it; nil without a robots.txt) against the site's
// content-use preferences: the lines of robots.txt that cover the path and
// the response's own Content-Usage header, the most restrictive applying
// (draft-ietf-aipref-vocab 7.1). Only pages served (2xx) count: a
// preference is about using content, and an error page gave none.
func (d *Detector) preference(c *client, r *logparse.Record, path string, m *robots.Matcher) {
	var purpose string
	if i := c.ua.purpose; i > 0 {
		purpose = d.purposes[i]
	}
	if purpose == "" || r.Status < 200 || r.Status > 299 {
		return
	}
	var (
		u     robots.Usage
		lines robots.Lines
	)
	if m != nil {
		u, lines = m.Preferences(path)
	}
	var header robots.Usage
	var h string // the Content-Usage header
	if r.Headers != nil {
		h = r.Headers.ContentUsage
	}
	if h != "" && len(h) <= maxContentUsage {
		header = robots.ParseUsage(h)
	}
	if !u.Combine(header).Declines(purpose) {
		return
	}
	x := c.keepRare()
	x.prefConflicts++
	if x.prefLine != "" {
		return
	}
	switch {
	case header.Declines(purpose):
		x.prefLine = "Content-Usage: " + capText(h, MaxStoredPath) + " (response header)"
	case lines.For(purpose, u) != nil:
		line := lines.For(purpose, u)
		x.prefLine = capText(line.Text, MaxStoredPath) + " (robots.txt line " + strconv.Itoa(line.Line) + ")"
	}
}

// discover counts a request of c for a discovery file. path is the target
// as logged; its query does not change the file.
func (d *Detector) discover(c *client, path string) {
	if len(path) < 9 || path[1] != 'l' && path[1] != '.' {
		return // the common case, in two comparisons
	}
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	switch {
	case path == "/llms.txt":
		c.keepRare().discovery.LLMsTxt++
	case path == "/llms-full.txt":
		c.keepRare().discovery.LLMsFullTxt++
	case strings.HasPrefix(path, "/.well-known/") && len(path) > len("/.well-known/"):
		c.keepRare().discovery.WellKnown++
	}
}

// discoveryOf is a copy of d for a report; nil when it counts nothing.
func discoveryOf(d findings.Discovery) *findings.Discovery {
	if d.Total() == 0 {
		return nil
	}
	return &d
}
