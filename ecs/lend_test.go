package ecs_test

import (
	"sync/atomic"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
)

// A write to a lent world waits for the readers: they read the values as they were when it was lent, and the
// write returns only once they are done.
func TestLendWriteWaitsForTheReaders(t *testing.T) {
	w := newTestWorld()
	pos := ecs.NewMap[Pos](w)
	es := make([]ecs.Entity, 1000)
	for i := range es {
		es[i] = pos.Spawn(Pos{X: float64(i)})
	}
	proceed := make(chan struct{})
	var done atomic.Bool
	var wrong atomic.Int64
	end := w.Lend(func() bool {
		close(proceed) // the owner is about to write: the readers start only now
		return false
	})
	go func() {
		<-proceed
		m := ecs.NewMap[Pos](w)
		n := 0
		w.ReadEntities(func(e ecs.Entity) bool {
			if m.Get(e).X != float64(e.Index()-1) {
				wrong.Add(1)
			}
			n++
			return true
		})
		if n != len(es) {
			wrong.Add(1)
		}
		done.Store(true)
		end()
	}()
	pos.Set(es[0], Pos{X: -1})
	if !done.Load() {
		t.Fatal("the write did not wait for the readers of the lent world")
	}
	if wrong.Load() != 0 {
		t.Fatalf("the readers saw %d values the owner wrote after lending the world", wrong.Load())
	}
	if w.Lent() {
		t.Fatal("the loan ended")
	}
	pos.Set(es[1], Pos{X: -2}) // no loan: no wait
	if pos.Get(es[0]).X != -1 || pos.Get(es[1]).X != -2 {
		t.Fatal("the writes were lost")
	}
}

// worldOp is one thing the owner of a world does to it, given two entities of opWorld: a write or a read.
type worldOp struct {
	name  string
	write bool
	do    func(w *ecs.World, e, f ecs.Entity)
}

// worldOps lists every kind of write to a world, and reads that must not count as writes.
func worldOps() []worldOp {
	posID := func(w *ecs.World) ecs.ComponentID { id, _ := ecs.ComponentIDOf[Pos](w); return id }
	healthID := func(w *ecs.World) ecs.ComponentID { id, _ := ecs.ComponentIDOf[Health](w); return id }
	return []worldOp{
		{"Spawn", true, func(w *ecs.World, _, _ ecs.Entity) { w.Spawn(Pos{}) }},
		{"Map.Spawn", true, func(w *ecs.World, _, _ ecs.Entity) { ecs.NewMap[Pos](w).Spawn(Pos{}) }},
		{"Map.SpawnBatch", true, func(w *ecs.World, _, _ ecs.Entity) { ecs.NewMap[Pos](w).SpawnBatch(3, nil) }},
		{"Map2.Spawn", true, func(w *ecs.World, _, _ ecs.Entity) { ecs.NewMap2[Pos, Vel](w).Spawn(Pos{}, Vel{}) }},
		{"Despawn", true, func(w *ecs.World, e, _ ecs.Entity) { w.Despawn(e) }},
		{"DespawnRecursive", true, func(w *ecs.World, e, _ ecs.Entity) { w.DespawnRecursive(e) }},
		{"Map.Set", true, func(w *ecs.World, e, _ ecs.Entity) { ecs.NewMap[Pos](w).Set(e, Pos{X: 9}) }},
		{"Map.Mut", true, func(w *ecs.World, e, _ ecs.Entity) { ecs.NewMap[Pos](w).Mut(e).X = 9 }},
		{"Map2.Mut", true, func(w *ecs.World, e, _ ecs.Entity) { p, _ := ecs.NewMap2[Pos, Vel](w).Mut(e); p.X = 9 }},
		{"Map.Add", true, func(w *ecs.World, e, _ ecs.Entity) { ecs.NewMap[Health](w).Add(e, Health{}) }},
		{"Map.Remove", true, func(w *ecs.World, e, _ ecs.Entity) { ecs.NewMap[Vel](w).Remove(e) }},
		{"World.Set", true, func(w *ecs.World, e, _ ecs.Entity) { _ = w.Set(e, posID(w), Pos{X: 9}) }},
		{"World.SetField", true, func(w *ecs.World, e, _ ecs.Entity) { _ = w.SetField(e, posID(w), "X", 9.0) }},
		{"World.Add", true, func(w *ecs.World, e, _ ecs.Entity) { _ = w.Add(e, healthID(w), Health{}) }},
		{"World.Remove", true, func(w *ecs.World, e, _ ecs.Entity) { _ = w.Remove(e, posID(w)) }},
		{"SetParent", true, func(w *ecs.World, e, f ecs.Entity) { _ = w.SetParent(e, f) }},
		{"SetParents", true, func(w *ecs.World, e, f ecs.Entity) { _ = w.SetParents([]ecs.ParentLink{{Child: e, Parent: f}}) }},
		{"SetChildren", true, func(w *ecs.World, e, f ecs.Entity) { _ = w.SetChildren(f, []ecs.Entity{e}) }},
		{"Commands.Apply", true, func(w *ecs.World, e, _ ecs.Entity) { c := w.Commands(); c.Despawn(e); _ = c.Apply() }},
		{"a query that writes", true, func(w *ecs.World, _, _ ecs.Entity) {
			ecs.NewQuery1[Pos](w).Each(func(_ ecs.Entity, p *Pos) { p.X++ })
		}},
		{"SpawnValues", true, func(w *ecs.World, e, _ ecs.Entity) {
			v, _ := w.CopyValues(posID(w), []ecs.Entity{e})
			w.SpawnValues([]ecs.Values{v}, 0, 1)
		}},
		{"ReserveLike", true, func(w *ecs.World, e, _ ecs.Entity) { w.ReserveLike(e, 100) }},
		{"a new table", true, func(w *ecs.World, _, _ ecs.Entity) { ecs.NewMap[Health](w).PlanRoom(10) }},
		{"Register", true, func(w *ecs.World, _, _ ecs.Entity) { ecs.Register[Position](w) }},

		{"Map.Get", false, func(w *ecs.World, e, _ ecs.Entity) { ecs.NewMap[Pos](w).Get(e) }},
		{"World.Get", false, func(w *ecs.World, e, _ ecs.Entity) { w.Get(e, posID(w)) }},
		{"a query that reads", false, func(w *ecs.World, _, _ ecs.Entity) {
			ecs.NewQuery1[Pos](w, ecs.Read[Pos]()).Each(func(ecs.Entity, *Pos) {})
		}},
		{"EachEntity", false, func(w *ecs.World, _, _ ecs.Entity) { w.EachEntity(func(ecs.Entity) bool { return true }) }},
		{"CopyValues", false, func(w *ecs.World, e, _ ecs.Entity) { _, _ = w.CopyValues(posID(w), []ecs.Entity{e}) }},
		{"ReadCopy", false, func(w *ecs.World, _, _ ecs.Entity) { w.ReadCopy() }},
		{"PropagateTransforms", false, func(w *ecs.World, _, _ ecs.Entity) { w.PropagateTransforms() }},
	}
}

// opWorld is the world the ops of worldOps are tried on, and its two entities.
func opWorld() (w *ecs.World, e, f ecs.Entity) {
	w = newTestWorld()
	e = w.Spawn(Pos{X: 1}, Vel{}, ecs.Transform{})
	f = w.Spawn(Pos{X: 2}, Vel{}, ecs.Transform{})
	ecs.NewMap[ecs.Transform](w).Set(f, ecs.Transform{Scale: [3]float32{2, 2, 2}}) // something to propagate
	return w, e, f
}

// Every kind of write reclaims (or waits for) a lent world first; reads do not.
func TestLendEveryWriteReclaims(t *testing.T) {
	for _, o := range worldOps() {
		w, e, f := opWorld()
		reclaimed := 0
		w.Lend(func() bool { reclaimed++; return true }) // given back: nothing waits
		o.do(w, e, f)
		if got := reclaimed == 1; got != o.write {
			t.Errorf("%s: reclaimed the lent world %d times, want %v", o.name, reclaimed, o.write)
		}
		if w.Lent() == o.write {
			t.Errorf("%s: lent after it: %v", o.name, w.Lent())
		}
	}
}
