package detect

import (
	"iter"
	"math"
	"math/bits"
	"net/netip"
	"strconv"
	"strings"
)

// Scanners look for weaknesses: files a server should never serve (/.env,
// /.git/config), admin tools left open (phpMyAdmin), known-vulnerable
// scripts, the server as an open proxy (CONNECT, absolute URLs). They need
// no User-agent to be told, so this works in Common Log Format and Squid
// logs too. A path a person's browser might request on some site
// (/wp-login.php on a WordPress site) is weak evidence: it counts only when
// the site answered it with an error, and more than once.

// probe is how much a request says that its client is a scanner.
type probe uint8

const (
	probeNone   probe = iota
	probeWeak         // a path people use on some sites: counts when it fails, twice
	probeStrong       // no person's browser asks for this
)

// probePaths are the paths scanners ask for, matched without regard to case
// against the path (query cut off): dotfiles (/.env.local, /.git/config)
// and phpMyAdmin's numbered copies as prefixes, the rest as whole path
// segments, so that /shell, /shell.php and /sdk/ are probes while a
// person's /shellfish-recipes/, /sdk-reference/ or /actuators/ are not.
// Where they come from:
//   - OWASP Web Security Testing Guide, "Review Old Backup and Unreferenced
//     Files" and "Enumerate Infrastructure and Application Admin
//     Interfaces": version-control and environment files, admin consoles.
//   - fail2ban's filters (apache-botsearch, nginx-botsearch, php-url-fopen)
//     and the paths of public scanner templates (Nuclei's exposures and
//     default-logins): phpMyAdmin, phpunit's eval-stdin.php, Spring
//     Actuator, router exploits (/HNAP1, /boaform, /GponForm).
//   - Real logs kept in ../shared (basjes-hackers-access.log): cgi-bin
//     probes, /phpMyAdmin variants, /wp-login.php and /xmlrpc.php sprees.
//   - A honeypot's log on GitHub (hanXen/honeypot_log): ThinkPHP 5's
//     remote code execution (CVE-2018-20062) asked for as /thinkphp/… and
//     /TP/public/index.php; a site on ThinkPHP serves neither directory.
var probePaths = []struct {
	prefix string
	probe  probe
}{
	// Files that hold secrets or source: never a page.
	{"/.env", probeStrong}, {"/.git/", probeStrong}, {"/.git", probeStrong}, {"/.svn/", probeStrong}, {"/.hg/", probeStrong},
	{"/.aws/", probeStrong}, {"/.ssh/", probeStrong}, {"/.htpasswd", probeStrong}, {"/.htaccess", probeStrong},
	{"/.ds_store", probeStrong}, {"/.vscode/", probeStrong}, {"/.idea/", probeStrong}, {"/wp-config.php", probeStrong},
	{"/config.php.bak", probeStrong}, {"/web.config", probeStrong}, {"/.docker", probeStrong},
	// Admin tools and consoles left open.
	{"/phpmyadmin", probeStrong}, {"/pma/", probeStrong}, {"/myadmin", probeStrong}, {"/mysqladmin", probeStrong},
	{"/phpinfo.php", probeStrong}, {"/info.php", probeStrong}, {"/manager/html", probeStrong}, {"/solr/admin", probeStrong},
	{"/actuator", probeStrong}, {"/jmx-console", probeStrong}, {"/console/login", probeStrong},
	// Known-vulnerable scripts and devices.
	{"/vendor/phpunit", probeStrong}, {"/hnap1", probeStrong}, {"/boaform", probeStrong},
	{"/gponform", probeStrong}, {"/setup.cgi", probeStrong}, {"/shell", probeStrong}, {"/cmd.php", probeStrong},
	{"/eval-stdin.php", probeStrong}, {"/remote/fgt_lang", probeStrong}, {"/sdk", probeStrong}, {"/stalker_portal", probeStrong},
	{"/thinkphp", probeStrong}, {"/tp/public/index.php", probeStrong},
	// OpenWrt's LuCI, which no site but a router's serves (and routers keep
	// no access log): scanners ask for it bare and with TP-Link Archer's
	// command injection (CVE-2023-1389), /cgi-bin/luci/;stok=/locale?….
	// Before the weak /cgi-bin/.
	{"/cgi-bin/luci", probeStrong},
	// Debug consoles and deserialisation endpoints that public scanner
	// templates (Nuclei's exposures and cves) ask every site for, and that
	// a production site never links: Symfony's web profiler
	// (/_profiler/phpinfo, /_profiler/latest), Laravel Ignition's remote
	// code execution (CVE-2021-3129), Oracle WebLogic's wls-wsat and
	// _async services (CVE-2017-10271, CVE-2019-2725).
	{"/_profiler", probeStrong}, {"/_ignition/execute-solution", probeStrong},
	{"/wls-wsat/", probeStrong}, {"/_async/asyncresponseservice", probeStrong},
	// Proxy checks and devices' exploits that no site but the device's
	// serves, asked for over hours and days under old browser strings: an
	// open-proxy check (/testproxy.php, in the nginx log a blog post on AWS
	// ELB health checks quotes, under "Firefox/31.0" with rv:32.0), TBK and
	// other DVRs' login and command pages (/login.rsp, /device.rsp,
	// CVE-2024-3721), a DVR's /editBlackAndWhiteList (Daniloday/ubuntu
	// access.log.2, under "Mozila/5.0"), the phpMyAdmin worm muieblackcat,
	// and IP cameras' ONVIF and Hikvision ISAPI endpoints.
	{"/testproxy.php", probeStrong}, {"/login.rsp", probeStrong}, {"/device.rsp", probeStrong},
	{"/editblackandwhitelist", probeStrong}, {"/muieblackcat", probeStrong}, {"/onvif/", probeStrong}, {"/isapi/", probeStrong},
	// Alibaba Nacos's console, whose authentication bypass
	// (CVE-2021-29441, /nacos/v1/auth/users) public PoCs and scanner
	// templates ask every address for; the SystemBC proxy malware's
	// panel, /systembc/password.php, which backdoor checks post to every
	// site (honeypot logs on GitHub: "POST /systembc/password.php" beside
	// /upl.php and /1.php). No site's visitors are sent to either.
	{"/nacos", probeStrong}, {"/systembc", probeStrong},
	// Paths of popular applications: a person may use them on a site that
	// runs one; a scanner asks every site.
	{"/wp-login.php", probeWeak}, {"/xmlrpc.php", probeWeak}, {"/wp-admin", probeWeak}, {"/wp-includes/", probeWeak},
	{"/wp-content/plugins/", probeWeak}, {"/administrator/", probeWeak}, {"/admin.php", probeWeak}, {"/user/login", probeWeak},
	{"/server-status", probeWeak}, {"/cgi-bin/", probeWeak}, {"/owa/", probeWeak}, {"/autodiscover/", probeWeak}, {"/login.action", probeWeak},
	// Akeeba Kickstart's restore.php, left in the root after a site was
	// moved (CVE-2014-7228): a site has it for the hour of a move, a scanner
	// asks every site for it, again day after day (nginx logs quoted on
	// GitHub: 2024-11-16 and 2025-07-11, each a 404).
	{"/restore.php", probeWeak},
}

// weakFiles are WordPress's machine endpoints, asked for by file name
// under whatever directory a blog might be in (/blog/, /wp/, /2019/): a
// WordPress site serves them, to editors and pingbacks, never to a
// reader's browser; a scanner sweeps a dozen directories for them, each
// a 404 (fail2ban's apache-botsearch; silverbullets-2022 and paramcs-2014
// in testdata/corpus). Weak: a failed one twice is a scan.
var weakFiles = []string{"wlwmanifest.xml", "wp-trackback.php", "xmlrpc.php"}

func weakFile(name string) bool {
	if len(name) < len("xmlrpc.php") {
		return false
	}
	for _, f := range weakFiles {
		if strings.EqualFold(name, f) {
			return true
		}
	}
	return false
}

// probeIndex is probePaths by the byte after their leading '/'.
var probeIndex = func() (ix [256][]struct {
	prefix string
	probe  probe
}) {
	for _, e := range probePaths {
		ix[e.prefix[1]] = append(ix[e.prefix[1]], e)
	}
	return ix
}()

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// probeOf says what asking for path (origin form, query included) says.
// Path traversal and /etc/passwd anywhere in it are probes too. A target
// with percent-escapes is also judged as the server reads it: nginx and
// Apache decode %XX in the path before they match a location, so /%2eenv
// and /.%65nv are /.env to them; decoded twice at most, for the
// double-encoded (%252e) and Apache's %%32%65 (CVE-2021-42013).
func probeOf(path string) probe {
	pr := probeOfDecoded(path)
	if pr == probeStrong || strings.IndexByte(path, '%') < 0 {
		return pr
	}
	// A weak probe may hide a strong one: /cgi-bin/.%2e/.%2e/bin/sh.
	for range 2 {
		d, ok := percentDecoded(path)
		if !ok {
			break
		}
		pr = max(pr, probeOfDecoded(d))
		if pr == probeStrong {
			break
		}
		path = d
	}
	return pr
}

// probeOfDecoded is probeOf of a target as it stands, without decoding.
func probeOfDecoded(path string) probe {
	p := pathOnly(path)
	// Before the paths: the weak /cgi-bin/ must not hide PHP-CGI's
	// injection in the query.
	if len(p) < len(path) && phpInjection(path[len(p):]) {
		return probeStrong
	}
	// Every request comes through here: only the entries that start with
	// the path's second byte are compared (a handful), without regard to
	// case, and nothing is copied.
	// A weak path does not end the search: /cgi-bin/ with traversal after
	// it (/cgi-bin/.%2e/.%2e/bin/sh, CVE-2021-41773) is a strong probe.
	found := probeNone
	// nginx merges slashes: //wp-includes/ is /wp-includes/ to it.
	q := p
	for len(q) > 1 && q[1] == '/' {
		q = q[1:]
	}
	if len(q) > 1 {
		for _, e := range probeIndex[lowerByte(q[1])] {
			if len(q) >= len(e.prefix) && strings.EqualFold(q[:len(e.prefix)], e.prefix) && probeEnds(e.prefix, q[len(e.prefix):]) {
				if e.probe == probeStrong {
					return probeStrong
				}
				found = e.probe
				break
			}
		}
	}
	if found == probeNone && weakFile(p[strings.LastIndexByte(p, '/')+1:]) {
		found = probeWeak
	}
	// A lookup needs "{" or its encoding, "%7b": most paths have neither,
	// and the scans for "ndi" stop at every n of a path.
	brace, pct := strings.IndexByte(path, '{') >= 0, strings.IndexByte(path, '%') >= 0
	if (brace || pct) && log4Shell(path) || brace && log4jNested(path) {
		return probeStrong
	}
	if onlySlashes(p) {
		return probeStrong
	}
	if dotfileBelowRoot(p) {
		return probeStrong
	}
	// Path traversal, plain or percent-encoded, and the file it is after.
	// Most paths have neither ".." nor '%': two memchr-speed scans.
	if traversal(path) {
		return probeStrong
	}
	if pct && (strings.Contains(path, "%2e%2e") || strings.Contains(path, "%2E%2E")) {
		return probeStrong
	}
	if i := strings.Index(path, "/etc/passwd"); i >= 0 && passwdEnds(path[i+len("/etc/passwd"):]) {
		return probeStrong
	}
	return found
}

// The files a scanner's fingerprint run asks for and nothing else.
const (
	fpFavicon = 1 << iota
	fpRobotsTxt
	fpSitemap
	fpRoot     // the home page, /
	fpConfig   // /config.json, a single-page app's settings
	fpSecurity // /.well-known/security.txt
	// fpReferred is no file: some request of the client carried a Referer.
	fpReferred = 1 << 7
)

// fpFiles are the fingerprint files that are no page: what a person
// types in by hand one at a time, if at all.
const fpFiles = fpRobotsTxt | fpSitemap | fpConfig | fpSecurity

// fingerprintSeconds: a fingerprint run asks for its files within this
// many seconds; a person typing them in one after another takes longer.
// Two runs under old browser strings (Daniloday/ubuntu access.log.1 and
// .3: SeaMonkey 2.7 and Konqueror 3.5) took 2 and 5 seconds.
const fingerprintSeconds = 10

// fingerprintOf is the bit of path among the fingerprint files, 0 for any
// other. Leading slashes are merged as nginx merges them, so //robots.txt,
// the form of the runs above, is /robots.txt.
func fingerprintOf(path string) uint8 {
	p := pathOnly(path)
	for len(p) > 1 && p[1] == '/' {
		p = p[1:]
	}
	switch p {
	case "/favicon.ico":
		return fpFavicon
	case "/robots.txt":
		return fpRobotsTxt
	case "/sitemap.xml", "/sitemap_index.xml":
		return fpSitemap
	case "/":
		if len(path) > 1 && path[1] == '/' {
			// "//", "///": a path trick (onlySlashes), not the home page.
			return 0
		}
		return fpRoot
	case "/config.json":
		return fpConfig
	case "/.well-known/security.txt":
		return fpSecurity
	}
	return 0
}

// run reports a fingerprint run: at least three fingerprint files, two of
// them no page, no asset and no Referer on any request, all within
// fingerprintSeconds (span: from the client's first request to its last).
// Pages may come along: the runs above asked for / and the page it
// redirects to. A person's browser opening the home page and its favicon
// asks for two, and pulls in the page's assets with the page as Referer;
// a site's own /config.json is fetched by its app with the page as
// Referer.
func (fp fingerprint) run(span int64, assets uint32) bool {
	files := fp.mask &^ fpReferred
	return fp.mask&fpReferred == 0 && assets == 0 && span <= fingerprintSeconds &&
		bits.OnesCount8(files) >= 3 && bits.OnesCount8(files&fpFiles) >= 2
}

// scannerTraits are what a client did that scanners do, beyond its
// fingerprint: kept in clientRare, as few clients do any of it.
type scannerTraits struct {
	strong     uint32 // requests for probe paths no person asks for
	weakFailed uint32 // requests for application paths that the site answered with an error
	proxy      uint32 // CONNECT
	absolute   uint32 // absolute URLs with no virtual host (over HTTP/1) and tunnelled CONNECTs: probes for an open proxy, unless the log is a proxy's
	junk       uint32 // requests without method and target: TLS handshakes, binary or empty request lines
	own        uint16 // absolute URLs of the host its Referer names (saturating: a flag with a count)
	first      string // its first probe, capped, for the evidence
}

// fingerprint is which of favicon, robots.txt and sitemap.xml a client
// asked for, kept in the record: every request sets it.
type fingerprint struct {
	mask uint8 // fpFavicon … fpSecurity, and fpReferred
	only bool  // and never anything else
}

// addProbe counts one request of c. target is as sent, path its origin
// form, and pf path's facts.
func (c *client) addProbe(pf *pathFacts, method, target, path, vhost, protocol, referer string, status int, first bool) {
	bit := pf.fp
	c.fp.mask |= bit
	if referer != "" {
		c.fp.mask |= fpReferred
	}
	if first {
		c.fp.only = bit != 0
	} else if bit == 0 {
		c.fp.only = false
	}
	if c.sf.head&headJunk != 0 && (method != "" || target != "") {
		c.spillJunk()
	}
	switch {
	case method == "" && target == "":
		// No request line, or bytes that are none: a TLS handshake, a
		// port scanner's probe, a connection closed before a request
		// (nginx's "-" with 400 or 408).
		if first {
			c.sf.head |= headJunk
		} else if c.sf.head&headJunk == 0 {
			c.keepRare().probes.junk++
		}
		return
	case tunnelled(method, status):
		// A tunnel the server opened: a probe that found an open proxy,
		// unless the log is a proxy's (counted with absolute URLs).
		s := &c.keepRare().probes
		s.absolute++
		s.note(method + " " + target)
		return
	case method == "CONNECT":
		s := &c.keepRare().probes
		s.proxy++
		s.note(method + " " + target)
		return
	case absoluteTarget(target, vhost, protocol):
		if sameHost(target, referer) {
			// The site's own page (its Referer names the host), written as
			// only a proxy is sent one: no probe for an open proxy, but no
			// browser either.
			if s := &c.keepRare().probes; s.own < math.MaxUint16 {
				s.own++
			}
			return
		}
		// An absolute URL to a server that is not a proxy: a probe for an
		// open one. (Load balancers log absolute URLs of their own and
		// their formats give the host, so vhost; Varnish and a reverse
		// proxy Squid write every request so: scanner sees the log's
		// traits.)
		s := &c.keepRare().probes
		s.absolute++
		s.note(method + " " + target)
		return
	}
	switch pf.probe(path) {
	case probeStrong:
		s := &c.keepRare().probes
		s.strong++
		s.note(path)
	case probeWeak:
		if status >= 400 {
			s := &c.keepRare().probes
			s.weakFailed++
			s.note(path)
		}
	}
}

func (s *scannerTraits) note(what string) {
	if s.first == "" {
		// A copy: what is a view of a record the reader reuses.
		s.first = strings.Clone(capText(what, 80))
	}
}

// firstProbe is the first probe noted, "" if none was.
func (s *scannerTraits) firstProbe() string { return s.first }

// scanner says, in words, why the client is a scanner; "" if it is not.
// kind is the kind of its User-agent: the favicon, robots.txt and sitemap
// run is a scanner's only under a browser's (or no) name; a declared
// crawler fetching robots.txt and the sitemap is doing its job. fp is the
// client's fingerprint, span the seconds from its first request to its
// last, assets the images, styles, scripts and fonts it fetched.
func (s *scannerTraits) scanner(fp fingerprint, span int64, assets uint32, browserLike, proxyLog bool) string {
	proxied := s.proxy
	if !proxyLog {
		proxied += s.absolute
	}
	switch {
	case s.strong > 0:
		return "asked " + times(int64(s.strong)) + " for paths scanners probe, first " + s.firstProbe()
	case s.weakFailed >= 2:
		return "asked " + times(int64(s.weakFailed)) + " for application paths the site does not have, first " + s.firstProbe()
	case proxied > 0:
		return "used the server as a proxy " + times(int64(proxied)) + ", first " + s.firstProbe()
	case browserLike && fp.only && fp.mask == fpFavicon|fpRobotsTxt|fpSitemap:
		// All three: a browser shown /robots.txt asks for /favicon.ico
		// by itself, so those two are the site's administrator checking
		// the file as often as a scanner.
		return "asked for nothing but favicon.ico, robots.txt and sitemap.xml: a fingerprinting run"
	case browserLike && fp.run(span, assets):
		return "asked for " + fp.files() + " within " + strconv.FormatInt(span, 10) + " s, without a Referer or an asset: a fingerprinting run"
	}
	return ""
}

// files names the fingerprint files asked for, in a fixed order.
func (fp fingerprint) files() string {
	var names []string
	for _, f := range [...]struct {
		bit  uint8
		name string
	}{{fpRoot, "/"}, {fpFavicon, "favicon.ico"}, {fpRobotsTxt, "robots.txt"}, {fpSitemap, "sitemap.xml"}, {fpConfig, "config.json"}, {fpSecurity, "security.txt"}} {
		if fp.mask&f.bit != 0 {
			names = append(names, f.name)
		}
	}
	return strings.Join(names, ", ")
}

// dummyConnection ends the User-agent Apache sends when it connects to
// itself to wake an idle child ("Apache/2.4.25 (Debian) PHP/7.3.20
// (internal dummy connection)").
const dummyConnection = "(internal dummy connection)"

// ownServer reports whether c is the web server connecting to itself:
// Apache's dummy connections, from a loopback address. The same
// User-agent from anywhere else is someone's imitation of it.
func (c *client) ownServer() bool {
	if !c.ua.dummy {
		return false
	}
	a, err := netip.ParseAddr(c.ip)
	return err == nil && a.Unmap().IsLoopback()
}

// junkOnly reports whether none of c's requests was an HTTP request.
func (c *client) junkOnly() bool {
	return c.sf.head&headJunk != 0 || int64(c.rare().probes.junk) == int64(c.requests)
}

// spillJunk keeps in clientRare the junk requests before c's first HTTP
// request, which is its last: all but that one were junk, and counted as
// other methods.
func (c *client) spillJunk() {
	c.sf.head &^= headJunk
	n := c.requests - 1
	x := c.keepRare()
	x.probes.junk = uint32(n)
	x.otherMethods = uint32(min(n, math.MaxUint32))
}

// otherMethods is the count of c's requests with a method other than GET,
// HEAD and POST (or none).
func (c *client) otherMethods() int64 {
	if c.sf.head&headJunk != 0 {
		return int64(c.requests) // 32 bits and saturating, as otherMethods
	}
	return int64(c.rare().otherMethods)
}

// tunnelled reports a CONNECT the server answered with a tunnel (2xx).
func tunnelled(method string, status int) bool {
	return method == "CONNECT" && status >= 200 && status < 300
}

// absoluteTarget reports a request for an absolute URL ("GET http://…")
// from a log that names no virtual host for it, over HTTP/1 (or with no
// protocol logged): what only a proxy is sent. An HTTP/2 or HTTP/3 request
// carries its scheme and authority, and HAProxy (2.1 on) logs it as an
// absolute URL: every browser's request on a site that speaks HTTP/2 was
// a probe for an open proxy.
func absoluteTarget(target, vhost, protocol string) bool {
	// Asked twice of every record: nearly all are origin-form, and one
	// byte tells.
	if len(target) < len("http://") || target[0] != 'h' {
		return false
	}
	if vhost != "" || strings.HasPrefix(protocol, "HTTP/2") || strings.HasPrefix(protocol, "HTTP/3") {
		return false
	}
	return strings.HasPrefix(target, "http://") || strings.HasPrefix(target, "https://")
}

// probeEnds reports whether a path that starts with the probe prefix is
// that probe: rest is what follows the prefix.
func probeEnds(prefix, rest string) bool {
	switch {
	case strings.HasPrefix(prefix, "/.") || strings.HasSuffix(prefix, "/") || prefix == "/phpmyadmin":
		return true
	case strings.IndexByte(prefix[strings.LastIndexByte(prefix, '/'):], '.') >= 0:
		// A file name (/wp-config.php, /web.config): its backup and editor
		// copies (/wp-config.php~, .php_bak, .php-backup) are probes too.
		return true
	case prefix == "/sdk":
		// VMware vCenter's web-services endpoint, which scanners ask for
		// bare or as /sdk/vimService…; many sites have an /sdk/ section.
		return rest == "" || rest[0] == '?' || len(rest) >= 4 && strings.EqualFold(rest[:4], "/vim")
	}
	return segmentEnds(rest)
}

// segmentEnds reports whether rest starts where a path segment or a file
// name ends: nothing, '/', a file extension, a query or parameters, or an
// encoded byte (%00 after /etc/passwd).
func segmentEnds(rest string) bool {
	if rest == "" {
		return true
	}
	switch rest[0] {
	case '/', '.', '?', ';', '&', '%':
		return true
	}
	return false
}

// log4Shell reports a Log4j lookup in the target, the Log4Shell exploit
// (CVE-2021-44228): ${jndi:ldap://…}, plain or percent-encoded
// ($%7Bjndi:, %24%7Bjndi%3A), which a site's URLs never hold.
func log4Shell(path string) bool {
	return lookupAfter(path, "ndi") || lookupAfter(path, "NDI")
}

// lookupAfter reports "jndi:" (any case before ndi) after "{" or "%7b", in
// path, found by its tail ndi.
func lookupAfter(path, ndi string) bool {
	for i := range indexes(path, ndi) {
		if i == 0 || path[i-1]|0x20 != 'j' {
			continue
		}
		after, before := path[i+3:], path[:i-1]
		if !(strings.HasPrefix(after, ":") || len(after) >= 3 && strings.EqualFold(after[:3], "%3a")) {
			continue
		}
		if strings.HasSuffix(before, "{") || len(before) >= 3 && strings.EqualFold(before[len(before)-3:], "%7b") {
			return true
		}
	}
	return false
}

// phpInjection reports a query that carries PHP code execution no site's
// links do: ThinkPHP 5's remote code execution sent to any index.php
// (?s=/Index/\think\app/invokefunction&function=call_user_func_array&…,
// CVE-2018-20062) and PHP-CGI's argument injection
// (?-d+allow_url_include%3don+-d+auto_prepend_file%3dphp://input,
// CVE-2012-1823 and CVE-2024-4577), as honeypots log them.
func phpInjection(query string) bool {
	for _, s := range [...]string{"call_user_func_array", "invokefunction", "allow_url_include", "auto_prepend_file"} {
		if strings.Contains(query, s) {
			return true
		}
	}
	return false
}

// dotfileBelowRoot reports a secret dotfile of probePaths asked for in a
// directory: scanners try /api/.env, /core/.env, /backend/.env and
// /app/.git/config in every directory they guess (a site behind Cloudflare,
// in a log on GitHub: Daniloday/ubuntu access.log.1). Below the root the
// name must end its segment: /blog/.environment-friendly-tips is a page.
func dotfileBelowRoot(p string) bool {
	for i := range indexes(p, "/.") {
		if i == 0 {
			continue // the root's own: probePaths' entries
		}
		rest := p[i:]
		for _, e := range probeIndex['.'] {
			if len(rest) >= len(e.prefix) && strings.EqualFold(rest[:len(e.prefix)], e.prefix) &&
				(strings.HasSuffix(e.prefix, "/") || segmentEnds(rest[len(e.prefix):])) {
				return e.probe == probeStrong
			}
		}
	}
	return false
}

// traversal reports a ".." that is a whole path segment (or a parameter's
// value) followed by a slash, plain or encoded: what climbs out of the web
// root. One inside a name is none: Internet Explorer 8 read a CSS font list
// as one URL and asked 35 times for /font/roboto/Roboto-Thin.woff2%22)%20
// format(%22woff2%22),%20url(%22../font/… (1geek0/weblog access.log).
func traversal(path string) bool {
	for i := range indexes(path, "..") {
		after, before := path[i+2:], path[:i]
		if !(strings.HasPrefix(after, "/") || len(after) >= 3 && strings.EqualFold(after[:3], "%2f")) {
			continue
		}
		if before == "" {
			return true
		}
		switch before[len(before)-1] {
		case '/', '\\', '=', '.', '?', '&', ';', ':':
			// "....//" too, which a filter that deletes "../" once makes "../".
			return true
		}
		if len(before) >= 3 && (strings.EqualFold(before[len(before)-3:], "%2f") || strings.EqualFold(before[len(before)-3:], "%5c")) {
			return true
		}
	}
	return false
}

// indexes yields the index of each occurrence of sub in s, left to right,
// found at strings.Index's speed; sub is not empty.
func indexes(s, sub string) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < len(s); i++ {
			j := strings.Index(s[i:], sub)
			if j < 0 || !yield(i+j) {
				return
			}
			i += j
		}
	}
}

// passwdEnds reports whether what follows "/etc/passwd" ends the file name:
// also its backup copies /etc/passwd- and /etc/passwd~, not a page named
// /etc/passwd-explained.html.
func passwdEnds(rest string) bool {
	if len(rest) > 0 && (rest[0] == '-' || rest[0] == '~') {
		rest = rest[1:]
		return rest == "" || rest[0] == '?' || rest[0] == '&' || rest[0] == '%'
	}
	return segmentEnds(rest)
}

// onlySlashes reports a path of three slashes or more and nothing else:
// ///, //// asked for one after another, each with the one before as its
// Referer, a scanner's test of how the server normalises paths. No link
// of a site is written so, and no person types it.
func onlySlashes(p string) bool {
	if len(p) < 3 {
		return false
	}
	for i := 0; i < len(p); i++ {
		if p[i] != '/' {
			return false
		}
	}
	return true
}

// log4jNested reports a Log4j lookup nested or defaulted to hide "jndi"
// from filters (CVE-2021-44228 and CVE-2021-45046 as scanners send them):
// ${${lower:j}ndi:…}, ${${::-j}${::-n}…}, ${j${::-n}di:…},
// ${${env:X:-j}ndi…}, ${${k8s:k5:-J}…}. A site's broken template leaves
// "${id}" or "${url}" in a link, with no colon and no nesting: none of
// these.
func log4jNested(s string) bool {
	for i := range indexes(s, "${") {
		rest := s[i+2:]
		if strings.HasPrefix(rest, "${") || strings.HasPrefix(rest, "::-") {
			return true
		}
		end := strings.IndexByte(rest, '}')
		if end < 0 {
			end = len(rest)
		}
		look := rest[:end]
		colon := strings.IndexByte(look, ':')
		if colon < 0 {
			continue
		}
		switch strings.ToLower(look[:colon]) {
		case "lower", "upper":
			return true
		}
		if strings.Contains(look[colon:], ":-") {
			// A default value: ${env:X:-j}, ${sd:k5:-:}.
			return true
		}
	}
	return false
}

// percentDecoded decodes the %XX escapes of s once, as a server decodes a
// path; ok is false when there is nothing to decode, or when every escape
// is a space or a byte of a UTF-8 sequence (the paths of sites in other
// languages, which no probe hides in): those are not copied.
func percentDecoded(s string) (string, bool) {
	worth := false
	for i := 0; i+2 < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		if b, ok := unhex2(s[i+1], s[i+2]); ok && b > ' ' && b < 0x80 {
			worth = true
			break
		}
	}
	if !worth {
		return "", false
	}
	buf := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if b, ok := unhex2(s[i+1], s[i+2]); ok {
				buf = append(buf, b)
				i += 2
				continue
			}
		}
		buf = append(buf, s[i])
	}
	return string(buf), true
}

// unhex2 is the byte two hex digits spell.
func unhex2(a, b byte) (byte, bool) {
	x, ok1 := unhex(a)
	y, ok2 := unhex(b)
	return x<<4 | y, ok1 && ok2
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// homeOnly reports whether every request of c was for the home page, /
// (and the favicon a browser adds by itself), with no asset.
func (c *client) homeOnly() bool {
	files := c.fp.mask &^ fpReferred
	return c.fp.only && c.assets == 0 && files&fpRoot != 0 && files&^(fpRoot|fpFavicon) == 0
}
