package doc

import (
	"context"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

// TestColumnFieldEditIsPerEntityEdit runs the same field edits on every entity of a 400-cube grid
// as column commands and, in a second document, entity by entity (compCmd): the same scenes after
// each edit, undo and redo (also of an edit whose entities were deleted and brought back since, and
// of one that another edit joined), no step for an edit that changes nothing, Escape puts the values
// back, and the column command holds under a third of the per-entity one's bytes.
func TestColumnFieldEditIsPerEntityEdit(t *testing.T) {
	newGrid := func() *Document {
		d := New("", Options{})
		scene.SeedIDs(d.EditWorld(), 5)
		d.takenSet = false
		p := grid100k("")
		p.Count = [3]int{10, 10, 4}
		p.Spin = nil
		_, _, err := d.SpawnGrid(context.Background(), p, nil)
		must(t, err)
		d.History().Clear()
		return d
	}
	type result struct {
		scenes []string
		undos  []int
		first  command
	}
	script := func(d *Document) result {
		var r result
		note := func() {
			r.scenes = append(r.scenes, content(t, d))
			r.undos = append(r.undos, d.History().Undos())
		}
		tr, _ := ecs.ComponentIDOf[ecs.Transform](d.EditWorld())
		d.Selection().SelectAll()
		all := d.Selection().Entities()
		note()
		// Typed as the inspector applies it: each character, then Enter.
		d.BeginEdit("Edit Transform.position")
		for _, v := range []float64{7, 7, 7.2, 7.25} {
			must(t, d.SetField(all, tr, "position[0]", v))
		}
		must(t, d.SetField(all, tr, "scale[1]", float32(3)))
		d.EndEdit()
		r.first = d.History().steps[d.History().pos-1].cmd
		note()
		must(t, d.History().Undo())
		note()
		must(t, d.History().Redo())
		note()
		// Deleted and brought back: new handles.
		must(t, d.DeleteSelection())
		must(t, d.History().Undo())
		must(t, d.History().Undo())
		note()
		must(t, d.History().Redo())
		note()
		all = d.Selection().Entities()
		// Nothing changes: no step.
		d.BeginEdit("Edit Transform.scale")
		must(t, d.SetField(all, tr, "scale[1]", 3))
		d.EndEdit()
		note()
		// Escape.
		d.BeginEdit("Edit Transform.position")
		must(t, d.SetField(all, tr, "position[2]", -4))
		d.CancelEdit()
		note()
		// Another edit joins a column edit.
		d.BeginEdit("Drag")
		must(t, d.SetField(all, tr, "position[2]", 5))
		moved := ecs.Transform{}.Default()
		moved.Position = mgl32.Vec3{1, 2, 3}
		must(t, d.SetComponent(all[:3], tr, moved))
		must(t, d.SetField(all, tr, "position[1]", 6))
		d.EndEdit()
		note()
		must(t, d.History().Undo())
		note()
		must(t, d.History().Redo())
		note()
		return r
	}
	defer func(n int) { columnMin = n }(columnMin)
	columnMin = 256
	col := script(newGrid())
	columnMin = 1 << 30
	per := script(newGrid())
	if _, ok := col.first.(*fieldCmd); !ok {
		t.Fatalf("the field edit of 400 entities is a %T, want a column command", col.first)
	}
	if _, ok := per.first.(*compCmd); !ok {
		t.Fatalf("the reference edit is a %T", per.first)
	}
	for i := range col.scenes {
		if col.scenes[i] != per.scenes[i] || col.undos[i] != per.undos[i] {
			t.Fatalf("after step %d: the column edits give %d undos and\n%.1500s\nentity by entity %d undos and\n%.1500s",
				i, col.undos[i], col.scenes[i], per.undos[i], per.scenes[i])
		}
	}
	if col.scenes[1] == col.scenes[0] || col.scenes[2] != col.scenes[0] || col.scenes[3] != col.scenes[1] {
		t.Fatal("the edit, its undo and its redo do not show in the scene")
	}
	if c, p := col.first.size(), per.first.size(); c*3 > p {
		t.Fatalf("the column command holds %d bytes, the per-entity one %d", c, p)
	}
}
