package robots

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func readHostile(t *testing.T, name string) *Robots {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "robots", "hostile", name))
	if err != nil {
		t.Fatal(err)
	}
	return ParseBytes(b)
}

// TestHostileFiles: the small hostile files of testdata/robots/hostile.
func TestHostileFiles(t *testing.T) {
	t.Run("BOM and CR-only line ends", func(t *testing.T) {
		r := readHostile(t, "bom-cr-only.txt")
		if got, want := groupList(r), "*@1: D /private/@2 A /private/ok@3 | EvilBot@5: D /@6"; got != want {
			t.Errorf("groups %q, want %q", got, want)
		}
		if ps := Lint(r); len(ps) != 0 {
			t.Errorf("lint: %v", codes(ps))
		}
	})
	t.Run("soft 404", func(t *testing.T) {
		r := readHostile(t, "soft-404.txt")
		if !r.HTML || len(r.Groups) != 0 {
			t.Errorf("HTML %v, groups %s", r.HTML, groupList(r))
		}
		if ok, _ := r.Allowed("Googlebot", "/"); !ok {
			t.Errorf("the page's text %q was read as a rule", "Disallow: /")
		}
		if got := codes(Lint(r)); got != "html@1" {
			t.Errorf("lint %q", got)
		}
	})
	t.Run("many stars", func(t *testing.T) {
		r := readHostile(t, "many-stars.txt")
		long := "/" + strings.Repeat("a", 10<<10)
		if ok, rule := r.Allowed("bot", long); !ok {
			t.Errorf("10 KiB of 'a' matched %+v", rule)
		}
		if ok, _ := r.Allowed("bot", long+"b"); ok {
			t.Errorf("10 KiB of 'a' then 'b' not matched")
		}
	})
	t.Run("control characters", func(t *testing.T) {
		r := readHostile(t, "control-chars.txt")
		if len(r.Groups) != 1 || len(r.Groups[0].Rules) != 3 {
			t.Fatalf("groups %q", groupList(r))
		}
		// Neither name is a product token, so the group addresses nobody.
		if ok, _ := r.Allowed("GoodBot", "/\x1b[2J"); !ok {
			t.Errorf("a group with no usable name applied")
		}
		for _, p := range Lint(r) {
			if p.Code == "bad-user-agent" && strings.ContainsAny(p.Message, "\x1b\x07") {
				t.Errorf("raw control characters in a message: %q", p.Message)
			}
		}
		// The rule with raw bytes matches their percent-encoded form.
		m := &Robots{Groups: []*Group{{Agents: []string{"*"}, Rules: r.Groups[0].Rules}}}
		for _, p := range []string{"/%1B[2J", "/a%00b", "/%FF%FE"} {
			if ok, _ := m.Allowed("bot", p); ok {
				t.Errorf("%q not disallowed", p)
			}
		}
	})
	t.Run("binary garbage", func(t *testing.T) {
		r := readHostile(t, "binary-garbage.txt")
		if len(r.Groups) != 0 {
			t.Errorf("groups from garbage: %s", groupList(r))
		}
		for _, p := range Lint(r) {
			if p.Severity == Error {
				t.Errorf("%+v", p)
			}
		}
	})
}

// TestConcurrentUse: one Robots shared by goroutines that map agents and
// match paths (run with -race).
func TestConcurrentUse(t *testing.T) {
	r := readTestdata(t, "www.netflix.com.robots.txt")
	agents := []string{"googlebot", "Mozilla/5.0 (compatible; bingbot/2.0)", "curl/8", "YandexBot/3.0", "Twitterbot", "Yahoo Pipes 1.0"}
	want := map[string]bool{}
	for _, a := range agents {
		ok, _ := ParseBytes([]byte(readTestdataString(t, "www.netflix.com.robots.txt"))).Allowed(a, "/title/1")
		want[a] = ok
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				a := agents[(g+i)%len(agents)]
				if ok, _ := r.Agent(a).Allowed("/title/1"); ok != want[a] {
					errs <- fmt.Sprintf("%s: %v", a, ok)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func readTestdataString(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "robots", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
