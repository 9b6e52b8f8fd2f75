package detect

import "testing"

// TestDetailsAsFormatted: the details written once for a single request
// read as those formatted for any count.
func TestDetailsAsFormatted(t *testing.T) {
	for n := uint32(0); n < 4; n++ {
		if got, want := headBrowserDetail(n), formatHeadBrowser(n); got != want {
			t.Errorf("headBrowserDetail(%d) %q, want %q", n, got, want)
		}
		if got, want := homeOnlyDetail(n), formatHomeOnly(n); got != want {
			t.Errorf("homeOnlyDetail(%d) %q, want %q", n, got, want)
		}
	}
	if oneHomeOnly != "one request for the home page and nothing else, never an asset" || oneHeadBrowser != "a HEAD request under a browser's User-agent, never an asset" {
		t.Errorf("details %q, %q", oneHomeOnly, oneHeadBrowser)
	}
}
