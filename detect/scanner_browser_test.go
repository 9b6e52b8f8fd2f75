package detect

import (
	"testing"

	"github.com/robowatch/robowatch/findings"
)

// TestScannersWithBrowserUserAgents reads real log lines of scanners that
// send browser strings, and of people, from
// testdata/detect/scanners-browser-ua.log:
//   - 82.247.137.135: a person opening the home page from Google, its
//     styles and images with the page as Referer, and the favicon
//     (elastic-apache_logs.log in ../shared/data/logs, lines 268-273).
//   - 198.51.100.12: /testproxy.php twice, 80 minutes apart, under
//     "rv:32.0) … Firefox/31.0" (the nginx log quoted in a blog post on AWS
//     ELB health checks, June 2017; the load balancer's own addresses,
//     172.31.22.184 and 172.31.31.21, made one).
//   - 198.51.100.11 and 198.51.100.10: fingerprint runs under Konqueror 3.5
//     and SeaMonkey 2.7 — /, the page it redirects to, the favicon,
//     //robots.txt, //sitemap.xml, //.well-known/security.txt — in 5 and 7
//     seconds (Daniloday/ubuntu access.log.3 and .1, a site behind
//     Cloudflare: the run's several Cloudflare addresses made one).
//   - 198.51.100.14 and 198.51.100.13: Apache's path traversal hidden by
//     percent-encoding, ".%%32%65" (CVE-2021-42013) and ".%2e"
//     (CVE-2021-41773), under Chrome 60 and 78 (Daniloday/ubuntu
//     access.log.2 and .1; each client's other probes left out, so that
//     these lines alone must tell).
//   - 73.57.60.193: a DVR exploit's POST /editBlackAndWhiteList under
//     "Mozila/5.0" (Daniloday/ubuntu access.log.2).
//   - 172.70.188.96: a person's phone following a push advertisement to
//     /?sub_id_1=…&ad_id=…&deviceID=… (Daniloday/ubuntu access.log): a
//     query string of the site's own, no fuzzer.
//   - 196.251.85.250: a DVR's /login.rsp under "Hello World" (an nginx log
//     line of 25 Feb 2025 quoted in a Wazuh dashboard's source on GitHub).
func TestScannersWithBrowserUserAgents(t *testing.T) {
	res := readLog(t, "scanners-browser-ua.log", Config{})
	kinds := byIP(res)
	tests := []struct {
		ip      string
		scanner bool
	}{
		{"82.247.137.135", false},
		{"198.51.100.12", true},
		{"198.51.100.11", true},
		{"198.51.100.10", true},
		{"198.51.100.14", true},
		{"198.51.100.13", true},
		{"73.57.60.193", true},
		{"172.70.188.96", false},
		{"196.251.85.250", true},
	}
	for _, tt := range tests {
		v, ok := kinds[tt.ip]
		if !ok {
			t.Errorf("%s: no such client among %d", tt.ip, len(kinds))
			continue
		}
		if got := v.Kind == findings.KindScanner && v.Robot; got != tt.scanner {
			t.Errorf("%s %q: scanner %v (kind %q, robot %v, details %q), want %v", tt.ip, v.UserAgent, got, v.Kind, v.Robot, v.Details, tt.scanner)
		}
		if !tt.scanner && v.Robot {
			t.Errorf("%s %q: a person judged a robot: %q", tt.ip, v.UserAgent, v.Details)
		}
	}
}

// TestWebshellAndConsoleProbesOnRealLines reads real lines of the
// labelled corpus (testdata/corpus) in
// testdata/detect/scanners-webshell.log:
//   - 178.128.59.224 (aargal-nginx-2024): one GET /nacos, Alibaba Nacos's
//     console, under Chrome 99 from a cloud address.
//   - 159.203.80.171 (aargal-nginx-2024): /, /geoip/, /1.php,
//     /systembc/password.php and /password.php in 3 s under Chrome 108: a
//     backdoor check.
//   - 18.134.164.0 (silverbullets-2022): / and wlwmanifest.xml under a
//     dozen WordPress directories, //xmlrpc.php?rsd, all 404 within 3 s.
//   - 58.229.114.50 (aargal-nginx-2024): the site's operator opening the
//     Django admin and its styles and scripts: a person.
func TestWebshellAndConsoleProbesOnRealLines(t *testing.T) {
	res := readLog(t, "scanners-webshell.log", Config{})
	want := map[string]bool{"178.128.59.224": true, "159.203.80.171": true, "18.134.164.0": true, "58.229.114.50": false}
	eachListed(t, res, want, true, func(v findings.Verdict, robot bool) {
		if v.Robot != robot || robot && v.Kind != findings.KindScanner {
			t.Errorf("%s %q: robot=%v kind=%s details=%q; want robot=%v", v.IP, v.UserAgent, v.Robot, v.Kind, v.Details, robot)
		}
	})
}
