package e2e

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// TestInspectorCountCatchesUpWithoutInput: the inspector scans a big selection over several frames; the editor
// must keep drawing until the scan is done, even with the mouse and keyboard still, and not fall asleep with a
// partial count (such as "27060 entities" for 100,000 selected) until the mouse moves.
func TestInspectorCountCatchesUpWithoutInput(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.json")
	if runTool(t, "grid", "--nx", "100", "--ny", "10", "--nz", "100", "-o", path) != 0 {
		t.Fatal("grid failed")
	}
	e := launchOn(t, path)
	e.WaitProbe(60*time.Second, "the 100k scene", func(p *guitest.Probe) bool { return p.Entities == 100_000 })
	e.Key("ctrl+a") // the pointer does not move from here on
	p := e.WaitProbe(60*time.Second, "100000 selected", func(p *guitest.Probe) bool { return p.SelectedCount == 100_000 })
	t.Logf("inspector right after the selection: %q", p.Inspector["id"].Shown)
	p = e.WaitProbe(120*time.Second, "the inspector to count all 100000 without input", func(p *guitest.Probe) bool {
		return p.Inspector["id"].Shown == "100000 entities"
	})
	// And then the editor goes idle again: the finished scan does not keep it drawing.
	w := p.Waits
	e.WaitProbe(60*time.Second, "the idle loop to sleep after the scan", func(p *guitest.Probe) bool { return p.Waits > w })
}
