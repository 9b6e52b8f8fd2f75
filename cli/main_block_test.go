package cli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBlockListsLoad loads the block lists of the block-lists scenario
// (their goldens, which TestScenarios keeps equal to what robowatch
// writes) into the programs they are for: nginx -t with the deny file
// included in a server block, nft -c -f. Each part skips where its program
// is not installed or may not run here (nft -c needs netlink).
func TestBlockListsLoad(t *testing.T) {
	dir := "../testdata/scenarios/block-lists"
	t.Run("nginx", func(t *testing.T) {
		nginx, err := exec.LookPath("nginx")
		if err != nil {
			t.Skip("nginx is not installed")
		}
		for _, golden := range []string{"nginx.golden", "nginx-empty.golden"} {
			deny, err := filepath.Abs(filepath.Join(dir, golden))
			if err != nil {
				t.Fatal(err)
			}
			prefix := t.TempDir()
			conf := filepath.Join(prefix, "nginx.conf")
			text := "pid " + filepath.Join(prefix, "nginx.pid") + ";\nerror_log " + filepath.Join(prefix, "error.log") + ";\n" +
				"events {}\nhttp {\n  access_log off;\n  server {\n    listen 127.0.0.1:18080;\n    include " + deny + ";\n  }\n}\n"
			if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(nginx, "-t", "-c", conf, "-p", prefix).CombinedOutput()
			if err != nil {
				t.Errorf("nginx -t with %s included: %v\n%s", golden, err, out)
			}
			if !strings.Contains(string(out), "test is successful") {
				t.Errorf("nginx -t with %s included says:\n%s", golden, out)
			}
		}
	})
	t.Run("nftables", func(t *testing.T) {
		nft, err := exec.LookPath("nft")
		if err != nil {
			t.Skip("nft is not installed")
		}
		probe := filepath.Join(t.TempDir(), "probe.nft")
		if err := os.WriteFile(probe, []byte("table inet robowatch_probe {\n}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(nft, "-c", "-f", probe).CombinedOutput(); err != nil {
			t.Skipf("nft -c cannot run here (%v: %s)", err, strings.TrimSpace(string(out)))
		}
		out, err := exec.Command(nft, "-c", "-f", filepath.Join(dir, "nftables.golden")).CombinedOutput()
		if err != nil {
			t.Errorf("nft -c -f nftables.golden: %v\n%s", err, out)
		}
	})
}

// TestBlockListLeavesCarrierNAT: a balancer in RFC 6598's shared space
// (100.64.0.0/10: Alibaba Cloud's SLB, a carrier's NAT in front of the
// site) hammering the site is the site's own, as a 10.x balancer is: the
// block list names it in its header and denies it nowhere, to the edges of
// the space; the address one before it is denied.
func TestBlockListLeavesCarrierNAT(t *testing.T) {
	var log strings.Builder
	for _, ip := range []string{"100.63.255.255", "100.64.0.1", "100.127.255.255"} {
		for i := range 40 { // rapid fire: an incident under the default selection
			fmt.Fprintf(&log, "%s - - [06/May/2024:09:00:%02d +0000] \"GET /q%d HTTP/1.1\" 200 5 \"-\" \"curl/8.5.0\"\n", ip, i/10, i)
		}
	}
	for _, format := range []string{"nginx", "ips"} {
		code, out, errOut := runCLI(t, []byte(log.String()), "-o", format, "-")
		if code != 0 {
			t.Fatalf("-o %s: exit %d: %s", format, code, errOut)
		}
		var listed []string
		for l := range strings.Lines(out) {
			if !strings.HasPrefix(l, "#") {
				listed = append(listed, strings.TrimSpace(l))
			}
		}
		want := map[string]string{"nginx": "deny 100.63.255.255;", "ips": "100.63.255.255"}[format]
		if strings.Join(listed, "|") != want {
			t.Errorf("-o %s lists %q, want only %q", format, listed, want)
		}
		// Two thirds of the requests came from the balancers: the note
		// that the log names a proxy instead of its clients.
		if !strings.Contains(errOut, "66% of the requests came from private addresses (100.127.255.0/24, 100.64.0.0/24)") {
			t.Errorf("-o %s: no note of a proxy on stderr: %s", format, errOut)
		}
		if !strings.Contains(out, "CDN edges (") || !strings.Contains(out, "): 100.64.0.1, 100.127.255.255; deny one by hand") {
			t.Errorf("-o %s: the header does not name the balancers:\n%s", format, out)
		}
	}
}

// foldLog is a log in which people of a /24 (five Firefox visits, a page
// and its two assets each) come first, then the robots named by robots
// ("NET.HOST", 40 requests in 4 s each: a rapid-fire incident). With
// --max-clients 3 the robots take the people's places: the people are
// folded into "other", known no more one by one.
func foldLog(day int, people string, robots ...string) string {
	var b strings.Builder
	at := func(sec int) string {
		return time.Date(2024, 5, day, 9, 0, 0, 0, time.UTC).Add(time.Duration(sec) * time.Second).Format("02/Jan/2006:15:04:05 -0700")
	}
	if people != "" {
		for i := range 5 {
			for _, path := range []string{"/", "/style.css", "/app.js"} {
				fmt.Fprintf(&b, "%s.%d - - [%s] \"GET %s HTTP/1.1\" 200 512 \"https://www.example.com/\" \"Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0\"\n",
					people, 20+i, at(i*10), path)
			}
		}
	}
	for k, ip := range robots {
		for i := range 40 {
			fmt.Fprintf(&b, "%s - - [%s] \"GET /q%d HTTP/1.1\" 200 5 \"-\" \"curl/8.5.0\"\n", ip, at(600+k*60+i/10), i)
		}
	}
	return b.String()
}

// listed is what a block list denies, without its comments.
func listed(out string) string {
	var l []string
	for s := range strings.Lines(out) {
		if !strings.HasPrefix(s, "#") {
			l = append(l, strings.TrimSpace(s))
		}
	}
	return strings.Join(l, " ")
}

// TestAggregateNeverPastFoldedPeople: --aggregate lists a /24 only when
// every client seen in it was selected. People folded into "other" by
// --max-clients were seen and are not known one by one: their /24 stays
// listed address by address, with any number of workers. (robowatch
// merge has no --aggregate: its block lists are address by address.)
func TestAggregateNeverPastFoldedPeople(t *testing.T) {
	mixed := foldLog(6, "198.51.100", "198.51.100.7", "198.51.100.8", "198.51.100.9")
	const apart = "deny 198.51.100.7; deny 198.51.100.8; deny 198.51.100.9;"
	for _, workers := range []string{"1", "4"} {
		code, out, errOut := runCLI(t, []byte(mixed), "-o", "nginx", "--aggregate", "--aggregate-at", "3", "--max-clients", "3", "--workers", workers, "-")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if got := listed(out); got != apart {
			t.Errorf("--workers %s: the /24 of folded people denied:\n got %s\nwant %s\n%s", workers, got, apart, out)
		}
		if !strings.Contains(out, "# A network with clients folded into other is listed address by address") {
			t.Errorf("--workers %s: the header does not say why the /24 is not listed whole:\n%s", workers, out)
		}
	}
	// Without people, the same robots make the /24.
	code, out, errOut := runCLI(t, []byte(foldLog(6, "", "198.51.100.7", "198.51.100.8", "198.51.100.9")), "-o", "nginx", "--aggregate", "--aggregate-at", "3", "--max-clients", "3", "-")
	if got := listed(out); code != 0 || got != "deny 198.51.100.0/24;" {
		t.Errorf("robots alone: exit %d, %s; want the /24: %s", code, got, errOut)
	}

}

// sharedLog is testdata/logs/elastic-shared-addresses.log, real lines: a
// probe under a browser's name (95.78.54.93), three people's browsers at
// one address (88.103.19.195), and a person's Chrome beside the Microsoft
// Office discovery that opened the link for it (64.131.102.243).
func sharedLog(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../testdata/logs/elastic-shared-addresses.log")
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
