package cli

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

// TestProxyHint: a log whose requests mostly come from private addresses
// gets a note on stderr that a proxy in front of the server may be logged
// for its clients, unless --trust-proxy was given; a log of public clients,
// or of host names, gets none.
func TestProxyHint(t *testing.T) {
	trusted := Analyse{Proxies: logparse.Proxies{netip.MustParsePrefix("10.0.0.0/8")}}
	nets := func(n ...any) []findings.NetworkSummary {
		var out []findings.NetworkSummary
		for i := 0; i < len(n); i += 2 {
			out = append(out, findings.NetworkSummary{Network: n[i].(string), Requests: int64(n[i+1].(int))})
		}
		return out
	}
	tests := []struct {
		name     string
		a        Analyse
		networks []findings.NetworkSummary
		want     string // "" for no note
	}{
		{"behind a balancer", Analyse{}, nets("10.0.3.0/24", 900, "203.0.113.0/24", 100), "90% of the requests came from private addresses (10.0.3.0/24)"},
		// RFC 6598's shared space: a cloud balancer (Alibaba's SLB) or a
		// carrier's NAT in front of the server; 100.128.0.0/24 is past it.
		{"behind a balancer in 100.64.0.0/10", Analyse{}, nets("100.64.3.0/24", 600, "100.127.255.0/24", 300, "203.0.113.0/24", 100), "90% of the requests came from private addresses (100.64.3.0/24, 100.127.255.0/24)"},
		{"next to the shared space", Analyse{}, nets("100.63.255.0/24", 600, "100.128.0.0/24", 300, "203.0.113.0/24", 100), ""},
		{"IPv6 unique local and loopback", Analyse{}, nets("fd00:1::/48", 60, "127.0.0.1/32", 30, "198.51.100.0/24", 10), "90% of the requests"},
		// ::1, as a Node or Apache server on a dual-stack localhost logs a
		// developer's browser (DanielRiener/cyber's access_log, Express
		// apps' morgan logs on GitHub), is summed in the network ::/48.
		{"IPv6 loopback", Analyse{}, nets("::/48", 900, "203.0.113.0/24", 100), "90% of the requests came from private addresses (::/48)"},
		{"many private networks", Analyse{}, nets("10.0.1.0/24", 10, "10.0.2.0/24", 10, "192.168.1.0/24", 10, "172.16.0.0/24", 10), "(10.0.1.0/24, 10.0.2.0/24, 192.168.1.0/24, …)"},
		{"trusted proxies", trusted, nets("10.0.3.0/24", 900), ""},
		{"public clients", Analyse{}, nets("203.0.113.0/24", 900, "10.0.3.0/24", 100), ""},
		{"exactly half", Analyse{}, nets("203.0.113.0/24", 50, "10.0.3.0/24", 50), ""},
		{"three private networks", Analyse{}, nets("10.0.1.0/24", 10, "10.0.2.0/24", 10, "192.168.1.0/24", 10), "(10.0.1.0/24, 10.0.2.0/24, 192.168.1.0/24); if"},
		// Behind Cloudflare without CF-Connecting-IP (a real log on
		// GitHub: 95% of its requests from 172.70.x, 162.158.x, ...).
		{"behind Cloudflare", Analyse{}, nets("172.70.42.0/24", 500, "162.158.1.0/24", 450, "203.0.113.0/24", 50), "95% of the requests came from Cloudflare's edge addresses"},
		{"some Fastly", Analyse{}, nets("151.101.1.0/24", 40, "203.0.113.0/24", 60), ""},
		{"host names", Analyse{}, nets("crawl.example.org", 900), ""},
		{"no requests", Analyse{}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr strings.Builder
			tt.a.ProxyHint(&stderr, &findings.Result{Networks: findings.NetworkListOf(tt.networks)})
			got := stderr.String()
			if tt.want == "" && got != "" || tt.want != "" && (!strings.Contains(got, tt.want) || !strings.Contains(got, "--trust-proxy")) {
				t.Errorf("stderr %q, want %q", got, tt.want)
			}
		})
	}
}
