package cli

import (
	"time"

	"github.com/spf13/pflag"
)

// liveFlags say how a run follows its logs (-F) and reports as it goes.
type liveFlags struct {
	follow   bool
	interval time.Duration
	expire   time.Duration
}

func (f *liveFlags) flags(fs *pflag.FlagSet) {
	fs.BoolVarP(&f.follow, "follow", "F", false, "follow the files as they grow, through rotation and truncation (as tail -F), until Ctrl-C or SIGTERM; then the report")
	fs.DurationVar(&f.interval, "interval", 0, "a live run's summary events (-o jsonl, default 10s) or live view redraw (-F on a terminal, default 2s)")
	fs.DurationVar(&f.expire, "expire", 24*time.Hour, "with -F: a client idle this long (log time) is folded into \"other\", so a run of weeks stays small (0: never)")
}

func (f *liveFlags) apply(a *Analyse, fs *pflag.FlagSet) error {
	for _, d := range []struct {
		flag  string
		value time.Duration
	}{{"interval", f.interval}, {"expire", f.expire}} {
		if d.value < 0 {
			return usagef("--%s %s: want a duration of 0 or more, e.g. 10s, 24h", d.flag, d.value)
		}
	}
	if fs.Changed("expire") && !f.follow {
		return usagef("--expire is for -F (a batch run reads a log once: nothing to expire)")
	}
	a.Follow = f.follow
	return nil
}
