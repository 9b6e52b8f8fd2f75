package detect

import (
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/robowatch/robowatch/botauth"
	"github.com/robowatch/robowatch/logparse"
)

// TestSignatureChecksBounded: a client's signatures are verified until one
// verifies, and at most maxSignatureChecks of those that do not; the
// verdict counts them all.
func TestSignatureChecksBounded(t *testing.T) {
	priv := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	pub := priv.Public().(ed25519.PublicKey)
	keys, err := botauth.LoadDir(fstest.MapFS{"agent.example.json": {Data: []byte(
		`{"keys":[{"kty":"OKP","crv":"Ed25519","x":"` + base64.RawURLEncoding.EncodeToString(pub) + `"}]}`)}})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2024, 3, 10, 8, 0, 0, 0, time.UTC)
	sign := func(at time.Time, expires time.Time) *logparse.Record {
		params := fmt.Sprintf(`("@authority" "signature-agent";key="s");created=%d;expires=%d;keyid="%s";tag="web-bot-auth"`,
			at.Add(-time.Minute).Unix(), expires.Unix(), botauth.Thumbprint(pub))
		base := "\"@authority\": www.example.org\n\"signature-agent\";key=\"s\": \"https://agent.example\"\n\"@signature-params\": " + params
		return &logparse.Record{Method: "GET", Target: "/", Status: 200, Time: at, VHost: "www.example.org", Headers: &logparse.Headers{
			Signature:      "s=:" + base64.StdEncoding.EncodeToString(ed25519.Sign(priv, []byte(base))) + ":",
			SignatureInput: "s=" + params, SignatureAgent: `s="https://agent.example"`}}
	}
	d := New(Config{Keys: keys, Now: func() time.Time { return t0.Add(time.Hour) }})
	for i := range 40 { // expired every time
		r := sign(t0.Add(time.Duration(i)*time.Second), t0.Add(-time.Hour))
		r.Client, r.UserAgent = "203.0.113.9", "ExampleBot/1.0"
		d.Add(r)
	}
	for i := range 5 { // valid once, then a bad one
		r := sign(t0.Add(time.Duration(i)*time.Second), t0.Add(time.Hour))
		if i > 0 {
			r.VHost = "other.example.org"
		}
		r.Client, r.UserAgent = "198.51.100.7", "ExampleBot/1.0"
		d.Add(r)
	}
	want := map[string]string{
		"203.0.113.9":  "Web Bot Auth: 40 signed requests, none verified (the first 16 checked): " + botauth.ErrExpired.Error(),
		"198.51.100.7": "Web Bot Auth: 5 signed requests, verified by the key directory of https://agent.example",
	}
	for v := range d.Result().Clients.All() {
		w, ok := want[v.IP]
		if !ok {
			continue
		}
		delete(want, v.IP)
		if !strings.Contains(strings.Join(v.Details, "\n"), w) {
			t.Errorf("%s: details %q, want %q", v.IP, v.Details, w)
		}
		if verified := v.VerifiedBy == "signature"; verified != (v.IP == "198.51.100.7") || verified && v.Operator != "agent.example" {
			t.Errorf("%s: operator %q, verified_by %q", v.IP, v.Operator, v.VerifiedBy)
		}
	}
	if len(want) > 0 {
		t.Errorf("not in the result: %v", want)
	}
}
