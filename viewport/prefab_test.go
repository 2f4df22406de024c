package viewport

import (
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// An instance whose prefab cannot be used (a missing file) is drawn as a magenta placeholder at
// its place until its prefab can be used again.
func TestBrokenInstanceIsAPlaceholder(t *testing.T) {
	w := scene.NewWorld()
	e := w.Spawn(&ecs.Transform{Position: [3]float32{2, 0, 0}, Scale: [3]float32{1, 1, 1}}, &scene.Prefab{Path: "gone.json", Problem: "no such prefab file"})
	w.Spawn(&ecs.Transform{Scale: [3]float32{1, 1, 1}}, &scene.Prefab{Path: "fine.json"}) // a working instance draws nothing itself
	b := NewBuilder(w, BuiltinMeshes{})
	if !b.Update() || b.DrawList().Len() != 1 {
		t.Fatalf("draw list has %d instances, want the placeholder", b.DrawList().Len())
	}
	if got, ok := b.Entity(EntityID(e)); !ok || got != e {
		t.Fatal("the placeholder does not pick its instance")
	}
	if b.Update() {
		t.Fatal("an idle update changed the draw list")
	}
	m := ecs.NewMap[scene.Prefab](w)
	m.Set(e, scene.Prefab{Path: "gone.json"})
	b.Update()
	if b.DrawList().Len() != 0 {
		t.Fatalf("the placeholder stays after the prefab came back: %d", b.DrawList().Len())
	}
}
