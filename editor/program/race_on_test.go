//go:build race

package program

// raceEnabled is true in a test binary built with -race, whose memory use the race detector multiplies:
// peak-RSS budgets are checked in the plain run only.
const raceEnabled = true
