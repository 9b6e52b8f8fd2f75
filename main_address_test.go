package main

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// sharedLog is testdata/logs/elastic-shared-addresses.log, real lines: a
// probe under a browser's name (95.78.54.93), three people's browsers at
// one address (88.103.19.195), and a person's Chrome beside the Microsoft
// Office discovery that opened the link for it (64.131.102.243).
func sharedLog(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/logs/elastic-shared-addresses.log")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestBlockListOnlyCertainAddresses: an address goes into a block list only
// if every client seen at it was judged a robot. A probe from behind a NAT
// of people, or Office's discovery request beside the person who clicked
// the link, must not deny the people; the header counts the addresses left
// out. The probe on an address of its own is listed.
func TestBlockListOnlyCertainAddresses(t *testing.T) {
	log := sharedLog(t)
	// The probe's real lines, as if sent from the people's address (an
	// infected machine behind their NAT).
	behindNAT := strings.ReplaceAll(log, "95.78.54.93 ", "88.103.19.195 ")
	const leftOut = "# 1 address left out: it also served clients judged human (a NAT, a proxy, a shared host); denying it would deny them"
	tests := []struct {
		name   string
		log    string
		args   []string
		want   string // what the list denies
		header string // a line the header must hold; "" none of leftOut
	}{
		{"probe on its own address", log, nil, "95.78.54.93", ""},
		{"probe behind a NAT of people", behindNAT, nil, "", leftOut},
		{"office discovery beside its person", log, []string{"--block", "robots"}, "95.78.54.93", leftOut},
		{"incidents only", behindNAT, []string{"--block", "incidents"}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"-o", "ips"}, tt.args...)
			code, out, errOut := runCLI(t, []byte(tt.log), append(args, "-")...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if got := listed(out); got != tt.want {
				t.Errorf("lists %q, want %q\n%s", got, tt.want, out)
			}
			if tt.header != "" && !strings.Contains(out, tt.header+"\n") {
				t.Errorf("the header does not say %q:\n%s", tt.header, out)
			}
			if tt.header == "" && strings.Contains(out, "left out: it also served") {
				t.Errorf("the header counts an address left out that none was:\n%s", out)
			}
		})
	}
}

// TestBlockListRateAloneNeverListsBrowser: a browser that opens pages fast,
// with an image per few pages and its Referers stripped (a privacy
// extension), is judged on its pace alone; pace is no certainty, and no
// block list takes it, --block incidents included. A curl at the same pace
// is listed.
func TestBlockListRateAloneNeverListsBrowser(t *testing.T) {
	var b strings.Builder
	at := func(ms int) string {
		return time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC).Add(time.Duration(ms) * time.Millisecond).Format("02/Jan/2006:15:04:05 -0700")
	}
	const chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
	for i := range 25 { // 25 pages in 6 s: a rapid-fire incident
		fmt.Fprintf(&b, "198.51.100.20 - - [%s] \"GET /wiki/page%d HTTP/1.1\" 200 9000 \"-\" \"%s\"\n", at(i*250), i, chrome)
		if i%4 == 0 {
			fmt.Fprintf(&b, "198.51.100.20 - - [%s] \"GET /img/p%d.png HTTP/1.1\" 200 900 \"https://www.example.com/wiki/page%d\" \"%s\"\n", at(i*250+100), i, i, chrome)
		}
	}
	for i := range 25 {
		fmt.Fprintf(&b, "198.51.100.30 - - [%s] \"GET /wiki/page%d HTTP/1.1\" 200 9000 \"-\" \"curl/8.5.0\"\n", at(i*250), i)
	}
	for _, sel := range [][]string{nil, {"--block", "incidents"}, {"--block", "robots"}} {
		code, out, errOut := runCLI(t, []byte(b.String()), append(append([]string{"-o", "ips"}, sel...), "-")...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", sel, code, errOut)
		}
		if got := listed(out); got != "198.51.100.30" {
			t.Errorf("%v lists %q, want only the curl's 198.51.100.30\n%s", sel, got, out)
		}
	}
}

// TestAggregateNeverOverPeople: --aggregate lists a /24 whole only when no
// client judged human was seen in it. Five people of 198.51.100.0/24 (a
// page and its assets each) beside three rapid-fire robots of it: the
// robots are denied one by one, and the header says why the /24 is not.
func TestAggregateNeverOverPeople(t *testing.T) {
	mixed := foldLog(6, "198.51.100", "198.51.100.7", "198.51.100.8", "198.51.100.9")
	code, out, errOut := runCLI(t, []byte(mixed), "-o", "nginx", "--aggregate", "--aggregate-at", "3", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if got, want := listed(out), "deny 198.51.100.7; deny 198.51.100.8; deny 198.51.100.9;"; got != want {
		t.Errorf("lists %s, want %s\n%s", got, want, out)
	}
	if !strings.Contains(out, "# 1 network is listed address by address, not whole: clients judged human were seen in it\n") {
		t.Errorf("the header does not say why the /24 is not listed whole:\n%s", out)
	}
}
