package logparse_test

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/robowatch/robowatch/logparse"
)

// A log is read record by record; a malformed line is counted and skipped
// (a --strict caller would stop at it instead), any other error is fatal.
func ExampleReader() {
	log := `192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] "GET /robots.txt HTTP/1.1" 200 52 "-" "ExampleBot/1.0"
192.0.2.1 - - [10/Oct/2000:13:55:37 -0700] "GET /private/ HTTP/1.1" 200 1024 "-" "ExampleBot/1.0
198.51.100.4 - - [10/Oct/2000:13:55:38 -0700] "\x16\x03\x01\x02\x00" 400 157 "-" "-"
`
	r := logparse.NewReader(strings.NewReader(log), "access.log", nil) // nil: detect the format
	var rec logparse.Record
	for {
		err := r.Read(&rec)
		var pe *logparse.ParseError
		if errors.As(err, &pe) {
			fmt.Println("skipped:", pe.File, pe.Line, pe.Err)
			continue
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println("fatal:", err)
			return
		}
		fmt.Printf("%s %q %q %d\n", rec.Client, rec.Method, rec.Path(), rec.Status)
	}
	st := r.Stats()
	fmt.Println(st.Format, st.Lines, st.Records, st.Malformed)
	// Output:
	// 192.0.2.1 "GET" "/robots.txt" 200
	// skipped: access.log 2 missing closing quote in %{User-Agent}i
	// 198.51.100.4 "" "" 400
	// combined 3 2 1
}
