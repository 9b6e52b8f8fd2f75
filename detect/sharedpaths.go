package detect

import (
	"hash/maphash"
	"strings"
	"sync"
	"sync/atomic"
)

// sharedPaths interns the paths of a Pool's records once, on the goroutine
// that routes them (Route, on every parser), for the workers too. Without
// it each path was looked up twice, in the parser's pathMemo and again in
// the worker's, and the worker read the record's text to do so: text
// another core had just written. A worker finds an interned path's facts
// by its id instead (pathLocals), and reads its text from the copy here,
// which every core holds without it moving between them. On the generated
// million-line log a Pool of two on two cores took 0.91 s of CPU instead
// of 1.00 with the cores far apart (bench/corelat.go: 400 ns), 0.67
// instead of 0.74 with them near (median of 5 runs each, alternated).
//
// It keeps the first sharedPathsMax paths that come, and never forgets
// one: a site's requests go to few paths, and a log whose paths churn (a
// query string a request) falls back to the memos past it, as before. A
// Pool's records are routed on several goroutines at once, so which paths
// those are is not the same on every run; the answers are. Lookups take no
// lock: an entry is written before its slot is published, and never
// changes after.
type sharedPaths struct {
	seed  maphash.Seed
	slots []atomic.Uint32 // an entry's id+1 by its hash, linear probing; 0: empty
	// chunks: the entries, sharedChunk a chunk, made as the ids grow.
	chunks [sharedPathsMax / sharedChunk]atomic.Pointer[[sharedChunk]sharedPath]
	mu     sync.Mutex // held to add an entry
	n      uint32     // entries added; read and written under mu
	full   atomic.Bool
}

// sharedPath is one interned path: its text and what it says alone.
type sharedPath struct {
	path  string
	h     uint64 // sharedPaths' hash of path
	id    uint32
	fleet uint8     // fleetFlagsOf
	facts pathFacts // newPathFacts, with the account page worked out (fleetFlagsOf asks it)
}

const (
	// sharedPathsMax bounds the paths interned: 288 kB of entries and up
	// to 225 kB of their text (pathMemoText bytes a path), 32 kB of slots
	// and 192 kB of each worker's facts at most (the generated
	// million-line log has 1,581 paths). Four times as many cost the
	// churn log 5 MB of peak RSS: its paths are new line after line.
	sharedPathsMax = 1 << 12
	sharedChunk    = 1 << 8
)

// newSharedPaths returns an empty table.
func newSharedPaths() *sharedPaths {
	return &sharedPaths{seed: maphash.MakeSeed(), slots: make([]atomic.Uint32, 2*sharedPathsMax)}
}

// of returns the entry of path, interning it, or nil when path is too long
// to intern (as pathMemo's) or the table is full.
func (t *sharedPaths) of(path string) *sharedPath {
	if len(path) == 0 || len(path) > pathMemoText {
		return nil
	}
	h := maphash.String(t.seed, path)
	mask := uint64(len(t.slots) - 1)
	i := h & mask
	for {
		v := t.slots[i].Load()
		if v == 0 {
			if t.full.Load() {
				return nil // no lock a miss once full: a churn log's paths are new
			}
			return t.add(path, h)
		}
		if e := t.entry(v - 1); e.h == h && e.path == path {
			return e
		}
		i = (i + 1) & mask
	}
}

// add interns path, whose hash is h and which of did not find, unless
// another goroutine did since.
func (t *sharedPaths) add(path string, h uint64) *sharedPath {
	t.mu.Lock()
	defer t.mu.Unlock()
	mask := uint64(len(t.slots) - 1)
	i := h & mask
	for ; ; i = (i + 1) & mask {
		v := t.slots[i].Load()
		if v == 0 {
			break
		}
		if e := t.entry(v - 1); e.h == h && e.path == path {
			return e
		}
	}
	if t.n == sharedPathsMax {
		t.full.Store(true)
		return nil
	}
	id := t.n
	c := t.chunks[id/sharedChunk].Load()
	if c == nil {
		c = new([sharedChunk]sharedPath)
		t.chunks[id/sharedChunk].Store(c)
	}
	e := &c[id%sharedChunk]
	e.path, e.h, e.id = strings.Clone(path), h, id
	e.facts = newPathFacts(e.path)
	e.fleet = fleetFlagsOf(e.path, &e.facts, e.facts.res)
	t.n++
	t.slots[i].Store(id + 1) // published: the entry is complete
	return e
}

// entry returns the entry of id, which a slot holds.
func (t *sharedPaths) entry(id uint32) *sharedPath {
	return &t.chunks[id/sharedChunk].Load()[id%sharedChunk]
}

// pathLocals are a worker's facts of the shared paths, by id: the answers
// that are the worker's own (its robots.txt matchers', its panels' ids)
// and those worked out when first asked (pathFacts). A path's are copied
// from its entry when the worker first meets it.
type pathLocals struct {
	chunks [sharedPathsMax / sharedChunk]*[sharedChunk]pathLocal
}

type pathLocal struct {
	facts pathFacts
	set   bool
}

// of returns the worker's facts of e.
func (l *pathLocals) of(e *sharedPath) *pathFacts {
	c := l.chunks[e.id/sharedChunk]
	if c == nil {
		c = new([sharedChunk]pathLocal)
		l.chunks[e.id/sharedChunk] = c
	}
	p := &c[e.id%sharedChunk]
	if !p.set {
		p.facts, p.set = e.facts, true
	}
	return &p.facts
}
