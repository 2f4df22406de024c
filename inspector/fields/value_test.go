package fields_test

import (
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/inspector/fields"
	"github.com/voltex-editor/voltex/inspector/fields/fieldstest"
)

func TestNodeOrdinals(t *testing.T) {
	_, c, _ := model(t)
	v := reflect.ValueOf(fieldstest.Sample(0))
	if got := c.Nodes(v); got != 89 {
		t.Errorf("Nodes = %d, want 89", got)
	}
	// the subtree sizes that the ordinals are built from
	for path, want := range map[string]int{
		"enabled": 1, "offset": 3, "position": 4, "plane": 5, "rgb": 4, "inner": 7, "weights": 4, "tags": 3,
		"points": 15, "basis": 17, "lookup": 1, "target": 1,
	} {
		f := find(t, c, path)
		if got := f.Nodes(v.FieldByIndex(fieldIndex(t, c, path))); got != want {
			t.Errorf("%s: %d nodes, want %d", path, got, want)
		}
	}
	empty := fieldstest.Sample(0)
	empty.Tags, empty.Points = nil, nil
	if got := c.Nodes(reflect.ValueOf(empty)); got != 89-2-14 {
		t.Errorf("Nodes with empty slices = %d, want %d", got, 89-16)
	}
}

// fieldIndex returns the reflect index path of a top-level or nested static field.
func fieldIndex(t *testing.T, c *fields.Component, path string) []int {
	t.Helper()
	var idx []int
	fs := c.Fields
	for _, seg := range splitDots(path) {
		for i := range fs {
			if fs[i].JSONName == seg {
				idx = append(idx, fs[i].Index)
				fs = fs[i].Fields
				break
			}
		}
	}
	return idx
}

func splitDots(s string) []string {
	var out []string
	for s != "" {
		i := 0
		for i < len(s) && s[i] != '.' {
			i++
		}
		out = append(out, s[:i])
		if i < len(s) {
			i++
		}
		s = s[i:]
	}
	return out
}

func setBits(b *fields.Bits) []int {
	var out []int
	for i := b.Next(0); i >= 0; i = b.Next(i + 1) {
		out = append(out, i)
	}
	return out
}

func TestDiff(t *testing.T) {
	_, c, _ := model(t)
	a, b := fieldstest.Sample(0), fieldstest.Sample(1)
	var bits fields.Bits
	if !c.Diff(reflect.ValueOf(a), reflect.ValueOf(b), &bits) {
		t.Fatal("Diff found nothing")
	}
	// enabled 1, count 2, title 10, position[0] 17, tint[0] 30
	if got, want := setBits(&bits), []int{1, 2, 10, 17, 30}; !slices.Equal(got, want) {
		t.Errorf("diff bits %v, want %v", got, want)
	}
	bits.Reset()
	if c.Diff(reflect.ValueOf(a), reflect.ValueOf(fieldstest.Sample(0)), &bits) || !bits.Empty() {
		t.Errorf("equal values differ: %v", setBits(&bits))
	}
	// nested and slice elements
	b = fieldstest.Sample(0)
	b.Inner.Offset[2] = 9
	b.Points = append([]fieldstest.Inner(nil), b.Points...)
	b.Points[1].Weight = 0.3
	b.Basis[5] = 2
	b.Lookup = map[string]int{"x": 2}
	bits.Reset()
	c.Diff(reflect.ValueOf(a), reflect.ValueOf(b), &bits)
	if got, want := setBits(&bits), []int{46, 64, 75, 88}; !slices.Equal(got, want) {
		t.Errorf("diff bits %v, want %v", got, want)
	}
	// a slice that changed length marks its whole subtree (in a's shape)
	b = fieldstest.Sample(0)
	b.Tags = []string{"a"}
	bits.Reset()
	c.Diff(reflect.ValueOf(a), reflect.ValueOf(b), &bits)
	if got, want := setBits(&bits), []int{51, 52, 53}; !slices.Equal(got, want) {
		t.Errorf("diff bits %v, want %v", got, want)
	}
	// NaN equals NaN: a NaN must not flash as a change every frame
	a.Speed = float32(math.NaN())
	b = a
	bits.Reset()
	if c.Diff(reflect.ValueOf(a), reflect.ValueOf(b), &bits) {
		t.Errorf("NaN vs NaN differs: %v", setBits(&bits))
	}
}

func TestEqual(t *testing.T) {
	v := reflect.ValueOf
	for _, tc := range []struct {
		a, b any
		want bool
	}{
		{1.5, 1.5, true}, {math.NaN(), math.NaN(), true}, {0.0, 1.0, false},
		{complex(1, 2), complex(1, 2), true}, {uintptr(3), uintptr(4), false},
		{[]int{1}, []int{1}, true}, {[]int{1}, []int{1, 2}, false},
		{map[string]int{"a": 1}, map[string]int{"a": 1}, true},
		{struct{ x, y int }{1, 2}, struct{ x, y int }{1, 3}, false},
	} {
		if got := fields.Equal(v(tc.a), v(tc.b)); got != tc.want {
			t.Errorf("Equal(%v, %v) = %v", tc.a, tc.b, got)
		}
	}
}

func TestCopyIsIndependent(t *testing.T) {
	_, c, _ := model(t)
	orig := fieldstest.Sample(0)
	cp := c.Copy(reflect.ValueOf(orig)).Interface().(fieldstest.Everything)
	orig.Tags[0] = "changed"
	orig.Points[0].Weight = 0.77
	orig.Lookup["x"] = 99
	if cp.Tags[0] != "a" || cp.Points[0].Weight != 0.1 || cp.Lookup["x"] != 1 {
		t.Errorf("copy shares memory: %v %v %v", cp.Tags, cp.Points, cp.Lookup)
	}
}

func TestBits(t *testing.T) {
	var b fields.Bits
	if !b.Empty() || b.Has(5) || b.Any(0, 100) || b.Next(0) != -1 || b.Has(-1) {
		t.Error("zero Bits is not empty")
	}
	b.Set(3)
	b.SetRange(63, 66)
	b.Set(200)
	if got := setBits(&b); !slices.Equal(got, []int{3, 63, 64, 65, 200}) {
		t.Errorf("bits %v", got)
	}
	if !b.Any(60, 64) || b.Any(4, 63) || b.Any(66, 200) || !b.Any(66, 201) {
		t.Error("Any")
	}
	b.ClearRange(64, 1000)
	if got := setBits(&b); !slices.Equal(got, []int{3, 63}) {
		t.Errorf("after ClearRange: %v", got)
	}
	var c fields.Bits
	c.CopyFrom(&b)
	b.Reset()
	if !b.Empty() || !slices.Equal(setBits(&c), []int{3, 63}) {
		t.Error("CopyFrom/Reset")
	}
}

func TestClampAndConvert(t *testing.T) {
	_, c, _ := model(t)
	speed := find(t, c, "speed")
	for _, tc := range []struct {
		in   float64
		want float32
		ok   bool
	}{
		{5, 5, true}, {-1, 0, true}, {11, 10, true}, {math.NaN(), 0, false}, {math.Inf(1), 0, false}, {math.Inf(-1), 0, false},
	} {
		v, ok := speed.FloatValue(tc.in)
		if ok != tc.ok || (ok && v.(float32) != tc.want) {
			t.Errorf("speed.FloatValue(%g) = %v %v, want %v %v", tc.in, v, ok, tc.want, tc.ok)
		}
	}
	if v, ok := find(t, c, "precise").FloatValue(1e300); !ok || v.(float64) != 1e300 {
		t.Errorf("precise: %v", v)
	}
	// a float32 field without hints clamps to the largest finite float32 rather than overflowing
	if v, _ := find(t, c, "angle").FloatValue(1e300); v.(float32) != math.MaxFloat32 {
		t.Errorf("angle: %v", v)
	}
	if v := find(t, c, "count").IntValue(99); v.(int32) != 5 {
		t.Errorf("count clamp: %v", v)
	}
	if v := find(t, c, "small").IntValue(-300); v.(int8) != -128 {
		t.Errorf("int8 range: %v", v)
	}
	if v := find(t, c, "flags").UintValue(5000); v.(uint16) != 1000 {
		t.Errorf("uint16 hint: %v", v)
	}
	if v := find(t, c, "huge").UintValue(math.MaxUint64); v.(uint64) != math.MaxUint64 {
		t.Errorf("uint64: %v", v)
	}
	if v := find(t, c, "mode").IntValue(2); v.(fieldstest.Mode) != fieldstest.Running {
		t.Errorf("enum value: %#v", v)
	}
	if v := find(t, c, "enabled").BoolValue(true); v.(bool) != true {
		t.Error("BoolValue")
	}
	if v := find(t, c, "mesh").StringValue("cube"); v.(string) != "cube" {
		t.Error("StringValue")
	}
	if v, ok := find(t, c, "position[]").FloatValue(2); !ok || v.(float32) != 2 {
		t.Errorf("channel value: %#v", v)
	}
}

func TestColor(t *testing.T) {
	_, c, _ := model(t)
	tint, rgb := find(t, c, "tint"), find(t, c, "rgb")
	s := fieldstest.Sample(1)
	if got := tint.RGBA(reflect.ValueOf(s.Tint)); got != [4]float32{0.5, 0.5, 0.25, 1} {
		t.Errorf("tint RGBA %v", got)
	}
	if got := rgb.RGBA(reflect.ValueOf(s.RGB)); got[0] != 1 || math.Abs(float64(got[1])-128.0/255) > 1e-6 || got[3] != 1 {
		t.Errorf("rgb RGBA %v", got)
	}
	v, ok := tint.ColorValue([4]float32{2, -1, 0.5, 1})
	if !ok || v.(mgl32.Vec4) != (mgl32.Vec4{1, 0, 0.5, 1}) {
		t.Errorf("tint ColorValue %v %v", v, ok)
	}
	v, ok = rgb.ColorValue([4]float32{1, 0.5, 0, 1})
	if !ok || v.([3]uint8) != [3]uint8{255, 128, 0} {
		t.Errorf("rgb ColorValue %v %v", v, ok)
	}
	if _, ok := tint.ColorValue([4]float32{float32(math.NaN()), 0, 0, 1}); ok {
		t.Error("NaN colour accepted")
	}
}

func TestSanitize(t *testing.T) {
	_, c, _ := model(t)
	v := fieldstest.Sample(0)
	if c.Sanitize(reflect.ValueOf(&v).Elem()) {
		t.Errorf("a valid value was changed: %+v", v)
	}
	v.Speed = float32(math.NaN())
	v.Count = 50
	v.Flags = 2000
	v.Tint = mgl32.Vec4{2, float32(math.Inf(1)), -1, 0.5}
	v.Inner.Weight = 7
	v.Points[1].Weight = -3
	v.Weights[2] = 500
	v.Precise = math.Inf(-1)
	if !c.Sanitize(reflect.ValueOf(&v).Elem()) {
		t.Fatal("Sanitize changed nothing")
	}
	if v.Speed != 0 || v.Count != 5 || v.Flags != 1000 || v.Tint != (mgl32.Vec4{1, 0, 0, 0.5}) || v.Inner.Weight != 1 ||
		v.Points[1].Weight != 0 || v.Weights[2] != 100 || v.Precise != 0 {
		t.Errorf("sanitized: speed %v count %v flags %v tint %v weight %v point %v weights %v precise %v",
			v.Speed, v.Count, v.Flags, v.Tint, v.Inner.Weight, v.Points[1].Weight, v.Weights, v.Precise)
	}
}
