package statedir

import (
	"os"
	"testing"
)

// Main runs the tests of m with XDG_STATE_HOME set to a new temporary folder, removes the folder and exits with
// the tests' code: call it from a package's TestMain.
func Main(m *testing.M) {
	dir, err := os.MkdirTemp("", "voltex-state-")
	if err != nil {
		panic(err)
	}
	_ = os.Setenv("XDG_STATE_HOME", dir) // the process's own environment, set before any test runs
	code := m.Run()
	_ = os.RemoveAll(dir) // best effort: a temporary folder
	os.Exit(code)
}
