package logparse

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// TimeBound is one end of a time window given on the command line
// (--since, --until): an absolute time, a date, or a duration back from the
// log's last record. The zero value is unset: no bound.
type TimeBound struct {
	at   time.Time     // an absolute time, when set
	date string        // a "2006-01-02" date, placed in the log's own zone
	back time.Duration // a duration back from the last record
	set  bool
}

// ParseTimeBound reads an RFC 3339 time ("2024-03-10T14:00:00+01:00"), a
// date ("2024-03-10", midnight in the log's zone), a date and time without
// a zone ("2024-03-10 14:00", in the log's zone) or a duration back from the
// log's last record ("90m", "2h", "1d12h"; "d" is 24 hours).
func ParseTimeBound(s string) (TimeBound, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return TimeBound{}, errors.New("empty time")
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return TimeBound{at: t, set: true}, nil
	}
	for _, layout := range []string{"2006-01-02", "2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02T15:04:05"} {
		if _, err := time.Parse(layout, s); err == nil {
			return TimeBound{date: s, set: true}, nil
		}
	}
	if d, err := parseDays(s); err == nil {
		if d < 0 {
			return TimeBound{}, fmt.Errorf("%q: a duration back from the last record must not be negative", s)
		}
		return TimeBound{back: d, set: true}, nil
	}
	return TimeBound{}, fmt.Errorf("%q is not an RFC 3339 time, a 2006-01-02 date or a duration such as 2h", s)
}

// parseDays is time.ParseDuration with a "d" unit of 24 hours in front.
func parseDays(s string) (time.Duration, error) {
	var days time.Duration
	if i := strings.IndexByte(s, 'd'); i > 0 {
		n, err := strconv.Atoi(s[:i])
		if err != nil || n < 0 || n > 100000 {
			return 0, errors.New("bad day count")
		}
		days = time.Duration(n) * 24 * time.Hour
		s = s[i+1:]
		if s == "" {
			return days, nil
		}
	}
	d, err := time.ParseDuration(s)
	return days + d, err
}

// IsSet reports whether the bound was given.
func (b TimeBound) IsSet() bool { return b.set }

// Relative reports whether the bound is a duration back from the log's
// last record, which must then be known before the records are judged.
func (b TimeBound) Relative() bool { return b.set && b.at.IsZero() && b.date == "" }

// Resolve turns the bound into a time: durations count back from last,
// dates and zoneless times are placed in last's zone (the log's own).
func (b TimeBound) Resolve(last time.Time) time.Time {
	switch {
	case !b.at.IsZero():
		return b.at
	case b.date != "":
		loc := last.Location()
		for _, layout := range []string{"2006-01-02", "2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02T15:04:05"} {
			if t, err := time.ParseInLocation(layout, b.date, loc); err == nil {
				return t
			}
		}
	}
	return last.Add(-b.back)
}

// NotBefore reports whether b is known not to come before o whatever the
// log, so that a window from b to o would be empty: both absolute times,
// both dates or zoneless times (placed in the same zone), or both durations
// back from the same end. Mixed kinds depend on the log and give false.
func (b TimeBound) NotBefore(o TimeBound) bool {
	switch {
	case !b.set || !o.set:
		return false
	case !b.at.IsZero() && !o.at.IsZero():
		return !b.at.Before(o.at)
	case b.date != "" && o.date != "":
		return !b.Resolve(time.Time{}).Before(o.Resolve(time.Time{}))
	case b.Relative() && o.Relative():
		return b.back <= o.back
	}
	return false
}

// Window is a time range of records, Since inclusive, Until exclusive; a
// zero end is open.
type Window struct {
	Since, Until time.Time
}

// Contains reports whether t is in the window. A record without a time (the
// format has none) is always in it: there is nothing to cut it by.
func (w Window) Contains(t time.Time) bool {
	if t.IsZero() {
		return true
	}
	return (w.Since.IsZero() || !t.Before(w.Since)) && (w.Until.IsZero() || t.Before(w.Until))
}

// String describes the window for a report, in the zone of its times.
func (w Window) String() string {
	const layout = "2006-01-02 15:04:05 -0700"
	switch {
	case w.Since.IsZero() && w.Until.IsZero():
		return ""
	case w.Until.IsZero():
		return "from " + w.Since.Format(layout)
	case w.Since.IsZero():
		return "before " + w.Until.Format(layout)
	}
	return w.Since.Format(layout) + " to " + w.Until.Format(layout)
}

// Clip keeps the records of a --since/--until window. A duration back from
// the log's end is resolved by Resolve when the end is known. A date or a
// zoneless time is the wall clock a person reads in the log: each record
// is compared in its own offset, so that a window across a change to or
// from summer time is what the server's clock said, not an hour off; in
// the hour repeated when summer time ends, such a time is its first
// occurrence, and once a record reached it, later ones do not fall back
// before it. Window says where the bounds fell (a wall time in the offset
// of the first record that reached it, else of the first record). The zero
// value keeps every record.
type Clip struct {
	Since, Until TimeBound // as given
	Window       Window    // the bounds as resolved
	Outside      int64     // records left out

	resolved             bool
	open                 bool      // resolved to no bounds at all: every record is in (most runs)
	sinceWall, untilWall time.Time // wall-time bounds, read as UTC; zero: none
	sinceAt, untilAt     time.Time // the earliest record found at or past each
}

// Resolve places the bounds against last, the time of the log's last
// record, as relative bounds need before the first record is kept.
func (c *Clip) Resolve(last time.Time) {
	c.Window = Window{Since: resolveBound(c.Since, last), Until: resolveBound(c.Until, last)}
	c.sinceWall, c.untilWall = c.Since.wall(), c.Until.wall()
	c.resolved = true
	c.open = c.Window == (Window{}) && c.sinceWall.IsZero() && c.untilWall.IsZero()
}

// Keep reports whether rec is inside the window, and counts it when not.
func (c *Clip) Keep(rec *Record) bool {
	if c.In(rec) {
		return true
	}
	c.Outside++
	return false
}

// Open reports whether the window is resolved to keep every record, as
// most runs': Keep and In need not be asked.
func (c *Clip) Open() bool { return c.open }

// In reports whether rec is inside the window, without counting it: a
// record another shard counts (--shard).
func (c *Clip) In(rec *Record) bool {
	if c.open {
		return true // every record's question: asked of an open window, it costs a word
	}
	t := rec.Time
	if t.IsZero() {
		return true // nothing to cut it by
	}
	if !c.resolved {
		c.Resolve(t)
	}
	return c.afterSince(t) && c.beforeUntil(t)
}

func (c *Clip) afterSince(t time.Time) bool {
	if c.sinceWall.IsZero() {
		return c.Window.Since.IsZero() || !t.Before(c.Window.Since)
	}
	if !wallClock(t).Before(c.sinceWall) {
		if c.sinceAt.IsZero() || t.Before(c.sinceAt) {
			c.sinceAt, c.Window.Since = t, c.Since.Resolve(t)
		}
		return true
	}
	return !c.sinceAt.IsZero() && !t.Before(c.sinceAt) // the clock set back after the start
}

func (c *Clip) beforeUntil(t time.Time) bool {
	if c.untilWall.IsZero() {
		return c.Window.Until.IsZero() || t.Before(c.Window.Until)
	}
	if !wallClock(t).Before(c.untilWall) {
		if c.untilAt.IsZero() || t.Before(c.untilAt) {
			c.untilAt, c.Window.Until = t, c.Until.Resolve(t)
		}
		return false
	}
	return c.untilAt.IsZero() || t.Before(c.untilAt) // the clock set back after the end
}

// wallClock is t's clock reading in its own offset, as a UTC time.
func wallClock(t time.Time) time.Time {
	_, off := t.Zone()
	return t.UTC().Add(time.Duration(off) * time.Second)
}

// wall is a date or zoneless time bound as a wall-clock reading, as a UTC
// time; zero for the other kinds.
func (b TimeBound) wall() time.Time {
	if !b.set || b.date == "" {
		return time.Time{}
	}
	return b.Resolve(time.Time{})
}

func resolveBound(b TimeBound, last time.Time) time.Time {
	if !b.IsSet() {
		return time.Time{}
	}
	return b.Resolve(last)
}

// String is the bound as an option value that means the same, for a report
// to say what it was made with: an RFC 3339 time, the date as given, or the
// duration back from the last record (time.Duration's form, so 1d and 24h
// are one); "" when unset.
func (b TimeBound) String() string {
	switch {
	case !b.set:
		return ""
	case !b.at.IsZero():
		return b.at.Format(time.RFC3339Nano)
	case b.date != "":
		return b.date
	}
	return b.back.String()
}
