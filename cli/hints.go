package cli

import (
	"io"
	"net/netip"
	"strings"
	"time"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/report"
)

// AssetsHint says on stderr when the log holds next to no image, style,
// script or font requests, so that "pages and no assets" was set aside as a
// signal: a front server (nginx serving static files before Apache) or a
// CDN answers them, and a person's page views look like a script's here.
func AssetsHint(stderr io.Writer, res *findings.Result) {
	if res == nil || !res.AssetsElsewhere {
		return
	}
	Warnf(stderr, "robowatch: note: %d page requests and %d for images, styles, scripts or fonts: a front server or CDN serves the assets, so \"pages and no assets\" is no sign of a robot in this log and was set aside\n",
		res.LogPages, res.LogAssets)
}

// ProxyHint says on stderr when most of the requests came from private
// addresses, or from one CDN's edge, and no --trust-proxy was given: a server behind a proxy, a
// load balancer or a CDN logs their address for every client, and the
// report is then about a handful of machines of the site's own (its
// worst incident the balancer, its scanners the balancer). The remedy is
// in the log format, so it is said, not guessed at.
func (a *Analyse) ProxyHint(stderr io.Writer, res *findings.Result) {
	if len(a.Proxies) > 0 || res == nil {
		return
	}
	var private, all int64
	var nets []string
	count := 0
	edge := map[string]int64{} // requests from each CDN's edge
	for n := range res.Networks.All() {
		all += n.Requests
		p, err := netip.ParsePrefix(n.Network)
		if err == nil {
			if cdn := agents.CDN(p.Addr()); cdn != "" {
				edge[cdn] += n.Requests
				continue
			}
		}
		// ::1 is summed in the network "::/48", whose first address is
		// "::", not loopback: ask whether the network holds it.
		if err != nil || !(logparse.InternalAddress(p.Addr()) || p.Contains(netip.IPv6Loopback())) {
			continue
		}
		private += n.Requests
		if count++; count <= 3 {
			nets = append(nets, n.Network)
		}
	}
	for cdn, n := range edge {
		if 2*n > all {
			// Behind a CDN that the log names for every visitor: the
			// report is about its edge, and block lists leave it out.
			Warnf(stderr, "robowatch: note: %d%% of the requests came from %s's edge addresses: the log names the CDN instead of the visitors, and block lists leave its addresses out; log the visitor's address (Cloudflare's CF-Connecting-IP, or X-Forwarded-For) and name the CDN's ranges with --trust-proxy\n", 100*n/all, cdn)
			return
		}
	}
	if all == 0 || 2*private <= all {
		return
	}
	more := ""
	if count > 3 {
		more = ", …"
	}
	Warnf(stderr, "robowatch: note: %d%% of the requests came from private addresses (%s%s); if that is a proxy or load balancer in front of the server, the report sees it instead of the clients: log X-Forwarded-For (nginx's $http_x_forwarded_for, Apache's %%{X-Forwarded-For}i) and name it with --trust-proxy\n",
		100*private/all, strings.Join(nets, ", "), more)
}

// RangesHint says on stderr when the log starts before the published
// address ranges' history and robots were seen before it: they were
// judged by the earliest lists known, which cannot prove an impostor
// (agents.Ranges.IdentifyAt), and an admin reading "unverified" should
// know why. Three short lines: a terminal of 80 columns shows them whole.
func RangesHint(stderr io.Writer, res *findings.Result) {
	if res == nil || !res.RangesNewer || res.RangesEarliest == 0 {
		return
	}
	n := res.RangesEarliest
	clients := "robot clients were"
	if n == 1 {
		clients = "robot client was"
	}
	Warnf(stderr, "robowatch: note: the log starts %s, before the address ranges' history", res.First.Format(time.DateOnly))
	Warnf(stderr, "  (%s): %d %s judged", report.RangesHistory(res), n, clients)
	Warnf(stderr, "  by the earliest lists: an address in none is unverified, not an impostor")
}
