package logparse

import (
	"bytes"
	"fmt"
	"strings"
	"time"
)

// Apache's %{format}t writes the request time with strftime(3). Such a
// format is compiled once into a list of pieces that scan a line's bytes by
// hand, like the fixed layouts in time.go: time.Parse per line would cost
// more than the rest of the parse. The scan also decides where the field
// ends, so a time with spaces in it ("%Y-%m-%d %H:%M:%S") needs no literal
// after it that cannot occur inside it.

// strfPiece is one piece of a compiled strftime format: a literal (conv 0)
// or a conversion.
type strfPiece struct {
	conv  byte   // the conversion letter, convMsecFrac or convUsecFrac; 0 for a literal
	lit   []byte // the literal text
	width int    // numeric conversions: the most digits strftime writes
}

// Internal conversions for Apache's %{msec_frac}t and %{usec_frac}t.
const (
	convMsecFrac = 1
	convUsecFrac = 2
)

// strftimeFormat is a compiled strftime format.
type strftimeFormat []strfPiece

// strfExpand maps the composite conversions to what they stand for in the
// C locale, the one Apache logs in.
var strfExpand = map[byte]string{
	'T': "%H:%M:%S", 'R': "%H:%M", 'F': "%Y-%m-%d", 'D': "%m/%d/%y", 'x': "%m/%d/%y", 'X': "%H:%M:%S",
	'c': "%a %b %e %H:%M:%S %Y", 'r': "%I:%M:%S %p", 'n': "\n", 't': "\t", '%': "%",
}

// strfWidth is the width of each numeric conversion; the letters not listed
// here or in strfExpand, and not names (a A b h B p P z Z), are unsupported.
var strfWidth = map[byte]int{
	'Y': 4, 'C': 2, 'y': 2, 'm': 2, 'd': 2, 'e': 2, 'H': 2, 'k': 2, 'I': 2, 'l': 2, 'M': 2, 'S': 2,
	'j': 3, 's': 19, 'u': 1, 'w': 1, 'U': 2, 'W': 2, 'V': 2, 'G': 4, 'g': 2,
}

// compileStrftime compiles a strftime(3) format as glibc reads it: flags
// (- _ 0 ^ #), a width and the E and O modifiers are accepted and make no
// difference to the scan, which takes numbers with or without padding.
func compileStrftime(s string) (strftimeFormat, error) {
	var p strftimeFormat
	if err := p.add(s, 0); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *strftimeFormat) addLit(b byte) {
	if n := len(*p); n > 0 && (*p)[n-1].conv == 0 {
		(*p)[n-1].lit = append((*p)[n-1].lit, b)
		return
	}
	*p = append(*p, strfPiece{lit: []byte{b}})
}

func (p *strftimeFormat) add(s string, depth int) error {
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			p.addLit(s[i])
			continue
		}
		start := i
		for i++; i < len(s) && (strings.IndexByte("-_0^#", s[i]) >= 0 || s[i] >= '1' && s[i] <= '9'); i++ {
		}
		if i < len(s) && (s[i] == 'E' || s[i] == 'O') {
			i++
		}
		if i >= len(s) {
			return fmt.Errorf("strftime format %+q ends in %%", s)
		}
		c := s[i]
		if sub, ok := strfExpand[c]; ok {
			if depth > 0 || c == '%' || c == 'n' || c == 't' {
				for j := 0; j < len(sub); j++ {
					p.addLit(sub[j])
				}
				continue
			}
			if err := p.add(sub, depth+1); err != nil {
				return err
			}
			continue
		}
		if w, ok := strfWidth[c]; ok {
			*p = append(*p, strfPiece{conv: c, width: w})
			continue
		}
		switch c {
		case 'a', 'A', 'b', 'h', 'B', 'p', 'P', 'z', 'Z':
			*p = append(*p, strfPiece{conv: c})
			continue
		}
		return fmt.Errorf("unsupported strftime conversion %+q", s[start:i+1])
	}
	return nil
}

// timeParts gathers what the time fields of one line say, so that a date,
// a %{msec_frac}t and a %{%z}t in separate fields make one Time.
type timeParts struct {
	set                      uint16 // has* bits
	year, yy, century, month int
	day, yday, hour, hour12  int
	min, sec, nsec, off      int
	pm                       bool
	epoch                    int64
}

const (
	hasYear = 1 << iota
	hasYY
	hasCentury
	hasMonth
	hasDay
	hasYday
	hasHour
	hasHour12
	hasPM
	hasFrac
	hasOff
	hasEpoch
	hasMin
	hasSec
)

var monthNames = [...]string{"january", "february", "march", "april", "may", "june", "july",
	"august", "september", "october", "november", "december"}

// scan matches the format against the start of b, filling tp, and returns
// how many bytes it took; ok is false when b does not start with such a time.
func (p strftimeFormat) scan(b []byte, tp *timeParts) (n int, ok bool) {
	i := 0
	for k := range p {
		pc := &p[k]
		switch pc.conv {
		case 0:
			if !bytes.HasPrefix(b[i:], pc.lit) {
				return 0, false
			}
			i += len(pc.lit)
			continue
		case convMsecFrac, convUsecFrac:
			i, ok = pc.scanFraction(b, i, tp)
		case 'a', 'A':
			i, ok = pc.scanDayName(b, i)
		case 'b', 'h', 'B':
			i, ok = scanMonthName(b, i, tp)
		case 'p', 'P':
			i, ok = scanAMPM(b, i, tp)
		case 'z':
			i, ok = scanOffset(b, i, tp)
		case 'Z':
			i, ok = scanZone(b, i, tp)
		default:
			// A number, inline as the literals: most pieces are one or
			// the other, and a call for each would be paid on every line.
			j := i
			for j < len(b) && b[j] == ' ' && j-i < pc.width-1 { // %e, %k, %l and the _ flag pad with spaces
				j++
			}
			start := j
			var v int64
			for j < len(b) && j-start < pc.width && b[j] >= '0' && b[j] <= '9' {
				v = v*10 + int64(b[j]-'0')
				j++
			}
			if j == start {
				return 0, false
			}
			tp.setNum(pc.conv, v)
			i = j
			continue
		}
		if !ok {
			return 0, false
		}
	}
	return i, true
}

// Each scan step below reads one conversion at b[i:] and returns the index
// after it; ok is false when b holds no such value there.

// scanFraction reads %{msec_frac}t or %{usec_frac}t: exactly 3 or 6 digits.
func (pc *strfPiece) scanFraction(b []byte, i int, tp *timeParts) (int, bool) {
	w := 3
	if pc.conv == convUsecFrac {
		w = 6
	}
	if len(b)-i < w {
		return 0, false
	}
	v := 0
	for _, c := range b[i : i+w] {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	if w == 3 {
		v *= 1e6
	} else {
		v *= 1e3
	}
	tp.nsec, tp.set = v, tp.set|hasFrac
	return i + w, true
}

// scanDayName reads %a (three letters) or %A (a day's name); the date
// tells the day, so the name is not checked.
func (pc *strfPiece) scanDayName(b []byte, i int) (int, bool) {
	j := letters(b, i)
	if j == i || pc.conv == 'a' && j-i != 3 {
		return 0, false
	}
	return j, true
}

// scanMonthName reads %b or %h (Jan) or %B (January), in any case.
func scanMonthName(b []byte, i int, tp *timeParts) (int, bool) {
	j := letters(b, i)
	m := 0
	if j-i == 3 {
		m = monthOf(b[i:])
	} else {
		for n, name := range monthNames {
			if equalFoldLower(b[i:j], name) {
				m = n + 1
			}
		}
	}
	if m == 0 {
		return 0, false
	}
	tp.month, tp.set = m, tp.set|hasMonth
	return j, true
}

// scanAMPM reads %p or %P: AM or PM, in any case.
func scanAMPM(b []byte, i int, tp *timeParts) (int, bool) {
	if len(b)-i < 2 || b[i+1]|0x20 != 'm' {
		return 0, false
	}
	switch b[i] | 0x20 {
	case 'a':
		tp.pm = false
	case 'p':
		tp.pm = true
	default:
		return 0, false
	}
	tp.set |= hasPM
	return i + 2, true
}

// scanOffset reads %z: +hhmm, or +hh:mm.
func scanOffset(b []byte, i int, tp *timeParts) (int, bool) {
	if len(b)-i < 5 {
		return 0, false
	}
	colon := len(b)-i >= 6 && b[i+3] == ':'
	n := 5
	if colon {
		n = 6
	}
	off, ok := parseOffset(b[i:i+n], colon)
	if !ok {
		return 0, false
	}
	tp.off, tp.set = off, tp.set|hasOff
	return i + n, true
}

// scanZone reads %Z. A zone abbreviation ("CEST") says no offset robowatch
// can trust; tzdata's numeric ones ("+03", "-0330") do, unless a %z said
// one already. It never fails: the zone may be empty.
func scanZone(b []byte, i int, tp *timeParts) (int, bool) {
	j := letters(b, i)
	if j != i || i >= len(b) || b[i] != '+' && b[i] != '-' {
		return j, true
	}
	j = i + 1
	for j < len(b) && j-i <= 4 && b[j] >= '0' && b[j] <= '9' {
		j++
	}
	if tp.set&hasOff != 0 {
		return j, true
	}
	switch j - i {
	case 3:
		hhmm := [5]byte{b[i], b[i+1], b[i+2], '0', '0'}
		if off, ok := parseOffset(hhmm[:], false); ok {
			tp.off, tp.set = off, tp.set|hasOff
		}
	case 5:
		if off, ok := parseOffset(b[i:j], false); ok {
			tp.off, tp.set = off, tp.set|hasOff
		}
	}
	return j, true
}

// equalFoldLower reports whether b is lower, ignoring the case of ASCII letters.
func equalFoldLower(b []byte, lower string) bool {
	if len(b) != len(lower) {
		return false
	}
	for i := range b {
		if b[i]|0x20 != lower[i] {
			return false
		}
	}
	return true
}

func letters(b []byte, i int) int {
	for i < len(b) && isLetter(b[i]) {
		i++
	}
	return i
}

func (tp *timeParts) setNum(conv byte, v int64) {
	n := int(v)
	switch conv {
	case 'Y':
		tp.year, tp.set = n, tp.set|hasYear
	case 'y':
		tp.yy, tp.set = n, tp.set|hasYY
	case 'C':
		tp.century, tp.set = n, tp.set|hasCentury
	case 'm':
		tp.month, tp.set = n, tp.set|hasMonth
	case 'd', 'e':
		tp.day, tp.set = n, tp.set|hasDay
	case 'j':
		tp.yday, tp.set = n, tp.set|hasYday
	case 'H', 'k':
		tp.hour, tp.set = n, tp.set|hasHour
	case 'I', 'l':
		tp.hour12, tp.set = n, tp.set|hasHour12
	case 'M':
		tp.min, tp.set = n, tp.set|hasMin
	case 'S':
		tp.sec, tp.set = n, tp.set|hasSec
	case 's':
		tp.epoch, tp.set = v, tp.set|hasEpoch
	}
	// u w U W V G g: weekday and week numbers, implied by the date.
}

// apply sets rec.Time from the parts, or, when they hold only a fraction or
// an offset, refines the time another field (%t) set. Parts with no date
// (a format with %H:%M:%S but no day, or no year) leave Time as it is: the
// day cannot be guessed. ok is false for an impossible date.
func (tp *timeParts) apply(rec *Record) bool {
	if tp.set&hasEpoch != 0 {
		t := time.Unix(tp.epoch, int64(tp.nsec)).UTC()
		if tp.set&hasOff != 0 {
			t = t.In(zone(tp.off))
		}
		rec.Time = t
		return true
	}
	year, ok := tp.yearOf()
	hasDate := ok && (tp.set&(hasMonth|hasDay) == hasMonth|hasDay || tp.set&hasYday != 0)
	if !hasDate {
		if !rec.Time.IsZero() {
			if tp.set&hasFrac != 0 && rec.Time.Nanosecond() == 0 {
				rec.Time = rec.Time.Add(time.Duration(tp.nsec))
			}
			if tp.set&hasOff != 0 && tp.set&(hasYear|hasYY|hasMonth|hasDay|hasHour|hasHour12) == 0 {
				rec.Time = rec.Time.In(zone(tp.off))
			}
		}
		return true
	}
	month, day := tp.month, tp.day
	if tp.set&(hasMonth|hasDay) != hasMonth|hasDay {
		if tp.yday < 1 || tp.yday > 366 {
			return false
		}
		month, day = 1, tp.yday
		for month < 12 && day > daysIn(month, year) {
			day -= daysIn(month, year)
			month++
		}
	}
	hour := tp.hour
	if tp.set&hasHour == 0 && tp.set&hasHour12 != 0 {
		if tp.hour12 < 1 || tp.hour12 > 12 {
			return false
		}
		hour = tp.hour12 % 12
		if tp.pm {
			hour += 12
		}
	}
	t, ok := makeTime(year, month, day, hour, tp.min, tp.sec, tp.nsec, tp.off)
	if ok {
		rec.Time = t
	}
	return ok
}

// yearOf returns the year from %Y, or from %y (with %C, or POSIX's rule:
// 69-99 are 1969-1999, 00-68 are 2000-2068).
func (tp *timeParts) yearOf() (int, bool) {
	switch {
	case tp.set&hasYear != 0:
		return tp.year, true
	case tp.set&hasYY != 0 && tp.set&hasCentury != 0:
		return tp.century*100 + tp.yy, true
	case tp.set&hasYY != 0 && tp.yy >= 69:
		return 1900 + tp.yy, true
	case tp.set&hasYY != 0:
		return 2000 + tp.yy, true
	}
	return 0, false
}
