package input

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// DirError is a directory given where a log belongs (robowatch
// /var/log/nginx): its message names the glob of the logs in it.
type DirError struct {
	Dir  string
	Glob string // Dir's logs, as a shell glob: Dir/access.log*
}

func (e *DirError) Error() string {
	return e.Dir + " is a directory, not a log: give the logs in it, e.g. " + e.Glob
}

// notDir returns a *DirError if file, opened as name, is a directory.
func notDir(file *os.File, name string) error {
	st, err := file.Stat()
	if err != nil || !st.IsDir() {
		return nil
	}
	return &DirError{Dir: name, Glob: logGlob(file, name)}
}

// maxDirEntries bounds what logGlob reads of a directory: a log directory
// has a few dozen files, and a huge one needs no exact answer.
const maxDirEntries = 1000

// logGlob is the glob that names the logs of directory dir, open as d: the
// stem the most files named *log* share once their rotation suffixes (.1,
// -20240301, .gz) are taken off, an access log's before any other and an
// error log's after; dir/* when it has no such files.
func logGlob(d *os.File, dir string) string {
	entries, _ := d.ReadDir(maxDirEntries)
	count := map[string]int{}
	for _, e := range entries {
		if e.Type().IsRegular() && strings.Contains(strings.ToLower(e.Name()), "log") {
			count[logStem(e.Name())]++
		}
	}
	if len(count) == 0 {
		return filepath.Join(dir, "*")
	}
	rank := func(stem string) int {
		switch {
		case strings.Contains(stem, "access"):
			return 0
		case strings.Contains(stem, "error"):
			return 2
		}
		return 1
	}
	stems := make([]string, 0, len(count))
	for s := range count {
		stems = append(stems, s)
	}
	best := slices.MinFunc(stems, func(a, b string) int {
		return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(count[b], count[a]), strings.Compare(a, b))
	})
	return filepath.Join(dir, best) + "*"
}

// logStem is name without the suffixes log rotation adds: a compression
// extension, then a number (.1) or a date (-20240301).
func logStem(name string) string {
	for _, ext := range []string{".gz", ".bz2", ".xz", ".zst", ".lz4"} {
		if s, ok := strings.CutSuffix(name, ext); ok {
			name = s
			break
		}
	}
	i := len(name)
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}
	if i < len(name) && i > 1 && (name[i-1] == '.' || name[i-1] == '-' || name[i-1] == '_') {
		name = name[:i-1]
	}
	return name
}
