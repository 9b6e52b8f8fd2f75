//go:build !race

package main

// raceEnabled: the race detector slows the pipeline tenfold; big generated
// inputs are cut down under it.
const raceEnabled = false
