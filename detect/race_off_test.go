//go:build !race

package detect

// raceEnabled: big generated inputs are cut down under the race detector,
// which slows the detectors tenfold.
const raceEnabled = false
