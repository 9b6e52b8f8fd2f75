package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
