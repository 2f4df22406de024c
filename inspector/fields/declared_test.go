package fields_test

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/inspector/fields"
	"github.com/voltex-editor/voltex/serialize/project"
)

// Components declared in a project file (reflect.StructOf types) get the same widgets as Go ones, and
// several selected entities show which of their values differ.
func TestDeclaredComponentKinds(t *testing.T) {
	c, w, id := declared(t, `{"format": "voltex.project", "version": 1,
  "enums": [{"name": "Team", "values": ["Red", "Blue"]}],
  "components": [{"name": "Unit", "fields": [
    {"name": "on", "type": "bool"}, {"name": "hp", "type": "int", "min": 0, "max": 9}, {"name": "speed", "type": "float", "step": 0.5},
    {"name": "label", "type": "string"}, {"name": "notes", "type": "string", "multiline": true}, {"name": "model", "type": "asset"},
    {"name": "aim", "type": "vec2"}, {"name": "at", "type": "vec3"}, {"name": "turn", "type": "vec3", "degrees": true},
    {"name": "tint", "type": "color"}, {"name": "team", "type": "Team"}, {"name": "target", "type": "entity"},
    {"name": "slots", "type": "array", "len": 2, "of": "int"}, {"name": "route", "type": "list", "of": "vec3"},
    {"name": "crew", "type": "list", "of": "Team"},
    {"name": "home", "type": "struct", "fields": [{"name": "x", "type": "float"}]},
    {"name": "secret", "type": "int", "hidden": true}, {"name": "fixed", "type": "float", "readOnly": true}]}]}`, "Unit")
	want := map[string]fields.Kind{"on": fields.Bool, "hp": fields.Int, "speed": fields.Float, "label": fields.String,
		"notes": fields.String, "model": fields.Asset, "aim": fields.Vector, "at": fields.Vector, "turn": fields.Euler,
		"tint": fields.Color, "team": fields.Enum, "target": fields.EntityRef, "slots": fields.Array, "route": fields.Slice,
		"crew": fields.Slice, "home": fields.Struct, "secret": fields.Int, "fixed": fields.Float}
	for path, kind := range want {
		f := c.Find(path)
		if f == nil || f.Kind != kind {
			t.Errorf("%s: %v, want %v", path, f, kind)
		}
	}
	if f := c.Find("hp"); f.IMin != 0 || f.IMax != 9 {
		t.Errorf("hp range %d..%d", f.IMin, f.IMax)
	}
	if f := c.Find("notes"); !f.Hints.Multiline {
		t.Error("notes is not multi-line")
	}
	if f := c.Find("team"); len(f.EnumNames) != 2 || f.EnumNames[1] != "Blue" {
		t.Errorf("team names %v", f.EnumNames)
	}
	if f := c.Find("crew"); f.Elem.Kind != fields.Enum {
		t.Errorf("crew elements are %v, want enums", f.Elem.Kind)
	}
	if f := c.Find("route"); f.Elem.Kind != fields.Vector {
		t.Errorf("route elements are %v", f.Elem.Kind)
	}
	if !c.Find("fixed").ReadOnly || !c.Find("secret").Hints.Hidden || c.Find("tint").Label != "Tint" {
		t.Error("read-only, hidden or label lost")
	}
	// Multi-edit: two entities that differ only in speed.
	a, b := w.Spawn(), w.Spawn()
	for _, e := range []ecs.Entity{a, b} {
		if err := w.Add(e, id, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.SetField(b, id, "speed", float32(3)); err != nil {
		t.Fatal(err)
	}
	var s fields.Selection
	var cache fields.Cache
	s.Update(w, []ecs.Entity{a, b}, &cache)
	mixed := setBits(s.Mixed(id))
	if len(mixed) != 1 {
		t.Fatalf("mixed nodes %v, want only speed's", mixed)
	}
}

// The + of a list adds an item that starts from the item type's declared defaults (a Waypoint waits
// 1 second), made valid for the item's hints (a Level at least 1).
func TestNewItemTakesDefaults(t *testing.T) {
	c, _, _ := declared(t, `{"format": "voltex.project", "version": 1,
  "structs": [{"name": "Waypoint", "fields": [{"name": "at", "type": "vec3"}, {"name": "wait", "type": "float", "default": 1}]}],
  "components": [{"name": "Patrol", "fields": [
    {"name": "route", "type": "list", "of": "Waypoint"},
    {"name": "levels", "type": "list", "of": "int", "min": 1},
    {"name": "kinds", "type": "list", "of": {"type": "enum", "values": [{"name": "A", "value": 2}, "B"]}},
    {"name": "tints", "type": "list", "of": "color"}]}]}`, "Patrol")
	if got := c.Find("route").NewItem().FieldByName("Wait").Float(); got != 1 {
		t.Errorf("a new route item waits %v, want the declared default 1", got)
	}
	if got := c.Find("levels").NewItem().Int(); got != 1 {
		t.Errorf("a new level is %v, want 1 (the minimum)", got)
	}
	if got := c.Find("kinds").NewItem().Int(); got != 2 {
		t.Errorf("a new kind is %v, want 2 (A: 0 is not a value)", got)
	}
	if got := c.Find("tints").NewItem().Interface(); got != (mgl32.Vec4{1, 1, 1, 1}) {
		t.Errorf("a new tint is %v, want opaque white (like a new colour field)", got)
	}
}

// declared returns the inspector model of component name of the project file src, a world with
// the project's components and the component's id there.
func declared(t *testing.T, src, name string) (*fields.Component, *ecs.World, ecs.ComponentID) {
	t.Helper()
	p, err := project.Parse([]byte(src), "p.json")
	if err != nil {
		t.Fatal(err)
	}
	mk, err := p.NewWorld(nil)
	if err != nil {
		t.Fatal(err)
	}
	w := mk()
	id, _ := w.ComponentByName(name)
	return fields.New(w.ComponentInfo(id)), w, id
}
