package doc

import (
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
)

func nearMat(a, b mgl32.Mat4, eps float32) bool {
	for i := range a {
		if d := a[i] - b[i]; d > eps || d < -eps {
			return false
		}
	}
	return true
}

func TestDecomposeInvertsTransformMatrix(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	r := func(lo, hi float64) float32 { return float32(lo + rng.Float64()*(hi-lo)) }
	for range 1000 {
		tr := ecs.Transform{
			Position: mgl32.Vec3{r(-10, 10), r(-10, 10), r(-10, 10)},
			Rotation: mgl32.Vec3{r(-89, 89), r(-179, 179), r(-179, 179)},
			Scale:    mgl32.Vec3{r(0.1, 3), r(0.1, 3), r(0.1, 3)},
		}
		got, ok := decompose(tr.Matrix())
		if !ok || !nearMat(got.Matrix(), tr.Matrix(), 1e-4) {
			t.Fatalf("decompose(%v) = %v", tr, got)
		}
	}
	if _, ok := decompose(ecs.Transform{}.Matrix()); ok {
		t.Fatal("a zero scale cannot be decomposed")
	}
	// A mirrored scale comes back as a negative X scale with the same matrix.
	m := ecs.Transform{Rotation: mgl32.Vec3{0, 30, 0}, Scale: mgl32.Vec3{1, -2, 1}}.Matrix()
	if got, ok := decompose(m); !ok || !nearMat(got.Matrix(), m, 1e-5) || got.Scale[0] > 0 {
		t.Fatalf("mirrored: %v", got)
	}
	// Gimbal lock.
	g := ecs.Transform{Rotation: mgl32.Vec3{90, 20, 30}, Scale: one}
	if got, _ := decompose(g.Matrix()); !nearMat(got.Matrix(), g.Matrix(), 1e-5) {
		t.Fatalf("gimbal lock: %v", got)
	}
}

func TestReparentKeepWorld(t *testing.T) {
	d := openSmall(t)
	start := saved(t, d)
	b, a1 := ent(t, d, 3), ent(t, d, 4)
	tr := cid[ecs.Transform](t, d)
	must(t, d.SetComponent([]ecs.Entity{ent(t, d, 2)}, tr,
		ecs.Transform{Position: mgl32.Vec3{1, 0, 0}, Rotation: mgl32.Vec3{0, 90, 0}, Scale: mgl32.Vec3{2, 2, 2}}))
	before := d.world.WorldMatrix(b)
	must(t, d.ReparentKeepWorld(a1, b))
	if parentID(t, d, 3) != 4 || !nearMat(d.world.WorldMatrix(b), before, 1e-5) || d.Undos() != 2 {
		t.Fatalf("B moved in the world: %v vs %v", d.world.WorldMatrix(b), before)
	}
	if get[ecs.Transform](t, d, d.world, 3).Scale[0] != 1 {
		t.Fatalf("local scale under a parent scaled 2×0.5: %v", get[ecs.Transform](t, d, d.world, 3))
	}
	d.Select(b)
	must(t, d.ReparentSelection(ecs.Entity{}, true))
	if !nearMat(d.world.WorldMatrix(b), before, 1e-5) || d.world.Parent(b) != (ecs.Entity{}) {
		t.Fatal("back to the root")
	}
	undoAll(t, d)
	if saved(t, d) != start {
		t.Fatal("undo")
	}
}
