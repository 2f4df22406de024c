package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/voltex-editor/voltex/cmd/voltex-editor/internal/guitest"
)

// playCubes opens a copy of cubes.json (returning its path and content), selects a cube and plays until it has
// turned: it returns the probe then, and the cube's rotation before Play.
func playCubes(t *testing.T) (path string, before []byte, e *guitest.Editor, p *guitest.Probe, r0 string) {
	t.Helper()
	path = copyScene(t, "cubes.json")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	e = launchOn(t, path)
	p = clickCube(t, e)
	r0 = p.Inspector["Transform.rotation[1]"].Shown
	e.Key("ctrl+p")
	p = e.WaitProbe(10*time.Second, "the cube spins", func(p *guitest.Probe) bool {
		return p.Playing && p.Inspector["Transform.rotation[1]"].Shown != r0
	})
	return path, before, e, p, r0
}

// TestKeepHandMoveMadeWhilePlaying: while Spin turns the cubes, the user moves one by hand in the inspector; at
// Stop the editor asks which changes to keep, the hand move checked and the spin not; Enter keeps the move as one
// undo step and discards the spin, so the saved file differs from the original in that cube's position only.
func TestKeepHandMoveMadeWhilePlaying(t *testing.T) {
	path, before, e, p, r0 := playCubes(t)
	id := p.Selected[0]
	typeIntoChannel(e, widget(t, p, "Transform.position[1]"), 0, 1, 0, "4")
	e.WaitProbe(10*time.Second, "the cube moved by hand while playing", func(p *guitest.Probe) bool {
		return p.Playing && p.Inspector["Transform.position[1]"].Shown == "4"
	})
	e.Key("ctrl+p")
	p = e.WaitProbe(10*time.Second, "the keep dialog", func(p *guitest.Probe) bool {
		return !p.Playing && p.Modal == "keep:Keep changes made while playing?"
	})
	e.Presented(p)
	docShot(t, e, "keep-play-changes.png")
	if p.Dirty || p.UndoDepth != 0 {
		t.Errorf("before the answer: dirty %v, %d undo steps", p.Dirty, p.UndoDepth)
	}
	e.Key("Return")
	p = e.WaitProbe(10*time.Second, "the hand move kept", func(p *guitest.Probe) bool {
		return p.Modal == "" && p.Dirty && p.Inspector["Transform.position[1]"].Shown == "4"
	})
	if p.UndoDepth != 1 {
		t.Errorf("keeping made %d undo steps, want 1", p.UndoDepth)
	}
	if got := p.Inspector["Transform.rotation[1]"].Shown; got != r0 {
		t.Errorf("the spin was kept: rotation %s, want %s", got, r0)
	}
	e.Key("ctrl+s")
	e.WaitProbe(10*time.Second, "saved", func(p *guitest.Probe) bool { return !p.Dirty })
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	changed := diffLines(before, after)
	if len(changed) != 1 || !strings.Contains(changed[0], `"position": [`) || !strings.Contains(changed[0], `, 4, `) {
		t.Fatalf("want exactly the moved cube's position changed, got %d changed lines:\n%s", len(changed), strings.Join(changed, "\n"))
	}
	// The changed line is the selected cube's.
	_, block, _ := strings.Cut(string(after), `"id": `+strconv.FormatUint(id, 10)+",")
	block, _, _ = strings.Cut(block, `"id": `)
	if _, line, _ := strings.Cut(changed[0], " → "); !strings.Contains(block, line) {
		t.Errorf("the changed line is not cube %d's", id)
	}
}

// TestKeepGizmoMoveMadeWhilePlaying: the move gizmo works while playing; at Stop, Enter keeps the move.
func TestKeepGizmoMoveMadeWhilePlaying(t *testing.T) {
	e := launchOn(t, copyScene(t, "cubes.json"))
	p := clickCube(t, e)
	x0, z0 := p.Inspector["Transform.position[0]"].Shown, p.Inspector["Transform.position[2]"].Shown
	e.Key("ctrl+p")
	p = e.WaitProbe(10*time.Second, "the gizmo while playing", func(p *guitest.Probe) bool { return p.Playing && p.Gizmo != [2]int{} })
	gx, gy := p.Gizmo[0], p.Gizmo[1]
	e.Drag(gx, gy, gx+120, gy+40, 1)
	p = e.WaitProbe(10*time.Second, "moved while playing", func(p *guitest.Probe) bool {
		return p.Inspector["Transform.position[0]"].Shown != x0 || p.Inspector["Transform.position[2]"].Shown != z0
	})
	x1, z1 := p.Inspector["Transform.position[0]"].Shown, p.Inspector["Transform.position[2]"].Shown
	e.Key("ctrl+p")
	e.WaitProbe(10*time.Second, "the keep dialog", func(p *guitest.Probe) bool {
		return !p.Playing && p.Modal == "keep:Keep changes made while playing?"
	})
	e.Key("Return")
	p = e.WaitProbe(10*time.Second, "the move kept", func(p *guitest.Probe) bool { return p.Modal == "" && p.UndoDepth == 1 })
	if x, z := p.Inspector["Transform.position[0]"].Shown, p.Inspector["Transform.position[2]"].Shown; x != x1 || z != z1 {
		t.Errorf("kept position %s, %s; want %s, %s", x, z, x1, z1)
	}
}

// TestKeepStructureChangedWhilePlaying: while Spin turns the cubes, the user adds a Light to one cube in the
// inspector and deletes another in the hierarchy; at Stop the keep dialog lists both as the user's; Enter keeps
// them as one undo step and discards the spin, so the saved file differs from the original in exactly these.
func TestKeepStructureChangedWhilePlaying(t *testing.T) {
	path, before, e, p, _ := playCubes(t)
	lit := p.Selected[0]
	ax, ay := widget(t, p, "add").Center()
	e.Click(ax, ay, 1)
	clickEntry(t, e, "add:Light", ax, ay)
	p = e.WaitProbe(10*time.Second, "a Light added while playing", func(p *guitest.Probe) bool {
		return p.Playing && inspectorShows(p, "Light.") && p.UndoDepth == 0
	})
	var gone string // a cube whose row is on the screen
	hier := p.Panels["Hierarchy"]
	for _, r := range p.Hierarchy {
		if !r.Selected && r.Y > p.HierarchySearch.Y+p.HierarchySearch.H && r.Y+r.H < hier.Y+hier.H {
			gone = r.Name
			break
		}
	}
	p = clickRow(t, e, gone, 0)
	goneID := p.Selected[0]
	e.Key("Delete")
	e.WaitProbe(10*time.Second, "a cube deleted while playing", func(p *guitest.Probe) bool {
		return p.Playing && len(p.Selected) == 0 && !slices.ContainsFunc(p.Hierarchy, func(r guitest.Row) bool { return r.Name == gone })
	})
	e.Key("ctrl+shift+p") // Entity → Create Cube, from the palette
	e.WaitProbe(10*time.Second, "the palette", func(p *guitest.Probe) bool { return p.Panels["Command Palette"].H > 0 && p.TextInput })
	e.Type("create cube")
	e.WaitProbe(10*time.Second, "the query typed", func(p *guitest.Probe) bool { return p.InputPending == 0 })
	e.Key("Return")
	e.WaitProbe(10*time.Second, "the palette closed", func(p *guitest.Probe) bool {
		_, ok := p.Panels["Command Palette"]
		return !ok && p.Playing && p.UndoDepth == 0
	})
	e.Key("ctrl+p")
	p = e.WaitProbe(10*time.Second, "the keep dialog", func(p *guitest.Probe) bool {
		return !p.Playing && p.Modal == "keep:Keep changes made while playing?"
	})
	// (The hierarchy shows the cube created while playing at its end: the deleted cube's row is off the screen.)
	if n := len(entitiesByID(t, before)); p.Entities != n || p.UndoDepth != 0 {
		t.Errorf("Stop did not restore the deleted cube: %d entities, want %d (or made a step: %d)", p.Entities, n, p.UndoDepth)
	}
	e.Presented(p)
	docShot(t, e, "keep-play-structure.png")
	after := keepAndSave(t, e, path, func(p *guitest.Probe) bool {
		return !slices.ContainsFunc(p.Hierarchy, func(r guitest.Row) bool { return r.Name == gone })
	})
	// The file is the original without the deleted cube, with a Light on the lit one and the cube created while
	// playing: nothing else.
	want, got := entitiesByID(t, before), entitiesByID(t, after)
	delete(want, goneID)
	var made []uint64
	for id, x := range got {
		if _, old := want[id]; !old {
			made = append(made, id)
			if c := x["components"].(map[string]any); x["name"] != "Cube" || c["Mesh"] == nil {
				t.Errorf("the entity created while playing is not the cube: %v", x)
			}
			want[id] = x
		}
	}
	if len(made) != 1 {
		t.Errorf("entities created while playing kept: %v, want one cube", made)
	}
	light, ok := got[lit]["components"].(map[string]any)["Light"]
	if !ok {
		t.Fatalf("no Light kept on %d: %v", lit, got[lit])
	}
	want[lit]["components"].(map[string]any)["Light"] = light
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the saved file differs from the original in more than the kept changes:\n%s",
			strings.Join(diffLines(before, after), "\n"))
	}
}

// keepAndSave answers the keep dialog with Enter (Keep selected), checks that keeping made one undo step once kept
// says the changes show, saves (Ctrl+S) and returns the saved file.
func keepAndSave(t *testing.T, e *guitest.Editor, path string, kept func(*guitest.Probe) bool) []byte {
	t.Helper()
	e.Key("Return")
	p := e.WaitProbe(10*time.Second, "the changes kept", func(p *guitest.Probe) bool { return p.Modal == "" && p.Dirty && kept(p) })
	if p.UndoDepth != 1 {
		t.Errorf("keeping made %d undo steps, want 1", p.UndoDepth)
	}
	e.Key("ctrl+s")
	e.WaitProbe(10*time.Second, "saved", func(p *guitest.Probe) bool { return !p.Dirty })
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return after
}

// inspectorShows reports whether the inspector shows a widget whose name starts with prefix.
func inspectorShows(p *guitest.Probe, prefix string) bool {
	_, ok := option(p, prefix)
	return ok
}

// entitiesByID reads a scene file's entities by scene id.
func entitiesByID(t *testing.T, file []byte) map[uint64]map[string]any {
	t.Helper()
	var f struct {
		Entities []map[string]any `json:"entities"`
	}
	d := json.NewDecoder(bytes.NewReader(file))
	d.UseNumber()
	if err := d.Decode(&f); err != nil {
		t.Fatal(err)
	}
	out := map[uint64]map[string]any{}
	for _, e := range f.Entities {
		id, err := strconv.ParseUint(string(e["id"].(json.Number)), 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		out[id] = e
	}
	return out
}

// TestKeepDuplicateReparentAndCreatedWhilePlaying: while Spin turns the cubes, the user duplicates a cube (Ctrl+D),
// drags the copy and a third cube onto another cube in the hierarchy, creates a cube, selects it by clicking its row
// and moves it in the inspector; at Stop the keep dialog lists them as the user's; Enter keeps them as one undo
// step, and the saved file is the original with the copy and the third cube under the other cube and the created
// cube at its new height: nothing else.
func TestKeepDuplicateReparentAndCreatedWhilePlaying(t *testing.T) {
	path, before, e, p, _ := playCubes(t)
	copyID, copyName, movedID, targetID := duplicateOntoAnother(t, e, p)
	createSelectAndMove(t, e)
	e.Key("ctrl+p")
	p = e.WaitProbe(10*time.Second, "the keep dialog", func(p *guitest.Probe) bool {
		return !p.Playing && p.Modal == "keep:Keep changes made while playing?"
	})
	if _, ok := p.Row(copyName); ok || p.UndoDepth != 0 {
		t.Errorf("Stop did not restore the scene (or made a step: %d)", p.UndoDepth)
	}
	e.Presented(p)
	docShot(t, e, "keep-play-duplicate.png")
	after := keepAndSave(t, e, path, func(*guitest.Probe) bool { return true })
	want, got := entitiesByID(t, before), entitiesByID(t, after)
	// The moved cube is under the other one, where the drag put it in the world then (its Transform is the user's).
	parent := json.Number(strconv.FormatUint(targetID, 10))
	if m := got[movedID]; m["parent"] != parent {
		t.Errorf("the moved cube kept: %v, want it under %d", m, targetID)
	} else {
		want[movedID]["parent"], want[movedID]["order"] = parent, m["order"]
		want[movedID]["components"].(map[string]any)["Transform"] = m["components"].(map[string]any)["Transform"]
	}
	made := 0
	for id, x := range got {
		if _, old := want[id]; old {
			continue
		}
		made++
		c := x["components"].(map[string]any)
		switch {
		case id == copyID:
			if x["name"] != copyName || x["parent"] != json.Number(strconv.FormatUint(targetID, 10)) || c["Mesh"] == nil {
				t.Errorf("the copy kept: %v, want %q under %d", x, copyName, targetID)
			}
		case x["name"] == "Cube":
			if pos := c["Transform"].(map[string]any)["position"].([]any); pos[1] != json.Number("4") {
				t.Errorf("the created cube kept at %v, want y 4", pos)
			}
		default:
			t.Errorf("an entity kept that the user did not make: %v", x)
		}
		want[id] = x
	}
	if made != 2 {
		t.Errorf("%d entities made while playing kept, want the copy and the cube", made)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the saved file differs from the original in more than the kept changes:\n%s",
			strings.Join(diffLines(before, after), "\n"))
	}
}

// onScreen returns the rows of the hierarchy that are on the screen.
func onScreen(p *guitest.Probe) []guitest.Row {
	hier := p.Panels["Hierarchy"]
	var out []guitest.Row
	for _, r := range p.Hierarchy {
		if r.Y > p.HierarchySearch.Y+p.HierarchySearch.H && r.Y+r.H < hier.Y+hier.H {
			out = append(out, r)
		}
	}
	return out
}

// duplicateOntoAnother duplicates the selected cube while playing (Ctrl+D) and drags the copy's row onto another
// cube's, then a third cube's row onto it too: it returns the copy's scene id and name, the third cube's scene id
// and the other cube's.
func duplicateOntoAnother(t *testing.T, e *guitest.Editor, p *guitest.Probe) (copyID uint64, copyName string, movedID, targetID uint64) {
	t.Helper()
	src := p.Selected[0]
	var srcName string
	for _, r := range p.Hierarchy {
		if r.Selected {
			srcName = r.Name
		}
	}
	if srcName == "" {
		t.Fatal("the selected cube has no row")
	}
	copyName = srcName + " (1)"
	e.Key("ctrl+d")
	p = e.WaitProbe(10*time.Second, "the cube duplicated while playing", func(p *guitest.Probe) bool {
		r, ok := p.Row(copyName)
		return p.Playing && ok && r.Selected && len(p.Selected) == 1 && p.Selected[0] != src && p.UndoDepth == 0
	})
	copyID = p.Selected[0]
	copyRow, _ := p.Row(copyName)
	var target guitest.Row // another cube whose row is on the screen
	for _, r := range onScreen(p) {
		if r.Name != srcName && r.Name != copyName && r.Depth == 0 {
			target = r
			break
		}
	}
	cx, cy := copyRow.Center()
	tx, ty := target.Center()
	e.Drag(cx, cy, tx, ty, 1)
	p = e.WaitProbe(10*time.Second, "the copy reparented while playing", func(p *guitest.Probe) bool {
		r, ok := p.Row(copyName)
		return p.Playing && ok && r.Depth == 1 && p.UndoDepth == 0
	})
	// And a cube of the scene onto the same one.
	var mover guitest.Row
	for _, r := range onScreen(p) {
		if r.Name != srcName && r.Name != copyName && r.Name != target.Name && r.Depth == 0 {
			mover = r
		}
	}
	target, _ = p.Row(target.Name)
	mx, my := mover.Center()
	tx, ty = target.Center()
	e.Drag(mx, my, tx, ty, 1)
	e.WaitProbe(10*time.Second, "a cube reparented while playing", func(p *guitest.Probe) bool {
		r, ok := p.Row(mover.Name)
		return p.Playing && ok && r.Depth == 1 && p.UndoDepth == 0
	})
	movedID = clickRow(t, e, mover.Name, 0).Selected[0]
	return copyID, copyName, movedID, clickRow(t, e, target.Name, 0).Selected[0]
}

// createSelectAndMove creates a cube while playing (from the palette), selects another row and then the cube's by
// a click, and moves it to y 4 in the inspector.
func createSelectAndMove(t *testing.T, e *guitest.Editor) {
	t.Helper()
	e.Key("ctrl+shift+p") // Entity → Create Cube, from the palette
	e.WaitProbe(10*time.Second, "the palette", func(p *guitest.Probe) bool { return p.Panels["Command Palette"].H > 0 && p.TextInput })
	e.Type("create cube")
	e.WaitProbe(10*time.Second, "the query typed", func(p *guitest.Probe) bool { return p.InputPending == 0 })
	e.Key("Return")
	p := e.WaitProbe(10*time.Second, "a cube created while playing", func(p *guitest.Probe) bool {
		_, palette := p.Panels["Command Palette"]
		_, ok := p.Row("Cube")
		return !palette && ok && p.Playing
	})
	var other guitest.Row
	for _, r := range onScreen(p) {
		if r.Name != "Cube" {
			other = r
		}
	}
	clickRow(t, e, other.Name, 0)
	clickRow(t, e, "Cube", 0) // the selection takes entities made while playing
	p = e.WaitProbe(10*time.Second, "the created cube in the inspector", func(p *guitest.Probe) bool {
		return inspectorShows(p, "Transform.position")
	})
	typeIntoChannel(e, widget(t, p, "Transform.position[1]"), 0, 1, 0, "4")
	e.WaitProbe(10*time.Second, "the created cube moved while playing", func(p *guitest.Probe) bool {
		return p.Playing && p.Inspector["Transform.position[1]"].Shown == "4"
	})
}
