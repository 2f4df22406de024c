package editor

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/viewport"
)

// TestSnapshotHoldsNoSpareInstances: the grid dialog's copy of the scene's instances (a million at 1M: 88 MB) is
// allocated at its size, not grown by appending chunk after chunk (which held up to twice the bytes).
func TestSnapshotHoldsNoSpareInstances(t *testing.T) {
	dl := viewport.NewDrawList()
	const n = 20_000
	for i := range n {
		dl.Set(scene.MeshCube, viewport.Instance{World: mgl32.Translate3D(float32(i%100)*1.5, 0, float32(i/100)*1.5), ID: uint32(i + 1)})
	}
	snap := snapshotOf(dl, nil)
	if len(snap.batches) != 1 || len(snap.batches[0].instances) != n {
		t.Fatalf("snapshot of %d batches, want 1 of %d instances", len(snap.batches), n)
	}
	if got := cap(snap.batches[0].instances); got != n {
		t.Errorf("snapshot holds room for %d instances, %d in use", got, n)
	}
}
