package serialize

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/atomicfile"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

func loadString(t testing.TB, src string) (*Scene, error) {
	t.Helper()
	return Load(context.Background(), strings.NewReader(src), LoadOptions{File: "t.json", NewWorld: testWorld})
}

// problemsText is an error's problems one per line (or the error itself).
func problemsText(err error) string {
	if err == nil {
		return "<nil>"
	}
	var lines []string
	for _, p := range ProblemsOf(err) {
		lines = append(lines, p.String())
	}
	return strings.Join(lines, "\n")
}

// TestBrokenFile: every problem of testdata/broken.json is reported with the
// line:col of the offending value (checked by hand) and its JSON path.
func TestBrokenFile(t *testing.T) {
	_, err := LoadFile(context.Background(), "testdata/broken.json", LoadOptions{})
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("not an *Error: %v", err)
	}
	golden(t, "testdata/broken.errors", []byte(problemsText(err)+"\n"))
	warnings := 0
	for _, p := range e.Problems {
		if p.Line == 0 || p.File != "testdata/broken.json" {
			t.Errorf("problem without a position: %v", p)
		}
		if p.Warning {
			warnings++
		}
	}
	if warnings != 1 || len(e.Problems) < 14 {
		t.Errorf("%d problems, %d warnings", len(e.Problems), warnings)
	}
}

const sceneHead = `{"format": "voltex.scene", "version": 1, "entities": [`

func TestLoadProblems(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"newer version", `{"format": "voltex.scene", "version": 3, "entities": []}`,
			"t.json:1:39: version: scene version 3 is newer than this editor supports (2)"},
		{"not a scene", `{"a": 1}`, "t.json:1:2: unknown key \"a\" (a scene has format, version, name, editor and entities)\n" +
			"t.json:1:1: this is not a scene file: it has no \"format\": \"voltex.scene\" (nor the \"entities\" of a version 0 scene)"},
		{"kinds", sceneHead + `{"id": 1, "components": {"Kinds": {"b": 1, "i8": 300, "u16": -1, "i": 1.5, "s": null, "arr": [1], "sl": {}, "nested": {"a": "x", "tags": [1]}, "ref": -2, "v": [0, 11, 0]}}}]}`,
			`t.json:1:95: entities[0].components.Kinds.b: expected true or false, got the number 1
t.json:1:104: entities[0].components.Kinds.i8: 300 is out of range for int8 (-128..127)
t.json:1:116: entities[0].components.Kinds.u16: -1 is out of range for uint16 (0..65535)
t.json:1:125: entities[0].components.Kinds.i: expected an integer, got 1.5
t.json:1:135: entities[0].components.Kinds.s: expected a string, got null
t.json:1:148: entities[0].components.Kinds.arr: expected 2 items, got 1
t.json:1:159: entities[0].components.Kinds.sl: expected an array, got an object
t.json:1:179: entities[0].components.Kinds.nested.a: expected a number, got the string "x"
t.json:1:193: entities[0].components.Kinds.nested.tags[0]: expected a string, got the number 1
t.json:1:205: entities[0].components.Kinds.ref: expected an entity id (0 for none), got -2
t.json:1:218: entities[0].components.Kinds.v[1]: 11 is outside the allowed range -10..10`},
		{"component not an object", sceneHead + `{"id": 1, "components": {"Spin": 1, "Other": [1]}}]}`,
			"t.json:1:88: entities[0].components.Spin: expected an object, got the number 1\n" +
				"t.json:1:100: entities[0].components.Other: a component must be an object, not an array\n" +
				"t.json:1:91: warning: entities[0].components.Other: unknown component \"Other\" (1 entity): kept as it is and written back on save"},
		{"duplicate component and field", sceneHead + `{"id": 1, "components": {"Spin": {"speed": 1, "speed": 2}, "Spin": {}}}]}`,
			"t.json:1:101: entities[0].components.Spin.speed: duplicate key (first at 1:89)\n" +
				"t.json:1:114: entities[0].components.Spin: duplicate key (first at 1:80)"},
		{"reserved names", sceneHead + `{"id": 1, "components": {"SceneID": {"id": 1}, "Unknown": {}, "Selected": {}}}]}`,
			"t.json:1:80: entities[0].components.SceneID: SceneID cannot be stored here: the id is the entity's \"id\", not a component\n" +
				"t.json:1:102: entities[0].components.Unknown: Unknown cannot be stored here: Unknown is reserved for components this build does not know\n" +
				"t.json:1:117: entities[0].components.Selected: Selected cannot be stored here: it is transient (never stored in files)"},
		{"missing reference", sceneHead + `{"id": 1, "components": {"Kinds": {"refs": [0, 1, 5]}}}]}`,
			"t.json:1:105: entities[0].components.Kinds.refs[2]: entity 5 does not exist"},
		{"own parent", sceneHead + `{"id": 1, "parent": 1}]}`, "t.json:1:75: entities[0].parent: entity 1 is its own parent"},
		{"editor section", `{"format": "voltex.scene", "version": 1, "editor": {"camera": {"pivot": [0, 0], "yaw": "x", "zoom": 1}, "selection": [1, -1], "grid": 1}, "entities": []}`,
			`t.json:1:73: editor.camera.pivot: expected an array of 3 numbers, got an array
t.json:1:88: editor.camera.yaw: expected a number, got the string "x"
t.json:1:93: editor.camera.zoom: unknown key (the camera has pivot, yaw, pitch and distance)
t.json:1:122: editor.selection[1]: expected a positive integer id, got the number -1
t.json:1:127: editor.grid: unknown key (the editor section has camera, selection and conflicts)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := loadString(t, tc.src)
			if got := problemsText(err); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			if s != nil {
				t.Error("a failed load returned a scene")
			}
		})
	}
}

func TestLoadEditorStateAndWarnings(t *testing.T) {
	s, err := loadString(t, `{"format": "voltex.scene", "version": 1, "name": "N",
 "editor": {"camera": {"pivot": [1, 2, 3], "yaw": 10, "pitch": -5, "distance": 7}, "selection": [2, 9, 1]},
 "entities": [{"id": 1}, {"id": 2, "components": {"Later": {"x": 1}}}]}`)
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "N" || *s.Camera != (scene.EditorCamera{Pivot: mgl32.Vec3{1, 2, 3}, Yaw: 10, Pitch: -5, Distance: 7}) {
		t.Errorf("scene %+v camera %+v", s, s.Camera)
	}
	ids := ecs.NewMap[scene.SceneID](s.World)
	if len(s.Selection) != 2 || ids.Get(s.Selection[0]).ID != 2 || ids.Get(s.Selection[1]).ID != 1 {
		t.Errorf("selection %v", s.Selection)
	}
	var msgs []string
	for _, w := range s.Warnings {
		msgs = append(msgs, w.String())
	}
	want := "t.json:3:51: warning: entities[1].components.Later: unknown component \"Later\" (1 entity): kept as it is and written back on save\n" +
		"t.json:2:101: warning: editor.selection[1]: entity 9 does not exist; left out of the selection"
	if got := strings.Join(msgs, "\n"); got != want {
		t.Errorf("warnings\n%s\nwant\n%s", got, want)
	}
}

// TestUnknownComponentsKept: a component this build does not know is kept
// verbatim (keys in order, number literals as written) and written back in
// name order among the known ones.
func TestUnknownComponentsKept(t *testing.T) {
	src := `{"format": "voltex.scene", "version": 1, "name": "", "entities": [{"id": 1, "components": {
  "Zeta": {"b": 1.50, "a": [true, null, "\u00e9\n"], "big": 123456789012345678901234567890},
  "Mesh": {"asset": "builtin:plane"},
  "Alpha": {}}}]}`
	s, err := loadString(t, src)
	if err != nil {
		t.Fatal(err)
	}
	got := string(saveBytes(t, s))
	want := `{
  "format": "voltex.scene",
  "version": 2,
  "name": "",
  "entities": [
    {
      "id": 1,
      "order": 1,
      "components": {
        "Alpha": {},
        "Mesh": { "asset": "builtin:plane" },
        "Zeta": { "b": 1.50, "a": [true, null, "é\n"], "big": 123456789012345678901234567890 }
      }
    }
  ]
}
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	s2, err := loadString(t, got)
	if err != nil || string(saveBytes(t, s2)) != want {
		t.Errorf("second round: %v", err)
	}
}

// TestEntityReferences: ecs.Entity fields are written as file ids and come
// back pointing at the same entities; a reference to a despawned entity is
// saved as 0 (none).
func TestEntityReferences(t *testing.T) {
	w := testWorld()
	a := w.Spawn(&scene.Name{Value: "a"}, &scene.SceneID{ID: 1})
	b := w.Spawn(&scene.Name{Value: "b"}, &scene.SceneID{ID: 2})
	gone := w.Spawn(&scene.SceneID{ID: 3})
	w.Spawn(&kinds{Ref: b, Refs: []ecs.Entity{a, {}, gone, b}})
	w.Despawn(gone)
	data := saveBytes(t, &Scene{World: w})
	if !bytes.Contains(data, []byte(`"ref": 2, "refs": [1, 0, 0, 2]`)) {
		t.Fatalf("references not written as ids:\n%s", data)
	}
	s, err := Load(context.Background(), bytes.NewReader(data), LoadOptions{NewWorld: testWorld})
	if err != nil {
		t.Fatal(err)
	}
	names := ecs.NewMap[scene.Name](s.World)
	var k kinds
	ecs.NewQuery1[kinds](s.World).Each(func(_ ecs.Entity, v *kinds) { k = *v })
	if names.Get(k.Ref).Value != "b" || names.Get(k.Refs[0]).Value != "a" || !k.Refs[1].IsZero() || !k.Refs[2].IsZero() || k.Refs[3] != k.Ref {
		t.Errorf("references after load: %+v", k)
	}
}

// TestFailedLoadChangesNothing: a load that fails returns no scene and
// leaves what the caller holds alone, however far it got.
func TestFailedLoadChangesNothing(t *testing.T) {
	current, err := LoadFile(context.Background(), "testdata/solar.json", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	before := saveBytes(t, current)
	n := current.World.Len()
	// Broken at the very end, after every entity was read.
	data, _ := os.ReadFile("testdata/cubes.json")
	broken := append(bytes.TrimRight(data, "\n}"), ",\n  \"extra\": }"...)
	calls := 0
	s, err := Load(context.Background(), bytes.NewReader(broken), LoadOptions{NewWorld: func() *ecs.World {
		calls++
		return scene.NewWorld()
	}})
	if err == nil || s != nil {
		t.Fatalf("broken file loaded: %v", err)
	}
	if calls != 1 || current.World.Len() != n || !bytes.Equal(saveBytes(t, current), before) {
		t.Error("the current scene changed")
	}
}

func TestProgressAndCancel(t *testing.T) {
	data, err := os.ReadFile("testdata/cubes.json")
	if err != nil {
		t.Fatal(err)
	}
	var calls []int64
	s, err := Load(context.Background(), bytes.NewReader(data), LoadOptions{Progress: func(done, total int64) {
		if total != int64(len(data)) || done > total {
			t.Errorf("progress %d/%d", done, total)
		}
		calls = append(calls, done)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) < 2 || calls[len(calls)-1] != int64(len(data)) {
		t.Errorf("load progress calls %v", calls)
	}
	var saved []int64
	if err := Save(context.Background(), &bytes.Buffer{}, s, SaveOptions{Progress: func(done, total int64) {
		if total != 400 {
			t.Errorf("save total %d", total)
		}
		saved = append(saved, done)
	}}); err != nil {
		t.Fatal(err)
	}
	if len(saved) < 50 || saved[0] != 0 || saved[len(saved)-1] != 400 {
		t.Errorf("save progress calls %v", saved)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Load(ctx, bytes.NewReader(data), LoadOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled load: %v", err)
	}
	if err := Save(ctx, &bytes.Buffer{}, s, SaveOptions{}); err != nil {
		t.Errorf("400 entities are saved before the first cancellation check: %v", err)
	}
	big := benchScene(5000)
	if err := Save(ctx, &bytes.Buffer{}, big, SaveOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled save: %v", err)
	}
	// A cancelled SaveFile leaves the previous file in place.
	path := filepath.Join(t.TempDir(), "s.json")
	if err := atomicfile.WriteFile(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	if err := SaveFile(ctx, path, big, SaveOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled SaveFile: %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("file after a cancelled save: %q", got)
	}
}

// TestSaveRefusesNonFinite: NaN cannot be written; the error names the
// entity and the field.
func TestSaveRefusesNonFinite(t *testing.T) {
	w := scene.NewWorld()
	w.Spawn(&scene.Name{Value: "bad"}, &ecs.Transform{Scale: mgl32.Vec3{1, float32(math.Inf(1)), 1}}, &scene.SceneID{ID: 1})
	err := Save(context.Background(), &bytes.Buffer{}, &Scene{World: w}, SaveOptions{})
	if err == nil || err.Error() != `saving: entity 1 ("bad"): Transform.scale[1] is +Inf; scene files cannot hold NaN or infinite numbers` {
		t.Errorf("got %v", err)
	}
	err = Save(context.Background(), &bytes.Buffer{}, &Scene{World: scene.NewWorld(), Camera: &scene.EditorCamera{Yaw: float32(math.NaN())}}, SaveOptions{})
	if err == nil || !strings.Contains(err.Error(), "editor camera") {
		t.Errorf("camera: %v", err)
	}
}

// TestJSONTestSuiteThroughLoader: every file of JSONTestSuite goes through
// the scene loader without a panic or hang; none is a scene, every broken
// one is rejected at a line:col, and no failed load returns a scene.
func TestJSONTestSuiteThroughLoader(t *testing.T) {
	files, _ := filepath.Glob("../../shared/testdata/jsontestsuite/*.json")
	if len(files) == 0 {
		t.Skip("../shared/testdata/jsontestsuite is absent (clone outside the project setup)")
	}
	positioned := regexp.MustCompile(`\.json:\d+:\d+: `)
	for _, f := range files {
		s, err := LoadFile(context.Background(), f, LoadOptions{})
		if err == nil || s != nil {
			t.Errorf("%s loaded as a scene", f)
			continue
		}
		if strings.HasPrefix(filepath.Base(f), "n_") && !positioned.MatchString(err.Error()) {
			t.Errorf("%s: rejected without a position: %v", f, err)
		}
	}
}

func TestFormat(t *testing.T) {
	messy := `{"entities":[{"components":{"Transform":{"scale":[1,1,1],"position":[1.50,0,2e0]}},"name":"b","id":7},
{"id":3,"name":"a"}],"version":1,"name":"M","format":"voltex.scene"}`
	out, err := Format([]byte(messy), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "format": "voltex.scene",
  "version": 2,
  "name": "M",
  "entities": [
    {
      "id": 3,
      "name": "a",
      "order": 1,
      "components": {}
    },
    {
      "id": 7,
      "name": "b",
      "order": 2,
      "components": {
        "Transform": { "position": [1.5, 0, 2], "rotation": [0, 0, 0], "scale": [1, 1, 1] }
      }
    }
  ]
}
`
	if string(out) != want {
		t.Errorf("got\n%s", out)
	}
	again, err := Format(out, "m.json")
	if err != nil || !bytes.Equal(again, out) {
		t.Errorf("Format is not idempotent: %v", err)
	}
	if _, err := Format([]byte(`{"format": "voltex.scene", "version": 1, "entities": [{"id": 0}]}`), "z.json"); err == nil ||
		err.Error() != "z.json:1:62: entities[0].id: must be a positive integer id, not the number 0" {
		t.Errorf("invalid input: %v", err)
	}
}

func TestValidateFile(t *testing.T) {
	ctx := context.Background()
	for _, f := range []string{"testdata/cubes.json", "testdata/solar.json", "testdata/empty.json", "testdata/legacy-v0.json", "game/testdata/solar.export.json"} {
		if w, err := ValidateFile(ctx, f, LoadOptions{}); err != nil || len(w) > 0 {
			t.Errorf("%s: %v %v", f, w, err)
		}
	}
	if _, err := ValidateFile(ctx, "testdata/broken.json", LoadOptions{}); err == nil {
		t.Error("broken.json is valid")
	}
	bad := filepath.Join(t.TempDir(), "bad.export.json")
	if err := os.WriteFile(bad, []byte(`{"format": "voltex.export", "version": 1, "entities": [{"world": []}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ValidateFile(ctx, bad, LoadOptions{}); err == nil || !strings.Contains(err.Error(), "bad.export.json:1:66: entities[0].world: expected an array of 16 numbers") {
		t.Errorf("export problems: %v", err)
	}
	if _, err := ValidateFile(ctx, "does-not-exist.json", LoadOptions{}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestExport(t *testing.T) {
	w := testWorld()
	root := w.Spawn(&scene.Name{Value: "root"}, &ecs.Transform{Position: mgl32.Vec3{1, 2, 3}, Rotation: mgl32.Vec3{0, 90, 0}, Scale: mgl32.Vec3{2, 2, 2}},
		&scene.Mesh{Asset: "ship.obj"}, locked{}, selected{})
	kid := w.Spawn(&scene.Name{Value: "kid"}, &ecs.Transform{Position: mgl32.Vec3{1, 0, 0}, Scale: mgl32.Vec3{1, 1, 1}},
		&scene.Mesh{Asset: scene.MeshCube}, &scene.Color{RGBA: [4]float32{0, 1, 0, 1}}, &kinds{Ref: root})
	other := w.Spawn(&scene.Name{Value: "other"}, &scene.Mesh{Asset: "ship.obj"})
	if err := w.SetParent(kid, root); err != nil {
		t.Fatal(err)
	}
	// Ids in the opposite order of creation: the export still lists the
	// parent first.
	ids := ecs.NewMap[scene.SceneID](w)
	ids.Add(root, scene.SceneID{ID: 30})
	ids.Add(kid, scene.SceneID{ID: 10})
	ids.Add(other, scene.SceneID{ID: 20})
	data := exportBytes(t, &Scene{Name: "E", World: w, Camera: &scene.EditorCamera{Distance: 5}, Selection: []ecs.Entity{root}})
	golden(t, "testdata/export.golden.json", data)
	for _, banned := range []string{"Locked", "Selected", "camera", "selection", "SceneID", "\"id\""} {
		if bytes.Contains(data, []byte(banned)) {
			t.Errorf("export contains %s", banned)
		}
	}
	v, err := jsonpos.Parse(data, jsonpos.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	ents := v.Get("entities")
	if got := string(jsonpos.AppendInline(nil, v.Get("meshes"))); got != `["builtin:cube", "ship.obj"]` && got != `["ship.obj", "builtin:cube"]` {
		t.Errorf("mesh table %s", got)
	}
	order := []string{}
	for i := range ents.Len() {
		order = append(order, ents.Index(i).Get("name").Str())
	}
	if strings.Join(order, ",") != "other,root,kid" {
		t.Errorf("order %v", order)
	}
	for i, e := range []ecs.Entity{other, root, kid} {
		want := w.WorldMatrix(e)
		m := ents.Index(i).Get("world")
		for k := range 16 {
			f, _ := m.Index(k).Float(32)
			if float32(f) != want[k] {
				t.Fatalf("%s world[%d] = %v, want %v", order[i], k, f, want[k])
			}
		}
	}
	if got := string(jsonpos.AppendInline(nil, ents.Index(2).Get("components").Get("Kinds").Get("ref"))); got != "1" {
		t.Errorf("reference to root exported as %s, want its index 1", got)
	}
}

// --- round-trip property ---

// randomWorld builds a world of random entities, components, hierarchy,
// references and unknown components.
func randomWorld(rng *rand.Rand) *Scene {
	w := testWorld()
	n := rng.IntN(40)
	ents := make([]ecs.Entity, 0, n)
	f32 := func() float32 {
		switch rng.IntN(8) {
		case 0:
			return 0
		case 1:
			return float32(math.Copysign(0, -1))
		case 2:
			return math.SmallestNonzeroFloat32
		case 3:
			return math.MaxFloat32
		case 4:
			return float32(rng.IntN(2001) - 1000)
		case 5:
			return -float32(rng.Float64() * 1e-30)
		}
		for {
			f := math.Float32frombits(rng.Uint32())
			if !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0) {
				return f
			}
		}
	}
	unit := func() float32 { return []float32{0, 1, 0.5, float32(rng.Float64())}[rng.IntN(4)] }
	vec := func() mgl32.Vec3 { return mgl32.Vec3{f32(), f32(), f32()} }
	str := func() string {
		return []string{"", "a", "Cube 1,2", "é ü 日本", "quote \" backslash \\ tab \t nl \n", "\x01\x1f", "builtin:cube", "\u2028"}[rng.IntN(8)]
	}
	for i := range n {
		var vals []any
		if rng.IntN(4) > 0 {
			vals = append(vals, &ecs.Transform{Position: vec(), Rotation: vec(), Scale: vec()})
		}
		if rng.IntN(3) > 0 {
			vals = append(vals, &scene.Name{Value: str()})
		}
		if rng.IntN(2) > 0 {
			vals = append(vals, &scene.Mesh{Asset: []string{"builtin:cube", "a.obj", "Models/é 日本 \" quote.obj", `back\slash.obj`}[rng.IntN(4)]})
		}
		if rng.IntN(2) > 0 {
			vals = append(vals, &scene.Color{RGBA: [4]float32{unit(), unit(), unit(), unit()}})
		}
		if rng.IntN(3) == 0 {
			vals = append(vals, &scene.Spin{Axis: vec(), Speed: f32()})
		}
		if rng.IntN(5) == 0 {
			vals = append(vals, &scene.Camera{FOV: 1 + 178*unit(), Near: 0.001 + unit(), Far: 0.001 + float32(math.Abs(float64(f32())))})
		}
		if rng.IntN(4) == 0 {
			vals = append(vals, locked{})
		}
		if rng.IntN(4) == 0 {
			vals = append(vals, selected{})
		}
		if rng.IntN(6) == 0 {
			var raws []scene.RawComponent
			for _, name := range []string{"Alien", "Zzz", "Widget2", "Émoji"} {
				if rng.IntN(2) == 0 {
					v := randomJSON(rng, 3)
					if v.Kind() != jsonpos.Object {
						v = jsonpos.NewObject()
					}
					raws = append(raws, scene.RawComponent{Name: name, JSON: string(jsonpos.AppendInline(nil, &v))})
				}
			}
			if len(raws) > 0 {
				vals = append(vals, &scene.Unknown{Components: raws})
			}
		}
		e := w.Spawn(vals...)
		if rng.IntN(3) == 0 {
			ecs.NewMap[scene.SceneID](w).Add(e, scene.SceneID{ID: uint64(1 + rng.IntN(1000))}) // duplicates get renumbered on save
		}
		if i > 0 && rng.IntN(2) == 0 {
			if err := w.SetParent(e, ents[rng.IntN(i)]); err != nil {
				panic(err) // a new entity under an older one makes no cycle
			}
		}
		ents = append(ents, e)
	}
	// Kinds last, so references can point anywhere.
	for _, e := range ents {
		if rng.IntN(4) != 0 {
			continue
		}
		pick := func() ecs.Entity {
			if rng.IntN(3) == 0 {
				return ecs.Entity{}
			}
			return ents[rng.IntN(len(ents))]
		}
		k := kinds{B: rng.IntN(2) == 0, I8: int8(rng.IntN(256) - 128), I: rng.Int() - rng.Int(), U16: uint16(rng.Uint32()),
			U64: rng.Uint64(), F64: math.Float64frombits(rng.Uint64() &^ (0x7ff << 52)), S: str(), Arr: [2]int32{rng.Int32(), -rng.Int32()},
			Ref: pick(), V: mgl32.Vec3{float32(rng.IntN(21) - 10), unit(), -unit()}}
		for range rng.IntN(4) {
			k.Sl = append(k.Sl, f32())
			k.Refs = append(k.Refs, pick())
			k.Nested.Tags = append(k.Nested.Tags, str())
		}
		k.Nested.A = f32()
		ecs.NewMap[kinds](w).Add(e, k)
	}
	s := &Scene{Name: str(), World: w}
	if rng.IntN(2) == 0 {
		s.Camera = &scene.EditorCamera{Pivot: vec(), Yaw: f32(), Pitch: f32(), Distance: f32()}
	}
	for range rng.IntN(3) {
		if n > 0 {
			s.Selection = append(s.Selection, ents[rng.IntN(n)])
		}
	}
	return s
}

// randomJSON returns a random JSON value (for unknown components).
func randomJSON(rng *rand.Rand, depth int) jsonpos.Value {
	k := rng.IntN(7)
	if depth == 0 {
		k %= 4
	}
	switch k {
	case 0:
		return jsonpos.NewNull()
	case 1:
		return jsonpos.NewBool(rng.IntN(2) == 0)
	case 2:
		return jsonpos.NewString([]string{"", "x", "é\"\\\n"}[rng.IntN(3)])
	case 3:
		lits := []string{"0", "-0", "1.50", "1e999", "123456789012345678901234567890", "-2.5E-3"}
		v, _ := jsonpos.Parse([]byte(lits[rng.IntN(len(lits))]), jsonpos.Limits{})
		return v
	case 4, 5:
		var items []jsonpos.Value
		for range rng.IntN(4) {
			items = append(items, randomJSON(rng, depth-1))
		}
		return jsonpos.NewArray(items...)
	}
	o := jsonpos.NewObject()
	for _, key := range []string{"b", "a", "long key", "b2"}[:rng.IntN(4)] {
		o.Set(key, randomJSON(rng, depth-1))
	}
	return o
}

// sameWorlds compares two worlds entity by entity (matched by scene id):
// the same saved components with the same values, the same parents, entity
// references pointing at the same (by id) entities.
func sameWorlds(t *testing.T, a, b *ecs.World) {
	t.Helper()
	ea, eb := scene.EnsureIDs(a), scene.EnsureIDs(b)
	if len(ea) != len(eb) {
		t.Fatalf("%d entities, then %d", len(ea), len(eb))
	}
	ida, idb := ecs.NewMap[scene.SceneID](a), ecs.NewMap[scene.SceneID](b)
	idOf := func(m *ecs.Map[scene.SceneID], e ecs.Entity) uint64 {
		if e.IsZero() {
			return 0
		}
		return m.Get(e).ID
	}
	for i := range ea {
		x, y := ea[i], eb[i]
		if idOf(ida, x) != idOf(idb, y) || idOf(ida, a.Parent(x)) != idOf(idb, b.Parent(y)) {
			t.Fatalf("entity %d: id/parent differ", i)
		}
		for _, cid := range a.ComponentIDs() {
			info := a.ComponentInfo(cid)
			if info.Computed || info.Name == "Selected" {
				continue
			}
			cidB, _ := b.ComponentByName(info.Name)
			va, okA := a.Get(x, cid)
			vb, okB := b.Get(y, cidB)
			if okA != okB {
				t.Fatalf("entity %d: %s present %v, then %v", idOf(ida, x), info.Name, okA, okB)
			}
			if ua, ok := va.(scene.Unknown); ok { // saved sorted by name
				ua.Components = slices.Clone(ua.Components)
				slices.SortFunc(ua.Components, func(x, y scene.RawComponent) int { return strings.Compare(x.Name, y.Name) })
				va = ua
			}
			if ka, ok := va.(kinds); ok {
				kb := vb.(kinds)
				if idOf(ida, ka.Ref) != idOf(idb, kb.Ref) || len(ka.Refs) != len(kb.Refs) {
					t.Fatalf("entity %d: Kinds references differ", idOf(ida, x))
				}
				for j := range ka.Refs {
					if idOf(ida, ka.Refs[j]) != idOf(idb, kb.Refs[j]) {
						t.Fatalf("entity %d: Kinds.refs[%d] differ", idOf(ida, x), j)
					}
				}
				ka.Ref, kb.Ref, ka.Refs, kb.Refs = ecs.Entity{}, ecs.Entity{}, nil, nil
				if len(ka.Sl) == 0 {
					ka.Sl = nil
				}
				if len(kb.Sl) == 0 {
					kb.Sl = nil
				}
				if len(ka.Nested.Tags) == 0 {
					ka.Nested.Tags = nil
				}
				if len(kb.Nested.Tags) == 0 {
					kb.Nested.Tags = nil
				}
				va, vb = ka, kb
			}
			if okA && !reflect.DeepEqual(va, vb) {
				t.Fatalf("entity %d: %s\n was %+v\n now %+v", idOf(ida, x), info.Name, va, vb)
			}
		}
	}
}

// TestRoundTripProperty: random worlds → save → load gives an equal world,
// and saving that gives the same bytes.
func TestRoundTripProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for i := range 300 {
		s := randomWorld(rng)
		first := saveBytes(t, s)
		s2, err := Load(context.Background(), bytes.NewReader(first), LoadOptions{NewWorld: testWorld})
		if err != nil {
			t.Fatalf("world %d: %v\n%s", i, err, first)
		}
		sameWorlds(t, s.World, s2.World)
		if s2.Name != s.Name || (s.Camera == nil) != (s2.Camera == nil) {
			t.Fatalf("world %d: header differs", i)
		}
		second := saveBytes(t, s2)
		if !bytes.Equal(first, second) {
			t.Fatalf("world %d: re-save differs:\n%s", i, firstDiff(first, second))
		}
		s2.Warnings = slices.DeleteFunc(s2.Warnings, func(p Problem) bool {
			return strings.Contains(p.Msg, "a Mesh without a Transform") || strings.Contains(p.Msg, "world matrix is not finite")
		})
		if len(s2.Warnings) > 0 && !bytes.Contains(first, []byte(`"Alien"`)) && !bytes.Contains(first, []byte(`"Zzz"`)) &&
			!bytes.Contains(first, []byte(`"Widget2"`)) && !bytes.Contains(first, []byte(`"Émoji"`)) {
			t.Fatalf("world %d: unexpected warnings %v", i, s2.Warnings)
		}
	}
}

// FuzzLoad: any input loads or fails cleanly; what loads saves to a
// canonical form that loads back and saves to the same bytes.
func FuzzLoad(f *testing.F) {
	for _, p := range []string{"testdata/solar.json", "testdata/empty.json", "testdata/legacy-v0.json", "testdata/broken.json", "testdata/export.golden.json"} {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(sceneHead + `{"id": 2, "parent": 1, "components": {"Kinds": {"ref": 1, "refs": [2]}, "X": {}}}, {"id": 1}]}`))
	f.Add([]byte(`{"entities": [{"id": 1, "color": [1, 0, 0, 1], "components": {"Transform": {"rotation": [1, 2, 3]}}}]}`))
	f.Add([]byte(`{"entities": [], "version": 0}`))
	f.Add([]byte(sceneHead + `{"id": 1, "parent": 2}, {"id": 2, "parent": 1}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		lim := Limits{MaxDepth: 16, MaxEntities: 200, MaxProblems: 20}
		s, err := Load(context.Background(), bytes.NewReader(data), LoadOptions{NewWorld: testWorld, Limits: lim})
		if err != nil {
			if s != nil {
				t.Fatal("a scene and an error")
			}
			var e *Error
			if !errors.As(err, &e) || len(e.Problems) == 0 {
				t.Fatalf("not a problem list: %v", err)
			}
			return
		}
		first := saveBytes(t, s)
		s2, err := Load(context.Background(), bytes.NewReader(first), LoadOptions{NewWorld: testWorld})
		if err != nil {
			t.Fatalf("the saved form does not load: %v\n%s", err, first)
		}
		if second := saveBytes(t, s2); !bytes.Equal(first, second) {
			t.Fatalf("re-save differs:\n%s", firstDiff(first, second))
		}
	})
}

// TestChildrenInIDOrder: whatever the order of the file, children attach
// to their parent in id order.
func TestChildrenInIDOrder(t *testing.T) {
	s, err := loadString(t, sceneHead+`{"id": 9, "parent": 1, "name": "c"}, {"id": 1, "name": "p"}, {"id": 4, "parent": 1, "name": "a"}, {"id": 6, "parent": 1, "name": "b"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	names := ecs.NewMap[scene.Name](s.World)
	var root ecs.Entity
	s.World.EachEntity(func(e ecs.Entity) bool {
		if names.Get(e).Value == "p" {
			root = e
		}
		return true
	})
	var got []string
	for _, c := range s.World.Children(root) {
		got = append(got, names.Get(c).Value)
	}
	if strings.Join(got, "") != "abc" {
		t.Errorf("children %v", got)
	}
}

// TestLimitsRefuseHostileFiles: each limit stops a file that exceeds it,
// with a message naming the limit, at the place it was exceeded.
func TestLimitsRefuseHostileFiles(t *testing.T) {
	big := sceneHead + `{"id": 1, "components": {"X": {"v": [` + strings.Repeat("1, ", 5000) + `1]}}}]}`
	deep := sceneHead + `{"id": 1, "components": {"X": {"v": ` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}}}]}`
	long := sceneHead + `{"id": 1, "name": "` + strings.Repeat("n", 2000) + `"}]}`
	var many strings.Builder
	many.WriteString(sceneHead)
	for i := range 50 {
		if i > 0 {
			many.WriteString(", ")
		}
		many.WriteString(`{"id": ` + itoa(i+1) + `}`)
	}
	many.WriteString("]}")
	for _, tc := range []struct {
		name, src string
		lim       Limits
		want      string
	}{
		{"values", big, Limits{MaxEntityValues: 1000}, "t.json:1:3089: more than the limit of 1000 values in one entity"},
		{"depth", deep, Limits{MaxDepth: 20}, "t.json:1:106: nesting is deeper than the limit of 20 levels"},
		{"string", long, Limits{MaxString: 1000}, "t.json:1:73: string is longer than the limit of 1,000 bytes"},
		{"entities", many.String(), Limits{MaxEntities: 40}, "t.json:1:526: entities: more than the limit of 40 entities"},
		{"size", many.String(), Limits{MaxFileSize: 100}, "t.json: file is 645 bytes, larger than the limit of 100 bytes"},
	} {
		_, err := Load(context.Background(), strings.NewReader(tc.src), LoadOptions{File: "t.json", Limits: tc.lim})
		if got := problemsText(err); got != tc.want {
			t.Errorf("%s: got %s\nwant %s", tc.name, got, tc.want)
		}
		// With default limits (or none) the same files load.
		if _, err := Load(context.Background(), strings.NewReader(tc.src), LoadOptions{Limits: Limits{MaxDepth: -1}}); err != nil && !strings.Contains(err.Error(), "unknown component") {
			t.Errorf("%s with default limits: %v", tc.name, err)
		}
	}
}
