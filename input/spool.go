package input

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"
)

// Spool keeps standard input in a temporary file, when it is among the
// inputs, so that it can be read twice: a time window counted back from the
// log's last record needs a first pass to find that record. Close removes
// the file. An interrupt (ctx) ends the copy at once, even from a silent
// pipe.
func (f *Files) Spool(ctx context.Context) error {
	if f.spooled != "" || !slices.Contains(f.Names, Stdin) {
		return nil
	}
	tmp, err := os.CreateTemp("", "robowatch-stdin-*")
	if err != nil {
		return fmt.Errorf("keeping standard input: %w", err)
	}
	f.spooled = tmp.Name()
	in := interruptible(ctx, f.stdin())
	defer in.Close()
	_, err = io.Copy(tmp, in)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("keeping standard input in %s: %w", f.spooled, err)
	}
	return nil
}

// Last returns the latest of last(r) over the inputs, each read from its
// start: the end that a duration such as --since 2h counts back from, which
// only a first pass can find. Standard input is spooled first, so that the
// read that counts finds it again. Inputs that cannot be opened are
// skipped: the read that counts reports them. No time in any input is an
// error.
func (f *Files) Last(ctx context.Context, last func(io.Reader) time.Time) (time.Time, error) {
	if err := f.Spool(ctx); err != nil {
		return time.Time{}, err
	}
	var latest time.Time
	for _, name := range f.Names {
		if ctx.Err() != nil {
			return time.Time{}, ctx.Err()
		}
		r, err := f.Open(ctx, name)
		if err != nil {
			continue
		}
		if t := last(r); t.After(latest) {
			latest = t
		}
		r.Close()
	}
	if latest.IsZero() {
		return latest, errors.New("no record has a time")
	}
	return latest, nil
}
