package report

import (
	"strconv"
	"time"
)

// Count formats n for people: 999, 1,830, 12.3k, 4.5M. Values below
// 10,000 keep every digit, since small counts are the ones people compare,
// grouped as Exact groups them: "1830" beside "9,849" read as different
// kinds of number.
func Count(n int64) string {
	if n < 0 {
		return "-" + Count(-n)
	}
	if n < 10000 {
		return Exact(n)
	}
	return scaled(float64(n), 1000, []string{"", "k", "M", "G", "T", "P"}, "")
}

// Exact formats n with every digit, grouped by thousands: 1,234,567. The
// summary uses it, where a reader compares lines with records.
func Exact(n int64) string {
	if n < 0 {
		return "-" + Exact(-n)
	}
	s := strconv.FormatInt(n, 10)
	if len(s) <= 3 {
		return s
	}
	b := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	return string(b)
}

// Bytes formats a byte count with decimal units: 512 B, 4.5 MB, 1.2 GB.
// A negative count means unknown and prints as "-".
func Bytes(n int64) string {
	if n < 0 {
		return "-"
	}
	if n < 1000 {
		return strconv.FormatInt(n, 10) + " B"
	}
	return scaled(float64(n), 1000, []string{"", "kB", "MB", "GB", "TB", "PB"}, " ")
}

func scaled(v, base float64, units []string, sep string) string {
	i := 0
	for v >= base && i < len(units)-1 {
		v /= base
		i++
	}
	// Round before choosing the unit, so 999.6k prints as 1.0M, not 1000k.
	if v >= 999.5 && i < len(units)-1 {
		v /= base
		i++
	}
	prec := 1
	if v >= 99.95 {
		prec = 0
	}
	return strconv.FormatFloat(v, 'f', prec, 64) + sep + units[i]
}

// Duration formats d to the second for people: 45s, 12m03s, 3h04m, 2d03h.
func Duration(d time.Duration) string {
	if d < 0 {
		d = -d
	}
	s := int64(d / time.Second)
	switch {
	case s < 60:
		return strconv.FormatInt(s, 10) + "s"
	case s < 3600:
		return strconv.FormatInt(s/60, 10) + "m" + pad2(s%60) + "s"
	case s < 86400:
		return strconv.FormatInt(s/3600, 10) + "h" + pad2(s%3600/60) + "m"
	default:
		return strconv.FormatInt(s/86400, 10) + "d" + pad2(s%86400/3600) + "h"
	}
}

func pad2(n int64) string {
	if n < 10 {
		return "0" + strconv.FormatInt(n, 10)
	}
	return strconv.FormatInt(n, 10)
}
