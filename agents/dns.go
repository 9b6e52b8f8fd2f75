package agents

import (
	"context"
	"net"
	"net/netip"
	"strings"
	"sync"
	"time"
)

// Operators that publish no address list tell their crawlers by name: the
// address's reverse DNS name is under one of their domains (dnsSuffixes,
// from the table verifiers), and that name resolves back to the address
// (the forward confirmation, without which anyone who controls the
// reverse zone of their own addresses could claim googlebot.com).

// Verifier checks claims by reverse and forward DNS. The zero value uses
// the system's resolver with the default bounds.
type Verifier struct {
	Resolver    *net.Resolver // nil: net.DefaultResolver
	Timeout     time.Duration // per lookup; 0: 2 s
	Budget      time.Duration // for all lookups of a run; 0: 20 s
	Concurrency int           // lookups at once; 0: 16
}

// maxDNSName bounds a DNS answer kept for a message: it is the address
// owner's text.
const maxDNSName = 253

// DNSResult is what DNS said of one address.
type DNSResult struct {
	Identity string // IdentityVerified, IdentityImpostor or IdentityUnverified (no answer in time)
	Name     string // the confirmed or offending reverse name, at most 253 bytes
}

// VerifyAll checks each address's claim of its operator by DNS, at most
// Concurrency at once, each lookup within Timeout and all within Budget:
// what did not answer in time is unverified, and ctx ends it all early.
// Addresses whose operator has no documented DNS names are left out.
func (v *Verifier) VerifyAll(ctx context.Context, claims map[string]string) map[string]DNSResult {
	timeout, budget, conc := v.Timeout, v.Budget, v.Concurrency
	if timeout <= 0 {
		timeout = 2 * time.Second
	}
	if budget <= 0 {
		budget = 20 * time.Second
	}
	if conc <= 0 {
		conc = 16
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	out := make(map[string]DNSResult, len(claims))
	var mu sync.Mutex
	sem := make(chan struct{}, conc)
	var wg sync.WaitGroup
	for addr, op := range claims {
		if len(dnsSuffixes[op]) == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				mu.Lock()
				out[addr] = DNSResult{Identity: IdentityUnverified}
				mu.Unlock()
				return
			}
			r := v.verify(ctx, addr, op, timeout)
			<-sem
			mu.Lock()
			out[addr] = r
			mu.Unlock()
		}()
	}
	wg.Wait()
	return out
}

// verify checks one address: its reverse names, one under the operator's
// domains that resolves back to it.
func (v *Verifier) verify(ctx context.Context, addr, op string, timeout time.Duration) DNSResult {
	res := v.Resolver
	if res == nil {
		res = net.DefaultResolver
	}
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return DNSResult{Identity: IdentityUnverified}
	}
	a = a.Unmap()
	lctx, cancel := context.WithTimeout(ctx, timeout)
	names, err := res.LookupAddr(lctx, a.String())
	cancel()
	if err != nil {
		if de, ok := err.(*net.DNSError); ok && de.IsNotFound {
			// No reverse name at all: the operator's crawlers all have one.
			return DNSResult{Identity: IdentityImpostor}
		}
		return DNSResult{Identity: IdentityUnverified}
	}
	var claimed string
	for _, name := range names {
		name = strings.ToLower(strings.TrimSuffix(name, "."))
		if len(name) > maxDNSName {
			name = name[:maxDNSName]
		}
		if !underAny(name, dnsSuffixes[op]) {
			continue
		}
		claimed = name
		lctx, cancel := context.WithTimeout(ctx, timeout)
		ips, err := res.LookupNetIP(lctx, "ip", name)
		cancel()
		if err != nil {
			continue
		}
		for _, ip := range ips {
			if ip.Unmap() == a {
				return DNSResult{Identity: IdentityVerified, Name: name}
			}
		}
	}
	if claimed != "" || len(names) > 0 {
		// A name outside the operator's domains, or one under them that
		// does not lead back here (a reverse zone the client's owner
		// filled in): not the operator's crawler.
		name := claimed
		if name == "" && len(names) > 0 {
			name = strings.TrimSuffix(names[0], ".")
			if len(name) > maxDNSName {
				name = name[:maxDNSName]
			}
		}
		return DNSResult{Identity: IdentityImpostor, Name: name}
	}
	return DNSResult{Identity: IdentityUnverified}
}

func underAny(name string, suffixes []string) bool {
	for _, s := range suffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}
