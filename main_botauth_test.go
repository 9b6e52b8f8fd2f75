package main

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/botauth"
	"github.com/robowatch/robowatch/cli"
)

// signedLine is a JSON log line (nginx's escape=json keys) of a request
// from ip with ua to www.example.org at at, carrying the Web Bot Auth
// headers priv signs, naming agent, valid from created to expires.
func signedLine(t *testing.T, priv ed25519.PrivateKey, ip, ua, agent string, at, created, expires time.Time) string {
	t.Helper()
	pub := priv.Public().(ed25519.PublicKey)
	params := fmt.Sprintf(`("@authority" "signature-agent";key="sig1");created=%d;expires=%d;keyid="%s";tag="web-bot-auth"`,
		created.Unix(), expires.Unix(), botauth.Thumbprint(pub))
	base := "\"@authority\": www.example.org\n\"signature-agent\";key=\"sig1\": \"" + agent + "\"\n\"@signature-params\": " + params
	sig := "sig1=:" + base64.StdEncoding.EncodeToString(ed25519.Sign(priv, []byte(base))) + ":"
	line, err := json.Marshal(map[string]any{
		"remote_addr": ip, "time_iso8601": at.Format(time.RFC3339), "request": "GET /page HTTP/1.1", "status": 200,
		"body_bytes_sent": 512, "http_user_agent": ua, "host": "www.example.org",
		"http_signature": sig, "http_signature_input": "sig1=" + params, "http_signature_agent": `sig1="` + agent + `"`,
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(line) + "\n"
}

// TestWebBotAuthKeys: a 2024 log of ChatGPT's signed requests, read with
// OpenAI's key directory stored in --keys. The genuine agent, from an
// address in no list, is verified by its signature; a request signed with
// another key, one whose signature had expired when it came (judged by the
// record's time, not today's), and one signed for another site are not.
// The agent under a browser's User-agent is OpenAI's too.
func TestWebBotAuthKeys(t *testing.T) {
	seed := func(b byte) ed25519.PrivateKey {
		return ed25519.NewKeyFromSeed([]byte(strings.Repeat(string(rune('a'+b)), ed25519.SeedSize)))
	}
	openai, forger := seed(0), seed(1)
	dir := t.TempDir()
	jwks := `{"keys":[{"kty":"OKP","crv":"Ed25519","x":"` + base64.RawURLEncoding.EncodeToString(openai.Public().(ed25519.PublicKey)) + `"}]}`
	if err := os.WriteFile(filepath.Join(dir, "chatgpt.com.json"), []byte(jwks), 0o644); err != nil {
		t.Fatal(err)
	}
	// A day OpenAI's lists of that time are known (from 2026-04-11): an
	// address outside them is then an impostor, not unverified.
	at := time.Date(2026, 5, 10, 8, 0, 0, 0, time.UTC)
	const agent = "https://chatgpt.com"
	const ua = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ChatGPT-User/1.0; +https://openai.com/bot)"
	var log strings.Builder
	log.WriteString(signedLine(t, openai, "198.51.100.7", ua, agent, at, at.Add(-time.Minute), at.Add(time.Hour)))
	log.WriteString(signedLine(t, forger, "203.0.113.8", ua, agent, at, at.Add(-time.Minute), at.Add(time.Hour)))
	log.WriteString(signedLine(t, openai, "203.0.113.9", ua, agent, at, at.Add(-2*time.Hour), at.Add(-time.Hour)))
	// ChatGPT agent browses under Chrome's User-agent, signed.
	log.WriteString(signedLine(t, openai, "198.51.100.20", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Safari/537.36", agent, at, at.Add(-time.Minute), at.Add(time.Hour)))
	other := strings.Replace(signedLine(t, openai, "203.0.113.10", ua, agent, at, at.Add(-time.Minute), at.Add(time.Hour)), `"host":"www.example.org"`, `"host":"shop.example.org"`, 1)
	log.WriteString(other)
	logFile := filepath.Join(t.TempDir(), "access.json")
	if err := os.WriteFile(logFile, []byte(log.String()), 0o644); err != nil {
		t.Fatal(err)
	}

	var doc struct {
		Clients []struct {
			IP         string   `json:"ip"`
			Operator   string   `json:"operator"`
			Identity   string   `json:"identity"`
			VerifiedBy string   `json:"verified_by"`
			Details    []string `json:"details"`
		} `json:"clients"`
	}
	out, _ := runJSON(t, nil, &doc, "-o", "json", "--keys", dir, logFile)
	want := map[string]string{"198.51.100.7": "signature", "198.51.100.20": "signature", "203.0.113.8": "", "203.0.113.9": "", "203.0.113.10": ""}
	why := map[string]string{"203.0.113.8": "no stored key directory holds", "203.0.113.9": "expired", "203.0.113.10": "does not verify"}
	seen := 0
	for _, c := range doc.Clients {
		by, ok := want[c.IP]
		if !ok {
			continue
		}
		seen++
		if c.VerifiedBy != by || c.Operator != "OpenAI" {
			t.Errorf("%s: operator %q, identity %q, verified_by %q; want OpenAI, verified_by %q", c.IP, c.Operator, c.Identity, c.VerifiedBy, by)
		}
		if by != "" && c.Identity != "verified" {
			t.Errorf("%s: identity %q, want verified", c.IP, c.Identity)
		}
		if by == "" && c.Identity == "verified" {
			t.Errorf("%s: verified (by %q) with a bad signature", c.IP, c.VerifiedBy)
		}
		if w := why[c.IP]; w != "" && !strings.Contains(strings.Join(c.Details, "\n"), w) {
			t.Errorf("%s: details %q do not say %q", c.IP, c.Details, w)
		}
	}
	if seen != len(want) {
		t.Errorf("%d of the %d clients in the report", seen, len(want))
	}

	// Without --keys nothing is checked: the genuine agent, from an
	// address in none of OpenAI's lists, is not verified.
	_, out, _ = runCLI(t, nil, "-o", "json", logFile)
	if strings.Contains(out, `"verified_by": "signature"`) || !strings.Contains(out, `"identity": "impostor"`) {
		t.Error("verified by signature without --keys")
	}
}

// TestWebBotAuthBadKeyFile: a key file that does not parse is refused,
// named, with the reason.
func TestWebBotAuthBadKeyFile(t *testing.T) {
	tests := []struct {
		name, file, body, want string
	}{
		{"not JSON", "chatgpt.com.json", "<html>", "key file chatgpt.com.json: not a JSON Web Key Set"},
		{"a short key", "chatgpt.com.json", `{"keys":[{"kty":"OKP","crv":"Ed25519","x":"AAAA"}]}`, `key file chatgpt.com.json: key 1: "x" is not a 32-byte Ed25519 public key`},
		{"no key file", "README.txt", "keys go here", "no key directory file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, tt.file), []byte(tt.body), 0o644); err != nil {
				t.Fatal(err)
			}
			code, _, errOut := runCLI(t, nil, "--keys", dir, "testdata/scenarios/site/site.log")
			if code == cli.ExitOK || !strings.Contains(errOut, "--keys "+dir+": "+tt.want) {
				t.Errorf("exit %d, stderr %q; want an error naming %q", code, errOut, tt.want)
			}
		})
	}
}
