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
// once and never again. It is judged against the log's own date, and from
// the day the next version came out, not the version's own: Internet
// Explorer 7 (2006) was the browser of most Windows XP machines until
// Internet Explorer 8 (March 2009), and a visitor of a 2009 log who uses
// it is of their time. It is a weak signal, never enough alone to make a
// robot (see detect's verdict rule), so an old browser that loads pages
// and their assets is still a person.

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
	// Apple's Safari, by its Version/ token, from Apple's release notes:
	// one major version a year, each September since 10 (on macOS and iOS
	// alike); after 18 Apple numbered the 2025 release 26, after the year,
	// so 19 to 25 never existed and are interpolated harmlessly.
	safariReleases = []release{
		{3, "2007-10-26"}, {4, "2009-06-08"}, {5, "2010-06-07"}, {6, "2012-07-25"}, {7, "2013-10-22"},
		{8, "2014-10-16"}, {9, "2015-09-30"}, {10, "2016-09-20"}, {11, "2017-09-19"}, {12, "2018-09-17"},
		{13, "2019-09-19"}, {14, "2020-09-16"}, {15, "2021-09-20"}, {16, "2022-09-12"}, {17, "2023-09-18"},
		{18, "2024-09-16"}, {26, "2025-09-15"},
	}
)

// safariPlatforms are the comments Safari's string begins with.
var safariPlatforms = [...]string{"(macintosh", "(iphone", "(ipad", "(ipod"}

// safari reports whether lower is Apple's Safari on a Mac, an iPhone, an
// iPad or an iPod by its own form, "Version/v … Safari/": Android's old
// stock browser writes Version/4.0 whatever its age, and Opera 10 to 12
// wrote Version/ too; browsers built on Safari add their own token
// (CriOS, FxiOS, Chrome) and carry no Version/.
func safari(t *uaText) bool {
	if !t.contains("version/") || !t.contains("safari/") ||
		t.contains("android") || t.contains("opera") || t.contains("chrome/") {
		return false
	}
	for _, p := range safariPlatforms {
		if t.contains(p) {
			return true
		}
	}
	return false
}

// browserRelease returns the browser and major version a User-agent names
// and when the next version came out (superseding it); ok is false for
// anything else.
func browserRelease(ua string) (name string, superseded time.Time, ok bool) {
	return browserReleaseText(textOf(strings.ToLower(ua)))
}

// browserReleaseText is browserRelease of a User-agent's text.
func browserReleaseText(t *uaText) (name string, superseded time.Time, ok bool) {
	var table []release
	var v int
	switch {
	case t.contains("trident/7.0"):
		name, table, v, ok = "Internet Explorer", msieReleases, 11, true
	case t.contains("msie "):
		v, ok = t.versionAfter("msie ")
		name, table = "Internet Explorer", msieReleases
	case t.contains("firefox/"):
		v, ok = t.versionAfter("firefox/")
		name, table = "Firefox", firefoxReleases
	case t.contains("chrome/"):
		v, ok = t.versionAfter("chrome/")
		name, table = "Chrome", chromeReleases
	case safari(t):
		v, ok = t.versionAfter("version/")
		name, table = "Safari", safariReleases
	}
	if !ok || v < table[0].major {
		return "", time.Time{}, false
	}
	if r := releaseRows()[name]; v-table[0].major < len(r) {
		row := r[v-table[0].major]
		return row.name, row.date, true
	}
	return name + " " + strconv.Itoa(v), releaseDate(table, v+1, releaseStep(name)), true
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
// few dozen releases, and each answer made afresh would be a new string
// and three dates parsed.
var releaseRows = sync.OnceValue(func() map[string][]releaseRow {
	rows := map[string][]releaseRow{}
	for name, table := range map[string][]release{"Chrome": chromeReleases, "Firefox": firefoxReleases, "Internet Explorer": msieReleases, "Safari": safariReleases} {
		first, last := table[0].major, table[len(table)-1].major+releaseRowsAhead
		for v := first; v <= last; v++ {
			rows[name] = append(rows[name], releaseRow{name + " " + strconv.Itoa(v), releaseDate(table, v+1, releaseStep(name))})
		}
	}
	return rows
})

// releaseRowsAhead is how many versions past a table's last row
// releaseRows answers from memory (about five years at four weeks each).
const releaseRowsAhead = 64

// releaseStep is how often the browser named ships a major version, for
// the versions past its table's last row: every four weeks, but Safari
// once a year.
func releaseStep(name string) time.Duration {
	if name == "Safari" {
		return 365 * 24 * time.Hour
	}
	return 28 * 24 * time.Hour
}

// releaseDate is when version v of table came out: interpolated between
// its rows, and past the last one a version each step.
func releaseDate(table []release, v int, step time.Duration) time.Time {
	day := func(r release) time.Time {
		t, _ := time.Parse(time.DateOnly, r.date)
		return t
	}
	last := table[len(table)-1]
	if v >= last.major {
		return day(last).Add(time.Duration(v-last.major) * step)
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
