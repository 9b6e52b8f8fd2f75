package report

import (
	"bytes"
	"encoding/json"
	"runtime"
	"sync"

	"github.com/robowatch/robowatch/findings"
)

// rowEncoder writes list elements as json.Encoder with an indent writes
// them, into bytes: each goroutine of writeRows has its own.
type rowEncoder struct {
	out bytes.Buffer
	enc *json.Encoder
}

func newRowEncoder(prefix string) *rowEncoder {
	e := &rowEncoder{}
	e.enc = json.NewEncoder(&e.out)
	e.enc.SetIndent(prefix, "  ")
	return e
}

// appendJSON appends v as jsonStream.marshal writes it with e's prefix.
func (e *rowEncoder) appendJSON(b []byte, v any) ([]byte, error) {
	e.out.Reset()
	if err := e.enc.Encode(v); err != nil {
		return b, err
	}
	return append(b, bytes.TrimSuffix(e.out.Bytes(), []byte("\n"))...), nil
}

// rowChunk is how many elements a goroutine of writeRows writes at a time.
const rowChunk = 128

// rowsFunc appends elements lo to hi of a list, each after start(b, i).
type rowsFunc func(e *rowEncoder, b []byte, lo, hi int) ([]byte, error)

// writeRows writes a list of n elements as writeSeq writes one, each
// element indented by indent: "[]" for none. The elements are written a
// chunk at a time on every core and the chunks put in order: the rows
// after the clients list (robots, networks, the state's edges) were the
// report's last 0.1 s of a churn log, on one core while the other idled.
func writeRows(j *jsonStream, n int, indent string, rows rowsFunc) {
	if j.err != nil {
		return
	}
	if n == 0 {
		j.raw("[]")
		return
	}
	j.raw("[\n")
	workers := min(runtime.GOMAXPROCS(0), (n+rowChunk-1)/rowChunk)
	if workers < 2 {
		// A chunk at a time here too: the whole list in one buffer was
		// the networks' 37 MB of text on the churn log.
		e := newRowEncoder(indent)
		for lo := 0; lo < n && j.err == nil; lo += rowChunk {
			if j.buf, j.err = rows(e, j.buf[:0], lo, min(lo+rowChunk, n)); j.err == nil {
				_, j.err = j.w.Write(j.buf)
			}
		}
	} else {
		j.writeChunks(n, workers, indent, rows)
	}
	j.raw("\n" + indent[:len(indent)-2] + "]")
}

// rowJob is a chunk of writeRows' list, written by one of its goroutines.
type rowJob struct {
	lo, hi int
	out    []byte
	err    error
	done   chan struct{}
}

func (j *jsonStream) writeChunks(n, workers int, indent string, rows rowsFunc) {
	order := make(chan *rowJob, 2*workers) // chunks in list order, for the writer
	work := make(chan *rowJob, 2*workers)  // the same chunks, for the goroutines
	free := make(chan []byte, 4*workers+1) // written chunks' buffers
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer wg.Wait()
	defer close(stop)
	go func() {
		defer close(work)
		defer close(order)
		for lo := 0; lo < n; lo += rowChunk {
			job := &rowJob{lo: lo, hi: min(lo+rowChunk, n), done: make(chan struct{})}
			select {
			case order <- job:
			case <-stop:
				return
			}
			select {
			case work <- job:
			case <-stop:
				return
			}
		}
	}()
	wg.Add(workers)
	for range workers {
		go func() {
			defer wg.Done()
			e := newRowEncoder(indent)
			for job := range work {
				var b []byte
				select {
				case b = <-free:
				default:
				}
				job.out, job.err = rows(e, b[:0], job.lo, job.hi)
				close(job.done)
			}
		}()
	}
	for job := range order {
		<-job.done
		if job.err != nil {
			j.err = job.err
			return
		}
		if _, j.err = j.w.Write(job.out); j.err != nil {
			return
		}
		select {
		case free <- job.out:
		default:
		}
	}
}

// start begins element i of a list: a comma after the one before, and
// the indent.
func start(b []byte, i int, indent string) []byte {
	if i > 0 {
		b = append(b, ",\n"...)
	}
	return append(b, indent...)
}

// encodedRows are the rows of list for writeRows, each as encoding/json
// writes it.
func encodedRows[T any](list []T, indent string) rowsFunc {
	return func(e *rowEncoder, b []byte, lo, hi int) ([]byte, error) {
		var err error
		for i := lo; i < hi; i++ {
			if b, err = e.appendJSON(start(b, i, indent), &list[i]); err != nil {
				return b, err
			}
		}
		return b, nil
	}
}

// networkRows are the rows of the networks list for writeRows. A pass's
// networks are written with their names' bytes (NetworkList.Row): a
// string a network, or a chunk, was 25 MB of garbage on the churn log.
func networkRows(l findings.NetworkList, indent string) rowsFunc {
	return func(_ *rowEncoder, b []byte, lo, hi int) ([]byte, error) {
		var name []byte
		for i := lo; i < hi; i++ {
			b = start(b, i, indent)
			var n findings.NetworkSummary
			if n, name = l.Row(i, name[:0]); n.Network != "" || len(name) == 0 {
				b, _ = appendNetwork(b, &n, indent)
			} else {
				b = appendNetworkNamed(b, &n, name, indent)
			}
		}
		return b, nil
	}
}
