package doc

import (
	"context"
	"github.com/voltex-editor/voltex/ecs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/serialize/project"
)

const retypeV1 = `{"format": "voltex.project", "version": 1, "components": [
  {"name": "Health", "fields": [{"name": "current", "type": "float", "default": 100}, {"name": "max", "type": "float", "default": 100}]}]}`

// optsOf returns document options whose worlds have the components of project file text src.
func optsOf(t *testing.T, src string) Options {
	t.Helper()
	p, err := project.Parse([]byte(src), "voltex.project.json")
	if err != nil {
		t.Fatal(err)
	}
	mk, err := p.NewWorld(nil)
	if err != nil {
		t.Fatal(err)
	}
	return Options{NewWorld: mk}
}

func TestRetype(t *testing.T) {
	path := filepath.Join(t.TempDir(), "level.json")
	if err := os.WriteFile(path, []byte(`{"format": "voltex.scene", "version": 2, "entities": [
  {"id": 1, "name": "Hero", "order": 1, "components": {"Health": {"current": 80, "max": 120}}},
  {"id": 2, "name": "Box", "order": 2, "components": {}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := Open(context.Background(), path, optsOf(t, retypeV1), nil)
	must(t, err)
	hero, _ := d.Entity(1)
	d.Selection().Select(hero)

	// The same declarations again: nothing changes, the document stays clean.
	if _, err := d.Retype(context.Background(), optsOf(t, retypeV1), false); err != nil || d.Dirty() {
		t.Fatalf("same project: %v, dirty %v", err, d.Dirty())
	}
	// A field added (with a default) and the component renamed: the values move over and the document
	// is dirty (its file still says Health); the selection stays.
	v2 := strings.Replace(retypeV1, `{"name": "Health", "fields": [`,
		`{"name": "Vitality", "formerNames": ["Health"], "fields": [{"name": "regen", "type": "float", "default": 2}, `, 1)
	if _, err := d.Retype(context.Background(), optsOf(t, v2), false); err != nil {
		t.Fatal(err)
	}
	w := d.World()
	vit, ok := w.ComponentByName("Vitality")
	hero, _ = d.Entity(1)
	if !ok || !d.Dirty() || len(d.Selection().IDs()) != 1 || d.Selection().IDs()[0] != 1 {
		t.Fatalf("after the rename: registered %v, dirty %v, selection %v", ok, d.Dirty(), d.Selection().IDs())
	}
	for field, want := range map[string]float32{"current": 80, "max": 120, "regen": 2} {
		if v, _ := w.GetField(hero, vit, field); v != want {
			t.Errorf("%s = %v, want %v", field, v, want)
		}
	}
	// The clipboard and new worlds use the new types too.
	text, err := d.Copy(hero)
	must(t, err)
	if !strings.Contains(text, `"Vitality": { "regen": 2, "current": 80, "max": 120 }`) {
		t.Fatalf("copy:\n%s", text)
	}
	// A field removed: the value would be lost, so Retype refuses and changes nothing ...
	v3 := strings.Replace(v2, `, {"name": "max", "type": "float", "default": 100}`, "", 1)
	before := content(t, d)
	_, err = d.Retype(context.Background(), optsOf(t, v3), false)
	if err == nil || !strings.Contains(err.Error(), `Vitality.max: unknown field`) {
		t.Fatalf("a removed field: %v", err)
	}
	if content(t, d) != before {
		t.Fatal("a refused Retype changed the document")
	}
	// ... unless told to drop it.
	warnings, err := d.Retype(context.Background(), optsOf(t, v3), true)
	if err != nil || len(warnings) != 1 || !strings.Contains(warnings[0].String(), "Vitality.max: unknown field") {
		t.Fatalf("lossy: %v %v", err, warnings)
	}
	if d.History().CanUndo() {
		t.Fatal("the history holds values of the old types: it is cleared")
	}
}

// Copy and paste carry declared components, with references between the copied entities remapped to
// the pasted ones.
func TestCopyPasteDeclared(t *testing.T) {
	opts := optsOf(t, `{"format": "voltex.project", "version": 1, "components": [
  {"name": "Unit", "fields": [{"name": "target", "type": "entity"}, {"name": "speed", "type": "float", "default": 2}]}]}`)
	d := New("", opts)
	a, err := d.SpawnEmpty(ecs.Entity{})
	must(t, err)
	b, err := d.SpawnEmpty(ecs.Entity{})
	must(t, err)
	unit, _ := d.World().ComponentByName("Unit")
	must(t, d.AddComponent([]ecs.Entity{a, b}, unit))
	must(t, d.SetField([]ecs.Entity{a}, unit, "target", b))
	must(t, d.SetField([]ecs.Entity{b}, unit, "speed", float32(7)))
	text, err := d.Copy(a, b)
	must(t, err)
	pasted, err := d.Paste(context.Background(), text, ecs.Entity{})
	must(t, err)
	if len(pasted) != 2 {
		t.Fatalf("pasted %d entities", len(pasted))
	}
	w := d.World()
	pa, pb := pasted[0], pasted[1]
	if v, _ := w.GetField(pa, unit, "speed"); v == float32(7) {
		pa, pb = pb, pa // the copy of b is the one going at 7
	}
	ta, _ := w.GetField(pa, unit, "target")
	sb, _ := w.GetField(pb, unit, "speed")
	if ta != pb || sb != float32(7) {
		t.Fatalf("pasted: target %v (want the pasted %v), speed %v", ta, pb, sb)
	}
	must(t, d.History().Undo())
	if d.Len() != 2 {
		t.Fatalf("undoing the paste left %d entities", d.Len())
	}
}
