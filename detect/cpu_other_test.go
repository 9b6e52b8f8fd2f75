//go:build !unix

package detect

import "time"

// processCPU is not measured here: benchmarks report 0.
func processCPU() time.Duration { return 0 }
