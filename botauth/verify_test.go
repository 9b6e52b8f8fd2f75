package botauth

import (
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// signer makes Web Bot Auth headers the way a signing agent does, writing
// the signature base by hand (RFC 9421 section 2.5), not with the code
// under test.
type signer struct {
	priv ed25519.PrivateKey
	pub  ed25519.PublicKey
}

func newSigner(t testing.TB, seed byte) signer {
	t.Helper()
	s := make([]byte, ed25519.SeedSize)
	for i := range s {
		s[i] = seed + byte(i)
	}
	priv := ed25519.NewKeyFromSeed(s)
	return signer{priv, priv.Public().(ed25519.PublicKey)}
}

// jwks is the key directory serving s's key.
func (s signer) jwks() string {
	return `{"keys":[{"kty":"OKP","crv":"Ed25519","x":"` + base64.RawURLEncoding.EncodeToString(s.pub) + `"}]}`
}

// sign returns Signature, Signature-Input and Signature-Agent for a request
// to authority from agent, valid from created to expires, covering
// "@authority" and "signature-agent";key="sig1".
func (s signer) sign(authority, agent string, created, expires time.Time) (sig, input, agentHeader string) {
	params := fmt.Sprintf(`("@authority" "signature-agent";key="sig1");created=%d;keyid="%s";alg="ed25519";expires=%d;nonce="bm9uY2U=";tag="web-bot-auth"`,
		created.Unix(), Thumbprint(s.pub), expires.Unix())
	agentHeader = `sig1="` + agent + `"`
	base := `"@authority": ` + authority + "\n" +
		`"signature-agent";key="sig1": "` + agent + `"` + "\n" +
		`"@signature-params": ` + params
	return "sig1=:" + base64.StdEncoding.EncodeToString(ed25519.Sign(s.priv, []byte(base))) + ":", "sig1=" + params, agentHeader
}

// signLegacy signs as the drafts before 2025 did: Signature-Agent a bare
// String, covered without a key, and @method and @path covered too.
func (s signer) signLegacy(method, authority, path, agent string, created, expires time.Time) (sig, input, agentHeader string) {
	params := fmt.Sprintf(`("@method" "@authority" "@path" "signature-agent");created=%d;expires=%d;keyid="%s";tag="web-bot-auth"`,
		created.Unix(), expires.Unix(), Thumbprint(s.pub))
	agentHeader = `"` + agent + `"`
	base := `"@method": ` + method + "\n" + `"@authority": ` + authority + "\n" + `"@path": ` + path + "\n" +
		`"signature-agent": "` + agent + `"` + "\n" + `"@signature-params": ` + params
	return "sig2=:" + base64.StdEncoding.EncodeToString(ed25519.Sign(s.priv, []byte(base))) + ":", "sig2=" + params, agentHeader
}

func mustLoad(t *testing.T, files map[string]string) *Directory {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, body := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(body)}
	}
	d, err := LoadDir(fsys)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestThumbprintRFC8037(t *testing.T) {
	// RFC 8037 appendix A.3: the thumbprint of the key of appendix A.2.
	x, _ := base64.RawURLEncoding.DecodeString("11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo")
	if got, want := Thumbprint(x), "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"; got != want {
		t.Errorf("Thumbprint = %s, want %s", got, want)
	}
}

func TestVerify(t *testing.T) {
	agent, other := newSigner(t, 1), newSigner(t, 100)
	dir := mustLoad(t, map[string]string{
		"agent.example.json": agent.jwks(),
		"other.example.json": other.jwks(),
	})
	// A log of 2024 read in a later year: the record's time is what the
	// signature's validity is judged against.
	at := time.Date(2024, 3, 10, 8, 0, 0, 0, time.UTC)
	valid := func() Request {
		sig, in, ag := agent.sign("www.example.org", "https://agent.example", at.Add(-time.Minute), at.Add(time.Hour))
		return Request{Authority: "www.example.org", Method: "GET", Target: "/a?b", Time: at, Signature: sig, SignatureInput: in, SignatureAgent: ag}
	}
	tests := []struct {
		name string
		req  func() Request
		want error
	}{
		{"valid", valid, nil},
		{"valid, Host with its port and in capitals", func() Request {
			r := valid()
			r.Authority = "WWW.Example.org:443"
			return r
		}, nil},
		{"valid, absolute-form target names the authority", func() Request {
			r := valid()
			r.Authority, r.Target = "", "https://www.example.org/a"
			return r
		}, nil},
		{"legacy Signature-Agent string, @method and @path", func() Request {
			sig, in, ag := agent.signLegacy("GET", "www.example.org", "/a", "https://agent.example", at.Add(-time.Minute), at.Add(time.Hour))
			return Request{Authority: "www.example.org", Method: "GET", Target: "/a?b", Time: at, Signature: sig, SignatureInput: in, SignatureAgent: ag}
		}, nil},
		{"created within the clock skew after the request", func() Request {
			sig, in, ag := agent.sign("www.example.org", "https://agent.example", at.Add(30*time.Second), at.Add(time.Hour))
			return Request{Authority: "www.example.org", Time: at, Signature: sig, SignatureInput: in, SignatureAgent: ag}
		}, nil},
		{"expired at the record's time", func() Request {
			sig, in, ag := agent.sign("www.example.org", "https://agent.example", at.Add(-2*time.Hour), at.Add(-time.Hour))
			return Request{Authority: "www.example.org", Time: at, Signature: sig, SignatureInput: in, SignatureAgent: ag}
		}, ErrExpired},
		{"created an hour after the record", func() Request {
			sig, in, ag := agent.sign("www.example.org", "https://agent.example", at.Add(time.Hour), at.Add(2*time.Hour))
			return Request{Authority: "www.example.org", Time: at, Signature: sig, SignatureInput: in, SignatureAgent: ag}
		}, ErrNotYet},
		{"signed for another authority", func() Request {
			sig, in, ag := agent.sign("other.example.org", "https://agent.example", at.Add(-time.Minute), at.Add(time.Hour))
			return Request{Authority: "www.example.org", Time: at, Signature: sig, SignatureInput: in, SignatureAgent: ag}
		}, ErrBadSignature},
		{"signed with another key under the agent's keyid", func() Request {
			r := valid()
			forged, _, _ := other.sign("www.example.org", "https://agent.example", at.Add(-time.Minute), at.Add(time.Hour))
			r.Signature = forged
			return r
		}, ErrBadSignature},
		{"another origin's key, naming the agent", func() Request {
			// other.example's key is stored, but for other.example:
			// looked up by the pair, it verifies no request naming
			// agent.example.
			sig, in, ag := other.sign("www.example.org", "https://agent.example", at.Add(-time.Minute), at.Add(time.Hour))
			return Request{Authority: "www.example.org", Time: at, Signature: sig, SignatureInput: in, SignatureAgent: ag}
		}, ErrUnknownKey},
		{"a key no directory holds", func() Request {
			stranger := newSigner(t, 200)
			sig, in, ag := stranger.sign("www.example.org", "https://agent.example", at.Add(-time.Minute), at.Add(time.Hour))
			return Request{Authority: "www.example.org", Time: at, Signature: sig, SignatureInput: in, SignatureAgent: ag}
		}, ErrUnknownKey},
		{"tampered Signature-Agent member", func() Request {
			r := valid()
			r.SignatureAgent = `sig1="https://agent.example";x=1`
			return r
		}, ErrBadSignature},
		{"tampered expires", func() Request {
			r := valid()
			r.SignatureInput = strings.Replace(r.SignatureInput, fmt.Sprint(at.Add(time.Hour).Unix()), fmt.Sprint(at.Add(48*time.Hour).Unix()), 1)
			return r
		}, ErrBadSignature},
		{"tampered signature bytes", func() Request {
			r := valid()
			b, _ := base64.StdEncoding.DecodeString(r.Signature[6 : len(r.Signature)-1])
			b[0] ^= 1
			r.Signature = "sig1=:" + base64.StdEncoding.EncodeToString(b) + ":"
			return r
		}, ErrBadSignature},
		{"Signature-Agent names another origin than signed", func() Request {
			r := valid()
			r.SignatureAgent = `sig1="https://other.example"`
			return r
		}, ErrUnknownKey},
		{"no tag", func() Request {
			r := valid()
			r.SignatureInput = strings.Replace(r.SignatureInput, `;tag="web-bot-auth"`, "", 1)
			return r
		}, ErrUnsigned},
		{"not covering signature-agent", func() Request {
			r := valid()
			r.SignatureInput = strings.Replace(r.SignatureInput, ` "signature-agent";key="sig1"`, "", 1)
			return r
		}, ErrComponents},
		{"covering a header the log lacks", func() Request {
			r := valid()
			r.SignatureInput = strings.Replace(r.SignatureInput, `("@authority"`, `("content-digest" "@authority"`, 1)
			return r
		}, ErrUnsupported},
		{"a component covered twice", func() Request {
			r := valid()
			r.SignatureInput = strings.Replace(r.SignatureInput, `("@authority"`, `("@authority" "@authority"`, 1)
			return r
		}, ErrMalformed},
		{"Signature-Agent of type jwks_uri", func() Request {
			r := valid()
			r.SignatureAgent = `sig1="https://agent.example/jwks.json";type=jwks_uri`
			return r
		}, ErrUnsupported},
		{"Signature-Agent over http", func() Request {
			r := valid()
			r.SignatureAgent = `sig1="http://agent.example"`
			return r
		}, ErrAgent},
		{"Signature-Agent with no member for the label", func() Request {
			r := valid()
			r.SignatureAgent = `sig9="https://agent.example"`
			return r
		}, ErrAgent},
		{"alg rsa-pss-sha512", func() Request {
			r := valid()
			r.SignatureInput = strings.Replace(r.SignatureInput, `alg="ed25519"`, `alg="rsa-pss-sha512"`, 1)
			return r
		}, ErrAlgorithm},
		{"no expires", func() Request {
			r := valid()
			r.SignatureInput = strings.Replace(r.SignatureInput, fmt.Sprintf(";expires=%d", at.Add(time.Hour).Unix()), "", 1)
			return r
		}, ErrParams},
		{"no Host logged", func() Request {
			r := valid()
			r.Authority = ""
			return r
		}, ErrNoAuthority},
		{"no time logged", func() Request {
			r := valid()
			r.Time = time.Time{}
			return r
		}, ErrNoTime},
		{"Signature-Input over its bound", func() Request {
			r := valid()
			r.SignatureInput += strings.Repeat(" ", MaxSignatureInput)
			return r
		}, ErrTooLong},
		{"Signature-Input that does not parse", func() Request {
			r := valid()
			r.SignatureInput = `sig1=("@authority"`
			return r
		}, ErrMalformed},
		{"Signature of the wrong size", func() Request {
			r := valid()
			r.Signature = "sig1=:AAAA:"
			return r
		}, ErrMalformed},
		{"unsigned", func() Request { return Request{Authority: "www.example.org", Time: at} }, ErrUnsigned},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := dir.Verify(tt.req())
			if !errors.Is(err, tt.want) {
				t.Fatalf("Verify: %v, want %v", err, tt.want)
			}
			if err == nil && (s.Origin != "https://agent.example" || s.KeyID != Thumbprint(agent.pub)) {
				t.Errorf("Verify = %+v, want agent.example's key", s)
			}
		})
	}
}

func TestVerifyKeyValidity(t *testing.T) {
	agent := newSigner(t, 1)
	at := time.Date(2024, 3, 10, 8, 0, 0, 0, time.UTC)
	x := base64.RawURLEncoding.EncodeToString(agent.pub)
	dir := mustLoad(t, map[string]string{"agent.example.json": fmt.Sprintf(`{"keys":[{"kty":"OKP","crv":"Ed25519","x":"%s","nbf":%d,"exp":%d}]}`,
		x, at.Add(-24*time.Hour).Unix(), at.Add(-time.Hour).Unix())})
	sig, in, ag := agent.sign("www.example.org", "https://agent.example", at.Add(-time.Minute), at.Add(time.Hour))
	if _, err := dir.Verify(Request{Authority: "www.example.org", Time: at, Signature: sig, SignatureInput: in, SignatureAgent: ag}); !errors.Is(err, ErrKeyValidity) {
		t.Errorf("Verify with a key past its exp: %v, want %v", err, ErrKeyValidity)
	}
}

func TestLoadDir(t *testing.T) {
	agent := newSigner(t, 1)
	x := base64.RawURLEncoding.EncodeToString(agent.pub)
	tests := []struct {
		name    string
		files   map[string]string
		want    string // the error, "" for none
		origins []string
	}{
		{"one directory, other files skipped", map[string]string{
			"agent.example.json": agent.jwks(), "README": "keys", ".hidden.json": "{",
		}, "", []string{"https://agent.example"}},
		{"RSA keys beside an Ed25519 one are skipped", map[string]string{
			"agent.example.json": `{"keys":[{"kty":"RSA","n":"AQAB","e":"AQAB"},{"kty":"OKP","crv":"Ed25519","x":"` + x + `"}]}`,
		}, "", []string{"https://agent.example"}},
		{"not JSON", map[string]string{"agent.example.json": "keys: x"}, "key file agent.example.json: not a JSON Web Key Set", nil},
		{"no keys member", map[string]string{"agent.example.json": `{"key":[]}`}, `key file agent.example.json: not a JSON Web Key Set: no "keys"`, nil},
		{"a short x", map[string]string{"agent.example.json": `{"keys":[{"kty":"OKP","crv":"Ed25519","x":"AAAA"}]}`}, `key file agent.example.json: key 1: "x" is not a 32-byte Ed25519 public key`, nil},
		{"x in standard base64", map[string]string{"agent.example.json": `{"keys":[{"kty":"OKP","crv":"Ed25519","x":"` + base64.StdEncoding.EncodeToString(agent.pub) + `"}]}`}, `key file agent.example.json: key 1: "x" is not`, nil},
		{"no Ed25519 key", map[string]string{"agent.example.json": `{"keys":[{"kty":"EC","crv":"P-256","x":"AA","y":"AA"}]}`}, "key file agent.example.json: no Ed25519 key among its 1", nil},
		{"a name that is no host", map[string]string{"Agent Keys.json": agent.jwks()}, `key file Agent Keys.json: "Agent Keys" is no host name`, nil},
		{"over a megabyte", map[string]string{"agent.example.json": `{"keys":[` + strings.Repeat(" ", maxFileBytes) + `]}`}, "key file agent.example.json: over 1048576 bytes", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for name, body := range tt.files {
				fsys[name] = &fstest.MapFile{Data: []byte(body)}
			}
			d, err := LoadDir(fsys)
			if tt.want != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
					t.Fatalf("LoadDir: %v, want %q…", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := d.Origins(); fmt.Sprint(got) != fmt.Sprint(tt.origins) {
				t.Errorf("Origins = %v, want %v", got, tt.origins)
			}
		})
	}
}

func FuzzVerify(f *testing.F) {
	agent := newSigner(f, 1)
	dir := &Directory{keys: map[keyRef]key{{"agent.example", Thumbprint(agent.pub)}: {pub: agent.pub, id: Thumbprint(agent.pub), origin: "https://agent.example"}}}
	at := time.Date(2024, 3, 10, 8, 0, 0, 0, time.UTC)
	sig, in, ag := agent.sign("www.example.org", "https://agent.example", at.Add(-time.Minute), at.Add(time.Hour))
	f.Add(sig, in, ag)
	f.Add(`a=:=:`, `a=("@authority";key="x");tag="web-bot-auth";created=-1;expires=1.5;keyid=?1`, `a=b;c, d=("e")`)
	f.Fuzz(func(t *testing.T, sig, in, ag string) {
		s, err := dir.Verify(Request{Authority: "www.example.org", Method: "GET", Target: "/", Time: at, Signature: sig, SignatureInput: in, SignatureAgent: ag})
		if err == nil && s.Origin != "https://agent.example" {
			t.Fatalf("verified as %+v", s)
		}
	})
}
