package editor

import (
	"fmt"
	"testing"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/editor/doc"
)

func keepChanges() *doc.PlayChanges {
	return &doc.PlayChanges{Changes: []doc.PlayChange{
		{ID: 2, Component: "Transform", Field: "position", Old: mgl32.Vec3{1, 0, 0}, New: mgl32.Vec3{7, 0.5, 0}, User: true},
		{ID: 3, Component: "Transform", Field: "position", Old: mgl32.Vec3{}, New: mgl32.Vec3{0, 4, 0}, User: true},
		{ID: 3, Component: "Transform", Field: "rotation", Old: mgl32.Vec3{}, New: mgl32.Vec3{0, 36.000004, 0}},
		{ID: 3, Component: "Color", Old: nil, New: struct{ A int }{1}},
		{ID: 4, Moved: true, Parent: 11, User: true},
		{ID: 5, Component: "Spin", Old: struct{ A int }{1}, User: true},
		{ID: 9, Deleted: true, User: true},
		{ID: 11, Created: true, Name: "Box", User: true},
		{ID: 12, Created: true, Name: "Spark", Parent: 3},
		{ID: 13, Moved: true, Parent: 0, From: 3},
	}}
}

// TestKeepDialogRows: two groups (your edits, the systems'), an entity row above its fields, the user's edits
// checked by default (or nothing, by the setting); a group's or entity's checkbox toggles all it covers.
func TestKeepDialogRows(t *testing.T) {
	var kept []doc.PlayChange
	answered := false
	k := newKeepDialog(keepChanges(), true, func(uint64) string { return "Cube" }, func(cs []doc.PlayChange) {
		kept, answered = cs, true
	})
	var got []string
	for r, row := range k.rows {
		got = append(got, fmt.Sprintf("%d %v %s", row.kind, k.rowChecked(r), row.label))
	}
	want := []string{
		"0 true Your edits (6 changes)",
		"1 true Cube (id 2)",
		"2 true Transform.position: [1, 0, 0] → [7, 0.5, 0]",
		"1 true Cube (id 3)",
		"2 true Transform.position: [0, 0, 0] → [0, 4, 0]",
		"1 true Cube (id 4)",
		"2 true Moved under Box (id 11)",
		"1 true Cube (id 5)",
		"2 true Spin: removed",
		"1 true Cube (id 9)",
		"2 true Deleted",
		"1 true Box (id 11)",
		"2 true Created (a root)",
		"0 false Changed by systems (4 changes)",
		"1 false Cube (id 3)",
		"2 false Transform.rotation: [0, 0, 0] → [0, 36, 0]",
		"2 false Color: added",
		"1 false Spark (id 12)",
		"2 false Created under Cube (id 3)",
		"1 false Cube (id 13)",
		"2 false Moved to the roots",
	}
	if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
		t.Fatalf("rows\n%q\nwant\n%q", got, want)
	}
	k.toggle(14) // the systems' changes of entity 3
	k.toggle(1)  // entity 2's edit off
	k.toggle(16) // Color off again
	k.toggle(5)  // entity 4's move off
	k.toggle(7)  // entity 5's removal off
	k.toggle(17) // the entity systems spawned on
	k.answer(0)
	if !answered || len(kept) != 5 || kept[0].Field != "position" || kept[0].ID != 3 || kept[1].Field != "rotation" ||
		!kept[2].Deleted || kept[3].ID != 11 || kept[4].ID != 12 {
		t.Fatalf("kept %+v", kept)
	}
	k.answer(1) // answered once
	if len(kept) != 5 {
		t.Fatal("answered twice")
	}
	k = newKeepDialog(keepChanges(), false, func(uint64) string { return "" }, func(cs []doc.PlayChange) { kept = cs })
	if k.rowChecked(0) || k.rows[1].label != "Entity (id 2)" {
		t.Fatal("the setting off checks nothing")
	}
	k.toggle(0)
	k.answer(1)
	if kept != nil {
		t.Fatal("Discard all kept something")
	}
}

// TestKeepDialogKeys: Enter and Escape press Keep selected.
func TestKeepDialogKeys(t *testing.T) {
	for _, key := range []imgui.Key{imgui.KeyEnter, imgui.KeyKeypadEnter, imgui.KeyEscape} {
		if c := keepKeyChoice(func(k imgui.Key) bool { return k == key }); c != 0 {
			t.Fatalf("key %v pressed button %d", key, c)
		}
	}
	if keepKeyChoice(func(imgui.Key) bool { return false }) != -1 {
		t.Fatal("no key pressed a button")
	}
}
