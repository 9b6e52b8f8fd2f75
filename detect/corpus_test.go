package detect

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// loadLabelledAgents reads the labelled corpus beside the repository (see
// its README); the agents package measures the classifier on it too.
func loadLabelledAgents(t *testing.T) (bots, browsers []string) {
	t.Helper()
	b, err := os.ReadFile(filepath.FromSlash("../../shared/data/ua/labelled_user_agents.json"))
	if err != nil {
		t.Skipf("labelled corpus not available: %v", err)
	}
	var c struct{ Bots, Browsers []string }
	if err := json.Unmarshal(b, &c); err != nil || len(c.Bots) == 0 || len(c.Browsers) == 0 {
		t.Fatalf("labelled corpus: %v (%d bots, %d browsers)", err, len(c.Bots), len(c.Browsers))
	}
	return c.Bots, c.Browsers
}

// TestCorpusVerdicts replays every string of the labelled corpus as a
// client that reads three pages, 40 s apart, each with its assets and a
// Referer — the pace and habits of a person — so that only the User-agent
// can tell. It reports the share of crawlers judged robots and of browsers
// judged robots (the aim: at least 95% and at most 1%) and fails
// when either gets worse than when it was written.
func TestCorpusVerdicts(t *testing.T) {
	bots, browsers := loadLabelledAgents(t)
	var reqs []req
	for i, ua := range append(append([]string{}, bots...), browsers...) {
		reqs = append(reqs, browse(fmt.Sprintf("10.%d.%d.1", i/250, i%250), ua, i, 3, 40)...)
	}
	res := run(Config{}, reqs)
	robot := map[string]bool{}
	for v := range res.Clients.All() {
		robot[v.UserAgent] = v.Robot
	}
	share := func(list []string) float64 {
		n := 0
		for _, ua := range list {
			if robot[ua] {
				n++
			}
		}
		return float64(n) / float64(len(list))
	}
	botShare, browserShare := share(bots), share(browsers)
	t.Logf("crawlers judged robots: %.1f%% of %d; browsers judged robots: %.1f%% of %d", 100*botShare, len(bots), 100*browserShare, len(browsers))
	// Achieved when written: 87.4% and 0.8%. The misses are crawler strings
	// the User-agent classifier takes for browsers; the verdict cannot see
	// more when the client behaves like a person.
	if botShare < 0.86 {
		t.Errorf("crawlers judged robots: %.1f%%, want at least 86%%", 100*botShare)
	}
	if browserShare > 0.01 {
		t.Errorf("browsers judged robots: %.1f%%, want at most 1%%", 100*browserShare)
	}
}
