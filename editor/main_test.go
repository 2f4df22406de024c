package editor

import (
	"os"
	"testing"
)

// The editor's tests keep their session journals in a state folder of their own: the user's journals are never
// offered to them, nor theirs left to the user.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "voltex-state-")
	if err != nil {
		panic(err)
	}
	_ = os.Setenv("XDG_STATE_HOME", dir) // the process's own environment, set before any test runs
	code := m.Run()
	_ = os.RemoveAll(dir) // best effort: a temporary folder
	os.Exit(code)
}
