package main

import (
	"encoding/json"
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

// rotationLog writes n requests, one each interval from time zero; ip and
// ua say who sent request i, and each carries assets images and a Referer
// when asked, as a browser's page view does.
func rotationLog(b *strings.Builder, n int, interval time.Duration, ip, ua func(i int) string, assets int, referer bool) {
	t0 := time.Date(2024, 5, 6, 9, 0, 0, 0, time.UTC)
	ref := "-"
	if referer {
		ref = "https://www.google.com/"
	}
	for i := range n {
		at := t0.Add(time.Duration(i) * interval)
		fmt.Fprintf(b, "%s - - [%s] \"GET /item/%d HTTP/1.1\" 200 5120 %q %q\n", ip(i), at.Format("02/Jan/2006:15:04:05 -0700"), i, ref, ua(i))
		for k := range assets {
			fmt.Fprintf(b, "%s - - [%s] \"GET /img/%d-%d.jpg HTTP/1.1\" 200 900 \"https://www.example.com/item/%d\" %q\n", ip(i), at.Add(200*time.Millisecond).Format("02/Jan/2006:15:04:05 -0700"), i, k, i, ua(i))
		}
	}
}

// chromeN is a Chrome string that differs with i, as a scraper's list of
// User-agents does.
func chromeN(i int) string {
	return fmt.Sprintf("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%d.0.%d.%d Safari/537.36", 118+i%8, 6000+i/100, i%100)
}

// v6In64 is an address of 2001:db8:5:7::/64 that differs with i, as a
// scraper that takes a fresh address of its /64 for every request.
func v6In64(i int) string {
	return fmt.Sprintf("2001:db8:5:7:%x:%x:%x:%x", 0x1000+i*7919%0xe000, i*31%0xffff, i*131%0xffff, i)
}

// TestAddressAsAWhole: one address sending a fresh browser string with
// every request (6,000 of them in 10 minutes, 10 pages a second, no
// asset) and one IPv6 /64 sending each request from a fresh address are
// each one robot: every client of theirs is judged a robot, found by what
// the address or the /64 did together. People behind one address (a
// NAT) or in one /64 (a household's privacy addresses), each browser with
// its pages' assets and Referers, stay people, at the same pace.
func TestAddressAsAWhole(t *testing.T) {
	const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0"
	tests := []struct {
		name   string
		log    func(b *strings.Builder)
		robots int    // clients judged robots
		detail string // a detail each robot gives
	}{
		{"one address rotating User-agents", func(b *strings.Builder) {
			rotationLog(b, 6000, 100*time.Millisecond, func(int) string { return "203.0.113.9" }, chromeN, 0, false)
		}, 6000, "a rotating User-agent"},
		{"one IPv6 /64 rotating addresses", func(b *strings.Builder) {
			rotationLog(b, 600, time.Second, v6In64, func(int) string { return firefox }, 0, false)
		}, 600, "rotating addresses"},
		{"NAT of browsers with assets and Referers", func(b *strings.Builder) {
			rotationLog(b, 60, time.Second, func(int) string { return "203.0.113.9" }, func(i int) string { return chromeN(i % 15) }, 3, true)
		}, 0, ""},
		{"real NAT of three browsers (elastic log)", func(b *strings.Builder) {
			for l := range strings.Lines(sharedLog(t)) {
				if strings.HasPrefix(l, "88.103.19.195 ") {
					b.WriteString(l)
				}
			}
		}, 0, ""},
		{"household /64 of browsers with assets and Referers", func(b *strings.Builder) {
			rotationLog(b, 60, time.Second, func(i int) string { return v6In64(i % 15) }, func(int) string { return firefox }, 3, true)
		}, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			tt.log(&b)
			code, out, errOut := runCLI(t, []byte(b.String()), "-o", "json", "-")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var rep struct {
				Summary struct{ Robots int }
				Clients []struct {
					Robot   bool
					Details []string
				}
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatal(err)
			}
			if rep.Summary.Robots != tt.robots {
				t.Errorf("%d robots, want %d", rep.Summary.Robots, tt.robots)
			}
			for _, c := range rep.Clients {
				if c.Robot && !strings.Contains(strings.Join(c.Details, "; "), tt.detail) {
					t.Errorf("a robot without %q: %q", tt.detail, c.Details)
					break
				}
			}
		})
	}
}
