package doc

import (
	"context"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

func TestOpenAndSaveGiveTheFileBack(t *testing.T) {
	d := openSmall(t)
	src, _ := os.ReadFile("testdata/small.json")
	if got := saved(t, d); got != string(src) {
		t.Fatalf("save after open differs:\n%s", got)
	}
	if d.SceneName() != "Small" || !d.CameraInFile() || d.Camera().Distance != 12 || d.Dirty() || d.Len() != 8 {
		t.Fatalf("name %q camera %v dirty %v len %d", d.SceneName(), d.Camera(), d.Dirty(), d.Len())
	}
	if !eqIDs(d.Selection().IDs(), []uint64{2}) {
		t.Fatalf("selection from the file: %v", d.Selection().IDs())
	}
	if len(d.Warnings()) != 1 || !strings.Contains(d.Warnings()[0].String(), "FutureThing") {
		t.Fatalf("warnings: %v", d.Warnings())
	}
}

func TestSpawnUndoRedo(t *testing.T) {
	d := openSmall(t)
	start := saved(t, d)
	e, err := d.SpawnCube(ent(t, d, 1))
	must(t, err)
	id := d.ID(e)
	if id <= 8 || id > scene.MaxID || parentID(t, d, id) != 1 || !eqIDs(children(t, d, 1), []uint64{2, 3, id}) {
		t.Fatalf("cube id %d parent %d children %v", id, parentID(t, d, id), children(t, d, 1))
	}
	if k := get[scene.SceneID](t, d, d.world, id).Order; k != 3 {
		t.Fatalf("the new last child's order key is %v, want 3 (after A 1 and B 2)", k)
	}
	if !eqIDs(d.Selection().IDs(), []uint64{id}) || d.Name(e) != "Cube" || !d.Dirty() || d.History().UndoLabel() != "Create Cube" {
		t.Fatalf("selection %v name %q dirty %v label %q", d.Selection().IDs(), d.Name(e), d.Dirty(), d.History().UndoLabel())
	}
	after := saved(t, d)
	must(t, d.History().Undo())
	if saved(t, d) != start || d.Dirty() || d.Len() != 8 {
		t.Fatal("undo of spawn did not restore the scene")
	}
	must(t, d.History().Redo())
	if saved(t, d) != after || !d.Dirty() {
		t.Fatal("redo of spawn differs")
	}
	e2, err := d.SpawnEmpty(ecs.Entity{})
	must(t, err)
	if d.ID(e2) <= 8 || d.ID(e2) == id || !d.world.Parent(e2).IsZero() || d.Name(e2) != "Empty" {
		t.Fatalf("empty: id %d", d.ID(e2))
	}
	if _, err := d.Spawn("x", ecs.Entity{}, "", scene.SceneID{ID: 3}); err == nil {
		t.Fatal("spawning with a SceneID value should be refused")
	}
	if _, err := d.Spawn("x", ecs.Entity{}, "", scene.Color{RGBA: [4]float32{float32(nan()), 0, 0, 1}}); err == nil {
		t.Fatal("spawning with NaN should be refused")
	}
}

func nan() float64 { var z float64; return z / z }

func TestDeleteWithChildrenRestoresHierarchyOrderAndReferences(t *testing.T) {
	d := openSmall(t)
	start := saved(t, d)
	must(t, d.Delete(ent(t, d, 2))) // A, with children A1 and A2; Follower refers to A and A1
	if d.Len() != 5 || !eqIDs(children(t, d, 1), []uint64{3}) || len(d.Selection().IDs()) != 0 {
		t.Fatalf("after delete: %d entities, root children %v, selection %v", d.Len(), children(t, d, 1), d.Selection().IDs())
	}
	if f := get[Follow](t, d, d.world, 6); d.world.Alive(f.Target) || d.world.Alive(f.Others[1]) {
		t.Fatal("references to deleted entities still resolve")
	}
	deleted := content(t, d)
	if !strings.Contains(deleted, `"Follow": { "target": 0, "others": [5, 0] }`) {
		t.Fatalf("dangling references should save as 0:\n%s", deleted)
	}
	must(t, d.History().Undo())
	if got := saved(t, d); got != start {
		t.Fatalf("undo of delete is not byte-identical:\n%s", got)
	}
	if !eqIDs(children(t, d, 1), []uint64{2, 3}) || !eqIDs(children(t, d, 2), []uint64{4, 8}) {
		t.Fatalf("order after undo: %v %v", children(t, d, 1), children(t, d, 2))
	}
	if f := get[Follow](t, d, d.world, 6); f.Target != ent(t, d, 2) || f.Others[1] != ent(t, d, 4) {
		t.Fatal("references not restored to the respawned entities")
	}
	if !eqIDs(d.Selection().IDs(), []uint64{2}) {
		t.Fatalf("selection after undo %v", d.Selection().IDs())
	}
	must(t, d.History().Redo())
	if content(t, d) != deleted {
		t.Fatal("redo of delete differs")
	}
	must(t, d.History().Undo())
	// Deleting the middle child keeps the order of the others, and undo puts it back in the middle.
	must(t, d.Delete(ent(t, d, 3), ent(t, d, 3), ent(t, d, 4))) // duplicates and nested are fine
	if !eqIDs(children(t, d, 1), []uint64{2}) || !eqIDs(children(t, d, 2), []uint64{8}) {
		t.Fatalf("after deleting B and A1: %v %v", children(t, d, 1), children(t, d, 2))
	}
	must(t, d.History().Undo())
	if saved(t, d) != start || !eqIDs(children(t, d, 2), []uint64{4, 8}) {
		t.Fatal("undo of a multi-delete differs")
	}
	if err := d.Delete(); err != nil || d.History().Undos() != 0 {
		t.Fatal("an empty delete should do nothing")
	}
}

func TestDuplicateRemapsReferencesAndKeepsParents(t *testing.T) {
	d := openSmall(t)
	start := saved(t, d)
	copies, err := d.Duplicate(ent(t, d, 2), ent(t, d, 6), ent(t, d, 4)) // A (with A1, A2), Follower; A1 is inside A
	must(t, err)
	if len(copies) != 2 || d.Len() != 12 {
		t.Fatalf("%d copies, %d entities", len(copies), d.Len())
	}
	a, f := d.ID(copies[0]), d.ID(copies[1])
	if a <= 8 || f <= 8 || a == f || !eqIDs(d.Selection().IDs(), []uint64{a, f}) {
		t.Fatalf("copy ids %d %d, selection %v", a, f, d.Selection().IDs())
	}
	kids := children(t, d, a)
	if parentID(t, d, a) != 1 || !eqIDs(children(t, d, 1), []uint64{2, 3, a}) || len(kids) != 2 {
		t.Fatalf("copy hierarchy: parent %d, root %v, copy %v", parentID(t, d, a), children(t, d, 1), kids)
	}
	if d.Name(ent(t, d, kids[0])) != "A1" || d.Name(ent(t, d, kids[1])) != "A2" {
		t.Fatal("the copies of A's children are not A1, A2 in order")
	}
	fw := get[Follow](t, d, d.world, f)
	if fw.Target != ent(t, d, a) || fw.Others[0] != ent(t, d, 5) || fw.Others[1] != ent(t, d, kids[0]) {
		t.Fatalf("references of the copy: %v (A copy %v, Solo %v, A1 copy %v)", fw, ent(t, d, a), ent(t, d, 5), ent(t, d, kids[0]))
	}
	if orig := get[Follow](t, d, d.world, 6); orig.Target != ent(t, d, 2) {
		t.Fatal("the original's references changed")
	}
	if d.Name(ent(t, d, kids[1])) != "A2" || !d.world.Has(ent(t, d, kids[1]), cid[scene.Camera](t, d)) {
		t.Fatal("the copy of A2 lost its name or Camera")
	}
	end := saved(t, d)
	must(t, d.History().Undo())
	if saved(t, d) != start {
		t.Fatal("undo of duplicate differs")
	}
	must(t, d.History().Redo())
	if saved(t, d) != end {
		t.Fatal("redo of duplicate differs")
	}
	d.Selection().Select(ent(t, d, 5))
	again, err := d.DuplicateSelection()
	must(t, err)
	if len(again) != 1 || len(children(t, d, d.ID(again[0]))) != 1 {
		t.Fatal("duplicate selection (Solo with its child Mystery)")
	}
	if strings.Count(content(t, d), "FutureThing") != 2 {
		t.Fatal("the unknown component should be copied too")
	}
}

func TestCopyPasteBetweenDocuments(t *testing.T) {
	src := openSmall(t)
	text, err := src.Copy(ent(t, src, 2), ent(t, src, 6))
	must(t, err)
	if !strings.HasPrefix(text, "{\n  \"format\": \"voltex.scene\"") || !strings.Contains(text, `"name": "Clipboard"`) {
		t.Fatalf("clipboard text:\n%s", text)
	}
	if src.History().Undos() != 0 || src.Dirty() {
		t.Fatal("copy changed the document")
	}
	// Another editor process: a new document with other entities.
	d := New("Other", testOpts)
	holder, err := d.SpawnEmpty(ecs.Entity{})
	must(t, err)
	before := saved(t, d)
	pasted, err := d.Paste(context.Background(), text, holder)
	must(t, err)
	if len(pasted) != 2 || d.Len() != 5 {
		t.Fatalf("pasted %d roots, %d entities", len(pasted), d.Len())
	}
	a, f := d.ID(pasted[0]), d.ID(pasted[1])
	hid := d.ID(holder)
	kids := children(t, d, a)
	if parentID(t, d, a) != hid || parentID(t, d, f) != hid || len(kids) != 2 || d.Name(ent(t, d, kids[0])) != "A1" {
		t.Fatalf("pasted ids %d %d; children of A %v", a, f, kids)
	}
	if !eqIDs(children(t, d, hid), []uint64{a, f}) {
		t.Fatalf("children of the holder %v, want the pasted A, Follower in order", children(t, d, hid))
	}
	fw := get[Follow](t, d, d.world, f)
	if fw.Target != ent(t, d, a) || fw.Others[0] != (ecs.Entity{}) || fw.Others[1] != ent(t, d, kids[0]) {
		t.Fatalf("pasted references %v", fw)
	}
	if !eqIDs(d.Selection().IDs(), []uint64{a, f}) || d.History().UndoLabel() != "Paste" {
		t.Fatalf("selection %v label %q", d.Selection().IDs(), d.History().UndoLabel())
	}
	end := saved(t, d)
	must(t, d.History().Undo())
	if saved(t, d) != before {
		t.Fatal("undo of paste differs")
	}
	must(t, d.History().Redo())
	if saved(t, d) != end {
		t.Fatal("redo of paste differs")
	}
	// Pasting twice gives new ids again; a scene file's text pastes too.
	again, err := d.Paste(context.Background(), text, ecs.Entity{})
	must(t, err)
	if id := d.ID(again[0]); id == a || id == f || id == 0 {
		t.Fatalf("second paste id %d", id)
	}
	file, _ := os.ReadFile("testdata/small.json")
	all, err := d.Paste(context.Background(), string(file), ecs.Entity{})
	must(t, err)
	if len(all) != 3 || d.Len() != 17 {
		t.Fatalf("pasting a scene file: %d roots, %d entities", len(all), d.Len())
	}
	// Broken text changes nothing and says where.
	n, v := d.History().Undos(), d.Version()
	_, err = d.Paste(context.Background(), "{\n  \"format\": \"voltex.scene\", \"version\": 1, \"entities\": [ { \"id\": x } ] }", ecs.Entity{})
	if err == nil || !strings.Contains(err.Error(), "clipboard:2:") || d.History().Undos() != n || d.Version() != v {
		t.Fatalf("broken paste: %v", err)
	}
	if txt, err := d.Copy(); txt != "" || err != nil {
		t.Fatal("copy of nothing")
	}
}

func TestReparentAndCycleRefusal(t *testing.T) {
	d := openSmall(t)
	start := saved(t, d)
	must(t, d.Reparent(ent(t, d, 4), ent(t, d, 3))) // B under A1
	if parentID(t, d, 3) != 4 || !eqIDs(children(t, d, 1), []uint64{2}) || d.History().UndoLabel() != "Reparent" {
		t.Fatal("reparent")
	}
	// The world matrix follows the new parent (local transform kept): A1 is at (1,2,0), scale 0.5.
	d.world.PropagateTransforms()
	if got := d.world.WorldMatrix(ent(t, d, 3)).Col(3).Vec3(); got != (mgl32.Vec3{0.5, 2, 0}) {
		t.Fatalf("B's world position %v", got)
	}
	must(t, d.History().Undo())
	if saved(t, d) != start || !eqIDs(children(t, d, 1), []uint64{2, 3}) {
		t.Fatalf("undo of reparent: %v", children(t, d, 1))
	}
	must(t, d.History().Redo())
	must(t, d.History().Undo())
	// Root under its grandchild: refused, nothing recorded.
	n, v := d.History().Undos(), d.Version()
	mustErr(t, d.Reparent(ent(t, d, 4), ent(t, d, 1)), ErrCycle)
	mustErr(t, d.Reparent(ent(t, d, 2), ent(t, d, 2)), ErrCycle)
	if d.History().Undos() != n || d.Version() != v || saved(t, d) != start {
		t.Fatal("a refused reparent changed something")
	}
	// Already there: no step. To the root: the entity becomes a root.
	must(t, d.Reparent(ent(t, d, 1), ent(t, d, 2)))
	if d.History().Undos() != n {
		t.Fatal("a no-op reparent recorded a step")
	}
	must(t, d.Reparent(ecs.Entity{}, ent(t, d, 8), ent(t, d, 4)))
	if parentID(t, d, 8) != 0 || parentID(t, d, 4) != 0 || len(children(t, d, 2)) != 0 {
		t.Fatal("reparent to the root")
	}
	must(t, d.History().Undo())
	if !eqIDs(children(t, d, 2), []uint64{4, 8}) || saved(t, d) != start {
		t.Fatal("undo of reparent to the root")
	}
}

func TestRename(t *testing.T) {
	d := openSmall(t)
	e := ent(t, d, 3)
	must(t, d.Rename([]ecs.Entity{e}, "Bee"))
	if d.Name(e) != "Bee" || d.History().UndoLabel() != "Rename" {
		t.Fatal("rename")
	}
	must(t, d.Rename([]ecs.Entity{e}, "Bee"))
	if d.History().Undos() != 1 {
		t.Fatal("renaming to the same name recorded a step")
	}
	must(t, d.Rename([]ecs.Entity{e}, ""))
	if d.world.Has(e, cid[scene.Name](t, d)) {
		t.Fatal("an empty name should remove the Name")
	}
	must(t, d.History().Undo())
	must(t, d.History().Undo())
	if d.Name(e) != "B" || d.Dirty() {
		t.Fatal("undo of rename")
	}
	must(t, d.SetSceneName("Renamed scene"))
	if d.SceneName() != "Renamed scene" || !d.Dirty() {
		t.Fatal("scene rename")
	}
	must(t, d.History().Undo())
	if d.SceneName() != "Small" || d.Dirty() {
		t.Fatal("undo of scene rename")
	}
}

func TestTransactionIsOneStep(t *testing.T) {
	d := openSmall(t)
	start := saved(t, d)
	tr := cid[ecs.Transform](t, d)
	a, b := ent(t, d, 2), ent(t, d, 3)
	d.BeginEdit("Drag position")
	v0 := d.Version()
	for i := 1; i <= 20; i++ {
		must(t, d.SetField([]ecs.Entity{a, b}, tr, "position[0]", float32(i)/4))
	}
	if d.Version() == v0 || get[ecs.Transform](t, d, d.world, 3).Position[0] != 5 {
		t.Fatal("edits inside a transaction must show at once")
	}
	if d.History().CanUndo() {
		t.Fatal("undo should be disabled during a transaction")
	}
	d.EndEdit()
	if d.History().Undos() != 1 || d.History().UndoLabel() != "Drag position" || !d.Dirty() {
		t.Fatalf("%d steps, label %q", d.History().Undos(), d.History().UndoLabel())
	}
	end := saved(t, d)
	must(t, d.History().Undo())
	if saved(t, d) != start {
		t.Fatal("undo of the drag")
	}
	must(t, d.History().Redo())
	if saved(t, d) != end {
		t.Fatal("redo of the drag")
	}
	// A gizmo drag sets whole Transforms, nested inside another transaction.
	d.BeginEdit("Gizmo")
	d.BeginEdit("inner")
	must(t, d.SetComponents([]ecs.Entity{a, b}, tr, []any{
		ecs.Transform{Position: mgl32.Vec3{9, 9, 9}, Scale: one}, &ecs.Transform{Scale: one}}))
	d.EndEdit()
	if !d.Editing() {
		t.Fatal("the inner EndEdit closed the outer transaction")
	}
	must(t, d.SetComponent([]ecs.Entity{a}, tr, ecs.Transform{Position: mgl32.Vec3{7, 7, 7}, Scale: one}))
	d.EndEdit()
	if d.History().Undos() != 2 || get[ecs.Transform](t, d, d.world, 2).Position != (mgl32.Vec3{7, 7, 7}) {
		t.Fatal("gizmo transaction")
	}
	// A drag that ends where it began records nothing; Cancel puts everything back.
	d.BeginEdit("Wiggle")
	must(t, d.SetField([]ecs.Entity{a}, tr, "position[1]", float32(3)))
	must(t, d.SetField([]ecs.Entity{a}, tr, "position[1]", float32(7)))
	d.EndEdit()
	cur := saved(t, d)
	d.BeginEdit("Cancelled")
	must(t, d.SetField([]ecs.Entity{a, b}, tr, "scale", mgl32.Vec3{2, 2, 2}))
	d.CancelEdit()
	if d.History().Undos() != 2 || saved(t, d) != cur || d.Editing() {
		t.Fatal("no-op or cancelled transaction left traces")
	}
	// SetField outside a transaction is a step of its own; Undo during a drag commits and undoes it.
	must(t, d.SetField([]ecs.Entity{b}, cid[scene.Spin](t, d), "speed", 10))
	if d.History().Undos() != 3 {
		t.Fatal("a lone SetField is one step")
	}
	d.BeginEdit("Drag")
	must(t, d.SetField([]ecs.Entity{b}, cid[scene.Spin](t, d), "speed", 20))
	must(t, d.History().Undo())
	if d.Editing() || get[scene.Spin](t, d, d.world, 3).Speed != 10 || d.History().Undos() != 3 {
		t.Fatal("Undo during a drag")
	}
	// Errors: bad path, wrong type, NaN, entity without the component, SceneID, computed.
	for _, err := range []error{
		d.SetField([]ecs.Entity{a}, tr, "nope", 1),
		d.SetField([]ecs.Entity{a}, tr, "position[0]", "x"),
		d.SetField([]ecs.Entity{a}, tr, "position[0]", nan()),
		d.SetField([]ecs.Entity{ent(t, d, 1)}, cid[scene.Color](t, d), "rgba[0]", 1),
		d.SetField([]ecs.Entity{a}, cid[scene.SceneID](t, d), "id", 50),
		d.SetComponent([]ecs.Entity{a}, cid[ecs.GlobalTransform](t, d), ecs.GlobalTransform{}),
		d.SetComponent([]ecs.Entity{a}, tr, scene.Color{}),
	} {
		if err == nil {
			t.Error("a bad edit was accepted")
		}
	}
	if d.History().Undos() != 3 {
		t.Fatal("bad edits recorded steps")
	}
}

func TestComponentCommands(t *testing.T) {
	d := openSmall(t)
	start := saved(t, d)
	col := cid[scene.Color](t, d)
	root, a, solo := ent(t, d, 1), ent(t, d, 2), ent(t, d, 5)
	// Add to those that lack it, with the default.
	must(t, d.AddComponent([]ecs.Entity{root, a}, col))
	if c := get[scene.Color](t, d, d.world, 1); c.RGBA != [4]float32{1, 1, 1, 1} || get[scene.Color](t, d, d.world, 2).RGBA[1] != 0 {
		t.Fatal("add component")
	}
	must(t, d.History().Undo())
	must(t, d.AddComponentValue([]ecs.Entity{root}, col, &scene.Color{RGBA: [4]float32{0, 0, 1, 1}}))
	if get[scene.Color](t, d, d.world, 1).RGBA[2] != 1 || d.History().UndoLabel() != "Add Color" {
		t.Fatal("add with a value")
	}
	// Reset, paste, remove.
	must(t, d.ResetComponent([]ecs.Entity{root, a, ent(t, d, 3)}, col))
	if get[scene.Color](t, d, d.world, 2).RGBA != [4]float32{1, 1, 1, 1} {
		t.Fatal("reset")
	}
	must(t, d.PasteComponent([]ecs.Entity{a, solo}, col, get[scene.Color](t, d, d.world, 5)))
	must(t, d.PasteComponent([]ecs.Entity{a, solo}, col, scene.Color{RGBA: [4]float32{0, 1, 0, 1}}))
	if d.History().Undos() != 3 {
		t.Fatal("pasting equal values should record nothing the second time")
	}
	must(t, d.RemoveComponent([]ecs.Entity{root, a, ent(t, d, 3)}, col))
	if d.world.Has(a, col) || d.world.Has(root, col) {
		t.Fatal("remove")
	}
	tr := cid[ecs.Transform](t, d)
	must(t, d.RemoveComponent([]ecs.Entity{a}, tr))
	if d.world.Has(a, cid[ecs.GlobalTransform](t, d)) {
		t.Fatal("removing Transform keeps GlobalTransform")
	}
	mustErr(t, d.RemoveComponent([]ecs.Entity{a}, cid[scene.SceneID](t, d)), ErrComponent)
	mustErr(t, d.AddComponent([]ecs.Entity{a}, cid[ecs.GlobalTransform](t, d)), ErrComponent)
	mustErr(t, d.AddComponentValue([]ecs.Entity{a}, col, scene.Mesh{}), ErrComponent)
	// Unknown components can be dropped and come back verbatim.
	unk := cid[scene.Unknown](t, d)
	must(t, d.RemoveComponent([]ecs.Entity{ent(t, d, 7)}, unk))
	if strings.Contains(content(t, d), "FutureThing") {
		t.Fatal("unknown component still saved")
	}
	undoAll(t, d)
	if saved(t, d) != start || d.Dirty() {
		t.Fatal("undo of the component commands")
	}
}

func TestSelection(t *testing.T) {
	d := openSmall(t)
	a, b, c := ent(t, d, 2), ent(t, d, 3), ent(t, d, 5)
	v := d.Selection().Version()
	d.Selection().Select(b, a, b)
	if !eqIDs(d.Selection().IDs(), []uint64{3, 2}) || d.Selection().Version() == v {
		t.Fatal("select")
	}
	d.Selection().Add(c, a)
	d.Selection().Toggle(b)
	if !eqIDs(d.Selection().IDs(), []uint64{2, 5}) || !d.Selection().IsSelected(c) || d.Selection().IsSelected(b) {
		t.Fatalf("add/toggle: %v", d.Selection().IDs())
	}
	if act, ok := d.Selection().Active(); !ok || act != c {
		t.Fatal("active is the last selected")
	}
	d.Selection().Toggle(b)
	d.Selection().Deselect(a)
	if !eqIDs(d.Selection().IDs(), []uint64{5, 3}) || d.Selection().Len() != 2 {
		t.Fatalf("deselect: %v", d.Selection().IDs())
	}
	d.Selection().SelectAll()
	if len(d.Selection().Entities()) != 8 || d.Selection().IDs()[0] != 1 {
		t.Fatal("select all")
	}
	d.Selection().SelectIDs(4, 99)
	if !eqIDs(d.Selection().IDs(), []uint64{4}) || !d.Selection().IsSelectedID(4) {
		t.Fatal("select ids")
	}
	d.Selection().Clear()
	if _, ok := d.Selection().Active(); ok || d.Selection().Len() != 0 {
		t.Fatal("clear")
	}
	// Selection is kept by id across undo and redo of a delete.
	d.Selection().Select(a, c)
	must(t, d.DeleteSelection())
	d.Selection().Select(b)
	must(t, d.History().Undo())
	if !eqIDs(d.Selection().IDs(), []uint64{2, 5}) || d.Selection().Entities()[0] != ent(t, d, 2) {
		t.Fatalf("selection after undo: %v", d.Selection().IDs())
	}
	must(t, d.History().Redo())
	if len(d.Selection().IDs()) != 0 {
		t.Fatal("selection after redo")
	}
}

func TestDirtyFollowsTheSavePoint(t *testing.T) {
	d := openSmall(t)
	e := ent(t, d, 3)
	must(t, d.Rename([]ecs.Entity{e}, "1"))
	must(t, d.Rename([]ecs.Entity{e}, "2"))
	must(t, d.Save(context.Background(), nil))
	if d.Dirty() {
		t.Fatal("dirty after save")
	}
	must(t, d.History().Undo())
	if !d.Dirty() {
		t.Fatal("undo past the save point must be dirty")
	}
	must(t, d.History().Redo())
	if d.Dirty() {
		t.Fatal("redo back to the save point must be clean")
	}
	must(t, d.History().Undo())
	must(t, d.Rename([]ecs.Entity{e}, "3")) // the saved state is now unreachable
	must(t, d.History().Undo())
	must(t, d.History().Undo())
	if !d.Dirty() {
		t.Fatal("the save point was dropped: dirty until saved")
	}
	redoAll(t, d)
	if !d.Dirty() {
		t.Fatal("still dirty")
	}
	must(t, d.Save(context.Background(), nil))
	if d.Dirty() {
		t.Fatal("saved")
	}
	// A new document is clean; its first edit makes it dirty; New never needs a file for undo.
	n := New("", Options{})
	if n.Dirty() || n.SceneName() != DefaultName || n.Title() != DefaultName {
		t.Fatalf("new: %v %q %q", n.Dirty(), n.SceneName(), n.Title())
	}
	_, _ = n.SpawnEmpty(ecs.Entity{})
	if !n.Dirty() || n.Title() != "*"+DefaultName {
		t.Fatal("new document after an edit")
	}
	mustErr(t, n.Save(context.Background(), nil), ErrNoPath)
}

func TestHistoryLimit(t *testing.T) {
	d := New("", Options{MaxHistory: 3})
	for range 5 {
		_, err := d.SpawnEmpty(ecs.Entity{})
		must(t, err)
	}
	if d.History().Undos() != 3 || !d.Dirty() {
		t.Fatal("history limit")
	}
	undoAll(t, d)
	if d.Len() != 2 || !d.Dirty() {
		t.Fatal("the clean state fell off the history: dirty")
	}
	d.History().Clear()
	if d.History().Undos() != 0 || d.History().Redos() != 0 || !d.Dirty() {
		t.Fatal("clear history")
	}
	// The memory bound drops old steps but keeps the newest, however big.
	const budget = 3000
	m := New("", Options{MaxHistoryBytes: budget})
	for range 3 {
		_, err := m.SpawnCube(ecs.Entity{})
		must(t, err)
	}
	if m.History().Undos() != 3 || m.hist.size > budget {
		t.Fatalf("small steps: %d, %d bytes", m.History().Undos(), m.hist.size)
	}
	for range 4 { // 3 → 48 cubes
		m.Selection().SelectAll()
		_, err := m.Duplicate(m.Selection().Entities()...)
		must(t, err)
		if m.hist.size > budget && m.History().Undos() != 1 {
			t.Fatalf("over the bound with %d steps (%d bytes)", m.History().Undos(), m.hist.size)
		}
	}
	if m.History().Undos() != 1 || m.Len() != 48 {
		t.Fatalf("a step over the bound is kept alone: %d steps, %d bytes", m.History().Undos(), m.hist.size)
	}
	must(t, m.History().Undo())
	if m.Len() != 24 || !m.Dirty() {
		t.Fatal("undo of the kept step")
	}
}

// TestDeleteAllOfABigScene: a delete of every entity of a scene big enough to rebuild the scene-id index leaves
// none in it, and its undo and redo bring back the scene and the index as they were.
func TestDeleteAllOfABigScene(t *testing.T) {
	d := New("", Options{})
	p := scene.DefaultGrid()
	p.Count = [3]int{40, 10, 40} // enough values that packOf copies them on several goroutines
	_, _, err := d.SpawnGrid(context.Background(), p, nil)
	must(t, err)
	before, ids := content(t, d), slices.Sorted(maps.Keys(d.byID()))
	if len(ids) != 16000 || !d.bulkRemoval(len(ids)) {
		t.Fatalf("%d entities: not a bulk removal", len(ids))
	}
	for round := range 2 {
		d.Selection().SelectAll()
		must(t, d.DeleteSelection())
		if d.Len() != 0 || len(d.byID()) != 0 {
			t.Fatalf("round %d, deleted: %d entities, %d ids indexed", round, d.Len(), len(d.byID()))
		}
		must(t, d.History().Undo())
		if content(t, d) != before || !slices.Equal(slices.Sorted(maps.Keys(d.byID())), ids) {
			t.Fatalf("round %d, undone: another scene or index", round)
		}
		must(t, d.History().Redo())
		if d.Len() != 0 || len(d.byID()) != 0 {
			t.Fatalf("round %d, redone: %d entities, %d ids indexed", round, d.Len(), len(d.byID()))
		}
		must(t, d.History().Undo())
	}
}

// TestDeleteAllUndoFillsIndexBeside: the undo of a delete of everything fills the scene-id index on a goroutine
// beside the loop; everything that reads it afterwards (look-ups, the selection, the hierarchy's roots, a save's
// check, new ids, further steps) sees it whole, and the race detector sees no access beside the fill.
func TestDeleteAllUndoFillsIndexBeside(t *testing.T) {
	old := asyncIndexFill
	asyncIndexFill = 1000
	t.Cleanup(func() { asyncIndexFill = old })
	d := New("", Options{})
	p := scene.DefaultGrid()
	p.Count = [3]int{80, 1, 80} // enough that the selection looks its ids up in bulk (resolveIDs), not in the index
	_, _, err := d.SpawnGrid(context.Background(), p, nil)
	must(t, err)
	before, ids := content(t, d), slices.Sorted(maps.Keys(d.byID()))
	for round := range 3 {
		d.Selection().SelectAll()
		must(t, d.DeleteSelection())
		must(t, d.History().Undo())
		if d.filling == nil || d.indexLen() != len(ids) {
			t.Fatalf("round %d: the undo did not fill the index beside (filling %v, %d of %d)", round, d.filling != nil,
				d.indexLen(), len(ids))
		}
		// The selection of all comes back without waiting for the fill.
		if sel := d.Selection(); sel.Len() != len(ids) || !sel.IsSelectedID(ids[7]) {
			t.Fatalf("round %d: %d selected after the undo, want %d", round, sel.Len(), len(ids))
		}
		roots := d.Roots()
		if len(roots) != len(ids) {
			t.Fatalf("round %d: %d roots after the undo, want %d", round, len(roots), len(ids))
		}
		roots[0] = ecs.Entity{} // the caller owns the list: the fill reads a copy
		for _, id := range ids {
			if e, ok := d.entity(id); !ok || d.idOf(e) != id {
				t.Fatalf("round %d: id %d does not find its entity after the undo", round, id)
			}
		}
		if d.filling != nil || content(t, d) != before || !slices.Equal(slices.Sorted(maps.Keys(d.byID())), ids) {
			t.Fatalf("round %d: another scene or index after the fill", round)
		}
		switch round {
		case 1: // a step at once after the undo: its new id is not one of those indexed
			d.Selection().SelectAll()
			must(t, d.DeleteSelection())
			must(t, d.History().Undo())
			e, err := d.SpawnCube(ecs.Entity{})
			must(t, err)
			if slices.Contains(ids, d.idOf(e)) || d.Len() != len(ids)+1 {
				t.Fatalf("a cube spawned beside the fill got id %d (taken: %v), %d entities", d.idOf(e),
					slices.Contains(ids, d.idOf(e)), d.Len())
			}
			must(t, d.History().Undo())
		case 2: // redo and a save's check beside the fill
			d.Selection().SelectAll()
			must(t, d.DeleteSelection())
			must(t, d.History().Undo())
			if !d.lendable() {
				t.Fatal("not lendable after the undo: the index was read before its fill ended")
			}
		}
	}
}
