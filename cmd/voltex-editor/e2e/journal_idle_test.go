package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// TestJournalBaseWhenIdle: the session journal's base — a copy of the scene file as opened — is written once the
// editor goes idle after the open, not a few seconds later in the middle of what the user does next (a drag, a
// key), and the probe calls the editor idle only once it is written.
func TestJournalBaseWhenIdle(t *testing.T) {
	scene, state := bigScene(t, 40, 10, 40), t.TempDir()
	e := launchOnEnv(t, scene, []string{"XDG_STATE_HOME=" + state})
	e.WaitProbe(60*time.Second, "the 16k scene", func(p *guitest.Probe) bool { return p.Entities == 16_000 })
	e.WaitProbe(guitest.Timeout(2*time.Minute), "the editor to go idle", func(p *guitest.Probe) bool { return p.Idle })
	fi, err := os.Stat(scene)
	if err != nil {
		t.Fatal(err)
	}
	js, _ := filepath.Glob(filepath.Join(state, "voltex", "journal", "*.journal"))
	if len(js) != 1 {
		t.Fatalf("idle after the open, the state folder holds %d journals, want 1 with its base", len(js))
	}
	ji, err := os.Stat(js[0])
	if err != nil {
		t.Fatal(err)
	}
	if ji.Size() < fi.Size() {
		t.Fatalf("idle after the open, the journal holds no base: %d bytes for a %d-byte scene", ji.Size(), fi.Size())
	}
}
