package logparse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robowatch/robowatch/input"
)

func TestApacheStrftimeTime(t *testing.T) {
	const req = `"GET / HTTP/1.1"`
	get := want{Method: "GET", Target: "/", Protocol: "HTTP/1.1", Req: "GET / HTTP/1.1", Path: "/", Bytes: -1}
	with := func(w want, time string, status int) want {
		w.Client, w.Time, w.Status = "192.0.2.1", time, status
		return w
	}
	tests := []struct {
		name, spec, line string
		want             want
	}{
		{
			name: "ISO-like date in brackets, no zone: UTC",
			spec: `[%{%Y-%m-%d %H:%M:%S}t] %h "%r" %>s "%{User-Agent}i"`,
			line: `[2024-03-05 07:08:09] 192.0.2.1 ` + req + ` 200 "curl/8"`,
			want: func() want { w := with(get, "2024-03-05T07:08:09Z", 200); w.UserAgent = "curl/8"; return w }(),
		},
		{
			name: "CLF layout through strftime, with %z",
			spec: `%h %l %u [%{%d/%b/%Y:%H:%M:%S %z}t] "%r" %>s %b`,
			line: `192.0.2.1 - - [05/Mar/2024:07:08:09 -0700] ` + req + ` 200 12`,
			want: func() want { w := with(get, "2024-03-05T07:08:09-07:00", 200); w.Bytes = 12; return w }(),
		},
		{
			name: "Apache docs: date, msec_frac and %z in three fields",
			spec: `%h [%{%d/%b/%Y %T}t.%{msec_frac}t %{%z}t] "%r" %>s`,
			line: `192.0.2.1 [05/Mar/2024 07:08:09.123 +0530] ` + req + ` 404`,
			want: with(get, "2024-03-05T07:08:09.123+05:30", 404),
		},
		{
			name: "begin: and end: prefixes, usec_frac",
			spec: `%h [%{begin:%d/%b/%Y:%H:%M:%S}t.%{begin:usec_frac}t %{end:%z}t] "%r" %>s`,
			line: `192.0.2.1 [05/Mar/2024:07:08:09.000042 +0000] ` + req + ` 200`,
			want: with(get, "2024-03-05T07:08:09.000042Z", 200),
		},
		{
			name: "time with a space first, unbracketed: the strftime format ends the field",
			spec: `%{%Y-%m-%d %H:%M:%S}t %h "%r" %>s`,
			line: `2024-03-05 07:08:09 192.0.2.1 ` + req + ` 200`,
			want: with(get, "2024-03-05T07:08:09Z", 200),
		},
		{
			name: "%F %T quoted",
			spec: `"%{%F %T}t" %h "%r" %>s`,
			line: `"2024-03-05 07:08:09" 192.0.2.1 ` + req + ` 200`,
			want: with(get, "2024-03-05T07:08:09Z", 200),
		},
		{
			name: "digits only, no separators",
			spec: `%{%Y%m%d%H%M%S}t %h "%r" %>s`,
			line: `20240305070809 192.0.2.1 ` + req + ` 200`,
			want: with(get, "2024-03-05T07:08:09Z", 200),
		},
		{
			name: "RFC 1123 with %a and %Z GMT",
			spec: `%h [%{%a, %d %b %Y %H:%M:%S %Z}t] "%r" %>s`,
			line: `192.0.2.1 [Tue, 05 Mar 2024 07:08:09 GMT] ` + req + ` 200`,
			want: with(get, "2024-03-05T07:08:09Z", 200),
		},
		{
			name: "%D and 12-hour %r",
			spec: `%h [%{%D %r}t] "%r" %>s`,
			line: `192.0.2.1 [03/05/24 07:08:09 PM] ` + req + ` 200`,
			want: with(get, "2024-03-05T19:08:09Z", 200),
		},
		{
			name: "12 AM is midnight",
			spec: `%h [%{%Y-%m-%d %I:%M:%S %p}t] "%r" %>s`,
			line: `192.0.2.1 [2024-03-05 12:08:09 am] ` + req + ` 200`,
			want: with(get, "2024-03-05T00:08:09Z", 200),
		},
		{
			name: "space-padded %e and %k, full month name %B, %A",
			spec: `%h [%{%A %e %B %Y %k:%M:%S}t] "%r" %>s`,
			line: `192.0.2.1 [Tuesday  5 March 2024  7:08:09] ` + req + ` 200`,
			want: with(get, "2024-03-05T07:08:09Z", 200),
		},
		{
			name: "glibc no-padding flag",
			spec: `%h [%{%-d/%-m/%Y %-H:%M:%S}t] "%r" %>s`,
			line: `192.0.2.1 [5/3/2024 7:08:09] ` + req + ` 200`,
			want: with(get, "2024-03-05T07:08:09Z", 200),
		},
		{
			name: "day of year %j",
			spec: `%h [%{%Y.%j %T}t] "%r" %>s`,
			line: `192.0.2.1 [2024.065 07:08:09] ` + req + ` 200`,
			want: with(get, "2024-03-05T07:08:09Z", 200),
		},
		{
			name: "%s with %z keeps the instant and takes the zone",
			spec: `%{%s}t %{%z}t %h "%r" %>s`,
			line: `1709622489 +0100 192.0.2.1 ` + req + ` 200`,
			want: with(get, "2024-03-05T08:08:09+01:00", 200),
		},
		{
			name: "%t then msec_frac adds the fraction",
			spec: `%h %t.%{msec_frac}t "%r" %>s`,
			line: `192.0.2.1 [05/Mar/2024:07:08:09 +0000].250 ` + req + ` 200`,
			want: with(get, "2024-03-05T07:08:09.25Z", 200),
		},
		{
			name: "%{begin}t is %t",
			spec: `%h %{begin}t "%r" %>s`,
			line: `192.0.2.1 [05/Mar/2024:07:08:09 +0000] ` + req + ` 200`,
			want: with(get, "2024-03-05T07:08:09Z", 200),
		},
		{
			name: "a time of day with no date leaves Time zero",
			spec: `%h [%{%H:%M:%S}t] "%r" %>s`,
			line: `192.0.2.1 [07:08:09] ` + req + ` 200`,
			want: with(get, "", 200),
		},
		{
			name: "%%, %n-free literal text",
			spec: `%h [%{at %H:%M:%S on %Y-%m-%d 100%%}t] "%r" %>s`,
			line: `192.0.2.1 [at 07:08:09 on 2024-03-05 100%] ` + req + ` 200`,
			want: with(get, "2024-03-05T07:08:09Z", 200),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := ParseApacheFormat(tt.spec)
			if err != nil {
				t.Fatalf("ParseApacheFormat(%q): %v", tt.spec, err)
			}
			var rec Record
			if err := f.Parse([]byte(tt.line), &rec); err != nil {
				t.Fatalf("Parse: %v", err)
			}
			checkRecord(t, &rec, tt.want)
		})
	}
}

func TestApacheStrftimeMalformed(t *testing.T) {
	tests := []struct{ name, spec, line string }{
		{"month name", `%h [%{%d/%b/%Y:%H:%M:%S %z}t] %>s`, `192.0.2.1 [05/Foo/2024:07:08:09 +0000] 200`},
		{"no such day", `%h [%{%Y-%m-%d %H:%M:%S}t] %>s`, `192.0.2.1 [2023-02-29 07:08:09] 200`},
		{"hour 25", `%h [%{%Y-%m-%d %H:%M:%S}t] %>s`, `192.0.2.1 [2023-02-28 25:08:09] 200`},
		{"a CLF time where a strftime one is", `%h [%{%Y-%m-%d %H:%M:%S}t] %>s`, `192.0.2.1 [05/Mar/2024:07:08:09 +0000] 200`},
		{"short fraction", `%h [%{%F %T}t.%{msec_frac}t] %>s`, `192.0.2.1 [2024-03-05 07:08:09.12] 200`},
		{"bad zone", `%h [%{%F %T %z}t] %>s`, `192.0.2.1 [2024-03-05 07:08:09 +99xx] 200`},
		{"quoted with extra text", `%h "%{%F}t" %>s`, `192.0.2.1 "2024-03-05 x" 200`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := ParseApacheFormat(tt.spec)
			if err != nil {
				t.Fatal(err)
			}
			var rec Record
			err = f.Parse([]byte(tt.line), &rec)
			if !errors.Is(err, ErrTime) {
				t.Errorf("Parse = %v, want ErrTime", err)
			}
		})
	}
}

func TestApacheStrftimeUnsupported(t *testing.T) {
	for _, spec := range []string{`%h %{%Q}t`, `%h %{%Y %}t`, `%h %{%+}t`} {
		_, err := ParseApacheFormat(spec)
		if err == nil || !strings.Contains(err.Error(), "strftime") {
			t.Errorf("ParseApacheFormat(%q) = %v, want an error about the strftime format", spec, err)
		}
	}
}

func TestApacheUnknownDirective(t *testing.T) {
	tests := []struct{ spec, wantErr string }{
		{`%h %Q`, "unknown directive %Q"},
		{`%h %{X}Z "%r"`, "unknown directive %{X}Z"},
		{`%h %>y`, "unknown directive %>y"},
		{`%h %{X}^zz`, "unknown directive %{X}^zz"},
		{`%h %{%Q}t`, "unsupported strftime conversion"},
	}
	for _, tt := range tests {
		f, err := ParseApacheFormat(tt.spec)
		if err == nil || f != nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("ParseApacheFormat(%q) = %v, want an error containing %q", tt.spec, err, tt.wantErr)
		}
		if _, err := ParseFormat(tt.spec); err == nil {
			t.Errorf("ParseFormat(%q) accepted it", tt.spec)
		}
	}
	// Every directive of mod_log_config, mod_logio and mod_ssl is accepted;
	// the ones without a Record field are skipped as opaque fields.
	known := `%a %{c}a %A %B %b %{X}C %D %{X}e %f %h %{c}h %H %{X}i %k %l %L %m %{X}n %{X}o %p %{remote}p %P %{tid}P ` +
		`%q %r %R %s %>s %t %T %{ms}T %u %U %v %V %X %I %O %S %{X}^ti %{X}^to %^FB %{version}c %{SSL_PROTOCOL}x`
	f, err := ParseApacheFormat(known)
	if err != nil {
		t.Fatalf("ParseApacheFormat(all directives): %v", err)
	}
	if got := len(f.fields); got != 44 {
		t.Errorf("%d fields, want 44", got)
	}
}

func TestNginxUnknownVariablesAreOpaque(t *testing.T) {
	f, err := ParseNginxFormat(`$remote_addr $my_custom_var [$time_local] "$request" $status $upstream_cache_status "$http_user_agent" $sent_http_x_foo`)
	if err != nil {
		t.Fatal(err)
	}
	var rec Record
	line := `192.0.2.1 anything-here [05/Mar/2024:07:08:09 +0000] "GET / HTTP/1.1" 200 HIT "curl/8" -`
	if err := f.Parse([]byte(line), &rec); err != nil {
		t.Fatal(err)
	}
	checkRecord(t, &rec, want{Client: "192.0.2.1", Time: "2024-03-05T07:08:09Z", Method: "GET", Target: "/", Protocol: "HTTP/1.1",
		Req: "GET / HTTP/1.1", Status: 200, Bytes: -1, UserAgent: "curl/8", Path: "/"})
}

func TestCommonThenCombined(t *testing.T) {
	clf := func(i int) string {
		return fmt.Sprintf(`192.0.2.%d - - [20/May/2015:21:05:01 +0000] "GET /%d HTTP/1.1" 200 1`, i%250, i)
	}
	comb := func(i int) string {
		return combinedLine(fmt.Sprintf("198.51.100.%d", i%250), fmt.Sprintf("/%d", i), fmt.Sprintf("bot-%d", i))
	}
	mix := func(clfLines, combLines int) string {
		var b strings.Builder
		for i := 0; i < clfLines; i++ {
			b.WriteString(clf(i) + "\n")
		}
		for i := 0; i < combLines; i++ {
			b.WriteString(comb(i) + "\n")
		}
		return b.String()
	}
	tests := []struct {
		name       string
		input      string
		format     *Format // nil: detect
		wantFormat *Format
		withUA     int // records with a User-agent
	}{
		{"200 common lines, then 300 combined (past the detection sample)", mix(200, 300), nil, Common, 300},
		{"50 common, 50 combined in the sample", mix(50, 50), nil, Common, 50},
		{"--format common on combined lines", mix(0, 20), Common, Common, 20},
		{"common only", mix(30, 0), nil, Common, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, parallel := range []bool{false, true} {
				var recs []Record
				var stats Stats
				var format *Format
				if parallel {
					r := NewParallelReader(strings.NewReader(tt.input), "mixed.log", tt.format)
					for {
						var rec Record
						err := r.Read(&rec)
						if err == io.EOF {
							break
						}
						if err == nil {
							recs = append(recs, rec)
						}
					}
					r.Close()
					stats, format = r.Stats(), r.Format()
				} else {
					r := NewReader(strings.NewReader(tt.input), "mixed.log", tt.format)
					recs, _, _ = readAll(r)
					stats, format = r.Stats(), r.Format()
				}
				if format != tt.wantFormat || stats.Malformed != 0 || int(stats.Records) != strings.Count(tt.input, "\n") {
					t.Errorf("parallel %v: format %v, %d records, %d malformed; want %v, all, 0", parallel, format, stats.Records, stats.Malformed, tt.wantFormat)
				}
				n := 0
				for _, rec := range recs {
					if rec.UserAgent != "" {
						n++
						if want := "bot-" + strings.TrimPrefix(rec.Target, "/"); rec.UserAgent != want || !strings.HasPrefix(rec.Client, "198.51.100.") {
							t.Fatalf("parallel %v: line %d: client %q, user agent %q, want %q", parallel, rec.Line, rec.Client, rec.UserAgent, want)
						}
					}
				}
				if n != tt.withUA {
					t.Errorf("parallel %v: %d records with a User-agent, want %d", parallel, n, tt.withUA)
				}
			}
		})
	}
}

func TestCommonTrailingText(t *testing.T) {
	const head = `192.0.2.1 - - [20/May/2015:21:05:01 +0000] "GET / HTTP/1.1" 200 1`
	tests := []struct {
		name, line     string
		referer, agent string
		wantErr        error
	}{
		{"a response time after the size is ignored", head + ` 0.123`, "", "", nil},
		{"one quoted field is not combined", head + ` "x-forwarded-for"`, "", "", nil},
		{"referer and user agent", head + ` "http://r/" "curl/8"`, "http://r/", "curl/8", nil},
		{"combined with more after it", head + ` "-" "curl/8" "203.0.113.1" 0.5`, "", "curl/8", nil},
		{"text glued to the size", head + `"x" "y"`, "", "", ErrBytes},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := Record{File: "f", Line: 7}
			err := Common.Parse([]byte(tt.line), &rec)
			if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Fatalf("Parse = %v, want %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if rec.Referer != tt.referer || rec.UserAgent != tt.agent || rec.Status != 200 || rec.Target != "/" || rec.File != "f" || rec.Line != 7 {
				t.Errorf("got %+v, want referer %q, user agent %q", rec, tt.referer, tt.agent)
			}
		})
	}
}

// repeating repeats line forever and counts the bytes read.
type repeating struct {
	line []byte
	n    int64
}

func (e *repeating) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = e.line[(e.n+int64(i))%int64(len(e.line))]
	}
	e.n += int64(len(p))
	return len(p), nil
}

func TestFirstTime(t *testing.T) {
	line := func(ts string) string {
		return `192.0.2.1 - - [` + ts + `] "GET / HTTP/1.1" 200 1 "-" "ua"` + "\n"
	}
	timed := line("20/May/2015:21:05:01 +0200")
	untimedSpec := mustFormat(`%h "%r" %>s`)
	var garbage strings.Builder
	for i := range 500 {
		fmt.Fprintf(&garbage, "garbage %d\n", i*7919)
	}
	corrupt := gzipBytes(t, garbage.String()+timed)
	corrupt = corrupt[:len(corrupt)/2]
	tests := []struct {
		name    string
		input   io.Reader
		format  *Format
		want    string // RFC 3339; "" for the zero Time
		wantErr string
	}{
		{"first line", strings.NewReader(timed + line("21/May/2015:00:00:00 +0000")), nil, "2015-05-20T21:05:01+02:00", ""},
		{"times out of order: the first line's, not the earliest", strings.NewReader(line("21/May/2015:00:00:00 +0000") + timed), nil, "2015-05-21T00:00:00Z", ""},
		{"after a header and malformed lines", strings.NewReader("#Version: 1.0\n\ngarbage\n" + timed), nil, "2015-05-20T21:05:01+02:00", ""},
		{"given format", strings.NewReader(timed), Combined, "2015-05-20T21:05:01+02:00", ""},
		{"strftime format", strings.NewReader("[2024-03-05 07:08:09] 192.0.2.1\n"), mustFormat(`[%{%Y-%m-%d %H:%M:%S}t] %h`), "2024-03-05T07:08:09Z", ""},
		{"empty", strings.NewReader(""), nil, "", ""},
		{"format without a time", strings.NewReader(`192.0.2.1 "GET / HTTP/1.1" 200` + "\n"), untimedSpec, "", ""},
		{"a time past the first 1000 lines", strings.NewReader(strings.Repeat("garbage\n", 1000) + timed), nil, "", ""},
		{"a time past the first MiB", strings.NewReader(strings.Repeat("x", 1<<20) + "\n" + timed), nil, "", ""},
		{"gzip", mustDecompress(t, gzipBytes(t, timed)), nil, "2015-05-20T21:05:01+02:00", ""},
		{"truncated gzip before any time", mustDecompress(t, corrupt), nil, "", "unexpected EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := FirstTime(tt.input, tt.format)
			gotS := ""
			if !got.IsZero() {
				gotS = got.Format(time.RFC3339Nano)
			}
			if gotS != tt.want {
				t.Errorf("FirstTime = %q, want %q", gotS, tt.want)
			}
			if (err == nil) != (tt.wantErr == "") || err != nil && !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %v, want %q", err, tt.wantErr)
			}
		})
	}

	// An endless stream with no time is not read past the limit.
	for _, l := range []string{"garbage\n", timed[:40] + "\n", strings.Repeat("y", 100<<10) + "\n"} {
		e := &repeating{line: []byte(l)}
		if got, err := FirstTime(e, nil); !got.IsZero() || err != nil || e.n > 1<<20+readBufferSize {
			t.Errorf("endless %.20q: FirstTime = %v, %v after %d bytes", l, got, err, e.n)
		}
	}
}

func mustDecompress(t *testing.T, b []byte) io.Reader {
	t.Helper()
	r, err := input.Decompress(bytes.NewReader(b), "x.gz")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// ExampleFirstTime orders rotated logs, listed newest first as a shell glob
// sorts them, oldest first.
func ExampleFirstTime() {
	logs := map[string]string{
		"access.log":   `192.0.2.1 - - [03/Mar/2024:00:00:01 +0000] "GET / HTTP/1.1" 200 1` + "\n",
		"access.log.1": `192.0.2.1 - - [02/Mar/2024:00:00:01 +0000] "GET / HTTP/1.1" 200 1` + "\n",
		"access.log.2": `192.0.2.1 - - [01/Mar/2024:00:00:01 +0000] "GET / HTTP/1.1" 200 1` + "\n",
	}
	names := []string{"access.log", "access.log.1", "access.log.2"}
	first := map[string]time.Time{}
	for _, name := range names {
		first[name], _ = FirstTime(strings.NewReader(logs[name]), nil)
	}
	slices.SortStableFunc(names, func(a, b string) int { return first[a].Compare(first[b]) })
	fmt.Println(names)
	// Output: [access.log.2 access.log.1 access.log]
}

// TestFormatChangeMidFile: a detected format reads a line it cannot with
// the other built-in text formats and JSON, so a log whose format changed
// after the lines detection saw (or two servers' logs concatenated) loses
// no line; a combined line cut short stays malformed (Common is no
// fallback), and a format given by name has no fallbacks.
func TestFormatChangeMidFile(t *testing.T) {
	comb := func(i int) string {
		return fmt.Sprintf(`192.0.2.%d - - [10/Mar/2024:08:00:00 +0000] "GET /%d HTTP/1.1" 200 5 "-" "curl/8.5.0"`, i%250+1, i)
	}
	vhost := func(i int) string { return "www.example.com:443 " + comb(i) }
	js := func(i int) string {
		return fmt.Sprintf(`{"remote_addr":"192.0.2.%d","time_iso8601":"2024-03-10T08:00:00+00:00","request":"GET /%d HTTP/1.1","status":200,"http_user_agent":"curl/8.5.0"}`, i%250+1, i)
	}
	cut := `192.0.2.1 - - [10/Mar/2024:08:00:00 +0000] "GET / HTTP/1.1" 200 5`
	lines := func(first func(int) string, n int, then func(int) string, m int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(first(i) + "\n")
		}
		for i := range m {
			b.WriteString(then(n+i) + "\n")
		}
		return b.String()
	}
	tests := []struct {
		name      string
		text      string
		format    *Format
		want      string
		records   int64
		malformed int64
	}{
		{"combined then vhost_combined", lines(comb, 150, vhost, 40), nil, "combined", 190, 0},
		{"combined then JSON", lines(comb, 150, js, 40), nil, "combined", 190, 0},
		{"JSON then combined", lines(js, 150, comb, 40), nil, "json", 190, 0},
		{"interleaved", lines(comb, 1, js, 1) + lines(comb, 1, js, 1), nil, "json", 4, 0},
		{"combined with a cut line", lines(comb, 150, func(int) string { return cut }, 1), nil, "combined", 150, 1},
		{"given by name: no fallback", lines(comb, 150, js, 40), Combined, "combined", 150, 40},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, parallel := range []bool{false, true} {
				var st Stats
				if parallel {
					r := NewParallelReader(strings.NewReader(tt.text), "t.log", tt.format)
					for {
						var rec Record
						if err := r.Read(&rec); err == io.EOF {
							break
						}
					}
					st = r.Stats()
					r.Close()
				} else {
					r := NewReader(strings.NewReader(tt.text), "t.log", tt.format)
					readAll(r)
					st = r.Stats()
				}
				if st.Format != tt.want || st.Records != tt.records || st.Malformed != tt.malformed {
					t.Errorf("parallel %v: format %q, %d records, %d malformed; want %q, %d, %d", parallel, st.Format, st.Records, st.Malformed, tt.want, tt.records, tt.malformed)
				}
			}
		})
	}
}
