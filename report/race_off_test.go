//go:build !race

package report

// raceEnabled: the race detector makes allocations of its own, so
// allocation bounds are not checked under it.
const raceEnabled = false
