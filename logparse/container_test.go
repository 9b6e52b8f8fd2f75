package logparse

import (
	"errors"
	"strings"
	"testing"
)

// TestCRIHeader: the prefix a CRI runtime writes, as the kubelet's CRI
// logging design has it
// (https://github.com/kubernetes/design-proposals-archive/blob/main/node/kubelet-cri-logging.md),
// and lines that only look like it.
func TestCRIHeader(t *testing.T) {
	tests := []struct {
		line    string
		n       int
		partial bool
	}{
		{"2016-10-06T00:17:09.669794202Z stdout F The content of the log entry 1", 40, false},
		{"2016-10-06T00:17:09.669794202Z stdout P First line of log entry 2", 40, true},
		{"2016-10-06T00:17:10.113242941Z stderr F Last line of the log entry 2", 40, false},
		{"2024-05-06T09:00:01.5+02:00 stdout F x", 37, false},
		{"2016-10-06T00:17:09.669794202Z stdout F:more-tags x", 50, false}, // tags after F, ':'-separated
		{"2016-10-06T00:17:09.669794202Z stdout F", 39, false},             // an empty line
		{"2016-10-06T00:17:09.669794202Z stdin F x", 0, false},
		{"2016-10-06T00:17:09.669794202Z stdout Foo x", 0, false},
		{"2016-10-06T00:17:09.669794202Z stdout X x", 0, false},
		{"2016-10-06 00:17:09 stdout F x", 0, false},
		{"2024-03-10T08:00:00+00:00 web1 nginx: x", 0, false}, // rsyslog's header
		{`203.0.113.10 - - [06/May/2024:07:00:01 +0000] "GET / HTTP/1.1" 200 5 "-" "-"`, 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		n, partial := criHeaderLen([]byte(tt.line))
		if n != tt.n || partial != tt.partial {
			t.Errorf("%q: %d, partial %v; want %d, %v", tt.line, n, partial, tt.n, tt.partial)
		}
	}
}

// TestDockerLog: the line in a json-file object, with Docker's documented
// example (https://docs.docker.com/engine/logging/drivers/json-file/).
func TestDockerLog(t *testing.T) {
	tests := []struct {
		line, text    string
		partial, isOK bool
	}{
		{`{"log":"Log line is here\n","stream":"stdout","time":"2019-01-01T11:11:11.111111111Z"}`, "Log line is here", false, true},
		{`{"log":"log message\n","stream":"stderr","time":"2019-04-30T02:12:41.8443515Z"}`, "log message", false, true},
		{`{"log":"a \"quoted\" \u003cb\u003e\n","stream":"stdout","time":"2019-01-01T11:11:11Z"}`, `a "quoted" <b>`, false, true},
		{`{"log":"ends in a backslash\\","stream":"stdout","time":"2019-01-01T11:11:11Z"}`, `ends in a backslash\`, true, true},
		{`{"log":"a backslash, then n\\n","stream":"stdout","time":"2019-01-01T11:11:11Z"}`, `a backslash, then n\n`, true, true},
		{`{"log":"a first part","stream":"stdout","time":"2019-01-01T11:11:11Z"}`, "a first part", true, true},
		{`{"log":"\n","stream":"stdout","time":"2019-01-01T11:11:11Z"}`, "", false, true},
		{`{"log":"no stream"}`, "", false, false},
		{`{"stream":"stdout","log":"x\n"}`, "", false, false},
		{`{"log":"bad \q\n","stream":"stdout"}`, "", false, false},
		{`{"log":"unterminated`, "", false, false},
	}
	for _, tt := range tests {
		text, partial, ok := dockerLog([]byte(tt.line))
		if ok != tt.isOK || ok && (string(text) != tt.text || partial != tt.partial) {
			t.Errorf("%s: %q, partial %v, ok %v; want %q, %v, %v", tt.line, text, partial, ok, tt.text, tt.partial, tt.isOK)
		}
	}
}

// TestDetectContainer: a server's log as a CRI runtime or Docker stored its
// output is detected in the format of the lines inside, and read whole; a
// part of a split line is malformed, not dropped.
func TestDetectContainer(t *testing.T) {
	const (
		googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
		// nginx's combined, and ingress-nginx's default upstreaminfo
		// (https://kubernetes.github.io/ingress-nginx/user-guide/nginx-configuration/log-format/).
		combined     = `203.0.113.10 - - [06/May/2024:07:00:01 +0000] "GET /index.html HTTP/1.1" 200 5120 "-" "` + googlebot + `"`
		upstreaminfo = combined + ` 512 0.004 [default-web-80] [] 10.244.1.7:8080 5120 0.004 200 5b1a2c3d4e5f60718293a4b5c6d7e8f9`
		caddy        = `{"level":"info","ts":1714978801.5,"logger":"http.log.access","msg":"handled request","request":{"remote_ip":"172.71.190.23","client_ip":"203.0.113.10","proto":"HTTP/2.0","method":"GET","host":"www.example.com","uri":"/index.html","headers":{"User-Agent":["` + googlebot + `"]}},"size":5120,"status":200}`
		cri          = "2024-05-06T07:00:01.123456789Z stdout F "
		klog         = `2024-05-06T06:59:59.000000000Z stderr F I0506 06:59:59.000000       7 controller.go:190] "Configuration changes detected, backend reload required"`
	)
	docker := func(line string) string {
		return `{"log":"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(line) + `\n","stream":"stdout","time":"2024-05-06T07:00:01.123456789Z"}`
	}
	tests := []struct {
		name, text, format  string
		records, malformed  int64
		firstMalformedIsCut bool
	}{
		{"cri combined", strings.Repeat(cri+combined+"\n", 3), "cri+combined", 3, 0, false},
		{"cri ingress-nginx", klog + "\n" + strings.Repeat(cri+upstreaminfo+"\n", 3), "cri+combined", 3, 1, false},
		{"cri json", strings.Repeat(cri+caddy+"\n", 3), "cri+json", 3, 0, false},
		{"cri split line", "2024-05-06T07:00:01.123456789Z stdout P 203.0.113.9 - - [06/May/2024:07:00:01 +0000] \"GET /" +
			"\n2024-05-06T07:00:01.123456789Z stdout F long HTTP/1.1\" 200 1 \"-\" \"-\"\n" + strings.Repeat(cri+combined+"\n", 3), "cri+combined", 3, 2, true},
		{"cri startup only", strings.Repeat(klog+"\n", 3) + cri + combined + "\n", "cri+combined", 1, 3, false},
		{"docker combined", strings.Repeat(docker(combined)+"\n", 3), "docker+combined", 3, 0, false},
		{"docker json", strings.Repeat(docker(caddy)+"\n", 3), "docker+json", 3, 0, false},
		{"docker split line", `{"log":"203.0.113.9 - - [06/May/2024:07:00:01 +0000] \"GET /","stream":"stdout","time":"2024-05-06T07:00:01Z"}` + "\n" +
			strings.Repeat(docker(combined)+"\n", 3), "docker+combined", 3, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, st := readText(t, tt.text, nil)
			if st.Format != tt.format || st.Records != tt.records || st.Malformed != tt.malformed {
				t.Fatalf("format %q, %d records, %d malformed (%v); want %s, %d, %d", st.Format, st.Records, st.Malformed, st.Samples, tt.format, tt.records, tt.malformed)
			}
			r := recs[0]
			if r.Client != "203.0.113.10" || r.UserAgent != googlebot || r.Method != "GET" || r.Target != "/index.html" || r.Status != 200 || r.Bytes != 5120 || r.Time.IsZero() {
				t.Errorf("record %+v", r)
			}
			if tt.firstMalformedIsCut && (len(st.Samples) == 0 || !errors.Is(st.Samples[0].Err, ErrLineTooLong)) {
				t.Errorf("first malformed: %v, want a line too long", st.Samples)
			}
			f, err := FormatByName(tt.format)
			if err != nil || f.Name() != tt.format {
				t.Fatalf("FormatByName(%q) = %v, %v", tt.format, f, err)
			}
			_, named := readText(t, tt.text, f)
			if named.Records != tt.records || named.Malformed != tt.malformed {
				t.Errorf("-f %s: %d records, %d malformed", tt.format, named.Records, named.Malformed)
			}
		})
	}
	for _, name := range []string{"cri+w3c", "docker+iis", "cri+docker+combined", "cri+auto", "syslog+cri+combined", "cri+nosuch"} {
		if f, err := FormatByName(name); err == nil {
			t.Errorf("FormatByName(%q) = %v, no error", name, f)
		}
	}
	// A plain log, and one line with a prefix among plain ones, stay plain.
	for _, text := range []string{combined + "\n", cri + combined + "\n" + strings.Repeat(combined+"\n", 3)} {
		if _, st := readText(t, text, nil); st.Format != "combined" {
			t.Errorf("%q: format %q, want combined", text, st.Format)
		}
	}
}

// TestCRIMalformedText: a malformed line inside CRI's prefix is shown as
// the file has it, prefix and all, escaped as every malformed line is
// (LineText): its quotes and an Apache \" as they are, not \" and \\\".
func TestCRIMalformedText(t *testing.T) {
	line := `2024-03-10T00:00:00.1Z stdout F 192.0.2.1 - - [10/Mar/2024:00:00:00 +0000] "GET / HTTP/1.1" 200 X "-" "a \"b\" \x1b"`
	var rec Record
	err := containerFormat(Combined, false).Parse([]byte(line), &rec)
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("Parse = %v, want a *ParseError", err)
	}
	if pe.Text != line || pe.Column != strings.Index(line, " X ")+2 {
		t.Errorf("Text %q, column %d; want %q, %d", pe.Text, pe.Column, line, strings.Index(line, " X ")+2)
	}
}
