//go:build !race

package input_test

// raceEnabled: big generated inputs are cut down under the race detector,
// which slows decompression tenfold.
const raceEnabled = false
