package detect

import "unsafe"

// textArena holds strings end to end in chunks of bytes, which the
// collector never scans, with no allocation or size-class rounding per
// string. Nothing is freed before the arena: it suits strings kept for the
// whole pass (fleetTally's). A chunk's bytes, once written, never change
// (a chunk is appended to within its capacity, never moved), so a string
// may be a view of them (view) and be read by other goroutines once handed
// over.
type textArena struct {
	chunks [][]byte
}

// textRef is a string's place in a textArena: its chunk, its offset in
// it and its length.
type textRef struct {
	chunk    uint32
	off, len uint16
}

// arenaChunk is the size of a chunk: far more than the longest string kept
// (capText cuts a User-agent to MaxStoredAgent bytes, an address to
// MaxStoredClient).
const arenaChunk = 1 << 16

// add copies s into the arena.
func (a *textArena) add(s string) textRef {
	if len(s) >= arenaChunk {
		panic("detect: textArena: a string longer than a chunk")
	}
	n := len(a.chunks)
	if n == 0 || len(a.chunks[n-1])+len(s) > arenaChunk {
		a.chunks = append(a.chunks, make([]byte, 0, arenaChunk))
		n++
	}
	c := &a.chunks[n-1]
	off := len(*c)
	*c = append(*c, s...)
	return textRef{chunk: uint32(n - 1), off: uint16(off), len: uint16(len(s))}
}

// bytes returns r's bytes, a view of the arena: compare them as
// string(b) == s, which copies nothing.
func (a *textArena) bytes(r textRef) []byte {
	c := a.chunks[r.chunk]
	return c[r.off : int(r.off)+int(r.len)]
}

// string returns a copy of r's string.
func (a *textArena) string(r textRef) string { return string(a.bytes(r)) }

// view returns r's string without a copy: it keeps its chunk alive.
func (a *textArena) view(r textRef) string {
	if r.len == 0 {
		return ""
	}
	b := a.bytes(r)
	return unsafe.String(&b[0], len(b))
}
