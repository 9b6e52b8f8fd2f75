package input

import (
	"context"
	"io"
	"os"
	"slices"
	"sort"
	"time"
)

// Unique drops each name of a file named before it: the same path again,
// or another path to the same file (./access.log, a symbolic link), as a
// glob that overlaps another gives them (robowatch access.log access.log*).
// Read twice, a file's lines would be counted twice, and its requests come
// back as late ones. It returns the names dropped, each with the name kept,
// for a warning. Standard input and names that cannot be looked at stay:
// the read says what is wrong with them.
func (f *Files) Unique() (dropped []Duplicate) {
	var names []string // the files kept, with infos
	var infos []os.FileInfo
	kept := f.Names[:0:0]
	for _, name := range f.Names {
		if st, err := os.Stat(name); name != Stdin && err == nil {
			if i := slices.IndexFunc(infos, func(s os.FileInfo) bool { return os.SameFile(s, st) }); i >= 0 {
				dropped = append(dropped, Duplicate{Name: name, Of: names[i]})
				continue
			}
			names, infos = append(names, name), append(infos, st)
		}
		kept = append(kept, name)
	}
	f.Names = kept
	return dropped
}

// Duplicate is a name Unique dropped: Name is the file Of names too.
type Duplicate struct{ Name, Of string }

// Order sorts the inputs by the time of their first record, as first reads
// it from the start of a decompressed file, so that "access.log*", which a
// shell expands newest first (access.log, access.log.1, access.log.2.gz), is
// read oldest first as rate windows need. Only regular files whose first
// lines have a time move, among the places such files hold; standard input,
// FIFOs and files without times stay where they were given (they cannot be
// read twice, or there is nothing to sort them by). It reports whether the
// order changed.
func (f *Files) Order(ctx context.Context, first func(io.Reader) time.Time) bool {
	if len(f.Names) < 2 {
		return false // nothing to order, and no second open of a file being rotated
	}
	type timed struct {
		name  string
		first time.Time
	}
	var slots []int
	var files []timed
	for i, name := range f.Names {
		if !regular(name) {
			continue
		}
		r, err := f.Open(ctx, name)
		if err != nil {
			continue // the read that counts reports it
		}
		t := first(r)
		r.Close()
		if !t.IsZero() {
			slots = append(slots, i)
			files = append(files, timed{name, t})
		}
	}
	sort.SliceStable(files, func(a, b int) bool { return files[a].first.Before(files[b].first) })
	changed := false
	for k, i := range slots {
		if f.Names[i] != files[k].name {
			changed = true
			f.Names[i] = files[k].name
		}
	}
	return changed
}
