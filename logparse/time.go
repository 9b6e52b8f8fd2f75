package logparse

import (
	"encoding/binary"
	"math"
	"sync/atomic"
	"time"
)

// Times are parsed by hand: time.Parse costs more than the rest of a line's
// parse, and access-log timestamps have one fixed layout each.

// zones caches one *time.Location per UTC offset in minutes (-23:59..+23:59),
// so that a million lines in -0700 share one Location and the parse stays a
// pure function safe for concurrent use (a racing store writes an equal value).
var zones [2*1440 + 1]atomic.Pointer[time.Location]

// zone returns the fixed zone east of UTC by offMin minutes, named like +0530.
func zone(offMin int) *time.Location {
	if offMin == 0 {
		return time.UTC
	}
	slot := &zones[offMin+1440]
	if loc := slot.Load(); loc != nil {
		return loc
	}
	sign, m := byte('+'), offMin
	if m < 0 {
		sign, m = '-', -m
	}
	name := string([]byte{sign, byte('0' + m/600), byte('0' + m/60%10), byte('0' + m%60/10), byte('0' + m%10)})
	loc := time.FixedZone(name, offMin*60)
	slot.Store(loc)
	return loc
}

// digits2 parses two ASCII digits; ok is false otherwise.
func digits2(b []byte) (int, bool) {
	d0, d1 := b[0]-'0', b[1]-'0'
	if d0 > 9 || d1 > 9 {
		return 0, false
	}
	return int(d0)*10 + int(d1), true
}

func digits4(b []byte) (int, bool) {
	hi, ok1 := digits2(b)
	lo, ok2 := digits2(b[2:])
	return hi*100 + lo, ok1 && ok2
}

// monthOf maps "Jan".."Dec" (any case) to 1..12, 0 if none.
func monthOf(b []byte) int {
	k := uint32(b[0]|0x20)<<16 | uint32(b[1]|0x20)<<8 | uint32(b[2]|0x20)
	switch k {
	case 'j'<<16 | 'a'<<8 | 'n':
		return 1
	case 'f'<<16 | 'e'<<8 | 'b':
		return 2
	case 'm'<<16 | 'a'<<8 | 'r':
		return 3
	case 'a'<<16 | 'p'<<8 | 'r':
		return 4
	case 'm'<<16 | 'a'<<8 | 'y':
		return 5
	case 'j'<<16 | 'u'<<8 | 'n':
		return 6
	case 'j'<<16 | 'u'<<8 | 'l':
		return 7
	case 'a'<<16 | 'u'<<8 | 'g':
		return 8
	case 's'<<16 | 'e'<<8 | 'p':
		return 9
	case 'o'<<16 | 'c'<<8 | 't':
		return 10
	case 'n'<<16 | 'o'<<8 | 'v':
		return 11
	case 'd'<<16 | 'e'<<8 | 'c':
		return 12
	}
	return 0
}

func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysFromCivil returns the days from 1970-01-01 to y-m-d in the proleptic
// Gregorian calendar (Howard Hinnant's algorithm).
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}

// makeTime builds the instant from wall-clock fields in a zone offMin minutes
// east of UTC, after range checks; ok is false for an impossible date.
func makeTime(year, month, day, hour, min, sec, nsec, offMin int) (time.Time, bool) {
	if month < 1 || month > 12 || day < 1 || day > daysIn(month, year) ||
		hour > 23 || min > 59 || sec > 60 || offMin < -1439 || offMin > 1439 {
		return time.Time{}, false
	}
	unix := daysFromCivil(year, month, day)*86400 + int64(hour*3600+min*60+sec) - int64(offMin)*60
	return time.Unix(unix, int64(nsec)).In(zone(offMin)), true
}

// parseCLFTime parses Apache %t / nginx $time_local without the brackets:
// "10/Oct/2000:13:55:36 -0700".
func parseCLFTime(b []byte) (time.Time, bool) {
	var d clfDate
	return d.parse(b)
}

// clfDate is the date of the last CLF time a parser read, "10/Oct/2000"
// as two words, and its day since 1970: the next line's time is most
// often of the same day, and then reads as its clock and zone alone (the
// date was a third of a line's time on the million-line log). Its zero
// value holds no date.
type clfDate struct {
	lo   uint64 // bytes 0-7 of the date
	hi   uint32 // bytes 7-10
	days int64
	set  bool
}

// parse is parseCLFTime, with d's date if b's is the same, or else
// remembering b's.
func (d *clfDate) parse(b []byte) (time.Time, bool) {
	if len(b) != 26 || b[2] != '/' || b[6] != '/' || b[11] != ':' || b[14] != ':' || b[17] != ':' || b[20] != ' ' {
		return time.Time{}, false
	}
	lo, hi := binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint32(b[7:])
	if !d.set || lo != d.lo || hi != d.hi {
		day, ok1 := digits2(b[0:])
		month := monthOf(b[3:])
		year, ok2 := digits4(b[7:])
		if !ok1 || !ok2 || month == 0 || day < 1 || day > daysIn(month, year) {
			return time.Time{}, false
		}
		*d = clfDate{lo: lo, hi: hi, days: daysFromCivil(year, month, day), set: true}
	}
	hour, ok3 := digits2(b[12:])
	min, ok4 := digits2(b[15:])
	sec, ok5 := digits2(b[18:])
	// The zone as parseOffset reads it, which keeps it within a day.
	offH, ok6 := digits2(b[22:])
	offM, ok7 := digits2(b[24:])
	// The clock as makeTime checks it.
	if !(ok3 && ok4 && ok5 && ok6 && ok7) || hour > 23 || min > 59 || sec > 60 ||
		b[21] != '+' && b[21] != '-' || offH > 23 || offM > 59 {
		return time.Time{}, false
	}
	off := offH*60 + offM
	if b[21] == '-' {
		off = -off
	}
	unix := d.days*86400 + int64(hour*3600+min*60+sec) - int64(off)*60
	return time.Unix(unix, 0).In(zone(off)), true
}

// parseBracketTime reads the other times servers put where %t goes: CLF
// with a fraction of a second (Apache's
// "[%{%d/%b/%Y:%H:%M:%S}t.%{msec_frac}t %{%z}t]", mod_log_config's own
// example), ISO 8601 (nginx's "[$time_iso8601]"), CLF without a zone and a
// space before the time (Python's http.server, "[10/Mar/2024 08:00:00]",
// read as UTC) and RFC 1123 (Node morgan's "default",
// "[Sun, 10 Mar 2024 08:00:00 GMT]"). Only a value CLF's fast path refused
// comes here.
func parseBracketTime(b []byte) (time.Time, bool) {
	if len(b) == 20 && b[2] == '/' && b[6] == '/' && b[11] == ' ' {
		var whole [26]byte
		copy(whole[:], b)
		whole[11] = ':'
		copy(whole[20:], " +0000")
		return parseCLFTime(whole[:])
	}
	if len(b) >= 29 && b[3] == ',' {
		if t, err := time.Parse(time.RFC1123, string(b)); err == nil {
			return t, true
		}
	}
	if len(b) > 22 && b[2] == '/' && b[20] == '.' {
		i := 21
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		n := i - 21
		if n == 0 || n > 9 || i >= len(b) || b[i] != ' ' {
			return time.Time{}, false
		}
		var whole [26]byte
		copy(whole[:20], b[:20])
		copy(whole[20:], b[i:])
		if len(b)-i != 6 {
			return time.Time{}, false
		}
		t, ok := parseCLFTime(whole[:])
		if !ok {
			return time.Time{}, false
		}
		frac := 0
		for _, c := range b[21:i] {
			frac = frac*10 + int(c-'0')
		}
		for range 9 - n {
			frac *= 10
		}
		return t.Add(time.Duration(frac)), true
	}
	return parseISOTime(b)
}

// parseOffset parses "+hhmm" (or "+hh:mm" when colon) into minutes east of UTC.
func parseOffset(b []byte, colon bool) (int, bool) {
	n := 5
	if colon {
		n = 6
	}
	if len(b) != n || (b[0] != '+' && b[0] != '-') {
		return 0, false
	}
	hh, ok1 := digits2(b[1:])
	mmAt := 3
	if colon {
		if b[3] != ':' {
			return 0, false
		}
		mmAt = 4
	}
	mm, ok2 := digits2(b[mmAt:])
	if !ok1 || !ok2 || hh > 23 || mm > 59 { // zone's range
		return 0, false
	}
	off := hh*60 + mm
	if b[0] == '-' {
		off = -off
	}
	return off, true
}

// parseISOTime parses nginx $time_iso8601 ("2000-10-10T13:55:36+02:00"),
// also with a fraction of a second, a 'Z' or a +hhmm zone.
func parseISOTime(b []byte) (time.Time, bool) {
	if len(b) < 20 || b[4] != '-' || b[7] != '-' || (b[10] != 'T' && b[10] != 't' && b[10] != ' ') || b[13] != ':' || b[16] != ':' {
		return time.Time{}, false
	}
	year, ok1 := digits4(b)
	month, ok2 := digits2(b[5:])
	day, ok3 := digits2(b[8:])
	hour, ok4 := digits2(b[11:])
	min, ok5 := digits2(b[14:])
	sec, ok6 := digits2(b[17:])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) {
		return time.Time{}, false
	}
	rest := b[19:]
	nsec := 0
	if rest[0] == '.' || rest[0] == ',' {
		i, scale := 1, 100000000
		for ; i < len(rest) && rest[i] >= '0' && rest[i] <= '9'; i++ {
			nsec += int(rest[i]-'0') * scale
			scale /= 10
		}
		if i == 1 {
			return time.Time{}, false
		}
		rest = rest[i:]
	}
	var off int
	switch {
	case len(rest) == 1 && (rest[0] == 'Z' || rest[0] == 'z'):
	case len(rest) == 6:
		var ok bool
		if off, ok = parseOffset(rest, true); !ok {
			return time.Time{}, false
		}
	case len(rest) == 5:
		var ok bool
		if off, ok = parseOffset(rest, false); !ok {
			return time.Time{}, false
		}
	default:
		return time.Time{}, false
	}
	return makeTime(year, month, day, hour, min, sec, nsec, off)
}

// parseEpochTime parses seconds since 1970 with an optional fraction
// ("1700000000.123", nginx $msec), or an integer count of units per second
// (Apache %{msec}t, %{usec}t), as a time in UTC.
func parseEpochTime(b []byte, unit int) (time.Time, bool) {
	var whole int64
	i := 0
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		if i >= 19 {
			return time.Time{}, false
		}
		if whole > (math.MaxInt64-9)/10 {
			return time.Time{}, false
		}
		whole = whole*10 + int64(b[i]-'0')
	}
	if i == 0 {
		return time.Time{}, false
	}
	var nsec int64
	if i < len(b) {
		if b[i] != '.' || unit != unitSec {
			return time.Time{}, false
		}
		scale := int64(100000000)
		for i++; i < len(b); i++ {
			if b[i] < '0' || b[i] > '9' {
				return time.Time{}, false
			}
			nsec += int64(b[i]-'0') * scale
			scale /= 10
		}
	}
	sec := whole / int64(unit)
	nsec += whole % int64(unit) * (1e9 / int64(unit))
	return time.Unix(sec, nsec).UTC(), true
}
