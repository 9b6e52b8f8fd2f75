package logparse

import (
	"io"
	"strings"
	"testing"
)

// TestNoClientWarning: records whose line gave no client address ("-"
// where %h goes) are counted, by both readers, and the input's warning
// says so: they are judged as one client with no address, which no block
// list can hold, and a log of nothing else (Gunicorn behind nginx on a
// Unix socket) would otherwise read as a report about one blank client.
func TestNoClientWarning(t *testing.T) {
	const (
		dash = `- - - [10/Mar/2024:08:00:00 +0000] "GET /wp-login.php HTTP/1.1" 404 5 "-" "python-requests/2.31"` + "\n"
		ip   = `203.0.113.9 - - [10/Mar/2024:08:00:01 +0000] "GET / HTTP/1.1" 200 5 "-" "curl/8.0"` + "\n"
	)
	tests := []struct {
		name, log string
		want      int64
		warn      string // in the warning; "" for none
	}{
		{"every line", strings.Repeat(dash, 3), 3, "3 of its 3 records give no client address"},
		{"some lines", ip + dash + ip, 1, "1 of its 3 records give no client address"},
		{"none", ip + ip, 0, ""},
	}
	for _, tt := range tests {
		for _, parallel := range []bool{false, true} {
			var st Stats
			if parallel {
				r := NewParallelReader(strings.NewReader(tt.log), "x.log", nil)
				var rec Record
				for r.Read(&rec) != io.EOF {
				}
				st = r.Stats()
				r.Close()
			} else {
				r := NewReader(strings.NewReader(tt.log), "x.log", nil)
				var rec Record
				for r.Read(&rec) != io.EOF {
				}
				st = r.Stats()
			}
			w := st.Warning("x.log")
			if st.NoClient != tt.want || (tt.warn == "") != (w == "") || !strings.Contains(w, tt.warn) {
				t.Errorf("%s, parallel %v: %d without a client, warning %q; want %d, %q", tt.name, parallel, st.NoClient, w, tt.want, tt.warn)
			}
		}
	}
}
