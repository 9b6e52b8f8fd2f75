package detect

import "hash/maphash"

// pathTable interns the panels' paths: a path's id is its place in refs.
// A map keyed by the path held a string a slot and a string object a path
// (about 80 bytes a path, every one scanned by the collector at each
// cycle; a churn log interns maxPanelPaths of them per worker); here the
// text sits end to end in a textArena and the map is keyed by a 64-bit
// hash of it, checked against the text found. Paths with one hash
// (crafted: the seed is random) go to collide.
type pathTable struct {
	byHash  map[uint64]uint32
	collide map[string]uint32
	refs    []textRef
	text    textArena
}

// hashPath is pathTable's hash (a variable so a test can make paths
// collide).
var hashPath = func(path string) uint64 { return maphash.String(seedClients, path) }

// getHashed returns the id of path, whose hashPath is h, false if it has
// none.
func (t *pathTable) getHashed(path string, h uint64) (uint32, bool) {
	if id, ok := t.byHash[h]; ok && string(t.text.bytes(t.refs[id])) == path {
		return id, true
	}
	if len(t.collide) > 0 {
		id, ok := t.collide[path]
		return id, ok
	}
	return 0, false
}

// add interns path, which get does not find, copying it (the record's
// memory is reused after Add), and returns its id.
func (t *pathTable) add(path string) uint32 { return t.addHashed(path, hashPath(path)) }

// addHashed is add of path, whose hashPath is h.
func (t *pathTable) addHashed(path string, h uint64) uint32 {
	id := uint32(len(t.refs))
	t.refs = append(t.refs, t.text.add(path))
	if _, taken := t.byHash[h]; !taken {
		if t.byHash == nil {
			t.byHash = make(map[uint64]uint32)
		}
		t.byHash[h] = id
		return id
	}
	if t.collide == nil {
		t.collide = make(map[string]uint32)
	}
	t.collide[t.text.view(t.refs[id])] = id
	return id
}

// len is the number of paths interned.
func (t *pathTable) len() int { return len(t.refs) }

// name returns the path of id, a view of the arena: it outlives the table.
func (t *pathTable) name(id uint32) string { return t.text.view(t.refs[id]) }
