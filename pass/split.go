package pass

import (
	"os"
	"strings"

	"github.com/robowatch/robowatch/input"
)

// split divides a run's inputs into those read at full speed to their end
// (batch) and those read as their lines come (live): with -F the files
// followed picks and any pipe; when findings stream (-o jsonl), pipes and
// standard input, whose lines may come slowly. Batch inputs come first.
func split(names []string, follow, streaming bool) (batch, live []string) {
	if !follow && !streaming {
		return names, nil
	}
	once, tailed := names, []string(nil)
	if follow {
		once, tailed = followed(names, input.Compressed)
	}
	for _, n := range once {
		if input.Regular(n) {
			batch = append(batch, n)
		} else {
			live = append(live, n)
		}
	}
	return batch, append(live, tailed...)
}

// followed picks, of the files a -F run names, those to follow: not
// standard input or another file that is there but is no regular file (a
// FIFO, a shell's <(…), a device, a directory: read to its end), not a
// compressed file, not a rotated sibling of another named file
// (access.log.1 beside access.log: it no longer grows, and following it
// would read access.log again when logrotate renames it to access.log.1).
// The others are read once, first.
func followed(names []string, compressed func(string) bool) (once, follow []string) {
	for _, n := range names {
		// special first: compressed reads the first bytes, a FIFO's lost.
		if n == input.Stdin || special(n) || compressed(n) || rotatedSibling(n, names) {
			once = append(once, n)
		} else {
			follow = append(follow, n)
		}
	}
	return once, follow
}

// special reports whether name is there but is no regular file, which
// neither grows nor is rotated, and may be read only once.
func special(name string) bool {
	st, err := os.Stat(name)
	return err == nil && !st.Mode().IsRegular()
}

// rotatedSibling reports whether name is another named file with a
// rotation suffix: access.log.1, access.log-20261124, access.log.2.gz.
func rotatedSibling(name string, names []string) bool {
	for _, base := range names {
		if base == name || !strings.HasPrefix(name, base) {
			continue
		}
		if rest := name[len(base):]; rest[0] == '.' || rest[0] == '-' || rest[0] == '_' {
			return true
		}
	}
	return false
}
