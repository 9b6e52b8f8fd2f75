//go:build race

package agents

// raceEnabled: the race detector makes regular expressions some twenty
// times slower, so the filter's tests sample their probes under it.
const raceEnabled = true
