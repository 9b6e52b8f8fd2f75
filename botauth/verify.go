// Package botauth verifies Web Bot Auth signatures (HTTP Message
// Signatures, RFC 9421, as the IETF web-bot-auth drafts profile them) from
// the headers an access log recorded, offline, against key directories
// stored beforehand.
//
// A valid signature proves that the holder of a key the signature agent's
// origin publishes signed a message for this site's authority within its
// validity: who runs the robot, not that this request is the one signed.
// The components Web Bot Auth covers (the authority and Signature-Agent)
// are the same for every request to a site, so a signature can be replayed
// until it expires.
package botauth

import (
	"crypto/ed25519"
	"errors"
	"strings"
	"time"
)

// Request is what a log recorded of a signed request.
type Request struct {
	Authority      string    // the Host header (or the authority of an absolute-form target)
	Method         string    // for a signature that covers @method
	Target         string    // the request target as sent, for @path and @query
	Time           time.Time // when it came: created and expires are judged against it, not the clock of the run
	Signature      string    // the Signature header
	SignatureInput string    // the Signature-Input header
	SignatureAgent string    // the Signature-Agent header
}

// Signed is a verified signature: the origin whose key directory holds
// its key, and the key's thumbprint. Its strings are the Directory's, not
// the request's: keeping them keeps no log line alive.
type Signed struct {
	Origin string // https://HOST, as Directory.Files names it
	Host   string
	KeyID  string
}

// Bounds on the headers: a client writes them, and a few signatures of a
// few components take a few hundred bytes.
const (
	MaxSignatureInput = 4096
	MaxSignature      = 4096
	MaxSignatureAgent = 2048
	maxLabels         = 4
)

// ClockSkew is how far after the request a signature's created time may
// be: the signer's clock and the server's are not one clock.
const ClockSkew = time.Minute

// The reasons a signature is not verified. They are robowatch's own words,
// never a client's text, so that they can be kept and shown.
var (
	ErrUnsigned       = errors.New("no Web Bot Auth signature (tag \"web-bot-auth\")")
	ErrTooLong        = errors.New("a signature header over its bound")
	ErrMalformed      = errors.New("a signature header that does not parse")
	ErrParams         = errors.New("a signature without created, expires and keyid")
	ErrAlgorithm      = errors.New("a signature algorithm other than ed25519")
	ErrComponents     = errors.New("a signature that does not cover @authority and signature-agent")
	ErrUnsupported    = errors.New("a signature covering what the log does not record")
	ErrAgent          = errors.New("a Signature-Agent that names no https origin")
	ErrNoAuthority    = errors.New("no Host in the log to check @authority against")
	ErrNoTime         = errors.New("no time in the log to check the signature's validity against")
	ErrExpired        = errors.New("an expired signature")
	ErrNotYet         = errors.New("a signature created after the request")
	ErrUnknownKey     = errors.New("a key no stored key directory holds for the Signature-Agent it names")
	ErrKeyValidity    = errors.New("a key outside its validity in its directory")
	ErrBadSignature   = errors.New("a signature that does not verify")
	errNoSignatureFor = errors.New("no Signature for the label")
)

// Verify checks the Web Bot Auth signatures of r against d. It returns the
// first that verifies; when none does, the reason the first Web Bot Auth
// signature failed.
func (d *Directory) Verify(r Request) (Signed, error) {
	if r.SignatureInput == "" || r.Signature == "" {
		return Signed{}, ErrUnsigned
	}
	if len(r.SignatureInput) > MaxSignatureInput || len(r.Signature) > MaxSignature || len(r.SignatureAgent) > MaxSignatureAgent {
		return Signed{}, ErrTooLong
	}
	inputs, err := parseDictionary(r.SignatureInput)
	if err != nil {
		return Signed{}, ErrMalformed
	}
	var first error
	tried := 0
	for _, in := range inputs {
		if tag, _ := paramOf(in.params, "tag"); !in.inner || tag.kind != kindString || tag.s != "web-bot-auth" {
			continue
		}
		if tried++; tried > maxLabels {
			break
		}
		s, err := d.verify(r, in)
		if err == nil {
			return s, nil
		}
		if first == nil {
			first = err
		}
	}
	if first == nil {
		first = ErrUnsigned
	}
	return Signed{}, first
}

// verify checks the signature of one Signature-Input member.
func (d *Directory) verify(r Request, in member) (Signed, error) {
	created, ok1 := paramOf(in.params, "created")
	expires, ok2 := paramOf(in.params, "expires")
	keyid, ok3 := paramOf(in.params, "keyid")
	if !ok1 || !ok2 || !ok3 || created.kind != kindInteger || expires.kind != kindInteger || keyid.kind != kindString {
		return Signed{}, ErrParams
	}
	if alg, ok := paramOf(in.params, "alg"); ok && (alg.kind != kindString || alg.s != "ed25519") {
		return Signed{}, ErrAlgorithm
	}

	// The components, in order, each as the signature base writes it.
	base := make([]byte, 0, 512)
	var host string
	authority, agent := false, false
	for i, c := range in.items {
		if c.bare.kind != kindString {
			return Signed{}, ErrMalformed
		}
		for _, prev := range in.items[:i] {
			if sameComponent(prev, c) {
				return Signed{}, ErrMalformed // RFC 9421 section 2.5: a component covered twice fails
			}
		}
		var value string
		switch name := c.bare.s; {
		case name == "@authority" && len(c.params) == 0:
			if value = authorityOf(r); value == "" {
				return Signed{}, ErrNoAuthority
			}
			authority = true
		case name == "@method" && len(c.params) == 0 && r.Method != "":
			value = r.Method
		case name == "@path" && len(c.params) == 0 && r.Target != "":
			value, _ = pathQuery(r.Target)
		case name == "@query" && len(c.params) == 0 && r.Target != "":
			_, value = pathQuery(r.Target)
		case name == "signature-agent":
			var err error
			if value, host, err = agentOf(r.SignatureAgent, c.params); err != nil {
				return Signed{}, err
			}
			agent = true
		default:
			return Signed{}, ErrUnsupported
		}
		base = appendItem(base, c)
		base = append(base, ": "...)
		base = append(base, value...)
		base = append(base, '\n')
	}
	if !authority || !agent {
		return Signed{}, ErrComponents
	}
	base = append(base, `"@signature-params": `...)
	base = appendInnerList(base, in.items, in.params)

	if r.Time.IsZero() {
		return Signed{}, ErrNoTime
	}
	at := r.Time.Unix()
	switch {
	case expires.n <= at || expires.n < created.n:
		return Signed{}, ErrExpired
	case created.n > at+int64(ClockSkew/time.Second):
		return Signed{}, ErrNotYet
	}
	k, ok := d.keys[keyRef{host, keyid.s}]
	if !ok {
		return Signed{}, ErrUnknownKey
	}
	if !k.nbf.IsZero() && r.Time.Before(k.nbf) || !k.exp.IsZero() && !r.Time.Before(k.exp) {
		return Signed{}, ErrKeyValidity
	}
	sig, err := signatureFor(r.Signature, in.key)
	if err != nil {
		return Signed{}, err
	}
	if !ed25519.Verify(k.pub, base, sig) {
		return Signed{}, ErrBadSignature
	}
	return Signed{Origin: k.origin, Host: k.origin[len("https://"):], KeyID: k.id}, nil
}

func sameComponent(a, b item) bool {
	return string(appendItem(nil, a)) == string(appendItem(nil, b))
}

// signatureFor is the Signature member called label: a Byte Sequence of
// an Ed25519 signature's size.
func signatureFor(header, label string) ([]byte, error) {
	sigs, err := parseDictionary(header)
	if err != nil {
		return nil, ErrMalformed
	}
	for _, m := range sigs {
		if m.key != label {
			continue
		}
		if m.inner || m.item.bare.kind != kindBytes || len(m.item.bare.b) != ed25519.SignatureSize {
			return nil, ErrMalformed
		}
		return m.item.bare.b, nil
	}
	return nil, errNoSignatureFor
}

// agentOf returns the value of the signature-agent component with params
// as the signature base writes it, and the host of the origin it names.
// With key="K" (the drafts since 2025: Signature-Agent is a Dictionary)
// the value is member K serialized; without (the drafts before: a bare
// String), the header as logged, trimmed. Only an origin's key directory
// (type "directory", or none) is one robowatch can hold.
func agentOf(header string, params []param) (value, host string, err error) {
	header = strings.Trim(header, " \t")
	if header == "" {
		return "", "", ErrAgent
	}
	var it item
	switch k, ok := paramOf(params, "key"); {
	case len(params) == 0:
		if it, err = parseItem(header); err != nil {
			return "", "", ErrAgent
		}
		value = header
	case len(params) == 1 && ok && k.kind == kindString:
		members, err := parseDictionary(header)
		if err != nil {
			return "", "", ErrAgent
		}
		found := false
		for _, m := range members {
			if m.key == k.s && !m.inner {
				it, found = m.item, true
			}
		}
		if !found {
			return "", "", ErrAgent
		}
		value = string(appendItem(nil, it))
	default:
		return "", "", ErrUnsupported
	}
	if t, ok := paramOf(it.params, "type"); ok && (t.kind != kindToken || t.s != "directory") {
		return "", "", ErrUnsupported
	}
	if it.bare.kind != kindString {
		return "", "", ErrAgent
	}
	if host = originHost(it.bare.s); host == "" {
		return "", "", ErrAgent
	}
	return value, host, nil
}

// originHost is the host of an https origin ("https://host", a "/"
// after it allowed), lower-cased; "" for anything else.
func originHost(u string) string {
	rest, ok := cutPrefixFold(u, "https://")
	if !ok {
		return ""
	}
	rest = strings.TrimSuffix(rest, "/")
	if rest == "" || strings.ContainsAny(rest, "/?#@") {
		return ""
	}
	return strings.ToLower(rest)
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || !strings.EqualFold(s[:len(prefix)], prefix) {
		return s, false
	}
	return s[len(prefix):], true
}

// authorityOf is @authority as RFC 9421 section 2.2.3 writes it: the
// authority of an absolute-form target, else the Host, lower-cased,
// without the default port.
func authorityOf(r Request) string {
	a := r.Authority
	if i := strings.Index(r.Target, "://"); i > 0 && r.Target[0] != '/' {
		rest := r.Target[i+3:]
		if j := strings.IndexAny(rest, "/?#"); j >= 0 {
			rest = rest[:j]
		}
		a = rest
	}
	a = strings.ToLower(strings.Trim(a, " \t"))
	a = strings.TrimSuffix(a, ":443")
	a = strings.TrimSuffix(a, ":80")
	return a
}

// pathQuery splits a request target into @path ("/" for an empty path)
// and @query ("?" and the query, "?" for none).
func pathQuery(target string) (path, query string) {
	if i := strings.Index(target, "://"); i > 0 && target[0] != '/' {
		rest := target[i+3:]
		j := strings.IndexAny(rest, "/?#")
		if j < 0 {
			return "/", "?"
		}
		target = rest[j:]
	}
	if i := strings.IndexByte(target, '#'); i >= 0 {
		target = target[:i]
	}
	path, query = target, "?"
	if i := strings.IndexByte(target, '?'); i >= 0 {
		path, query = target[:i], target[i:]
	}
	if path == "" {
		path = "/"
	}
	return path, query
}
