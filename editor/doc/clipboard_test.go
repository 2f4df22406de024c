package doc

import (
	"context"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// placed makes a document with a moved, turned and scaled parent "Group" holding "Cube 3,4", and a root "Cube 3,4".
func placed(t *testing.T) (d *Document, group, child, root ecs.Entity) {
	t.Helper()
	d = New("", testOpts)
	var err error
	group, err = d.Spawn("Create", ecs.Entity{}, "Group", ecs.Transform{
		Position: mgl32.Vec3{10, 2, -4}, Rotation: mgl32.Vec3{0, 90, 0}, Scale: mgl32.Vec3{2, 2, 2}})
	if err != nil {
		t.Fatal(err)
	}
	child, err = d.Spawn("Create", group, "Cube 3,4", ecs.Transform{Position: mgl32.Vec3{1, 0, 0}, Scale: mgl32.Vec3{1, 1, 1}},
		scene.Mesh{Asset: scene.MeshCube})
	if err != nil {
		t.Fatal(err)
	}
	root, err = d.Spawn("Create", ecs.Entity{}, "Cube 3,4", ecs.Transform{}.Default())
	if err != nil {
		t.Fatal(err)
	}
	return d, group, child, root
}

func sameMatrix(t *testing.T, what string, got, want mgl32.Mat4) {
	t.Helper()
	for i := range got {
		if d := got[i] - want[i]; d > 1e-4 || d < -1e-4 {
			t.Errorf("%s: world matrix\n%v\nwant\n%v", what, got, want)
			return
		}
	}
}

// Ctrl+V of a copied child pastes it where it was in the world, not at its local offset.
func TestPasteKeepsWorldPlacement(t *testing.T) {
	d, group, child, _ := placed(t)
	want := d.World().WorldMatrix(child)
	text, err := d.Copy(child)
	if err != nil {
		t.Fatal(err)
	}
	es, err := d.Paste(context.Background(), text, ecs.Entity{})
	if err != nil || len(es) != 1 {
		t.Fatalf("paste: %v %v", es, err)
	}
	if !d.World().Parent(es[0]).IsZero() {
		t.Fatal("pasted under a parent; want a root")
	}
	sameMatrix(t, "pasted at the root", d.World().WorldMatrix(es[0]), want)

	// Into another document, and under a parent there: still the same place in the world.
	o, ogroup, _, _ := placed(t)
	if err := o.SetComponent([]ecs.Entity{ogroup}, mustID[ecs.Transform](t, o.World()),
		ecs.Transform{Position: mgl32.Vec3{-3, 1, 7}, Rotation: mgl32.Vec3{30, 0, 0}, Scale: mgl32.Vec3{3, 3, 3}}); err != nil {
		t.Fatal(err)
	}
	es, err = o.Paste(context.Background(), text, ogroup)
	if err != nil || len(es) != 1 || o.World().Parent(es[0]) != ogroup {
		t.Fatalf("paste under a parent: %v %v", es, err)
	}
	sameMatrix(t, "pasted under another parent", o.World().WorldMatrix(es[0]), want)

	// A copied parent keeps its children's offsets.
	text, _ = d.Copy(group)
	es, _ = d.Paste(context.Background(), text, ecs.Entity{})
	kids := d.World().Children(es[0])
	if len(kids) != 1 {
		t.Fatalf("pasted group has %d children", len(kids))
	}
	sameMatrix(t, "a pasted group's child", d.World().WorldMatrix(kids[0]), want)
}

// Pasted and duplicated top-level entities get names no sibling has: "Cube 3,4 (1)", then "(2)".
func TestPasteAndDuplicateGiveUniqueNames(t *testing.T) {
	d, group, child, root := placed(t)
	text, _ := d.Copy(child)
	es, _ := d.Paste(context.Background(), text, ecs.Entity{}) // a root "Cube 3,4" exists
	if got := d.Name(es[0]); got != "Cube 3,4 (1)" {
		t.Errorf("pasted beside a root of the same name: %q, want Cube 3,4 (1)", got)
	}
	es, _ = d.Duplicate(root)
	if got := d.Name(es[0]); got != "Cube 3,4 (2)" {
		t.Errorf("duplicate: %q, want Cube 3,4 (2)", got)
	}
	es, _ = d.Duplicate(es[0], root) // two at once: both get free numbers
	if a, b := d.Name(es[0]), d.Name(es[1]); a != "Cube 3,4 (3)" || b != "Cube 3,4 (4)" {
		t.Errorf("duplicating two: %q %q, want Cube 3,4 (3) and (4)", a, b)
	}
	es, _ = d.Duplicate(child) // its only sibling is itself
	if got := d.Name(es[0]); got != "Cube 3,4 (1)" || d.World().Parent(es[0]) != group {
		t.Errorf("duplicating the child: %q under %v", got, d.World().Parent(es[0]))
	}
	text, _ = d.Copy(group)
	es, _ = d.Paste(context.Background(), text, ecs.Entity{})
	kids := d.World().Children(es[0])
	if d.Name(es[0]) != "Group (1)" || len(kids) != 2 || d.Name(kids[0]) != "Cube 3,4" {
		t.Errorf("pasted group %q with children %v: only the top-level entity is renamed", d.Name(es[0]), kids)
	}
	// Into a document without that name: kept as it is.
	o := New("", testOpts)
	text, _ = d.Copy(child)
	es, _ = o.Paste(context.Background(), text, ecs.Entity{})
	if got := o.Name(es[0]); got != "Cube 3,4" {
		t.Errorf("pasted where no sibling has the name: %q", got)
	}
	if err := d.History().Undo(); err != nil || d.Len() != 8 {
		t.Errorf("undo of the paste: %v, %d entities", err, d.Len())
	}
}

func mustID[T any](t *testing.T, w *ecs.World) ecs.ComponentID {
	t.Helper()
	id, ok := ecs.ComponentIDOf[T](w)
	if !ok {
		t.Fatal("component not registered")
	}
	return id
}
