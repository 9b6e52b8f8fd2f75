package detect

import (
	"fmt"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/botauth"
	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

// signatures is what a client's Web Bot Auth signatures showed
// (Config.Keys). It keeps none of the client's text: the origin is the
// key directory's, the reason botauth's own words.
type signatures struct {
	signed  uint32 // requests that carried a Signature-Input
	checked uint32 // of them, verified against the keys
	origin  string // the first that verified: its key directory's origin, from Config.Keys
	host    string
	failed  error // why the first that did not verify failed
}

// maxSignatureChecks bounds the signatures verified for one client that
// none of has verified: a client sending a million bad ones costs sixteen
// Ed25519 verifications, not a million. Once one verifies the rest are
// counted, not checked.
const maxSignatureChecks = 16

// checkSignature verifies the Web Bot Auth signature r carries, for c,
// against Config.Keys, judging its validity by the record's time (an old
// log's signatures were valid when they came).
// r has Headers: Add asks only with a Signature-Input.
func (d *Detector) checkSignature(c *client, r *logparse.Record) {
	x := c.keepRare()
	if x.sig == nil {
		x.sig = new(signatures)
	}
	s := x.sig
	inc32(&s.signed)
	if s.origin != "" || s.checked >= maxSignatureChecks {
		return
	}
	s.checked++
	got, err := d.cfg.Keys.Verify(botauth.Request{Authority: r.VHost, Method: r.Method, Target: r.Target, Time: r.Time,
		Signature: r.Headers.Signature, SignatureInput: r.Headers.SignatureInput, SignatureAgent: r.Headers.SignatureAgent})
	if err != nil {
		if s.failed == nil {
			s.failed = err
		}
		return
	}
	s.origin, s.host = got.Origin, got.Host
}

// signed applies what c's signatures showed to v: a verified one proves
// its signer's operator (agents.IdentifySigned), whatever the address
// lists say, for a robot name claiming that operator or none.
func signed(v *findings.Verdict, c *client) {
	s := c.rare().sig
	if s == nil {
		return
	}
	if s.origin == "" {
		more := ""
		if s.checked < s.signed {
			more = fmt.Sprintf(" (the first %d checked)", s.checked)
		}
		v.Details = append(v.Details, fmt.Sprintf("Web Bot Auth: %s, none verified%s: %v", signedRequests(s.signed), more, s.failed))
		return
	}
	v.Details = append(v.Details, fmt.Sprintf("Web Bot Auth: %s, verified by the key directory of %s", signedRequests(s.signed), s.origin))
	claim := v.Name
	if c.ua.agent.Kind == agents.Browser {
		claim = "" // a browser's name claims no crawler (see verdict)
	}
	if op, id, by, ok := agents.IdentifySigned(claim, s.host); ok {
		v.Operator, v.Identity, v.VerifiedBy = op, id, by
	} else {
		v.Details = append(v.Details, fmt.Sprintf("Web Bot Auth: the signature proves %s, not the operator %s claims", agents.SignerOperator(s.host), v.Name))
	}
}

func signedRequests(n uint32) string {
	if n == 1 {
		return "1 signed request"
	}
	return fmt.Sprintf("%d signed requests", n)
}
