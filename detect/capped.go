package detect

import (
	"strconv"
	"unicode/utf8"
)

// What the detector keeps of attacker-chosen text is bounded, so that its
// memory follows the clients it tracks and never the length of the log's
// lines: a 1 MB User-agent costs what a 600-byte one does. A longer value
// is kept as its first bytes, "…" and a hash of the whole value, so two long
// values that differ only at the end stay two (two clients, two paths).
const (
	MaxStoredAgent  = 512 // bytes of a User-agent kept per client
	MaxStoredClient = 256 // bytes of a client address or host name
	MaxStoredPath   = 256 // bytes of a path kept in a violation or a drill-down
	MaxStoredMethod = 16  // bytes of a method kept in a violation or a drill-down
)

// capText returns s if it is at most max bytes long, else its first bytes
// (cut at a character boundary), "…" and 16 hex digits of a hash of all of
// s, max bytes or less in all; for a max too small for the hash, the first
// bytes alone.
func capText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max - len("…") - 16
	if cut < 16 {
		// Too short to hold a hash (a method): the first bytes only.
		for cut = max; cut > 0 && !utf8.RuneStart(s[cut]); cut-- {
		}
		return s[:cut]
	}
	sum := strconv.FormatUint(pathHash(s), 16)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	b := make([]byte, 0, max)
	b = append(b, s[:cut]...)
	b = append(b, "…"...)
	for i := len(sum); i < 16; i++ {
		b = append(b, '0')
	}
	return string(append(b, sum...))
}
