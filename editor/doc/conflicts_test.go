package doc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
)

// conflictedScene is what `voltex-editor merge` leaves after conflicting merges of every kind.
const conflictedScene = `{
  "format": "voltex.scene",
  "version": 2,
  "name": "Ours",
  "editor": {
    "camera": { "pivot": [0, 0, 0], "yaw": 30, "pitch": -25, "distance": 40 },
    "conflicts": [{ "path": "scene.name", "base": "\"S\"", "ours": "\"Ours\"", "theirs": "\"Theirs\"" }]
  },
  "entities": [
    {
      "id": 1,
      "name": "Root",
      "order": 1,
      "components": {
        "MergeConflicts": { "items": [{ "path": "components.Transform.position", "base": "[0, 0, 0]", "ours": "[1, 0, 0]", "theirs": "[2, 0, 0]" }, { "path": "name", "base": "\"R\"", "ours": "\"Root\"", "theirs": "\"Racine\"" }] },
        "Transform": { "position": [1, 0, 0], "rotation": [0, 0, 0], "scale": [1, 1, 1] }
      }
    },
    {
      "id": 2,
      "name": "Kid",
      "parent": 1,
      "order": 1,
      "components": {
        "MergeConflicts": { "items": [{ "path": "place", "base": "{ \"parent\": 1, \"order\": 2 }", "ours": "{ \"parent\": 1, \"order\": 1 }", "theirs": "{ \"parent\": 0, \"order\": 5 }" }] }
      }
    },
    {
      "id": 3,
      "name": "Gone",
      "order": 2,
      "components": {
        "MergeConflicts": { "items": [{ "path": "entity", "base": "present", "ours": "deleted", "theirs": "present" }] }
      }
    },
    {
      "id": 4,
      "name": "Spinner",
      "order": 3,
      "components": {
        "Follow": { "target": 1, "others": [] },
        "MergeConflicts": { "items": [{ "path": "components.Spin", "base": "", "ours": "", "theirs": "{ \"axis\": [0, 1, 0], \"speed\": 7 }" }, { "path": "components.Follow.target", "base": "0", "ours": "1", "theirs": "2" }] }
      }
    },
    {
      "id": 5,
      "name": "Future",
      "order": 4,
      "components": {
        "Gadget": { "level": 1, "mode": "a" },
        "MergeConflicts": { "items": [{ "path": "components.Gadget.level", "base": "0", "ours": "1", "theirs": "2" }] }
      }
    }
  ]
}
`

func openText(t *testing.T, text string) *Document {
	t.Helper()
	path := filepath.Join(t.TempDir(), "merged.json")
	must(t, os.WriteFile(path, []byte(text), 0o644))
	d, err := Open(context.Background(), path, testOpts, nil)
	must(t, err)
	return d
}

func TestResolveConflicts(t *testing.T) {
	d := openText(t, conflictedScene)
	start := content(t, d)
	if start != conflictedScene {
		t.Fatalf("the conflicted scene does not round-trip:\n%s", start)
	}
	all := d.Conflicts().List()
	if len(all) != 8 || all[0].Entity != 0 || all[0].Path != "scene.name" || all[1].Entity != 1 || all[7].Entity != 5 {
		t.Fatalf("conflicts %+v", all)
	}
	if !d.Conflicts().Has(ent(t, d, 1)) || len(d.Conflicts().Of(ent(t, d, 4))) != 2 {
		t.Fatal("Conflicts.Has / Conflicts.Of")
	}
	steps := []struct {
		id    uint64
		path  string
		how   Resolution
		check func() bool
	}{
		{1, "components.Transform.position", UseTheirs, func() bool {
			return get[ecs.Transform](t, d, d.world, 1).Position == mgl32.Vec3{2, 0, 0} && len(d.Conflicts().Of(ent(t, d, 1))) == 1
		}},
		{1, "name", KeepEdited, func() bool { return d.Name(ent(t, d, 1)) == "Root" && !d.Conflicts().Has(ent(t, d, 1)) }},
		{2, "place", UseTheirs, func() bool { return parentID(t, d, 2) == 0 && get[scene.SceneID](t, d, d.world, 2).Order == 5 }},
		{4, "components.Spin", UseTheirs, func() bool { return get[scene.Spin](t, d, d.world, 4).Speed == 7 }},
		{4, "components.Follow.target", UseTheirs, func() bool { return get[Follow](t, d, d.world, 4).Target == ent(t, d, 2) }},
		{5, "components.Gadget.level", UseTheirs, func() bool {
			u := get[scene.Unknown](t, d, d.world, 5)
			return len(u.Components) == 1 && u.Components[0].JSON == `{ "level": 2, "mode": "a" }`
		}},
		{0, "scene.name", UseTheirs, func() bool { return d.SceneName() == "Theirs" && len(d.Conflicts().Scene()) == 0 }},
		{3, "entity", UseOurs, func() bool { _, ok := d.Entity(3); return !ok }},
	}
	for i, s := range steps {
		before := content(t, d)
		must(t, d.Conflicts().Resolve(s.id, s.path, s.how))
		if !s.check() || d.History().UndoLabel() != s.how.String() {
			t.Fatalf("step %d (%d %s %v): wrong result, label %q\n%s", i, s.id, s.path, s.how, d.History().UndoLabel(), content(t, d))
		}
		after := content(t, d)
		must(t, d.History().Undo())
		if content(t, d) != before {
			t.Fatalf("step %d: undo differs", i)
		}
		must(t, d.History().Redo())
		if content(t, d) != after {
			t.Fatalf("step %d: redo differs", i)
		}
	}
	if n := len(d.Conflicts().List()); n != 0 {
		t.Fatalf("%d conflicts left", n)
	}
	must(t, d.Save(context.Background(), nil))
	data, _ := os.ReadFile(d.Path())
	if strings.Contains(string(data), "MergeConflicts") || strings.Contains(string(data), "conflicts") {
		t.Fatalf("records left in the saved file:\n%s", data)
	}
	if _, err := serialize.ValidateFile(context.Background(), d.Path(), serialize.LoadOptions{NewWorld: testWorld}); err != nil {
		t.Fatalf("validate after resolving everything: %v", err)
	}
	undoAll(t, d)
	if content(t, d) != start {
		t.Fatal("undo all does not give the conflicted scene back")
	}
	// Errors change nothing.
	n := d.History().Undos()
	mustErr(t, d.Conflicts().Resolve(1, "no such path", UseOurs), ErrNoConflict)
	mustErr(t, d.Conflicts().Resolve(99, "name", UseOurs), ErrNoEntity)
	if d.History().Undos() != n {
		t.Fatal("a failed resolve made a step")
	}
}

// TestResolveRefusesWhatCannotBeApplied: theirs' place under an entity that is gone.
func TestResolveRefusesWhatCannotBeApplied(t *testing.T) {
	d := openText(t, strings.Replace(conflictedScene, `\"parent\": 0, \"order\": 5`, `\"parent\": 77, \"order\": 5`, 1))
	before := content(t, d)
	if err := d.Conflicts().Resolve(2, "place", UseTheirs); err == nil || !strings.Contains(err.Error(), "parent 77 is not in the scene") {
		t.Fatalf("got %v", err)
	}
	if content(t, d) != before || d.History().Undos() != 0 {
		t.Fatal("a refused resolve changed the scene")
	}
}
