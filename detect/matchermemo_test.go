package detect

import (
	"fmt"
	"testing"

	"github.com/robowatch/robowatch/robots"
)

// TestMatcherMemoAnswersAsAgent asks a memo for the matchers of many
// User-agents (more than it has slots) of two robots.txt files in turn,
// three rounds: each must be the one robots.Robots.Agent gives.
func TestMatcherMemoAnswersAsAgent(t *testing.T) {
	uas := append([]string{"", chromeUA, firefoxUA, curlUA, googleUA}, benchUAs...)
	for i := range 3 * matcherMemoSlots {
		uas = append(uas, fmt.Sprintf("Bot%d/1.0 (+https://example.com/bot)", i), fmt.Sprintf("Googlebot-News%d", i))
	}
	files := []*robots.Robots{robots.ParseBytes([]byte(siteRobots)), robots.ParseBytes([]byte("User-agent: Bot7\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n"))}
	var ms matcherMemo
	for round := range 3 {
		for i, ua := range uas {
			rb := files[(i+round)%len(files)]
			got, want := ms.of(rb, ua), rb.Agent(ua)
			if got.m != want || got.rb != rb {
				t.Fatalf("round %d, %q: matcher %q, want %q", round, ua, got.m.Group(), want.Group())
			}
			if got != ms.rules(rb, want) {
				t.Fatalf("round %d, %q: the pair is not the one shared", round, ua)
			}
		}
	}
}
