//go:build !race

package cli_test

// raceEnabled: the race detector slows the pipeline tenfold; big generated
// inputs are cut down under it.
const raceEnabled = false
