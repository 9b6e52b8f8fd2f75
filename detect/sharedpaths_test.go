package detect

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestSharedPathsFacts: an interned path says what a memo's facts of it
// say, is a copy of the record's text, and is found again as the same
// entry; a path a memo would not keep is not interned.
func TestSharedPathsFacts(t *testing.T) {
	t.Parallel()
	long := "/" + strings.Repeat("a", pathMemoText-1)
	for _, tt := range []struct {
		path     string
		interned bool
	}{
		{"/", true},
		{"/products/1", true},
		{"/img/logo.png", true},
		{"/favicon.ico", true},
		{"/wp-login.php", true},
		{"/robots.txt", true},
		{"/search?q=a", true},
		{long, true},
		{long + "b", false},
		{"", false},
	} {
		tab := newSharedPaths()
		text := []byte(tt.path)
		e := tab.of(string(text))
		if (e != nil) != tt.interned {
			t.Errorf("%q: interned %v, want %v", tt.path, e != nil, tt.interned)
			continue
		}
		if e == nil {
			continue
		}
		for i := range text {
			text[i] = 'x' // the reader's block is read into again
		}
		want := newPathFacts(tt.path)
		flags := fleetFlagsOf(tt.path, &want, want.res)
		if e.path != tt.path || e.facts.res != want.res || e.facts.fp != want.fp || e.facts.ph != want.ph || e.fleet != flags {
			t.Errorf("%q: entry %q res %d fp %d ph %x fleet %d, want res %d fp %d ph %x fleet %d",
				tt.path, e.path, e.facts.res, e.facts.fp, e.facts.ph, e.fleet, want.res, want.fp, want.ph, flags)
		}
		if again := tab.of(tt.path); again != e {
			t.Errorf("%q: found again as another entry", tt.path)
		}
	}
}

// TestSharedPathsFull: past sharedPathsMax paths a new one is not
// interned (its records go by the memos), and the ones in the table are
// still found.
func TestSharedPathsFull(t *testing.T) {
	t.Parallel()
	tab := newSharedPaths()
	for i := range sharedPathsMax {
		if tab.of(fmt.Sprintf("/p/%d", i)) == nil {
			t.Fatalf("path %d of %d not interned", i, sharedPathsMax)
		}
	}
	if e := tab.of("/one/more"); e != nil {
		t.Errorf("a path past the table's %d interned as id %d", sharedPathsMax, e.id)
	}
	if e := tab.of("/p/7"); e == nil || e.path != "/p/7" || e.id != 7 {
		t.Errorf("/p/7 in a full table: %+v", e)
	}
}

// TestSharedPathsConcurrent: parsers intern at once, each its own blocks;
// every path gets one entry whoever met it first, and ids are not reused.
func TestSharedPathsConcurrent(t *testing.T) {
	t.Parallel()
	tab := newSharedPaths()
	const paths, parsers = 3000, 6
	got := make([][]*sharedPath, parsers)
	var wg sync.WaitGroup
	for k := range parsers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[k] = make([]*sharedPath, paths)
			for n := range paths {
				i := (n*7 + k*511) % paths // each in its own order
				got[k][i] = tab.of(fmt.Sprintf("/page/%d", i))
			}
		}()
	}
	wg.Wait()
	ids := map[uint32]int{}
	for i := range paths {
		e := got[0][i]
		for k := 1; k < parsers; k++ {
			if got[k][i] != e {
				t.Fatalf("/page/%d: two entries", i)
			}
		}
		if j, dup := ids[e.id]; dup {
			t.Fatalf("/page/%d and /page/%d share id %d", i, j, e.id)
		}
		ids[e.id] = i
	}
}

// TestPathLocalsCopyOnce: a worker's facts of a shared path start as the
// entry's and then are its own: what it learns (a matcher's answer) stays
// with it, and the entry, which other workers read, is not written.
func TestPathLocalsCopyOnce(t *testing.T) {
	t.Parallel()
	tab := newSharedPaths()
	e := tab.of("/private/a")
	var a, b pathLocals
	fa := a.of(e)
	fa.panel = 9
	if a.of(e) != fa || a.of(e).panel != 9 {
		t.Error("a worker's facts made afresh on the second lookup")
	}
	if fb := b.of(e); fb.panel != 0 || e.facts.panel != 0 {
		t.Errorf("another worker's facts or the entry changed: %d, %d", fb.panel, e.facts.panel)
	}
}
