package ecs_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
)

type Name struct{ S string }
type Health struct{ HP int }
type Selected struct{}
type Hidden struct{}

func newTestWorld() *ecs.World {
	w := ecs.NewWorld()
	ecs.Register[Pos](w)
	ecs.Register[Vel](w)
	ecs.Register[Name](w)
	ecs.Register[Health](w)
	ecs.Register[Selected](w, ecs.WithStorage(ecs.SparseSet))
	ecs.Register[Hidden](w, ecs.WithStorage(ecs.SparseSet))
	return w
}

// Phase-3a: allocate, free and reuse with generation+1.
func TestEntityAllocateReuseGeneration(t *testing.T) {
	w := newTestWorld()
	e0 := w.Spawn()
	e1 := w.Spawn()
	eq(t, "e0 index", e0.Index(), 1)
	eq(t, "e1 index", e1.Index(), 2)
	eq(t, "e0 generation", e0.Generation(), 0)
	if !w.Despawn(e0) {
		t.Fatal("despawn failed")
	}
	e2 := w.Spawn()
	eq(t, "reused index", e2.Index(), e0.Index())
	eq(t, "reused generation", e2.Generation(), e0.Generation()+1)
	eq(t, "string", e2.String(), "e1v1")
	eq(t, "zero string", ecs.Entity{}.String(), "e-")
}

// Phase-3a: a stale handle is rejected and never touches the new owner of the slot.
func TestStaleHandleRejected(t *testing.T) {
	w := newTestWorld()
	old := w.Spawn(Pos{1, 2})
	w.Despawn(old)
	cur := w.Spawn(Pos{3, 4})
	eq(t, "same slot", cur.Index(), old.Index())
	if w.Alive(old) {
		t.Fatal("stale handle is alive")
	}
	pid, _ := ecs.ComponentIDOf[Pos](w)
	if _, ok := w.Get(old, pid); ok {
		t.Fatal("Get through a stale handle")
	}
	if err := w.Set(old, pid, Pos{9, 9}); !errors.Is(err, ecs.ErrDeadEntity) {
		t.Fatalf("Set on stale handle: %v", err)
	}
	if err := w.Remove(old, pid); !errors.Is(err, ecs.ErrDeadEntity) {
		t.Fatalf("Remove on stale handle: %v", err)
	}
	if w.Despawn(old) {
		t.Fatal("despawn of a stale handle succeeded")
	}
	v, _ := w.Get(cur, pid)
	eq(t, "new owner untouched", v.(Pos), Pos{3, 4})
	expectPanic(t, "not alive", func() { ecs.NewMap[Pos](w).Get(old) })
	if ecs.NewMap[Pos](w).Has(old) {
		t.Fatal("Map.Has on stale handle")
	}
}

// Phase-3a: double despawn is rejected; the zero entity is never alive.
func TestDoubleDespawnAndZero(t *testing.T) {
	w := newTestWorld()
	e := w.Spawn()
	if !w.Despawn(e) || w.Despawn(e) {
		t.Fatal("double despawn")
	}
	if w.Alive(ecs.Entity{}) || !(ecs.Entity{}).IsZero() || w.Despawn(ecs.Entity{}) {
		t.Fatal("zero entity")
	}
}

// Phase-3a: alive count.
func TestAliveCount(t *testing.T) {
	w := newTestWorld()
	e0 := w.Spawn()
	w.Spawn(Pos{})
	eq(t, "len", w.Len(), 2)
	w.Despawn(e0)
	eq(t, "len after despawn", w.Len(), 1)
}

// Phase-3a: swap-remove keeps the other entities reachable with their values.
func TestSwapRemoveKeepsOthers(t *testing.T) {
	w := newTestWorld()
	pm := ecs.NewMap[Pos](w)
	var es []ecs.Entity
	for i := range 5 {
		es = append(es, pm.Spawn(Pos{float64(i), 0}))
	}
	w.Despawn(es[0])
	w.Despawn(es[2])
	for _, i := range []int{1, 3, 4} {
		eq(t, "value", pm.Get(es[i]).X, float64(i))
	}
	vm := ecs.NewMap[Vel](w)
	vm.Add(es[3], Vel{7, 7})
	eq(t, "after move", pm.Get(es[1]).X, 1)
	eq(t, "after move", pm.Get(es[3]).X, 3)
	eq(t, "after move", pm.Get(es[4]).X, 4)
	eq(t, "vel", vm.Get(es[3]), Vel{7, 7})
}

// Phase-3a: a two-component query returns only entities having both.
func TestQuery2OnlyBoth(t *testing.T) {
	w := newTestWorld()
	both := w.Spawn(Pos{0, 0}, Vel{1, 0})
	w.Spawn(Pos{5, 5})
	w.Spawn(Vel{2, 2})
	q := ecs.NewQuery2[Pos, Vel](w)
	var got []ecs.Entity
	it := q.Iter()
	for it.Next() {
		p, v := it.Get()
		eq(t, "pos", *p, Pos{0, 0})
		eq(t, "vel", *v, Vel{1, 0})
		got = append(got, it.Entity())
	}
	if !slices.Equal(got, []ecs.Entity{both}) {
		t.Fatalf("got %v", got)
	}
	eq(t, "count", q.Count(), 1)
}

// Phase-3a: despawn removes all components.
func TestDespawnRemovesAllComponents(t *testing.T) {
	w := newTestWorld()
	e := w.Spawn(Pos{1, 2}, Name{"x"}, Selected{})
	w.Despawn(e)
	for _, id := range w.ComponentIDs() {
		if w.Has(e, id) {
			t.Fatalf("still has %d", id)
		}
	}
	e2 := w.Spawn()
	eq(t, "slot reused", e2.Index(), e.Index())
	if len(w.ComponentsOf(e2)) != 0 {
		t.Fatalf("new entity inherited %v", w.ComponentsOf(e2))
	}
	eq(t, "selected count", ecs.NewQuery1[Selected](w).Count(), 0)
}

func TestEachEntityAscending(t *testing.T) {
	w := newTestWorld()
	var es []ecs.Entity
	for range 6 {
		es = append(es, w.Spawn())
	}
	w.Despawn(es[1])
	w.Despawn(es[4])
	var got []ecs.Entity
	w.EachEntity(func(e ecs.Entity) bool { got = append(got, e); return true })
	want := []ecs.Entity{es[0], es[2], es[3], es[5]}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v want %v", got, want)
	}
	n := 0
	w.EachEntity(func(ecs.Entity) bool { n++; return n < 2 })
	eq(t, "early stop", n, 2)
}

func TestRegister(t *testing.T) {
	w := ecs.NewWorld()
	a := ecs.Register[Pos](w)
	b := ecs.Register[Pos](w)
	eq(t, "idempotent", a, b)
	c := ecs.Register[Vel](w, ecs.WithName("velocity"))
	id, ok := w.ComponentByName("velocity")
	if !ok || id != c {
		t.Fatal("ComponentByName")
	}
	if _, ok := w.ComponentByName("Vel"); ok {
		t.Fatal("renamed component found by Go name")
	}
	info := w.ComponentInfo(a)
	eq(t, "name", info.Name, "Pos")
	eq(t, "storage", info.Storage, ecs.Table)
	ids := w.ComponentIDs()
	if !slices.Equal(ids[len(ids)-2:], []ecs.ComponentID{a, c}) {
		t.Fatalf("registration order %v", ids)
	}
	sel := ecs.Register[Selected](w, ecs.WithStorage(ecs.SparseSet))
	if !w.ComponentInfo(sel).IsTag || w.ComponentInfo(sel).Storage != ecs.SparseSet {
		t.Fatal("tag info")
	}
	expectPanic(t, "already registered", func() { ecs.Register[Pos](w, ecs.WithName("other")) })
	type Pos2 struct{ X float64 }
	expectPanic(t, "already used", func() { ecs.Register[Pos2](w, ecs.WithName("Pos")) })
	expectPanic(t, "must be struct", func() { ecs.Register[int](w) })
	expectPanic(t, "ecs.Register[", func() { w.Spawn(Health{}) })
	if _, ok := ecs.ComponentIDOf[Health](w); ok {
		t.Fatal("unregistered found")
	}
}

type C0 struct{ V int }

func TestManyComponentTypes(t *testing.T) {
	w := ecs.NewWorld()
	ids := registerMany(w)
	if len(w.ComponentIDs()) != ecs.MaxComponents {
		t.Fatalf("registered %d", len(w.ComponentIDs()))
	}
	e := w.Spawn()
	for i, id := range ids {
		if err := w.Add(e, id, nil); err != nil {
			t.Fatal(i, err)
		}
	}
	tid, _ := ecs.ComponentIDOf[ecs.Transform](w)
	if err := w.Add(e, tid, nil); err != nil { // adds GlobalTransform too
		t.Fatal(err)
	}
	eq(t, "components", len(w.ComponentsOf(e)), ecs.MaxComponents)
	last := ids[len(ids)-1]
	if !w.Has(e, last) {
		t.Fatal("last component")
	}
	if err := w.Remove(e, last); err != nil || w.Has(e, last) {
		t.Fatal("remove last", err)
	}
}

func TestTypeErased(t *testing.T) {
	w := newTestWorld()
	pid, _ := ecs.ComponentIDOf[Pos](w)
	hid, _ := ecs.ComponentIDOf[Health](w)
	sid, _ := ecs.ComponentIDOf[Selected](w)
	e := w.Spawn(&Pos{1, 2})
	if !w.Has(e, pid) || w.Has(e, hid) {
		t.Fatal("Has")
	}
	if err := w.Set(e, hid, Health{3}); !errors.Is(err, ecs.ErrNoComponent) {
		t.Fatalf("Set missing: %v", err)
	}
	if err := w.Add(e, hid, nil); err != nil {
		t.Fatal(err)
	}
	if err := w.Add(e, hid, nil); !errors.Is(err, ecs.ErrHasComponent) {
		t.Fatalf("Add twice: %v", err)
	}
	if err := w.Set(e, hid, Pos{}); !errors.Is(err, ecs.ErrValueType) {
		t.Fatalf("Set wrong type: %v", err)
	}
	if err := w.Set(e, hid, &Health{42}); err != nil {
		t.Fatal(err)
	}
	v, _ := w.Get(e, hid)
	eq(t, "health", v.(Health).HP, 42)
	if err := w.Add(e, sid, Selected{}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(w.ComponentsOf(e), []ecs.ComponentID{pid, hid, sid}) {
		t.Fatalf("ComponentsOf %v", w.ComponentsOf(e))
	}
	if err := w.Remove(e, pid); err != nil {
		t.Fatal(err)
	}
	if err := w.Remove(e, pid); !errors.Is(err, ecs.ErrNoComponent) {
		t.Fatal(err)
	}
	if err := w.Set(e, ecs.ComponentID(999), 1); !errors.Is(err, ecs.ErrUnknownComponent) {
		t.Fatal(err)
	}
	if err := w.Remove(e, sid); err != nil || w.Has(e, sid) {
		t.Fatal("remove sparse", err)
	}
}

func TestMapAccessors(t *testing.T) {
	w := newTestWorld()
	pm := ecs.NewMap[Pos](w)
	sm := ecs.NewMap[Selected](w)
	m2 := ecs.NewMap2[Pos, Vel](w)
	e := m2.Spawn(Pos{1, 1}, Vel{2, 2})
	p, v := m2.Get(e)
	eq(t, "pos", p, Pos{1, 1})
	eq(t, "vel", v, Vel{2, 2})
	pp, _ := m2.Mut(e)
	pp.X = 10
	eq(t, "mut", pm.Get(e).X, 10)
	if sm.Has(e) {
		t.Fatal("selected")
	}
	sm.Add(e, Selected{})
	if !sm.Has(e) {
		t.Fatal("selected after add")
	}
	_ = sm.Get(e)
	expectPanic(t, "already has", func() { sm.Add(e, Selected{}) })
	sm.Remove(e)
	expectPanic(t, "has no Selected", func() { sm.Get(e) })
	if _, ok := sm.TryGet(e); ok {
		t.Fatal("TryGet")
	}
	m2.Remove(e)
	if pm.Has(e) || !w.Alive(e) {
		t.Fatal("Map2.Remove")
	}
	m2.Add(e, Pos{3, 3}, Vel{4, 4})
	if !m2.Has(e) {
		t.Fatal("Map2.Add")
	}
	m2.Set(e, Pos{5, 5}, Vel{6, 6})
	eq(t, "set", pm.Get(e), Pos{5, 5})
	n := 0
	m2.SpawnBatch(10, func(_ ecs.Entity, p *Pos, _ *Vel) { p.X = 7; n++ })
	eq(t, "batch", n, 10)
	eq(t, "batch count", ecs.NewQuery1[Pos](w, ecs.With[Vel]()).Count(), 11)
	// sparse data component through Map
	ecs.Register[Tagged](w, ecs.WithStorage(ecs.SparseSet))
	tm := ecs.NewMap[Tagged](w)
	tm.Add(e, Tagged{5})
	eq(t, "sparse get", tm.Get(e).N, 5)
	tm.Mut(e).N = 6
	eq(t, "sparse mut", tm.Get(e).N, 6)
	e2 := tm.Spawn(Tagged{9})
	eq(t, "sparse spawn", tm.Get(e2).N, 9)
	w.Despawn(e)
	expectPanic(t, "not alive", func() { tm.Get(e) })
	eq(t, "sparse after despawn", tm.Get(e2).N, 9)
}

type Tagged struct{ N int }
