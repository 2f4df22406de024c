package ecs

import "testing"

// ShapeVersion grows with each spawn (one by one or from values), despawn and parent change, and only then.
func TestShapeVersion(t *testing.T) {
	w := NewWorld()
	last := w.ShapeVersion()
	step := func(what string, grows bool) {
		t.Helper()
		v := w.ShapeVersion()
		if (v > last) != grows {
			t.Fatalf("%s: ShapeVersion %d -> %d, want growing %v", what, last, v, grows)
		}
		last = v
	}
	a := w.Spawn(Transform{})
	step("spawn", true)
	b := w.Spawn(Transform{})
	step("spawn", true)
	if err := w.SetParent(b, a); err != nil {
		t.Fatal(err)
	}
	step("parent", true)
	if err := w.Set(b, w.transformID, Transform{Scale: [3]float32{2, 2, 2}}); err != nil {
		t.Fatal(err)
	}
	step("a component write", false)
	vals, err := w.CopyValues(w.transformID, []Entity{a})
	if err != nil {
		t.Fatal(err)
	}
	w.SpawnValues([]Values{vals}, 0, 1)
	step("spawn from values", true)
	if err := w.SetParent(b, Entity{}); err != nil {
		t.Fatal(err)
	}
	step("unparent", true)
	if err := w.SetParent(b, a); err != nil {
		t.Fatal(err)
	}
	step("parent", true)
	w.Despawn(a)
	step("despawn of a parent", true)
}
