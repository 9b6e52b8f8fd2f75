package logparse

import (
	"errors"
	"io"
	"time"
)

// How much of a log FirstTime reads at most: enough to pass a header or a
// run of malformed lines, little enough to open many rotated files quickly.
const (
	firstTimeLines = 1000
	firstTimeBytes = 1 << 20
)

// FirstTime returns the time of the first record that has one among the
// first 1000 lines (and at most 1 MiB) of the log text r (decompressed,
// as package input opens it), parsed with f (nil detects the format as NewReader does). It lets a
// caller put rotated files (access.log access.log.1 access.log.2.gz, newest
// first as a shell glob lists them) in time order before reading them. No
// time in those lines gives the zero Time and a nil error; an error means
// reading failed (a corrupt gzip stream) and gives the line reached, not
// the file name, which the caller adds.
func FirstTime(r io.Reader, f *Format) (time.Time, error) {
	rd := NewReader(io.LimitReader(r, firstTimeBytes), "", f)
	var rec Record
	for range firstTimeLines {
		err := rd.Read(&rec)
		switch {
		case err == nil:
			if !rec.Time.IsZero() {
				return rec.Time, nil
			}
		case err == io.EOF:
			return time.Time{}, nil
		default:
			if pe := (*ParseError)(nil); !errors.As(err, &pe) {
				return time.Time{}, err
			}
		}
	}
	return time.Time{}, nil
}

// LastTime returns the latest time of any record in the log text r, parsed
// with f (nil detects the format): the end a duration such as --since 2h
// counts back from. Times in a log need not be in order, so it is the
// latest, not the last line's. It reads r to its end or to its first read
// error; malformed lines are skipped, as the reading that counts reports
// them.
//
// A record dated more than a day after now (a forged or corrupt line dated
// 9998) is no end of the log: counted back from it, a window would hold
// nothing. Such records are passed over, as the detector passes them over
// (detect.FutureTolerance).
func LastTime(r io.Reader, f *Format) time.Time {
	horizon := time.Now().Add(24 * time.Hour)
	rd := NewReader(r, "", f)
	var rec Record
	var last time.Time
	for {
		err := rd.Read(&rec)
		if err == nil {
			if rec.Time.After(last) && !rec.Time.After(horizon) {
				last = rec.Time
			}
			continue
		}
		if pe := (*ParseError)(nil); !errors.As(err, &pe) {
			break
		}
	}
	return last
}
