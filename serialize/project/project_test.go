package project_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize/project"
)

func loadGame(t *testing.T) *project.Project {
	t.Helper()
	p, err := project.Load("testdata/game.project.json")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParseGame(t *testing.T) {
	p := loadGame(t)
	if len(p.Components) != 4 || p.Components[0].Name != "Health" || p.Components[1].Name != "Enemy" {
		t.Fatalf("components %v", p.Components)
	}
	w := scene.NewWorld()
	if err := p.Register(w); err != nil {
		t.Fatal(err)
	}
	id, ok := w.ComponentByName("Enemy")
	if !ok {
		t.Fatal("Enemy not registered")
	}
	info := w.ComponentInfo(id)
	s := info.Schema
	f := func(path string) *ecs.Field {
		t.Helper()
		x, err := s.FieldByPath(path)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	if !f("target").IsEntity || f("target").Hints.Tooltip != "Whom it chases, don't forget" {
		t.Errorf("target %+v", f("target"))
	}
	if e := f("team").Enum; len(e) != 3 || e[2] != (ecs.EnumValue{Name: "Enemy", Value: 2}) {
		t.Errorf("team enum %v", e)
	}
	if e := f("mood").Enum; len(e) != 2 || e[1].Value != 5 {
		t.Errorf("mood enum %v", e)
	}
	if r := f("route"); r.Kind != reflect.Slice || r.Elem.Kind != reflect.Struct || len(r.Elem.Fields) != 2 {
		t.Errorf("route %+v", r)
	}
	if !f("notes").Hints.Multiline || !f("tint").Hints.Color || !f("look").Hints.Degrees || !f("model").Hints.Asset {
		t.Error("hints lost")
	}
	if f("tint").Type != reflect.TypeFor[mgl32.Vec4]() || f("look").Type != reflect.TypeFor[mgl32.Vec3]() {
		t.Error("vector types")
	}
	if a := f("stats.allies"); a.Elem.Enum == nil {
		t.Errorf("enum list elements %+v", a.Elem)
	}
	// Defaults.
	def := reflect.ValueOf(s.Default)
	get := func(name string) any { return def.FieldByName(name).Interface() }
	if get("Team").(int32) != 2 || get("Speed").(float32) != 2.5 || get("Model").(string) != "builtin:sphere" ||
		get("Slots").([3]int32) != [3]int32{1, 2, 3} || get("Tint").(mgl32.Vec4) != (mgl32.Vec4{1, 1, 1, 1}) {
		t.Errorf("defaults %+v", s.Default)
	}
	if home := def.FieldByName("Home"); home.FieldByName("Wait").Float() != 4 {
		t.Errorf("home %+v", home)
	}
	hid, _ := w.ComponentByName("Health")
	hinfo := w.ComponentInfo(hid)
	if hinfo.FormerNames[0] != "HP" || reflect.ValueOf(hinfo.Schema.Default).FieldByName("Max").Float() != 100 {
		t.Errorf("health %+v", hinfo)
	}
	if fm, _ := hinfo.Schema.FieldByPath("max"); fm.FormerNames[0] != "maximum" {
		t.Errorf("max former names %v", fm.FormerNames)
	}
	bid, _ := w.ComponentByName("Boss")
	if b := w.ComponentInfo(bid); b.Storage != ecs.SparseSet {
		t.Errorf("boss %+v", b)
	}
	did, _ := w.ComponentByName("DebugNote")
	if !scene.IsEditorOnly(w.ComponentInfo(did)) {
		t.Error("DebugNote is editor-only")
	}
	// Same file, same types: a second world (and a second parse) registers the same types.
	p2 := loadGame(t)
	if p2.Components[1].Type != info.Type {
		t.Error("a second parse built other types")
	}
	mk, err := p2.NewWorld(nil)
	if err != nil {
		t.Fatal(err)
	}
	w2 := mk()
	if id2, _ := w2.ComponentByName("Enemy"); w2.ComponentInfo(id2).Type != info.Type {
		t.Error("NewWorld types")
	}
}

// Components with the same fields still get distinct types.
func TestDistinctTypes(t *testing.T) {
	p, err := project.Parse([]byte(`{"format": "voltex.project", "version": 1, "components": [
		{"name": "A", "fields": [{"name": "v", "type": "float"}]},
		{"name": "B", "fields": [{"name": "v", "type": "float"}]},
		{"name": "TagA", "fields": []},
		{"name": "TagB"}]}`), "p.json")
	if err != nil {
		t.Fatal(err)
	}
	w := scene.NewWorld()
	if err := p.Register(w); err != nil {
		t.Fatal(err)
	}
	seen := map[reflect.Type]bool{}
	for _, c := range p.Components {
		if seen[c.Type] {
			t.Fatalf("%s shares its type", c.Name)
		}
		seen[c.Type] = true
	}
	id, _ := w.ComponentByName("TagA")
	if !w.ComponentInfo(id).IsTag {
		t.Error("a component without fields is a tag")
	}
}

func TestFind(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "levels", "world1")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := project.Find(sub); err != nil || got != "" {
		// A project file in a folder above the temp dir would be found too; there is none on test machines.
		t.Fatalf("Find with none: %q, %v", got, err)
	}
	top := filepath.Join(dir, project.FileName)
	if err := os.WriteFile(top, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := project.FindFor(filepath.Join(sub, "a.json")); got != top {
		t.Fatalf("Find from below: %q", got)
	}
	near := filepath.Join(dir, "levels", project.FileName)
	if err := os.WriteFile(near, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := project.Find(sub); got != near {
		t.Fatalf("the nearest wins: %q", got)
	}
	if err := os.Mkdir(filepath.Join(sub, project.FileName), 0o755); err != nil { // a folder of that name is not a project file
		t.Fatal(err)
	}
	if got, _ := project.Find(sub); got != near {
		t.Fatalf("a folder named like the file: %q", got)
	}
	// From a relative folder the path is relative too, as the user named the scene; above the working
	// folder it is absolute.
	t.Chdir(filepath.Join(dir, "levels"))
	if got, _ := project.FindFor(filepath.Join("world1", "a.json")); got != project.FileName {
		t.Fatalf("relative: %q", got)
	}
	t.Chdir(sub)
	if err := os.Remove(near); err != nil {
		t.Fatal(err)
	}
	if got, _ := project.FindFor("a.json"); got != top {
		t.Fatalf("above the working folder: %q", got)
	}
}

// Every broken declaration is reported with its position.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"syntax", `{"format": "voltex.project",, }`, "p.json:1:29: "},
		{"not object", `[]`, `p.json:1:1: expected a project file (an object), got an array`},
		{"format", `{"format": "voltex.scene", "version": 1}`, `p.json:1:12: format: expected "voltex.project", got the string "voltex.scene"`},
		{"missing format", `{"components": []}`, `p.json:1:1: missing "format"`},
		{"newer", `{"format": "voltex.project", "version": 9}`, "p.json:1:41: version: project file version 9 is newer than this editor supports (1)"},
		{"unknown key", `{"format": "voltex.project", "version": 1, "component": []}`, `p.json:1:44: component: unknown key (did you mean "components"?)`},
		{"bad comp name", `{"format": "voltex.project", "version": 1, "components": [{"name": "health"}]}`,
			`p.json:1:68: components[0].name: "health" is not a valid name`},
		{"dup comp", `{"format": "voltex.project", "version": 1, "components": [{"name": "A"}, {"name": "A"}]}`,
			`p.json:1:83: components[1].name: "A" is declared twice (first at 1:68)`},
		{"builtin type name", `{"format": "voltex.project", "version": 1, "structs": [{"name": "Vec3", "fields": []}]}`,
			`"Vec3" is the name of a built-in type`},
		{"unknown type", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [
{"name": "x", "type": "flaot"}]}]}`, `p.json:2:23: components[0].fields[0].type: unknown type "flaot" (did you mean "float"?)`},
		{"unknown field key", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [
{"name": "x", "type": "float", "maxx": 3}]}]}`, `p.json:2:32: components[0].fields[0].maxx: unknown key (did you mean "max"?)`},
		{"dup field", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [
{"name": "x", "type": "float"}, {"name": "y", "type": "int", "formerNames": ["x"]}]}]}`,
			`p.json:2:33: components[0].fields[1]: field name "x" is already used by field "x"`},
		{"go clash", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [
{"name": "max_speed", "type": "float"}, {"name": "maxSpeed", "type": "int"}]}]}`,
			`both become the Go field MaxSpeed`},
		{"bad default", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [
{"name": "x", "type": "vec3", "default": [1, 2]}]}]}`, `p.json:2:42: components[0].fields[0].default: expected an array of 3 numbers, got an array`},
		{"default out of range", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [
{"name": "x", "type": "float", "min": 0, "max": 1, "default": 2}]}]}`, `p.json:2:63: components[0].fields[0].default: 2 is outside the field's range 0..1`},
		{"enum default", `{"format": "voltex.project", "version": 1, "enums": [{"name": "T", "values": ["Red", "Blue"]}],
"components": [{"name": "A", "fields": [{"name": "t", "type": "T", "default": "Bleu"}]}]}`,
			`p.json:2:79: components[0].fields[0].default: the string "Bleu" is not a value of T (did you mean "Blue"?)`},
		{"entity default", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [
{"name": "e", "type": "entity", "default": 3}]}]}`, `an entity reference can only default to 0 or null`},
		{"recursive", `{"format": "voltex.project", "version": 1, "structs": [{"name": "N", "fields": [
{"name": "kids", "type": "list", "of": "N"}]}]}`, `p.json:2:40: structs[0].fields[0].of: struct N contains itself`},
		{"array len", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [
{"name": "a", "type": "array", "of": "int", "len": 0}]}]}`, `p.json:2:52: components[0].fields[0].len: expected a length within 1..1024`},
		{"array no of", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [
{"name": "a", "type": "list"}]}]}`, `a list needs "of"`},
		{"min on string", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [
{"name": "s", "type": "string", "min": 1}]}]}`, `p.json:2:40: components[0].fields[0].min: "min" applies to numbers, not to string`},
		{"values on float", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [
{"name": "s", "type": "float", "values": ["a"]}]}]}`, `"values" does not apply to type "float"`},
		{"enum dup value", `{"format": "voltex.project", "version": 1, "enums": [{"name": "T", "values": ["A", {"name": "B", "value": 0}]}]}`,
			`p.json:1:84: enums[0].values[1]: B has the same value (0) as A`},
		{"component as type", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [
{"name": "b", "type": "B"}]}, {"name": "B"}]}`, `"B" is a component, not a type`},
		{"both flags", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "editorOnly": true, "transient": true}]}`,
			`either editorOnly`},
		{"empty-struct bomb", `{"format": "voltex.project", "version": 1, "structs": [{"name": "E", "fields": []}], "components": [{"name": "A", "fields": [
{"name": "a", "type": "array", "len": 1024, "of": {"type": "array", "len": 1024, "of": {"type": "array", "len": 1024, "of": "E"}}}]}]}`,
			`takes more than 64 KiB`},
		{"too big", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [
{"name": "a", "type": "array", "of": {"type": "array", "of": "vec4", "len": 1024}, "len": 1024}]}]}`, `takes more than 64 KiB`},
		{"default rounded out of range", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [
{"name": "x", "type": "float", "min": 0.7, "default": 0.7}]}]}`,
			`p.json:2:55: components[0].fields[0].default: 0.7 is 0.699999988079071 as a float, outside the field's range 0.7..∞ (as scenes read it too); write 0.70000005`},
		{"default beyond float32", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [
{"name": "x", "type": "float", "default": 1e39}]}]}`, `expected a number that a float holds (±3.4028235e+38), got the number 1e39`},
		{"former name twice", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "formerNames": ["X"]},
{"name": "B", "formerNames": ["Y", "X"]}]}`,
			`p.json:2:36: components[1].formerNames[1]: former name "X" of B is also a former name of A (at 1:89); a scene's X would become either`},
		{"rename cycle", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "formerNames": ["B"]},
{"name": "B", "formerNames": ["A"]}]}`, `p.json:1:89: components[0].formerNames[0]: renames form a cycle: A was B, B was A`},
		{"longer rename cycle", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "formerNames": ["C"]},
{"name": "B", "formerNames": ["A"]}, {"name": "C", "formerNames": ["B"]}]}`, `renames form a cycle: A was C, C was B, B was A`},
		{"former name in use", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "formerNames": ["B"]},
{"name": "B"}]}`, `p.json:1:89: components[0].formerNames[0]: former name "B" of A is the name of component B (at 2:10)`},
		{"float min beyond float32", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [
{"name": "x", "type": "float", "min": 1e300}]}]}`, `p.json:2:39: components[0].fields[0].min: 1e300 is beyond what a float holds (±3.4028235e+38)`},
		{"vec max beyond float32", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [
{"name": "x", "type": "vec3", "max": -4e38}]}]}`, `components[0].fields[0].max: -4e38 is beyond what a float holds`},
		{"float range without a float32", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [
{"name": "x", "type": "float", "min": 0.70000001, "max": 0.70000002}]}]}`, `p.json:2:1: components[0].fields[0]: the range 0.70000001..0.70000002 holds no float value`},
		{"float range above float32", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [
{"name": "x", "type": "float", "min": 3.4028235e38}]}]}`, `p.json:2:1: components[0].fields[0]: the range 3.4028235e38..∞ holds no float value`},
		{"colour range", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [
{"name": "c", "type": "color", "min": 2}]}]}`, `p.json:2:1: components[0].fields[0]: min 2 is more than max 1`},
		{"float step beyond float32", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [
{"name": "x", "type": "vec2", "step": 1e39}]}]}`, `p.json:2:39: components[0].fields[0].step: 1e39 is beyond what a float holds`},
		{"int step beyond int32", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [
{"name": "n", "type": "int", "step": 3e9}]}]}`, `p.json:2:38: components[0].fields[0].step: 3e9 is beyond what an int holds`},
		{"int range without an integer", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [
{"name": "n", "type": "int", "min": 0.2, "max": 0.8}]}]}`, `p.json:2:1: components[0].fields[0]: the range 0.2..0.8 holds no whole number`},
		{"int min beyond int32", `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [
{"name": "n", "type": "array", "len": 2, "of": "int", "min": 3e9}]}]}`, `components[0].fields[0].min: 3e9 is beyond what an int holds (-2147483648..2147483647)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := project.Parse([]byte(c.src), "p.json")
			var pe *project.Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T), want a *project.Error", err, err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error:\n%v\nwant it to contain:\n%s", err, c.want)
			}
		})
	}
}

// Go types registered under a declared name must agree with the declaration.
func TestRegisterAgainstGo(t *testing.T) {
	src := `{"format": "voltex.project", "version": 1, "components": [{"name": "Stats", "fields": [
{"name": "level", "type": "int", "default": 1}, {"name": "xp", "type": "float", "min": 0}]}]}`
	p, err := project.Parse([]byte(src), "p.json")
	if err != nil {
		t.Fatal(err)
	}
	type Stats struct {
		Level int32   `json:"level"`
		XP    float32 `json:"xp" voltex:"min=0"`
	}
	type BadStats struct {
		Level int32 `json:"level"`
		XP    int32 `json:"xp" voltex:"min=0"`
	}
	w := scene.NewWorld()
	ecs.Register[Stats](w, ecs.WithDefault(Stats{Level: 1}))
	if err := p.Register(w); err != nil {
		t.Fatalf("an equal Go type: %v", err)
	}
	w = scene.NewWorld()
	ecs.Register[Stats](w)
	if err := p.Register(w); err == nil || !strings.Contains(err.Error(), `default of "Level": 1 in the file, 0 in Go`) {
		t.Fatalf("another default: %v", err)
	}
	w = scene.NewWorld()
	ecs.Register[BadStats](w, ecs.WithName("Stats"), ecs.WithDefault(BadStats{Level: 1}))
	if err := p.Register(w); err == nil || !strings.Contains(err.Error(), `p.json:1:59: components[0]: component Stats is also registered in Go`) ||
		!strings.Contains(err.Error(), `field "xp": the file makes it float32, Go has int32`) {
		t.Fatalf("another field type: %v", err)
	}
	if _, ok := w.ComponentByName("Stats"); !ok || len(w.ComponentIDs()) != len(scene.NewWorld().ComponentIDs())+1 {
		t.Fatal("a failed Register registers nothing")
	}
	p2, _ := project.Parse([]byte(`{"format": "voltex.project", "version": 1, "components": [{"name": "Transform"}]}`), "p.json")
	if err := p2.Register(scene.NewWorld()); err == nil || !strings.Contains(err.Error(), "Transform is a built-in component") {
		t.Fatalf("built-in: %v", err)
	}
	if _, err := p2.NewWorld(nil); err == nil {
		t.Fatal("NewWorld checks")
	}
}

type waypoint struct {
	Wait float32 `json:"wait"`
}

func (waypoint) Default() waypoint { return waypoint{Wait: 1} }

type staleWaypoint struct {
	Wait float32 `json:"wait"`
}

// The defaults of list items are part of the checked equivalence: a Go item type whose Default
// differs from the declared struct's (a stale gen output) is named.
func TestRegisterAgainstGoItemDefaults(t *testing.T) {
	p, err := project.Parse([]byte(`{"format": "voltex.project", "version": 1,
  "structs": [{"name": "Waypoint", "fields": [{"name": "wait", "type": "float", "default": 1}]}],
  "components": [{"name": "Patrol", "fields": [{"name": "route", "type": "list", "of": "Waypoint"}]}]}`), "p.json")
	if err != nil {
		t.Fatal(err)
	}
	type Patrol struct {
		Route []waypoint `json:"route"`
	}
	type StalePatrol struct {
		Route []staleWaypoint `json:"route"`
	}
	w := scene.NewWorld()
	ecs.Register[Patrol](w)
	if err := p.Register(w); err != nil {
		t.Fatalf("an equal Go type: %v", err)
	}
	w = scene.NewWorld()
	ecs.Register[StalePatrol](w, ecs.WithName("Patrol"))
	if err := p.Register(w); err == nil || !strings.Contains(err.Error(), `new item of "route[].Wait": 1 in the file, 0 in Go`) {
		t.Fatalf("another item default: %v", err)
	}
}

// A number with no "default" whose range leaves out 0 starts at the nearest end of its range (so
// that a new component, and a scene written with it, is valid); so do vectors' channels and
// arrays' items.
func TestDefaultWithinRange(t *testing.T) {
	p, err := project.Parse([]byte(`{"format": "voltex.project", "version": 1, "components": [{"name": "R", "fields": [
  {"name": "lives", "type": "int", "min": 3}, {"name": "half", "type": "int", "min": 2.5},
  {"name": "depth", "type": "float", "max": -1}, {"name": "size", "type": "vec3", "min": 0.5, "max": 2},
  {"name": "levels", "type": "array", "len": 2, "of": "int", "min": 1}, {"name": "tint", "type": "color", "max": 0.5},
  {"name": "zero", "type": "float", "min": -1, "max": 1}, {"name": "tenths", "type": "float", "min": 0.7},
  {"name": "tiny", "type": "float", "min": 1e-50}, {"name": "below", "type": "vec2", "max": -0.3}]}]}`), "p.json")
	if err != nil {
		t.Fatal(err)
	}
	d := reflect.ValueOf(p.Component("R").Default)
	for name, want := range map[string]any{"Lives": int32(3), "Half": int32(3), "Depth": float32(-1),
		"Size": mgl32.Vec3{0.5, 0.5, 0.5}, "Levels": [2]int32{1, 1}, "Tint": mgl32.Vec4{0.5, 0.5, 0.5, 0.5}, "Zero": float32(0),
		// The nearest float32 inside the range (float32(0.7) is below 0.7, float32(1e-50) is 0).
		"Tenths": float32(0.70000005), "Tiny": float32(1e-45), "Below": mgl32.Vec2{-0.3, -0.3}} {
		if got := d.FieldByName(name).Interface(); got != want {
			t.Errorf("%s defaults to %v, want %v", name, got, want)
		}
	}
}

// A project file that is not a regular file is refused unread: a named pipe (which nothing writes)
// would block every load of a scene below it forever, since the project file is found, not named;
// a symlink to an endless device stops at the size limit.
func TestLoadRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, project.FileName)
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := project.Load(fifo); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), project.FileName+": not a regular file (named pipe)") {
			t.Errorf("a FIFO: %v", err)
		}
	case <-time.After(time.Minute):
		// Unblock the load so the test ends, then fail.
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
		}
		t.Fatal("Load of a FIFO blocked")
	}
	link := filepath.Join(t.TempDir(), project.FileName)
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	if _, err := project.Load(link); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a symlink to /dev/zero: %v", err)
	}
}

// structChain declares n structs, each holding the next, and a component holding the first: values
// of its field nest n+1 levels deep (the last struct holds a number).
func structChain(n int) string {
	var ss []string
	for i := range n {
		ss = append(ss, fmt.Sprintf(`{"name": "S%d", "fields": [{"name": "next", "type": "S%d"}]}`, i, i+1))
	}
	ss = append(ss, fmt.Sprintf(`{"name": "S%d", "fields": [{"name": "v", "type": "float"}]}`, n))
	return `{"format": "voltex.project", "version": 1, "structs": [` + strings.Join(ss, ",\n") +
		`], "components": [{"name": "A", "fields": [{"name": "s", "type": "S0"}]}]}`
}

// Values nest at most 16 levels of structs, arrays and lists, however the levels are declared:
// named structs, inline structs or element types.
func TestNestingLimit(t *testing.T) {
	inline := func(n int) string { // n inline structs inside each other
		s := `{"name": "v", "type": "int"}`
		for range n {
			s = `{"name": "in", "type": "struct", "fields": [` + s + `]}`
		}
		return `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [` + s + `]}]}`
	}
	lists := func(n int) string { // a list of lists … of ints, n levels
		s := `"int"`
		for range n - 1 {
			s = `{"type": "list", "of": ` + s + `}`
		}
		return `{"format": "voltex.project", "version": 1, "components": [{"name": "A", "fields": [{"name": "l", "type": "list", "of": ` + s + `}]}]}`
	}
	for _, c := range []struct {
		name, src, want string
	}{
		{"16 structs", structChain(15), ""},
		{"17 structs", structChain(16), "p.json:17:125: components[0].fields[0].type: values of this field nest 17 levels deep (structs, arrays and lists inside each other); at most 16"},
		{"101 structs", structChain(100), "values of this field nest 101 levels deep"},
		{"16 inline structs", inline(16), ""},
		{"17 inline structs", inline(17), "values of this field nest 17 levels deep"},
		{"16 lists", lists(16), ""},
		{"17 lists", lists(17), "nest at most 16"},
	} {
		t.Run(c.name, func(t *testing.T) { parseAs(t, c.src, c.want) })
	}
}

// parseAs parses src, which must be refused with want in its error, or accepted if want is "".
func parseAs(t *testing.T, src, want string) {
	t.Helper()
	_, err := project.Parse([]byte(src), "p.json")
	switch {
	case want == "" && err != nil:
		t.Fatalf("refused: %v", err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Fatalf("error %v, want %q", err, want)
	}
}

// fanOut is a project whose component holds struct S0, each Si holding fields of S(i+1) (as lists
// when lists is set), the last ints described by desc.
func fanOut(levels, fields int, lists bool, desc string) string {
	var ss []string
	for i := range levels {
		var fs []string
		for j := range fields {
			switch {
			case i == levels-1:
				fs = append(fs, fmt.Sprintf(`{"name": "f%d", "type": "int", "description": %q}`, j, desc))
			case lists:
				fs = append(fs, fmt.Sprintf(`{"name": "f%d", "type": "list", "of": "S%d"}`, j, i+1))
			default:
				fs = append(fs, fmt.Sprintf(`{"name": "f%d", "type": "S%d"}`, j, i+1))
			}
		}
		ss = append(ss, fmt.Sprintf(`{"name": "S%d", "fields": [%s]}`, i, strings.Join(fs, ", ")))
	}
	return `{"format": "voltex.project", "version": 1, "structs": [` + strings.Join(ss, ",\n") +
		`], "components": [{"name": "A", "fields": [{"name": "s", "type": "S0"}]}]}`
}

// Go spells a struct type out with every struct inside it, so structs that hold another several
// times over multiply the text of their types (4 fields, 15 levels: 4^14 copies): such a project
// is refused before its types are built, which panicked (a type name too long) or took minutes and
// gigabytes. A project whose types repeat modestly is accepted.
func TestTypeTextLimit(t *testing.T) {
	for _, c := range []struct {
		name, src, want string
	}{
		{"structs 4 wide, 15 deep", fanOut(15, 4, false, ""), "structs[0]: the Go type of struct S0 is spelt out in more than 32 MiB"},
		{"lists 256 wide, 8 deep", fanOut(8, 256, true, ""), "more than 32 MiB"},
		{"24 lists of a struct described in 1.4 MB", fanOut(2, 24, true, strings.Repeat("d", 60000)), "more than 32 MiB"},
		{"lists 8 wide, 4 deep", fanOut(4, 8, true, "a field"), ""},
		{"14 lists of a struct described in 840 kB", fanOut(2, 14, true, strings.Repeat("d", 60000)), ""},
	} {
		t.Run(c.name, func(t *testing.T) { parseAs(t, c.src, c.want) })
	}
}

// A component's default holds at most MaxTypeSize in its lists' items too (a list default of
// "{}" items of a big struct took a gigabyte from 60 KB of project file, and a copy of it went into
// every entity holding the component), counted where a struct's default is copied as well.
func TestDefaultHeldLimit(t *testing.T) {
	big := `{"name": "Big", "fields": [{"name": "a", "type": "array", "len": 400, "of": "vec4"}]}` // 6,400 bytes
	items := func(n int, item string) string { return strings.TrimSuffix(strings.Repeat(item+", ", n), ", ") }
	project := func(structs, fields string) string {
		return `{"format": "voltex.project", "version": 1, "structs": [` + structs + `], "components": [{"name": "A", "fields": [` + fields + `]}]}`
	}
	ints := `{"name": "S", "fields": [{"name": "l", "type": "list", "of": "int", "default": [` + items(9000, "1") + `]}]}` // 36,000 bytes
	for _, c := range []struct {
		name, src, want string
	}{
		{"20 big items", project(big, `{"name": "l", "type": "list", "of": "Big", "default": [`+items(20, "{}")+`]}`),
			"components[0].fields[0].default: a list of 20 struct Big takes more than 64 KiB; start it shorter"},
		{"a struct with a list default, twice", project(ints, `{"name": "s", "type": "S"}, {"name": "t", "type": "S"}`),
			"components[0].fields[1].type: with this field, the default holds more than 64 KiB in its lists and strings"},
		{"10 big items", project(big, `{"name": "l", "type": "list", "of": "Big", "default": [`+items(10, "{}")+`]}`), ""},
		{"a struct with a list default, once", project(ints, `{"name": "s", "type": "S"}`), ""},
	} {
		t.Run(c.name, func(t *testing.T) { parseAs(t, c.src, c.want) })
	}
}
