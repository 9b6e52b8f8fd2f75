package agents

import "testing"

func TestIdentifySigned(t *testing.T) {
	tests := []struct {
		name, ua, host string
		operator       string
		ok             bool
	}{
		{"ChatGPT-User signed by chatgpt.com", "ChatGPT-User", "chatgpt.com", "OpenAI", true},
		{"a browser's User-agent signed by chatgpt.com (ChatGPT agent)", "", "chatgpt.com", "OpenAI", true},
		{"an unknown robot signed by its own origin", "ExampleBot", "bots.example.net", "bots.example.net", true},
		{"Googlebot signed by chatgpt.com proves OpenAI, not Google", "Googlebot", "chatgpt.com", "", false},
		{"Googlebot signed by an origin robowatch does not know", "Googlebot", "crawler.example", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			op, id, by, ok := IdentifySigned(tt.ua, tt.host)
			if ok != tt.ok || op != tt.operator || ok && (id != IdentityVerified || by != VerifiedBySignature) {
				t.Errorf("IdentifySigned(%q, %q) = %q, %q, %q, %v; want %q, verified by signature: %v", tt.ua, tt.host, op, id, by, ok, tt.operator, tt.ok)
			}
		})
	}
}
