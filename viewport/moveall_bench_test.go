package viewport

import (
	"testing"
	"time"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// BenchmarkBuilderMoveAll1M times the builder's Update after every cube of a flat scene of 1,000,000 was given
// the same X (a field edit on all of them selected: most move to another cell of the draw list) and after they were
// put back (its undo). ns/entity is per cube.
func BenchmarkBuilderMoveAll1M(b *testing.B) {
	w, cubes := flatGrid(100, 100, 100)
	bl := NewBuilder(w, BuiltinMeshes{})
	bl.Update()
	ts := ecs.NewMap[ecs.Transform](w)
	xs := make([]float32, len(cubes))
	for i, e := range cubes {
		xs[i] = ts.Get(e).Position.X()
	}
	var edit, undo time.Duration
	timed := func(d *time.Duration, x func(i int) float32) {
		w.AdvanceTick()
		for i, e := range cubes {
			ts.Mut(e).Position[0] = x(i)
		}
		t0 := time.Now()
		bl.Update()
		*d += time.Since(t0)
	}
	for b.Loop() {
		timed(&edit, func(int) float32 { return 3 })
		timed(&undo, func(i int) float32 { return xs[i] })
	}
	n := float64(b.N) * float64(len(cubes))
	b.ReportMetric(float64(edit.Nanoseconds())/n, "edit-ns/entity")
	b.ReportMetric(float64(undo.Nanoseconds())/n, "undo-ns/entity")
	b.ReportMetric(0, "ns/op")
}

// flatGrid is a world of the default grid of x×y×z cubes, all roots.
func flatGrid(x, y, z int) (*ecs.World, []ecs.Entity) {
	w := scene.NewWorld()
	p := scene.DefaultGrid()
	p.Count = [3]int{x, y, z}
	_, cubes := scene.SpawnGrid(w, p)
	return w, cubes
}
