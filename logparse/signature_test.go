package logparse

import "testing"

// Web Bot Auth's headers, as JSON logs and format strings record them:
// their values hold quotes, which a JSON log escapes and nginx's default
// escaping writes as \x22.
func TestSignatureHeaders(t *testing.T) {
	const (
		sig   = `sig1=:dGVzdA==:`
		input = `sig1=("@authority" "signature-agent";key="sig1");created=1710057540;keyid="k";expires=1710061200;tag="web-bot-auth"`
		agent = `sig1="https://agent.example"`
	)
	nginx, err := ParseNginxFormat(`$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" "$http_signature" "$http_signature_input" "$http_signature_agent"`)
	if err != nil {
		t.Fatal(err)
	}
	apache, err := ParseApacheFormat(`%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i" "%{Signature}i" "%{Signature-Input}i" "%{Signature-Agent}i"`)
	if err != nil {
		t.Fatal(err)
	}
	caddy, err := ParseFormat("json")
	if err != nil {
		t.Fatal(err)
	}
	custom, err := ParseJSONFields("signature=sig,signature_input=sig_in,signature_agent=sig_agent")
	if err != nil {
		t.Fatal(err)
	}
	const clf = `192.0.2.1 - - [10/Mar/2024:08:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "ChatGPT-User/1.0" `
	tests := []struct {
		name string
		f    *Format
		line string
	}{
		{"nginx escape=default", nginx, clf + `"sig1=:dGVzdA==:" "sig1=(\x22@authority\x22 \x22signature-agent\x22;key=\x22sig1\x22);created=1710057540;keyid=\x22k\x22;expires=1710061200;tag=\x22web-bot-auth\x22" "sig1=\x22https://agent.example\x22"`},
		{"Apache", apache, clf + `"sig1=:dGVzdA==:" "sig1=(\"@authority\" \"signature-agent\";key=\"sig1\");created=1710057540;keyid=\"k\";expires=1710061200;tag=\"web-bot-auth\"" "sig1=\"https://agent.example\""`},
		{"nginx escape=json keys", caddy, `{"remote_addr":"192.0.2.1","time_iso8601":"2024-03-10T08:00:00+00:00","request":"GET / HTTP/1.1","status":200,"http_user_agent":"ChatGPT-User/1.0","http_signature":"sig1=:dGVzdA==:","http_signature_input":"sig1=(\"@authority\" \"signature-agent\";key=\"sig1\");created=1710057540;keyid=\"k\";expires=1710061200;tag=\"web-bot-auth\"","http_signature_agent":"sig1=\"https://agent.example\""}`},
		{"Caddy's headers", caddy, `{"ts":1710057600,"request":{"client_ip":"192.0.2.1","method":"GET","uri":"/","headers":{"User-Agent":["ChatGPT-User/1.0"],"Signature":["sig1=:dGVzdA==:"],"Signature-Input":["sig1=(\"@authority\" \"signature-agent\";key=\"sig1\");created=1710057540;keyid=\"k\";expires=1710061200;tag=\"web-bot-auth\""],"Signature-Agent":["sig1=\"https://agent.example\""]}},"status":200}`},
		{"--json-fields", custom, `{"ip":"192.0.2.1","time":"2024-03-10T08:00:00Z","uri":"/","sig":"sig1=:dGVzdA==:","sig_in":"sig1=(\"@authority\" \"signature-agent\";key=\"sig1\");created=1710057540;keyid=\"k\";expires=1710061200;tag=\"web-bot-auth\"","sig_agent":"sig1=\"https://agent.example\""}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rec Record
			if err := tt.f.Parse([]byte(tt.line), &rec); err != nil {
				t.Fatal(err)
			}
			if rec.Headers.Signature != sig || rec.Headers.SignatureInput != input || rec.Headers.SignatureAgent != agent {
				t.Errorf("Signature %q\nSignature-Input %q\nSignature-Agent %q\nwant %q, %q, %q", rec.Headers.Signature, rec.Headers.SignatureInput, rec.Headers.SignatureAgent, sig, input, agent)
			}
		})
	}
}
