package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/robowatch/robowatch/detect"
	"github.com/robowatch/robowatch/input"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/report"
)

// LiveOutput is where a live run sends what is not a finding: running
// summaries every --interval and what happened to its inputs. The
// findings themselves go to the detector's Events.
type LiveOutput interface {
	Summary(live detect.Live, stats logparse.Stats)
	File(t time.Time, kind, file string)
	Error(t time.Time, kind, file, message string)
	Malformed(t time.Time, e *logparse.ParseError)
}

// Live reads inputs as their lines come: followed files (-F), or pipes
// whose events must stream (-o jsonl). One goroutine per input reads and
// parses; the detector, which wants one goroutine, gets the records here.
type Live struct {
	Det      *detect.Detector
	Out      LiveOutput // nil: none
	Interval time.Duration
	Clip     *logparse.Clip
	Proxies  logparse.Proxies
	Strict   bool
	Format   *logparse.Format
	Follow   bool          // follow the files (not standard input) as tail -F does
	Poll     time.Duration // how often a followed file is looked at without a notification; 0: 1 s
	Stderr   io.Writer

	stats  logparse.Stats // lines and malformed lines seen, for running summaries
	lastAt time.Time      // wall time of the last record
}

// liveItem is one thing an input's goroutine read.
type liveItem struct {
	rec    *logparse.Record
	perr   *logparse.ParseError
	notice *input.FollowEvent
	err    error // the input ended with this error
	end    bool  // the input ended (err says how, nil: its end)
}

// feed carries the items of one input from its goroutine to the loop: the
// goroutine appends, the loop takes all there are at once, so that a
// backlog of a million lines costs a lock per batch, not a channel send
// per line.
type feed struct {
	name  string
	mu    sync.Mutex
	items []liveItem
	ready chan struct{}  // a token: items were added (shared by all feeds)
	room  chan struct{}  // a token: the loop took the items
	done  chan struct{}  // closed when the goroutine returns
	stats logparse.Stats // the reader's, once the goroutine returned
	seen  logparse.Stats // what the loop took of this input
	ended bool
}

// maxFeed is how many items an input's goroutine gets ahead of the loop.
const maxFeed = 4096

func (f *feed) push(ctx context.Context, it liveItem) {
	f.mu.Lock()
	f.items = append(f.items, it)
	n := len(f.items)
	f.mu.Unlock()
	select {
	case f.ready <- struct{}{}:
	default:
	}
	if n >= maxFeed {
		select {
		case <-f.room:
		case <-ctx.Done():
		}
	}
}

func (f *feed) take(buf []liveItem) []liveItem {
	f.mu.Lock()
	buf, f.items = f.items, buf[:0]
	f.mu.Unlock()
	select {
	case f.room <- struct{}{}:
	default:
	}
	return buf
}

// Run reads names until each has ended (a followed file ends only when
// ctx is done) and returns what was read from each, in the order of
// names, with the error each ended with, if any.
func (l *Live) Run(ctx context.Context, files *input.Files, names []string) ([]logparse.Stats, []error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	feeds := make([]*feed, len(names))
	errs := make([]error, len(names))
	// The inputs' backlogs are read one after the other, as a batch run
	// reads files, so that their records reach the detector in about the
	// order of time; then all of them are followed at once.
	turn := make(chan struct{})
	close(turn)
	// One token for all inputs: the loop wakes for any and looks at all.
	ready := make(chan struct{}, 1)
	for i, name := range names {
		f := &feed{name: name, ready: ready, room: make(chan struct{}, 1), done: make(chan struct{})}
		feeds[i] = f
		next := make(chan struct{})
		go l.read(ctx, files, f, turn, next)
		turn = next
	}

	ticker := time.NewTicker(l.Interval)
	defer ticker.Stop()
	quiet := time.NewTicker(time.Second)
	defer quiet.Stop()
	l.lastAt = time.Now()
	var buf []liveItem
	open := len(feeds)
	for open > 0 {
		select {
		case <-ctx.Done():
		case <-ticker.C:
			l.Det.Advance(0)
			if l.Out != nil {
				live := l.Det.Live()
				live.TopRobots = l.Det.TopRobots(report.TopLiveRobots)
				l.Out.Summary(live, l.stats)
			}
		case <-quiet.C:
			if q := time.Since(l.lastAt); q >= time.Second {
				// Nothing came for a while: the log's clock runs on, so
				// an incident that stopped closes without a later line.
				l.Det.Advance(q)
			}
		case <-ready:
		}
		for i, f := range feeds {
			if f.ended {
				continue
			}
			buf = f.take(buf)
			for _, it := range buf {
				if l.item(f, it) {
					f.ended = true
					open--
					errs[i] = it.err
				}
			}
		}
		if f, ok := l.Out.(interface{ Flush() error }); ok {
			// All that was written is handled: out with its events now,
			// not at the writer's next timed flush.
			f.Flush()
		}
		if ctx.Err() != nil {
			break
		}
	}
	cancel()
	stats := make([]logparse.Stats, len(feeds))
	for i, f := range feeds {
		select {
		case <-f.done:
			stats[i] = f.stats
		case <-time.After(2 * time.Second):
			// A read that ignores the cancel (a FIFO that no writer
			// opened blocks in the open itself): count what the loop saw
			// of this input, not of all of them, which the others count.
			stats[i] = f.seen
		}
		// What the input gave after the loop stopped is counted in its
		// stats: it is judged too, or the report's records would not be
		// its clients' requests.
		buf = f.take(buf)
		for _, it := range buf {
			if !f.ended && l.item(f, it) {
				f.ended = true
				errs[i] = it.err
			}
		}
	}
	return stats, errs
}

// item hands one item to the detector and reports whether its input ended.
func (l *Live) item(f *feed, it liveItem) bool {
	switch {
	case it.rec != nil:
		l.stats.AddRecord(it.rec)
		f.seen.AddRecord(it.rec)
		l.lastAt = time.Now()
		l.Proxies.Resolve(it.rec)
		if l.Clip.Keep(it.rec) {
			l.Det.Add(it.rec)
		}
	case it.perr != nil:
		l.stats.AddMalformed(it.perr)
		f.seen.AddMalformed(it.perr)
		if l.Out != nil {
			l.Out.Malformed(l.Det.Clock(), it.perr)
		}
	case it.notice != nil:
		n := it.notice
		if n.Kind == input.FollowError {
			Warnf(l.Stderr, "robowatch: %s: %v (still following)\n", n.Name, n.Err)
			if l.Out != nil {
				l.Out.Error(l.Det.Clock(), "follow", n.Name, n.Err.Error())
			}
			break
		}
		if n.Kind == input.FollowRemoved {
			Warnf(l.Stderr, "robowatch: %s: removed; waiting for it to come back\n", n.Name)
		}
		if l.Out != nil {
			l.Out.File(l.Det.Clock(), n.Kind, n.Name)
		}
	case it.end:
		if it.err != nil && l.Out != nil {
			l.Out.Error(l.Det.Clock(), "read", f.name, it.err.Error())
		}
		return true
	}
	return false
}

// read is one input's goroutine: it opens name (following it with
// l.Follow), waits for its turn to read, parses its lines and feeds them
// to the loop until the input ends or ctx is done. It lets the next input
// start once it has read what was there (its first wait, a followed file's
// end or a pipe's silence), or ended.
func (l *Live) read(ctx context.Context, files *input.Files, f *feed, turn <-chan struct{}, next chan struct{}) {
	defer close(f.done)
	var once sync.Once
	pass := func() { once.Do(func() { close(next) }) }
	defer pass()
	select {
	case <-turn:
	case <-ctx.Done():
		f.push(ctx, liveItem{end: true})
		return
	}
	var r io.ReadCloser
	var err error
	if l.Follow && f.name != input.Stdin && !special(f.name) { // as Followed chose
		r, err = input.Follow(ctx, f.name, input.FollowOptions{
			Poll:    l.Poll,
			Waiting: pass,
			Notice:  func(ev input.FollowEvent) { f.push(ctx, liveItem{notice: &ev}) },
		})
	} else {
		// A pipe that has nothing to say yet lets the next input be read:
		// its silence may last the whole run.
		r, err = files.OpenLive(ctx, f.name, pass)
	}
	if err != nil && ctx.Err() != nil {
		f.push(ctx, liveItem{end: true}) // interrupted while waiting for the first bytes: no read error
		return
	} else if err != nil {
		f.push(ctx, liveItem{end: true, err: err})
		return
	}
	defer r.Close()
	rd := logparse.NewReader(r, f.name, l.Format)
	rd.Live = true
	defer func() { f.stats = rd.Stats() }()
	for {
		rec := new(logparse.Record)
		var pe *logparse.ParseError
		switch err := rd.Read(rec); {
		case err == nil:
			f.push(ctx, liveItem{rec: rec})
		case err == io.EOF || ctx.Err() != nil:
			f.push(ctx, liveItem{end: true})
			return
		case errors.As(err, &pe):
			if l.Strict {
				f.push(ctx, liveItem{end: true, err: fmt.Errorf("--strict: %w", err)})
				return
			}
			f.push(ctx, liveItem{perr: pe})
		default:
			f.push(ctx, liveItem{end: true, err: err})
			return
		}
	}
}

// Split divides a run's inputs into those read at full speed to their end
// (batch) and those read as their lines come (live): with -F the files
// Followed picks and any pipe; when findings stream (-o jsonl), pipes and
// standard input, whose lines may come slowly. Batch inputs come first.
func Split(names []string, follow, streaming bool) (batch, live []string) {
	if !follow && !streaming {
		return names, nil
	}
	once, followed := names, []string(nil)
	if follow {
		once, followed = Followed(names, input.Compressed)
	}
	for _, n := range once {
		if input.Regular(n) {
			batch = append(batch, n)
		} else {
			live = append(live, n)
		}
	}
	return batch, append(live, followed...)
}

// Followed picks, of the files a -F run names, those to follow: not
// standard input or another file that is there but is no regular file (a
// FIFO, a shell's <(…), a device, a directory: read to its end), not a
// compressed file, not a rotated sibling of another named file
// (access.log.1 beside access.log: it no longer grows, and following it
// would read access.log again when logrotate renames it to access.log.1).
// The others are read once, first.
func Followed(names []string, compressed func(string) bool) (once, follow []string) {
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
