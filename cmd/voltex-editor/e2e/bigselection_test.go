package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// TestBigSelectionCountsAndIdles: with 100,000 entities selected (Ctrl+A, the pointer still from then on), the
// inspector shows "100000 entities" in the first frame that has the selection — not a count that grows as its
// scan of the components goes on — and the editor then goes idle: over 5 s it builds no frames and uses at most
// 5 % of a core (CPU time, which a busy machine does not inflate the way it stretches wall-clock time).
func TestBigSelectionCountsAndIdles(t *testing.T) {
	scene, state := bigScene(t, 100, 10, 100), t.TempDir()
	e := launchOnEnv(t, scene, []string{"XDG_STATE_HOME=" + state})
	e.WaitProbe(60*time.Second, "the 100k scene", func(p *guitest.Probe) bool { return p.Entities == 100_000 })
	e.Key("ctrl+a")
	p := e.WaitProbe(60*time.Second, "100000 selected", func(p *guitest.Probe) bool { return p.SelectedCount == 100_000 })
	if got := p.Inspector["id"].Shown; got != "100000 entities" {
		t.Errorf("the first frame with the selection shows %q in the inspector, want \"100000 entities\"", got)
	}
	before := e.Settle()
	if got := before.Inspector["id"].Shown; got != "100000 entities" {
		t.Errorf("idle, the inspector shows %q", got)
	}
	waitJournalBase(t, state, scene)
	cpu0 := e.CPUTime()
	time.Sleep(5 * time.Second) // the measurement window: an idle editor does nothing in it, however long
	cpu := e.CPUTime() - cpu0
	after, err := e.ReadProbe()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("idle with 100000 selected for 5 s: %v CPU, %d frames", cpu, after.Frames-before.Frames)
	if cpu > 250*time.Millisecond {
		t.Errorf("idle editor with 100000 selected used %v CPU in 5 s (> 5%% of one core)", cpu)
	}
	if n := after.Frames - before.Frames; n > 1 || !after.Idle {
		t.Errorf("idle editor with 100000 selected built %d frames in 5 s (idle now: %v), want at most 1", n, after.Idle)
	}
}

// waitJournalBase waits until the session journal in the state folder holds the base of scene: a copy of the file,
// written once the editor goes idle after the open (or a few seconds after it: doc.JournalOptions.BaseDelay), not
// work of an idle editor.
func waitJournalBase(t *testing.T, state, scene string) {
	t.Helper()
	fi, err := os.Stat(scene)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(guitest.Timeout(2 * time.Minute))
	for time.Now().Before(deadline) {
		js, _ := filepath.Glob(filepath.Join(state, "voltex", "journal", "*"))
		for _, j := range js {
			if ji, err := os.Stat(j); err == nil && ji.Size() >= fi.Size() {
				time.Sleep(500 * time.Millisecond) // its sync
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("no journal in %s holds the base of %s", state, scene)
}
