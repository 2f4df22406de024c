package statedir

import (
	"os"
	"strings"
	"testing"
)

func TestMain(m *testing.M) { Main(m) }

// TestStateFolderIsTheTests: the tests see a fresh temporary folder, not the user's.
func TestStateFolderIsTheTests(t *testing.T) {
	dir := os.Getenv("XDG_STATE_HOME")
	if !strings.HasPrefix(dir, os.TempDir()) || !strings.Contains(dir, "voltex-state-") {
		t.Fatalf("XDG_STATE_HOME is %q", dir)
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		t.Fatalf("the state folder: %v, %d entries", err, len(entries))
	}
}
