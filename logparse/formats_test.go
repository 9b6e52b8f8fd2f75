package logparse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"os"
	"strings"
	"testing"
	"time"
)

// readText reads every record of text with f (nil: detected), as the CLI
// does, and returns them with the stats.
func readText(t *testing.T, text string, f *Format) ([]Record, Stats) {
	t.Helper()
	rd := NewReader(strings.NewReader(text), "t.log", f)
	var recs []Record
	for {
		var rec Record
		err := rd.Read(&rec)
		if err == io.EOF {
			break
		}
		var pe *ParseError
		if err != nil && !errors.As(err, &pe) {
			t.Fatal(err)
		}
		if err == nil {
			recs = append(recs, rec)
		}
	}
	return recs, rd.Stats()
}

// TestDetectFormats: each sample in testdata/formats, modelled on what the
// server documents, is detected and read whole, and its first record has
// the fields a report needs.
func TestDetectFormats(t *testing.T) {
	tests := []struct {
		file, format               string
		records, directives        int64
		client, ua, method, target string
		status                     int
		bytes                      int64
		time                       string // RFC 3339, in UTC
		referer, host              string
	}{
		{"nginx.json.log", "json", 3, 0, "203.0.113.10", "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", "GET", "/index.html", 200, 5120, "2024-05-06T07:00:01Z", "https://example.com/", "www.example.com"},
		{"caddy.json.log", "json", 3, 0, "203.0.113.10", "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", "GET", "/index.html", 200, 5120, "2024-05-06T07:00:01.5241024Z", "https://example.com/", "www.example.com"},
		{"traefik.json.log", "json", 2, 0, "203.0.113.10", "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", "GET", "/index.html", 200, 5120, "2024-05-06T07:00:01.123456789Z", "https://example.com/", "www.example.com"},
		{"appgw.json.log", "json", 2, 0, "203.0.113.10", "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", "GET", "/shop/item?id=7", 200, 5120, "2024-05-06T07:00:01Z", "", "www.example.com"},
		{"lighttpd.log", "lighttpd", 4, 0, "203.0.113.10", "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", "GET", "/index.html", 200, 5120, "2024-05-06T07:00:01Z", "https://example.com/", "www.example.com"},
		{"iis.log", "w3c", 5, 8, "203.0.113.10", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36", "GET", "/index.html", 200, -1, "2024-05-06T07:00:01Z", "https://example.com/", ""},
		{"cloudfront.log", "cloudfront", 2, 2, "203.0.113.10", "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", "GET", "/index.html", 200, 5120, "2024-05-06T07:00:01Z", "https://example.com/", "www.example.com"},
		{"cloudfront-cname.log", "cloudfront", 3, 2, "192.0.2.200", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/78.0.3904.108 Safari/537.36", "GET", "/favicon.ico", 502, 900, "2019-12-13T22:36:27Z", "http://www.example.com/", "www.example.com"},
		{"alb.log", "alb", 3, 0, "203.0.113.10", "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", "GET", "http://www.example.com:80/index.html", 200, 5120, "2024-05-06T07:00:01.186641Z", "", "www.example.com"},
		{"elb.log", "elb", 2, 0, "203.0.113.10", "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", "GET", "http://www.example.com:80/index.html", 200, 5120, "2024-05-06T07:00:01.945958Z", "", "www.example.com"},
		{"s3.log", "s3", 2, 0, "203.0.113.10", "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", "GET", "/DOC-EXAMPLE-BUCKET1/index.html", 200, 5120, "2024-05-06T07:00:01Z", "https://example.com/", "DOC-EXAMPLE-BUCKET1"},
		{"haproxy.log", "haproxy", 3, 0, "203.0.113.10", "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", "GET", "/index.html", 200, 5120, "2024-05-06T07:00:01.655Z", "", "www.example.com"},
		{"haproxy-short.log", "haproxy", 3, 0, "203.0.113.10", "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", "GET", "/index.html", 200, 5120, "2024-05-06T07:00:01.655Z", "", "www.example.com"},
		// Akamai DataStream 2's documented JSON sample (https://techdocs.akamai.com/datastream2/docs/log-format),
		// with its URI-encoded User-agent and Referer, and queryStr apart from reqPath.
		{"akamai.json.log", "json", 2, 0, "4.5.6.7", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_14_3)", "GET", "/path1/path2/file.ext?param=value", 206, 4995, "2019-11-15T17:46:40Z", "https://test.referrer.net/en-US/docs/Web/test", "test.hostname.net"},
		{"squid.log", "squid", 3, 0, "203.0.113.10", "", "GET", "http://www.example.com/index.html", 200, 5120, "2024-05-06T07:00:01.779Z", "", "www.example.com"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			b, err := os.ReadFile("../testdata/formats/" + tt.file)
			if err != nil {
				t.Fatal(err)
			}
			recs, st := readText(t, string(b), nil)
			if st.Format != tt.format || st.Records != tt.records || st.Malformed != 0 || st.Directives != tt.directives || st.Lines != st.Records+st.Malformed+st.Directives {
				t.Fatalf("format %q, %d lines: %d records, %d malformed (%v), %d directives; want %q, %d records, %d directives",
					st.Format, st.Lines, st.Records, st.Malformed, st.Samples, st.Directives, tt.format, tt.records, tt.directives)
			}
			r := recs[0]
			got := []any{r.Client, r.UserAgent, r.Method, r.Target, r.Status, r.Bytes, r.Time.UTC().Format(time.RFC3339Nano), r.Referer, r.VHost}
			want := []any{tt.client, tt.ua, tt.method, tt.target, tt.status, tt.bytes, tt.time, tt.referer, tt.host}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("field %d: got %q, want %q", i, got[i], want[i])
				}
			}
			// The parallel reader, as the CLI reads, gives the same records.
			pr := NewParallelReader(strings.NewReader(string(b)), "t.log", nil)
			defer pr.Close()
			for i := 0; ; i++ {
				var rec Record
				err := pr.Read(&rec)
				if err == io.EOF {
					if i != len(recs) {
						t.Errorf("parallel: %d records, want %d", i, len(recs))
					}
					break
				}
				if err != nil {
					t.Fatalf("parallel: %v", err)
				}
				if i >= len(recs) || rec.Client != recs[i].Client || rec.Target != recs[i].Target || !rec.Time.Equal(recs[i].Time) {
					t.Fatalf("parallel record %d: %+v", i, rec)
				}
			}
		})
	}
}

// TestW3CFieldsChange: IIS writes a new #Fields line after a restart; the
// lines after it read by it, and a record in the old layout after the new
// line would be malformed, not misread.
func TestW3CFieldsChange(t *testing.T) {
	b, err := os.ReadFile("../testdata/formats/iis.log")
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := readText(t, string(b), nil)
	last := recs[len(recs)-1]
	if last.Client != "2001:db8::42" || last.Method != "HEAD" || last.Bytes != 0 || last.VHost != "www.example.com" || last.UserAgent != "curl/8.5.0" {
		t.Errorf("record after the second #Fields line: %+v", last)
	}
	if q := recs[2]; q.Target != "/private/a?q=1" {
		t.Errorf("cs-uri-query not joined: %q", q.Target)
	}
	text := "#Fields: date time c-ip cs-method cs-uri-stem sc-status\n2024-05-06 07:00:01 192.0.2.1 GET / 200\n2024-05-06 07:00:01 192.0.2.1 GET / 200 extra\n"
	_, st := readText(t, text, nil)
	if st.Records != 1 || st.Malformed != 1 || st.Directives != 1 {
		t.Errorf("records %d malformed %d directives %d, want 1 1 1", st.Records, st.Malformed, st.Directives)
	}
}

// TestCloudFrontDecoding: CloudFront percent-encodes its fields and the
// User-agent twice: HeadlessChrome reads as HeadlessChrome, not
// "20HeadlessChrome"; the query is decoded once.
func TestCloudFrontDecoding(t *testing.T) {
	b, err := os.ReadFile("../testdata/formats/cloudfront.log")
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := readText(t, string(b), nil)
	r := recs[1]
	if want := "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.0.0 Safari/537.36"; r.UserAgent != want {
		t.Errorf("User-agent %q, want %q", r.UserAgent, want)
	}
	if r.Target != "/search?q=caf%C3%A9" {
		t.Errorf("target %q", r.Target)
	}
}

// TestJSONBadLines: a line with wrong types, no client, nesting past the
// bound, a duplicate key or broken syntax is one malformed line each;
// the good lines around them are read.
func TestJSONBadLines(t *testing.T) {
	good := `{"remote_addr":"192.0.2.1","request":"GET / HTTP/1.1","status":200,"http_user_agent":"curl/8"}`
	bad := []string{
		`{"remote_addr":"192.0.2.2","status":{"code":200}}`,                   // status an object
		`{"remote_addr":"192.0.2.2","status":"OK"}`,                           // status not a number
		`{"request":"GET / HTTP/1.1","status":200}`,                           // no client
		`{"remote_addr":"192.0.2.2","remote_addr":"192.0.2.3"}`,               // duplicate key
		`{"remote_addr":"192.0.2.2","x":` + strings.Repeat("[", 5000) + `}`,   // nesting
		`{"remote_addr":"192.0.2.2",`,                                         // cut
		`{"remote_addr":"192.0.2.2"} trailing`,                                // text after
		`{"remote_addr":"192.0.2.2","time_iso8601":"yesterday"}`,              // time
		`{"remote_addr":"192.0.2.2","http_user_agent":"bad \q escape"}`,       // escape
		`{"remote_addr":"192.0.2.2","status":200,"http_user_agent":"curl/8"}`, // no time, no request: keys not known
		`not json at all`,
	}
	text := good + "\n" + strings.Join(bad, "\n") + "\n" + good + "\n"
	recs, st := readText(t, text, JSONFormat)
	if len(recs) != 2 || st.Malformed != int64(len(bad)) {
		t.Errorf("%d records, %d malformed; want 2 and %d: %v", len(recs), st.Malformed, len(bad), st.Samples)
	}
	// nginx's default escaping in a JSON-shaped log_format without
	// escape=json: \x22 for '"'.
	recs, _ = readText(t, `{"remote_addr":"192.0.2.1","request":"GET / HTTP/1.1","http_user_agent":"say \x22hi\x22"}`+"\n", JSONFormat)
	if len(recs) != 1 || recs[0].UserAgent != `say "hi"` {
		t.Errorf("\\x22: %+v", recs)
	}
	// Escapes: nginx's \u0022 and a surrogate pair.
	recs, _ = readText(t, `{"remote_addr":"192.0.2.1","request_uri":"/a?q=\u0022x\u0022","http_user_agent":"bot \ud83e\udd16/1.0"}`+"\n", JSONFormat)
	if len(recs) != 1 || recs[0].Target != `/a?q="x"` || recs[0].UserAgent != "bot 🤖/1.0" {
		t.Errorf("escapes: %+v", recs)
	}
	// Escaped quotes and backslashes next to the closing quote, after a
	// run of escapes (the scanner keeps the quote it found until an escape
	// passes it).
	for ua, want := range map[string]string{
		strings.Repeat(`\u00e9`, 3) + `\\`:       "ééé\\",
		strings.Repeat(`\u00e9`, 3) + `\"`:       `ééé"`,
		`\\\"\\` + strings.Repeat(`\"`, 3) + `x`: `\"\"""x`,
		`a\\`:                                    `a\`,
	} {
		recs, st := readText(t, `{"remote_addr":"192.0.2.1","request":"GET / HTTP/1.1","http_user_agent":"`+ua+`","status":200}`+"\n", JSONFormat)
		if len(recs) != 1 || recs[0].UserAgent != want || recs[0].Status != 200 {
			t.Errorf("%s: %+v %v, want %q", ua, recs, st.Samples, want)
		}
	}
}

// TestJSONTimes: the times JSON logs write. One with no zone is UTC.
func TestJSONTimes(t *testing.T) {
	tests := []struct{ in, want string }{
		{`"2024-05-06T07:00:01+02:00"`, "2024-05-06T05:00:01Z"},
		{`"2024-05-06T07:00:01"`, "2024-05-06T07:00:01Z"},
		{`"2024-05-06 07:00:01"`, "2024-05-06T07:00:01Z"},
		{`"2024-05-06 07:00:01.250"`, "2024-05-06T07:00:01.25Z"},
		{`"2024-05-06T07:00:01,123456789"`, "2024-05-06T07:00:01.123456789Z"},
		{`"06/May/2024:07:00:01 +0000"`, "2024-05-06T07:00:01Z"},
		{`1714978801`, "2024-05-06T07:00:01Z"},
		{`1714978801.5`, "2024-05-06T07:00:01.5Z"},
		{`1714978801500`, "2024-05-06T07:00:01.5Z"},
		{`1714978801500000`, "2024-05-06T07:00:01.5Z"},
		{`1714978801500000000`, "2024-05-06T07:00:01.5Z"}, // Cloudflare Logpush
		{`"1714978801"`, "2024-05-06T07:00:01Z"},
		{`"2024-05-06T07:00"`, ""},
		{`"2024-05-06T07:00:01 garbage"`, ""},
		{`9999999999999999999`, ""},
	}
	for _, tt := range tests {
		line := `{"remote_addr":"192.0.2.1","time":` + tt.in + `,"request":"GET / HTTP/1.1","status":200}` + "\n"
		recs, st := readText(t, line, JSONFormat)
		switch {
		case tt.want == "" && st.Malformed != 1:
			t.Errorf("time %s: %d malformed, want the line malformed (%+v)", tt.in, st.Malformed, recs)
		case tt.want != "" && (len(recs) != 1 || recs[0].Time.UTC().Format(time.RFC3339Nano) != tt.want):
			t.Errorf("time %s: %+v (%v), want %s", tt.in, recs, st.Samples, tt.want)
		}
	}
}

// TestCloudJSON: the JSON logs of CDNs and cloud load balancers are read
// under their own key names, without --json-fields: Cloudflare Logpush
// (nanosecond timestamps), Google Cloud's load balancers (httpRequest) and
// Azure Front Door (properties). Lines modelled on each one's documentation.
func TestCloudJSON(t *testing.T) {
	b, err := os.ReadFile("../testdata/formats/cloud.json.log")
	if err != nil {
		t.Fatal(err)
	}
	recs, st := readText(t, string(b), nil)
	if st.Format != "json" || st.Malformed != 0 || len(recs) != 3 {
		t.Fatalf("format %q: %d records, %d malformed (%v)", st.Format, len(recs), st.Malformed, st.Samples)
	}
	want := []struct {
		client, method, target, ua, host, time string
		status                                 int
		bytes                                  int64
	}{
		{"203.0.113.10", "GET", "/index.html?a=1", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "www.example.com", "2024-05-06T07:00:01.5Z", 200, 5120},
		{"198.51.100.7", "GET", "https://www.example.com/private/x", "curl/8.5.0", "www.example.com", "2024-05-06T07:00:02.123456Z", 404, 512},
		{"192.0.2.44", "GET", "https://www.example.com:443/a", "python-requests/2.31", "www.example.com", "2024-05-06T07:00:03Z", 200, 999},
	}
	for i, w := range want {
		r := recs[i]
		got := []any{r.Client, r.Method, r.Target, r.UserAgent, r.VHost, r.Time.UTC().Format(time.RFC3339Nano), r.Status, r.Bytes}
		exp := []any{w.client, w.method, w.target, w.ua, w.host, w.time, w.status, w.bytes}
		for k := range got {
			if got[k] != exp[k] {
				t.Errorf("line %d, field %d: got %v, want %v", i+1, k, got[k], exp[k])
			}
		}
	}
}

// TestNginxJSONKeyNames: nginx JSON templates found in deployments name
// the fields their own way: Elastic's widely copied json_logstash
// ("response": "$status", "agent", "referrer", "remote_ip"; as in
// nginx_json_logs of elastic/examples, whose README gives the template),
// and nginx's variable names in lower camel case ("remoteAddr",
// "requestUri", "httpUserAgent", …, as in a blog post of bithole.dev and
// syslog2sqlite's README). The lines are written after them, not copied.
// Kong's "response" object (response.status) stays a status's parent.
func TestNginxJSONKeyNames(t *testing.T) {
	tests := []struct {
		name, line string
		want       realFields
	}{
		{"json_logstash", `{"time": "17/May/2015:08:05:32 +0000", "remote_ip": "198.51.100.3", "remote_user": "-", "request": "GET /downloads/product_1 HTTP/1.1", "response": 404, "bytes": 0, "referrer": "-", "agent": "Debian APT-HTTP/1.3 (0.8.16~exp12ubuntu10.21)"}`,
			realFields{"198.51.100.3", "GET", "/downloads/product_1", 404, "Debian APT-HTTP/1.3 (0.8.16~exp12ubuntu10.21)", ""}},
		{"json_logstash string status", `{"time": "17/May/2015:08:05:32 +0000", "remote_ip": "198.51.100.3", "request": "GET / HTTP/1.1", "response": "301", "agent": "curl/8.5.0"}`,
			realFields{"198.51.100.3", "GET", "/", 301, "curl/8.5.0", ""}},
		{"camel case", `{"timestamp": 1661105476.291,"requestLen": 28,"status": 200,"remoteAddr": "203.0.113.9","requestMethod": "GET","requestUri": "/a?b=1","protocol": "HTTP/2.0","referrer": "","userAgent": "curl/7.68.0","host": "www.example.com"}`,
			realFields{"203.0.113.9", "GET", "/a?b=1", 200, "curl/7.68.0", "www.example.com"}},
		{"camel case nginx names", `{"remoteAddr": "203.0.113.9","remoteUser": "-","requestUri": "/","status": "403","bodyBytesSent": "12","httpReferer": "https://www.example.com/","httpUserAgent": "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0"}`,
			realFields{"203.0.113.9", "", "/", 403, "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", ""}},
		// Other JSON logs write a text under "response" (an API's
		// answer): no status, and no malformed line either.
		{"response as text", `{"remote_addr":"203.0.113.9","time_iso8601":"2024-05-06T09:00:02+00:00","request":"GET / HTTP/1.1","response":"hello world","http_user_agent":"curl/8.5.0"}`,
			realFields{"203.0.113.9", "GET", "/", 0, "curl/8.5.0", ""}},
		{"response beside a status", `{"remote_addr":"203.0.113.9","time_iso8601":"2024-05-06T09:00:02+00:00","request":"GET / HTTP/1.1","status":200,"response":"OK","http_user_agent":"curl/8.5.0"}`,
			realFields{"203.0.113.9", "GET", "/", 200, "curl/8.5.0", ""}},
		{"kong response object", `{"started_at":1714978801000,"client_ip":"203.0.113.10","request":{"method":"GET","uri":"/","headers":{"user-agent":"curl/8.5.0"}},"response":{"status":404,"size":10}}`,
			realFields{"203.0.113.10", "GET", "/", 404, "curl/8.5.0", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, st := readText(t, tt.line+"\n", nil)
			if st.Format != "json" || len(recs) != 1 {
				t.Fatalf("format %s, %d records (%v)", st.Format, len(recs), st.Samples)
			}
			r := recs[0]
			got := realFields{r.Client, r.Method, r.Target, r.Status, r.UserAgent, r.VHost}
			if got != tt.want {
				t.Errorf("got %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

// TestCloudFrontWithoutFields: a CloudFront log whose #Fields lines were
// cut off (a file split, or several concatenated) is read by the fields
// CloudFront documents, detected or named with -f cloudfront; a line of
// today's 33 fields or an older one of 24 or 26, not one cut shorter.
func TestCloudFrontWithoutFields(t *testing.T) {
	b, err := os.ReadFile("../testdata/formats/cloudfront.log")
	if err != nil {
		t.Fatal(err)
	}
	var line string
	for l := range strings.SplitSeq(string(b), "\n") {
		if l != "" && l[0] != '#' {
			line = l
			break
		}
	}
	all := strings.Split(line, "\t")
	if len(all) != 33 {
		t.Fatalf("the sample line has %d fields, want 33", len(all))
	}
	for _, tt := range []struct {
		fields int
		ok     bool
	}{{33, true}, {26, true}, {24, true}, {20, false}} {
		text := strings.Join(all[:tt.fields], "\t") + "\n"
		for _, f := range []*Format{nil, CloudFrontFormat} {
			recs, st := readText(t, text, f)
			if !tt.ok {
				if len(recs) != 0 {
					t.Errorf("%d fields, format %v: read as %+v, want malformed", tt.fields, f, recs)
				}
				continue
			}
			if st.Format != "cloudfront" || len(recs) != 1 || recs[0].Client != "203.0.113.10" || recs[0].Target != "/index.html" ||
				recs[0].UserAgent != "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0" {
				t.Errorf("%d fields, format %v: format %q, %+v (%v)", tt.fields, f, st.Format, recs, st.Samples)
			}
		}
	}
}

// TestJSONFields: --json-fields names the keys of a log robowatch does not
// know, nested ones by their dotted path.
func TestJSONFields(t *testing.T) {
	f, err := ParseJSONFields("ip=client.address, ua=agent, time=@ts, uri=req.path, status=code")
	if err != nil {
		t.Fatal(err)
	}
	line := `{"client":{"address":"192.0.2.9"},"agent":"Scrapy/2.11","@ts":"2024-05-06T09:00:00Z","req":{"path":"/x"},"code":"301"}` + "\n"
	recs, _ := readText(t, line, f)
	if len(recs) != 1 || recs[0].Client != "192.0.2.9" || recs[0].UserAgent != "Scrapy/2.11" || recs[0].Target != "/x" || recs[0].Status != 301 || recs[0].Time.IsZero() {
		t.Errorf("records %+v", recs)
	}
	// A peer written with its port (Caddy before 2.5, Envoy's JSON) is its
	// address; an IPv6 address's colons are no port; a host name stays.
	f, err = ParseJSONFields("ip=peer")
	if err != nil {
		t.Fatal(err)
	}
	for peer, want := range map[string]string{
		"203.0.113.99:40001": "203.0.113.99", "[2001:db8::7]:50123": "2001:db8::7", "2001:db8::7": "2001:db8::7",
		"203.0.113.99": "203.0.113.99", "proxy.example:8080": "proxy.example:8080",
	} {
		recs, _ := readText(t, `{"peer":"`+peer+`","time":"2024-05-06T09:00:00Z","request":"GET / HTTP/1.1","status":200}`+"\n", f)
		if len(recs) != 1 || recs[0].Client != want {
			t.Errorf("ip=peer %q: records %+v, want client %q", peer, recs, want)
		}
	}
	for _, bad := range []string{"ip", "colour=x", "ua="} {
		if _, err := ParseJSONFields(bad); err == nil {
			t.Errorf("ParseJSONFields(%q): no error", bad)
		}
	}
	// Every field --json-fields takes is named where an unknown one is
	// refused, xff too (the README lists it; --trust-proxy reads it), and the
	// header fields --keys and Content-Usage read.
	_, err = ParseJSONFields("colour=x")
	for _, name := range []string{"ip", "time", "request", "method", "uri", "protocol", "status", "bytes", "referer", "ua", "host", "xff", "signature", "signature_input", "signature_agent", "content_usage"} {
		if _, e := ParseJSONFields(name + "=k"); e != nil {
			t.Errorf("ParseJSONFields(%q): %v", name+"=k", e)
		}
		if err == nil || !strings.Contains(err.Error(), " "+name) {
			t.Errorf("unknown field: %v, does not name %q", err, name)
		}
	}
	f, err = ParseJSONFields("ip=peer,xff=fwd")
	if err != nil {
		t.Fatal(err)
	}
	recs, _ = readText(t, `{"peer":"10.0.0.1","fwd":"203.0.113.7","time":"2024-05-06T09:00:00Z","request":"GET / HTTP/1.1","status":200}`+"\n", f)
	if len(recs) != 1 || recs[0].Forwarded() != "203.0.113.7" {
		t.Errorf("xff=fwd: records %+v", recs)
	}
}

// TestNothingRead: an input of which no line parsed is an error naming it;
// one of which some did, or an empty one, is not.
func TestNothingRead(t *testing.T) {
	// With a format given, the first line's reason: no report follows.
	envoy := Stats{Lines: 3, Malformed: 3, Format: "envoy", Samples: []*ParseError{{File: "e.log", Line: 1, Err: fmt.Errorf("%w: no client address", ErrMismatch)}}}
	if err := envoy.NothingRead("e.log", false); err == nil || !strings.Contains(err.Error(), "none of its 3 lines is an envoy log line (line 1: ") || !strings.Contains(err.Error(), "no client address") {
		t.Errorf("given format: %v", err)
	}
	if err := (Stats{Lines: 3, Malformed: 3, Format: "combined"}).NothingRead("a.log", true); err == nil || !strings.Contains(err.Error(), "a.log: none of its 3 lines") || !strings.Contains(err.Error(), "--format") {
		t.Errorf("nothing parsed: %v", err)
	}
	// The hint names only the keys the line lacks.
	for _, tt := range []struct{ line, want, notWant string }{
		{`{"peer":"192.0.2.1","time":"2024-05-06T09:00:00Z","uri":"/x","ua":"curl/8.5.0","status":200}`, "--json-fields ip=KEY", "time=KEY"},
		{`{"ClientAddr":"192.0.2.1:5100","RequestPath":"/x"}`, "--json-fields time=KEY,ua=KEY", "ip=KEY"},
		{`{"a":1}`, "--json-fields ip=KEY,time=KEY,uri=KEY,ua=KEY", "status"},
	} {
		st := Stats{Lines: 1, Malformed: 1, Samples: []*ParseError{{Line: 1, Text: tt.line}}}
		if err := st.NothingRead("a.json", true); err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), tt.notWant) {
			t.Errorf("%s: %v, want %q and not %q", tt.line, err, tt.want, tt.notWant)
		}
	}
	js := Stats{Lines: 1, Malformed: 1, Samples: []*ParseError{{Line: 1, Text: `{"ClientAddr":"192.0.2.1"}`}}}
	if err := js.NothingRead("a.json", true); err == nil || !strings.Contains(err.Error(), "--json-fields") {
		t.Errorf("JSON of unknown keys: %v, want a pointer to --json-fields", err)
	}
	if err := (Stats{Lines: 3, Records: 1, Malformed: 2}).NothingRead("a.log", true); err != nil {
		t.Errorf("some parsed: %v", err)
	}
	if err := (Stats{}).NothingRead("a.log", true); err != nil {
		t.Errorf("empty: %v", err)
	}
}

func FuzzJSONLine(f *testing.F) {
	for _, s := range []string{`{"remote_addr":"1.2.3.4","status":200}`, `{"request":{"headers":{"User-Agent":["x"]}},"ts":1.5}`, `{"a":[[[{"b":"\u00e9"}]]]}`, `{`, `{"a":"\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var rec Record
		err := JSONFormat.Parse([]byte(line), &rec)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("not a ParseError: %v", err)
			}
		} else if rec.Client == "" {
			t.Fatalf("a record without a client: %q", line)
		}
	})
}

func FuzzW3CLines(f *testing.F) {
	f.Add("#Fields: date time c-ip cs(User-Agent)\n2024-05-06 07:00:01 1.2.3.4 a+b\n")
	f.Add("#Fields: date time c-ip cs-uri-stem cs-uri-query x-edge-location\n2024-05-06\t07:00:01\t1.2.3.4\t/%41\tq=%2\tFRA\n")
	f.Fuzz(func(t *testing.T, text string) {
		rd := NewReader(strings.NewReader(text), "f", W3CFormat)
		for range 1000 {
			var rec Record
			err := rd.Read(&rec)
			if err == io.EOF {
				break
			}
			var pe *ParseError
			if err != nil && !errors.As(err, &pe) {
				break
			}
		}
		st := rd.Stats()
		if st.Lines != st.Records+st.Malformed+st.Directives {
			t.Fatalf("lines %d != %d + %d + %d", st.Lines, st.Records, st.Malformed, st.Directives)
		}
	})
}

// TestTokenFormatsDetails: what each fixed layout has beyond the common
// fields: an IPv6 client without brackets before its port (ALB), a line
// without the syslog prefix (HAProxy), a CONNECT probe (Squid).
func TestTokenFormatsDetails(t *testing.T) {
	read := func(file string) []Record {
		b, err := os.ReadFile("../testdata/formats/" + file)
		if err != nil {
			t.Fatal(err)
		}
		recs, _ := readText(t, string(b), nil)
		return recs
	}
	if r := read("alb.log")[2]; r.Client != "2001:db8::42" || r.Status != 403 || r.Protocol != "HTTP/2.0" {
		t.Errorf("ALB IPv6 line: %+v", r)
	}
	// A bracketed IPv6 client before its port is one field: the fields
	// after it keep their places.
	for _, tt := range []struct {
		f    *Format
		line string
	}{
		{ALBFormat, `http 2024-05-06T07:00:01.186641Z app/lb/50dc [2001:DB8::42]:2817 10.0.0.1:80 0.000 0.001 0.000 403 403 34 5120 "GET http://www.example.com:80/x HTTP/1.1" "curl/8.5.0" - - arn:x "Root=1" "-" "-" 0 2024-05-06T07:00:01.164000Z "forward" "-" "-" "10.0.0.1:80" "403" "-" "-" TID_1`},
		{ALBFormat, `http 2024-05-06T07:00:01.186641Z app/lb/50dc [::ffff:203.0.113.9]:2817 10.0.0.1:80 0.000 0.001 0.000 403 403 34 5120 "GET http://www.example.com:80/x HTTP/1.1" "curl/8.5.0" - - arn:x "Root=1" "-" "-" 0 2024-05-06T07:00:01.164000Z "forward" "-" "-" "10.0.0.1:80" "403" "-" "-" TID_1`},
		{ELBFormat, `2024-05-06T07:00:01.186641Z my-elb [2001:db8:0:0:0:0:0:42]:2817 10.0.0.1:80 0.000 0.001 0.000 403 403 34 5120 "GET http://www.example.com:80/x HTTP/1.1" "curl/8.5.0" - -`},
		{HAProxyFormat, `[2001:db8::42]:33317 [06/May/2024:07:00:01.655] http-in static/srv1 10/0/30/69/109 403 5120 - - ---- 1/1/1/1/0 0/0 {www.example.com|curl/8.5.0} {} "GET /x HTTP/1.1"`},
	} {
		var rec Record
		err := tt.f.Parse([]byte(tt.line), &rec)
		want := "2001:db8::42"
		if strings.Contains(tt.line, "203.0.113.9") {
			want = "203.0.113.9"
		}
		if err != nil || rec.Client != want || rec.Status != 403 || rec.UserAgent != "curl/8.5.0" || rec.Target == "" {
			t.Errorf("%s, [v6]:port: %v, %+v", tt.f.Name(), err, rec)
		}
	}
	if r := read("haproxy.log")[2]; r.Client != "198.51.100.7" || r.UserAgent != "python-requests/2.31.0" || r.Status != 404 {
		t.Errorf("HAProxy line without syslog prefix: %+v", r)
	}
	// HAProxy 2.5+ logs a client abort with status -1: a request, no status.
	var abort Record
	if err := HAProxyFormat.Parse([]byte(`198.51.100.11:33320 [10/Mar/2024:08:00:03.000] http-in static/srv1 0/0/0/-1/1 -1 0 - - CD-- 1/1/1/1/0 0/0 "GET /big.iso HTTP/1.1"`), &abort); err != nil || abort.Status != 0 || abort.Target != "/big.iso" {
		t.Errorf("HAProxy client abort (-1): %v, %+v", err, abort)
	}
	if r := read("squid.log")[1]; r.Method != "CONNECT" || r.Status != 403 || r.VHost != "www.example.com" {
		t.Errorf("Squid CONNECT: %+v", r)
	}
}

// TestCloudFrontHost: the virtual host of a CloudFront record is the Host
// the viewer sent (x-host-header: the alternate domain name, or the
// distribution's own name when the viewer used that), not cs(Host), which
// is always the distribution's.
func TestCloudFrontHost(t *testing.T) {
	b, err := os.ReadFile("../testdata/formats/cloudfront-cname.log")
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := readText(t, string(b), nil)
	for i, want := range []string{"www.example.com", "www.example.com", "d111111abcdef8.cloudfront.net"} {
		if i >= len(recs) || recs[i].VHost != want {
			t.Errorf("record %d: virtual host %q, want %q", i+1, recs[min(i, len(recs)-1)].VHost, want)
		}
	}
}

// TestHAProxyHeaders: whatever header comes before the client:port, a
// syslog daemon's or the one HAProxy's "log … format" writes (its
// configuration manual, "log"), the client is the token before the accept
// date, without the priority "short" and "priority" put right before it.
func TestHAProxyHeaders(t *testing.T) {
	const msg = `203.0.113.10:33317 [06/May/2024:07:00:01.655] http-in static/srv1 10/0/30/69/109 200 5120 - - ---- 1/1/1/1/0 0/0 "GET /index.html HTTP/1.1"`
	for _, tt := range []struct{ format, header string }{
		{"raw", ""},
		{"short", "<6>"},
		{"priority", "<134>"},
		{"timed", "<6>2024-05-06T07:00:01.655123+00:00 "},
		{"iso", "2024-05-06T07:00:01.655123+00:00 "},
		{"local", "<134>May  6 07:00:01 haproxy[14389]: "},
		{"rfc3164", "<134>May  6 07:00:01 lb1 haproxy[14389]: "},
		{"rfc3164 by rsyslog", "May  6 07:00:01 lb1 haproxy[14389]: "},
		{"rfc5424", "<134>1 2024-05-06T07:00:01.655123+00:00 lb1 haproxy 14389 - - "},
	} {
		t.Run(tt.format, func(t *testing.T) {
			line := tt.header + msg + "\n"
			recs, st := readText(t, line+line, nil)
			if st.Format != "haproxy" || len(recs) != 2 || st.Malformed != 0 {
				t.Fatalf("format %q, %d records, %d malformed (%v)", st.Format, len(recs), st.Malformed, st.Samples)
			}
			if r := recs[0]; r.Client != "203.0.113.10" || r.Target != "/index.html" || r.Status != 200 || r.Bytes != 5120 {
				t.Errorf("%+v", r)
			}
		})
	}
}

// TestProxies: behind trusted proxies the client is the right-most
// X-Forwarded-For address that is not one of them; a request from anyone
// else keeps its address whatever its header says.
func TestProxies(t *testing.T) {
	p := Proxies{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("2001:db8:ffff::/48")}
	tests := []struct{ client, xff, want string }{
		{"10.0.0.5", "1.2.3.4, 203.0.113.9, 10.0.0.7", "203.0.113.9"},
		{"10.0.0.5", "203.0.113.9", "203.0.113.9"},
		{"198.51.100.1", "1.2.3.4", "198.51.100.1"},
		{"10.0.0.5", "", "10.0.0.5"},
		{"10.0.0.5", "10.0.0.6, 10.0.0.7", "10.0.0.6"},
		{"10.0.0.5", "1.2.3.4, not-an-address", "10.0.0.5"},
		{"2001:db8:ffff::1", "2001:db8::42", "2001:db8::42"},
		{"::ffff:10.0.0.5", "203.0.113.9", "203.0.113.9"},
		{"10.0.0.5", "203.0.113.9:4431, 10.0.0.7:80", "203.0.113.9"}, // ports, as some proxies append them
	}
	for _, tt := range tests {
		rec := Record{Client: tt.client, Headers: &Headers{Forwarded: tt.xff}}
		p.Resolve(&rec)
		if rec.Client != tt.want {
			t.Errorf("client %s, X-Forwarded-For %q: %s, want %s", tt.client, tt.xff, rec.Client, tt.want)
		}
	}
	// A link-local proxy as Java servers write it, with its zone: the zone
	// is dropped as the line is parsed, so that the trusted network holds
	// the proxy and its X-Forwarded-For is believed.
	ll := Proxies{netip.MustParsePrefix("fe80::/10")}
	for _, tt := range []struct{ line, want string }{
		{`fe80::1%eth0 - - [10/Mar/2024:08:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "curl/8.0" "2001:db8::42"`, "2001:db8::42"},
		{`FE80:0:0:0:0:0:0:1%2 - - [10/Mar/2024:08:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "curl/8.0" "2001:db8::42, fe80::2%eth0"`, "2001:db8::42"},
		{`fe80::1%eth0 - - [10/Mar/2024:08:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "curl/8.0" "-"`, "fe80::1"},
	} {
		var rec Record
		if err := CombinedXFF.Parse([]byte(tt.line), &rec); err != nil {
			t.Fatal(err)
		}
		ll.Resolve(&rec)
		if rec.Client != tt.want {
			t.Errorf("%s: client %s, want %s", tt.line, rec.Client, tt.want)
		}
	}
	// IIS writes the header's spaces as '+', as in any free-text field.
	iis := "#Fields: date time c-ip cs-method cs-uri-stem sc-status x-forwarded-for\n2024-05-06 07:00:01 10.0.0.1 GET / 200 198.51.100.9,+10.0.0.5\n"
	recs, _ := readText(t, iis, nil)
	if len(recs) != 1 || recs[0].Forwarded() != "198.51.100.9, 10.0.0.5" {
		t.Fatalf("IIS x-forwarded-for: %+v", recs)
	}
	if p.Resolve(&recs[0]); recs[0].Client != "198.51.100.9" {
		t.Errorf("IIS x-forwarded-for %q behind 10.0.0.0/8: client %s, want 198.51.100.9", recs[0].Forwarded(), recs[0].Client)
	}
	// Text formats carry the header too: nginx's "main" (detected as
	// combined_xff), an nginx log_format and an Apache LogFormat naming it.
	line := `10.0.0.5 - - [10/Mar/2024:08:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "curl/8.5.0" "203.0.113.9, 10.0.0.7"`
	for _, f := range []*Format{nil, CombinedXFF, mustFormat(`$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" "$http_x_forwarded_for"`),
		mustFormat(`%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i" "%{X-Forwarded-For}i"`)} {
		recs, st := readText(t, line+"\n", f)
		if len(recs) != 1 || recs[0].Forwarded() != "203.0.113.9, 10.0.0.7" {
			t.Fatalf("format %v (%s): %+v", f, st.Format, recs)
		}
		if f == nil && st.Format != "combined_xff" {
			t.Errorf("detected %s, want combined_xff", st.Format)
		}
		if p.Resolve(&recs[0]); recs[0].Client != "203.0.113.9" {
			t.Errorf("format %v: client %s, want 203.0.113.9", f, recs[0].Client)
		}
	}
	var none Proxies
	rec := Record{Client: "10.0.0.5", Headers: &Headers{Forwarded: "1.2.3.4"}}
	if none.Resolve(&rec); rec.Client != "10.0.0.5" {
		t.Errorf("no --trust-proxy: %s", rec.Client)
	}
}

// TestEnvoyIsNoBalancer: Envoy's default access log has an ISO time and
// the token count of AWS's Classic ELB log, with a status code where ELB
// has the client. It must not be read as ELB (every client "200", every
// request junk: a log of robots reported all clear), but as Envoy's, the
// client X-Forwarded-For's right-most address; Istio's by its peer.
func TestEnvoyIsNoBalancer(t *testing.T) {
	b, err := os.ReadFile("../testdata/formats/envoy-default.log")
	if err != nil {
		t.Fatal(err)
	}
	recs, st := readText(t, string(b), nil)
	if st.Format != "envoy" || len(recs) != 3 || st.Malformed != 0 {
		t.Fatalf("format %q: %d records, %d malformed (%v); want envoy, 3, 0", st.Format, len(recs), st.Malformed, st.Samples)
	}
	if r := recs[0]; r.Client != "66.249.66.1" || r.Target != "/robots.txt" || r.Status != 200 || r.Bytes != 312 || r.VHost != "www.example.com" ||
		!strings.HasPrefix(r.UserAgent, "Mozilla/5.0 (compatible; Googlebot/2.1") || r.Time.UTC().Format(time.RFC3339Nano) != "2024-03-10T08:00:00Z" {
		t.Errorf("envoy record %+v", r)
	}
	chain := `[2024-03-10T08:00:00.000Z] "GET / HTTP/1.1" 200 - 0 5 1 1 "203.0.113.9, 198.51.100.7" "curl/8.5.0" "id" "www.example.com" "10.0.3.7:8080"`
	if recs, _ := readText(t, chain+"\n", EnvoyFormat); len(recs) != 1 || recs[0].Client != "198.51.100.7" || recs[0].Forwarded() != "203.0.113.9, 198.51.100.7" {
		t.Errorf("envoy with an X-Forwarded-For chain: %+v", recs)
	}
	for _, xff := range []string{"-", "unknown", "evil;deny", ", , ,"} {
		line := `[2024-03-10T08:00:00.000Z] "GET / HTTP/1.1" 200 - 0 5 1 1 "` + xff + `" "curl/8.5.0" "id" "www.example.com" "10.0.3.7:8080"`
		if recs, st := readText(t, line+"\n", EnvoyFormat); len(recs) != 0 || st.Malformed != 1 {
			t.Errorf("envoy with X-Forwarded-For %q: %+v", xff, recs)
		}
	}
	withPort := `[2024-03-10T08:00:00.000Z] "GET / HTTP/1.1" 200 - 0 5 1 1 "203.0.113.9:5555" "curl/8.5.0" "id" "www.example.com" "10.0.3.7:8080"`
	if recs, _ := readText(t, withPort+"\n", EnvoyFormat); len(recs) != 1 || recs[0].Client != "203.0.113.9" {
		t.Errorf("envoy with a port in X-Forwarded-For: %+v", recs)
	}
	istio := `[2024-03-10T08:00:00.012Z] "GET /robots.txt HTTP/1.1" 200 - via_upstream - "-" 0 312 4 3 "-" "curl/8.5.0" "id" "www.example.com" "10.244.1.7:8080" outbound|8080||web.default.svc.cluster.local 10.244.1.5:41234 10.244.1.5:8080 66.249.66.1:50123 - default`
	if recs, st := readText(t, istio+"\n", nil); st.Format != "istio" || len(recs) != 1 || recs[0].Client != "66.249.66.1" || recs[0].UserAgent != "curl/8.5.0" {
		t.Errorf("istio: format %q, %+v (%v)", st.Format, recs, st.Samples)
	}
	for _, f := range []*Format{ELBFormat, ALBFormat} {
		var rec Record
		if err := f.Parse(b[:bytes.IndexByte(b, '\n')+1], &rec); err == nil {
			t.Errorf("%s read an Envoy line: client %q", f.Name(), rec.Client)
		}
	}
}

// TestNoRequest: lines that record a connection without an HTTP request —
// AWS's "- - - " for a TCP listener or a request the balancer could not
// read, nginx's "-" for a connection closed before its request line — are
// records with no method and no target (detect counts them as junk), not a
// request for the path "- - " by method "-".
func TestNoRequest(t *testing.T) {
	tests := []struct{ name, line string }{
		{"elb tcp", `2015-05-13T23:39:43.945958Z my-loadbalancer 192.168.131.39:2817 10.0.0.1:80 0.001069 0.000028 0.000041 - - 82 305 "- - - " "-" - -`},
		{"alb unreadable", `http 2018-07-02T22:22:48.364000Z app/my-loadbalancer/50dc6c495c0c9188 192.168.131.39:2817 - -1 -1 -1 400 - 0 0 "- - - " "-" - - - "-" "-" "-" 2018-07-02T22:22:48.364000Z "-" "-" "-" "-" "-" "-" "-"`},
		{"combined dash", `192.168.131.39 - - [06/May/2024:07:00:01 +0000] "-" 400 0 "-" "-"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, st := readText(t, tt.line+"\n", nil)
			if st.Records != 1 || st.Malformed != 0 {
				t.Fatalf("%d records, %d malformed (%v); want the line as one record", st.Records, st.Malformed, st.Samples)
			}
			if r := recs[0]; r.Method != "" || r.Target != "" || r.Client != "192.168.131.39" {
				t.Errorf("method %q, target %q, client %q; want no request from 192.168.131.39", r.Method, r.Target, r.Client)
			}
		})
	}
}

// TestNoAgentField: a Common Log Format line says it has no User-agent
// field, a combined one (also one that Common hands to Combined) does not.
func TestNoAgentField(t *testing.T) {
	tests := []struct {
		format *Format
		line   string
		want   bool
	}{
		{Common, `192.0.2.1 - - [10/Mar/2024:08:00:00 +0000] "GET / HTTP/1.1" 200 5`, true},
		{Common, `192.0.2.1 - - [10/Mar/2024:08:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "-"`, false},
		{Combined, `192.0.2.1 - - [10/Mar/2024:08:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "-"`, false},
		{mustFormat(`%h %t "%r" %>s`), `192.0.2.1 [10/Mar/2024:08:00:00 +0000] "GET / HTTP/1.1" 200`, true},
		{JSONFormat, `{"remote_addr":"192.0.2.1","request":"GET / HTTP/1.1"}`, false},
	}
	for _, tt := range tests {
		var rec Record
		if err := tt.format.Parse([]byte(tt.line), &rec); err != nil {
			t.Fatalf("%s: %v", tt.line, err)
		}
		if rec.NoAgentField != tt.want {
			t.Errorf("%s %q: NoAgentField %v, want %v", tt.format.Name(), tt.line, rec.NoAgentField, tt.want)
		}
	}
}

// TestELBWithoutAgent: a Classic Load Balancer log from before AWS added
// user_agent, ssl_cipher and ssl_protocol (2015) ends at the request, as
// AWS's documentation of the older layout shows (these lines are written
// for the test). It is detected as elb and read whole, its records
// saying their layout has no User-agent rather than every client sending
// an empty one.
func TestELBWithoutAgent(t *testing.T) {
	text := `2015-03-08T16:35:33.465313Z my-elb 198.51.100.23:63235 10.0.161.12:9000 0.000033 0.00082 0.000016 200 200 0 0 "OPTIONS http://www.example.com:80/list/V+4a4a?since=2014-03-08T16%3A35%3A25.796Z HTTP/1.1"
2015-03-08T16:35:33.484710Z my-elb 203.0.113.45:42471 10.0.157.123:9000 0.000026 0.001111 0.000016 200 200 0 318 "GET http://www.example.com:80/list/V+a085 HTTP/1.1"
2015-03-08T16:35:34.012000Z my-elb 203.0.113.45:42472 - -1 -1 -1 504 0 0 0 "GET http://www.example.com:80/ HTTP/1.1"
`
	recs, st := readText(t, text, nil)
	if st.Format != "elb" || st.Records != 3 || st.Malformed != 0 {
		t.Fatalf("format %s, %d records, %d malformed (%v); want elb, 3, 0", st.Format, st.Records, st.Malformed, st.Samples)
	}
	r := recs[1]
	if r.Client != "203.0.113.45" || r.Method != "GET" || r.Path() != "/list/V+a085" || r.VHost != "www.example.com" || r.Status != 200 || r.Bytes != 318 || !r.NoAgentField {
		t.Errorf("got %+v", r)
	}
	if w := st.Warning("t.log"); w != "" {
		t.Errorf("warning %q; a layout without a User-agent field is no unread one", w)
	}
}

// TestNoRefererField: a layout that logs the User-agent but no Referer says
// so, as IIS 7 and 7.5 do by default (their #Fields have no cs(Referer), as
// in u_ex170706.log of ps-interactive/lab_monitoring-and-detection-log-ingestion
// on GitHub, at 6aa1e9d69869996638537fec0653e66d875c7475; the lines here
// are written after it, not copied), the load balancers, and a format
// string without one; one with a Referer field, IIS's later default and a
// combined line among them, does not.
func TestNoRefererField(t *testing.T) {
	const iis75 = "#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) sc-status sc-substatus sc-win32-status time-taken\n"
	const ff = "Mozilla/5.0+(Windows+NT+6.1;+rv:46.0)+Gecko/20100101+Firefox/46.0"
	tests := []struct {
		name   string
		format *Format
		text   string
		want   bool
	}{
		{"IIS 7.5 default fields", W3CFormat, iis75 + "2017-07-06 00:00:28 10.0.0.2 GET /Home/Images/site.css - 443 - 203.0.113.50 " + ff + " 200 0 0 218\n", true},
		{"IIS with cs(Referer)", W3CFormat, "#Fields: date time c-ip cs-uri-stem cs(User-Agent) cs(Referer) sc-status\n2017-07-06 00:00:28 203.0.113.50 /a.css " + ff + " - 200\n", false},
		{"ALB", ALBFormat, `http 2024-05-06T07:00:01.186641Z app/my-lb/50dc6c495c0c9188 203.0.113.10:2817 10.0.0.1:80 0.000 0.001 0.000 200 200 34 5120 "GET http://www.example.com:80/ HTTP/1.1" "curl/8.5.0" - -` + "\n", true},
		{"format string without a Referer", mustFormat(`%h %t "%r" %>s "%{User-Agent}i"`), `192.0.2.1 [10/Mar/2024:08:00:00 +0000] "GET / HTTP/1.1" 200 "curl/8.5.0"` + "\n", true},
		{"combined", Combined, `192.0.2.1 - - [10/Mar/2024:08:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "-"` + "\n", false},
		{"common handed to combined", Common, `192.0.2.1 - - [10/Mar/2024:08:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "-"` + "\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rec Record
			if err := NewReader(strings.NewReader(tt.text), "t.log", tt.format).Read(&rec); err != nil {
				t.Fatal(err)
			}
			if rec.NoRefererField != tt.want {
				t.Errorf("NoRefererField %v, want %v", rec.NoRefererField, tt.want)
			}
		})
	}
}

// TestIISText: IIS writes a space as '+' and a '+' as '+'; a '+' before
// "http" is read as a literal one, so crawlers' User-agents read as other
// logs write them. A log whose #Fields line was cut off is read by IIS's
// default fields, detected.
func TestIISText(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"Mozilla/5.0+(compatible;+Googlebot/2.1;++http://www.google.com/bot.html)", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"},
		{"Mozilla/5.0+(Windows+NT+10.0;+Win64;+x64)", "Mozilla/5.0 (Windows NT 10.0; Win64; x64)"},
		{"curl/8.5.0", "curl/8.5.0"},
		{"a+", "a "},
		{"Mozilla/5.0+(compatible;+MJ12bot/v1.4.8;+http://mj12bot.com/)", "Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)"},
		{"Baiduspider+(+http://www.baidu.com/search/spider.htm)", "Baiduspider (+http://www.baidu.com/search/spider.htm)"},
	} {
		if got := iisSpaces(tt.in); got != tt.want {
			t.Errorf("iisSpaces(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	const line = "2024-05-06 07:00:01 10.0.0.1 GET /index.html - 80 - 203.0.113.10 Mozilla/5.0+(compatible;+bingbot/2.0;++http://www.bing.com/bingbot.htm) - 200 0 0 15\r\n"
	recs, st := readText(t, strings.Repeat(line, 3), nil)
	if st.Format != "w3c" || len(recs) != 3 || recs[0].Client != "203.0.113.10" || recs[0].UserAgent != "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)" {
		t.Errorf("IIS without #Fields: format %q, %+v (%v)", st.Format, recs, st.Samples)
	}
}

// TestVHostCommon: Apache's vhost_common (Debian's apache2.conf) and the
// same with Referer and User-agent after it are detected and read, the
// virtual host kept.
func TestVHostCommon(t *testing.T) {
	lines := [][]byte{
		[]byte(`www.example.com 203.0.113.9 - - [10/Mar/2024:08:00:00 +0000] "GET / HTTP/1.1" 200 5`),
		[]byte(`blog.example.com 66.249.66.1 - - [10/Mar/2024:08:00:01 +0000] "GET /robots.txt HTTP/1.1" 200 5 "-" "Googlebot/2.1"`),
	}
	f := Detect(lines)
	if f == nil || f.Name() != "vhost_common" {
		t.Fatalf("detected %v, want vhost_common", f)
	}
	var rec Record
	if err := f.Parse(lines[0], &rec); err != nil || rec.VHost != "www.example.com" || rec.Client != "203.0.113.9" || !rec.NoAgentField {
		t.Errorf("vhost_common line: %v %+v", err, rec)
	}
	if err := f.Parse(lines[1], &rec); err != nil || rec.VHost != "blog.example.com" || rec.Client != "66.249.66.1" || rec.UserAgent != "Googlebot/2.1" || rec.NoAgentField {
		t.Errorf("vhost_common line with User-agent: %v %+v", err, rec)
	}
	// A plain combined line is still combined.
	if f := Detect([][]byte{[]byte(`203.0.113.9 - - [10/Mar/2024:08:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "curl/8.0"`)}); f == nil || f.Name() != "combined" {
		t.Errorf("combined detected as %v", f)
	}
}

// TestURIDecoded: a User-agent or Referer written URI-encoded (Akamai
// DataStream 2: https://techdocs.akamai.com/datastream2/docs/log-format)
// is decoded; one written as sent is left as it is, '+' and '%' included.
func TestURIDecoded(t *testing.T) {
	tests := []struct{ in, ua, referer string }{
		{"Mozilla%2F5.0+%28Macintosh%3B+Intel+Mac+OS+X+10_14_3%29", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_14_3)", "Mozilla%2F5.0+%28Macintosh%3B+Intel+Mac+OS+X+10_14_3%29"},
		{"Mozilla%2F5.0+%28compatible%3B+Googlebot%2F2.1%3B+%2Bhttp%3A%2F%2Fwww.google.com%2Fbot.html%29", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", ""},
		{"Mozilla%2f5.0+%28compatible%3b+bingbot%2f2.0%3b++http%3a%2f%2fwww.bing.com%2fbingbot.htm%29", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", ""},
		{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", ""},
		{"Mozilla/5.0 (X11; Linux x86_64) 100%2F", "Mozilla/5.0 (X11; Linux x86_64) 100%2F", ""},
		{"https%3A%2F%2Ftest.referrer.net%2Fen-US%2Fdocs%2FWeb%2Ftest", "https://test.referrer.net/en-US/docs/Web/test", "https://test.referrer.net/en-US/docs/Web/test"},
		{"https://www.example.com/search?q=a+b%2Fc", "https://www.example.com/search?q=a+b%2Fc", "https://www.example.com/search?q=a+b%2Fc"},
		{"curl", "curl", "curl"},
	}
	for _, tt := range tests {
		if got := uriDecoded(tt.in, "/", "%2F", "%2f"); got != tt.ua {
			t.Errorf("User-agent %q: %q, want %q", tt.in, got, tt.ua)
		}
		if tt.referer == "" {
			continue
		}
		if got := uriDecoded(tt.in, "://", "%3A%2F%2F", "%3a%2f%2f"); got != tt.referer {
			t.Errorf("Referer %q: %q, want %q", tt.in, got, tt.referer)
		}
	}
}

// TestJSONHostIsClient: alp's nginx JSON layout names the client "host"
// ($remote_addr) and the server "vhost": an address under "host" is the
// client when the line names no other; beside a client key it is the
// virtual host (a request to the server by its address); a name there is
// never a client.
func TestJSONHostIsClient(t *testing.T) {
	f, err := ParseFormat("json")
	if err != nil {
		t.Fatal(err)
	}
	const rest = `"time":"06/May/2024:09:00:00 +0900","method":"GET","uri":"/","status":"200","body_bytes":512,"ua":"curl/8.5.0"`
	tests := []struct {
		line         string
		client, host string // "" client: the line is malformed
	}{
		{`{"host":"203.0.113.10","forwardedfor":"-",` + rest + `,"vhost":"shop.example.jp"}`, "203.0.113.10", "shop.example.jp"},
		{`{"vhost":"shop.example.jp",` + rest + `,"host":"2001:db8:1::7"}`, "2001:db8:1::7", "shop.example.jp"},
		{`{"remote_addr":"198.51.100.4","host":"192.0.2.80",` + rest + `}`, "198.51.100.4", "192.0.2.80"},
		{`{"host":"192.0.2.80","remote_addr":"198.51.100.4",` + rest + `}`, "198.51.100.4", "192.0.2.80"},
		{`{"host":"shop.example.jp",` + rest + `}`, "", ""},
	}
	for _, tt := range tests {
		recs, _ := readText(t, tt.line+"\n", f)
		switch {
		case tt.client == "" && len(recs) != 0:
			t.Errorf("%s: records %+v, want none", tt.line, recs)
		case tt.client != "" && (len(recs) != 1 || recs[0].Client != tt.client || recs[0].VHost != tt.host || recs[0].Bytes != 512):
			t.Errorf("%s: records %+v, want client %s, host %s", tt.line, recs, tt.client, tt.host)
		}
	}
}

// TestTraefikDroppedHeaders: Traefik's CLF log drops the User-Agent and
// Referer headers unless its configuration keeps them (fields.headers
// defaultMode is drop since Traefik 2): the warning says how to keep them,
// where for another log it says to give the format.
func TestTraefikDroppedHeaders(t *testing.T) {
	const traefik = `203.0.113.10 - - [06/May/2024:09:00:00 +0000] "GET / HTTP/1.1" 200 5120 "-" "-" 12 "website@docker" "http://172.18.0.3:80" 3ms` + "\n" +
		`66.249.66.1 - - [06/May/2024:09:00:07 +0000] "GET /robots.txt HTTP/1.1" 200 120 "-" "-" 13 "website@docker" - 0ms` + "\n"
	const plain = `203.0.113.10 - - [06/May/2024:09:00:00 +0000] "GET / HTTP/1.1" 200 5120 "-" "-"` + "\n"
	f, err := ParseFormat("combined")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, log, want, notWant string
	}{
		{"traefik", traefik, "accesslog.fields.headers.names.User-Agent=keep", "-f"},
		{"combined", plain, "give its format with -f", "Traefik"},
	} {
		_, st := readText(t, tt.log, f)
		w := st.Warning("access.log")
		if !strings.Contains(w, tt.want) || strings.Contains(w, tt.notWant) {
			t.Errorf("%s: warning %q, want %q and not %q", tt.name, w, tt.want, tt.notWant)
		}
	}
}

// TestHAProxyWithoutCapturedHeaders: HAProxy's httplog holds no request
// header unless the frontend captures one, so a log read right has no
// User-agent: the warning says how to capture it, not to give the format
// (two lines of raravena80/haproxylogparser's real sample, MIT, as in
// testdata/corpus/apigw-haproxy-2012).
func TestHAProxyWithoutCapturedHeaders(t *testing.T) {
	const log = `Feb 15 04:30:01 127.0.0.1 haproxy[9883]: 208.78.69.133:50630 [15/Feb/2012:04:30:01.765] ProductionDeployment ProductionDeployment/GW1 112/0/1/2/233 200 190 - - ---- 0/0/0/0/0 0/0 "GET /HealthCheck HTTP/1.1"` + "\n" +
		`Feb 15 04:30:04 127.0.0.1 haproxy[9883]: 216.146.34.133:48731 [15/Feb/2012:04:30:04.190] ProductionDeployment ProductionDeployment/GW2 109/0/0/2/242 200 190 - - ---- 0/0/0/0/0 0/0 "GET /HealthCheck HTTP/1.1"` + "\n"
	r := NewReader(strings.NewReader(log), "haproxy.log", nil)
	var rec Record
	for r.Read(&rec) == nil {
	}
	st := r.Stats()
	if st.Records != 2 || !strings.Contains(st.Format, "haproxy") {
		t.Fatalf("read %d records as %q, want 2 as haproxy", st.Records, st.Format)
	}
	w := st.Warning("haproxy.log")
	if !strings.Contains(w, "capture request header User-Agent") || strings.Contains(w, "-f)") {
		t.Errorf("warning %q: want how to capture the User-agent, not -f", w)
	}
}
