package report

import (
	"strconv"

	"github.com/robowatch/robowatch/findings"
)

// The state's path lists and edges are written by hand too, byte for byte
// as encoding/json writes them (TestStateRowsAsEncodingJSON): on the
// generated million-line log they are a megabyte of the report, written
// after the pass on one goroutine while the other core waits, and
// encoding/json spent about 86M instructions on them of a 400,000-line
// run's 3.3G (cachegrind; most of it re-indenting what it wrote).

// close ends an object opened at indent's parent, whose indent is outer.
func (w *rowWriter) close(outer string) {
	w.b = append(w.b, '\n')
	w.b = append(w.b, outer...)
	w.b = append(w.b, '}')
}

// nullable writes v, or null for nil.
func (w *rowWriter) nullable(key string, v *int64) {
	if v == nil {
		w.open(key)
		w.b = append(w.b, "null"...)
		return
	}
	w.int(key, *v)
}

// appendPaths appends v as encoding/json writes a jsonPaths at prefix.
func appendPaths(b []byte, v *jsonPaths, prefix string) []byte {
	in := deeper(prefix)
	w := rowWriter{b: append(b, '{'), indent: in}
	w.int("base", v.Base)
	w.open("paths")
	w.pathCounts(v.Paths)
	w.close(prefix)
	return w.b
}

// appendPathCount appends p as encoding/json writes it at prefix.
func appendPathCount(b []byte, p *findings.PathCount, prefix string) []byte {
	w := rowWriter{b: append(b, '{'), indent: deeper(prefix)}
	w.str("path", p.Path)
	w.int("requests", p.Requests)
	if p.Error != 0 {
		w.int("error", p.Error)
	}
	w.close(prefix)
	return w.b
}

// appendEdge appends e as encoding/json writes it at prefix.
func appendEdge(b []byte, e *findings.ClientEdge, prefix string) []byte {
	in := deeper(prefix)
	w := rowWriter{b: append(b, '{'), indent: in}
	w.str("ip", e.IP)
	w.str("user_agent", e.UserAgent)
	w.int("sessions", e.Sessions)
	w.int("first", e.First)
	w.int("last", e.Last)
	w.int("head", int64(e.Head))
	w.int("tail", int64(e.Tail))
	w.int("head_crawl_delay_ms", e.HeadDelayMs)
	w.nullable("fetch_first", e.FetchFirst)
	w.nullable("fetch_last", e.FetchLast)
	w.nullable("before_fetch", e.BeforeFetch)
	if r := e.Robots; r == nil {
		w.open("robots")
		w.b = append(w.b, "null"...)
	} else {
		o := w.object("robots")
		o.str("host", r.Host)
		o.int("state", int64(r.State))
		o.int("latest", r.Latest)
		o.int("last_at", r.LastAt)
		o.int("status", int64(r.Status))
		o.nullable("ok_at", r.OKAt)
		o.int("ok_version", int64(r.OKVer))
		o.bool("ok_by_size", r.OKBySize)
		w.end(&o)
	}
	w.open("backoff")
	if k := e.Backoff; k == nil {
		w.b = append(w.b, "null"...)
	} else {
		w.b = appendBackoff(w.b, k, in)
	}
	w.close(prefix)
	return w.b
}

// appendBackoff appends k as encoding/json writes it at prefix.
func appendBackoff(b []byte, k *findings.EdgeBackoff, prefix string) []byte {
	w := rowWriter{b: append(b, '{'), indent: deeper(prefix)}
	w.bool("open", k.Open)
	w.int("start", k.Start)
	w.open("recent")
	w.pairs(k.Recent)
	w.close(prefix)
	return w.b
}

// pairs writes v as encoding/json writes it: null for nil, each pair a
// list of two numbers.
func (w *rowWriter) pairs(v [][2]int64) {
	w.b = appendList(w.b, w.indent, v == nil, len(v), func(b []byte, i int, row string) []byte {
		return appendList(b, row, false, 2, func(b []byte, j int, _ string) []byte {
			return strconv.AppendInt(b, v[i][j], 10)
		})
	})
}

// appendRobotBuckets appends r as encoding/json writes it at prefix: the
// state's by_robot list has a row for every robot name (9,325 on the
// churn log, 39M instructions of encoding/json's re-indenting there).
func appendRobotBuckets(b []byte, r *findings.RobotBuckets, prefix string) []byte {
	w := rowWriter{b: append(b, '{'), indent: deeper(prefix)}
	w.str("name", r.Name)
	w.open("buckets")
	w.pairs(r.Buckets)
	w.close(prefix)
	return w.b
}
