package fields_test

import (
	"math"
	"reflect"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/inspector/fields"
	"github.com/voltex-editor/voltex/inspector/fields/fieldstest"
)

// model registers the sample components with a fresh world and returns the world, the model of
// Everything and its ID.
func model(t testing.TB) (*ecs.World, *fields.Component, ecs.ComponentID) {
	t.Helper()
	w := ecs.NewWorld()
	id, _ := fieldstest.Register(w)
	var cache fields.Cache
	return w, cache.Component(w, id), id
}

func find(t testing.TB, c *fields.Component, path string) *fields.Field {
	t.Helper()
	f := c.Find(path)
	if f == nil {
		t.Fatalf("no field %q", path)
	}
	return f
}

func TestKinds(t *testing.T) {
	_, c, _ := model(t)
	tests := []struct {
		path  string
		kind  fields.Kind
		label string
		len   int
	}{
		{"enabled", fields.Bool, "Enabled", 0},
		{"count", fields.Int, "Count", 0},
		{"small", fields.Int, "Small", 0},
		{"big", fields.Int, "Big", 0},
		{"flags", fields.Uint, "Flags", 0},
		{"huge", fields.Uint, "Huge", 0},
		{"speed", fields.Float, "Speed", 0},
		{"precise", fields.Float, "Precise", 0},
		{"angle", fields.Float, "Angle", 0},
		{"title", fields.String, "Title", 0},
		{"notes", fields.String, "Notes", 0},
		{"mode", fields.Enum, "Mode", 0},
		{"offset", fields.Vector, "Offset", 2},
		{"position", fields.Vector, "Position", 3},
		{"rotation", fields.Euler, "Rotation", 3},
		{"plane", fields.Vector, "Plane", 4},
		{"tint", fields.Color, "Tint", 4},
		{"rgb", fields.Color, "RGB", 3},
		{"mesh", fields.Asset, "Mesh", 0},
		{"target", fields.EntityRef, "Target", 0},
		{"inner", fields.Struct, "Inner", 0},
		{"inner.offset", fields.Vector, "Offset", 3},
		{"weights", fields.Array, "Weights", 3},
		{"weights[]", fields.Int, "", 0},
		{"tags", fields.Slice, "Tags", 0},
		{"tags[]", fields.String, "", 0},
		{"points", fields.Slice, "Points", 0},
		{"points[].weight", fields.Float, "Weight", 0},
		{"basis", fields.Matrix, "Basis", 16},
		{"secret", fields.Int, "Secret", 0},
		{"fixed", fields.Float, "Fixed", 0},
		{"lookup", fields.Unsupported, "Lookup", 0},
	}
	for _, tc := range tests {
		f := find(t, c, tc.path)
		if f.Kind != tc.kind || f.Label != tc.label || f.Len != tc.len {
			t.Errorf("%s: kind %v label %q len %d, want %v %q %d", tc.path, f.Kind, f.Label, f.Len, tc.kind, tc.label, tc.len)
		}
	}
	if c.Find("skipped") != nil || c.Find("private") != nil {
		t.Error("json:\"-\" and unexported fields must not be in the model")
	}
	if got := len(c.Fields); got != 28 {
		t.Errorf("%d top-level fields, want 28", got)
	}
	if c.Label != "Everything" || c.IsTag || c.Computed || !c.Deep {
		t.Errorf("component: %+v", c)
	}
}

func TestKindString(t *testing.T) {
	if fields.Vector.String() != "Vector" || fields.Slice.String() != "Slice" || fields.Kind(200).String() != "Kind(200)" {
		t.Error("Kind.String")
	}
	for k := fields.Unsupported; k <= fields.Slice; k++ {
		want := k == fields.Vector || k == fields.Euler || k == fields.Color || k == fields.Matrix
		if k.Compound() != want {
			t.Errorf("%v.Compound() = %v", k, !want)
		}
	}
}

func TestPathsAndIDs(t *testing.T) {
	_, c, _ := model(t)
	for path, want := range map[string][2]string{
		"enabled":         {"enabled", "##enabled"},
		"inner.weight":    {"inner.weight", "##weight"},
		"inner.offset":    {"inner.offset", "##offset"},
		"points[].label":  {"label", "##label"}, // relative to the element
		"points[]":        {"", "##elem"},
		"position[]":      {"", "##elem"},
		"weights[]":       {"", "##elem"},
		"points[].offset": {"offset", "##offset"},
	} {
		f := find(t, c, path)
		if f.Path != want[0] || f.ID != want[1] {
			t.Errorf("%s: path %q id %q, want %q %q", path, f.Path, f.ID, want[0], want[1])
		}
	}
	if got := fields.JoinPath(fields.ElemPath("points", 2), "offset"); got != "points[2].offset" {
		t.Errorf("JoinPath = %q", got)
	}
	if fields.JoinPath("a[1]", "") != "a[1]" || fields.JoinPath("", "x") != "x" {
		t.Error("JoinPath with empty parts")
	}
	if fields.IndexLabel(3) != "[3]" || fields.IndexLabel(1000) != "[1000]" {
		t.Error("IndexLabel")
	}
}

func TestHints(t *testing.T) {
	_, c, _ := model(t)
	en := find(t, c, "enabled")
	if en.Hints.Tooltip != "Turns it on, 100% of the time" || en.Tooltip != "Turns it on, 100%% of the time" {
		t.Errorf("tooltip %q / %q", en.Hints.Tooltip, en.Tooltip)
	}
	if !find(t, c, "notes").Hints.Multiline || find(t, c, "title").Hints.Multiline {
		t.Error("multiline hint")
	}
	if !find(t, c, "secret").Hints.Hidden {
		t.Error("hidden hint")
	}
	for _, p := range []string{"basis", "basis[]", "fixed"} {
		if !find(t, c, p).ReadOnly {
			t.Errorf("%s is not read-only", p)
		}
	}
	if find(t, c, "speed").ReadOnly {
		t.Error("speed is read-only")
	}
	if !find(t, c, "rotation[]").Hints.Degrees || !find(t, c, "angle").Hints.Degrees {
		t.Error("degrees hint")
	}
	if !find(t, c, "mesh").Hints.Asset || !find(t, c, "tint").Hints.Color {
		t.Error("asset/color hints")
	}
	// elements inherit numeric hints, not tooltips or hidden
	w := find(t, c, "weights[]")
	if w.IMin != 0 || w.IMax != 100 {
		t.Errorf("weights element range [%d,%d], want [0,100]", w.IMin, w.IMax)
	}
}

func TestRangesSpeedsFormats(t *testing.T) {
	_, c, _ := model(t)
	tests := []struct {
		path     string
		min, max float64
		speed    float64
		format   string
	}{
		{"count", -5, 5, 0.05, "%d"},
		{"small", -128, 127, 0.25, "%d"},
		{"big", math.MinInt64, math.MaxInt64, 0.25, "%lld"},
		{"flags", 0, 1000, 0.25, "%u"},
		{"huge", 0, math.MaxUint64, 0.25, "%llu"},
		{"speed", 0, 10, 0.05, "%.2f"},
		{"precise", -math.MaxFloat64, math.MaxFloat64, 0.01, "%.3f"},
		{"angle", -math.MaxFloat32, math.MaxFloat32, 0.5, "%.1f°"},
		{"rotation[]", -math.MaxFloat32, math.MaxFloat32, 0.5, "%.1f°"},
		{"tint[]", 0, 1, 0.005, "%.3f"},
		{"rgb[]", 0, 255, 1.275, "%u"},
		{"inner.weight", 0, 1, 0.005, "%.3f"},
		{"mode", 0, 0, 0, ""}, // enums are combos: their range is the type's
	}
	for _, tc := range tests {
		f := find(t, c, tc.path)
		if tc.path == "mode" {
			if f.IMin != math.MinInt32 || f.IMax != math.MaxInt32 || len(f.Enum) != 3 || f.EnumNames[2] != "Running" {
				t.Errorf("mode: [%d,%d] %d values", f.IMin, f.IMax, len(f.Enum))
			}
			continue
		}
		if f.Min != tc.min || f.Max != tc.max || math.Abs(f.Speed-tc.speed) > 1e-9 || f.Format != tc.format {
			t.Errorf("%s: [%g,%g] speed %g %q, want [%g,%g] %g %q", tc.path, f.Min, f.Max, f.Speed, f.Format,
				tc.min, tc.max, tc.speed, tc.format)
		}
	}
	if f := find(t, c, "huge"); f.UMax != math.MaxUint64 || f.UMin != 0 {
		t.Errorf("huge: [%d,%d]", f.UMin, f.UMax)
	}
	if f := find(t, c, "big"); f.IMin != math.MinInt64 || f.IMax != math.MaxInt64 {
		t.Errorf("big: [%d,%d]", f.IMin, f.IMax)
	}
}

// Contradictory or out-of-type-range hints must not lock a field or overflow.
func TestOddHints(t *testing.T) {
	type Odd struct {
		Backwards  float32    `voltex:"min=5,max=1"`
		Wide       int8       `voltex:"min=-1000,max=1000"`
		NegMax     uint8      `voltex:"max=-3"`
		Frac       int32      `voltex:"min=0.5,max=2.5"`
		Coarse     float64    `voltex:"step=5"`
		Fine       float64    `voltex:"step=0.0001"`
		Quaternion [4]float32 `voltex:"degrees"`
		Pair       [2]float32 `voltex:"color"`
		Bytes      [4]uint8
	}
	w := ecs.NewWorld()
	c := fields.New(w.ComponentInfo(ecs.Register[Odd](w)))
	if f := find(t, c, "backwards"); f.Min != -math.MaxFloat32 || f.Max != math.MaxFloat32 {
		t.Errorf("backwards range ignored? [%g,%g]", f.Min, f.Max)
	}
	if f := find(t, c, "wide"); f.IMin != -128 || f.IMax != 127 {
		t.Errorf("wide [%d,%d]", f.IMin, f.IMax)
	}
	if f := find(t, c, "negMax"); f.UMin != 0 || f.UMax != 0 {
		t.Errorf("negMax [%d,%d]", f.UMin, f.UMax)
	}
	if f := find(t, c, "frac"); f.IMin != 1 || f.IMax != 2 {
		t.Errorf("frac [%d,%d]", f.IMin, f.IMax)
	}
	if f := find(t, c, "coarse"); f.Format != "%.0f" || f.Speed != 5 {
		t.Errorf("coarse %q %g", f.Format, f.Speed)
	}
	if f := find(t, c, "fine"); f.Format != "%.4f" {
		t.Errorf("fine %q", f.Format)
	}
	// degrees on 4 floats is not an Euler rotation; color on 2 is not a colour; bytes are an array
	for path, want := range map[string]fields.Kind{"quaternion": fields.Vector, "pair": fields.Vector, "bytes": fields.Array} {
		if got := find(t, c, path).Kind; got != want {
			t.Errorf("%s: %v, want %v", path, got, want)
		}
	}
}

func TestComputedComponentIsReadOnly(t *testing.T) {
	w := ecs.NewWorld()
	id, ok := ecs.ComponentIDOf[ecs.GlobalTransform](w)
	if !ok {
		t.Fatal("GlobalTransform not registered")
	}
	c := fields.New(w.ComponentInfo(id))
	if !c.Computed || !c.Fields[0].ReadOnly || !c.Fields[0].Elem.ReadOnly || c.Fields[0].Kind != fields.Matrix {
		t.Errorf("GlobalTransform model: %+v", c.Fields[0])
	}
	tid, _ := ecs.ComponentIDOf[ecs.Transform](w)
	tc := fields.New(w.ComponentInfo(tid))
	if tc.Fields[1].Kind != fields.Euler || tc.Fields[0].Kind != fields.Vector {
		t.Errorf("Transform kinds: %v %v", tc.Fields[0].Kind, tc.Fields[1].Kind)
	}
	if d, ok := tc.Default.(ecs.Transform); !ok || d.Scale != (mgl32.Vec3{1, 1, 1}) {
		t.Errorf("Transform default %v", tc.Default)
	}
}

func TestTagComponent(t *testing.T) {
	w := ecs.NewWorld()
	_, mid := fieldstest.Register(w)
	c := fields.New(w.ComponentInfo(mid))
	if !c.IsTag || len(c.Fields) != 0 || c.Nodes(reflect.ValueOf(fieldstest.Marker{})) != 1 {
		t.Errorf("tag: %+v", c)
	}
}

func TestHumanize(t *testing.T) {
	for in, want := range map[string]string{
		"Position": "Position", "MaxSpeed": "Max Speed", "HTTPPort": "HTTP Port", "globalTransform": "Global Transform",
		"RGB": "RGB", "Vec3Value": "Vec3 Value", "snake_case": "Snake case", "": "", "ID": "ID", "MeshID": "Mesh ID",
	} {
		if got := fields.Humanize(in); got != want {
			t.Errorf("Humanize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCache(t *testing.T) {
	w := ecs.NewWorld()
	id, _ := fieldstest.Register(w)
	var cache fields.Cache
	a := cache.Component(w, id)
	if cache.Component(w, id) != a {
		t.Error("second lookup built a new model")
	}
	clone := w.Clone()
	if cache.Component(clone, id) != a {
		t.Error("a clone's component of the same type must share the model")
	}
	w2 := ecs.NewWorld()
	ecs.Register[fieldstest.Marker](w2)
	id2 := ecs.Register[fieldstest.Everything](w2)
	if id2 == id {
		t.Fatal("test needs a different ID")
	}
	if cache.Component(w2, id2) != a {
		t.Error("the model is per type, whatever the ID")
	}
}
