package ecs_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
)

type Shape int

const (
	ShapeCube Shape = iota
	ShapeSphere
)

func (Shape) EnumValues() []ecs.EnumValue {
	return []ecs.EnumValue{{Name: "Cube", Value: 0}, {Name: "Sphere", Value: 1}}
}

type Inner struct {
	A float32 `json:"a"`
	B []int
}

type Light struct {
	Color     [3]float32 `json:"color" voltex:"color"`
	Intensity float32    `voltex:"min=0,max=10,step=0.5,tooltip='Brightness, in lux'"`
	Angle     float32    `json:"angle" voltex:"degrees,readonly"`
	Notes     string     `voltex:"multiline,hidden"`
	Mesh      string     `json:"mesh" voltex:"asset"`
	Shape     Shape      `json:"shape"`
	Target    ecs.Entity `json:"target"`
	In        Inner      `json:"inner"`
	Items     []Inner    `json:"items"`
	URLPath   string
	Skip      int `json:"-"`
	//lint:ignore U1000 an unexported field, which schemas must leave out
	private int
}

func (Light) Default() Light { return Light{Intensity: 1, Color: [3]float32{1, 1, 1}} }

func TestSchema(t *testing.T) {
	w := ecs.NewWorld()
	id := ecs.Register[Light](w)
	s := w.ComponentInfo(id).Schema
	var names []string
	for _, f := range s.Fields {
		names = append(names, f.JSONName)
	}
	want := []string{"color", "intensity", "angle", "notes", "mesh", "shape", "target", "inner", "items", "urlPath"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("json names %v", names)
	}
	col := s.Fields[0]
	if col.Kind != reflect.Array || col.Len != 3 || col.Elem.Kind != reflect.Float32 || !col.Hints.Color {
		t.Fatalf("color field %+v", col)
	}
	in := s.Fields[1].Hints
	if !in.HasMin || in.Min != 0 || in.Max != 10 || in.Step != 0.5 || in.Tooltip != "Brightness, in lux" {
		t.Fatalf("hints %+v", in)
	}
	if h := s.Fields[2].Hints; !h.Degrees || !h.ReadOnly {
		t.Fatalf("angle hints %+v", h)
	}
	if h := s.Fields[3].Hints; !h.Multiline || !h.Hidden {
		t.Fatalf("notes hints %+v", h)
	}
	if !s.Fields[4].Hints.Asset {
		t.Fatal("asset hint")
	}
	if e := s.Fields[5].Enum; len(e) != 2 || e[1].Name != "Sphere" {
		t.Fatalf("enum %v", e)
	}
	if !s.Fields[6].IsEntity || s.Fields[6].Fields != nil {
		t.Fatal("entity field")
	}
	inner := s.Fields[7]
	if len(inner.Fields) != 2 || inner.Fields[0].Path != "inner.a" || inner.Fields[1].JSONName != "b" {
		t.Fatalf("nested %+v", inner.Fields)
	}
	if items := s.Fields[8]; items.Kind != reflect.Slice || items.Elem.Kind != reflect.Struct || len(items.Elem.Fields) != 2 {
		t.Fatalf("slice field %+v", items)
	}
	if s.Default.(Light).Intensity != 1 {
		t.Fatal("default")
	}
	f, err := s.FieldByPath("items[3].a")
	if err != nil || f.Kind != reflect.Float32 {
		t.Fatal("FieldByPath", err)
	}
	if _, err := s.FieldByPath("color[3]"); !errors.Is(err, ecs.ErrPath) {
		t.Fatal("out of range path", err)
	}
	// Transform's schema: degrees hint, default scale
	ts := w.ComponentInfo(mustID[ecs.Transform](t, w)).Schema
	if !ts.Fields[1].Hints.Degrees || ts.Fields[1].JSONName != "rotation" {
		t.Fatal("transform rotation hints")
	}
	if ts.Default.(ecs.Transform).Scale != (mgl32.Vec3{1, 1, 1}) {
		t.Fatal("transform default")
	}
}

func mustID[T any](t testing.TB, w *ecs.World) ecs.ComponentID {
	t.Helper()
	id, ok := ecs.ComponentIDOf[T](w)
	if !ok {
		t.Fatalf("%T not registered", *new(T))
	}
	return id
}

func TestFieldAccess(t *testing.T) {
	w := ecs.NewWorld()
	id := ecs.Register[Light](w)
	e := w.Spawn()
	if err := w.Add(e, id, nil); err != nil {
		t.Fatal(err)
	}
	v, err := w.GetField(e, id, "intensity")
	if err != nil || v.(float32) != 1 {
		t.Fatalf("default intensity %v %v", v, err)
	}
	steps := []struct {
		path string
		v    any
		want any
	}{
		{"color[1]", 0.5, float32(0.5)},
		{"intensity", 3, float32(3)},
		{"shape", 1.0, ShapeSphere},
		{"inner.a", float32(2), float32(2)},
		{"mesh", "cube.obj", "cube.obj"},
		{"inner.b", []int{1, 2}, []int{1, 2}},
		{"inner.b[1]", 7, 7},
	}
	for _, s := range steps {
		if err := w.SetField(e, id, s.path, s.v); err != nil {
			t.Fatalf("SetField %s: %v", s.path, err)
		}
		got, err := w.GetField(e, id, s.path)
		if err != nil || !reflect.DeepEqual(got, s.want) {
			t.Fatalf("GetField %s = %v (%T), %v; want %v", s.path, got, got, err, s.want)
		}
	}
	bad := []struct {
		path string
		v    any
	}{
		{"nope", 1}, {"color[3]", 1.0}, {"color.x", 1.0}, {"shape", 1.5}, {"intensity", "x"},
		{"", 1}, {"inner..a", 1}, {"[0]", 1}, {"color[", 1}, {"inner.b[5]", 1},
	}
	for _, b := range bad {
		if err := w.SetField(e, id, b.path, b.v); err == nil {
			t.Fatalf("SetField %q %v: no error", b.path, b.v)
		}
	}
	type Small struct{ I int8 }
	sid := ecs.Register[Small](w)
	if err := w.Add(e, sid, nil); err != nil {
		t.Fatal(err)
	}
	if err := w.SetField(e, sid, "i", 300); !errors.Is(err, ecs.ErrValueType) {
		t.Fatal("overflow accepted", err)
	}
	_, changed, _ := w.Ticks(e, id)
	eq(t, "changed tick", changed, w.Tick())
	gid := mustID[ecs.GlobalTransform](t, w)
	tid := mustID[ecs.Transform](t, w)
	if err := w.Add(e, tid, nil); err != nil {
		t.Fatal(err)
	}
	if err := w.SetField(e, gid, "matrix[0]", 2); !errors.Is(err, ecs.ErrComputed) {
		t.Fatal("computed write", err)
	}
	if err := w.Remove(e, gid); !errors.Is(err, ecs.ErrComputed) {
		t.Fatal("computed remove", err)
	}
}
