package editor

import (
	"path/filepath"
	"testing"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/voltex-editor/voltex/ecs"
)

// TestGridDialogTitleNamesWhatItSpawns: the grid dialog is titled by what it spawns — cubes, the selected entity
// (by name, following a rename), a prefab (by its path in the scene's folder) — not "Spawn Cube Grid" whatever it
// repeats, and stays one ImGui window (###griddialog) as its title changes.
func TestGridDialogTitleNamesWhatItSpawns(t *testing.T) {
	f := newAppFixture(t, Options{ScenePath: "testdata/solar.json"})
	d := f.a.ws.Doc()
	var sun ecs.Entity
	for _, id := range d.IDs() {
		if e, _ := d.Entity(id); d.Name(e) == "Sun" {
			sun = e
		}
	}
	if sun.IsZero() {
		t.Fatal("no Sun in solar.json")
	}
	d.Selection().Select(sun)
	f.frame()
	f.key(ctrl | key(imgui.KeyG))
	f.frames(3)
	window := func() {
		t.Helper()
		if w := imgui.InternalFindWindowByName(gridWindowID); w == nil || !w.Active() {
			t.Fatalf("the dialog is not the window %s", gridWindowID)
		}
	}
	title := func(want string) {
		t.Helper()
		if f.st.Grid == nil || f.st.Grid.Title != want {
			t.Fatalf("title %+v, want %q", f.st.Grid, want)
		}
		window()
	}
	title("Spawn Cube Grid")
	f.click(t, "Selected entity", f.st.Grid.Fields["source:entity"])
	f.frames(2)
	title("Spawn Grid of Sun")
	if err := d.Rename([]ecs.Entity{sun}, "Star"); err != nil {
		t.Fatal(err)
	}
	f.frames(2)
	title("Spawn Grid of Star")
	f.click(t, "Prefab", f.st.Grid.Fields["source:prefab"])
	f.frames(2)
	files, root := f.a.ws.PrefabChoices()
	if len(files) == 0 {
		t.Fatal("no prefab to choose in ../scenes")
	}
	rel, _ := filepath.Rel(root, files[0])
	title("Spawn Grid of prefab " + filepath.ToSlash(rel))
	f.click(t, "Cubes", f.st.Grid.Fields["source:cubes"])
	f.frames(2)
	title("Spawn Cube Grid")
}
