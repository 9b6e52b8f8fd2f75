package logparse_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/robowatch/robowatch/logparse"
)

// A ParallelReader is read like a Reader, from one goroutine and in log
// order; Close ends its goroutines when the caller stops early.
func ExampleParallelReader() {
	var log strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&log, "192.0.2.%d - - [10/Oct/2000:13:55:36 -0700] \"GET /p%d HTTP/1.1\" 200 52 \"-\" \"ExampleBot/1.0\"\n", i%200, i)
	}
	r := logparse.NewParallelReader(strings.NewReader(log.String()), "access.log", nil)
	defer r.Close()
	var rec logparse.Record
	var last int64
	for {
		err := r.Read(&rec)
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			continue
		}
		if rec.Line != last+1 {
			fmt.Println("out of order at line", rec.Line)
		}
		last = rec.Line
	}
	st := r.Stats()
	fmt.Println(st.Format, st.Records, rec.Target)
	// Output:
	// combined 5000 /p4999
}
