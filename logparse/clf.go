package logparse

import (
	"bytes"
	"unsafe"
)

// clfLayout names the built-in layouts parseCLF reads.
type clfLayout uint8

const (
	clfNone     clfLayout = iota
	clfCommon             // CommonSpec
	clfCombined           // CombinedSpec
)

// parseCLF reads line as Common or Combined (f.clf) the way parseFields
// does, without going through the fields one by one: those two layouts
// are most logs, and interpreting their fields was half of a line's parse
// (a profile of the million-line log: the fields' loop spilled most of its
// registers). It reads only the plain lines, which are nearly all: no
// backslash, no X-Forwarded-For list where the client goes, every quote
// where it closes the field, a time in the usual form; on any other line
// it returns false, and parseFields reads it (TestParseCLFAgrees holds
// the two to the same records).
//
// dates is the date the goroutine's last line had (nil: none).
func (f *Format) parseCLF(line []byte, rec *Record, alias bool, dates *clfDate) bool {
	file, lineNo := rec.File, rec.Line
	rec.reset(file, lineNo)
	line = TrimEOL(line)
	if len(line) == 0 || bytes.IndexByte(line, '\\') >= 0 {
		return false
	}
	var s string
	if alias {
		// As parseFields: the caller keeps line unchanged while the
		// record is in use (ParallelReader.ReuseRecord).
		s = unsafe.String(unsafe.SliceData(line), len(line))
	} else {
		s = string(line)
	}
	// %h: up to the first space; a comma would make it a list.
	i := indexByteFrom(line, 0, ' ')
	if i < 0 || bytes.IndexByte(line[:i], ',') >= 0 {
		return false
	}
	rec.Client = dashEmpty(s[:i])
	// %l and %u, then " [". Mostly "-", whose end is known without a
	// search (inline: a call to a function that searched otherwise cost
	// as much as the search).
	j := i + 2
	if j >= len(line) || line[i+1] != '-' || line[j] != ' ' {
		if j = indexByteFrom(line, i+1, ' '); j < 0 {
			return false
		}
	}
	rec.Ident = dashEmpty(s[i+1 : j])
	k := j + 2
	if k >= len(line) || line[j+1] != '-' || line[k] != ' ' {
		if k = indexByteFrom(line, j+1, ' '); k < 0 {
			return false
		}
	}
	if k+1 >= len(line) || line[k+1] != '[' {
		return false
	}
	rec.User = dashEmpty(s[j+1 : k])
	// %t, then "] \"": a time that reads as CLF has no ']' in it, so the
	// first ']' is the one after it.
	p := k + 2
	if p+29 > len(line) || line[p+26] != ']' || line[p+27] != ' ' || line[p+28] != '"' {
		return false
	}
	if dates == nil {
		dates = new(clfDate)
	}
	t, ok := dates.parse(line[p : p+26])
	if !ok || !timeInRange(t) {
		return false
	}
	rec.Time = t
	// "%r", closed by its first quote if a space and a number follow it
	// (closingQuote's choice then; if not, parseFields looks further).
	p += 29
	q := quoteFrom(line, p)
	if q < 0 || q+2 >= len(line) || line[q+1] != ' ' || !numberAt(line, q+2) {
		return false
	}
	if req := dashEmpty(s[p:q]); req != "" {
		rec.Request = req
		splitRequest(req, rec)
	}
	// %>s, nearly always three digits, and %b.
	p = q + 2
	e := p + 3
	if e < len(line) && line[e] == ' ' && isDigit(line[p]) && isDigit(line[p+1]) && isDigit(line[p+2]) {
		rec.Status = int(line[p]-'0')*100 + int(line[p+1]-'0')*10 + int(line[p+2]-'0')
	} else {
		if e = indexByteFrom(line, p, ' '); e < 0 {
			return false
		}
		n, ok := parseUint(line[p:e], 9)
		if !ok {
			return false
		}
		rec.Status = int(max(n, 0))
	}
	p = e + 1
	if f.clf == clfCommon {
		e = p
		for e < len(line) && line[e] != ' ' && line[e] != '\t' {
			e++
		}
	} else if e = indexByteFrom(line, p, ' '); e < 0 {
		return false
	}
	if rec.Bytes, ok = parseUint(line[p:e], 18); !ok {
		return false
	}
	if f.clf == clfCombined {
		// "%{Referer}i" "%{User-Agent}i"
		p = e + 1
		if p >= len(line) || line[p] != '"' {
			return false
		}
		q = quoteFrom(line, p+1)
		if q < 0 || q+2 >= len(line) || line[q+1] != ' ' || line[q+2] != '"' {
			return false
		}
		rec.Referer = dashEmpty(s[p+1 : q])
		p = q + 3
		q = quoteFrom(line, p)
		if q < 0 || q+1 < len(line) && line[q+1] != ' ' && line[q+1] != '\t' {
			return false
		}
		rec.UserAgent = dashEmpty(s[p:q])
		e = q + 1
	}
	return f.finish(line, e, nil, rec, alias) == nil
}

// parseCached is parse for a goroutine that parses line after line:
// dates, its own, is the date of its last line.
func (f *Format) parseCached(line []byte, rec *Record, alias bool, dates *clfDate) error {
	if f.clf != clfNone && f.parseCLF(line, rec, alias, dates) {
		rec.Client = canonicalClient(rec.Client)
		return nil
	}
	return f.parse(line, rec, alias)
}

// quoteFrom is the index of the first '"' in line from i, or -1.
func quoteFrom(line []byte, i int) int {
	j := bytes.IndexByte(line[i:], '"')
	if j < 0 {
		return -1
	}
	return i + j
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
