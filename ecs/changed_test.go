package ecs_test

import (
	"slices"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
)

type Toggled struct{ On bool }

// AppendChanged lists exactly the entities written after a tick, for table and sparse-set
// components, after single writes, whole-table query writes and adds, without advancing the tick.
func TestAppendChanged(t *testing.T) {
	w := newTestWorld()
	tog := ecs.Register[Toggled](w, ecs.WithStorage(ecs.SparseSet))
	pos := ecs.NewMap[Pos](w)
	posID := pos.ID()
	var es []ecs.Entity
	for i := range 200 {
		es = append(es, pos.Spawn(Pos{X: float64(i)}))
	}
	sorted := func(s []ecs.Entity) []ecs.Entity {
		slices.SortFunc(s, func(a, b ecs.Entity) int { return int(a.Index()) - int(b.Index()) })
		return s
	}
	if got := w.AppendChanged(nil, posID, 0); len(got) != 200 {
		t.Fatalf("after spawning: %d changed, want 200", len(got))
	}
	w.Update()
	cut := w.Tick()
	if got := w.AppendChanged(nil, posID, cut-1); len(got) != 0 {
		t.Fatalf("nothing written: %v", got)
	}
	pos.Mut(es[3]).X = 1
	pos.Mut(es[130]).X = 1
	got := sorted(w.AppendChanged(nil, posID, cut-1))
	if !slices.Equal(got, []ecs.Entity{es[3], es[130]}) {
		t.Fatalf("two writes: got %v", got)
	}
	if w.Tick() != cut {
		t.Fatal("AppendChanged advanced the tick")
	}
	w.Update()
	cut = w.Tick()
	q := ecs.NewQuery1[Pos](w)
	q.Each(func(_ ecs.Entity, p *Pos) { p.X++ }) // marks the whole table
	if got := w.AppendChanged(nil, posID, cut-1); len(got) != 200 {
		t.Fatalf("a query wrote every row: %d changed", len(got))
	}
	w.Update()
	cut = w.Tick()
	if err := w.Add(es[7], tog, Toggled{On: true}); err != nil {
		t.Fatal(err)
	}
	if got := w.AppendChanged(nil, tog, cut-1); !slices.Equal(got, []ecs.Entity{es[7]}) {
		t.Fatalf("sparse add: got %v", got)
	}
	if got := w.AppendChanged(nil, posID, cut-1); len(got) != 0 {
		t.Fatalf("adding a sparse-set component changed no Pos: got %v", got)
	}
}

// EntityAt rebuilds a handle from its numbers; a stale one stays stale.
func TestEntityAt(t *testing.T) {
	w := newTestWorld()
	e := w.Spawn(Pos{})
	if got := ecs.EntityAt(e.Index(), e.Generation()); got != e || !w.Alive(got) {
		t.Fatalf("EntityAt = %v, want %v", got, e)
	}
	w.Despawn(e)
	if w.Alive(ecs.EntityAt(e.Index(), e.Generation())) {
		t.Fatal("a despawned handle rebuilt is alive")
	}
}

// AdvanceTick splits writes made without an Update between them: the changes after the returned
// tick are exactly the later ones.
func TestAdvanceTick(t *testing.T) {
	w := newTestWorld()
	pos := ecs.NewMap[Pos](w)
	a, b := pos.Spawn(Pos{}), pos.Spawn(Pos{})
	cut := w.AdvanceTick()
	if w.Tick() != cut+1 {
		t.Fatalf("tick %d after AdvanceTick returned %d", w.Tick(), cut)
	}
	pos.Mut(b).X = 2
	if got := w.AppendChanged(nil, pos.ID(), cut); !slices.Equal(got, []ecs.Entity{b}) {
		t.Fatalf("changed after the cut: %v, want only %v (not %v)", got, b, a)
	}
}
