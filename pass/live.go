package pass

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/robowatch/robowatch/input"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/report"
)

// live reads inputs as their lines come: followed files (-F), or pipes
// whose events must stream (-o jsonl). One goroutine per input reads and
// parses; the detector, which wants one goroutine, gets the records in
// the loop.
type live struct {
	*pass
	ready  chan struct{}  // a token: some input's goroutine added items
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
	err   error // what the input ended with
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

// follow reads names until each has ended (a followed file ends only when
// ctx is done) and returns what was read from each, in the order of
// names, with the error each ended with, if any.
func (p *pass) follow(ctx context.Context, files *input.Files, names []string) ([]logparse.Stats, []error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	l := &live{pass: p}
	feeds := l.start(ctx, files, names)
	l.loop(ctx, feeds)
	cancel()
	return l.drain(feeds)
}

// start starts the inputs' goroutines. The inputs' backlogs are read one
// after the other, as a batch run reads files, so that their records reach
// the detector in about the order of time; then all of them are followed
// at once.
func (l *live) start(ctx context.Context, files *input.Files, names []string) []*feed {
	feeds := make([]*feed, len(names))
	turn := make(chan struct{})
	close(turn)
	// One token for all inputs: the loop wakes for any and looks at all.
	l.ready = make(chan struct{}, 1)
	for i, name := range names {
		f := &feed{name: name, ready: l.ready, room: make(chan struct{}, 1), done: make(chan struct{})}
		feeds[i] = f
		next := make(chan struct{})
		go l.feedInput(ctx, files, f, turn, next)
		turn = next
	}
	return feeds
}

// loop hands the inputs' items to the detector until every input ended or
// ctx is done, with a running summary every Interval.
func (l *live) loop(ctx context.Context, feeds []*feed) {
	ticker := time.NewTicker(l.opt.Interval)
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
			l.summary()
		case <-quiet.C:
			if q := time.Since(l.lastAt); q >= time.Second {
				// Nothing came for a while: the log's clock runs on, so
				// an incident that stopped closes without a later line.
				l.det.Advance(q)
			}
		case <-l.ready:
		}
		for _, f := range feeds {
			if f.ended {
				continue
			}
			buf = f.take(buf)
			for _, it := range buf {
				if l.item(f, it) {
					f.ended, f.err = true, it.err
					open--
				}
			}
		}
		if f, ok := l.opt.Out.(interface{ Flush() error }); ok {
			// All that was written is handled: out with its events now,
			// not at the writer's next timed flush.
			f.Flush()
		}
		if ctx.Err() != nil {
			break
		}
	}
}

// summary tells the live output where the run stands.
func (l *live) summary() {
	l.det.Advance(0)
	if l.opt.Out != nil {
		live := l.det.Live()
		live.TopRobots = l.det.TopRobots(report.TopLiveRobots)
		l.opt.Out.Summary(live, l.stats)
	}
}

// drain waits for the inputs' goroutines once the loop stopped and
// returns what was read from each input and the error it ended with.
func (l *live) drain(feeds []*feed) ([]logparse.Stats, []error) {
	stats := make([]logparse.Stats, len(feeds))
	errs := make([]error, len(feeds))
	var buf []liveItem
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
				f.ended, f.err = true, it.err
			}
		}
		errs[i] = f.err
	}
	return stats, errs
}

// item hands one item to the detector and reports whether its input ended.
func (l *live) item(f *feed, it liveItem) bool {
	out := l.opt.Out
	switch {
	case it.rec != nil:
		l.stats.AddRecord(it.rec)
		f.seen.AddRecord(it.rec)
		l.lastAt = time.Now()
		if _, in := l.admit(it.rec); in { // no shard: a live run is whole
			l.det.Add(it.rec)
		}
	case it.perr != nil:
		l.stats.AddMalformed(it.perr)
		f.seen.AddMalformed(it.perr)
		if out != nil {
			out.Malformed(l.det.Clock(), it.perr)
		}
	case it.notice != nil:
		l.notice(it.notice)
	case it.end:
		if it.err != nil && out != nil {
			out.Error(l.det.Clock(), "read", f.name, it.err.Error())
		}
		return true
	}
	return false
}

// notice passes on what happened to a followed file.
func (l *live) notice(n *input.FollowEvent) {
	out := l.opt.Out
	if n.Kind == input.FollowError || n.Kind == input.FollowRemoved {
		l.opt.Notes.Following(*n)
	}
	switch {
	case out == nil:
	case n.Kind == input.FollowError:
		out.Error(l.det.Clock(), "follow", n.Name, n.Err.Error())
	default:
		out.File(l.det.Clock(), n.Kind, n.Name)
	}
}

// feedInput is one input's goroutine: it opens name (following it with
// Follow), waits for its turn to read, parses its lines and feeds them to
// the loop until the input ends or ctx is done. It lets the next input
// start once it has read what was there (its first wait, a followed file's
// end or a pipe's silence), or ended.
func (l *live) feedInput(ctx context.Context, files *input.Files, f *feed, turn <-chan struct{}, next chan struct{}) {
	defer close(f.done)
	var once sync.Once
	letNext := func() { once.Do(func() { close(next) }) }
	defer letNext()
	select {
	case <-turn:
	case <-ctx.Done():
		f.push(ctx, liveItem{end: true})
		return
	}
	r, err := l.open(ctx, files, f, letNext)
	if err != nil && ctx.Err() != nil {
		f.push(ctx, liveItem{end: true}) // interrupted while waiting for the first bytes: no read error
		return
	} else if err != nil {
		f.push(ctx, liveItem{end: true, err: err})
		return
	}
	defer r.Close()
	rd := logparse.NewReader(r, f.name, l.opt.Format)
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
			if l.opt.Strict {
				f.push(ctx, liveItem{end: true, err: strict(err)})
				return
			}
			f.push(ctx, liveItem{perr: pe})
		default:
			f.push(ctx, liveItem{end: true, err: err})
			return
		}
	}
}

// open opens f's input: following it, as followed chose, or as a pipe.
// waiting is called when the input has nothing to give yet.
func (l *live) open(ctx context.Context, files *input.Files, f *feed, waiting func()) (io.ReadCloser, error) {
	if l.opt.Follow && f.name != input.Stdin && !special(f.name) { // as followed chose
		return input.Follow(ctx, f.name, input.FollowOptions{
			Waiting: waiting,
			Notice:  func(ev input.FollowEvent) { f.push(ctx, liveItem{notice: &ev}) },
		})
	}
	// A pipe that has nothing to say yet lets the next input be read:
	// its silence may last the whole run.
	return files.OpenLive(ctx, f.name, waiting)
}
