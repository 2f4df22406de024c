package viewport

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/ecs"
)

// TestBuilderHides: hidden entities leave the draw list and stay out of it while they change; shown again they
// come back; a hidden entity that dies is forgotten (the counts still agree, nothing is swept every frame).
func TestBuilderHides(t *testing.T) {
	w, _, cubes := gridWorld(t)
	b := NewBuilder(w, BuiltinMeshes{})
	dl := b.DrawList()
	b.Update()
	hidden := map[ecs.Entity]bool{cubes[0]: true, cubes[4]: true}
	b.SetHide(func(e ecs.Entity) bool { return hidden[e] })
	has := func(e ecs.Entity) bool {
		found := false
		dl.IDs(func(id uint32) { found = found || id == EntityID(e) })
		return found
	}
	if dl.Len() != 7 || has(cubes[0]) || has(cubes[4]) || !has(cubes[1]) {
		t.Fatalf("with two cubes hidden the list holds %d", dl.Len())
	}
	tr := ecs.NewMap[ecs.Transform](w)
	tr.Set(cubes[0], ecs.Transform{Position: mgl32.Vec3{30, 0, 0}, Scale: mgl32.Vec3{1, 1, 1}})
	tr.Set(cubes[1], ecs.Transform{Position: mgl32.Vec3{31, 0, 0}, Scale: mgl32.Vec3{1, 1, 1}})
	b.Update()
	if dl.Len() != 7 || has(cubes[0]) {
		t.Fatalf("moving a hidden cube drew it (%d instances)", dl.Len())
	}
	delete(hidden, cubes[0])
	b.SetHide(func(e ecs.Entity) bool { return hidden[e] })
	if dl.Len() != 8 || !has(cubes[0]) {
		t.Fatalf("shown again: %d instances, cube 0 drawn %v", dl.Len(), has(cubes[0]))
	}
	w.Despawn(cubes[4])
	b.Update()
	if dl.Len() != 8 || len(b.hidden) != 0 {
		t.Fatalf("after the hidden cube died: %d instances, %d hidden kept", dl.Len(), len(b.hidden))
	}
	b.SetHide(nil)
	if dl.Len() != 8 {
		t.Fatalf("nothing hidden: %d instances, want 8", dl.Len())
	}
}

// TestPickExceptPicksBehind: passing over the front instance picks the one behind it.
func TestPickExceptPicksBehind(t *testing.T) {
	cube, _ := assets.Builtin(assets.BuiltinCube)
	d := NewDrawList()
	d.SetMesh(assets.BuiltinCube, cube)
	d.Set(assets.BuiltinCube, Instance{ID: 1, World: mgl32.Translate3D(0, 0, 0)})
	d.Set(assets.BuiltinCube, Instance{ID: 2, World: mgl32.Translate3D(0, 0, -3)})
	r := Ray{Origin: mgl32.Vec3{0, 0, 10}, Dir: mgl32.Vec3{0, 0, -1}}
	if h, ok := d.Pick(r); !ok || h.ID != 1 {
		t.Fatalf("pick: %+v %v, want the front cube", h, ok)
	}
	if h, ok := d.PickExcept(r, func(id uint32) bool { return id == 1 }); !ok || h.ID != 2 {
		t.Fatalf("pick passing over the front cube: %+v %v, want the one behind", h, ok)
	}
	if _, ok := d.PickExcept(r, func(uint32) bool { return true }); ok {
		t.Fatal("passing over everything still picks")
	}
}
