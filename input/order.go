package input

import (
	"context"
	"io"
	"sort"
	"time"
)

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
