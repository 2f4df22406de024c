package viewport

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/assets"
)

// TestChunkDamage: a chunk's damage is the box of where its changed instances were and are since ResetDamage
// (moved, added, removed, and the instance a removal moves into the hole); it is unknown after a regroup or Clear,
// or after more than maxDamaged changes.
func TestChunkDamage(t *testing.T) {
	dl := NewDrawList()
	cube, _ := assets.Builtin(assets.BuiltinCube)
	dl.SetMesh(assets.BuiltinCube, cube)
	for i := range uint32(5) {
		dl.Set(assets.BuiltinCube, Instance{ID: i + 1, World: mgl32.Translate3D(float32(i)*2, 0, 0)})
	}
	c := dl.Batches()[0].Chunks()[0]
	c.ResetDamage()
	if box, since, ok := c.Damage(); !ok || since != c.Changes() || !box.IsEmpty() {
		t.Fatalf("after ResetDamage: %v %d %v", box, since, ok)
	}
	dl.SetWorld(2, mgl32.Translate3D(2, 3, 0))
	box, _, ok := c.Damage()
	want := AABB{Min: mgl32.Vec3{1.5, -0.5, -0.5}, Max: mgl32.Vec3{2.5, 3.5, 0.5}}
	if !ok || box != want {
		t.Fatalf("one cube moved up: damage %v, want %v", box, want)
	}
	c.ResetDamage()
	dl.Remove(1) // instance 5 (x = 8) moves into slot 0
	box, _, _ = c.Damage()
	if want := (AABB{Min: mgl32.Vec3{-0.5, -0.5, -0.5}, Max: mgl32.Vec3{8.5, 0.5, 0.5}}); box != want {
		t.Fatalf("cube 1 removed: damage %v, want %v", box, want)
	}
	c.ResetDamage()
	dl.Set(assets.BuiltinCube, Instance{ID: 9, World: mgl32.Translate3D(4, 0, 4)})
	box, _, _ = c.Damage()
	if want := (AABB{Min: mgl32.Vec3{3.5, -0.5, 3.5}, Max: mgl32.Vec3{4.5, 0.5, 4.5}}); box != want {
		t.Fatalf("cube 9 added: damage %v, want %v", box, want)
	}
	c.ResetDamage()
	for i := range maxDamaged + 1 { // so many changes: the damage gives up (it would be the chunk's box anyway)
		dl.SetWorld(3, mgl32.Translate3D(4, float32(i%3), 0))
	}
	if _, _, ok := c.Damage(); ok {
		t.Fatalf("after %d changes the damage is still known", maxDamaged+1)
	}
	c.ResetDamage()
	dl.Clear()
	if _, _, ok := c.Damage(); ok {
		t.Fatal("after Clear the damage is known")
	}
}
