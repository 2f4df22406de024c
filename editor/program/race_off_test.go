//go:build !race

package program

// raceEnabled is true in a test binary built with -race (see race_on_test.go).
const raceEnabled = false
