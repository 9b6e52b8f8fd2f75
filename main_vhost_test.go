package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTrailingDotHostKeepsItsRobotsTxt: a client that writes its Host as
// "www.example.com." (the fully qualified name, which nginx and Apache
// serve as www.example.com) is judged by --robots www.example.com=FILE,
// and so is the plain name when --robots spells the host with the dot.
// Before, the dotted Host had no robots.txt: its violations went
// unchecked.
func TestTrailingDotHostKeepsItsRobotsTxt(t *testing.T) {
	dir := t.TempDir()
	rtxt := filepath.Join(dir, "robots-www.txt")
	if err := os.WriteFile(rtxt, []byte("User-agent: *\nDisallow: /private/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	for i := range 10 {
		// vhost_combined, one robot per spelling of the host.
		fmt.Fprintf(&log, "www.example.com.:443 192.0.2.7 - - [10/Oct/2024:10:00:%02d +0000] \"GET /private/%d HTTP/1.1\" 200 512 \"-\" \"python-requests/2.31.0\"\n", i, i)
		fmt.Fprintf(&log, "www.example.com:443 192.0.2.8 - - [10/Oct/2024:10:00:%02d +0000] \"GET /private/%d HTTP/1.1\" 200 512 \"-\" \"python-requests/2.31.0\"\n", i, i)
	}
	logPath := filepath.Join(dir, "access.log")
	if err := os.WriteFile(logPath, []byte(log.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, host := range []string{"www.example.com", "www.example.com.", "WWW.EXAMPLE.COM."} {
		t.Run(host, func(t *testing.T) {
			var doc struct {
				Summary struct {
					Violations int `json:"violations"`
					Unchecked  int `json:"unchecked_records"`
				} `json:"summary"`
				Clients []struct {
					IP         string `json:"ip"`
					Violations int    `json:"violations"`
				} `json:"clients"`
			}
			runJSON(t, nil, &doc, "-o", "json", "--robots", host+"="+rtxt, logPath)
			if doc.Summary.Violations != 20 || doc.Summary.Unchecked != 0 {
				t.Errorf("%d violations, %d records unchecked; want 20 and 0", doc.Summary.Violations, doc.Summary.Unchecked)
			}
			for _, c := range doc.Clients {
				if c.Violations != 10 {
					t.Errorf("client %s: %d violations, want 10 (its Host is www.example.com, dot or none)", c.IP, c.Violations)
				}
			}
		})
	}
}
