package doc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// Apply to Prefab reads the prefab file it replaces (for undo) only if it is a regular file, within a
// bound: a named pipe put in its place since the scene was opened would block the editor for good.
// The apply is refused, changing nothing.
func TestApplyToPrefabRefusesWhatIsNotAFile(t *testing.T) {
	d, dir := openPrefabScene(t)
	prefab := filepath.Join(dir, "enemy.json")
	must(t, os.Remove(prefab))
	must(t, syscall.Mkfifo(prefab, 0o600))
	colorC := cid[scene.Color](t, d)
	wa := part(t, d, 10, 2)
	must(t, d.SetField([]ecs.Entity{wa}, colorC, "rgba", green))
	undos := d.History().Undos()
	done := make(chan error, 1)
	go func() { done <- d.Prefabs().Apply(context.Background(), wa, "Color", "rgba") }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("apply onto a named pipe: %v", err)
		}
	case <-time.After(time.Minute):
		if f, err := os.OpenFile(prefab, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			_ = f.Close() // opened only to unblock the Apply: nothing was written
		}
		t.Fatal("Apply to Prefab blocked on a named pipe")
	}
	if d.History().Undos() != undos {
		t.Errorf("a refused apply added a step")
	}
}
