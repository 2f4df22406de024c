package editor

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/editor/hierarchy"
)

// The Hierarchy's model follows the document's roots through spawns, deletes, undo, redo and reorders (scene ids'
// sibling order written) as the document's Roots lists them, without taking them whole each time.
func TestHierarchyFollowsDocumentRoots(t *testing.T) {
	d := doc.New("", doc.Options{})
	rng := rand.New(rand.NewPCG(5, 6))
	for range 40 {
		if _, err := d.SpawnCube(ecs.Entity{}); err != nil {
			t.Fatal(err)
		}
	}
	m := hierarchy.New()
	for step := range 200 {
		live := slices.DeleteFunc(d.Roots(), func(e ecs.Entity) bool { return !d.World().Alive(e) })
		switch k := rng.IntN(6); {
		case k == 0 || len(live) < 3:
			if _, err := d.SpawnCube(ecs.Entity{}); err != nil {
				t.Fatal(err)
			}
		case k == 1:
			if err := d.Delete(live[rng.IntN(len(live))]); err != nil {
				t.Fatal(err)
			}
		case k == 2:
			if err := d.History().Undo(); err != nil {
				t.Fatal(err)
			}
		case k == 3:
			if err := d.History().Redo(); err != nil {
				t.Fatal(err)
			}
		default:
			a, b := live[rng.IntN(len(live))], live[rng.IntN(len(live))]
			if a != b {
				if err := d.MoveNextTo(a, rng.IntN(2) == 0, false, b); err != nil {
					t.Fatal(err)
				}
			}
		}
		n := m.Update(newDocTree(d), d.Version(), d.World())
		want := d.Roots()
		got := make([]ecs.Entity, n)
		for i := range got {
			got[i] = m.Row(i).Entity
		}
		if !slices.Equal(got, want) {
			t.Fatalf("step %d: rows %v, roots %v", step, got, want)
		}
	}
}
