package detect

import "strings"

// resource is what a request asked for, as far as a browser's habits go.
type resource uint8

const (
	resourceOther      resource = iota // feeds, downloads, API calls: neither page nor asset
	resourcePage                       // an HTML page: what a person navigates to
	resourceAsset                      // an image, style sheet, script or font a page pulls in
	resourceRobotsTxt                  // /robots.txt
	resourceSubrequest                 // a page-like URL the page viewed a moment ago asked for (see placeInView)
)

// pathOnly cuts the query and fragment off p.
func pathOnly(p string) string {
	// Every request comes here several times (its kind, its panel, its
	// probes, its fingerprint): two memchr-speed scans, not a byte loop.
	if i := strings.IndexByte(p, '?'); i >= 0 {
		p = p[:i]
	}
	if i := strings.IndexByte(p, '#'); i >= 0 {
		p = p[:i]
	}
	return p
}

// classify says what path (origin-form, query allowed) asks for. It goes by
// the file extension of the last path segment, as the server's MIME table
// does; a path without extension or ending in "/" is a page.
func classify(p string) resource {
	p = pathOnly(p)
	if p == "/robots.txt" {
		return resourceRobotsTxt
	}
	slash := strings.LastIndexByte(p, '/')
	seg := p[slash+1:]
	dot := strings.LastIndexByte(seg, '.')
	if dot < 0 {
		return resourcePage
	}
	ext := seg[dot+1:]
	if len(ext) > 8 {
		return resourcePage
	}
	var buf [8]byte
	for i := 0; i < len(ext); i++ {
		c := ext[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	switch string(buf[:len(ext)]) {
	case "html", "htm", "shtml", "xhtml", "php", "asp", "aspx", "jsp", "cgi", "pl", "cfm":
		return resourcePage
	case "css", "js", "mjs", "map",
		"png", "jpg", "jpeg", "gif", "svg", "webp", "avif", "ico", "bmp", "cur",
		"woff", "woff2", "ttf", "otf", "eot",
		"mp4", "webm", "mp3", "ogg", "wav":
		return resourceAsset
	}
	return resourceOther
}

// pathPrefix returns the first segment of p as an admin reads it in a
// robots.txt: "/admin/users" -> "/admin/", "/search?q=x" -> "/search".
func pathPrefix(p string) string {
	p = pathOnly(p)
	if len(p) < 2 {
		return p
	}
	if i := strings.IndexByte(p[1:], '/'); i >= 0 {
		return p[:i+2]
	}
	return p
}

// pathHash is FNV-1a of p: deterministic, so incident path counts do not
// change between runs, and cheap enough for every request of a busy client.
func pathHash(p string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(p); i++ {
		h ^= uint64(p[i])
		h *= 1099511628211
	}
	return h
}

// pathHash32 is pathHash folded to 32 bits.
func pathHash32(p string) uint32 {
	h := pathHash(p)
	return uint32(h ^ h>>32)
}

// viewHash32 is pathHash32 of the page p names, a directory's index page
// ("/shop/index.php?x", IIS's "/Default.aspx") taken for the directory
// ("/shop/?x"): the server answers the one for the other, and a log
// written behind a front proxy that resolves the index (nginx's index
// directive passing "/" on to Apache as "/index.php", or Apache's %U)
// records the page as the file while its parts name the directory as
// their Referer. Without this every part of such a page counted as a page
// of its own. It hashes the two pieces in turn, as pathHash would their
// concatenation, so that nothing is allocated.
func viewHash32(p string) uint32 {
	q := len(p)
	for i := 0; i < len(p); i++ {
		if p[i] == '?' || p[i] == '#' {
			q = i
			break
		}
	}
	head, tail := p[:q], p[q:]
	if i := strings.LastIndexByte(head, '/'); i >= 0 && isIndexPage(head[i+1:]) {
		head = head[:i+1]
	}
	h := fnvAdd(14695981039346656037, head)
	h = fnvAdd(h, tail)
	return uint32(h ^ h>>32)
}

// fnvAdd continues the FNV-1a hash h over s.
func fnvAdd(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// isIndexPage reports whether the file name seg is a directory index as
// servers name it by default (Apache's DirectoryIndex, nginx's index, IIS's
// default documents): index or default with a page's extension, in any
// case (IIS is case-insensitive).
func isIndexPage(seg string) bool {
	dot := strings.IndexByte(seg, '.')
	if dot < 0 || classify("/"+seg) != resourcePage {
		return false
	}
	return strings.EqualFold(seg[:dot], "index") || strings.EqualFold(seg[:dot], "default")
}

// refererPath is the path and query of a Referer URL ("https://host/a?b"
// is "/a?b"); a Referer that is a path already is returned as it is.
func refererPath(ref string) string {
	i := strings.Index(ref, "://")
	if i < 0 {
		return ref
	}
	rest := ref[i+3:]
	j := strings.IndexByte(rest, '/')
	if j < 0 {
		return "/"
	}
	p := rest[j:]
	if k := strings.IndexByte(p, '#'); k >= 0 {
		p = p[:k]
	}
	return p
}

// sameHost reports whether the absolute URL target names the host (and
// port) of the absolute URL referer, whatever their case or scheme.
func sameHost(target, referer string) bool {
	t, r := urlHost(target), urlHost(referer)
	return t != "" && strings.EqualFold(t, r)
}

// urlHost is the authority of an http or https URL: "" for anything else.
func urlHost(u string) string {
	switch {
	case len(u) >= 7 && strings.EqualFold(u[:7], "http://"):
		u = u[7:]
	case len(u) >= 8 && strings.EqualFold(u[:8], "https://"):
		u = u[8:]
	default:
		return ""
	}
	if end := strings.IndexAny(u, "/?#"); end >= 0 {
		u = u[:end]
	}
	if at := strings.LastIndexByte(u, '@'); at >= 0 {
		u = u[at+1:] // user info is no part of the host
	}
	return u
}

// selfReferer reports whether referer, an absolute URL, names target (the
// request's path and query, or its absolute URL) itself: a link to the
// page one is on, which a client's first request cannot have followed.
func selfReferer(target, referer string) bool {
	if target == "" {
		return false
	}
	if referer == target {
		return true
	}
	if urlHost(referer) == "" || strings.IndexByte(referer, '#') >= 0 {
		return false
	}
	return target[0] == '/' && refererPath(referer) == target
}
