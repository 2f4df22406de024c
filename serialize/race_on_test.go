//go:build race

package serialize

// raceEnabled is true in a test binary built with -race, whose memory use the race detector multiplies (5–10×):
// peak-RSS budgets are checked in the plain run only.
const raceEnabled = true
