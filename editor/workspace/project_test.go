package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/serialize"
)

func TestLoadProject(t *testing.T) {
	dir := t.TempDir()
	scene := filepath.Join(dir, "levels", "one.json")
	must(t, os.MkdirAll(filepath.Dir(scene), 0o755))
	base := doc.Options{}

	// No project file: the base options.
	if o, st := loadProject(base, scene); o.NewWorld != nil || st.path != "" {
		t.Fatalf("no project file: %+v", st)
	}
	// One in a folder above: its components are registered.
	pf := filepath.Join(dir, "voltex.project.json")
	must(t, os.WriteFile(pf, []byte(`{"format": "voltex.project", "version": 1, "components": [{"name": "Loot", "fields": [{"name": "gold", "type": "int"}]}]}`), 0o644))
	o, st := loadProject(base, scene)
	if st.path != pf || st.components != 1 || len(st.problems) != 0 || o.NewWorld == nil {
		t.Fatalf("project file: %+v", st)
	}
	if _, ok := o.NewWorld().ComponentByName("Loot"); !ok {
		t.Fatal("Loot is not registered")
	}
	// A broken one: the base options and its problems with positions.
	must(t, os.WriteFile(pf, []byte(`{"format": "voltex.project", "version": 1, "components": [{"name": "loot"}]}`), 0o644))
	o, st = loadProject(base, scene)
	if o.NewWorld != nil || len(st.problems) != 1 || !strings.HasPrefix(st.problems[0].String(), pf+":1:68: components[0].name: ") {
		t.Fatalf("broken project file: %+v", st)
	}
	if text, bad := (&Workspace{project: st}).ProjectStatus(); !bad || !strings.Contains(text, "has problems: built-in components only") {
		t.Fatalf("status %q", text)
	}
}

// A game's own editor (Options.NewWorld: its Go components) with a broken project file keeps the game's Go
// components as well as the built-in ones, and says so: "built-in components only" would be wrong there.
func TestBrokenProjectWordsForGoGames(t *testing.T) {
	st := projectState{path: "/p/voltex.project.json", problems: []serialize.Problem{{File: "voltex.project.json", Line: 1, Col: 2, Msg: "x"}}}
	w := &Workspace{project: st}
	w.opts.NewWorld = scene.NewWorld
	if text, _ := w.ProjectStatus(); !strings.Contains(text, "has problems: built-in and Go components only") {
		t.Fatalf("status %q", text)
	}
}
