package detect

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/robowatch/robowatch/robots"
)

// memoPaths are the request targets of the repository's logs and corpus,
// and paths made to be odd: what the memo must answer as the functions do.
func memoPaths(t *testing.T) []string {
	t.Helper()
	paths := []string{"", "/", "//", "/robots.txt", "//robots.txt", "/favicon.ico", "/.env", "/%2eenv",
		"/cgi-bin/.%2e/.%2e/bin/sh", "/index.php?page=../../../../etc/passwd", "/shop/index.php?x=1",
		"/Default.aspx", "/login", "/user/sign-up/", "/admin/users", "/private/press-kit.html", "/search?q=x",
		"/api/v1/a.json", "/a#frag", "/x?${jndi:ldap://e/a}", strings.Repeat("/a", pathMemoText/2),
		strings.Repeat("/b", pathMemoText/2+1), "/" + strings.Repeat("é", 30), "/wp-login.php", "/blog/xmlrpc.php"}
	logs, _ := filepath.Glob("../testdata/corpus/*/access.log*")
	more, _ := filepath.Glob("../testdata/logs/*.log")
	for _, name := range append(logs, more...) {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			// The target of a quoted request line: "GET /path HTTP/1.1".
			_, req, ok := strings.Cut(sc.Text(), "\"")
			if !ok {
				continue
			}
			if f := strings.Fields(req); len(f) >= 2 {
				paths = append(paths, f[1])
			}
		}
		f.Close()
	}
	// Enough that paths take each other's slots.
	for i := range 4 << pathMemoBits {
		paths = append(paths, fmt.Sprintf("/p/%d%s", i, [...]string{"", ".css", "/", "?q=1", ".php"}[i%5]))
	}
	return paths
}

// TestPathMemoAnswersAsTheFunctions asks a memo about every path of the
// corpus three times over, in turn with two robots.txt matchers, and its
// answers about each path in a different order each time: they must be
// the functions' whether the path's slot was its own, another's, or new.
func TestPathMemoAnswersAsTheFunctions(t *testing.T) {
	paths := memoPaths(t)
	rb := robots.ParseBytes([]byte(siteRobots))
	matchers := []*robots.Matcher{rb.Agent(chromeUA), rb.Agent(googleUA), nil}
	var m pathMemo
	hits := 0
	for round := range 3 {
		order := slices.Clone(paths)
		if round == 1 {
			slices.Reverse(order)
		}
		for i, p := range order {
			f := m.of(p)
			if f.known != 0 {
				hits++
			}
			if f.res != classify(p) || f.fp != fingerprintOf(p) || f.ph != pathHash(p) || f.ph32() != pathHash32(p) {
				t.Fatalf("%q: memo res %d fp %d ph %x, want %d %d %x", p, f.res, f.fp, f.ph, classify(p), fingerprintOf(p), pathHash(p))
			}
			asks := []func(){
				func() {
					if got, want := f.probe(p), probeOf(p); got != want {
						t.Errorf("%q: probe %d, want %d", p, got, want)
					}
				},
				func() {
					if got, want := f.viewHash(p), viewHash32(p); got != want {
						t.Errorf("%q: view hash %x, want %x", p, got, want)
					}
				},
				func() {
					if got, want := f.account(p), accountPage(p); got != want {
						t.Errorf("%q: account %v, want %v", p, got, want)
					}
				},
				func() {
					mt := matchers[(i+round)%len(matchers)]
					ok, rule := f.allowedBy(mt, p)
					wantOK, wantRule := mt.Allowed(p)
					if ok != wantOK || rule != wantRule {
						t.Errorf("%q, matcher %q: allowed %v %v, want %v %v", p, mt.Group(), ok, rule, wantOK, wantRule)
					}
				},
			}
			for k := range asks {
				asks[(k+i+round)%len(asks)]()
			}
		}
	}
	if hits == 0 {
		t.Error("the memo never kept a path")
	}
	t.Logf("%d paths, %d answers found kept", len(paths), hits)
}

// TestPanelIDFromMemo: a panel id kept in the memo is the one the panels
// give the path, and a path the full table left out is asked again.
func TestPanelIDFromMemo(t *testing.T) {
	var m pathMemo
	var p panels
	for i, path := range []string{"/a?x", "/b", "/a?y", "/b#c"} {
		f := m.of(path)
		id, ok := p.idOf(f, path)
		want, wantOK := p.id(pathOnly(path))
		if id != want || ok != wantOK {
			t.Errorf("%d %q: id %d %v, want %d %v", i, path, id, ok, want, wantOK)
		}
	}
	if p.paths.len() != 2 || p.paths.name(0) != "/a" || p.paths.name(1) != "/b" {
		t.Errorf("interned %d paths, want /a and /b", p.paths.len())
	}
	p.paths.refs = append(p.paths.refs, make([]textRef, maxPanelPaths)...)
	f := m.of("/new")
	if _, ok := p.idOf(f, "/new"); ok || f.panel != 0 {
		t.Errorf("a full table gave /new an id (memo %d)", f.panel)
	}
}

// TestPathLRUTakesEveryWayAndNeverTheLastUsed: a set's new paths fill its
// four ways before one is taken again, and the way taken is never the one
// used last, whatever the order of use.
func TestPathLRUTakesEveryWayAndNeverTheLastUsed(t *testing.T) {
	var md uint64
	taken := map[uint64]bool{}
	for range pathWays {
		w := pathLRU(md)
		taken[w] = true
		md = pathUsed(md, w)
	}
	if len(taken) != pathWays {
		t.Errorf("four new paths took ways %v", taken)
	}
	rnd := uint64(1)
	for range 1000 {
		rnd = rnd*6364136223846793005 + 1442695040888963407
		w := rnd >> 62
		md = pathUsed(md, w)
		if v := pathLRU(md); v == w || v >= pathWays {
			t.Fatalf("way %d used last, way %d taken", w, v)
		}
	}
}
