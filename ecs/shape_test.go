package ecs

import (
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

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

// A reader that keeps the roots and follows ShapeChanges has the roots a whole scan finds, through spawns, despawns
// (of parents too), parent changes and spawns from values; a reader further behind than the log is told so.
func TestShapeChangesFollowRoots(t *testing.T) {
	w := NewWorld()
	rng := rand.New(rand.NewPCG(3, 4))
	roots := map[Entity]bool{}
	scan := func() map[Entity]bool {
		m := map[Entity]bool{}
		w.EachEntity(func(e Entity) bool {
			if w.Parent(e).IsZero() {
				m[e] = true
			}
			return true
		})
		return m
	}
	var live []Entity
	seen := w.ShapeVersion()
	for round := range 200 {
		for range 1 + rng.IntN(8) {
			switch k := rng.IntN(5); {
			case k < 2 || len(live) < 2:
				live = append(live, w.Spawn(Transform{}))
			case k == 2:
				i := rng.IntN(len(live))
				w.Despawn(live[i])
				live = append(live[:i], live[i+1:]...)
			case k == 3:
				_ = w.SetParent(live[rng.IntN(len(live))], live[rng.IntN(len(live))]) // a cycle is refused: no change
			default:
				vals, err := w.CopyValues(w.transformID, live[:1])
				if err != nil {
					t.Fatal(err)
				}
				live = append(live, w.SpawnValues([]Values{vals}, 0, 1)...)
			}
		}
		if !w.ShapeChanges(seen, func(e Entity) {
			for r := range roots {
				if r.Index() == e.Index() {
					delete(roots, r)
				}
			}
			if w.Alive(e) && w.Parent(e).IsZero() {
				roots[e] = true
			}
		}) {
			t.Fatalf("round %d: changes since %d not held", round, seen)
		}
		seen = w.ShapeVersion()
		if want := scan(); !maps.Equal(roots, want) {
			t.Fatalf("round %d: followed roots %d, scanned %d", round, len(roots), len(want))
		}
	}
	if w.ShapeChanges(seen+1, func(Entity) {}) {
		t.Error("changes since a version not reached yet: reported held")
	}
	for range maxShapeLog + 1 {
		w.Spawn(Transform{})
	}
	called := false
	if w.ShapeChanges(seen, func(Entity) { called = true }) || called {
		t.Error("changes since a version more than the log ago: reported held")
	}
}

// A reader behind by half the log's size or less is always told the changes since it looked, even when the log
// filled up in between (it drops its older half then, not everything): the changes are exactly those made.
func TestShapeChangesHoldTheLastHalf(t *testing.T) {
	w := NewWorld()
	for range maxShapeLog - 10 { // the log near its end
		w.Spawn(Transform{})
	}
	seen := w.ShapeVersion()
	var want []Entity
	for range maxShapeLog / 2 { // crosses the end
		want = append(want, w.Spawn(Transform{}))
	}
	var got []Entity
	if !w.ShapeChanges(seen, func(e Entity) { got = append(got, e) }) {
		t.Fatalf("changes since a version %d changes ago: not held", maxShapeLog/2)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("followed %d changes, want the %d spawns in order", len(got), len(want))
	}
	for range maxShapeLog {
		w.Spawn(Transform{})
	}
	if w.ShapeChanges(seen, func(Entity) {}) {
		t.Error("changes since a version more than the log ago: reported held")
	}
}
