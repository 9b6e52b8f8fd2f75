package detect

import (
	"cmp"
	"context"
	"slices"
	"sync"

	"github.com/robowatch/robowatch/agents"
)

// DNSVerifier checks addresses' claims of their operators by reverse and
// forward DNS (agents.Verifier).
type DNSVerifier interface {
	VerifyAll(ctx context.Context, claims map[string]string) map[string]agents.DNSResult
}

// dnsAnswers is what VerifyDNS found: DNS's word on each address asked
// of, and how many were.
type dnsAnswers struct {
	answers map[string]agents.DNSResult
	checked int
}

// maxDNSChecks bounds the addresses asked of DNS in one run: a log of a
// million fake Googlebots must not become a million lookups.
const maxDNSChecks = 10_000

// VerifyDNS asks v about the addresses whose robot names claim an operator
// the published ranges do not cover (or a host name), for the verdicts: a
// step after the last Add and before Result, within v's own bounds; ctx
// ends it early (an interrupt). Once Result was taken it does nothing.
func (d *Detector) VerifyDNS(ctx context.Context, v DNSVerifier) {
	if d.result != nil {
		return
	}
	claims := d.dnsClaims()
	if len(claims) == 0 {
		return
	}
	got := v.VerifyAll(ctx, claims)
	d.dns = dnsAnswers{answers: got, checked: len(got)}
}

// dnsClaims are the addresses to ask DNS about, with the operator each
// claims. Past the bound, the busiest addresses are asked, the same
// whatever order the clients' table holds them in.
func (d *Detector) dnsClaims() map[string]string {
	type claim struct {
		ip, op   string
		requests int64
	}
	var all []claim
	for c := range d.clients.all() {
		if c.ua.agent.Kind == agents.Browser {
			continue // claims no crawler (see verdict)
		}
		op, id, _, _ := d.cfg.ranges().IdentifyAt(c.ua.agent.Name, c.ip, c.first.time(), c.lastOf().time())
		if (id == agents.IdentityUnverified || id == agents.IdentityImpostor) && agents.HasDNS(op, c.ua.agent.Name) {
			all = append(all, claim{c.ip, op, int64(c.requests)})
		}
	}
	slices.SortFunc(all, func(a, b claim) int {
		return cmp.Or(cmp.Compare(b.requests, a.requests), cmp.Compare(a.ip, b.ip))
	})
	claims := map[string]string{}
	for _, c := range all {
		if len(claims) >= maxDNSChecks {
			break
		}
		if _, ok := claims[c.ip]; !ok {
			claims[c.ip] = c.op
		}
	}
	return claims
}

// VerifyDNS is Detector.VerifyDNS for every worker, each of its own
// clients, once they are done with the records handed to them; Add must
// not be called after.
func (p *Pool) VerifyDNS(ctx context.Context, v DNSVerifier) {
	if p.res != nil {
		return
	}
	p.Close()
	var wg sync.WaitGroup
	for _, d := range p.dets {
		wg.Go(func() { d.VerifyDNS(ctx, v) })
	}
	wg.Wait()
}
