package doc

import (
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
	if err := d.Delete(e); err == nil {
		t.Fatal("Delete while playing succeeded")
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
