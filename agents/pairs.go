package agents

// pairSet is the set of the first two bytes of a table's words. Most bytes
// of a browser's User-agent start no word of any table, yet each costs a
// look through the words that share its first byte; one bit test of the
// byte and the next rules most of them out. On a log of a million distinct
// browser strings (a botnet, a rotating scraper) classifying is the pass's
// largest cost.
type pairSet [1 << 16 / 64]uint64

// add puts w's first two bytes in the set; a one-byte word puts every
// pair it begins.
func (s *pairSet) add(w string) {
	switch len(w) {
	case 0:
	case 1:
		for b := range 256 {
			s.set(w[0], byte(b))
		}
	default:
		s.set(w[0], w[1])
	}
}

func (s *pairSet) set(a, b byte) {
	k := uint(a)<<8 | uint(b)
	s[k>>6] |= 1 << (k & 63)
}

// mayStart reports whether a word of the set may start at lower[i]. The
// last byte of lower has no pair: it may start a one-byte word, so it is
// left to the caller's own test.
func (s *pairSet) mayStart(lower string, i int) bool {
	if i+1 >= len(lower) {
		return true
	}
	k := uint(lower[i])<<8 | uint(lower[i+1])
	return s[k>>6]&(1<<(k&63)) != 0
}
