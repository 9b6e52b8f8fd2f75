package main

import (
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
	dir := "testdata/scenarios/block-lists"
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
