package agents

import (
	"strconv"
	"strings"
	"sync"
	"time"
)

// An ancient browser: a person's browser updates itself, so a browser
// version superseded years before the log was written is either a
// forgotten machine or, far more often, a script that copied a User-agent
// once and never again (the basjes and elastic logs are full of them). It
// is judged against the log's own date, and from the day the next version
// came out, not the version's own: Internet Explorer 7 (2006) was the
// browser of most Windows XP machines until Internet Explorer 8 (March
// 2009), and a visitor of a 2009 log who uses it is of their time. It is a
// weak signal, never enough alone to make a robot (see detect's verdict
// rule), so an old browser that loads pages and their assets is still a
// person.

// ancientAge is how long before the log a browser version must have been
// superseded.
const ancientAge = 3 * 365 * 24 * time.Hour

// release is the first stable release of a browser's major version.
type release struct {
	major int
	date  string // YYYY-MM-DD
}

// Release dates of Chrome and Firefox major versions, from the vendors'
// release notes (chromereleases.googleblog.com, mozilla.org/firefox/releases);
// versions between two rows are interpolated, versions past the last row
// extrapolated at four weeks each (the cadence of both since 2021).
var (
	chromeReleases = []release{
		{1, "2008-12-11"}, {10, "2011-03-08"}, {20, "2012-06-26"}, {30, "2013-10-01"}, {40, "2015-01-21"},
		{50, "2016-04-13"}, {60, "2017-07-25"}, {70, "2018-10-16"}, {80, "2020-02-04"}, {90, "2021-04-14"},
		{100, "2022-03-29"}, {110, "2023-02-07"}, {120, "2023-12-05"}, {130, "2024-10-15"},
	}
	firefoxReleases = []release{
		{1, "2004-11-09"}, {2, "2006-10-24"}, {3, "2008-06-17"}, {4, "2011-03-22"}, {10, "2012-01-31"},
		{20, "2013-04-02"}, {30, "2014-06-10"}, {40, "2015-08-11"}, {50, "2016-11-15"}, {60, "2018-05-09"},
		{70, "2019-10-22"}, {80, "2020-06-30"}, {90, "2021-04-19"}, {100, "2022-05-03"}, {110, "2023-02-14"},
		{120, "2023-11-21"}, {130, "2024-09-03"},
	}
	// Internet Explorer ended at 11 (Trident/7.0); the row for 12 is Edge's
	// first release (Windows 10), which superseded it. No browser says
	// "MSIE 12" (classify calls that string implausible).
	msieReleases = []release{
		{4, "1997-10-01"}, {5, "1999-03-18"}, {6, "2001-08-27"}, {7, "2006-10-18"}, {8, "2009-03-19"},
		{9, "2011-03-14"}, {10, "2012-10-26"}, {11, "2013-10-17"}, {12, "2015-07-29"},
	}
)

// browserRelease returns the browser and major version a User-agent names
// and when the next version came out (superseding it); ok is false for
// anything else.
func browserRelease(ua string) (name string, superseded time.Time, ok bool) {
	return browserReleaseLower(strings.ToLower(ua))
}

// browserReleaseLower is browserRelease of a lower-cased User-agent.
func browserReleaseLower(lower string) (name string, superseded time.Time, ok bool) {
	var table []release
	var v int
	switch {
	case strings.Contains(lower, "trident/7.0"):
		name, table, v, ok = "Internet Explorer", msieReleases, 11, true
	case strings.Contains(lower, "msie "):
		v, ok = versionAfter(lower, "msie ")
		name, table = "Internet Explorer", msieReleases
	case strings.Contains(lower, "firefox/"):
		v, ok = versionAfter(lower, "firefox/")
		name, table = "Firefox", firefoxReleases
	case strings.Contains(lower, "chrome/"):
		v, ok = versionAfter(lower, "chrome/")
		name, table = "Chrome", chromeReleases
	}
	if !ok || v < table[0].major {
		return "", time.Time{}, false
	}
	if r := releaseRows()[name]; v-table[0].major < len(r) {
		row := r[v-table[0].major]
		return row.name, row.date, true
	}
	return name + " " + strconv.Itoa(v), releaseDate(table, v+1), true
}

// releaseRow is browserReleaseLower's answer for one major version: its
// name and when the next one came out.
type releaseRow struct {
	name string
	date time.Time
}

// releaseRows are the answers for the versions of each table and a few
// years past its last row, made once: a high-churn log (a botnet, a
// rotating scraper) classes hundreds of thousands of distinct strings of a
// few dozen releases, and each answer made afresh was a new string and
// three dates parsed.
var releaseRows = sync.OnceValue(func() map[string][]releaseRow {
	rows := map[string][]releaseRow{}
	for name, table := range map[string][]release{"Chrome": chromeReleases, "Firefox": firefoxReleases, "Internet Explorer": msieReleases} {
		first, last := table[0].major, table[len(table)-1].major+releaseRowsAhead
		for v := first; v <= last; v++ {
			rows[name] = append(rows[name], releaseRow{name + " " + strconv.Itoa(v), releaseDate(table, v+1)})
		}
	}
	return rows
})

// releaseRowsAhead is how many versions past a table's last row
// releaseRows answers from memory (about five years at four weeks each).
const releaseRowsAhead = 64

func releaseDate(table []release, v int) time.Time {
	day := func(r release) time.Time {
		t, _ := time.Parse(time.DateOnly, r.date)
		return t
	}
	last := table[len(table)-1]
	if v >= last.major {
		return day(last).Add(time.Duration(v-last.major) * 28 * 24 * time.Hour)
	}
	for i := 1; i < len(table); i++ {
		if v < table[i].major {
			a, b := table[i-1], table[i]
			span := day(b).Sub(day(a))
			return day(a).Add(span / time.Duration(b.major-a.major) * time.Duration(v-a.major))
		}
	}
	return day(last)
}

// Ancient returns why the browser version ua names was ancient at time at
// (when the log was written), or "" when it was not or at is zero.
func Ancient(ua string, at time.Time) string {
	if at.IsZero() {
		return ""
	}
	name, superseded, ok := browserRelease(ua)
	if !ok {
		return ""
	}
	return ancient(name, superseded, at)
}

func ancient(name string, superseded, at time.Time) string {
	if at.IsZero() || at.Sub(superseded) < ancientAge {
		return ""
	}
	years := int(at.Sub(superseded).Hours() / 24 / 365)
	return name + " was superseded in " + superseded.Format("2006") + ", " + strconv.Itoa(years) + " years before this log"
}
