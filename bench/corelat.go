//go:build ignore

// Corelat prints how long a cache line takes to go from one core to
// another and back, for bench/run.sh: two threads take turns writing one
// word. On the 2-core VM robowatch is measured on, this round trip is
// 60-130 ns for stretches of minutes, then 390-420 ns for others (the host
// moves the VM's cores), and every record a Pool hands from the core that
// parsed it to the one that judges it pays for it: the million-line log's
// two-core run took 0.34-0.37 s in the first state and 0.47-0.52 s in the
// second, while one core took 0.59-0.62 s in both. A bench table is read
// with this figure beside it.
//
//	go run bench/corelat.go
package main

import (
	"fmt"
	"os"
	"runtime"
	"sync/atomic"
	"time"
)

func main() {
	if runtime.NumCPU() < 2 || runtime.GOMAXPROCS(0) < 2 {
		fmt.Println("n/a (one core)")
		return
	}
	const turns = 1 << 20
	var word atomic.Int64
	done := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		defer close(done)
		for i := int64(1); i < turns; i += 2 {
			for word.Load() != i {
			}
			word.Store(i + 1)
		}
	}()
	runtime.LockOSThread()
	start := time.Now()
	for i := int64(0); i < turns; i += 2 {
		for n := 0; word.Load() != i; n++ {
			if n&0xFFFF == 0xFFFF && time.Since(start) > 5*time.Second {
				fmt.Fprintln(os.Stderr, "corelat: the other thread does not run")
				os.Exit(1)
			}
		}
		word.Store(i + 1)
	}
	<-done
	fmt.Printf("%.0f ns\n", float64(time.Since(start).Nanoseconds())/(turns/2))
}
