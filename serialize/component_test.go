package serialize

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
)

func TestComponentJSONAndBack(t *testing.T) {
	w := testWorld()
	a := w.Spawn(&scene.SceneID{ID: 11})
	b := w.Spawn(&scene.SceneID{ID: 22}, &ecs.Transform{Position: mgl32.Vec3{1, 2, 3}, Scale: mgl32.Vec3{1, 1, 1}}, &kinds{Ref: a})
	tr, _ := w.ComponentByName("Transform")
	js, err := ComponentJSON(w, b, tr)
	if err != nil || js != `{ "position": [1, 2, 3], "rotation": [0, 0, 0], "scale": [1, 1, 1] }` {
		t.Fatalf("ComponentJSON: %q, %v", js, err)
	}
	kc, _ := w.ComponentByName("Kinds")
	kjs, err := ComponentJSON(w, b, kc)
	if err != nil || !strings.Contains(kjs, `"ref": 11`) {
		t.Fatalf("Kinds JSON %q, %v", kjs, err)
	}
	byID := map[uint64]ecs.Entity{11: a, 22: b}
	ref := func(id uint64) (ecs.Entity, bool) { e, ok := byID[id]; return e, ok }
	v, err := DecodeComponent(w, tr, `{ "position": [4, 5, 6] }`, ref)
	if got := v.(*ecs.Transform); err != nil || got.Position != (mgl32.Vec3{4, 5, 6}) || got.Scale != (mgl32.Vec3{1, 1, 1}) {
		t.Fatalf("decode: %+v, %v", v, err)
	}
	k, err := DecodeComponent(w, kc, strings.Replace(kjs, `"ref": 11`, `"ref": 22`, 1), ref)
	if err != nil || k.(*kinds).Ref != b {
		t.Fatalf("decode with a reference: %+v, %v", k, err)
	}
	if _, err := DecodeComponent(w, kc, strings.Replace(kjs, `"ref": 11`, `"ref": 99`, 1), ref); err == nil || !strings.Contains(err.Error(), "entity 99 does not exist") {
		t.Errorf("unknown reference: %v", err)
	}
	if _, err := DecodeComponent(w, tr, `{ "scale": [1, 2] }`, ref); err == nil || !strings.Contains(err.Error(), "expected 3 items") {
		t.Errorf("bad value: %v", err)
	}
}

func TestSetJSON(t *testing.T) {
	for _, c := range []struct{ js, path, val, want string }{
		{`{"a": 1, "b": {"x": 1, "y": 2}}`, "b.y", "[3, 4]", `{ "a": 1, "b": { "x": 1, "y": [3, 4] } }`},
		{`{"a": 1, "b": {"x": 1, "y": 2}}`, "b.x", "", `{ "a": 1, "b": { "y": 2 } }`},
		{`{"a": 1}`, "c.d", "true", `{ "a": 1, "c": { "d": true } }`},
	} {
		if got, err := SetJSON(c.js, c.path, c.val); err != nil || got != c.want {
			t.Errorf("SetJSON(%s, %s, %s) = %s, %v; want %s", c.js, c.path, c.val, got, err, c.want)
		}
	}
	if _, err := SetJSON(`{"a": 1}`, "a.b", "2"); err == nil {
		t.Error("setting inside a number")
	}
}

// A ComponentEncoder writes detached copies of values (ecs.Values), references as its function
// numbers them, and names the field a value JSON cannot hold.
func TestComponentEncoder(t *testing.T) {
	w := testWorld()
	a := w.Spawn(&scene.SceneID{ID: 11})
	b := w.Spawn(&ecs.Transform{Position: mgl32.Vec3{1, 2, 3}, Scale: mgl32.Vec3{1, 1, 1}}, &kinds{Ref: a})
	kc, _ := w.ComponentByName("Kinds")
	tr, _ := w.ComponentByName("Transform")
	enc, err := NewComponentEncoder(w.ComponentInfo(kc), func(e ecs.Entity) int64 { return int64(e.Index()) * 1000 })
	if err != nil {
		t.Fatal(err)
	}
	vals, err := w.CopyValues(kc, []ecs.Entity{b})
	if err != nil {
		t.Fatal(err)
	}
	js, err := enc.Append([]byte("x"), vals.Value(0))
	if err != nil || !strings.HasPrefix(string(js), `x{ `) || !strings.Contains(string(js), `"ref": 1000`) {
		t.Fatalf("Append: %s, %v", js, err)
	}
	tenc, _ := NewComponentEncoder(w.ComponentInfo(tr), nil)
	tv, _ := w.CopyValues(tr, []ecs.Entity{b})
	tv.Value(0).FieldByName("Position").Index(1).SetFloat(math.NaN())
	if out, err := tenc.Append([]byte("x"), tv.Value(0)); err == nil || string(out) != "x" ||
		!strings.Contains(err.Error(), "Transform: position[1]: is NaN") {
		t.Fatalf("NaN: %q, %v", out, err)
	}
}
