package ecs_test

import (
	"reflect"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
)

type Score struct{ N int }

// schedWorld builds a world with systems: move (writes Pos, reads Vel), heal (writes Health),
// count (reads Pos, writes the Score resource), spawner (commands) and a Changed observer.
func schedWorld(parallel bool) (*ecs.World, *int) {
	w := newTestWorld()
	m := ecs.NewMap2[Pos, Vel](w)
	for i := range 500 {
		m.Spawn(Pos{X: float64(i)}, Vel{X: 1, Y: float64(i % 7)})
		w.Spawn(Health{HP: i})
	}
	ecs.SetResource(w, Score{})
	move := ecs.NewQuery2[Pos, Vel](w, ecs.Read[Vel]())
	heal := ecs.NewQuery1[Health](w)
	count := ecs.NewQuery1[Pos](w, ecs.Read[Pos]())
	changed := ecs.NewQuery1[Pos](w, ecs.Changed[Pos](), ecs.Read[Pos]())
	seen := new(int)
	w.AddSystem(ecs.System{Name: "move", Access: move.Access(), Run: func(w *ecs.World, _ *ecs.Commands) {
		it := move.Iter()
		for it.Next() {
			p, v := it.Get()
			p.X += v.X
			p.Y += v.Y
		}
	}})
	w.AddSystem(ecs.System{Name: "heal", Access: heal.Access(), Run: func(w *ecs.World, cmds *ecs.Commands) {
		it := heal.Iter()
		for it.Next() {
			h := it.Get()
			h.HP++
			if h.HP%100 == 0 {
				cmds.Spawn(Health{HP: 1})
			}
		}
	}})
	w.AddSystem(ecs.System{Name: "count", After: []string{"move"},
		Access: ecs.WritesResource[Score](count.Access()), Run: func(w *ecs.World, _ *ecs.Commands) {
			s := ecs.Resource[Score](w)
			it := count.Iter()
			for it.Next() {
				s.N += int(it.Get().X) % 3
			}
		}})
	w.AddSystem(ecs.System{Name: "observe", Stage: 1, Access: changed.Access(), Run: func(w *ecs.World, _ *ecs.Commands) {
		*seen += changed.Count()
		it := changed.Iter()
		for it.Next() {
		}
	}})
	w.Schedule().SetParallel(parallel)
	return w, seen
}

func TestScheduleParallelEqualsSerial(t *testing.T) {
	wp, seenP := schedWorld(true)
	ws, seenS := schedWorld(false)
	want := [][]string{{"move", "heal"}, {"count"}, {"observe"}}
	if got := wp.Schedule().Batches(); !reflect.DeepEqual(got, want) {
		t.Fatalf("batches %v", got)
	}
	for range 20 {
		wp.Update()
		ws.Update()
	}
	eq(t, "score", ecs.Resource[Score](wp).N, ecs.Resource[Score](ws).N)
	eq(t, "entities", wp.Len(), ws.Len())
	eq(t, "observer", *seenP, *seenS)
	eq(t, "observer saw every move", *seenP, 20*500)
	eq(t, "tick", wp.Tick(), ws.Tick())
	var a, b []Pos
	ecs.NewQuery1[Pos](wp, ecs.Read[Pos]()).Each(func(_ ecs.Entity, p *Pos) { a = append(a, *p) })
	ecs.NewQuery1[Pos](ws, ecs.Read[Pos]()).Each(func(_ ecs.Entity, p *Pos) { b = append(b, *p) })
	if !reflect.DeepEqual(a, b) {
		t.Fatal("positions differ")
	}
}

func TestScheduleOrderAndErrors(t *testing.T) {
	w := ecs.NewWorld()
	var order []string
	add := func(name string, stage int, after, before []string) {
		w.AddSystem(ecs.System{Name: name, Stage: stage, After: after, Before: before,
			Access: ecs.WritesResource[Score](ecs.Access{}),
			Run:    func(*ecs.World, *ecs.Commands) { order = append(order, name) }})
	}
	add("c", 0, []string{"a"}, nil)
	add("a", 0, nil, nil)
	add("b", 0, nil, []string{"a"})
	add("late", -1, nil, nil)
	w.Update()
	if !reflect.DeepEqual(order, []string{"late", "b", "a", "c"}) {
		t.Fatalf("order %v", order)
	}
	expectPanic(t, "already scheduled", func() { add("a", 0, nil, nil) })
	w2 := ecs.NewWorld()
	w2.AddSystem(ecs.System{Name: "x", After: []string{"y"}, Run: func(*ecs.World, *ecs.Commands) {}})
	w2.AddSystem(ecs.System{Name: "y", After: []string{"x"}, Run: func(*ecs.World, *ecs.Commands) {}})
	expectPanic(t, "cycle", func() { w2.Update() })
	w3 := newTestWorld()
	w3.Spawn(Pos{})
	w3.AddSystem(ecs.System{Name: "bad", Run: func(w *ecs.World, _ *ecs.Commands) { w.Spawn() }})
	expectPanic(t, "command buffer", func() { w3.Update() })
	w3.Spawn() // unlocked again
}

func TestScheduleCheckAccess(t *testing.T) {
	w := newTestWorld()
	w.Spawn(Pos{}, Vel{})
	q := ecs.NewQuery2[Pos, Vel](w, ecs.Read[Vel]())
	vid := mustID[Vel](t, w)
	w.AddSystem(ecs.System{Name: "sneaky", Access: ecs.Access{Reads: []ecs.ComponentID{vid}},
		Run: func(*ecs.World, *ecs.Commands) {
			it := q.Iter()
			for it.Next() {
			}
		}})
	w.Schedule().SetCheckAccess(true)
	expectPanic(t, `system "sneaky" writes Pos`, func() { w.Update() })
	w.Spawn() // the world is usable again
	w2 := newTestWorld()
	w2.Spawn(Pos{}, Vel{})
	q2 := ecs.NewQuery2[Pos, Vel](w2, ecs.Read[Vel]())
	w2.AddSystem(ecs.System{Name: "honest", Access: q2.Access(), Run: func(*ecs.World, *ecs.Commands) {
		it := q2.Iter()
		for it.Next() {
		}
	}})
	w2.Schedule().SetCheckAccess(true)
	w2.Update()
}
