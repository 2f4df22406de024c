package doc

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
)

// Follow is a test component holding entity references.
type Follow struct {
	Target ecs.Entity   `json:"target"`
	Others []ecs.Entity `json:"others"`
}

func testWorld() *ecs.World {
	w := scene.NewWorld()
	ecs.Register[Follow](w)
	return w
}

var testOpts = Options{NewWorld: testWorld}

// openSmall opens a copy of testdata/small.json in a temporary folder.
func openSmall(t testing.TB) *Document {
	t.Helper()
	src, err := os.ReadFile("testdata/small.json")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "small.json")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := Open(context.Background(), path, testOpts, nil)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// content is the scene as a save writes it, without the selection.
func content(t testing.TB, d *Document) string { return encode(t, d, false) }

// saved is the full save (with the selection).
func saved(t testing.TB, d *Document) string { return encode(t, d, true) }

func encode(t testing.TB, d *Document, withSelection bool) string {
	t.Helper()
	var b bytes.Buffer
	s := d.fileScene()
	if withSelection {
		s.Selection = d.sel.Entities()
	}
	if err := serialize.Save(context.Background(), &b, s, serialize.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// ent returns the entity with scene id id or fails.
func ent(t testing.TB, d *Document, id uint64) ecs.Entity {
	t.Helper()
	e, ok := d.Entity(id)
	if !ok {
		t.Fatalf("no entity with id %d", id)
	}
	return e
}

// children returns the scene ids of the children of id, in order.
func children(t testing.TB, d *Document, id uint64) []uint64 {
	t.Helper()
	return d.idsOf(d.world.Children(ent(t, d, id)))
}

func parentID(t testing.TB, d *Document, id uint64) uint64 {
	t.Helper()
	return d.idOf(d.world.Parent(ent(t, d, id)))
}

func cid[T any](t testing.TB, d *Document) ecs.ComponentID {
	t.Helper()
	id, ok := ecs.ComponentIDOf[T](d.world)
	if !ok {
		t.Fatalf("%T not registered", *new(T))
	}
	return id
}

func get[T any](t testing.TB, d *Document, w *ecs.World, id uint64) T {
	t.Helper()
	v, ok := ecs.NewMap[T](w).TryGet(ent(t, d, id))
	if !ok {
		t.Fatalf("entity %d has no %T", id, v)
	}
	return v
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func mustErr(t testing.TB, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("got error %v, want %v", err, want)
	}
}

// undoAll undoes every step, redoAll redoes them.
func undoAll(t testing.TB, d *Document) {
	t.Helper()
	for d.History().CanUndo() {
		must(t, d.History().Undo())
	}
}

func redoAll(t testing.TB, d *Document) {
	t.Helper()
	for d.History().CanRedo() {
		must(t, d.History().Redo())
	}
}

func eqIDs(a, b []uint64) bool { return slices.Equal(a, b) }

var one = mgl32.Vec3{1, 1, 1}
