package doc

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/treeshape"
)

// openShape opens a scene of n entities linked in the named shape (see package treeshape).
func openShape(t testing.TB, shape string, n int) *Document {
	t.Helper()
	path := filepath.Join(t.TempDir(), shape+".json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := treeshape.WriteScene(f, treeshape.Parents(shape, n)); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	d, err := Open(context.Background(), path, testOpts, nil)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func allEntities(d *Document) []ecs.Entity {
	var es []ecs.Entity
	d.world.EachEntity(func(e ecs.Entity) bool { es = append(es, e); return true })
	return es
}

// shapeOps are the document's hierarchy operations over whole scenes: each one step, undone.
var shapeOps = []struct {
	name string
	do   func(d *Document, all []ecs.Entity) error
}{
	{"delete all", func(d *Document, all []ecs.Entity) error { return d.Delete(all...) }},
	{"all to the root", func(d *Document, all []ecs.Entity) error { return d.Reparent(ecs.Entity{}, all...) }},
	{"all under the last", func(d *Document, all []ecs.Entity) error {
		return d.Reparent(all[len(all)-1], all[:len(all)-1]...)
	}},
	{"duplicate all", func(d *Document, all []ecs.Entity) error { _, err := d.Duplicate(all...); return err }},
}

// TestHierarchyOpsShapes runs delete, reparent (keeping the world placement) and duplicate over
// every entity of scenes of every shape and checks that undo gives the scene back. With a
// 10,000-deep chain these took quadratic time (each entity's ancestors were walked for each
// entity, and detaching scanned the sibling list).
func TestHierarchyOpsShapes(t *testing.T) {
	const n = 10_000
	for _, shape := range treeshape.Names {
		t.Run(shape, func(t *testing.T) {
			d := openShape(t, shape, n)
			before := content(t, d)
			for _, op := range shapeOps {
				err := op.do(d, allEntities(d))
				if op.name == "all under the last" && shape != "flat" {
					// a cycle for every shape but flat: refused, nothing changed
					mustErr(t, err, ErrCycle)
					if content(t, d) != before {
						t.Fatalf("%s changed the scene", op.name)
					}
					continue
				}
				must(t, err)
				must(t, d.History().Undo())
				if content(t, d) != before {
					t.Fatalf("%s: undo did not give the scene back", op.name)
				}
			}
			// Every entity to the root keeping its world placement (those below another one move
			// with it), then all of them under a new entity.
			w := d.World()
			where := map[uint64]float32{}
			for _, e := range allEntities(d) {
				where[d.ID(e)] = w.WorldMatrix(e).At(0, 3)
			}
			must(t, d.ReparentKeepWorld(ecs.Entity{}, allEntities(d)...))
			g, err := d.SpawnEmpty(ecs.Entity{})
			must(t, err)
			others := allEntities(d)
			others = slices.DeleteFunc(others, func(e ecs.Entity) bool { return e == g })
			must(t, d.ReparentKeepWorld(g, others...))
			for _, e := range allEntities(d) {
				if x := w.WorldMatrix(e).At(0, 3); e != g && x != where[d.ID(e)] {
					t.Fatalf("entity %d moved from x %v to %v", d.ID(e), where[d.ID(e)], x)
				}
			}
			undoAll(t, d)
			must(t, d.History().Undo())
			if content(t, d) != before {
				t.Fatal("undoing ReparentKeepWorld")
			}
		})
	}
}

// BenchmarkHierarchyOpsShapes times the operations of TestHierarchyOpsShapes (and their undo) on
// 100,000-entity scenes of each shape, and reports each shape's time relative to the flat scene
// measured in the same iterations. Target: within 3× flat.
func BenchmarkHierarchyOpsShapes(b *testing.B) {
	const n = 100_000
	treeshape.Benchmark(b, n, func(shape string) *Document { return openShape(b, shape, n) }, func(d *Document, _ *treeshape.Timer) {
		for _, op := range shapeOps[:2] {
			if err := op.do(d, allEntities(d)); err != nil {
				b.Fatal(err)
			}
			if err := d.History().Undo(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestMoveNextToDeepLeaves moves 5,000 leaves hanging from the bottom of a 5,000-deep chain next
// to the chain's root (ordering them must not walk every leaf's whole path: that is quadratic), and
// back by undo.
func TestMoveNextToDeepLeaves(t *testing.T) {
	const n = 5_000
	ps := treeshape.Parents("chain", n)
	for range n {
		ps = append(ps, n-1)
	}
	path := filepath.Join(t.TempDir(), "deep.json")
	f, err := os.Create(path)
	must(t, err)
	must(t, treeshape.WriteScene(f, ps))
	must(t, f.Close())
	d, err := Open(context.Background(), path, testOpts, nil)
	must(t, err)
	before := content(t, d)
	root, _ := d.Entity(1)
	var leaves []ecs.Entity
	for id := uint64(n + 1); id <= 2*n; id++ {
		e, _ := d.Entity(id)
		leaves = append(leaves, e)
	}
	must(t, d.MoveNextTo(root, true, true, leaves...))
	if got := len(d.Roots()); got != n+1 {
		t.Fatalf("%d roots, want %d", got, n+1)
	}
	if r := d.Roots(); r[0] != root || r[1] != leaves[0] || r[n] != leaves[n-1] {
		t.Fatal("the leaves are not right after the root, in order")
	}
	must(t, d.History().Undo())
	if content(t, d) != before {
		t.Fatal("undo")
	}
}

// The asset path rule in the editor: an edit cannot put an unsafe asset path into a scene (the loader,
// the exporter and the game loader would refuse it), and opening a scene with one is an error at
// its position.
func TestUnsafeAssetEditsRefused(t *testing.T) {
	d := New("", testOpts)
	e, err := d.SpawnCube(ecs.Entity{})
	must(t, err)
	meshC := cid[scene.Mesh](t, d)
	for _, ref := range []string{"/etc/passwd", "../../secret.obj", "http://h/a.obj", ""} {
		mustErr(t, d.SetComponent([]ecs.Entity{e}, meshC, scene.Mesh{Asset: ref}), ErrComponent)
		mustErr(t, d.SetField([]ecs.Entity{e}, meshC, "asset", ref), ErrComponent)
	}
	must(t, d.SetField([]ecs.Entity{e}, meshC, "asset", "models/ship.obj"))
	path := filepath.Join(t.TempDir(), "s.json")
	must(t, os.WriteFile(path, []byte(`{"format": "voltex.scene", "version": 2, "entities": [{"id": 1, "components": {"Mesh": {"asset": "/etc/passwd"}}}]}`), 0o644))
	if _, err := Open(context.Background(), path, testOpts, nil); err == nil || !strings.Contains(err.Error(), "s.json:1:98: entities[0].components.Mesh.asset: absolute path") {
		t.Fatalf("open: %v", err)
	}
}
