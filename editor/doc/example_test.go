package doc_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/editor/doc"
)

// Every edit is an undoable step; undoing back to the saved state is clean again.
func Example() {
	d := doc.New("Demo", doc.Options{})
	cube, _ := d.SpawnCube(ecs.Entity{})
	_ = d.Rename([]ecs.Entity{cube}, "Box")
	fmt.Println(d.Title(), d.Len(), d.Name(cube), d.History().UndoLabel())
	_ = d.History().Undo()
	fmt.Println(d.Name(cube), d.Dirty(), d.History().RedoLabel())
	_ = d.History().Undo()
	fmt.Println(d.Title(), d.Len(), d.Dirty())
	// Output:
	// *Demo 1 Box Rename
	// Cube true Rename
	// Demo 0 false
}

// A drag in the inspector or with a gizmo: many SetField calls between BeginEdit and EndEdit,
// applied live, undone as one step.
func ExampleDocument_BeginEdit() {
	d := doc.New("", doc.Options{})
	cube, _ := d.SpawnCube(ecs.Entity{})
	tr, _ := ecs.ComponentIDOf[ecs.Transform](d.EditWorld())
	transforms := ecs.NewMap[ecs.Transform](d.EditWorld())

	d.BeginEdit("Move X")
	for x := 1; x <= 30; x++ {
		_ = d.SetField([]ecs.Entity{cube}, tr, "position[0]", float32(x)/10)
	}
	d.EndEdit()
	fmt.Println(transforms.Get(cube).Position, d.History().Undos(), d.History().UndoLabel())
	_ = d.History().Undo()
	fmt.Println(transforms.Get(cube).Position, d.History().Undos())
	// Output:
	// [3 0 0] 2 Move X
	// [0 0 0] 1
}

// Copy gives scene JSON for the system clipboard; another editor process pastes it with new ids.
func ExampleDocument_Paste() {
	a := doc.New("A", doc.Options{})
	parent, _ := a.SpawnEmpty(ecs.Entity{})
	_, _ = a.SpawnCube(parent)
	text, _ := a.Copy(parent)

	b := doc.New("B", doc.Options{})
	_, _ = b.SpawnEmpty(ecs.Entity{}) // another "Empty": the pasted one gets a name of its own
	pasted, _ := b.Paste(context.Background(), text, ecs.Entity{})
	kids := b.EditWorld().Children(pasted[0])
	fmt.Println(b.Name(pasted[0]), "holds", b.Name(kids[0]))
	fmt.Println(b.Selection().IDs()[0] == b.ID(pasted[0]), b.History().UndoLabel())
	// Output:
	// Empty (1) holds Cube
	// true Paste
}

// Play mode runs the Spin system on a clone; Stop leaves the edit world as it was.
func ExamplePlay() {
	d := doc.New("", doc.Options{})
	e, _ := d.Spawn("Create Spinner", ecs.Entity{}, "Spinner", ecs.Transform{}.Default(),
		scene.Spin{Axis: mgl32.Vec3{0, 1, 0}, Speed: 90})
	d.PlayMode().Start()
	for range 10 {
		d.PlayMode().Tick(0.05)
	}
	fmt.Println(ecs.NewMap[ecs.Transform](d.World()).Get(e).Rotation)
	d.PlayMode().Stop()
	fmt.Println(ecs.NewMap[ecs.Transform](d.World()).Get(e).Rotation)
	// Output:
	// [0 45 0]
	// [0 0 0]
}

// Spawn Cube Grid is one step however many cubes it makes.
func ExampleDocument_SpawnGrid() {
	d := doc.New("", doc.Options{})
	p := scene.DefaultGrid()
	p.Count = [3]int{30, 1, 30}
	p.Group = "Grid"
	group, cubes, _ := d.SpawnGrid(context.Background(), p, nil)
	fmt.Println(d.Name(group), len(cubes), d.Len(), d.History().Undos())
	_ = d.History().Undo()
	fmt.Println(d.Len())
	// Output:
	// Grid 900 901 1
	// 0
}

// What to do when the file watcher reports that the open file changed.
func ExampleDocument_OnDisk() {
	dir, _ := os.MkdirTemp("", "doc-example")
	defer func() { _ = os.RemoveAll(dir) }() // a temporary folder: what is left of it matters to no one
	d := doc.New("", doc.Options{})
	fmt.Println(d.OnDisk(doc.DiskChanged)) // no file yet
	_ = d.SaveAs(context.Background(), filepath.Join(dir, "level.json"), nil)
	fmt.Println(d.OnDisk(doc.DiskChanged)) // clean: reload
	_, _ = d.SpawnCube(ecs.Entity{})
	fmt.Println(d.OnDisk(doc.DiskChanged)) // unsaved changes: ask
	_ = d.Save(context.Background(), nil)
	fmt.Println(d.OnDisk(doc.DiskRemoved), d.Dirty()) // deleted: warn; Save writes it back
	// Output:
	// none
	// reload
	// ask
	// warn-removed true
}
