package editor

import (
	"slices"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/doc"
)

// countingDoc counts the look-ups of the selected entities.
type countingDoc struct {
	*doc.Document
	appends int
}

func (c *countingDoc) AppendSelected(dst []ecs.Entity) []ecs.Entity {
	c.appends++
	return c.Document.AppendSelected(dst)
}

// TestInspectorLooksUpTheSelectionOnlyWhenItChanges: a big selection was looked up entity by entity in every frame
// (a third of the editor's time with 100,000 cubes selected); now only when the selection or the scene changed.
func TestInspectorLooksUpTheSelectionOnlyWhenItChanges(t *testing.T) {
	d := &countingDoc{Document: doc.New("S", doc.Options{})}
	var cubes []ecs.Entity
	for range 3 {
		e, err := d.SpawnCube(ecs.Entity{})
		if err != nil {
			t.Fatal(err)
		}
		cubes = append(cubes, e)
	}
	p := &inspectorPanel{}
	p.setDoc(d)
	d.Select(cubes...)
	for range 5 {
		if got := p.selected(); !slices.Equal(got, cubes) {
			t.Fatalf("selected %v, want %v", got, cubes)
		}
	}
	if d.appends != 1 {
		t.Errorf("5 frames with the same selection looked it up %d times, want 1", d.appends)
	}
	d.Select(cubes[0])
	if got := p.selected(); !slices.Equal(got, cubes[:1]) {
		t.Errorf("after selecting one: %v", got)
	}
	d.Select(cubes...)
	if err := d.Delete(cubes[1]); err != nil {
		t.Fatal(err)
	}
	if got, want := p.selected(), []ecs.Entity{cubes[0], cubes[2]}; !slices.Equal(got, want) {
		t.Errorf("after deleting a selected entity: %v, want %v", got, want)
	}
	if err := d.Undo(); err != nil {
		t.Fatal(err)
	}
	if got := p.selected(); len(got) != 3 {
		t.Errorf("after undoing the delete: %v, want 3 entities", got)
	}
	if d.appends != 4 {
		t.Errorf("3 changes looked the selection up %d times in all, want 4", d.appends)
	}
}

// TestOverridePathsOfABigSelectionAreKept: the override marks of a selection of several entities were gathered
// entity by entity for every component in every frame (80 % of the editor's time with 100,000 cubes selected);
// now once per selection and scene change.
func TestOverridePathsOfABigSelectionAreKept(t *testing.T) {
	d := doc.New("S", doc.Options{})
	var cubes []ecs.Entity
	for range 100 {
		e, err := d.SpawnCube(ecs.Entity{})
		if err != nil {
			t.Fatal(err)
		}
		cubes = append(cubes, e)
	}
	p := &inspectorPanel{}
	p.setDoc(d)
	d.Select(cubes...)
	o := inspOverrides{p}
	es := p.selected()
	o.OverridePaths(es, "Transform")
	if len(p.prefab.many) != len(cubes) {
		t.Fatalf("the first frame looked at %d entities, want %d", len(p.prefab.many), len(cubes))
	}
	p.prefab.many = nil // what a later frame looks at again
	for range 3 {
		o.OverridePaths(es, "Transform")
	}
	if len(p.prefab.many) != 0 {
		t.Errorf("frames with the same selection looked at %d entities again", len(p.prefab.many))
	}
	d.Select(cubes[:50]...)
	o.OverridePaths(p.selected(), "Transform")
	if len(p.prefab.many) != 50 {
		t.Errorf("after selecting 50: looked at %d entities, want 50", len(p.prefab.many))
	}
}
