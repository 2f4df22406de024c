package viewport

import (
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// shuffledGrid spawns a grid of cubes with spacing apart and shuffles their places among them: a scene read from
// a file holds its entities in id order, which is no order of their places.
func shuffledGrid(count [3]int, spacing float32) (*ecs.World, []ecs.Entity) {
	w := scene.NewWorld()
	p := scene.DefaultGrid()
	p.Count = count
	p.Spacing = mgl32.Vec3{spacing, spacing, spacing}
	_, es := scene.SpawnGrid(w, p)
	ts := ecs.NewMap[ecs.Transform](w)
	r := rand.New(rand.NewPCG(1, 2))
	for i := len(es) - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		a, c := ts.Mut(es[i]), ts.Mut(es[j])
		a.Position, c.Position = c.Position, a.Position
	}
	w.PropagateTransforms()
	return w, es
}

// The first build of a big world counts the instances of each cell first, and makes every chunk at its size at once
// (its room is its instances), whatever the order of the instances: the cells are those that adding them one by one
// gives, regrouped or not.
func TestFirstBuildSizesChunks(t *testing.T) {
	for _, tc := range []struct {
		name    string
		count   [3]int
		spacing float32
	}{
		{"dense", [3]int{100, 2, 100}, 1.5}, // a hundred cubes a cell, in 200 cells: regrouped once
		{"sparse", [3]int{70, 1, 70}, 20},   // a cube a cell of the default size
		{"one cell", [3]int{90, 1, 50}, 0.1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, es := shuffledGrid(tc.count, tc.spacing)
			if len(es) < expectMin {
				t.Fatalf("%d cubes: the test needs %d", len(es), expectMin)
			}
			b := NewBuilder(w, BuiltinMeshes{})
			b.Update()
			dl := b.DrawList()
			if dl.Len() != len(es) {
				t.Fatalf("%d instances drawn of %d", dl.Len(), len(es))
			}
			if err := dl.Check(); err != nil {
				t.Fatal(err)
			}
			gs := ecs.NewMap[ecs.GlobalTransform](w)
			one := NewDrawList() // the same instances added one by one
			for _, e := range es {
				in, ref, ok := dl.Get(EntityID(e))
				if !ok || in.World != gs.Get(e).Matrix {
					t.Fatalf("entity %v: instance %v, %v", e, in, ok)
				}
				one.Set(ref, in)
			}
			if got, want := dl.CellSize(), one.CellSize(); got != want {
				t.Errorf("cell size %v, added one by one %v", got, want)
			}
			for _, bt := range dl.Batches() {
				for i, c := range bt.Chunks() {
					if cap(c.Instances) != c.Len() {
						t.Errorf("chunk %d of cell %v: room for %d, holds %d", i, c.Cell(), cap(c.Instances), c.Len())
					}
				}
			}
			// A spawn beside grows chunks as before.
			p := scene.DefaultGrid()
			p.Count = [3]int{10, 1, 10}
			p.Origin = mgl32.Vec3{0, 500, 0}
			_, more := scene.SpawnGrid(w, p)
			b.Update()
			if dl.Len() != len(es)+len(more) {
				t.Errorf("after a spawn: %d instances", dl.Len())
			}
			if err := dl.Check(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
