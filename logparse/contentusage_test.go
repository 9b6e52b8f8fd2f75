package logparse

import "testing"

// TestContentUsageHeader: the Content-Usage response header, where a format
// string or a JSON log records it.
func TestContentUsageHeader(t *testing.T) {
	const want = "train-ai=n, search=y"
	nginx, err := ParseNginxFormat(`$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" "$sent_http_content_usage"`)
	if err != nil {
		t.Fatal(err)
	}
	apache, err := ParseApacheFormat(`%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i" "%{Content-Usage}o"`)
	if err != nil {
		t.Fatal(err)
	}
	json, err := ParseFormat("json")
	if err != nil {
		t.Fatal(err)
	}
	custom, err := ParseJSONFields("content_usage=cu")
	if err != nil {
		t.Fatal(err)
	}
	const clf = `192.0.2.1 - - [10/Mar/2024:08:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "GPTBot/1.0" `
	tests := []struct {
		name string
		f    *Format
		line string
	}{
		{"nginx", nginx, clf + `"train-ai=n, search=y"`},
		{"Apache", apache, clf + `"train-ai=n, search=y"`},
		{"nginx JSON", json, `{"remote_addr":"192.0.2.1","time_iso8601":"2024-03-10T08:00:00+00:00","request":"GET / HTTP/1.1","status":200,"http_user_agent":"GPTBot/1.0","sent_http_content_usage":"train-ai=n, search=y"}`},
		{"Caddy's response headers", json, `{"ts":1710057600,"request":{"client_ip":"192.0.2.1","method":"GET","uri":"/","headers":{"User-Agent":["GPTBot/1.0"]}},"status":200,"resp_headers":{"Content-Usage":["train-ai=n, search=y"]}}`},
		{"--json-fields", custom, `{"ip":"192.0.2.1","time":"2024-03-10T08:00:00Z","uri":"/","cu":"train-ai=n, search=y"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rec Record
			if err := tt.f.Parse([]byte(tt.line), &rec); err != nil {
				t.Fatal(err)
			}
			var got string
			if rec.Headers != nil {
				got = rec.Headers.ContentUsage
			}
			if got != want {
				t.Errorf("ContentUsage = %q, want %q", got, want)
			}
		})
	}
}
