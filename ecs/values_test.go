package ecs_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/ecs"
)

type Tags struct{ List []string }

// TestValuesRoundTrip copies components out of a world, despawns the entities and spawns them
// again from the copies: same values, the same slots, companions added, slices private.
func TestValuesRoundTrip(t *testing.T) {
	w := newTestWorld()
	ecs.Register[Tags](w)
	pid, tid, trid := mustID[Pos](t, w), mustID[Tags](t, w), mustID[ecs.Transform](t, w)
	var es []ecs.Entity
	for i := range 5 {
		tr := ecs.Transform{}.Default()
		tr.Position = mgl32.Vec3{float32(i), 0, 0}
		es = append(es, w.Spawn(Pos{float64(i), 1}, Tags{[]string{"a"}}, tr))
	}
	var cols []ecs.Values
	for _, id := range []ecs.ComponentID{pid, tid, trid} {
		v, err := w.CopyValues(id, es)
		if err != nil {
			t.Fatal(err)
		}
		cols = append(cols, v)
	}
	eq(t, "len", cols[0].Len(), 5)
	eq(t, "bytes", cols[0].Bytes(), 5*16)
	eq(t, "value 3", cols[0].At(3).(Pos), Pos{3, 1})
	cols[1].Value(0).Field(0).Index(0).SetString("changed in the copy")
	if got := ecs.NewMap[Tags](w).Get(es[0]).List[0]; got != "a" {
		t.Fatalf("the copy shares the world's slice: %q", got)
	}
	for _, e := range es {
		w.Despawn(e)
	}
	back := w.SpawnValues(cols, 0, 5)
	var order []ecs.Entity
	for it := ecs.NewQuery1[Pos](w, ecs.Read[Pos]()).Iter(); it.Next(); {
		order = append(order, it.Entity())
	}
	if !slices.Equal(order, back) {
		t.Fatalf("the table holds %v, want them in row order %v", order, back)
	}
	for i, e := range back {
		eq(t, "index", e.Index(), es[i].Index())
		eq(t, "pos", ecs.NewMap[Pos](w).Get(e), Pos{float64(i), 1})
		if !w.Has(e, mustID[ecs.GlobalTransform](t, w)) {
			t.Fatal("no GlobalTransform companion")
		}
	}
	eq(t, "tags of 0", ecs.NewMap[Tags](w).Get(back[0]).List[0], "changed in the copy")
	ecs.NewMap[Tags](w).Mut(back[0]).List[0] = "changed in the world"
	eq(t, "copy after a world change", cols[1].At(0).(Tags).List[0], "changed in the copy")
	if !cols[0].Set(1, &Pos{9, 9}) || cols[0].Set(1, Vel{}) {
		t.Fatal("Set: a *T is taken, another type refused")
	}
	eq(t, "set", cols[0].At(1).(Pos), Pos{9, 9})
	if _, err := w.CopyValues(pid, []ecs.Entity{es[0]}); !errors.Is(err, ecs.ErrDeadEntity) {
		t.Fatalf("a stale entity: %v", err)
	}
	bare := w.Spawn(Vel{})
	if _, err := w.CopyValues(pid, []ecs.Entity{bare}); !errors.Is(err, ecs.ErrNoComponent) {
		t.Fatalf("an entity without the component: %v", err)
	}
	expectPanic(t, "computed", func() {
		g, _ := w.CopyValues(mustID[ecs.GlobalTransform](t, w), back[:1])
		w.SpawnValues([]ecs.Values{g}, 0, 1)
	})
}

// TestSameValues: SameValues against a loop over the entities one at a time, for entities in two tables and in
// a sparse set, in row order and shuffled (runs of rows compared in one piece, and not), with values changed
// here and there; and its errors.
func TestSameValues(t *testing.T) {
	w := newTestWorld()
	type Tag struct{}
	ecs.Register[Tag](w)
	pid := mustID[Pos](t, w)
	pos := ecs.NewMap[Pos](w)
	var es []ecs.Entity
	for i := range 300 {
		e := w.Spawn(Pos{float64(i), 2})
		if i%3 == 0 {
			ecs.NewMap[Tag](w).Add(e, Tag{}) // a second table
		}
		es = append(es, e)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 50 {
		order := slices.Clone(es)
		if round%2 == 1 {
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		before, err := w.CopyValues(pid, order)
		if err != nil {
			t.Fatal(err)
		}
		for range rng.IntN(20) {
			e := order[rng.IntN(len(order))]
			p := pos.Get(e)
			p.X++
			if rng.IntN(4) == 0 {
				p.X-- // written back as it was: the same
			}
			pos.Set(e, p)
		}
		var want []int
		for i, e := range order {
			if pos.Get(e) == before.At(i).(Pos) {
				want = append(want, i)
			}
		}
		got, err := w.SameValues(order, before)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: same %v, want %v", round, got, want)
		}
	}
	// A sparse set: rows by entity, never in runs.
	type Heat struct{ V float32 }
	hid := ecs.Register[Heat](w, ecs.WithStorage(ecs.SparseSet))
	heat := ecs.NewMap[Heat](w)
	for i, e := range es {
		heat.Add(e, Heat{float32(i)})
	}
	hv, err := w.CopyValues(hid, es)
	if err != nil {
		t.Fatal(err)
	}
	heat.Set(es[7], Heat{-1})
	heat.Set(es[8], Heat{8}) // as it was
	got, err := w.SameValues(es, hv)
	if err != nil {
		t.Fatal(err)
	}
	var want []int
	for i := range es {
		if i != 7 {
			want = append(want, i)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("sparse: same %v, want all but 7", got)
	}

	v, _ := w.CopyValues(pid, es[:2])
	if _, err := w.SameValues(es[:3], v); err == nil {
		t.Error("no error for more entities than values")
	}
	w.Despawn(es[1])
	if _, err := w.SameValues(es[:2], v); !errors.Is(err, ecs.ErrDeadEntity) {
		t.Errorf("a dead entity: %v", err)
	}
	ecs.Register[Tags](w)
	e := w.Spawn(Tags{[]string{"a"}})
	tv, _ := w.CopyValues(mustID[Tags](t, w), []ecs.Entity{e})
	if _, err := w.SameValues([]ecs.Entity{e}, tv); !errors.Is(err, ecs.ErrNotPlain) {
		t.Errorf("a type with a slice: %v", err)
	}
	other := w.Spawn()
	if _, err := w.SameValues([]ecs.Entity{other, es[0]}, v); !errors.Is(err, ecs.ErrNoComponent) {
		t.Errorf("an entity without the component: %v", err)
	}
}
