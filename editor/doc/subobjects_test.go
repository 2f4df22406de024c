package doc

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
)

// TestSubObjectsDoNotHoldTheDocument: the sub-objects share the scene state (core) and each other,
// never the whole Document, so that each can be read and tested on its own.
func TestSubObjectsDoNotHoldTheDocument(t *testing.T) {
	docT := reflect.TypeOf(Document{})
	var holds func(tp reflect.Type, seen map[reflect.Type]bool) bool
	holds = func(tp reflect.Type, seen map[reflect.Type]bool) bool {
		for tp.Kind() == reflect.Pointer || tp.Kind() == reflect.Slice {
			tp = tp.Elem()
		}
		if tp == docT {
			return true
		}
		if tp.Kind() != reflect.Struct || seen[tp] {
			return false
		}
		seen[tp] = true
		for i := range tp.NumField() {
			if holds(tp.Field(i).Type, seen) {
				return true
			}
		}
		return false
	}
	for _, v := range []any{Selection{}, History{}, Play{}, Conflicts{}, Prefabs{}} {
		if holds(reflect.TypeOf(v), map[reflect.Type]bool{}) {
			t.Errorf("%T holds a Document", v)
		}
	}
}

// TestSubObjectsShareTheDocumentsState: a step made through a sub-object is undone through the
// History and shows in the Selection, on the same scene.
func TestSubObjectsShareTheDocumentsState(t *testing.T) {
	d := New("S", Options{})
	e, err := d.SpawnCube(ecs.Entity{})
	if err != nil {
		t.Fatal(err)
	}
	if a, ok := d.Selection().Active(); !ok || a != e {
		t.Fatalf("after Spawn Cube the active entity is %v, %v; want %v", a, ok, e)
	}
	d.PlayMode().Start()
	if err := d.History().Undo(); err == nil {
		t.Fatal("Undo while playing succeeded")
	}
	if d.History().CanUndo() {
		t.Fatal("CanUndo while playing")
	}
	d.PlayMode().Stop()
	if err := d.History().Undo(); err != nil {
		t.Fatal(err)
	}
	if d.Len() != 0 || d.Selection().Len() != 0 || d.History().Redos() != 1 {
		t.Fatalf("after undo: %d entities, %d selected, %d redos", d.Len(), d.Selection().Len(), d.History().Redos())
	}
}

// TestPrefabsBrokenFollowOpenAndReload: the problems of instances left as placeholders are the
// Prefabs' of the document that opened them, and a reload replaces them.
func TestPrefabsBrokenFollowOpenAndReload(t *testing.T) {
	dir := t.TempDir()
	level := filepath.Join(dir, "level.json")
	must(t, os.WriteFile(level, []byte(levelWithTwo), 0o644)) // enemy.json is missing
	d, err := Open(context.Background(), level, testOpts, nil)
	must(t, err)
	if len(d.Prefabs().Broken()) == 0 {
		t.Fatal("opened without its prefab: no broken instances")
	}
	must(t, os.WriteFile(filepath.Join(dir, "enemy.json"), []byte(enemyPrefab), 0o644))
	must(t, d.Reload(context.Background(), nil))
	if b := d.Prefabs().Broken(); len(b) != 0 {
		t.Fatalf("reloaded with its prefab: broken %v", b)
	}
}
