package ecs_test

import (
	"testing"

	"github.com/voltex-editor/voltex/ecs"
)

// TestSteadyStateAllocatesNothing checks the per-frame paths: query iteration (plain, Changed,
// columns, EachTable), typed access and transform propagation allocate nothing once warmed up.
func TestSteadyStateAllocatesNothing(t *testing.T) {
	w := newTestWorld()
	m := ecs.NewMap2[Pos, Vel](w)
	tm := ecs.NewMap[ecs.Transform](w)
	var es []ecs.Entity
	for i := range 1000 {
		es = append(es, m.Spawn(Pos{X: float64(i)}, Vel{1, 1}))
		w.Spawn(Pos{}, Health{i})
	}
	root := tm.Spawn(ecs.Transform{}.Default())
	child := tm.Spawn(ecs.Transform{}.Default())
	if err := w.SetParent(child, root); err != nil {
		t.Fatal(err)
	}
	move := ecs.NewQuery2[Pos, Vel](w, ecs.Read[Vel]())
	changed := ecs.NewQuery1[Pos](w, ecs.Changed[Pos](), ecs.Read[Pos]())
	pm := ecs.NewMap[Pos](w)
	frame := func() {
		it := move.Iter()
		for it.Next() {
			p, v := it.Get()
			p.X += v.X
		}
		ct := move.Iter()
		for ct.NextTable() {
			ps, vs := ct.Columns()
			for i := range ps {
				ps[i].Y += vs[i].Y
			}
		}
		dy := 0.5 // captured: the closure stays on the stack, EachTable does not keep fn
		move.EachTable(func(_ []ecs.Entity, ps []Pos, vs []Vel) {
			vs = vs[:len(ps)]
			for i := range ps {
				ps[i].Y += vs[i].Y * dy
			}
		})
		pm.Mut(es[3]).Y++
		it2 := changed.Iter()
		for it2.Next() {
			_ = it2.Get().X + pm.Get(it2.Entity()).X
		}
		tm.Mut(root).Position[0]++
		w.PropagateTransforms()
		_ = w.WorldMatrix(child)
	}
	frame()
	if n := testing.AllocsPerRun(50, frame); n != 0 {
		t.Fatalf("a frame allocates %v times", n)
	}
	eq(t, "propagated", w.WorldMatrix(child).Col(3).Vec3()[0] > 0, true)
}
